#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# ./run review of the series as their authors posted them (the project's
# shared/seeds/: ksock 007-011, netpoll 001-004, each made one mbox as
# b4 am gives it, by seed-mbox.sh). Each must find Linux 7.2, build, and
# give a verdict (exit 0 or 1, never 2); every difference from bpfwire's
# 7.2 flavour (build-72) must be in the expected list
# (posted-WHICH.expected: MARK TAB TEST TAB CASE TAB CAUSE, CASE a bash
# pattern), and every listed one must show. The list is printed.
#
#   test-posted.sh BPFWIRE_REVIEW SOURCE_ROOT WHICH TESTS
# WHICH: ksock or netpoll; TESTS: --tests of the review (comma-separated).
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 4 ] || { echo "Bail out! usage: test-posted.sh BPFWIRE_REVIEW SOURCE_ROOT WHICH TESTS"; exit 1; }
review=$(realpath "$1") root=$(realpath "$2") which=$3 tests=$4
seeds=$root/../shared/seeds
expected=$root/review/tests/posted-$which.expected
[ -d "$seeds" ] || { echo "1..0 # SKIP $seeds is absent (the posted series ship with the project's shared folder, not with a clone)"; exit 0; }
tap_need_root
command -v jq >/dev/null || { echo "1..0 # SKIP jq is missing (apt-get install jq)"; exit 0; }
[ -f /usr/src/linux-source-7.2.tar.xz ] ||
	{ echo "1..0 # SKIP linux-source-7.2 is not installed (tools/install-sources linux-source-7.2)"; exit 0; }
tap_tmpdir
chmod 755 "$tmp"

"$root/review/tests/seed-mbox.sh" "$seeds" "$which" "$tmp/posted-$which.mbx"
t $? "the posted $which series as one mbox ($(grep -c '^From ' "$tmp/posted-$which.mbx") messages)"

"$review" --name "posted-$which" --tests "$tests" "$tmp/posted-$which.mbx" >"$tmp/review.log" 2>&1
st=$?
sed 's/^/# /' "$tmp/review.log" | tail -40
[ $st = 0 ] || [ $st = 1 ]
t $? "a verdict, exit 0 or 1 (got $st)"
grep -q "kernel: Linux 7.2 takes the series" "$tmp/review.log"
t $? "the review found Linux 7.2, the kernel the series was written for"

res=$(ls -d "$root/build-review-posted-$which"/results/review-* 2>/dev/null | tail -1)
[ -f "$res/review.json" ]
t $? "review.json written${res:+ ($res)}"
jq -r '.items[] | [.mark, .test, .what] | @tsv' "$res/review.json" 2>/dev/null >"$tmp/got"

# Each difference shown must be listed; each listed one must show.
echo "# expected differences ($expected):"
grep -v '^\s*\(#\|$\)' "$expected" | sed 's/^/#   /'
unlisted=0 missing=0
while IFS=$'\t' read -r mark test what; do
	found=0
	while IFS=$'\t' read -r em et ew cause; do
		# shellcheck disable=SC2053
		[[ $mark == "$em" && $test == "$et" && $what == $ew ]] && { found=1; break; }
	done < <(grep -v '^\s*\(#\|$\)' "$expected")
	[ $found = 1 ] || { echo "# not in the list: $mark $test: $what"; unlisted=$((unlisted + 1)); }
done <"$tmp/got"
while IFS=$'\t' read -r em et ew cause; do
	found=0
	while IFS=$'\t' read -r mark test what; do
		# shellcheck disable=SC2053
		[[ $mark == "$em" && $test == "$et" && $what == $ew ]] && { found=1; break; }
	done <"$tmp/got"
	[ $found = 1 ] || { echo "# listed, did not show: $em $et: $ew ($cause)"; missing=$((missing + 1)); }
done < <(grep -v '^\s*\(#\|$\)' "$expected")
[ $unlisted = 0 ]
t $? "every difference from build-72 is in the expected list ($unlisted not)"
[ $missing = 0 ]
t $? "every listed difference shows ($missing did not)"
tap_done
