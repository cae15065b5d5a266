#!/bin/sh
# A kernel splat always fails the run: a WARNING at level 4 under
# `--append quiet` fails its scenario and is quoted in summary.txt, and it
# stays visible after guest root erased every console it can reach, and
# after it cleared ignore_loglevel and set every console level to 1
# (kernel/patches/harness keeps warnings on the console).
# Needs root and a kernel. Usage: test-splat.sh BPFWIRE_LAB SCENARIO_DIR
lab=$1 dir=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir
line='WARNING: bpfwire test splat'

# run_case NAME [RUN OPTIONS]: the scenario must FAIL (exit 1) on the splat
run_case() {
	name=$1
	shift
	"$lab" run --no-capture --results "$tmp/$name" "$@" "$dir/$name" > "$tmp/$name.log" 2>&1
	st=$?
	sum=$tmp/$name/summary.txt
	[ "$st" = 1 ]; t $? "$name: the run fails (exit $st)"
	head -1 "$sum" 2>/dev/null | grep -q ": FAIL: .*splat"
	t $? "$name: summary.txt's verdict is FAIL for the splat ($(head -1 "$sum" 2>/dev/null))"
	grep -q "^    .*$line" "$sum" 2>/dev/null
	t $? "$name: summary.txt quotes the console line '$line'"
	grep -q "$line" "$tmp/$name/splats.txt" 2>/dev/null
	t $? "$name: RUN/splats.txt quotes it too"
	grep -q "^  ok   line .* check  .*k.in_log == 1" "$sum" 2>/dev/null
	t $? "$name: every step ran and passed: only the splat fails the run"
	if [ $fail != 0 ]; then
		sed 's/^/#   /' "$tmp/$name.log" "$sum" 2>/dev/null
	fi
}

run_case kmsg-quiet --append quiet
run_case console-erased
run_case printk-muted
# the attack was real: guest root got console_loglevel down to 1, but its
# write of 0 to ignore_loglevel was refused
grep -q "^  k: .*ignore_loglevel=1, console_loglevel=1," "$tmp/printk-muted/summary.txt"
t $? "printk-muted: guest root lowered console_loglevel to 1 but ignore_loglevel stayed set"
# the consoles are outside the guests' shares and stay with the results
[ -s "$tmp/console-erased/consoles/lone.log" ]
t $? "console-erased: RUN/consoles/lone.log survived the guest"
tap_done
