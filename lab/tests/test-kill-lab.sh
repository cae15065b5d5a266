#!/bin/sh
# Whoever kills the lab, nothing is left behind, and no run can hurt another.
#  - The lab is killed as meson test kills a test on timeout: SIGTERM to its
#    process group, SIGKILL 0.5 s later. `up` is killed 1 s and 3 s into
#    the boot; "after ready" is `run` of a scenario (SCENARIO, a pair that
#    sleeps) killed in its sleep step: `up` itself returns at ready and
#    leaves the run up by design, so after ready the process that still owns
#    the run is `run`'s. Within 10 s no process of the run (QEMU, tcpdump,
#    dnsmasq: anything naming its id or results dir), no netns bpfwire-ID
#    and no /run/bpfwire/ID may be left. The lab's own SIGTERM handler
#    usually finishes its teardown within those 0.5 s, so each phase is
#    also killed by a bare SIGKILL (the OOM killer, kill -9, a SIGKILL that
#    comes while the teardown waits): only a reaper outside the lab's
#    process group can clean up then.
#  - Two `up --run SAME` at once: exactly one boots, the other exits 2 with
#    a clear message, and an exec in the winner works afterwards.
# Needs root and a kernel.
# Usage: test-kill-lab.sh BPFWIRE_LAB TOPOLOGY SCENARIO
lab=$1 topo=$2 scn=$3
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
tmp=$(mktemp -d /tmp/bpfwire-kill.XXXXXX)
ids=
# whatever the outcome, leave nothing running (the old lab leaves a lot)
cleanup() {
	for i in $ids; do "$lab" down --run "$i" > /dev/null 2>&1; done
	rm -rf "$tmp"
}
trap cleanup EXIT

# processes whose command line names the run id or its results dir
leftovers() {
	for p in /proc/[0-9]*; do
		c=$( { tr '\0' ' ' < "$p/cmdline"; } 2>/dev/null)
		case "$c" in *"$1"*|*"$2"*) echo "${p#/proc/}";; esac
	done
}

# As meson test on a timeout: SIGTERM to the group, SIGKILL 0.5 s later
# (HOW=meson), or SIGKILL alone (HOW=sigkill).
kill_group() { # PID HOW
	if [ "$2" = meson ]; then
		kill -TERM "-$1" 2>/dev/null
		sleep 0.5
	fi
	kill -KILL "-$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

nothing_left_within_10s() { # ID RESULTS WHAT
	i=0
	while [ $i -lt 100 ]; do
		left=$(leftovers "$1" "$2" | tr "\n" " ")
		[ -z "$left" ] && [ ! -e "/run/bpfwire/$1" ] &&
			! ip netns list | grep -q "^bpfwire-$1\b" && break
		sleep 0.1
		i=$((i + 1))
	done
	left=$(leftovers "$1" "$2" | tr "\n" " ")
	[ -z "$left" ]; t $? "$3: no process of the run within 10 s${left:+ (left: $(for p in $left; do { tr '\0' ' ' < /proc/$p/cmdline; } 2>/dev/null | cut -c1-40; echo ';'; done | tr '\n' ' '))}"
	ip netns list | grep -q "^bpfwire-$1\b"; [ $? = 1 ]; t $? "$3: netns bpfwire-$1 is gone"
	[ ! -e "/run/bpfwire/$1" ]; t $? "$3: /run/bpfwire/$1 is gone"
}

# `up` killed AT seconds into the boot, in a session of its own as meson runs tests.
kill_up_at() { # AT HOW
	id=kl-$1s-$2-$$ res=$tmp/kl-$1s-$2
	ids="$ids $id"
	setsid "$lab" up --run "$id" --results "$res" "$topo" > "$tmp/$id.log" 2>&1 &
	pid=$!
	sleep "$1"
	ready=$(grep -c ' ready$' "$tmp/$id.log")
	kill_group $pid "$2"
	echo "# up killed ($2) at $1 s ($ready guest(s) ready; last line: $(tail -1 "$tmp/$id.log"))"
	nothing_left_within_10s "$id" "$res" "up pair killed ($2) at $1 s"
}

# After ready: `run` of a pair that sleeps, killed in the sleep step.
kill_run_after_ready() { # HOW
	res=$tmp/kl-ready-$1
	setsid "$lab" run --results "$res" "$scn" > "$tmp/ready-$1.log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 900 ] && ! grep -q 'step 2/.*sleep' "$tmp/ready-$1.log"; do sleep 0.1; i=$((i + 1)); done
	id=$(sed -n 's/^run \([^ :]*\): netns.*/\1/p' "$tmp/ready-$1.log" | head -1)
	ids="$ids $id"
	grep -q 'step 2/.*sleep' "$tmp/ready-$1.log"
	t $? "run $scn reached its sleep step, guests ready (run ${id:-?})"
	kill_group $pid "$1"
	nothing_left_within_10s "${id:-no-run-id}" "$res" "run killed ($1) after ready"
}

kill_up_at 1 meson
kill_up_at 3 meson
kill_run_after_ready meson
kill_up_at 1 sigkill
kill_up_at 3 sigkill
kill_run_after_ready sigkill

# Two `up --run SAME` at once.
id=kl-same-$$
ids="$ids $id"
"$lab" up --run "$id" --results "$tmp/same1" -q "$topo" > "$tmp/same1.log" 2>&1 &
p1=$!
"$lab" up --run "$id" --results "$tmp/same2" -q "$topo" > "$tmp/same2.log" 2>&1 &
p2=$!
wait $p1; s1=$?
wait $p2; s2=$?
case "$s1 $s2" in
"0 2") win=1 lose=2 ;;
"2 0") win=2 lose=1 ;;
*) win= lose= ;;
esac
[ -n "$win" ]; t $? "two up --run $id at once: one exits 0, the other 2 (got $s1 and $s2)"
if [ -n "$lose" ]; then
	grep -q "already up" "$tmp/same$lose.log"; t $? "the loser says why: $(head -1 "$tmp/same$lose.log")"
else
	t 1 "the loser says why"
fi
out=$("$lab" exec --run "$id" receiver -- hostname 2>&1)
[ "$out" = receiver ]; t $? "the winner is healthy: exec receiver hostname prints receiver (got '$out')"
"$lab" down --run "$id" > "$tmp/down.log" 2>&1
t $? "down --run $id"
nothing_left_within_10s "$id" "$tmp/same" "after down of the winner"

if [ $fail != 0 ]; then
	for f in "$tmp"/*.log "$tmp"/*/reaper.log; do
		[ -f "$f" ] && { echo "# $f:"; tail -15 "$f" | sed 's/^/#   /'; }
	done
fi
tap_done
