#!/bin/sh
# Hangs leave evidence. hung-task: a task in D state
# past the (lowered) hung-task timeout fails its run, every step passing,
# with khungtaskd's "INFO: task ... blocked for more than" line quoted in
# summary.txt from the console; hung-control: the same D state under the
# kernel's own timeout passes; hung-deadline: a wait that misses its
# deadline on a hanging task gets SysRq w and l before the kill, so the
# console names the blocked task; detectors-off: guest root's writes that
# would turn off or postpone the detectors (kernel.watchdog=0,
# printk_delay, hung_task_timeout_secs=0, ...) are refused, and a hung
# task still fails the run. Needs root and the debug kernel.
# Usage: test-hung-task.sh BPFWIRE_LAB SCENARIO_DIR
lab=$1 dir=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
config=$(dirname "$kernel")/config
grep -q '^CONFIG_DETECT_HUNG_TASK=y' "$config" 2>/dev/null ||
	{ echo "1..0 # SKIP $kernel has no DETECT_HUNG_TASK (not the debug flavour?)"; exit 0; }
tap_tmpdir

# run NAME: the run's exit status in $st, its summary in $sum, its time in the log
run() {
	t0=$(date +%s)
	"$lab" run --no-capture --results "$tmp/$1" "$dir/$1" > "$tmp/$1.log" 2>&1
	st=$?
	sum=$tmp/$1/summary.txt con=$tmp/$1/consoles/lone.log
	echo "# $1: exit $st in $(($(date +%s) - t0)) s"
}
show() { [ $fail = 0 ] || sed 's/^/#   /' "$tmp/$1.log" "$tmp/$1/summary.txt" 2>/dev/null; }

hung='INFO: task dstate-waiter:[0-9]* blocked for more than [0-9]* seconds'
run hung-task
[ "$st" = 1 ]; t $? "hung-task: the run fails (exit $st)"
head -1 "$sum" 2>/dev/null | grep -q ": FAIL: .*splat"
t $? "hung-task: summary.txt's verdict is FAIL for a splat ($(head -1 "$sum" 2>/dev/null))"
quoted=$(grep -m1 "^    .*$hung" "$sum" 2>/dev/null)
[ -n "$quoted" ]; t $? "hung-task: summary.txt quotes khungtaskd's line:$quoted"
grep -q "^  ok   line .* check  .*h.hung >= 1" "$sum" 2>/dev/null
t $? "hung-task: every step ran and passed: only the console fails the run"
grep -q "$hung" "$con" 2>/dev/null
t $? "hung-task: the quoted line is the guest kernel's, in consoles/lone.log"
show hung-task

run hung-control
[ "$st" = 0 ]; t $? "hung-control: the same D state under the 20 s timeout passes (exit $st)"
! grep -q "blocked for more than" "$con" 2>/dev/null && [ -s "$con" ]
t $? "hung-control: its console has no blocked-task line"
show hung-control

run hung-deadline
[ "$st" = 1 ]; t $? "hung-deadline: the run fails (exit $st)"
head -1 "$sum" 2>/dev/null | grep -q ": FAIL: step 2 (.*wait) failed"
t $? "hung-deadline: for the wait that missed its deadline ($(head -1 "$sum" 2>/dev/null))"
grep -q "sent SysRq w and l, the blocked tasks' and CPUs' stacks are in" "$tmp/hung-deadline.log"
t $? "hung-deadline: the lab sent SysRq w and l and the console answered both"
grep -q "sysrq: Show Blocked State" "$con" 2>/dev/null
t $? "hung-deadline: SysRq w reached the guest's console"
grep -q "task:dstate-waiter .*state:D" "$con" 2>/dev/null
t $? "hung-deadline: the console names the blocked task: $(grep -m1 -o 'task:dstate-waiter .*state:D' "$con" 2>/dev/null)"
grep -q "sysrq: Show backtrace of all active CPUs" "$con" 2>/dev/null
t $? "hung-deadline: SysRq l reached the guest's console"
show hung-deadline
run detectors-off
[ "$st" = 1 ]; t $? "detectors-off: the run fails (exit $st)"
head -1 "$sum" 2>/dev/null | grep -q ": FAIL: .*splat"
t $? "detectors-off: for a splat ($(head -1 "$sum" 2>/dev/null))"
grep -q "^  ok   line .* check  .*l.accepted == 0" "$sum" 2>/dev/null
t $? "detectors-off: the kernel refused every write that would silence a detector ($(grep -o 'l\.tried = [0-9]*' "$sum" 2>/dev/null) tried, none accepted)"
grep -q "^  ok   line .* check  .*l.timeout == 1" "$sum" 2>/dev/null
t $? "detectors-off: the lab's own lowering of the hung-task timeout stayed allowed"
quoted=$(grep -m1 "^    .*$hung" "$sum" 2>/dev/null)
[ -n "$quoted" ]; t $? "detectors-off: khungtaskd still names the task:$quoted"
grep -q "^  ok   line .* check  .*h.hung >= 1" "$sum" && ! grep -q "^  FAIL line" "$sum"
t $? "detectors-off: every step ran and passed: only the console fails the run"
show detectors-off
tap_done
