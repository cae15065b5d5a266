#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire-review --flaky-report, as ./run tests calls it after a failed
# run: a failed case and a failed test that the list of known flaky cases
# holds are named with the date and reason of their line; a failed case
# it does not hold, and a listed case that passed, are not; a bad list is
# exit 2 with its file and line. The failure stands: nothing is retried.
#
#   test-flaky-report.sh BPFWIRE_REVIEW
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-flaky-report.sh BPFWIRE_REVIEW"; exit 1; }
review=$(realpath "$1")
tap_tmpdir
{
	jq -cn '{name: "bpfwire:scenarios / netns", result: "FAIL", stdout: "ok 1 - up\nnot ok 2 - rx.wire.reordered\nnot ok 3 - rx.lost\n1..3"}'
	jq -cn '{name: "bpfwire:scenarios / qdisc", result: "OK", stdout: "ok 1 - shaped\n1..1"}'
	jq -cn '{name: "bpfwire:kernel / kernel-suite", result: "TIMEOUT", stdout: "ok 1 - booted\n1..1"}'
} >"$tmp/testlog.json"
cat >"$tmp/known" <<'LIST'
# a comment
netns: rx.wire.reordered | 2026-12-06 | TCG reorders under load
qdisc: shaped | 2026-12-01 | the tbf's rate under TCG
kernel-suite | 2026-12-02 | a slow boot under load
LIST
"$review" --flaky-report --known-flaky "$tmp/known" "$tmp/testlog.json" >"$tmp/out" 2>&1
st=$?
sed 's/^/# /' "$tmp/out"
[ $st = 0 ]
t $? "exit 0: the report names, the failure stands (got $st)"
grep -qx 'known flaky, failed all the same: netns: rx.wire.reordered (listed 2026-12-06: TCG reorders under load)' "$tmp/out"
t $? "a failed case on the list: named with its date and reason"
grep -qx 'known flaky, failed all the same: kernel-suite (listed 2026-12-02: a slow boot under load)' "$tmp/out"
t $? "a failed (timed out) test on the list: named"
! grep -q 'rx.lost' "$tmp/out" && ! grep -q 'qdisc' "$tmp/out"
t $? "a failed case not on the list, and a listed case that passed: not named"
grep -q "^2 failures of $tmp/testlog.json on the list of known flaky cases$" "$tmp/out"
t $? "the count"
printf 'netns: x | 6 Dec | why\n' >"$tmp/bad"
"$review" --flaky-report --known-flaky "$tmp/bad" "$tmp/testlog.json" >"$tmp/bo" 2>&1
st=$?
[ $st = 2 ] && grep -q "$tmp/bad:1:" "$tmp/bo"
t $? "a bad line of the list: exit 2, its file and line (got $st)"
"$review" --flaky-report "$tmp/testlog.json" >"$tmp/repo" 2>&1
t $? "the repository's list reads (exit 0)"
tap_done
