#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# install-sources against mirrors of this test's own, no network: a local
# trixie-backports signed with a key made here (apt checks the signature
# against Signed-By, as it does Debian's), one signed by another key, one
# with a .deb that does not match its index, one without a package, one
# without the suite, and an address nothing answers on. Each run uses
# --fetch-only or --simulate and a state directory under the test's: the
# system's apt and dpkg are only read. A source that cannot be had is one
# warning line with the command, and status 0.
#
#   test-install-sources.sh INSTALL_SOURCES
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-install-sources.sh INSTALL_SOURCES"; exit 1; }
install_sources=$(realpath "$1")
tap_need_root
for c in gpg gpgconf dpkg-deb apt-get; do
	command -v $c >/dev/null || { echo "1..0 # SKIP no $c (apt-get install gpg)"; exit 0; }
done
tmp=$(mktemp -d)
export GNUPGHOME=$tmp/gnupg
trap 'gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -m 700 "$GNUPGHOME"
chmod 755 "$tmp"
arch=$(dpkg --print-architecture)
system_before=$(find /etc/apt /var/lib/dpkg/status -type f -exec md5sum {} + 2>/dev/null | sort)

newkey() {
	gpg -q --batch --pinentry-mode loopback --passphrase '' \
		--quick-gen-key "$1 <$1@bpfwire.invalid>" ed25519 sign never 2>/dev/null &&
		gpg -q --export "$1@bpfwire.invalid" >"$tmp/$1.gpg"
}
if ! newkey mirror || ! newkey stranger; then echo "Bail out! gpg could not make a key"; exit 1; fi

# mkdeb NAME VERSION [CONTROL LINE...]: a small .deb in $tmp/debs.
mkdeb() {
	local name=$1 version=$2 d=$tmp/pkg/$1_$2
	shift 2
	mkdir -p "$d/DEBIAN" "$d/usr/share/doc/$name" "$tmp/debs"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: bpfwire test <test@bpfwire.invalid>\n' \
		"$name" "$version" >"$d/DEBIAN/control"
	[ $# -eq 0 ] || printf '%s\n' "$@" >>"$d/DEBIAN/control"
	echo "Description: bpfwire test package" >>"$d/DEBIAN/control"
	echo "$name $version" >"$d/usr/share/doc/$name/test"
	dpkg-deb --root-owner-group -Zgzip -b "$d" "$tmp/debs/${name}_${version}_all.deb" >/dev/null
}
# mirror DIR KEY DEB...: trixie-backports in DIR, its InRelease signed by
# KEY, with DEB... in its pool and index.
mirror() {
	local dir=$1 key=$2 deb idx
	shift 2
	idx=$dir/dists/trixie-backports/main/binary-$arch
	mkdir -p "$idx" "$dir/pool"
	: >"$idx/Packages"
	for deb in "$@"; do
		cp "$deb" "$dir/pool/"
		{
			dpkg-deb -f "$deb"
			echo "Filename: pool/$(basename "$deb")"
			echo "Size: $(stat -c %s "$deb")"
			echo "SHA256: $(sha256sum <"$deb" | cut -d' ' -f1)"
			echo
		} >>"$idx/Packages"
	done
	{
		printf 'Origin: bpfwire-test\nLabel: bpfwire-test\nSuite: trixie-backports\n'
		printf 'Codename: trixie-backports\nDate: %s\nArchitectures: %s\nComponents: main\nSHA256:\n' \
			"$(date -Ru)" "$arch"
		printf ' %s %s main/binary-%s/Packages\n' "$(sha256sum <"$idx/Packages" | cut -d' ' -f1)" \
			"$(stat -c %s "$idx/Packages")" "$arch"
	} >"$dir/dists/trixie-backports/Release"
	gpg -q --batch --yes --local-user "$key@bpfwire.invalid" --digest-algo SHA256 \
		--clearsign -o "$dir/dists/trixie-backports/InRelease" "$dir/dists/trixie-backports/Release"
}
# sources NAME URI: a sources list like bpfwire's, for this mirror.
sources() {
	printf 'Types: deb\nURIs: %s\nSuites: trixie-backports\nComponents: main\nSigned-By: %s\n' \
		"$2" "$tmp/mirror.gpg" >"$tmp/$1.sources"
}
# run NAME ARGS...: install-sources with NAME's sources and a state of its
# own; then $rc, $out, $err (lines), $debs (the .debs it kept, by name).
run() {
	local name=$1
	shift
	BPFWIRE_APT_SOURCES=$tmp/$name.sources BPFWIRE_APT_STATE=$tmp/state-$name \
		"$install_sources" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	out=$(cat "$tmp/$name.out") err=$(cat "$tmp/$name.err")
	debs=$(find "$tmp/state-$name/debs" -name '*.deb' -printf '%f\n' 2>/dev/null | sort | paste -sd' ')
	echo "$out" "$err" | sed '/^ *$/d; s/^/# /'
}
has() { grep -qF -- "$2" <<<"$1"; }
lines() { if [ -z "$1" ]; then echo 0; else wc -l <<<"$1"; fi; }

mkdeb linux-source-7.2 7.2.12-1~bpo13+1 'Depends: binutils, xz-utils'
mkdeb linux-source-7.3 7.3.4-1~bpo13+1 'Depends: binutils, xz-utils'
# What the suite has beside them, which must not come along: its
# linux-source meta-package and a newer binutils.
mkdeb linux-source 7.3.4-1~bpo13+1 'Depends: linux-source-7.3'
mkdeb binutils 99.0-1~bpo13+1
good=("$tmp/debs/linux-source-7.2_7.2.12-1~bpo13+1_all.deb" "$tmp/debs/linux-source-7.3_7.3.4-1~bpo13+1_all.deb"
	"$tmp/debs/linux-source_7.3.4-1~bpo13+1_all.deb" "$tmp/debs/binutils_99.0-1~bpo13+1_all.deb")
want="linux-source-7.2_7.2.12-1~bpo13+1_all.deb linux-source-7.3_7.3.4-1~bpo13+1_all.deb"

# --- a good mirror: exactly the two packages, verified ------------------------
mirror "$tmp/good" mirror "${good[@]}"
sources good "file:$tmp/good"
run good --fetch-only
t "$( [ $rc = 0 ] && [ "$debs" = "$want" ] && [ -z "$err" ] && echo 0)" \
	"signed mirror: status $rc, fetched exactly linux-source-7.2 and 7.3 ($debs)"
ok=1
for f in $debs; do
	cmp -s "$tmp/state-good/debs/$f" "$tmp/debs/$f" && [ "$(stat -c %U:%a "$tmp/state-good/debs/$f")" = root:644 ] || ok=0
done
t "$( [ $ok = 1 ] && [ -n "$debs" ] && echo 0)" "signed mirror: the kept .debs are the mirror's, root's, mode 644"

# --- a bad signature -----------------------------------------------------------
mirror "$tmp/forged" stranger "${good[@]}"
sources forged "file:$tmp/forged"
run forged --fetch-only
t "$( [ $rc = 0 ] && [ -z "$debs" ] && [ "$(lines "$err")" = 1 ] &&
	has "$err" "linux-source-7.2 linux-source-7.3 not installed (trixie-backports at file:$tmp/forged)" &&
	has "$err" "as root: $install_sources" && echo 0)" \
	"mirror signed by a key not in Signed-By: nothing fetched, one line, status $rc"

# --- a .deb that is not the one its index names --------------------------------
mirror "$tmp/swapped" mirror "${good[@]}"
cp "$tmp/debs/binutils_99.0-1~bpo13+1_all.deb" "$tmp/swapped/pool/linux-source-7.3_7.3.4-1~bpo13+1_all.deb"
sources swapped "file:$tmp/swapped"
run swapped --fetch-only
t "$( [ $rc = 0 ] && [ "$debs" = "linux-source-7.2_7.2.12-1~bpo13+1_all.deb" ] && [ "$(lines "$err")" = 1 ] &&
	has "$err" "warning: linux-source-7.3 not installed" && has "$err" "as root: $install_sources linux-source-7.3" &&
	echo 0)" "a .deb that does not match its hash is refused, the other one kept, one line, status $rc"

# --- a package gone from the suite ---------------------------------------------
mirror "$tmp/partial" mirror "${good[0]}"
sources partial "file:$tmp/partial"
run partial --fetch-only
t "$( [ $rc = 0 ] && [ "$debs" = "linux-source-7.2_7.2.12-1~bpo13+1_all.deb" ] && [ "$(lines "$err")" = 1 ] &&
	has "$err" "warning: linux-source-7.3 not installed" && has "$err" "linux-source-7.3" &&
	has "$err" "as root: $install_sources linux-source-7.3" && echo 0)" \
	"linux-source-7.3 gone from the suite: 7.2 fetched, one line naming 7.3 and the command, status $rc"

# --- the suite gone ------------------------------------------------------------
mkdir "$tmp/empty"
sources gone "file:$tmp/empty"
run gone --fetch-only
t "$( [ $rc = 0 ] && [ -z "$out" ] && [ "$(lines "$err")" = 1 ] &&
	has "$err" "linux-source-7.2 linux-source-7.3 not installed (trixie-backports at file:$tmp/empty)" &&
	has "$err" "does not have a Release file" && has "$err" "as root: $install_sources" && echo 0)" \
	"no trixie-backports on the mirror: one line, status $rc"

# --- nothing answers -------------------------------------------------------------
# Port 1 on the loopback: refused at once, whatever the network.
sources unreachable "http://127.0.0.1:1/debian"
run unreachable --fetch-only
t "$( [ $rc = 0 ] && [ -z "$out" ] && [ "$(lines "$err")" = 1 ] &&
	has "$err" "install-sources: warning: linux-source-7.2 linux-source-7.3 not installed (trixie-backports at http://127.0.0.1:1/debian): " &&
	has "$err" "the Linux 6.12 work does not need them; to install them later, as root: $install_sources" &&
	echo 0)" "unreachable mirror: exactly one line naming both packages and the command, status $rc"

# --- installed already: no network --------------------------------------------
if [ "$(dpkg-query -W -f='${Status}\n' linux-source-7.2 linux-source-7.3 2>/dev/null | grep -c ' installed$')" = 2 ]; then
	s=$(date +%s)
	rm -rf "$tmp/state-unreachable"
	run unreachable
	t "$( [ $rc = 0 ] && [ -z "$err" ] && has "$out" "linux-source-7.2 linux-source-7.3 present" &&
		[ $(( $(date +%s) - s )) -le 5 ] && [ ! -e "$tmp/state-unreachable" ] && echo 0)" \
		"both installed: present at once, no state made, the (unreachable) mirror not asked, status $rc"
else
	n=$((n + 1)); echo "ok $n # SKIP linux-source-7.2 and 7.3 are not both installed (tools/install-sources)"
fi

# --- what the system's apt would do with them ----------------------------------
run good --simulate
t "$( [ $rc = 0 ] && [ -z "$err" ] && [ -z "$debs" ] && has "$out" "would install:" &&
	! grep -Eq 'would install:.*(binutils|linux-source,|linux-source$)' <<<"$out" && echo 0)" \
	"apt-get -s with the system's config: only linux-source-7.2 and 7.3 (new, no binutils from the mirror)"

# A dependency Debian 12 cannot meet.
mkdeb linux-source-7.2 7.2.13-1~bpo13+1 'Depends: binutils (>= 99)'
mirror "$tmp/unmet" mirror "$tmp/debs/linux-source-7.2_7.2.13-1~bpo13+1_all.deb"
sources unmet "file:$tmp/unmet"
run unmet --simulate linux-source-7.2
t "$( [ $rc = 0 ] && [ "$(lines "$err")" = 1 ] && has "$err" "apt-get cannot install them here" &&
	has "$err" "as root: $install_sources linux-source-7.2" && echo 0)" \
	"a dependency only trixie has: refused with one line, status $rc"

# One that would remove an installed package (jq: nothing depends on it).
if dpkg-query -W -f='${Status}' jq 2>/dev/null | grep -q ' installed$'; then
	mkdeb linux-source-7.2 7.2.14-1~bpo13+1 'Conflicts: jq'
	mirror "$tmp/conflict" mirror "$tmp/debs/linux-source-7.2_7.2.14-1~bpo13+1_all.deb"
	sources conflict "file:$tmp/conflict"
	run conflict --simulate linux-source-7.2
	t "$( [ $rc = 0 ] && [ "$(lines "$err")" = 1 ] && has "$err" "would change the system: it " &&
		has "$err" "removes jq" && echo 0)" \
		"a package that would remove jq: refused with one line, status $rc"
else
	n=$((n + 1)); echo "ok $n # SKIP jq is not installed"
fi

# One that would upgrade an installed package: one Debian 12 has a newer
# version of (when the machine has one).
up=$(apt-get -s -q upgrade 2>/dev/null | awk '/^Inst [^ ]+ \[/ { v = $4; sub(/^\(/, "", v); print $2, v; exit }')
if [ -n "$up" ]; then
	read -r up_pkg up_ver <<<"$up"
	mkdeb linux-source-7.2 7.2.15-1~bpo13+1 "Depends: $up_pkg (>= $up_ver)"
	mirror "$tmp/upgrade" mirror "$tmp/debs/linux-source-7.2_7.2.15-1~bpo13+1_all.deb"
	sources upgrade "file:$tmp/upgrade"
	run upgrade --simulate linux-source-7.2
	t "$( [ $rc = 0 ] && [ "$(lines "$err")" = 1 ] && has "$err" "would change the system: it upgrades $up_pkg" && echo 0)" \
		"a package that would upgrade $up_pkg to $up_ver: refused with one line, status $rc"
else
	n=$((n + 1)); echo "ok $n # SKIP no package has an upgrade pending here"
fi

system_after=$(find /etc/apt /var/lib/dpkg/status -type f -exec md5sum {} + 2>/dev/null | sort)
t "$( [ "$system_before" = "$system_after" ] && echo 0)" "/etc/apt and dpkg's status are as they were"
tap_done
