#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The review's verifier cost (vcost.c), on two made-up test logs of the
# verifier-cost test (bpfwire-vcost's TAP), through bpfwire-review
# --compare: a program whose instructions rose over the threshold is
# changed and named, one under it is not, one that no longer loads is
# worse, a new one is listed with its absolute cost; the same for the
# programs of a series' own selftests (the selftests test's "x.bpf.o:
# PROGRAM" cases, whose refusal is a TODO line).
#
#   test-vcost.sh BPFWIRE_REVIEW
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-vcost.sh BPFWIRE_REVIEW"; exit 1; }
review=$(realpath "$1")
tap_tmpdir
# log FILE TAP: one meson test log line of verifier-cost with TAP as its output
log() {
	jq -cn --arg out "$2" '{name: "bpfwire:kernel / verifier-cost", result: (if ($out | test("^not ok"; "m")) then "FAIL" else "OK" end), stdout: $out}' >"$1"
}
log "$tmp/base.json" 'ok 1 - ksock: ks_send # insns=1000 peak_states=10 total_states=30
ok 2 - ksock: ks_open # insns=500 peak_states=5 total_states=9
ok 3 - ringbuf: rb_open # insns=200 peak_states=2 total_states=3
ok 4 - ksock_up: up_send # SKIP not for this kernel'"'"'s API: kfunc not found
1..4'
log "$tmp/review.json" 'ok 1 - ksock: ks_send # insns=1150 peak_states=12 total_states=31
ok 2 - ksock: ks_open # insns=520 peak_states=5 total_states=9
not ok 3 - ringbuf: rb_open # does not load: R1 invalid mem access '"'"'scalar'"'"'
ok 4 - ksock_up: up_send # SKIP not for this kernel'"'"'s API: kfunc not found
ok 5 - ksock: ks_new # insns=77 peak_states=1 total_states=2
1..5'

"$review" --compare "$tmp/base.json" "$tmp/review.json" >"$tmp/out" 2>&1
st=$?
sed 's/^/# /' "$tmp/out"
[ $st = 1 ]
t $? "a program that no longer loads makes the review worse: exit 1 (got $st)"
grep -q 'verifier-cost: ksock: ks_send: insns=1000 -> insns=1150 (instructions processed +15.0%, over the 10% threshold)' "$tmp/out"
t $? "ks_send's 15% rise is named, with both figures and the threshold"
! grep -q 'changed.*ks_open' "$tmp/out"
t $? "ks_open's 4% rise is not an item"
grep -q 'ringbuf: rb_open: 200 insns, 2 peak states -> does not load' "$tmp/out"
t $? "the section shows rb_open loading on the base and not on the series"
grep -q 'ksock: ks_new: (not there) -> 77 insns, 1 peak states (new)' "$tmp/out"
t $? "the new program is listed with its absolute cost"
grep -q 'ksock_up: up_send: does not load (another API) -> does not load (another API)' "$tmp/out"
t $? "a program of another API is said so on both sides"

"$review" --insns-threshold 20 --compare "$tmp/base.json" "$tmp/review.json" >"$tmp/out20" 2>&1
! grep -q 'over the .*threshold' "$tmp/out20" && grep -q 'a rise over 20% is changed' "$tmp/out20"
t $? "--insns-threshold 20: the 15% rise is shown in the section, not an item"
"$review" --insns-threshold 20x --compare "$tmp/base.json" "$tmp/review.json" >"$tmp/bad" 2>&1
st=$?
[ $st = 2 ] && grep -q "insns-threshold: '20x' is not a percentage" "$tmp/bad"
t $? "--insns-threshold 20x: usage error, exit 2 (got $st)"
# A log without the test: no section at all.
log "$tmp/none.json" 'ok 1 - x
1..1'
sed -i 's/verifier-cost/kernel-suite/' "$tmp/none.json"
"$review" --compare "$tmp/none.json" "$tmp/none.json" >"$tmp/outn" 2>&1
! grep -q 'verifier cost' "$tmp/outn"
t $? "logs without verifier-cost: no verifier section"
# The selftests test: bpfwire's own selftests on the base, the series'
# (new) on the review; then a v8 against its v7 (--base SERIES: the
# series' objects on both sides).
slog() {
	jq -cn --arg out "$2" '{name: "bpfwire:kernel / selftests", result: "OK", stdout: $out}' >"$1"
}
slog "$tmp/sbase.json" 'ok 1 - selftests: test_progs built
ok 2 - bpfwire_ksock
ok 3 - bpfwire_ksock.bpf.o: ks_prog # insns=90 peak_states=2 total_states=4
1..3'
slog "$tmp/sv7.json" 'ok 1 - selftests: test_progs built
ok 2 - ksock_send
ok 3 - ksock_send.bpf.o: send_one # insns=1000 peak_states=9 total_states=20
ok 4 - ksock_send.bpf.o: send_many # insns=3000 peak_states=20 total_states=50
not ok 5 - ksock_send.bpf.o: bad_arg # TODO does not load: R2 must be a ksock
1..5'
slog "$tmp/sv8.json" 'ok 1 - selftests: test_progs built
ok 2 - ksock_send
ok 3 - ksock_send.bpf.o: send_one # insns=1300 peak_states=9 total_states=20
not ok 4 - ksock_send.bpf.o: send_many # TODO does not load: BPF program is too large
not ok 5 - ksock_send.bpf.o: bad_arg # TODO does not load: R2 must be a ksock
1..5'
"$review" --compare "$tmp/sbase.json" "$tmp/sv7.json" >"$tmp/snew" 2>&1
st=$?
sed 's/^/# new: /' "$tmp/snew"
grep -q "the programs of the series' own selftests (selftests; the base ran none of them: each with its absolute cost)" "$tmp/snew" &&
	grep -q 'ksock_send.bpf.o: send_many: (not there) -> 3000 insns, 20 peak states (new)' "$tmp/snew" &&
	grep -q 'ksock_send.bpf.o: bad_arg: (not there) -> does not load (new)' "$tmp/snew" &&
	! grep -q '^  bpfwire_ksock.bpf.o' "$tmp/snew"
t $? "the series' selftests' programs, new: each with its absolute cost, the base's own not in the section"
"$review" --compare "$tmp/sv7.json" "$tmp/sv8.json" >"$tmp/sv" 2>&1
st=$?
sed 's/^/# v8: /' "$tmp/sv"
[ $st = 1 ] && grep -q 'selftests: ksock_send.bpf.o: send_many' "$tmp/sv" &&
	grep -q 'ksock_send.bpf.o: send_many: 3000 insns, 20 peak states -> does not load' "$tmp/sv"
t $? "v8 against v7: a selftests program that no longer loads is worse, exit 1 (got $st)"
grep -q 'selftests: ksock_send.bpf.o: send_one: insns=1000 -> insns=1300 (instructions processed +30.0%, over the 10% threshold)' "$tmp/sv" &&
	grep -q 'ksock_send.bpf.o: bad_arg: does not load -> does not load$' "$tmp/sv"
t $? "v8 against v7: a 30% rise named with both figures; one refused on both sides is no item"
tap_done
