#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# build.sh on a disk too small for a kernel stops before it unpacks, with
# one line that says how much it needs and how much is free, and writes
# no tree: what CI met when a build directory's disk filled half-way
# through an unpack ("fatal: unable to write loose object file: No space
# left on device"). The small disk is a 64 MiB tmpfs, mounted in a mount
# namespace of this test's own, so nothing outside it sees the mount.
# Each source kind that starts a tree: the tarball, an unpacked tree.
# Then ./run tests, copied onto such a disk: it stops before it installs
# or builds anything, saying what the trees not yet built need.
#
#   test-build-space.sh BUILD_SH SOURCE_ROOT TARBALL
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 3 ] || { echo "Bail out! usage: test-build-space.sh BUILD_SH SOURCE_ROOT TARBALL"; exit 1; }
build_sh=$1 root=$2 tarball=$3
tap_need_root
[ -f "$tarball" ] || { echo "1..0 # SKIP $tarball is missing (apt-get install linux-source-6.12)"; exit 0; }
tap_tmpdir
mkdir "$tmp/disk" "$tmp/tree"
# An unpacked tree is only read after the check; a Makefile is enough.
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$tmp/tree/Makefile"
tar_before=$(stat -c '%s %Y %i' "$tarball")

# run NAME SOURCE: build.sh into the small disk; its exit, its stderr and
# what it left there
run() {
	unshare -m --propagation private sh -c '
		mount -t tmpfs -o size=64m bpfwire-small "$1" || exit 99
		"$2" --out "$1/kernel" --patches "$3/kernel/patches" --fragment "$3/kernel/lab.config" \
			--source "$4" >"$5.out" 2>"$5.err"
		echo $? >"$5.rc"
		find "$1" -mindepth 1 | sed "s|^$1/||" >"$5.left"' \
		- "$tmp/disk" "$build_sh" "$root" "$2" "$tmp/$1"
	rc=$(cat "$tmp/$1.rc" 2>/dev/null || echo none)
	err=$(cat "$tmp/$1.err" 2>/dev/null)
	echo "$err" | sed 's/^/# /'
}
for kind in tarball tree; do
	if [ $kind = tarball ]; then run $kind "$tarball"; else run $kind "$tmp/tree"; fi
	t $([ "$rc" = 1 ] && echo 0) "$kind: build.sh exits 1 on a 64 MiB disk (got $rc)"
	t $(grep -q '^kernel: error: .* needs about 5 GiB free under .*/kernel; .* are free on .*Nothing was unpacked' <<<"$err" && echo 0) \
		"$kind: one error line: what it needs, what is free, nothing unpacked"
	t $([ "$(grep -c . <<<"$err")" = 1 ] && echo 0) "$kind: nothing else on stderr"
	t $(! grep -qv '^kernel$' "$tmp/$kind.left" && echo 0) \
		"$kind: the disk holds no tree, no objects ($(grep -c . "$tmp/$kind.left") entries: $(tr '\n' ' ' <"$tmp/$kind.left"))"
done
unshare -m --propagation private sh -c '
	mount -t tmpfs -o size=64m bpfwire-small "$1" || exit 99
	cp "$2/run" "$1/run" && cd "$1" && ./run tests >"$3.out" 2>"$3.err"
	echo $? >"$3.rc"
	ls -A "$1" >"$3.left"' - "$tmp/disk" "$root" "$tmp/run"
sed 's/^/# /' "$tmp/run.out" "$tmp/run.err"
t $([ "$(cat "$tmp/run.rc")" = 1 ] && echo 0) "./run tests exits 1 on a 64 MiB disk (got $(cat "$tmp/run.rc"))"
t $(grep -q '^run: disk: 0 GiB free under .*; the 4 kernel trees not built yet need about 18 GiB$' "$tmp/run.out" && echo 0) \
	"./run tests says what is free and what the four trees need"
t $(grep -q '^run: error: 0 GiB is less than the 18 GiB the kernel trees need; nothing was built' "$tmp/run.err" && echo 0) \
	"./run tests: one error line"
t $([ "$(cat "$tmp/run.left")" = run ] && echo 0) "./run tests wrote nothing beside itself ($(tr '\n' ' ' <"$tmp/run.left"))"
t $([ "$(stat -c '%s %Y %i' "$tarball")" = "$tar_before" ] && echo 0) "the tarball is unchanged"
t $([ "$(cat "$tmp/tree/Makefile" | wc -l)" = 4 ] && [ "$(ls -A "$tmp/tree")" = Makefile ] && echo 0) \
	"the unpacked tree is unchanged"
tap_done
