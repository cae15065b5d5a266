#!/bin/sh
# A run's id and state file cannot make `down` hurt an unrelated process:
# --run and $BPFWIRE_RUN are refused (exit 2) before any state file is read
# when they are not plain ids (../../tmp/x), and a recorded pid whose start
# time is 0 is never signalled. Needs root (the state root is
# /run/bpfwire), no kernel: no guest boots.
# Usage: test-run-ids.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tap_need_root
tmp=$(mktemp -d /tmp/bpfwire-ids.XXXXXX)
id=ids-$$
victim=
cleanup() {
	[ -n "$victim" ] && kill "$victim" 2>/dev/null
	rm -rf "$tmp" "/run/bpfwire/$id"
}
trap cleanup EXIT

# alive and not a zombie (a killed child of ours stays a zombie until waited)
alive() { grep -q '^State:[[:space:]]*[RSD]' "/proc/$1/status" 2>/dev/null; }

# A state file that records pid $2 (start time $3) for run $1 in dir $4.
state() {
	cat > "$4/state.json" <<EOF
{ "run": "$1", "netns": "bpfwire-$1", "statedir": "/run/bpfwire/$1",
  "results": "$tmp/results", "status": "ready",
  "procs": [ { "role": "qemu", "name": "decoy", "pid": $2, "start": $3 } ],
  "segments": [], "guests": [] }
EOF
}

# A fresh victim (each case on its own, whatever an earlier one did), and a
# state file outside the state root, which a ../ id would reach, that
# records it with its true start time: reading that file would kill it.
new_victim() {
	[ -n "$victim" ] && kill "$victim" 2>/dev/null
	sleep 300 &
	victim=$!
	state x "$victim" "$(awk '{ print $22 }' "/proc/$victim/stat")" "$tmp/evil"
}
mkdir -p "$tmp/results" "$tmp/evil"
rel=../..$tmp/evil
new_victim

"$lab" down --run "$rel" > "$tmp/out" 2>&1; st=$?
[ "$st" = 2 ]; t $? "down --run $rel exits 2 (got $st)"
grep -q "bad run id" "$tmp/out"; t $? "and says the run id is bad: $(head -1 "$tmp/out")"
alive "$victim"; t $? "and the process its state file records is alive"

new_victim
BPFWIRE_RUN=$rel "$lab" down > "$tmp/out" 2>&1; st=$?
[ "$st" = 2 ]; t $? "BPFWIRE_RUN=$rel down exits 2 (got $st)"
alive "$victim"; t $? "and the process its state file records is alive"

"$lab" status --run "$rel" > "$tmp/out" 2>&1; st=$?
[ "$st" = 2 ]; t $? "status --run $rel exits 2 (got $st)"

# A run whose state file records the victim with start time 0 (unknown).
new_victim
mkdir -p "/run/bpfwire/$id"
state "$id" "$victim" 0 "/run/bpfwire/$id"
"$lab" down --run "$id" > "$tmp/out" 2>&1; st=$?
alive "$victim"; t $? "down of a state with pid $victim and start time 0 leaves that process alive"
grep -q "no start time" "$tmp/out"; t $? "and says why it did not signal it"
[ ! -e "/run/bpfwire/$id" ]; t $? "and still removes the state dir"

[ $fail = 0 ] || sed 's/^/# /' "$tmp/out"
tap_done
