#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel/source-versions names its package on each line, and
# kernel/source-version.sh reads the right package's lines for a tarball:
# every line of the list parses (PACKAGE DEBIAN_VERSION KERNEL_VERSION,
# the three agreeing) and linux-source-6.12 is there; on a list of this
# test's with lines for linux-source-6.12, 7.2 and 7.3, ksrc_known gives
# each package its own lines. ksrc_read on made-up 7.2, 7.3 and 6.12
# tarballs (a Makefile in each) reports the package, the kernel version,
# whether it is listed and that package's pin command; a package with no
# listed version (a made-up 7.9) is said so, without a warning. Debian's own /usr/src
# paths are mapped to their package by name. Last, the installed 7.x
# tarballs, when there are. No root, no network.
#
#   test-source-versions.sh SOURCE_VERSION_SH SOURCE_VERSIONS

# shellcheck disable=SC2034 # KSRC_VERSIONS is read by source-version.sh's functions
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-source-versions.sh SOURCE_VERSION_SH SOURCE_VERSIONS"; exit 1; }
lib=$(realpath "$1") list=$(realpath "$2")
# shellcheck source=/dev/null
. "$lib"
tap_tmpdir
install_sources=$(realpath -m "$(dirname "$lib")/../tools/install-sources")

# --- the shipped list --------------------------------------------------------------
bad=$(awk '/^[ \t]*(#|$)/ { next }
	{
		ok = NF == 3 && $1 ~ /^linux-source-[0-9]+\.[0-9]+$/
		xy = $1; sub(/^linux-source-/, "", xy)
		# the kernel is X.Y.Z of the package X.Y; the Debian version is it, -REVISION
		ok = ok && index($3, xy ".") == 1 && $3 ~ /^[0-9]+\.[0-9]+\.[0-9]+$/ && index($2, $3 "-") == 1
		if (!ok) print FILENAME ":" NR ": " $0
	}' "$list")
[ -z "$bad" ] || sed 's/^/# does not parse: /' <<<"$bad"
t "$( [ -z "$bad" ] && grep -q '^linux-source-6\.12 ' "$list" && echo 0)" \
	"every line of $(basename "$list") is PACKAGE DEBIAN_VERSION KERNEL_VERSION, the three agreeing; linux-source-6.12 is listed"
# Its newest 6.12 line, read here without source-version.sh.
read -r v612 k612 < <(awk '$1 == "linux-source-6.12" { v = $2; k = $3 } END { print v, k }' "$list")
echo "# linux-source-6.12 newest listed: $v612 (Linux $k612)"

# --- a list with the three packages ----------------------------------------------------
# 7.3's lines between 7.2's; one line of the old two-column form, ignored.
cat >"$tmp/versions" <<'EOF'
# test list
linux-source-6.12 6.12.118-1~deb12u1 6.12.118
linux-source-7.2 7.2.11-1~bpo13+1 7.2.11
linux-source-7.3 7.3.4-1~bpo13+1 7.3.4
linux-source-7.2 7.2.12-1~bpo13+1 7.2.12
7.2.13-1~bpo13+1 7.2.13
EOF
# In subshells: ksrc_read must find each tarball's package itself.
for p in "linux-source-6.12:6.12.118-1~deb12u1 (Linux 6.12.118)" \
	"linux-source-7.2:7.2.11-1~bpo13+1 (Linux 7.2.11), 7.2.12-1~bpo13+1 (Linux 7.2.12)" \
	"linux-source-7.3:7.3.4-1~bpo13+1 (Linux 7.3.4)"; do
	got=$(KSRC_VERSIONS=$tmp/versions KSRC_PACKAGE=${p%%:*}; ksrc_known_desc)
	echo "# ${p%%:*}: $got"
	t "$( [ "$got" = "${p#*:}" ] && echo 0)" "ksrc_known gives ${p%%:*} its own lines only: ${p#*:}"
done

# --- ksrc_read on made-up tarballs ------------------------------------------------------
# tarball FILE TOP VERSION PATCHLEVEL SUBLEVEL: TOP/Makefile in FILE.
tarball() {
	mkdir -p "$tmp/t/$2"
	printf '# SPDX-License-Identifier: GPL-2.0\nVERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n' \
		"$3" "$4" "$5" >"$tmp/t/$2/Makefile"
	tar -cJf "$1" -C "$tmp/t" "$2/Makefile"
}

tarball "$tmp/linux-source-7.2.tar.xz" linux-source-7.2 7 2 12
KSRC_VERSIONS=$tmp/versions
ksrc_read "$tmp/linux-source-7.2.tar.xz"
say=$(ksrc_say "#" 2>&1)
echo "$say"
t "$( [ "$KSRC_PACKAGE" = linux-source-7.2 ] && [ "$KSRC_KERNEL" = 7.2.12 ] && [ -z "$KSRC_PKG" ] &&
	[ "$KSRC_DESC" = "$tmp/linux-source-7.2.tar.xz (Linux 7.2.12, not from the linux-source-7.2 package)" ] && echo 0)" \
	"ksrc_read of a linux-source-7.2.tar.xz (Linux 7.2.12): package linux-source-7.2, kernel 7.2.12"
t "$(ksrc_is_known && [ "$say" = "# source: $KSRC_DESC, a version the patch series are known to apply to" ] &&
	[ "$(ksrc_pin_cmd)" = "$install_sources linux-source-7.2=7.2.12-1~bpo13+1" ] && echo 0)" \
	"listed for linux-source-7.2 in the test list; the pin is install-sources linux-source-7.2=7.2.12-1~bpo13+1"
# A package the shipped list has no line for (7.2 and 7.3 have theirs
# since the series were ported): a made-up linux-source-7.9.
tarball "$tmp/linux-source-7.9.tar.xz" linux-source-7.9 7 9 1
KSRC_VERSIONS=$list
ksrc_read "$tmp/linux-source-7.9.tar.xz"
if [ -n "$(ksrc_known)" ]; then
	n=$((n + 1)); echo "ok $n # SKIP $(basename "$list") lists linux-source-7.9 versions"
else
	out=$(ksrc_say "#" 2>/dev/null) err=$(ksrc_say "#" 2>&1 >/dev/null)
	echo "$out"
	t "$( [ "$out" = "# source: $KSRC_DESC; the patch series are not known to apply to any linux-source-7.9 version yet (kernel/source-versions)" ] &&
		[ -z "$err" ] && echo 0)" \
		"$(basename "$list") lists no linux-source-7.9: said so in one line, no warning with a VERSION to pin"
fi

# A tarball of another name: the package of its Makefile's X.Y.
tarball "$tmp/linux-7.3.99.tar.xz" linux-7.3.99 7 3 99
KSRC_VERSIONS=$tmp/versions
ksrc_read "$tmp/linux-7.3.99.tar.xz"
say=$(ksrc_say "#" 2>&1)
echo "$say"
t "$( [ "$KSRC_PACKAGE" = linux-source-7.3 ] && [ "$KSRC_KERNEL" = 7.3.99 ] && ! ksrc_is_known &&
	grep -qF "warning: this version is not in kernel/source-versions" <<<"$say" &&
	[ "$(ksrc_pin_cmd)" = "$install_sources linux-source-7.3=7.3.4-1~bpo13+1" ] && echo 0)" \
	"ksrc_read of linux-7.3.99.tar.xz: package linux-source-7.3, not listed, a warning, pin install-sources linux-source-7.3=7.3.4-1~bpo13+1"

IFS=. read -r a b c <<<"$k612"
tarball "$tmp/linux-source-6.12.tar.xz" linux-source-6.12 "$a" "$b" "$c"
KSRC_VERSIONS=$list
ksrc_read "$tmp/linux-source-6.12.tar.xz"
echo "# $KSRC_DESC; pin: $(ksrc_pin_cmd)"
t "$( [ "$KSRC_PACKAGE" = linux-source-6.12 ] && [ "$KSRC_KERNEL" = "$k612" ] && ksrc_is_known &&
	[ "$(ksrc_pin_cmd)" = "apt-get install linux-source-6.12=$v612 && apt-mark hold linux-source-6.12" ] &&
	echo 0)" "ksrc_read of a linux-source-6.12.tar.xz (Linux $k612): package linux-source-6.12, listed, apt-get pin as before"

# Debian's paths, by name alone (no file is read).
t "$( [ "$(ksrc_package_of /usr/src/linux-source-7.2.tar.xz '' '')" = linux-source-7.2 ] &&
	[ "$(ksrc_package_of /usr/src/linux-source-7.3.tar.xz '' '')" = linux-source-7.3 ] &&
	[ "$(ksrc_package_of /usr/src/linux-source-6.12.tar.xz '' '')" = linux-source-6.12 ] &&
	[ "$(ksrc_package_of /srv/k.tar.xz linux-source-7.3 7.2.1)" = linux-source-7.3 ] && echo 0)" \
	"ksrc_package_of: /usr/src/linux-source-X.Y.tar.xz is linux-source-X.Y; a dpkg owner comes first"

# --- the installed ones ------------------------------------------------------------------
for p in linux-source-7.2 linux-source-7.3; do
	v=$(dpkg-query -W -f='${Status}\t${Version}\n' "$p" 2>/dev/null | awk -F'\t' '$1 ~ / installed$/ { print $2 }')
	if [ -z "$v" ] || [ ! -f "/usr/src/$p.tar.xz" ]; then
		n=$((n + 1)); echo "ok $n # SKIP $p is not installed (tools/install-sources)"
		continue
	fi
	ksrc_read "/usr/src/$p.tar.xz"
	echo "# $KSRC_DESC"
	t "$( [ "$KSRC_PACKAGE" = "$p" ] && [ "$KSRC_PKG" = "$v" ] && [[ $KSRC_KERNEL == "${p#linux-source-}".* ]] &&
		[ "$KSRC_DESC" = "$p $v (Linux $KSRC_KERNEL)" ] && echo 0)" \
		"ksrc_read /usr/src/$p.tar.xz: $p $v (Linux $KSRC_KERNEL)"
done
tap_done
