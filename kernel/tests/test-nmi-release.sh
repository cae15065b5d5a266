#!/bin/sh
# TAP: a netpoll context's last reference dropped in NMI (fix 0025).
# kernel-tests' case runs alone in a lab run of lone-smp (its SysRq l
# prints every CPU's backtrace, splats to the console scan, so the
# kernel suite skips it): the run must fail for those splats alone, with
# the case ok, and the console must show the backtrace of the other CPU,
# taken in NMI. Needs root and a kernel with netpoll.
# Usage: test-nmi-release.sh BPFWIRE_LAB SCENARIO
lab=$1 scn=$2
. "$(dirname "$0")/../../lab/tests/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir
"$lab" run --no-capture --results "$tmp/r" "$scn" > "$tmp/log" 2>&1
st=$?
sum=$tmp/r/summary.txt con=$tmp/r/consoles/lone.log
show() { [ $fail = 0 ] || sed 's/^/#   /' "$tmp/log" "$sum" 2>/dev/null; }
# the case's own TAP line, the step's last line of output
line=$(sed -n 's/^ *| //p' "$sum" 2>/dev/null | grep 'dropped in NMI' | tail -1)
# the case's whole TAP, from the guest's share kept with the results
sed 's/^/# case: /' "$tmp/r/hosts/lone/nmi.tap" 2>/dev/null
case $line in
*"# SKIP no netpoll"*) echo "1..0 # SKIP no netpoll in this kernel"; exit 0 ;;
esac
[ "$st" = 1 ]; t $? "the run fails (exit $st), for SysRq l's backtraces"
head -1 "$sum" 2>/dev/null | grep -q ": FAIL: .*splat"
t $? "for splats alone ($(head -1 "$sum" 2>/dev/null))"
grep -aq "NMI backtrace for cpu" "$con" 2>/dev/null
t $? "the console shows a CPU's backtrace taken in NMI"
grep -q '^  ok   line .* check  .*n\.ok == 1' "$sum" 2>/dev/null &&
	grep -q '^  ok   line .* check  .*n\.notok == 0' "$sum" 2>/dev/null
t $? "the case passed: the release in NMI went through irq_work, no queue_rcu_work() in NMI"
grep -q '^  ok   line .* check  .*n\.skip == 0' "$sum" 2>/dev/null
t $? "the case ran (not SKIP)"
! grep -q '^  FAIL line' "$sum" 2>/dev/null
t $? "every step ran and passed: only the console fails the run"
show
tap_done
