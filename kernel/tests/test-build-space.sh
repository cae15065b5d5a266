#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# build.sh on a disk too small for a kernel stops before it unpacks, with
# one line that says how much it needs and how much is free, and writes
# no tree: what CI met when a build directory's disk filled half-way
# through an unpack ("fatal: unable to write loose object file: No space
# left on device"). The small disk is a 64 MiB tmpfs, mounted in a mount
# namespace of this test's own, so nothing outside it sees the mount.
# Each source kind that starts a tree: the tarball, an unpacked tree; and
# a sandboxed build, stopped by root before the series' own build.
# Then ./run tests, copied onto such a disk: it stops before it installs
# or builds anything, saying what the trees not yet built need.
#
#   test-build-space.sh BUILD_SH SOURCE_ROOT TARBALL
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 3 ] || { echo "Bail out! usage: test-build-space.sh BUILD_SH SOURCE_ROOT TARBALL"; exit 1; }
build_sh=$(realpath "$1") root=$(realpath "$2") tarball=$3
tap_need_root
[ -f "$tarball" ] || { echo "1..0 # SKIP $tarball is missing (apt-get install linux-source-6.12)"; exit 0; }
tap_tmpdir
mkdir "$tmp/disk" "$tmp/tree"
# An unpacked tree is only read after the check; a Makefile is enough.
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\nEXTRAVERSION =\n' >"$tmp/tree/Makefile"
tar_before=$(stat -c '%s %Y %i' "$tarball")

# small_disk NAME COMMAND...: COMMAND run on the small disk (its working
# directory), mounted in a mount namespace of its own; then $rc, $out,
# $err, and $left: what it left on the disk, a line a path
small_disk() {
	local name=$1
	shift
	unshare -m --propagation private sh -c '
		d=$1 o=$2
		shift 2
		mount -t tmpfs -o size=64m bpfwire-small "$d" || exit 99
		cd "$d" && "$@" >"$o.out" 2>"$o.err"
		echo $? >"$o.rc"
		find . -mindepth 1 | sed "s|^\./||" >"$o.left"' - "$tmp/disk" "$tmp/$name" "$@"
	rc=$(cat "$tmp/$name.rc" 2>/dev/null || echo none)
	out=$(cat "$tmp/$name.out" 2>/dev/null)
	err=$(cat "$tmp/$name.err" 2>/dev/null)
	left=$(cat "$tmp/$name.left" 2>/dev/null)
	printf '%s\n' "$out" "$err" | grep . | sed 's/^/# /'
}
for kind in tarball tree; do
	source=$tarball
	[ $kind = tarball ] || source=$tmp/tree
	small_disk $kind "$build_sh" --out kernel --patches "$root/kernel/patches" \
		--fragment "$root/kernel/lab.config" --source "$source"
	t $([ "$rc" = 1 ] && echo 0) "$kind: build.sh exits 1 on a 64 MiB disk (got $rc)"
	t $(grep -q '^kernel: error: .* needs about 5 GiB free under .*/kernel; .* are free on .*Nothing was unpacked' <<<"$err" && echo 0) \
		"$kind: one error line: what it needs, what is free, nothing unpacked"
	t $([ "$(grep -c . <<<"$err")" = 1 ] && echo 0) "$kind: nothing else on stderr"
	t $([ "$left" = kernel ] && echo 0) \
		"$kind: the disk holds no tree, no objects ($(grep -c . <<<"$left") entries, the first: $(head -n 5 <<<"$left" | tr '\n' ' '))"
done
# A sandboxed build (a reviewer's series): root checks the space before
# the series' own build begins, so a full disk is not called the series'
# failure (no kernel/sandboxed-build.started for the review to read).
small_disk sandbox "$build_sh" --out kernel --patches "$root/kernel/patches" \
	--fragment "$root/kernel/lab.config" --source "$tarball" --sandbox
t $([ "$rc" = 1 ] && echo 0) "sandbox: build.sh exits 1 on a 64 MiB disk (got $rc)"
t $(grep -q "^kernel: error: the series' build needs about 5 GiB free under .*/kernel; .* are free on .*Nothing was unpacked" <<<"$err" &&
	! grep -q 'sandbox: the build runs as uid' <<<"$out$err" && echo 0) \
	"sandbox: root's error line, before the sandboxed build"
t $(! grep -qx 'kernel/sandboxed-build.started' <<<"$left" && ! grep -q '^kernel/sbx/src' <<<"$left" &&
	! grep -q '^kernel/\.ccache-seed' <<<"$left" && echo 0) \
	"sandbox: no mark of a sandboxed build, no tree, no ccache's copy ($(grep -c . <<<"$left") entries: $(head -n 5 <<<"$left" | tr '\n' ' '))"
small_disk run sh -c 'cp "$1/run" run && ./run tests' - "$root"
t $([ "$rc" = 1 ] && echo 0) "./run tests exits 1 on a 64 MiB disk (got $rc)"
t $(grep -q '^run: disk: 0 GiB free under .*; the 3 kernel trees not built yet and the caches need about 15 GiB$' <<<"$out" && echo 0) \
	"./run tests says what is free and what the three trees and the caches need"
t $(grep -q '^run: error: 0 GiB is less than the 15 GiB the kernel trees need; nothing was built' <<<"$err" && echo 0) \
	"./run tests: one error line"
t $([ "$left" = run ] && echo 0) "./run tests wrote nothing beside itself ($(tr '\n' ' ' <<<"$left"))"
t $([ "$(stat -c '%s %Y %i' "$tarball")" = "$tar_before" ] && echo 0) "the tarball is unchanged"
t $([ "$(cat "$tmp/tree/Makefile" | wc -l)" = 4 ] && [ "$(ls -A "$tmp/tree")" = Makefile ] && echo 0) \
	"the unpacked tree is unchanged"
tap_done
