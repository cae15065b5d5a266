# SPDX-License-Identifier: GPL-2.0-only
# The shell side of the one TAP harness (common/tap.h is the C side), for
# lab/tests/*.sh: . "$(dirname "$0")/tap.sh"
n=0 fail=0 nfail=0
# t STATUS NAME: one TAP line; STATUS 0 is ok. `t $(check && echo 0) NAME`
# passes NAME alone when the check fails: that is a failure too, not an
# unbound $2 that ends the script under set -u with the plan unprinted.
# A line that fails goes to stderr too: meson's error log of a TAP test
# (what CI prints) shows stderr only.
t() { [ $# -ge 2 ] || set -- 1 "$1"; n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; echo "not ok $n - $2" >&2; fail=1 nfail=$((nfail + 1)); fi; }
# tap_show FILE [LINES]: the end of FILE on stderr, for a failure's evidence in CI.
tap_show() { echo "--- the last ${2:-60} lines of $1:" >&2; tail -n "${2:-60}" "$1" >&2 2>/dev/null || echo "(unreadable)" >&2; }
# The plan, and the exit status: 1 when a line failed or none ran.
tap_done() {
	echo "1..$n"
	[ "$n" -gt 0 ] || { echo "# no test ran"; exit 1; }
	exit $fail
}
# A test that cannot run here: a plan of 0 and status 0 (meson's TAP
# parser does not take 77).
tap_need_root() { [ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root"; exit 0; }; }
# The kernel the lab picks: $BPFWIRE_KERNEL, this build's, the main build's.
tap_need_kernel() {
	kernel=${BPFWIRE_KERNEL:-$BPFWIRE_BUILD_ROOT/kernel/bzImage}
	[ -f "$kernel" ] || kernel=$BPFWIRE_SOURCE_ROOT/build/kernel/bzImage
	[ -f "$kernel" ] || { echo "1..0 # SKIP no kernel (meson compile -C build)"; exit 0; }
	export BPFWIRE_KERNEL=$kernel
}
# fs.protected_regular=2, as Debian sets it: root's O_CREAT open of a file
# another user made in /tmp then fails (EACCES). It is machine-wide, so a
# test sets it just around the step that needs it and puts it back with
# tap_protected_regular_restore. Status 1 when it cannot be set.
tap_protected_regular() {
	pr_old=$(cat /proc/sys/fs/protected_regular 2>/dev/null) || return 1
	echo 2 2>/dev/null >/proc/sys/fs/protected_regular
}
tap_protected_regular_restore() {
	[ -z "${pr_old:-}" ] || echo "$pr_old" >/proc/sys/fs/protected_regular
	pr_old=
}
# $tmp, removed on exit
# A test meson times out gets SIGTERM: exit through the EXIT trap, so its
# scratch (a kernel tree, at times) goes too.
tap_tmpdir() { tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT; trap 'exit 143' TERM; trap 'exit 130' INT; }
