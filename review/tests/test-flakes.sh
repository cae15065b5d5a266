#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A case worse in the review's run is run again on both builds before it
# is called worse (bpfwire-review --retries, --retry-budget), through the
# whole review with a fake meson (tests/fake-meson.sh): no kernel, seconds.
#  flaky     case a fails in the first run only: exit 0, "FLAKY ... [worse
#            in 1 of 3 runs]" in the text, review.json and review.eml (its
#            Flaky section), Tested-by kept, the reruns' line with the budget
#  worse     it fails in every run: exit 1, "[worse in 3 of 3 runs]"
#  none      --retries 0: exit 1, no rerun
#  budget    a test of 40 s each side and --retry-budget 60: no round
#            started (the estimate is said), exit 1
#
#   test-flakes.sh BPFWIRE_REVIEW SOURCE_ROOT
set -u
[ $# -eq 2 ] || { echo "Bail out! usage: test-flakes.sh BPFWIRE_REVIEW SOURCE_ROOT"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
. "$root/kernel/tests/fake-kernel.sh"
. "$root/review/tests/fake-meson.sh"
review=$(realpath "$1")
fake_meson_need FLAKES_TEST_NS "$0" "$@"
tap_tmpdir
[ -z "${KEEP:-}" ] || trap - EXIT
fake_meson_setup
printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH] t" \
	"Message-ID: <t@example.invalid>" "" "t" >"$tmp/t.mbx"

# run NAME [ARGS]: a review; $rc, $out, $res (its results dir)
run() {
	local name=$1
	shift
	out=$tmp/$name.out
	fake_meson_forget_base
	env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --name flakes \
		--tests kernel-suite --source "$tmp/src" "$@" "$tmp/t.mbx" >"$out" 2>&1
	rc=$?
	sed "s/^/#   /" "$out" | grep -v "^#     kernel: " | tail -n 16
	res=$(sed -n 's/^results: //p' "$out")
	rm -f "$tmp"/tap.*
}
has() { grep -qF -- "$1" "$out"; }

# flaky: a fails in the review's first run, passes in its reruns
printf 'not ok 1 - a\nok 2 - b\n' >"$tmp/tap.review.review"
printf 'ok 1 - a\nok 2 - b\n' >"$tmp/tap.review"
printf 'ok 1 - a\nok 2 - b\n' >"$tmp/tap.base"
run flaky
t $([ "$rc" = 0 ] && echo 0) "flaky: exit 0 (got $rc)"
has "  FLAKY   case  kernel-suite: a: ok -> not ok [worse in 1 of 3 runs]" &&
	has "  FLAKY   test  kernel-suite: OK -> FAIL [worse in 1 of 3 runs]" &&
	has "2 flaky (worse in some runs only), 0 known flaky" && has "verdict: OK (0 worse"
t $? "flaky: the case and its test are reported flaky with their counts, the verdict OK"
has "bpfwire-review: flakes: 1 tests hold worse cases (kernel-suite): each runs again on both builds, up to 2 times, within 600 s" &&
	has "reruns: kernel-suite, 2 more times on both builds," && has "2 flaky, 0 still worse"
t $? "flaky: the reruns, their budget and their outcome said"
for f in review-retry-1 review-retry-2; do [ -f "$tmp/build-review-flakes/meson-logs/$f.json" ] || break; done &&
	[ -f "$tmp/base/meson-logs/review-baseline-retry-2.json" ]
t $? "flaky: each round ran on the review's build and the baseline's"
[ "$(jq -r '.flaky, .worse, (.items[] | select(.mark == "FLAKY") | "\(.kind):\(.what) \(.worse_runs)/\(.runs)")' "$res/review.json" 2>&1 | paste -sd' ')" = "2 0 test: 1/3 case:a 1/3" ]
t $? "flaky: review.json: flaky 2, worse 0, each item with worse_runs 1 of runs 3"
git mailinfo -k "$tmp/msg" "$tmp/patch" <"$res/review.eml" >/dev/null &&
	grep -q "^Flaky: 2 worse in some runs only" "$tmp/msg" && grep -qF "  case  kernel-suite: a: ok -> not ok [worse in 1 of 3 runs]" "$tmp/msg" &&
	grep -qx "Tested-by: bpfwire <bpfwire@example.invalid>" "$tmp/msg"
t $? "flaky: review.eml has its Flaky section, and Tested-by (nothing is worse)"

# worse: a fails in every run of the review
printf 'not ok 1 - a\nok 2 - b\n' >"$tmp/tap.review"
printf 'ok 1 - a\nok 2 - b\n' >"$tmp/tap.base"
run worse
t $([ "$rc" = 1 ] && echo 0) "worse: exit 1 (got $rc)"
has "  WORSE   case  kernel-suite: a: ok -> not ok [worse in 3 of 3 runs]" && has "verdict: WORSE (2 worse"
t $? "worse: the case and its test worse in 3 of 3 runs"
[ -f "$res/review.eml" ] && ! grep -q "^Tested-by:" "$res/review.eml"
t $? "worse: no Tested-by in review.eml"

# none: --retries 0
printf 'not ok 1 - a\n' >"$tmp/tap.review.review"
run none --retries 0
t $([ "$rc" = 1 ] && ! has "bpfwire-review: flakes:" && ! has "[worse in" && echo 0) "--retries 0: exit 1 (got $rc), nothing run again"

# budget: 40 s a side, 80 s a round, 60 s allowed
printf 'not ok 1 - a\n' >"$tmp/tap.review.review"
echo 40 >"$tmp/duration"
run budget --retry-budget 60
rm -f "$tmp/duration"
t $([ "$rc" = 1 ] && has "flakes: no round 1: about 80 s, 60 s of the budget left" && ! has "[worse in" && echo 0) \
	"--retry-budget 60 with 80 s a round: no round started, said, exit 1 (got $rc)"

run bad --retries 11
t $([ "$rc" = 2 ] && has "--retries: '11' is not a count from 0 to 10" && echo 0) "--retries 11: exit 2, said (got $rc)"
tap_done
