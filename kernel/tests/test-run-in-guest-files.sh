#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run-in-guest.sh's scratch files against a local user. The attacker (as
# nobody) sees the script's mktemp name in /tmp and makes, before root
# does, the files the old script put beside it: NAME.down, NAME.downrc
# holding 0 and NAME.done. A wrapper on PATH around mktemp plays them,
# for whatever name mktemp returns (NAME.X beside it, and NAME/X in it).
# No guest boots: bpfwire-lab is a fake on PATH that logs its calls; its
# `down` exits 1, as after a splat, so the last case must be "not ok".
#  1. A whole run, with fs.protected_regular=2 (Debian's): root's writes
#     to the planted files fail. The run must still call `down` and report
#     its exit 1, never the attacker's 0.
#  2. The script SIGKILLed mid-run: its guard must still call `down`, a
#     planted NAME.done notwithstanding.
#
#   test-run-in-guest-files.sh RUN_IN_GUEST TOPOLOGY
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-run-in-guest-files.sh RUN_IN_GUEST TOPOLOGY"; exit 1; }
rig=$(realpath "$1") topo=$(realpath "$2")
tap_need_root
command -v setpriv >/dev/null || { echo "1..0 # SKIP no setpriv (util-linux)"; exit 0; }
tmp=$(mktemp -d)
cleanup() {
	tap_protected_regular_restore
	[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
	# what the attacker made in /tmp
	[ -f "$tmp/planted" ] && while read -r f; do rm -f "$f"; done <"$tmp/planted"
	rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"	# nobody runs the fake's attacker steps from here
mkdir "$tmp/bin" "$tmp/build"
real_mktemp=$(command -v mktemp)

# The fake lab: each call a line in lab.calls; exec of the TAP program
# prints one case (and waits for $tmp/go when $tmp/hold exists).
cat >"$tmp/bin/bpfwire-lab" <<-FAKE
	#!/bin/sh
	echo "\$*" >>"$tmp/lab.calls"
	case "\$1" in
	up) exit 0 ;;
	down) exit 1 ;;
	exec) case "\$*" in
		*bpf_ksock_max*) echo "1024 6.12.0-bpfwire" ;;
		*_NPROCESSORS_ONLN*) echo 1 ;;
		*) [ -e "$tmp/hold" ] && while [ ! -e "$tmp/go" ]; do sleep 0.1; done
		   echo "ok 1 - fake case" ;;
		esac ;;
	esac
	exit 0
FAKE
# The attacker: beside and inside whatever name mktemp gives, as nobody.
cat >"$tmp/bin/mktemp" <<-FAKE
	#!/bin/sh
	name=\$($real_mktemp "\$@") || exit
	for f in "\$name.down" "\$name.downrc" "\$name.done" "\$name/down" "\$name/downrc" "\$name/done"; do
		if setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo 0 >"\$1"' - "\$f" 2>/dev/null; then
			echo "\$f" >>"$tmp/planted"
		else
			echo "\$f" >>"$tmp/refused"
		fi
	done
	echo "\$name" >>"$tmp/names"
	echo "\$name"
FAKE
chmod 755 "$tmp/bin/bpfwire-lab" "$tmp/bin/mktemp"
: >"$tmp/kernel-tests"
: >"$tmp/bzImage"
chmod 755 "$tmp/kernel-tests"

# one simple command, env then the script: in the background $! is its pid
rig_run() {
	env PATH="$tmp/bin:$PATH" BPFWIRE_BUILD_ROOT="$tmp/build" "$rig" "$tmp/bin/bpfwire-lab" \
		"$tmp/kernel-tests" "$topo" "$tmp/bzImage"
}
downs() { grep -c '^down --run kernel-' "$tmp/lab.calls" 2>/dev/null; }
planted() {
	echo "# the attacker made: $(tr '\n' ' ' <"$tmp/planted" 2>/dev/null)"
	echo "# and could not make: $(tr '\n' ' ' <"$tmp/refused" 2>/dev/null)"
	: >"$tmp/refused"
}
# gone NAME: the script's own scratch is removed (the guard polls each second)
gone() {
	for _ in $(seq 30); do [ -e "$1" ] || return 0; sleep 0.1; done
	return 1
}

# --- 1. a whole run, under fs.protected_regular=2 -------------------------
if tap_protected_regular; then
	rig_run >"$tmp/run1.out" 2>&1
	rc=$?
	tap_protected_regular_restore
	planted
	sed 's/^/#   /' "$tmp/run1.out"
	[ "$(downs)" -ge 1 ]; t $? "1: with planted NAME.down/.downrc/.done, the run still calls bpfwire-lab down"
	grep -q '^not ok [0-9]* - guest: console has no splat (bpfwire-lab down exited 1)' "$tmp/run1.out"
	t $? "1: and reports down's exit 1, not the attacker's 0 (exit $rc)"
	! grep -q '^ok [0-9]* - guest: console has no splat' "$tmp/run1.out"
	t $? "1: no 'ok - guest: console has no splat'"
	name=$(tail -1 "$tmp/names")
	gone "$name"; t $? "1: its scratch ($name) is removed after the run"
else
	echo "# SKIP 1: fs.protected_regular cannot be set here"
fi

# --- 2. SIGKILL mid-run: the guard ------------------------------------------
: >"$tmp/lab.calls"
: >"$tmp/hold"
env PATH="$tmp/bin:$PATH" BPFWIRE_BUILD_ROOT="$tmp/build" "$rig" "$tmp/bin/bpfwire-lab" \
	"$tmp/kernel-tests" "$topo" "$tmp/bzImage" >"$tmp/run2.out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'kernel-tests' "$tmp/lab.calls" && break; sleep 0.1; done
grep -q 'kernel-tests' "$tmp/lab.calls"; t $? "2: the run reached kernel-tests in the guest"
{ kill -9 "$pid"; wait "$pid"; } 2>/dev/null
pid=
: >"$tmp/go"
planted
# the guard polls each second
for _ in $(seq 50); do [ "$(downs)" -ge 1 ] && break; sleep 0.1; done
sed "s/^/#   calls: /" "$tmp/lab.calls"
[ "$(downs)" -ge 1 ]; t $? "2: after a SIGKILL the guard calls bpfwire-lab down, a planted NAME.done notwithstanding"
name=$(tail -1 "$tmp/names")
gone "$name"; t $? "2: then removes the scratch ($name)"
tap_done
