#!/bin/sh
# Run in a guest as root by the detectors-off scenario: what an attacker
# would write to keep a splat off the console, each setting in turn.
# Writes {"tried": N, "accepted": N, "timeout": S} to $1, and names each
# write the kernel took.
# Usage: silence-detectors.sh OUT.json
out=$1
tried=0 accepted=0
for w in \
	sys/kernel/hung_task_timeout_secs=0 \
	sys/kernel/hung_task_timeout_secs=3600 \
	sys/kernel/hung_task_warnings=0 \
	sys/kernel/hung_task_check_count=0 \
	sys/kernel/hung_task_check_interval_secs=3600 \
	sys/kernel/watchdog=0 \
	sys/kernel/soft_watchdog=0 \
	sys/kernel/nmi_watchdog=0 \
	sys/kernel/watchdog_thresh=0 \
	sys/kernel/watchdog_cpumask=0 \
	sys/kernel/prove_locking=0 \
	sys/kernel/printk_delay=1 \
	sys/net/core/netdev_unregister_timeout_secs=3600 \
	module/rcupdate/parameters/rcu_cpu_stall_suppress=1 \
	module/rcupdate/parameters/rcu_cpu_stall_timeout=300 \
	module/rcupdate/parameters/rcu_exp_cpu_stall_timeout=21000; do
	f=/proc/${w%%=*}
	case $w in module/*) f=/sys/${w%%=*} ;; esac
	[ -e "$f" ] || { echo "absent: $f"; continue; }
	tried=$((tried + 1))
	if echo "${w#*=}" > "$f" 2>/dev/null; then
		accepted=$((accepted + 1))
		echo "accepted: $f=${w#*=}"
	else
		echo "refused: $f=${w#*=}"
	fi
done
echo "{\"tried\": $tried, \"accepted\": $accepted, \"timeout\": $(cat /proc/sys/kernel/hung_task_timeout_secs)}" > "$out"
