#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# kernel/source-versions names its package on each line, and
# kernel/source-version.sh reads the right package's lines for a tarball:
# every line of the list parses (PACKAGE DEBIAN_VERSION KERNEL_VERSION,
# the three agreeing), linux-source-6.12, 7.2 and 7.3 are there, and
# ksrc_read on made-up 7.2, 7.3 and 6.12 tarballs (a Makefile in each)
# reports the package, the kernel version, whether it is listed and the
# pin command of that package; Debian's own /usr/src paths are mapped to
# their package by name. Last, the installed 7.x tarballs, when there are.
# No root, no network.
#
#   test-source-versions.sh SOURCE_VERSION_SH SOURCE_VERSIONS
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-source-versions.sh SOURCE_VERSION_SH SOURCE_VERSIONS"; exit 1; }
lib=$(realpath "$1") list=$(realpath "$2")
# shellcheck source=/dev/null
. "$lib"
[ "$KSRC_VERSIONS" = "$list" ] || KSRC_VERSIONS=$list
tap_tmpdir

# --- the list -------------------------------------------------------------------
bad=$(awk '/^[ \t]*(#|$)/ { next }
	{
		ok = NF == 3 && $1 ~ /^linux-source-[0-9]+\.[0-9]+$/
		xy = $1; sub(/^linux-source-/, "", xy)
		# the kernel is X.Y.Z of the package X.Y; the Debian version is it, -REVISION
		ok = ok && index($3, xy ".") == 1 && $3 ~ /^[0-9]+\.[0-9]+\.[0-9]+$/ && index($2, $3 "-") == 1
		if (!ok) print FILENAME ":" NR ": " $0
	}' "$list")
[ -z "$bad" ] || sed 's/^/# does not parse: /' <<<"$bad"
t "$( [ -z "$bad" ] && echo 0)" "every line of $(basename "$list") is PACKAGE DEBIAN_VERSION KERNEL_VERSION, the three agreeing"
# In subshells: ksrc_read must find each tarball's package itself.
for p in linux-source-6.12 linux-source-7.2 linux-source-7.3; do
	known=$(KSRC_PACKAGE=$p; ksrc_known)
	echo "# $p: $(KSRC_PACKAGE=$p; ksrc_known_desc)"
	t "$( [ -n "$known" ] && [ "$(wc -l <<<"$known")" = "$(grep -c "^$p " "$list")" ] &&
		! awk -v x="${p#linux-source-}." 'index($2, x) != 1 { exit 0 } END { exit 1 }' <<<"$known" && echo 0)" \
		"$p is listed, and ksrc_known gives its lines only"
done

# --- ksrc_read on made-up tarballs ------------------------------------------------
# tarball FILE TOP VERSION PATCHLEVEL SUBLEVEL: TOP/Makefile in FILE.
tarball() {
	mkdir -p "$tmp/t/$2"
	printf '# SPDX-License-Identifier: GPL-2.0\nVERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\n' \
		"$3" "$4" "$5" >"$tmp/t/$2/Makefile"
	tar -cJf "$1" -C "$tmp/t" "$2/Makefile"
}
newest() { awk -v p="$1" '$1 == p { v = $2 } END { print v }' "$list"; }
newest_kernel() { awk -v p="$1" '$1 == p { v = $3 } END { print v }' "$list"; }
install_sources=$(realpath -m "$(dirname "$lib")/../tools/install-sources")

k72=$(newest_kernel linux-source-7.2)
IFS=. read -r a b c <<<"$k72"
tarball "$tmp/linux-source-7.2.tar.xz" linux-source-7.2 "$a" "$b" "$c"
ksrc_read "$tmp/linux-source-7.2.tar.xz"
echo "# $KSRC_DESC; pin: $(ksrc_pin_cmd)"
t "$( [ "$KSRC_PACKAGE" = linux-source-7.2 ] && [ "$KSRC_KERNEL" = "$k72" ] && [ -z "$KSRC_PKG" ] &&
	[ "$KSRC_DESC" = "$tmp/linux-source-7.2.tar.xz (Linux $k72, not from the linux-source-7.2 package)" ] && echo 0)" \
	"ksrc_read of a linux-source-7.2.tar.xz (Linux $k72): package linux-source-7.2, kernel $k72"
t "$(ksrc_is_known && [ "$(ksrc_pin_cmd)" = "$install_sources linux-source-7.2=$(newest linux-source-7.2)" ] && echo 0)" \
	"Linux $k72 is listed for linux-source-7.2; the pin is install-sources linux-source-7.2=$(newest linux-source-7.2)"

# A tarball of another name: the package of its Makefile's X.Y.
tarball "$tmp/linux-7.3.99.tar.xz" linux-7.3.99 7 3 99
ksrc_read "$tmp/linux-7.3.99.tar.xz"
echo "# $KSRC_DESC; pin: $(ksrc_pin_cmd)"
t "$( [ "$KSRC_PACKAGE" = linux-source-7.3 ] && [ "$KSRC_KERNEL" = 7.3.99 ] && ! ksrc_is_known &&
	[ "$(ksrc_pin_cmd)" = "$install_sources linux-source-7.3=$(newest linux-source-7.3)" ] && echo 0)" \
	"ksrc_read of linux-7.3.99.tar.xz: package linux-source-7.3, not listed, pin install-sources linux-source-7.3=$(newest linux-source-7.3)"

k612=$(newest_kernel linux-source-6.12)
IFS=. read -r a b c <<<"$k612"
tarball "$tmp/linux-source-6.12.tar.xz" linux-source-6.12 "$a" "$b" "$c"
ksrc_read "$tmp/linux-source-6.12.tar.xz"
echo "# $KSRC_DESC; pin: $(ksrc_pin_cmd)"
t "$( [ "$KSRC_PACKAGE" = linux-source-6.12 ] && [ "$KSRC_KERNEL" = "$k612" ] && ksrc_is_known &&
	[ "$(ksrc_pin_cmd)" = "apt-get install linux-source-6.12=$(newest linux-source-6.12) && apt-mark hold linux-source-6.12" ] &&
	echo 0)" "ksrc_read of a linux-source-6.12.tar.xz (Linux $k612): package linux-source-6.12, listed, apt-get pin as before"

# Debian's paths, by name alone (no file is read).
t "$( [ "$(ksrc_package_of /usr/src/linux-source-7.2.tar.xz '' '')" = linux-source-7.2 ] &&
	[ "$(ksrc_package_of /usr/src/linux-source-7.3.tar.xz '' '')" = linux-source-7.3 ] &&
	[ "$(ksrc_package_of /usr/src/linux-source-6.12.tar.xz '' '')" = linux-source-6.12 ] &&
	[ "$(ksrc_package_of /srv/k.tar.xz linux-source-7.3 7.2.1)" = linux-source-7.3 ] && echo 0)" \
	"ksrc_package_of: /usr/src/linux-source-X.Y.tar.xz is linux-source-X.Y; a dpkg owner comes first"

# --- the installed ones -------------------------------------------------------------
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
