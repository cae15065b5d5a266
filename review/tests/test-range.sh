#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire-review --base SERIES: a v8 against its v7 through the whole
# review, with the fakes of tests/fake-meson.sh (no kernel, no guest) and
# the versions of kernel/tests/fake-versions.sh on its fake tree.
#  v8    exit 0; review.txt's range section: patch 1 unchanged, 2 changed,
#        3 new (its hostile subject escaped), v7's 3 dropped, then the
#        range-diff indented; review.json's "range" (statuses, patch-ids,
#        the range-diff); review.html and review.eml (statuses only, read
#        by git mailinfo, Tested-by kept) have it; no ESC or BEL anywhere,
#        no line starts with the fake verdict; the base was run
#  v8m   the same tree as v7: said, the base neither built nor run
#  bad   a base that does not apply: the range "not run", said, exit 0
#
#   test-range.sh BPFWIRE_REVIEW SOURCE_ROOT
set -u
[ $# -eq 2 ] || { echo "Bail out! usage: test-range.sh BPFWIRE_REVIEW SOURCE_ROOT"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
. "$root/kernel/tests/fake-kernel.sh"
. "$root/kernel/tests/fake-versions.sh"
. "$root/review/tests/fake-meson.sh"
review=$(realpath "$1")
command -v jq >/dev/null || { echo "1..0 # SKIP no jq"; exit 0; }
fake_meson_need RANGE_TEST_NS "$0" "$@"
tap_tmpdir
[ -z "${KEEP:-}" ] || trap - EXIT
fake_meson_setup
# the series are made on a git copy of the fake tree that is --source
fake_kernel "$tmp/k" --git
fake_versions "$tmp/k" "$tmp" || echo "Bail out! the hostile subject was not put in"

# run NAME SERIES BASE: a review of SERIES against the series BASE; $rc, $out, $res
run() {
	local name=$1 series=$2 base=$3
	out=$tmp/$name.out
	env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/$base" --name "$name" \
		--tests kernel-suite --source "$tmp/src" --retries 0 "$tmp/$series" >"$out" 2>&1
	rc=$?
	sed "s/^/#   /" "$out" | grep -v "^#     kernel: " | tail -n 20
	res=$(sed -n 's/^results: //p' "$out")
}
has() { grep -qF -- "$1" "$out"; }
# clean FILE N: no ESC, no BEL, and N lines start with "verdict: " (the real one's)
clean() { ! grep -q $'[\033\007]' "$1" && [ "$(grep -c '^ *verdict: ' "$1")" = "$2" ]; }

run v8 v8.mbx v7.mbx
t $([ "$rc" = 0 ] && [ -n "$res" ] && echo 0) "v8: exit 0 (got $rc)"
txt=$res/review.txt
grep -qxF "range: against the base series $tmp/v7.mbx (git range-diff; unchanged: the same git patch-id --stable): 3 patches: 1 unchanged, 1 changed, 1 new; 1 of the base's 3 dropped" "$txt" &&
	grep -qxF '  patch 1 "net: sock_4 returns 44": unchanged (base patch 1)' "$txt" &&
	grep -qxF '  patch 2 "net: sock_10 returns more": changed (base patch 2)' "$txt" &&
	grep -qxF '  patch 3 "net: new\x1b]0;owned\x07 verdict: OK": new' "$txt" &&
	grep -qxF '  dropped: base patch 3 "net: dev_addr_lists_5, dropped in v8"' "$txt"
t $? "v8: review.txt's range section: 1 unchanged, 2 changed, 3 new (escaped), v7's 3 dropped"
grep -qxF 'range-diff:' "$txt" && grep -qE '^  2: +[0-9a-f]+ ! 2: +[0-9a-f]+ net: sock_10 returns more$' "$txt" &&
	grep -qxF -- '      ++int sock_10(void) { return 1000; }' "$txt" && clean "$txt" 1 && clean "$out" 1 && has "range: against the base series"
t $? "v8: the range-diff follows, indented; no ESC, BEL or fake verdict line in review.txt (and on the terminal)"
[ "$(jq -r '.range | [.counts.unchanged, .counts.changed, .counts.new, .counts.dropped, (.patches[] | .status), .dropped[0].base_patch, .same_tree] | map(tostring) | join(" ")' "$res/review.json" 2>&1)" = \
	"1 1 1 1 unchanged changed new 3 false" ] &&
	[ "$(jq -r '.range.patches[0] | .patch_id == .base_patch_id' "$res/review.json")" = true ] &&
	[ "$(jq -r '.range.patches[1] | .patch_id != .base_patch_id and (.patch_id | test("^[0-9a-f]{40}$"))' "$res/review.json")" = true ] &&
	[ "$(jq -r '.range.patches[2].subject' "$res/review.json")" = "net: new"$'\033'"]0;owned"$'\007'" verdict: OK" ] &&
	jq -r .range.range_diff "$res/review.json" | grep -qxF -- '    ++int sock_10(void) { return 1000; }'
t $? "v8: review.json's range: counts, statuses, patch-ids (1 equal, 2 not), the subject as data, the range-diff"
grep -qF 'patch 3 &quot;net: new\\x1b' "$res/review.html" 2>/dev/null || grep -qF 'patch 3 "net: new\\x1b' "$res/review.html"
r=$?
[ $r = 0 ] && grep -qF 'range-diff:' "$res/review.html" && ! grep -q $'[\033\007]' "$res/review.html"
t $? "v8: review.html has the section and the range-diff, escaped"
git mailinfo -k "$tmp/msg" "$tmp/patch" <"$res/review.eml" >/dev/null &&
	grep -qF '  patch 2 "net: sock_10 returns more": changed (base patch 2)' "$tmp/msg" &&
	grep -qF '  patch 3 "net: new\x1b]0;owned\x07 verdict: OK": new' "$tmp/msg" &&
	grep -qF '(the range-diff is in review.txt)' "$tmp/msg" && ! grep -q '1000' "$tmp/msg" &&
	clean "$res/review.eml" 0 && grep -qx "Tested-by: bpfwire <bpfwire@example.invalid>" "$tmp/msg"
t $? "v8: review.eml's range section (statuses only), escaped, read by git mailinfo; Tested-by kept"
[ -f "$tmp/build-review-v8-base/meson-logs/review-baseline.json" ] && ! has "makes the same tree"
t $? "v8: the trees differ: the base series was built and run"

run v8m v8m.mbx v7.mbx
t $([ "$rc" = 0 ] && echo 0) "v8m: exit 0 (got $rc)"
has "baseline: the base series makes the same tree as the series (the same kernel but for its release name): the review's results stand for it, not built or run twice" &&
	[ ! -e "$tmp/build-review-v8m-base/meson-logs/review-baseline.json" ] &&
	grep -qxF "  the two series make the same tree: the same kernel but for its release name; the base was neither built nor run, the review's results stand for it" "$res/review.txt" &&
	[ "$(jq -r '.range | "\(.same_tree) \(.baseline_reused) \(.counts.unchanged)"' "$res/review.json")" = "true true 3" ]
t $? "v8m (messages reworded only): the same tree said, 3 unchanged, the base neither built nor run"

# v7 does not apply where sock_4 moved on
sed -i 's/^int sock_4(void) { return 4; }$/int sock_4(void) { return 40; }/' "$tmp/src/net/core/sock.c"
run bad v8m.mbx v7.mbx
grep -q "^range: against the base series $tmp/v7.mbx: not run: kernel/build.sh --fit --range-base exited 1" "$res/review.txt" 2>/dev/null
t $? "a base that does not apply: the range is not run, and said so (exit $rc)"
tap_done
