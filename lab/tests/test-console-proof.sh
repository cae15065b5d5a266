#!/bin/sh
# No console means no evidence, never a pass: at teardown the lab presses
# SysRq h on every guest through QMP and needs its banner on the console
# (lab/vm/sysrq.c). Guest root that unregisters ttyS0's console before a
# WARNING (console-off), sets kernel.sysrq to 0 (sysrq-off), or removes
# the console around a WARNING and registers it again (console-gap) fails
# the run with "no evidence", named per guest in summary.txt, summary.json
# and the page; a plain run (live) passes, its console proven live.
# Needs root and a kernel; four boots of lone.
# Usage: test-console-proof.sh BPFWIRE_LAB SCENARIO_DIR
lab=$1 dir=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir
line='WARNING: bpfwire test splat'

# run NAME: the run's exit status in $st, its summary.txt in $sum
run() {
	name=$1
	t0=$(date +%s)
	"$lab" run --no-capture --results "$tmp/$name" "$dir/$name" > "$tmp/$name.log" 2>&1
	st=$?
	sum=$tmp/$name/summary.txt
	echo "# $name: exit $st in $(($(date +%s) - t0)) s"
}
# page_row NAME TEXT: the page's head row "console lone" holds TEXT
page_row() {
	tr -d '\n' < "$tmp/$1/index.html" 2>/dev/null |
		grep -q "<th>console lone</th>[[:space:]]*<td[^>]*>$2"
}
show() { [ $fail = 0 ] || sed 's/^/#   /' "$tmp/$1.log" "$tmp/$1/summary.txt" 2>/dev/null; }

# no_evidence NAME: the run fails, for the console with no evidence alone
no_evidence() {
	name=$1
	run "$name"
	[ "$st" = 1 ]; t $? "$name: the run fails (exit $st)"
	head -1 "$sum" 2>/dev/null | grep -q ": FAIL: no evidence: \(the console of lone\|.*console(s) with no evidence\)"
	t $? "$name: summary.txt's verdict is FAIL for no evidence ($(head -1 "$sum" 2>/dev/null))"
	grep -q "^console lone: no evidence: " "$sum" 2>/dev/null
	t $? "$name: summary.txt names lone's console as no evidence"
	jq -e '.verdict == "FAIL" and ([.consoles[] | select(.host == "lone" and .proof == "no evidence")] | length == 1)' \
		"$tmp/$name/summary.json" > /dev/null 2>&1
	t $? "$name: summary.json: FAIL, consoles[lone].proof is \"no evidence\""
	page_row "$name" 'no evidence: '
	t $? "$name: the page's row 'console lone' says no evidence"
	grep -q "^  ok   line .* check  " "$sum" && ! grep -q "^  FAIL line" "$sum"
	t $? "$name: every step ran and passed: only the console fails the run"
}

no_evidence console-off
grep -q "did not reach the console" "$sum"
t $? "console-off: the reason is SysRq h's missing banner"
# the attack was real: the WARNING is only in the ring buffer
! grep -aq "$line" "$tmp/console-off/consoles/lone.log"
t $? "console-off: the WARNING never reached the console file (the scan alone would pass)"
show console-off

no_evidence sysrq-off
grep -q "did not reach the console" "$sum"
t $? "sysrq-off: the reason is SysRq h's missing banner"
! grep -aq "sysrq: HELP" "$tmp/sysrq-off/consoles/lone.log"
t $? "sysrq-off: no SysRq banner in the console file"
show sysrq-off

no_evidence console-gap
grep -q 'console \[ttyS0\] enabled" 2 times' "$sum"
t $? "console-gap: the reason is ttyS0 registered twice"
grep -aq "sysrq: HELP" "$tmp/console-gap/consoles/lone.log" &&
	! grep -aq "$line" "$tmp/console-gap/consoles/lone.log"
t $? "console-gap: SysRq h's banner came, the WARNING never reached the console file"
show console-gap

run live
[ "$st" = 0 ]; t $? "live: a plain run passes (exit $st)"
grep -q "^console lone: proven live: SysRq h's banner" "$sum" 2>/dev/null
t $? "live: summary.txt says lone's console was proven live"
jq -e '[.consoles[] | select(.host == "lone" and .proof == "live")] | length == 1' \
	"$tmp/live/summary.json" > /dev/null 2>&1
t $? "live: summary.json: consoles[lone].proof is \"live\""
page_row live "proven live: SysRq h"
t $? "live: the page's row 'console lone' says proven live"
show live
tap_done
