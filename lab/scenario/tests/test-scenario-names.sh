#!/bin/sh
# Which files are scenarios: scenarios/names.sh is the only rule (no dot in
# the name, a lowercase letter), and both users run it: meson's list of
# scenario tests (passed here) and `bpfwire-lab scenarios`. Nothing boots.
# Usage: test-scenario-names.sh BPFWIRE_LAB NAMES_SH SCENARIOS_DIR MESON_NAME...
lab=$1 names=$2 dir=$3
. "$(dirname "$0")/../../tests/tap.sh"
shift 3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# meson's list is the script's on the shipped folder, every name a scenario
meson_list=$(printf '%s\n' "$@")
[ "$meson_list" = "$(sh "$names" "$dir")" ]; t $? "meson's scenario tests: names.sh's list ($# names)"
for f; do
	case $f in *.* | "") t 1 "meson lists '$f', which has a dot or is empty" ;; esac
done

# the rule on a folder of every kind of name
mkdir "$tmp/s"
for f in README.md TEMPLATE UPPER1 rx-dead.jq run.sh .hidden good a-b_c9 Mixed; do
	printf 'summary %s\ntopology lone\nexec lone -- true\nreport rx lone rx.json\n' "$f" > "$tmp/s/$f"
done
want=$(printf 'Mixed\na-b_c9\ngood')
rule=$(sh "$names" "$tmp/s")
[ "$rule" = "$want" ]; t $? "names.sh: no dot and a lowercase letter, in byte order (got: $(echo "$rule" | tr "\n" " "))"
# the runner follows the script, whatever it says: change the rule and this holds
got=$(BPFWIRE_SCENARIOS=$tmp/s "$lab" scenarios 2>&1 | cut -d' ' -f1)
[ "$got" = "$rule" ]; t $? "bpfwire-lab scenarios: names.sh's names (got: $(echo "$got" | tr "\n" " "))"
mkdir "$tmp/empty"
[ -z "$(sh "$names" "$tmp/empty")" ]; t $? "names.sh: an empty folder, no names"
BPFWIRE_SCENARIOS=$tmp/empty "$lab" scenarios >/dev/null 2>&1; t $? "bpfwire-lab scenarios: an empty folder, exit 0"
tap_done
