#!/bin/sh
# Nothing is left behind after `down`, nor after SIGINT in the middle of a
# boot: no bpfwire-ID netns, no process of the run. Needs root and a kernel.
# Usage: test-teardown.sh BPFWIRE_LAB TOPOLOGY
lab=$1 topo=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tap_tmpdir

# processes whose command line names the run id or its results dir
leftovers() {
	for p in /proc/[0-9]*; do
		c=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null)
		case "$c" in *"$1"*|*"$tmp"*) echo "${p#/proc/}";; esac
	done
}
nothing_left() { # RUN_ID WHAT
	ip netns list | grep -q "bpfwire-$1\b"; ns=$?
	[ "$ns" = 1 ]; t $? "$2: netns bpfwire-$1 is gone"
	left=$(leftovers "$1" | tr "\n" " ")
	[ -z "$left" ]; t $? "$2: no process of the run is left${left:+ (pids $left)}"
	[ ! -e "/run/bpfwire/$1" ]; t $? "$2: state dir is gone"
}

id=td-up-$$
"$lab" up --run "$id" --results "$tmp/up" -q "$topo" > "$tmp/up.log" 2>&1; st=$?
t $st "up --run $id"
out=$("$lab" exec --run "$id" receiver -- hostname 2>&1)
[ "$out" = receiver ]; t $? "exec receiver hostname prints receiver (got '$out')"
"$lab" down --run "$id" > "$tmp/down.log" 2>&1
t $? "down --run $id"
nothing_left "$id" "after down"

id=td-int-$$
"$lab" up --run "$id" --results "$tmp/int" "$topo" > "$tmp/int.log" 2>&1 &
pid=$!
# SIGINT once the QEMUs run and before the guests are ready
i=0
while [ $i -lt 100 ] && ! grep -q starting "$tmp/int.log" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
grep -q starting "$tmp/int.log"; t $? "the interrupted boot got as far as starting QEMU"
kill -INT $pid
wait $pid; st=$?
[ "$st" != 0 ]; t $? "interrupted up fails (status $st)"
grep -q "ready" "$tmp/int.log" && grep -q "run $id ready" "$tmp/int.log"
[ $? != 0 ]; t $? "interrupted before ready"
nothing_left "$id" "after SIGINT mid-boot"
[ $fail = 0 ] || { echo "# up log:"; sed 's/^/#   /' "$tmp/up.log" "$tmp/int.log"; }
tap_done
