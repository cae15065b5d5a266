#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# -Dkernel_version: what meson and build.sh make of it, without
# building a kernel. meson setup into scratch directories (seconds each):
#  - the default is 6.12 as before: its tarball, kernel/lab.config and
#    debug.config, patches/series and fixes, then patches/sndbuf ahead of
#    the harness, no --kernel-version; -Dkernel_fixes=false has no sndbuf;
#  - 7.3 with the seed series (the default) is refused, naming
#    -Dkernel_series=upstream; 7.2 with -Dkernel_series=upstream is
#    refused, naming 7.3 (7.2 has no merged ksock);
#  - 7.2 (the seed flavour) takes linux-source-7.2's tarball,
#    configs/7.2/, patches/7.2 with its fixes, then 7.2's sndbuf ahead
#    of harness and crypto, --kernel-version 7.2, and checks those series
#    with check-series.sh --only; -Dkernel_fixes=false has only
#    patches/7.2;
#  - 7.3 upstream takes linux-source-7.3's tarball, configs/7.3/,
#    patches/7.3/netpoll and --kernel-version 7.3, and checks its series
#    with check-series.sh --only; -Dkernel_source still overrides the
#    tarball;
#  - with /usr/src empty (a mount namespace), 7.3 is one error naming
#    tools/install-sources linux-source-7.3.
# Then build.sh on the fake tree of fake-kernel.sh (no sandbox, seconds):
#  - --kernel-version 7.3 on a 6.12 tree stops before patching;
#  - on a 7.3 tree, with no netpoll series (--netpoll false), a fragment
#    with CONFIG_BPF_NETPOLL=y builds: the symbol is asked for only when
#    the tree has net/core/bpf_netpoll.c; series.json has kernel_version;
#  - with bpf_netpoll.c in the tree it is still asked for (and the fake
#    Kconfig lacks it, so that is an error naming it);
#  - a missing default tarball of another version names install-sources.
#
#   test-kernel-version.sh SOURCE_ROOT SERIES_TOOL
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-kernel-version.sh SOURCE_ROOT SERIES_TOOL"; exit 1; }
root=$(realpath "$1") series_tool=$(realpath "$2")
. "$root/kernel/tests/fake-kernel.sh"
fake_kernel_need
command -v meson >/dev/null || { echo "1..0 # SKIP meson is missing"; exit 0; }
tap_tmpdir
k=$root/kernel

# setup NAME OPTIONS...: meson setup into $tmp/NAME, its output in
# $tmp/NAME.log; the kernel target's command in $tmp/NAME.cmd, its
# inputs (the patches among them) in $tmp/NAME.in.
setup() {
	local name=$1
	shift
	meson setup "$tmp/$name" "$root" "$@" >"$tmp/$name.log" 2>&1 || return 1
	grep -m1 '^build kernel/bzImage ' "$tmp/$name/build.ninja" >"$tmp/$name.in"
	# Paths meson made relative to the build directory, made absolute.
	local w
	for w in $(grep -m1 -A3 '^build kernel/bzImage ' "$tmp/$name/build.ninja" | sed -n 's/^ COMMAND = //p'); do
		case $w in ../*) realpath -m "$tmp/$name/$w" ;; *) echo "$w" ;; esac
	done | tr '\n' ' ' >"$tmp/$name.cmd"
}
has() { grep -qF -- "$2" "$tmp/$1"; }
hasnt() { ! grep -qF -- "$2" "$tmp/$1"; }
tests_of() { (cd "$tmp/$1" && meson introspect --tests) >"$tmp/$1.tests"; }

if [ -f /usr/src/linux-source-6.12.tar.xz ]; then
	setup d
	t "$(has d.cmd "--source /usr/src/linux-source-6.12.tar.xz" &&
		has d.cmd "--fragment $k/lab.config --fragment $k/debug.config" &&
		has d.cmd "--patches $k/patches --fixes $k/patches/fixes" &&
		has d.cmd "--series $k/patches/sndbuf --series $k/patches/harness --series $k/patches/crypto" &&
		hasnt d.cmd "--kernel-version" && hasnt d.cmd "configs/" && echo 0)" \
		"default: linux-source-6.12's tarball, kernel/lab.config and debug.config, the seed series and fixes, then sndbuf, harness, crypto, no --kernel-version"
	setup alone -Dkernel_fixes=false
	t "$(has alone.cmd "--patches $k/patches" && has alone.cmd "--localversion -seed" &&
		has alone.cmd "--series $k/patches/harness --series $k/patches/crypto" &&
		hasnt alone.cmd "--fixes" && hasnt alone.cmd "patches/sndbuf" &&
		has alone.in "0003-bpf-Add-ksock-kfuncs.patch" && hasnt alone.in "size-the-send-buffer" && echo 0)" \
		"6.12 seeds alone (-Dkernel_fixes=false): the posted series' port only, no fixes and no sndbuf extension"
else
	t 0 "# SKIP /usr/src/linux-source-6.12.tar.xz is missing"
	t 0 "# SKIP /usr/src/linux-source-6.12.tar.xz is missing"
fi

! setup seed73 -Dkernel_version=7.3 &&
	has seed73.log "-Dkernel_version=7.3 builds only -Dkernel_series=upstream: Linux 7.3 has the ksock API as merged" &&
	has seed73.log "Configure with -Dkernel_version=7.3 -Dkernel_series=upstream, or -Dkernel_version=7.2 or 6.12 for the seed series"
t $? "7.3 with the seed series: refused, the message names -Dkernel_series=upstream and the seed's versions"

! setup up72 -Dkernel_version=7.2 -Dkernel_series=upstream &&
	has up72.log "-Dkernel_version=7.2 has no upstream flavour: Linux 7.2 has no merged ksock API" &&
	has up72.log "Configure with -Dkernel_version=7.3 -Dkernel_series=upstream"
t $? "7.2 with -Dkernel_series=upstream: refused, the message names 7.3"

if [ -f /usr/src/linux-source-7.2.tar.xz ]; then
	setup seed72 -Dkernel_version=7.2 && tests_of seed72
	t "$(has seed72.cmd "--source /usr/src/linux-source-7.2.tar.xz" &&
		has seed72.cmd "--patches $k/patches/7.2 --fixes $k/patches/7.2/fixes" &&
		has seed72.cmd "--series $k/patches/7.2/sndbuf --series $k/patches/harness --series $k/patches/crypto" &&
		has seed72.cmd "--kernel-version 7.2" && hasnt seed72.cmd "--localversion" &&
		has seed72.cmd "--fragment $k/configs/7.2/lab.config --fragment $k/configs/7.2/debug.config" &&
		hasnt seed72.cmd "$k/lab.config" && hasnt seed72.cmd "$k/patches/fixes" &&
		has seed72.in "7.2/0003-bpf-Add-ksock-kfuncs.patch" &&
		has seed72.tests '"--only"' && has seed72.tests "$k/patches/7.2/fixes" &&
		has seed72.tests "$k/patches/7.2/sndbuf" && echo 0)" \
		"7.2: linux-source-7.2's tarball, patches/7.2 with its fixes, then 7.2's sndbuf, harness, crypto, configs/7.2, --kernel-version 7.2, release -bpfwire, check-series --only"
	setup alone72 -Dkernel_version=7.2 -Dkernel_fixes=false
	t "$(has alone72.cmd "--patches $k/patches/7.2" && has alone72.cmd "--localversion -seed" &&
		has alone72.cmd "--series $k/patches/harness --series $k/patches/crypto" &&
		hasnt alone72.cmd "--fixes" && hasnt alone72.cmd "sndbuf" && hasnt alone72.in "size-the-send-buffer" && echo 0)" \
		"7.2 seeds alone (-Dkernel_fixes=false): patches/7.2 only, release -seed"
else
	t 0 "# SKIP /usr/src/linux-source-7.2.tar.xz is missing (tools/install-sources linux-source-7.2)"
	t 0 "# SKIP /usr/src/linux-source-7.2.tar.xz is missing (tools/install-sources linux-source-7.2)"
fi

if [ -f /usr/src/linux-source-7.3.tar.xz ]; then
	setup up73 -Dkernel_version=7.3 -Dkernel_series=upstream && tests_of up73
	t "$(has up73.cmd "--source /usr/src/linux-source-7.3.tar.xz" &&
		has up73.cmd "--patches $k/patches/7.3/netpoll" &&
		has up73.cmd "--kernel-version 7.3" && has up73.cmd "--localversion -up" &&
		has up73.cmd "--fragment $k/configs/7.3/lab.config --fragment $k/configs/7.3/debug.config" &&
		hasnt up73.cmd "$k/lab.config" && hasnt up73.cmd "patches/upstream" &&
		has up73.tests '"--only"' && has up73.tests "$k/patches/7.3/netpoll" && echo 0)" \
		"7.3 upstream: linux-source-7.3's tarball, patches/7.3/netpoll, configs/7.3, --kernel-version 7.3, release -up, check-series --only"
else
	t 0 "# SKIP /usr/src/linux-source-7.3.tar.xz is missing (tools/install-sources linux-source-7.3)"
fi

# -Dkernel_source still names the source (a tarball of the test's own).
fake_kernel "$tmp/fake73" --git
git -C "$tmp/fake73" archive --prefix=x/ pristine | xz -0 -T1 >"$tmp/other.tar.xz"
setup src73 -Dkernel_version=7.3 -Dkernel_series=upstream -Dkernel_source="$tmp/other.tar.xz"
t "$(has src73.cmd "--source $tmp/other.tar.xz" && has src73.cmd "--kernel-version 7.3" &&
	hasnt src73.cmd linux-source-7.3 && echo 0)" \
	"7.3 with -Dkernel_source: that source, still checked as 7.3"

# /usr/src empty: the 7.3 tarball is missing.
mkdir -p "$tmp/nosrc"
unshare -m sh -c 'mount -t tmpfs none /usr/src && meson setup "$1" "$2" -Dkernel_version=7.3 -Dkernel_series=upstream' \
	sh "$tmp/nosrc/b" "$root" >"$tmp/nosrc.log" 2>&1
[ $? != 0 ] && has nosrc.log "linux-source-7.3 is not installed" &&
	has nosrc.log "run tools/install-sources linux-source-7.3"
t $? "7.3 with no linux-source-7.3 tarball: one error naming tools/install-sources linux-source-7.3"

# --- build.sh on the fake tree --------------------------------------------
export CCACHE_DIR=$tmp/no-ccache
chmod 755 "$tmp"
printf 'CONFIG_NET=y\nCONFIG_LOCALVERSION="-bpfwire"\nCONFIG_BPF_NETPOLL=y\n' >"$tmp/lab.config"
bsh() { local out=$1; shift; bash "$k/build.sh" --out "$tmp/$out" --series-json "$series_tool" \
	--flavour upstream --fragment "$tmp/lab.config" "$@" >"$tmp/$out.log" 2>&1; }
git -C "$tmp/fake73" archive --prefix=linux-source-6.12/ pristine | xz -0 -T1 >"$tmp/linux-source-6.12.tar.xz"
! bsh v612 --user-patches none --netpoll false --kernel-version 7.3 --source "$tmp/linux-source-6.12.tar.xz" &&
	has v612.log "the source is Linux 6.12.0, not 7.3" && [ ! -e "$tmp/v612/obj/.config" ]
t $? "build.sh --kernel-version 7.3 on a Linux 6.12 tree: stops before the config, naming both versions"

rm -rf "$tmp/fake73"
FAKE_KERNEL_VERSION=7.3.4 fake_kernel "$tmp/fake73" --git
git -C "$tmp/fake73" archive --prefix=linux-source-7.3/ pristine | xz -0 -T1 >"$tmp/linux-source-7.3.tar.xz"
bsh b73 --user-patches none --netpoll false --kernel-version 7.3 --source "$tmp/linux-source-7.3.tar.xz" &&
	has b73.log "CONFIG_BPF_NETPOLL is not asked for" &&
	grep -q '"kernel_version":"7.3.4"' <(tr -d ' \n' <"$tmp/b73/series.json") &&
	grep -qx "7.3.4-bpfwire" "$tmp/b73/obj/include/config/kernel.release"
t $? "7.3 tree without the netpoll series: CONFIG_BPF_NETPOLL not asked for, builds, series.json kernel_version 7.3.4"

# A series that adds bpf_netpoll.c: the symbol is asked for again.
mkdir -p "$tmp/np"
git clone -q "$tmp/fake73" "$tmp/mk"
echo "// SPDX-License-Identifier: GPL-2.0-only" >"$tmp/mk/net/core/bpf_netpoll.c"
git -C "$tmp/mk" add -A
git -C "$tmp/mk" -c user.name=t -c user.email=t@example.invalid commit -q -m "net: add bpf_netpoll.c"
git -C "$tmp/mk" format-patch -q -1 -o "$tmp/np"
(cd "$tmp/np" && ls *.patch >series)
! bsh np73 --user-patches none --netpoll true --netpoll-series "$tmp/np" --kernel-version 7.3 \
	--source "$tmp/linux-source-7.3.tar.xz" &&
	has np73.log "asks for 'CONFIG_BPF_NETPOLL=y': this tree has no such symbol" &&
	hasnt np73.log "is not asked for"
t $? "7.3 tree with bpf_netpoll.c: CONFIG_BPF_NETPOLL still asked for (the fake Kconfig lacks it: named)"

# 6.12's series.json has no kernel_version (unchanged).
bsh b612 --user-patches none --netpoll false --source "$tmp/linux-source-6.12.tar.xz" &&
	! grep -q kernel_version "$tmp/b612/series.json"
t $? "6.12 without --kernel-version: series.json as before, no kernel_version"

! bash "$k/build.sh" --out "$tmp/none" --user-patches none --fragment "$tmp/lab.config" \
	--kernel-version 9.9 >"$tmp/none.log" 2>&1 &&
	has none.log "/usr/src/linux-source-9.9.tar.xz is missing" &&
	has none.log "(tools/install-sources linux-source-9.9)"
t $? "build.sh --kernel-version 9.9 with no source: its tarball is missing, named with install-sources"
tap_done
