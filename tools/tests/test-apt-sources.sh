#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire's apt sources list names trixie-backports alone, signed by a
# keyring that holds Debian 13's keys, and install-sources's apt options
# keep the system's sources, pins and lists out and verification on: what
# apt would fetch with them (apt-get update --print-uris, which fetches
# nothing) is trixie-backports's signed index and nothing else. And the
# system's own apt names no trixie suite. No network, no root.
#
#   test-apt-sources.sh INSTALL_SOURCES SOURCES_FILE
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-apt-sources.sh INSTALL_SOURCES SOURCES_FILE"; exit 1; }
install_sources=$(realpath "$1") sources=$(realpath "$2")
command -v apt-get >/dev/null || { echo "1..0 # SKIP no apt-get: bpfwire supports Debian 12"; exit 0; }
tap_tmpdir
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# --- the file: one deb822 stanza, these fields and no others ------------------
fields=$(awk '/^[ \t]*#/ { next } /^[ \t]*$/ { if (f) s++; f = 0; next }
	{ f = 1; print s + 0 "\t" $0 }' "$sources")
sed 's/^/# /' <<<"$fields"
want=$(printf '0\t%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' 'Suites: trixie-backports' \
	'Components: main' "Signed-By: $keyring")
t "$( [ "$fields" = "$want" ] && echo 0)" \
	"$(basename "$sources"): one stanza: deb, deb.debian.org, Suites trixie-backports only, main, Signed-By $keyring"

# --- the keyring holds Debian 13's archive keys --------------------------------
if [ -r "$keyring" ] && command -v gpg >/dev/null; then
	uids=$(gpg --no-default-keyring --homedir "$tmp" --show-keys --with-colons "$keyring" 2>/dev/null |
		awk -F: '$1 == "uid" { print $10 }')
	t "$(grep -q 'Debian Archive Automatic Signing Key (13/trixie)' <<<"$uids" &&
		grep -q 'Debian Stable Release Key (13/trixie)' <<<"$uids" && echo 0)" \
		"$keyring holds the 13/trixie archive and release keys"
else
	n=$((n + 1)); echo "ok $n # SKIP no gpg or no $keyring (apt-get install gpg debian-archive-keyring)"
fi

# --- install-sources's apt: only this list, verification on ---------------------
state=$tmp/state
mkdir -p "$state/lists/partial" "$state/cache" "$state/sources.list.d" "$state/preferences.d"
mapfile -t opts < <(BPFWIRE_APT_STATE=$state "$install_sources" --apt-options)
apt=()
for o in "${opts[@]}"; do apt+=(-o "$o"); done
printf '# apt option: %s\n' "${opts[@]}"
uris=$(apt-get "${apt[@]}" update --print-uris 2>&1 | awk '{ gsub(/'\''/, "", $1); print $1 }')
echo "$uris" | sed 's/^/# would fetch: /'
t "$( [ -n "$uris" ] && ! grep -qv '^http://deb\.debian\.org/debian/dists/trixie-backports/' <<<"$uris" &&
	grep -qx 'http://deb.debian.org/debian/dists/trixie-backports/InRelease' <<<"$uris" && echo 0)" \
	"with install-sources's options apt would fetch trixie-backports's signed index (InRelease) and nothing else"
# The paths as apt resolves them (apt-config shell: /f a file, /d a directory).
list= parts= pins= pinparts= lists= cache= insecure= downgrade= unauth=
eval "$(apt-config "${apt[@]}" shell list Dir::Etc::SourceList/f parts Dir::Etc::SourceParts/d \
	pins Dir::Etc::Preferences/f pinparts Dir::Etc::PreferencesParts/d lists Dir::State::Lists/d \
	cache Dir::Cache/d insecure Acquire::AllowInsecureRepositories \
	downgrade Acquire::AllowDowngradeToInsecureRepositories unauth APT::Get::AllowUnauthenticated)"
echo "# apt resolves: list=$list parts=$parts pins=$pins pinparts=$pinparts lists=$lists cache=$cache"
t "$( [ "$list" = "$sources" ] && [ "$parts" = "$state/sources.list.d/" ] && [ "$pins" = "$state/preferences" ] &&
	[ "$pinparts" = "$state/preferences.d/" ] && [ "$lists" = "$state/lists/" ] && [ "$cache" = "$state/cache/" ] &&
	echo 0)" \
	"install-sources's apt reads its own list and no pins, and writes its own lists and cache, not /etc/apt's or /var/lib/apt's"
t "$( [ "$insecure" = false ] && [ "$downgrade" = false ] && [ "$unauth" = false ] && echo 0)" \
	"install-sources's apt refuses unsigned and unauthenticated sources, whatever apt.conf.d says"

# --- the system's apt: still Debian 12 alone ---------------------------------------
sys=$(apt-get update --print-uris 2>/dev/null | awk '{ gsub(/'\''/, "", $1); print $1 }')
trixie=$(grep -E '/dists/(trixie|stable|testing|unstable|sid|forky)[^/]*/' <<<"$sys")
[ -z "$trixie" ] || echo "$trixie" | sed 's/^/# system apt would fetch: /'
t "$( [ -n "$sys" ] && [ -z "$trixie" ] && echo 0)" "the system's apt sources name no trixie (or newer) suite"
tap_done
