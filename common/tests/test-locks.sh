#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The machine-wide locks (common/lock.h) against a local user, who plays
# nobody here. No kernel is built: meson is a fake on PATH that logs each
# call with the lock files its parent, bpfwire-review, holds.
#  a. nobody holds /tmp/bpfwire-kbuild.lock and /tmp/bpfwire-guest.lock
#     (the old places): a review still reaches its `meson compile` and
#     `meson test` at once, each under a lock in a root-only directory;
#     bpfwire-lock too.
#  b. nobody made those files first, under fs.protected_regular=2
#     (Debian's; root's O_CREAT open of them fails): the same.
#  c. /run/bpfwire-locks a symlink, nobody's, writable by others or a
#     file: refused, one line, nothing run. A second holder still waits.
# It runs in a mount namespace of its own with a tmpfs on /run, so no
# other user of the real locks is touched or waited for.
#
#   test-locks.sh BPFWIRE_REVIEW BPFWIRE_LOCK SERIES
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 3 ] || { echo "Bail out! usage: test-locks.sh BPFWIRE_REVIEW BPFWIRE_LOCK SERIES"; exit 1; }
review=$(realpath "$1") lock=$(realpath "$2") series=$(realpath "$3")
tap_need_root
for p in setpriv unshare flock timeout bwrap; do
	command -v $p >/dev/null || { echo "1..0 # SKIP no $p (util-linux, coreutils, bubblewrap)"; exit 0; }
done
if [ -z "${LOCKS_TEST_NS:-}" ]; then
	unshare -m true 2>/dev/null || { echo "1..0 # SKIP no mount namespace (unshare -m)"; exit 0; }
	exec unshare -m --propagation private env LOCKS_TEST_NS=1 "$0" "$@"
fi
mount -t tmpfs -o mode=0755 tmpfs /run || { echo "Bail out! no tmpfs on /run in a mount namespace"; exit 1; }
lockdir=/run/bpfwire-locks
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
tmp=$(mktemp -d)
holders=
made=
cleanup() {
	tap_protected_regular_restore
	for p in $holders; do kill "$p" 2>/dev/null; done
	# only what the attacker made here
	for f in $made; do [ "$(stat -c %u "$f" 2>/dev/null)" = 65534 ] && rm -f "$f"; done
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/bin" "$tmp/base" "$tmp/src"
: >"$tmp/base/build.ninja"
# --source: a tree whose Makefile says 6.12, so that the review's choice
# of the kernel (build.sh --fit in the sandbox) reads its version and
# takes it, in a second, whatever the series
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' >"$tmp/src/Makefile"
chmod 755 "$tmp"
cat >"$tmp/bin/meson" <<-FAKE
	#!/bin/sh
	held=\$(ls -l /proc/\$PPID/fd 2>/dev/null | sed -n 's/.* -> \(.*\.lock\)\$/\1/p' | paste -sd' ')
	case "\$*" in *--list*) echo "test-list: \$held" >>"$tmp/meson.calls"
		echo "bpfwire:kernel / kernel-suite"; exit 0 ;; esac
	echo "\$1: \$held" >>"$tmp/meson.calls"
	exit 0
FAKE
chmod 755 "$tmp/bin/meson"

# A review up to its tests (it then stops: the fake wrote no test log).
run_review() {
	: >"$tmp/meson.calls"
	timeout 10 env PATH="$tmp/bin:$PATH" "$review" --build-root "$tmp" --base "$tmp/base" --source "$tmp/src" \
		--name locks --tests kernel-suite "$series" >"$tmp/review.out" 2>&1
	rc=$?
}
# root_only DIR: a directory, no link, root's, no group or other write
root_only() {
	[ -d "$1" ] && [ ! -L "$1" ] && [ "$(stat -c %u "$1")" = 0 ] && (( (8#$(stat -c %a "$1") & 8#022) == 0 ))
}
# reached STEP NAME: the review ran meson STEP holding a lock in a root-only dir
reached() {
	local held
	held=$(sed -n "s/^$1: //p" "$tmp/meson.calls" | head -1)
	[ -n "$held" ] && root_only "$(dirname "$held")"
	t $? "$2: the review reached meson $1 under a lock in a root-only dir (held: ${held:-none}; exit $rc)"
}
show() { sed 's/^/#   /' "$tmp/review.out"; }

# --- a. nobody holds the old lock files ---------------------------------------
# An older bpfwire leaves these, root's (0600 for one): unheld, they are
# stale and go, so that nobody can make and hold them as an attacker would.
for f in /tmp/bpfwire-kbuild.lock /tmp/bpfwire-guest.lock; do
	[ -f "$f" ] && [ "$(stat -c %u "$f")" = 0 ] && flock -n "$f" true && rm -f "$f"
done
for f in /tmp/bpfwire-kbuild.lock /tmp/bpfwire-guest.lock; do
	[ -e "$f" ] || made="$made $f"
	# one process holding it (setpriv execs bash, bash execs sleep: $! is
	# its pid): the shell's fd 9, flocked, stays open across exec
	setpriv --reuid=65534 --regid=65534 --clear-groups bash -c '{ [ -e "$1" ] && exec 9<"$1"; } || exec 9<>"$1"; flock 9 && echo held && exec sleep 300' \
		- "$f" >"$tmp/hold.$(basename "$f")" 2>&1 &
	holders="$holders $!"
done
for _ in $(seq 50); do [ "$(cat "$tmp"/hold.* 2>/dev/null | grep -c held)" = 2 ] && break; sleep 0.1; done
echo "# nobody holds: $(ls -l /tmp/bpfwire-kbuild.lock /tmp/bpfwire-guest.lock 2>&1 | awk '{ print $3, $NF }' | tr '\n' ' ')"
[ "$(cat "$tmp"/hold.* | grep -c held)" = 2 ]; t $? "a: nobody holds both /tmp lock files"
run_review
show
reached compile a
reached test a
timeout 10 "$lock" kbuild sh -c 'ls -l /proc/$$/fd' >"$tmp/lock.out" 2>&1
rc=$?
held=$(sed -n 's/.* -> \(.*\.lock\)$/\1/p' "$tmp/lock.out")
[ "$rc" = 0 ] && [ -n "$held" ] && root_only "$(dirname "$held")"
t $? "a: bpfwire-lock kbuild runs its command at once, under a lock in a root-only dir (held: ${held:-none}; exit $rc)"
for p in $holders; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
holders=

# --- b. nobody made them first; fs.protected_regular=2 -----------------------
for f in /tmp/bpfwire-kbuild.lock /tmp/bpfwire-guest.lock; do
	[ -e "$f" ] || { as_nobody touch "$f" && made="$made $f"; }
done
echo "# in /tmp: $(ls -l /tmp/bpfwire-kbuild.lock /tmp/bpfwire-guest.lock 2>&1 | awk '{ print $3, $NF }' | tr '\n' ' ')"
if tap_protected_regular; then
	run_review
	tap_protected_regular_restore
	show
	reached compile b
	reached test b
else
	echo "# SKIP b: fs.protected_regular cannot be set here"
fi

# --- c. a lock directory that is not root's alone ------------------------------
mkdir "$tmp/evil"
chown 65534:65534 "$tmp/evil"
# refused WHAT NEEDLE: bpfwire-lock says one line with NEEDLE and runs nothing
refused() {
	rm -f "$tmp/ran"
	"$lock" kbuild touch "$tmp/ran" >"$tmp/lock.out" 2>&1
	rc=$?
	sed 's/^/#   /' "$tmp/lock.out"
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/lock.out")" = 1 ] && grep -q "$lockdir is $2" "$tmp/lock.out" && [ ! -e "$tmp/ran" ]
	t $? "c: $lockdir $1: refused in one line, nothing run (exit $rc)"
	rm -rf "$lockdir"
}
rm -rf "$lockdir"
ln -s "$tmp/evil" "$lockdir"
run_review
show
[ "$rc" = 2 ] && grep -q "$lockdir is a symlink" "$tmp/review.out" && ! grep -q '^compile' "$tmp/meson.calls"
t $? "c: a symlink: the review refuses it before meson compile (exit $rc)"
refused "a symlink to nobody's dir" "a symlink"
mkdir -m 0700 "$lockdir"; chown 65534:65534 "$lockdir"
refused "nobody's" "not root's"
mkdir -m 0700 "$lockdir"; chmod 0777 "$lockdir"
refused "root's, mode 0777" "writable by group or others"
: >"$lockdir"
refused "a file" "not a directory"

"$lock" guest true
[ "$(stat -c '%F %u %a' "$lockdir" 2>&1)" = "directory 0 700" ]
t $? "c: a missing one is made: $(stat -c '%F, uid %u, mode %a' "$lockdir" 2>&1)"
"$lock" guest sleep 3 &
sleep 0.5
timeout 1 "$lock" guest true 2>"$tmp/wait.err"
rc=$?
wait
[ "$rc" = 124 ] && grep -q "waiting for $lockdir/guest.lock" "$tmp/wait.err"
t $? "c: a second holder of guest waits, saying so: $(head -1 "$tmp/wait.err")"
tap_done
