#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire-selftests-run against a stand-in test_progs (fake-test-progs.sh),
# no kernel: TAP per subtest and test, a failed subtest and a crash as FAIL,
# the watchdog ending a sleeping test (and its child) with the reason and
# its tasks' evidence, the next test still run, --xfail as TODO, a bad
# --timeout refused with exit 2; --vcost's lines (fake-vcost.sh) numbered
# on after the tests, a TODO of it no failure, its failed exit one.
. "$(dirname "$0")/../../lab/tests/tap.sh"
run=$1 fake=$(realpath "$(dirname "$0")/fake-test-progs.sh")
tap_tmpdir
t0=$(date +%s)
FAKE_PIDS=$tmp/pids "$run" --test-progs "$fake" --timeout 60 --timeout sleepy=2 --evidence "$tmp/ev" \
	--bpftool /bin/false >"$tmp/out" 2>&1
rc=$?
sed 's/^/# | /' "$tmp/out"
took=$(( $(date +%s) - t0 ))
t $([ "$rc" = 1 ]; echo $?) "exit 1: tests failed (got $rc)"
grep -q '^ok [0-9]* - good/one$' "$tmp/out" && grep -q '^ok [0-9]* - good$' "$tmp/out"
t $? "good: a line per subtest and one for the test"
grep -q '^not ok [0-9]* - bad/sub$' "$tmp/out" && grep -q '^# bad: ASSERT_EQ failed' "$tmp/out"
t $? "bad: its subtest FAILs, its output follows as # lines"
grep -q '^not ok [0-9]* - crash: test_progs ended (status 0xb) without a result$' "$tmp/out"
t $? "crash: no result line is a FAIL with the status"
grep -q '^ok [0-9]* - sleepy/first$' "$tmp/out" &&
	grep -q '^not ok [0-9]* - sleepy: watchdog: no result in 2 s, killed$' "$tmp/out"
t $? "sleepy: the subtest before the hang, then FAIL with the watchdog's reason"
ev=$tmp/ev/sleepy.hang.txt
[ "$(grep -c '^task [0-9]* (.*) state' "$ev" 2>/dev/null)" -ge 2 ] &&
	grep -q 'kernel stack' "$ev" && grep -q '^dmesg' "$ev"
t $? "sleepy: its evidence file names its tasks (2), their stacks and dmesg"
t $([ "$took" -lt 30 ]; echo $?) "the watchdog did not wait for the sleeping child ($took s)"
left=
# a killed child is a zombie until init reaps it: dead all the same
for p in $(cat "$tmp/pids" 2>/dev/null || echo none); do
	st=$(sed 's/.*) \(.\).*/\1/' "/proc/$p/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && left="$left $p"
done
t $([ -s "$tmp/pids" ] && [ -z "$left" ]; echo $?) "no task of the hung test is left (pids: $(cat "$tmp/pids" 2>/dev/null))"
grep -q '^# selftests: ran 4 tests and 4 subtests, 4 failed' "$tmp/out" && grep -q '^1\.\.8$' "$tmp/out"
t $? "the count of tests run and the plan"
"$run" --test-progs "$fake" --timeout 2 --xfail sleepy sleepy >"$tmp/x" 2>&1
rc=$?
grep -q '^not ok 2 - sleepy: watchdog: .* # TODO meant to fail' "$tmp/x"
ok=$?
t $([ $ok = 0 ] && [ $rc = 0 ]; echo $?) "--xfail: the hang is a TODO line, exit 0 (got $rc)"
"$run" --test-progs "$fake" --xfail good good >"$tmp/y" 2>&1
t $([ $? = 1 ]; echo $?) "--xfail of a test that passes: exit 1"
"$run" --test-progs "$fake" --timeout 0 >"$tmp/z" 2>&1
t $([ $? = 2 ]; echo $?) "--timeout 0: usage error, exit 2"
mkdir "$tmp/obj"
: >"$tmp/obj/b_test.bpf.o"; : >"$tmp/obj/a_test.bpf.o"; : >"$tmp/obj/a_test.linked.o"
vc=$(dirname "$fake")/fake-vcost.sh
"$run" --test-progs "$fake" --vcost "$vc" --objects "$tmp/obj" good >"$tmp/v" 2>&1
rc=$?
sed 's/^/# | /' "$tmp/v"
grep -q '^ok 4 - a_test.bpf.o: good_prog # insns=120 peak_states=3' "$tmp/v" &&
	grep -q "^not ok 5 - a_test.bpf.o: meant_to_fail # TODO does not load" "$tmp/v" &&
	grep -q '^ok 6 - b_test.bpf.o: good_prog' "$tmp/v" && grep -q '^1\.\.7$' "$tmp/v" &&
	grep -q '^# libbpf: a warning on stderr' "$tmp/v" && ! grep -q 'linked' "$tmp/v"
t $? "--vcost: each *.bpf.o's programs after the tests, numbered on, one plan, stderr as # lines"
t $([ "$rc" = 0 ]; echo $?) "--vcost: a program that does not load (TODO) fails nothing (got $rc)"
FAKE_VCOST_EXIT=1 "$run" --test-progs "$fake" --vcost "$vc" --objects "$tmp/obj" good >"$tmp/v1" 2>&1
rc=$?
grep -q '^not ok 8 - verifier cost: bpfwire-vcost exited with status 0x100$' "$tmp/v1"
t $([ $? = 0 ] && [ "$rc" = 1 ]; echo $?) "--vcost exiting 1: a failed line, exit 1 (got $rc)"
"$run" --test-progs "$fake" --vcost "$vc" good >"$tmp/v2" 2>&1
t $([ $? = 2 ]; echo $?) "--vcost without --objects: usage error, exit 2"
tap_done
