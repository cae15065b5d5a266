#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ./run review of the series as their authors posted them (the project's
# shared/seeds/: ksock 007-011, netpoll 001-004, each made one mbox as
# b4 am gives it, by seed-mbox.sh), on Linux 7.2, the kernel they were
# written for, against bpfwire's 7.2 flavour (BASE, build-72). The
# expected verdict is posted-WHICH.expected, printed by the test:
#   MARK TAB TEST TAB CASE TAB CAUSE   a difference the review names (CASE
#                                      a bash pattern, "(the test)" for the
#                                      test's own result); CAUSE names the
#                                      bpfwire patch that makes it
#   NOBUILD TAB - TAB LINE TAB CAUSE   the series does not build on 7.2:
#                                      a verdict, exit 1, whose one item is
#                                      the kernel build with LINE (a bash
#                                      pattern) as its first error
# Every difference the review names must be listed, and every listed one
# must show.
#
#   test-posted.sh BPFWIRE_REVIEW SOURCE_ROOT WHICH TESTS BASE
# WHICH: ksock or netpoll; TESTS: the review's --tests (comma-separated);
# BASE: the 7.2 baseline's build directory (meson gives SOURCE/build-72).
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 5 ] || { echo "Bail out! usage: test-posted.sh BPFWIRE_REVIEW SOURCE_ROOT WHICH TESTS BASE"; exit 1; }
review=$(realpath "$1") root=$(realpath "$2") which=$3 tests=$4 base=$5
seeds=$root/../shared/seeds
expected=$root/review/tests/posted-$which.expected
[ -d "$seeds" ] || { echo "1..0 # SKIP $seeds is absent (the posted series ship with the project's shared folder, not with a clone)"; exit 0; }
tap_need_root
command -v jq >/dev/null || { echo "1..0 # SKIP jq is missing (apt-get install jq)"; exit 0; }
[ -f /usr/src/linux-source-7.2.tar.xz ] ||
	{ echo "1..0 # SKIP linux-source-7.2 is not installed (tools/install-sources linux-source-7.2)"; exit 0; }
[ -f "$base/build.ninja" ] && [ -f "$base/kernel/bzImage" ] ||
	{ echo "1..0 # SKIP the 7.2 baseline $base is not built (meson setup $base -Dkernel_version=7.2 && ninja -C $base)"; exit 0; }
tap_tmpdir
chmod 755 "$tmp"
rows() { grep -v '^[[:space:]]*\(#\|$\)' "$expected"; }

echo "# expected verdict ($expected):"
rows | sed 's/^/#   /'
nobuild=$(rows | awk -F'\t' '$1 == "NOBUILD"' | head -1)

"$root/review/tests/seed-mbox.sh" "$seeds" "$which" "$tmp/posted-$which.mbx"
t $? "the posted $which series as one mbox ($(grep -c '^From ' "$tmp/posted-$which.mbx") messages)"

# --retries 0: a flake would be its own mark (FLAKY); the list holds
# what every run shows.
"$review" --name "posted-$which" --tests "$tests" --retries 0 --base "$base" \
	"$tmp/posted-$which.mbx" >"$tmp/review.log" 2>&1
st=$?
sed 's/^/# /' "$tmp/review.log" | tail -60
grep -q "Linux 7.2 takes the series" "$tmp/review.log"
t $? "the review found Linux 7.2, the kernel the series was written for"

if [ -n "$nobuild" ]; then
	IFS=$'\t' read -r _ _ line cause <<<"$nobuild"
	[ "$st" = 1 ] && grep -q "the series did not build" "$tmp/review.log"
	t $? "the series does not build on 7.2, as listed: a verdict, exit 1 (got $st), \"did not build\""
	res=$(ls -d "$root/build-review-posted-$which"/results/review-* 2>/dev/null | tail -1)
	jq -r '.items[] | [.mark, .test, .note] | @tsv' "$res/review.json" >"$tmp/got" 2>/dev/null
	sed 's/^/# item: /' "$tmp/got"
	IFS=$'\t' read -r mark test note <"$tmp/got"
	# shellcheck disable=SC2053
	[ "$(wc -l <"$tmp/got")" = 1 ] && [ "$mark" = WORSE ] && [ "$test" = "kernel build" ] && [[ $note == $line ]]
	t $? "its one item: WORSE, the kernel build, first error as listed: $line ($cause)"
	[ -s "$res/review.eml" ] && [ -s "$res/review.txt" ]
	t $? "review.txt and review.eml written${res:+ ($res)}"
	tap_done
fi

[ "$st" = 0 ] || [ "$st" = 1 ]
t $? "a verdict, exit 0 or 1 (got $st)"
res=$(ls -d "$root/build-review-posted-$which"/results/review-* 2>/dev/null | tail -1)
[ -f "$res/review.json" ]
t $? "review.json written${res:+ ($res)}"
# a test's own row has no case: "(the test)", as the list writes it (an
# empty field between tabs would merge with the next in read)
jq -r '.items[] | [.mark, .test, (if .what == "" then "(the test)" else .what end)] | @tsv' \
	"$res/review.json" 2>/dev/null >"$tmp/got"
echo "# the review's differences: $(wc -l <"$tmp/got")"

# Each difference shown must be listed; each listed one must show.
unlisted=0 missing=0
while IFS=$'\t' read -r mark test what; do
	found=0
	while IFS=$'\t' read -r em et ew cause; do
		# shellcheck disable=SC2053
		[[ $mark == "$em" && $test == "$et" && $what == $ew ]] && { found=1; break; }
	done < <(rows)
	[ $found = 1 ] || { echo "# not in the list: $mark	$test	$what"; unlisted=$((unlisted + 1)); }
done <"$tmp/got"
while IFS=$'\t' read -r em et ew cause; do
	found=0
	while IFS=$'\t' read -r mark test what; do
		# shellcheck disable=SC2053
		[[ $mark == "$em" && $test == "$et" && $what == $ew ]] && { found=1; break; }
	done <"$tmp/got"
	[ $found = 1 ] || { echo "# listed, did not show: $em $et: $ew ($cause)"; missing=$((missing + 1)); }
done < <(rows)
[ $unlisted = 0 ]
t $? "every difference from $base is in the expected list ($unlisted not)"
[ $missing = 0 ]
t $? "every listed difference shows ($missing did not)"
tap_done
