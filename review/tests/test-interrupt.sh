#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A review stopped by Ctrl-C (SIGINT to its process group, as a terminal
# sends it) or SIGTERM, in each phase: it says "interrupted" and in which
# phase, exits 128+N (130, 143), never "did not build" nor a verdict, and
# leaves no process and no lock behind.
#  fit       build.sh --fit --sandbox on the real 6.12 tarball (the sandbox's
#            tar, in a pid namespace and a session of its own, must go too)
#  lock      waiting for the kernel-build lock that another build holds
#  compile   meson compile of the review's build, with a grandchild; again
#            with SIGTERM to the review's pid alone (kill PID, timeout)
#  tests     meson test of the review's build, ignoring SIGTERM as a stuck
#            test would: SIGKILL after the grace (PROC_GRACE_S, 15 s)
#  base      the baseline's build and its tests
#  reruns    the baseline's rerun of a test that held a worse case
# No kernel is built: meson is a fake on PATH, --source a fake tree, in a
# mount namespace of its own (tests/fake-meson.sh), so each review
# reaches its phase in seconds.
#
#   test-interrupt.sh BPFWIRE_REVIEW SOURCE_ROOT SERIES
set -u
[ $# -eq 3 ] || { echo "Bail out! usage: test-interrupt.sh BPFWIRE_REVIEW SOURCE_ROOT SERIES"; exit 1; }
root=$(realpath "$2")
. "$root/lab/tests/tap.sh"
. "$root/kernel/tests/fake-kernel.sh"
. "$root/review/tests/fake-meson.sh"
review=$(realpath "$1") series=$(realpath "$3")
fake_meson_need INTERRUPT_TEST_NS "$0" "$@"
tap_tmpdir
# what a failing review left running goes too, by pid
trap 'for p in $(left | cut -d" " -f1); do kill -9 "$p"; done; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fake_meson_setup

# review SIGNAL STEP WAIT_FOR [ARGS]: a review in a session of its own,
# SIGNAL to its group once WAIT_FOR (a command) succeeds (to the review
# alone when $to_pid is set, as kill PID or timeout(1) send it); $rc,
# $took (seconds from the signal to its exit), $out
review() {
	local sig=$1 step=$2 ready=$3 pid i target
	shift 3
	echo "$step" >"$tmp/slow"
	rm -f "$tmp/started"
	fake_meson_forget_base
	out=$tmp/$step.out
	setsid env --default-signal=INT PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --name intr \
		--tests kernel-suite "$@" "$series" >"$out" 2>&1 &
	pid=$!
	for i in $(seq 600); do eval "$ready" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	target=-$(ps -o pgid= -p "$pid" | tr -d ' ')
	[ -z "${to_pid:-}" ] || target=$pid
	kill -"$sig" -- "$target" 2>/dev/null
	SECONDS=0
	for i in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -9 "$pid" 2>/dev/null
	wait "$pid"
	rc=$? took=$SECONDS
	sed 's/^/#   /' "$out" | tail -n 12
}
# left: what still runs with $tmp in its command line (the review's children)
left() { pgrep -af -- "$tmp" | grep -v "^$$ " | grep -v pgrep; }
# check NAME WANT_RC PHASE: exit status, the one line, nothing left, locks free
check() {
	local want=$2 phase=$3 l
	l=$(left)
	[ "$rc" = "$want" ]
	t $? "$1: exit $want (got $rc, $took s after the signal)"
	grep -qF "interrupted (SIG$( [ "$want" = 130 ] && echo INT || echo TERM)) during $phase: no verdict" "$out" &&
		! grep -q "did not build\|^verdict:\|no kernel bpfwire knows" "$out"
	t $? "$1: says it was interrupted during $phase, nothing about a build or a verdict"
	[ -z "$l" ] && flock -n "$lockdir/kbuild.lock" true && flock -n "$lockdir/guest.lock" true
	t $? "$1: no process of it left (${l:-none}), the kbuild and guest locks free"
}

# the control: not interrupted, the same review reaches its verdict and writes its reply
printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH 0/1] t" \
	"Message-ID: <cover.t@example.invalid>" "" "The cover." >"$tmp/cover.mbx"
echo none >"$tmp/slow"
fake_meson_forget_base
setsid env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --name intr \
	--tests kernel-suite --source "$tmp/src" "$tmp/cover.mbx" >"$tmp/control.out" 2>&1
rc=$?
sed 's/^/#   /' "$tmp/control.out" | tail -n 6
eml=$(sed -n 's/^results: //p' "$tmp/control.out")/review.eml
[ "$rc" = 0 ] && grep -q '^verdict: OK' "$tmp/control.out" &&
	git mailinfo -k "$tmp/msg" "$tmp/patch" <"$eml" >"$tmp/info" && grep -qx 'Subject: Re: \[PATCH 0/1\] t' "$tmp/info" &&
	grep -qx 'In-Reply-To: <cover.t@example.invalid>' "$eml" && grep -qx 'Tested-by: bpfwire <bpfwire@example.invalid>' "$tmp/msg" &&
	grep -q "^  ./run review .*--source $tmp/src .*$tmp/cover.mbx" "$tmp/msg"
t $? "control: not interrupted, it reaches its verdict (exit $rc) and writes review.eml, a reply with Tested-by and the command"

tarball=/usr/src/linux-source-6.12.tar.xz
if [ -f "$tarball" ]; then
	# a series with a diff (a new file): the fit reads the whole tarball (~20 s of xz)
	printf '%s\n' "From 0 Mon Sep 17 00:00:00 2001" "From: T <t@example.invalid>" "Subject: [PATCH] t" "" \
		"---" "diff --git a/interrupt-test b/interrupt-test" "new file mode 100644" "--- /dev/null" \
		"+++ b/interrupt-test" "@@ -0,0 +1 @@" "+t" >"$tmp/new-file.mbx"
	series=$tmp/new-file.mbx review INT fit "pgrep -f -- '$tmp/.review-fit-.*fit-src' >/dev/null" --source "$tarball"
	check fit 130 "the choice of the kernel (build.sh --fit)"
	ls -d "$tmp"/.review-fit-* >/dev/null 2>&1
	t $([ $? != 0 ] && echo 0) "fit: its scratch directory removed"
else
	echo "# SKIP fit: no $tarball"
fi

# another build holds the lock: one process (bash execs sleep, fd 9 stays)
bash -c 'exec 9<>"$1"; flock 9 && exec sleep 300' - "$lockdir/kbuild.lock" &
holder=$!
review TERM lock "grep -q 'waiting for $lockdir/kbuild.lock' '$tmp/lock.out'" --source "$tmp/src"
kill "$holder"
wait "$holder" 2>/dev/null
check lock 143 "the kernel build (or the wait for its lock)"

review INT compile:review "test -e '$tmp/started'" --source "$tmp/src"
check compile 130 "the kernel build (or the wait for its lock)"
to_pid=1 review TERM compile:review "test -e '$tmp/started'" --source "$tmp/src"
check "compile, SIGTERM to the review alone" 143 "the kernel build (or the wait for its lock)"

review INT test:review "test -e '$tmp/started'" --source "$tmp/src"
check tests 130 "the review's tests (or the wait for the guest lock)"
[ "$took" -ge 14 ] && grep -q "still runs 15 s after the signal: SIGKILL" "$out"
t $? "tests: a test that ignores SIGTERM is killed after the 15 s grace (took $took s)"

review TERM compile:base "test -e '$tmp/started'" --source "$tmp/src"
check "baseline build" 143 "the baseline's build"

review INT test:base "test -e '$tmp/started'" --source "$tmp/src"
check "baseline tests" 130 "the baseline's tests"

# the first run fails a case: its test runs again, and the rerun hangs
printf 'not ok 1 - a\n' >"$tmp/tap.review.review"
review INT test:base:review-baseline-retry-1 "test -e '$tmp/started'" --source "$tmp/src"
rm -f "$tmp/tap.review.review"
check "reruns" 130 "the reruns of the tests that hold worse cases"
tap_done
