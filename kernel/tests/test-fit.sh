#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# build.sh --fit, which bpfwire-review runs on each kernel it knows to find
# the one a series was written for, on fake tarballs of two versions
# (fake-kernel.sh): a series made on 9.2 fits 9.2, and on 9.1 the error
# names its patch and hunk; the tarball is only read, and only the files
# the series touches come out of it, owned by the sandbox's uid; a tree
# --source says its version; a newer tree builds with an older version's
# configs, an older one does not; an output directory of mode 0700
# outside /tmp (bpfwire-review's mkdtemp) is reached by the sandbox.
#
#   test-fit.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-fit.sh SOURCE_ROOT"; exit 1; }
root=$(realpath "$1")
build_sh=$root/kernel/build.sh
. "$root/kernel/tests/fake-kernel.sh"
fake_kernel_need
tap_tmpdir
[ -z "${KEEP:-}" ] || trap - EXIT
chmod 755 "$tmp"
export CCACHE_DIR=$tmp/no-ccache
uid=$("$root/kernel/sandbox.sh" --uid)

# tarball VERSION: linux-source-X.Y.tar.xz of a fake tree; 9.2's sock.c
# differs from 9.1's in its third function.
tarball() {
	local v=$1 xy=${1%.*}
	FAKE_KERNEL_VERSION=$v fake_kernel "$tmp/k$xy" --git
	if [ "$xy" = 9.2 ]; then
		sed -i 's/^int sock_3(void) { return 3; }$/int sock_3(void) { return 33; }/' "$tmp/k$xy/net/core/sock.c"
		git -C "$tmp/k$xy" -c user.name=t -c user.email=t@example.invalid commit -q -am "9.2"
	fi
	git -C "$tmp/k$xy" archive --prefix="linux-source-$xy/" HEAD | xz -0 -T1 >"$tmp/linux-source-$xy.tar.xz"
}
tarball 9.1.0
tarball 9.2.0

# The series: on 9.2, a change next to sock_3 and a new file.
git clone -q "$tmp/k9.2" "$tmp/s"
sed -i 's/^int sock_4(void) { return 4; }$/int sock_4(void) { return 44; }/' "$tmp/s/net/core/sock.c"
echo "// SPDX-License-Identifier: GPL-2.0-only" >"$tmp/s/net/core/new_thing.c"
git -C "$tmp/s" add -A
git -C "$tmp/s" -c user.name=t -c user.email=t@example.invalid commit -q -m "net: change sock_4"
git -C "$tmp/s" format-patch -q --stdout -1 >"$tmp/series.mbx"

fit() { local out=$1; shift; bash "$build_sh" --fit --sandbox --out "$tmp/$out" --user-patches "$tmp/series.mbx" "$@" >"$tmp/$out.log" 2>&1; }
has() { grep -qF -- "$2" "$tmp/$1.log"; }
before=$(stat -c '%s %Y %i' "$tmp/linux-source-9.2.tar.xz")

fit f92 --kernel-version 9.2 --source "$tmp/linux-source-9.2.tar.xz"
[ $? = 0 ] && has f92 "fit: the series applies to" && has f92 "(Linux 9.2.0"
t $? "a series made on 9.2 fits 9.2's tarball: exit 0, the last line names Linux 9.2.0"

fit f91 --kernel-version 9.1 --source "$tmp/linux-source-9.1.tar.xz"
[ $? = 1 ] && has f91 'error: patch 1 "net: change sock_4"' && has f91 "hunk: net/core/sock.c hunk #1" &&
	! has f91 "fit: the series applies"
t $? "on 9.1 it does not: exit 1, naming patch 1 and net/core/sock.c hunk #1"

files=$(cd "$tmp/f92/sbx/fit-src" && find . -path ./.git -prune -o -type f -print | sort | tr '\n' ' ')
[ "$files" = "./Makefile ./net/core/sock.c " ]
t $? "only the Makefile and the file the series changes come out of the tarball (got: $files)"

[ "$(stat -c %u "$tmp/f92/sbx/fit-src/net/core/sock.c")" = "$uid" ] && [ ! -e "$tmp/f92/src" ] &&
	[ ! -e "$tmp/f92/obj" ] && [ ! -e "$tmp/f92/sbx/ccache" ] &&
	[ "$(stat -c '%s %Y %i' "$tmp/linux-source-9.2.tar.xz")" = "$before" ]
t $? "the fit ran as the sandbox's uid $uid, unpacked no tree, copied no ccache, left the tarball as it was"

# bpfwire-review's fit directory is mkdtemp's (0700) beside the build,
# outside /tmp, where the sandbox sees the host's modes.
here_tmp=$(mktemp -d "$PWD/.test-fit-XXXXXX") && chmod 755 "$here_tmp"
trap 'rm -rf "$tmp" "$here_tmp"' EXIT
mkdir -m 700 "$here_tmp/o700"
bash "$build_sh" --fit --sandbox --out "$here_tmp/o700" --user-patches "$tmp/series.mbx" --kernel-version 9.2 \
	--source "$tmp/linux-source-9.2.tar.xz" >"$tmp/o700.log" 2>&1 && has o700 "fit: the series applies to"
r=$?
t $r "an output directory of mode 0700 (mkdtemp's) outside /tmp: the sandbox's uid reaches it, the series fits"
[ $r = 0 ] || sed 's/^/# /' "$tmp/o700.log"
mkdir -m 700 "$here_tmp/p700"
case $PWD/ in
/tmp/*)
	# the sandbox's /tmp is its own: bwrap makes the path's parents again,
	# walkable (sandbox.sh), so a clone under /tmp cannot show the refusal
	n=$((n + 1))
	echo "ok $n - under a parent of mode 0700 it cannot # SKIP the build is under /tmp, whose parents the sandbox makes anew"
	;;
*)
	! bash "$build_sh" --fit --sandbox --out "$here_tmp/p700/o" --user-patches "$tmp/series.mbx" --kernel-version 9.2 \
		--source "$tmp/linux-source-9.2.tar.xz" >"$tmp/p700.log" 2>&1 &&
		has p700 "cannot be reached by the sandbox's uid" && has p700 "give its parent directories o+x"
	t $? "under a parent of mode 0700 it cannot: one clear line, exit 1"
	;;
esac

FAKE_KERNEL_VERSION=9.3.0 fake_kernel "$tmp/tree93"
fit t93 --source "$tmp/tree93"
[ $? = 0 ] && has t93 "is an unpacked tree of Linux 9.3.0"
t $? "an unpacked tree as --source: its version (Linux 9.3.0), exit 0"

printf 'CONFIG_NET=y\nCONFIG_LOCALVERSION="-bpfwire"\n' >"$tmp/lab.config"
bsh() { local out=$1; shift; bash "$build_sh" --out "$tmp/$out" --fragment "$tmp/lab.config" \
	--user-patches none --netpoll false "$@" >"$tmp/$out.log" 2>&1; }
bsh n93 --kernel-version 9.2 --source "$tmp/tree93" &&
	has n93 "the source is Linux 9.3.0, newer than 9.2: built with 9.2's configs and series" &&
	[ -f "$tmp/n93/bzImage" ]
t $? "build.sh --kernel-version 9.2 on a newer tree (a bpf-next of 9.3): a note, and it builds"

FAKE_KERNEL_VERSION=9.1.0 fake_kernel "$tmp/tree91"
! bsh o91 --kernel-version 9.2 --source "$tmp/tree91" &&
	has o91 "the source is Linux 9.1.0, not 9.2" && [ ! -e "$tmp/o91/bzImage" ]
t $? "an older tree with --kernel-version 9.2 stops before the config"
tap_done
