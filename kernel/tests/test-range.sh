#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# build.sh --fit --range-base, which bpfwire-review --base SERIES runs: a
# v7 of three patches and a v8 (patch 1 the same, patch 2 changed, a new
# patch 3 with a hostile subject, v7's patch 3 dropped) on a fake
# tarball (fake-kernel.sh), an unpacked tree and a git tree: the
# range-diff pairs them, the patch-ids say which is unchanged, only the
# files they touch are taken, as the sandbox's uid; a v8 that differs in
# its messages only makes the same tree; a base that does not apply is
# named, and nothing is left of an earlier run.
#
#   test-range.sh SOURCE_ROOT
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 1 ] || { echo "Bail out! usage: test-range.sh SOURCE_ROOT"; exit 1; }
root=$(realpath "$1")
build_sh=$root/kernel/build.sh
. "$root/kernel/tests/fake-kernel.sh"
fake_kernel_need
tap_tmpdir
[ -z "${KEEP:-}" ] || trap - EXIT
chmod 755 "$tmp"
export CCACHE_DIR=$tmp/no-ccache
uid=$("$root/kernel/sandbox.sh" --uid)

FAKE_KERNEL_VERSION=9.2.0 fake_kernel "$tmp/k" --git
git -C "$tmp/k" archive --prefix=linux-source-9.2/ HEAD | xz -0 -T1 >"$tmp/linux-source-9.2.tar.xz"
FAKE_KERNEL_VERSION=9.2.0 fake_kernel "$tmp/tree"

. "$root/kernel/tests/fake-versions.sh"
fake_versions "$tmp/k" "$tmp" || echo "Bail out! the hostile subject was not put in"
g() { git -C "$1" -c user.name="A U Thor" -c user.email=a@example.org "${@:2}"; }

# range OUT SERIES BASE [ARGS]: build.sh --fit --range-base; $rc
range() {
	local out=$1 series=$2 base=$3
	shift 3
	bash "$build_sh" --fit --sandbox --out "$tmp/$out" --user-patches "$tmp/$series" --range-base "$tmp/$base" \
		--kernel-version 9.2 "$@" >"$tmp/$out.log" 2>&1
	rc=$?
}
has() { grep -qF -- "$2" "$tmp/$1"; }
# patches OUT: range-patches.txt without the ids: "SIDE N SUBJECT"
patches() { sed -E 's/^(base|series) ([0-9]+) ([0-9a-f]{40}|-) /\1 \2 /' "$tmp/$1/range-patches.txt"; }
# pairs OUT: range-pairs.txt without the commits (the pristine commit differs by source)
pairs() { sed -E 's/ [0-9a-f]{7,} / C /g; s/ -{7,} / C /g' "$tmp/$1/range-pairs.txt"; }
# id OUT SIDE N: a patch's id
id() { awk -v s="$2" -v n="$3" '$1 == s && $2 == n { print $3 }' "$tmp/$1/range-patches.txt"; }

range tar v8.mbx v7.mbx --source "$tmp/linux-source-9.2.tar.xz"
[ "$rc" = 0 ] && has tar.log "range: applying the base series $tmp/v7.mbx" && has tar.log "range: 3 base patches, 3 patches of the series, tree differs"
r=$?
t $r "the tarball: exit 0 (got $rc), both series applied to the same pristine files"
[ $r = 0 ] || sed 's/^/# /' "$tmp/tar.log"
expect=$(printf '%s\n' "tree differs" "base 1 net: sock_4 returns 44" "base 2 net: sock_10 returns more" \
	"base 3 net: dev_addr_lists_5, dropped in v8" "series 1 net: sock_4 returns 44" "series 2 net: sock_10 returns more" \
	"series 3 net: new$(printf '\033')]0;owned$(printf '\007') verdict: OK")
[ "$(patches tar)" = "$expect" ]
t $? "range-patches.txt: the tree differs, each side's patches in order with their subjects (the hostile one as git read it)"
[ "$(id tar series 1)" = "$(id tar base 1)" ] && [ "$(id tar series 2)" != "$(id tar base 2)" ] &&
	[ "$(id tar series 1)" = "$(g "$tmp/v8" show HEAD~2 | git patch-id --stable | cut -d' ' -f1)" ]
t $? "the patch-ids are git patch-id --stable's: patch 1 the same in both, patch 2 not"
# git range-diff's own lines: 1 = 1, 2 ! 2, 3 < -, - > 3
grep -E '^1: +[0-9a-f]+ = 1: +[0-9a-f]+ net: sock_4 returns 44$' "$tmp/tar/range-pairs.txt" >/dev/null &&
	grep -E '^2: +[0-9a-f]+ ! 2: +[0-9a-f]+ net: sock_10 returns more$' "$tmp/tar/range-pairs.txt" >/dev/null &&
	grep -E '^3: +[0-9a-f]+ < -: +-+ net: dev_addr_lists_5, dropped in v8$' "$tmp/tar/range-pairs.txt" >/dev/null &&
	grep -E '^-: +-+ > 3: +[0-9a-f]+ net: new' "$tmp/tar/range-pairs.txt" >/dev/null &&
	[ "$(wc -l <"$tmp/tar/range-pairs.txt")" = 4 ]
t $? "range-pairs.txt: 1 = 1, 2 ! 2, v7's 3 < (dropped), v8's 3 > (new), and nothing else"
grep -qxF -- '    -+int sock_10(void) { return 100; }' "$tmp/tar/range-diff.txt" &&
	grep -qxF -- '    ++int sock_10(void) { return 1000; }' "$tmp/tar/range-diff.txt"
t $? "range-diff.txt: patch 2's change between the versions (100 to 1000)"
files=$(cd "$tmp/tar/sbx/fit-src" && find . -path ./.git -prune -o -type f -print | sort | tr '\n' ' ')
[ "$files" = "./Makefile ./net/core/dev_addr_lists.c ./net/core/sock.c " ] &&
	[ "$(stat -c %u "$tmp/tar/sbx/fit-src/net/core/sock.c")" = "$uid" ] && [ ! -e "$tmp/tar/sbx/src" ] &&
	[ "$(stat -c %u "$tmp/tar/range-diff.txt")" = 0 ] && [ ! -L "$tmp/tar/range-diff.txt" ]
t $? "only the files either series touches were taken, by the sandbox's uid $uid; root's copies are plain files (got: $files)"

range tree v8.mbx v7.mbx --source "$tmp/tree"
[ "$rc" = 0 ] && [ "$(patches tree)" = "$expect" ] && [ "$(pairs tree)" = "$(pairs tar)" ] &&
	[ "$(id tree series 2)" = "$(id tar series 2)" ]
t $? "an unpacked tree as --source: the same patches, pairs and ids (exit $rc)"

range git v8.mbx v7.mbx --source "$tmp/k"
[ "$rc" = 0 ] && [ "$(patches git)" = "$expect" ] && [ "$(pairs git)" = "$(pairs tar)" ] && [ "$(id git series 2)" = "$(id tar series 2)" ]
t $? "a git tree as --source: the same (exit $rc)"

range same v8m.mbx v7.mbx --source "$tmp/linux-source-9.2.tar.xz"
[ "$rc" = 0 ] && [ "$(head -1 "$tmp/same/range-patches.txt")" = "tree same" ] &&
	[ "$(id same series 3)" = "$(id same base 3)" ]
t $? "a v8 that only rewords its messages makes the same tree, each patch-id the same (exit $rc)"

# v7 on a 9.2 whose sock.c moved on does not apply: named, and the
# range files of the run before are gone
sed -i 's/^int sock_4(void) { return 4; }$/int sock_4(void) { return 40; }/' "$tmp/tree/net/core/sock.c"
range tree v8m.mbx v7.mbx --source "$tmp/tree"
[ "$rc" = 1 ] && has tree.log "range: applying the base series $tmp/v7.mbx" &&
	has tree.log 'error: patch 1 "net: sock_4 returns 44"' && [ ! -e "$tmp/tree/range-patches.txt" ]
t $? "a base series that does not apply: exit 1 (got $rc), after 'applying the base series', its patch named; no stale range files"
bash "$build_sh" --out "$tmp/x" --user-patches "$tmp/v8.mbx" --range-base "$tmp/v7.mbx" --fragment /dev/null >"$tmp/nofit.log" 2>&1
[ $? = 2 ] && has nofit.log "--range-base needs --fit"
t $? "--range-base without --fit is refused"
tap_done
