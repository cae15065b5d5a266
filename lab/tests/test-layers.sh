#!/bin/bash
# lab/'s five folders include one way: cli -> scenario -> report -> vm ->
# topo. A file includes headers of its own folder (a bare name) and of the
# folders below it ("vm/model.h"), never of a folder above, and a bare name
# must not be another lab folder's header. Usage: test-layers.sh LABDIR
. "$(dirname "$0")/tap.sh"
lab=${1:?usage: test-layers.sh LABDIR}
order=(topo vm report scenario cli)
rank() { local i; for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && echo "$i" && return; done; echo -1; }
for dir in "${order[@]}"; do
	mine=$(rank "$dir") bad=
	for f in "$lab/$dir"/*.[ch] "$lab/$dir"/tests/*.c; do
		[ -e "$f" ] || continue
		while IFS= read -r inc; do
			case $inc in
			*/*)	r=$(rank "${inc%%/*}")
				[ "$r" -ge 0 ] && [ "$r" -gt "$mine" ] && bad+=" ${f#"$lab"/} -> $inc (above)"
				# tests/ sit one down and name their folder's headers by path
				[ "$r" -eq "$mine" ] && [ "${f%/tests/*}" = "$f" ] &&
					bad+=" ${f#"$lab"/} -> $inc (its own folder, by a path)";;
			*)	[ -e "$lab/$dir/$inc" ] || [ -e "$(dirname "$f")/$inc" ] && continue
				for other in "${order[@]}"; do
					[ "$other" != "$dir" ] && [ -e "$lab/$other/$inc" ] &&
						bad+=" ${f#"$lab"/} -> $inc (${other}'s, by a bare name)"
				done;;
			esac
		done < <(sed -n 's/^#include "\(.*\)".*/\1/p' "$f")
	done
	t "$([ -z "$bad" ] && echo 0)" "$dir/ includes only its own and lower folders' headers${bad:+:$bad}"
done
# The rule itself: a planted include of a folder above is caught.
[ -z "${LAYERS_INNER:-}" ] || tap_done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$lab/topo" "$lab/vm" "$tmp/"
echo '#include "scenario/runner.h"' >> "$tmp/vm/model.c"
mkdir -p "$tmp/scenario" "$tmp/report" "$tmp/cli"
out=$(LAYERS_INNER=1 "$0" "$tmp" 2>&1)
t "$(grep -q '^not ok .* vm/ .*vm/model.c -> scenario/runner.h (above)' <<<"$out" && echo 0)" \
	"a planted vm/model.c -> scenario/runner.h is named"
tap_done
