#!/bin/sh
# TAP: the last reference of a netpoll context (fix 0025) or of a ksock
# (fix 0026) dropped in NMI. kernel-tests' two cases run alone in a lab
# run of lone-smp (their SysRq l prints every CPU's backtrace, splats to
# the console scan, so the kernel suite skips them): the run must fail for
# those splats alone, each case ok (or a stated TODO: the merged ksock
# code on the upstream flavours), and the console must show a backtrace
# taken in NMI. Needs root and a kernel with ksock (the scenario's needs).
# Usage: test-nmi-release.sh BPFWIRE_LAB SCENARIO
lab=$1 scn=$2
. "$(dirname "$0")/../../lab/tests/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir
"$lab" run --no-capture --results "$tmp/r" "$scn" > "$tmp/log" 2>&1
st=$?
# needs ksock: a kernel without it (a review's) skips the whole run
[ "$st" = 77 ] && { echo "1..0 # SKIP $(head -1 "$tmp/r/summary.txt" 2>/dev/null || tail -1 "$tmp/log")"; exit 0; }
sum=$tmp/r/summary.txt con=$tmp/r/consoles/lone.log tap=$tmp/r/hosts/lone/nmi.tap
show() { [ $fail = 0 ] || sed 's/^/#   /' "$tmp/log" "$sum" 2>/dev/null; }
# the cases' whole TAP, from the guest's share kept with the results
sed 's/^/# case: /' "$tap" 2>/dev/null
if [ "$(grep 'dropped in NMI' "$tap" 2>/dev/null | grep -c '# SKIP')" = 2 ]; then
	echo "1..0 # SKIP neither netpoll nor a known ksock API in this kernel"
	exit 0
fi
passed() { grep -q "^  ok   line .* check  .*$1" "$sum" 2>/dev/null; }
[ "$st" = 1 ]; t $? "the run fails (exit $st), for SysRq l's backtraces"
head -1 "$sum" 2>/dev/null | grep -q ": FAIL: .*splat"
t $? "for splats alone ($(head -1 "$sum" 2>/dev/null))"
grep -aq "NMI backtrace for cpu" "$con" 2>/dev/null
t $? "the console shows a CPU's backtrace taken in NMI"
passed 'n\.notok == 0'
t $? "no case failed: each release in NMI went through irq_work, no queue_rcu_work() in NMI (a TODO states a known limit)"
passed 'n\.ok + n\.todo + n\.skip == 2' && passed 'n\.ok >= 1'
t $? "both cases reported, at least one ran and passed: $(grep -c '^ok .*dropped in NMI' "$tap" 2>/dev/null) ok, $(grep -c '# TODO' "$tap" 2>/dev/null) TODO"
! grep -q '^  FAIL line' "$sum" 2>/dev/null
t $? "every step ran and passed: only the console fails the run"
show
tap_done
