#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Kernel inputs a user names, as kernel/build.sh takes them for a review
# (--sandbox, as kernel/meson.build runs it), on the fake kernel tree of
# fake-kernel.sh: each build takes seconds. One output directory is kept
# step after step, as a build directory is:
#
#  a. --user-patches DIR: a series directory (three made-up patches of the
#     fake tree, with authors, dates and messages of their own) on the
#     fake tarball builds; the commits keep the patches' authors, dates
#     and messages, as git am's do; series.json and the release name the
#     flavour.
#  c. an mbox whose second patch does not apply: a non-zero exit naming
#     its subject and git's line about the failed hunk, the build's tree
#     untouched; a file that is no mbox is a one-line error; then a good
#     mbox (the same series, one comment changed in one patch) builds in
#     the same directory, and series.json has its sha256.
#  d. a config fragment asking for a symbol no Kconfig defines: an error
#     naming the symbol and the fragment.
#  n. --netpoll true on a series that has netpoll is an error; no series
#     (none) with auto gets the netpoll series.
#  b. --source DIR: a git work tree with a commit of its own and
#     uncommitted changes builds from its HEAD; the uncommitted changes
#     are not used (and said so); the tree is not written to (git status,
#     HEAD and every file's mtime are the same after).
#  e. --source DIR: an unpacked tree (git archive of pristine, one file
#     changed) builds with that change and is not written to.
#
#   test-inputs.sh SOURCE_ROOT SERIES_TOOL
# SERIES_TOOL: bpfwire-kernel-series, which writes series.json.
set -u
. "$(dirname "$0")/../../lab/tests/tap.sh"
[ $# -eq 2 ] || { echo "Bail out! usage: test-inputs.sh SOURCE_ROOT SERIES_TOOL"; exit 1; }
root=$(realpath "$1") series_tool=$(realpath "$2")
build_sh=$root/kernel/build.sh
. "$root/kernel/tests/fake-kernel.sh"
fake_kernel_need
[ -x "$series_tool" ] || { echo "Bail out! $series_tool is not an executable"; exit 1; }
tap_tmpdir
# The sandbox's uid reads the sources and inputs.
chmod 755 "$tmp"
# Nothing compiles here: spare build.sh copying root's ccache into the
# sandbox's.
export CCACHE_DIR=$tmp/no-ccache
b=$tmp/build in=$tmp/in
mkdir -p "$in/dir" "$in/harness" "$in/netpoll"

# --- the inputs -------------------------------------------------------------
fake_kernel "$tmp/fake" --git
# The tarball as Debian's is laid out: the tree under one top directory.
git -C "$tmp/fake" archive --prefix=linux-source-6.12/ pristine | xz -0 -T1 >"$tmp/linux-source-6.12.tar.xz"
tarball=$tmp/linux-source-6.12.tar.xz
# commit AUTHOR DATE SUBJECT: the clone's changes as one commit.
commit() {
	git -C "$tmp/mk" add -A
	GIT_AUTHOR_DATE=$2 git -C "$tmp/mk" -c user.name=Committer -c user.email=c@example.invalid \
		commit -q --author="$1" -m "$3" -m "Made for the kernel-inputs test." -m "Signed-off-by: $1"
}
git clone -q "$tmp/fake" "$tmp/mk"
mk=$tmp/mk/net/core
# The series: 1 adds bpf_netpoll.c (so --netpoll auto adds nothing), 2
# changes sock.c, 3 adds a comment to dev_addr_lists.c. The first author
# is UTF-8, to be seen kept.
author1='Ré Viewer <rv@example.invalid>'
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0-only' '/* a fake bpf_netpoll */' 'int bpf_netpoll_send(void) { return 0; }' >"$mk/bpf_netpoll.c"
commit "$author1" '2026-11-30 10:00:00 +0100' "net: add the bpf_netpoll kfuncs"
sed -i 's/^int sock_12(void) { return 12; }$/int sock_12(void) { return 112; }/' "$mk/sock.c"
commit 'Sam Sender <sam@example.invalid>' '2026-12-01 09:30:00 -0800' "net: sock: sock_12 returns 112"
sed -i 's|^int dev_addr_lists_12(void)|/*\n * dev_addr_lists_12: the twelfth, as the inputs test knows it.\n */\n&|' "$mk/dev_addr_lists.c"
commit 'Third Party <third@example.invalid>' '2026-12-02 18:45:00 +0000' "net: dev_addr_lists: say what dev_addr_lists_12 is"
git -C "$tmp/mk" format-patch -q -o "$in/dir" pristine..HEAD
(cd "$in/dir" && ls -- *.patch) >"$in/dir/series"
npatches=$(grep -c . "$in/dir/series")
# The lab's own series (harness), applied last, and the netpoll series
# --netpoll adds: each one patch made from pristine.
git -C "$tmp/mk" checkout -q -b other pristine
sed -i 's/^int sock_2(void) { return 2; }$/int sock_2(void) { return -2; }/' "$mk/sock.c"
commit 'bpfwire <bpfwire@example.invalid>' '2026-11-01 12:00:00 +0000' "harness: sock_2 returns -2"
git -C "$tmp/mk" format-patch -q -o "$in/harness" -1
(cd "$in/harness" && ls -- *.patch) >"$in/harness/series"
nharness=1
git -C "$tmp/mk" checkout -q -B other pristine
printf '%s\n' '// SPDX-License-Identifier: GPL-2.0-only' "/* bpfwire's bpf_netpoll */" 'int bpf_netpoll_send(void) { return 1; }' >"$mk/bpf_netpoll.c"
commit 'bpfwire <bpfwire@example.invalid>' '2026-11-02 12:00:00 +0000' "net: bpfwire's bpf_netpoll"
git -C "$tmp/mk" format-patch -q -o "$in/netpoll" -1
(cd "$in/netpoll" && ls -- *.patch) >"$in/netpoll/series"
nnetpoll=1
echo "# inputs: a fake tarball, $npatches patches, $nharness harness patch, $nnetpoll netpoll patch"
(cd "$in/dir" && cat $(cat series)) >"$in/series.mbox"
# What git am itself makes of the directory.
git clone -q "$tmp/fake" "$tmp/am"
(cd "$in/dir" && git -C "$tmp/am" -c user.name=am -c user.email=am@example.invalid am -q \
	$(sed "s|^|$in/dir/|" series)) >"$tmp/am.log" 2>&1 || { echo "Bail out! git am of the inputs failed: $(head -3 "$tmp/am.log")"; exit 1; }
# Who, when, what and the tree, per commit, as git log gives it.
commits() { $1 log --reverse --format='%an <%ae>|%ad|%T|%B' "$2"; }
commits "git -C $tmp/am" pristine..HEAD >"$in/want.log"
# The good mbox: the last patch's first added comment line changed (the
# same line count).
awk -v n="$npatches" '
	/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001$/ { msg++ }
	msg == n && !done && /^\+[ \t]+\* / { sub(/$/, " (changed for the review test)"); done = 1 }
	{ print }' "$in/series.mbox" >"$in/good.mbox"
# The bad mbox: the first context line of the second patch's first hunk
# changed, so git apply finds no place for it.
awk '
	/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001$/ { msg++ }
	msg == 2 && /^@@ / && !hunk { hunk = 1 }
	msg == 2 && hunk == 1 && /^ / { $0 = " no kernel has this line (review test)"; hunk = 2 }
	{ print }' "$in/series.mbox" >"$in/bad.mbox"
subj2=$(awk '/^From [0-9a-f]+ Mon Sep 17 00:00:00 2001$/ { m++ } m == 2' "$in/series.mbox" |
	git mailinfo "$in/msg" "$in/diff" | sed -n 's/^Subject: //p')
echo "this is not an mbox" >"$in/notmbox.txt"
# lab.config's part in the release, and a fragment with an unknown symbol.
printf 'CONFIG_NET=y\nCONFIG_LOCALVERSION="-bpfwire"\n' >"$in/lab.config"
printf 'CONFIG_NET=y\nCONFIG_BPFWIRE_NO_SUCH_SYMBOL=y\n' >"$in/bogus.config"
cmp -s "$in/series.mbox" "$in/good.mbox"; t $((1 - $?)) "the good mbox differs from the series in one comment"
cmp -s "$in/series.mbox" "$in/bad.mbox"; t $((1 - $?)) "the bad mbox has a broken context line in patch 2 (\"$subj2\")"

# step NAME ARGS...: build.sh into $b as kernel/meson.build runs it for a
# reviewer's inputs; $rc, $log (its output) and a line with the time.
step() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	log=$tmp/$name.log
	"$build_sh" --out "$b" --series "$in/harness" --netpoll-series "$in/netpoll" \
		--localversion -review --sandbox --flavour review --series-json "$series_tool" \
		--fragment "$in/lab.config" "$@" >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0))
	echo "# step $name: $secs s, exit $rc"
}
# show: the log's kernel lines and errors, as comments, after a failure.
show() { grep -E '^kernel|rror' "$log" | tail -"${1:-15}" | sed 's/^/#   /'; }
# t, then a status (false when the line failed) for "|| show".
check() { t "$1" "$2"; [ "$1" = 0 ]; }
json_has() { grep -qF -- "$1" "$b/series.json"; }
# The build's tree is the sandbox's: read it there, never with root's git.
kgit() { "$root/kernel/sandbox.sh" --ro "$b" -- git -C "$b/src" "$@"; }

# --- a. a series directory ----------------------------------------------------
step a-series-dir --source "$tarball" --user-patches "$in/dir" --netpoll auto
check $rc "a: --user-patches DIR builds" || show
commits kgit "pristine..HEAD~$nharness" >"$tmp/got.log"
cmp -s "$in/want.log" "$tmp/got.log"; check $? "a: git log in the build's tree has what git am gives: each patch's author, date, message and tree" ||
	diff "$in/want.log" "$tmp/got.log" | head -6 | sed 's/^/#   /'
json_has "\"author\":\"$author1\""; t $? "a: series.json has the first patch's author, UTF-8 and all"
[ "$(kgit rev-list --count pristine..HEAD)" = $((npatches + nharness)) ]
t $? "a: the tree has the $npatches patches and the lab's $nharness, nothing else (the series has netpoll: auto adds none)"
grep -q -- '-bpfwire-review$' "$b/obj/include/config/kernel.release"
t $? "a: the release names the flavour: $(cat "$b/obj/include/config/kernel.release" 2>/dev/null)"
json_has '"flavour":"review"' && json_has '"kind":"tarball"' && json_has '"netpoll_series":false' &&
	[ "$(grep -o '"subject":' "$b/series.json" | wc -l)" = $((npatches + nharness)) ]
t $? "a: series.json: flavour review, tarball base, no netpoll series, $((npatches + nharness)) subjects"
ok=0
while IFS= read -r s; do json_has "\"subject\":\"$s\"" || { ok=1; echo "# not in series.json: $s"; }; done \
	< <(git -C "$tmp/am" log --reverse --format=%s pristine..HEAD)
t $ok "a: series.json names each patch's subject"

# --- c. an mbox that does not apply, then a good one --------------------------
head_before=$(kgit rev-parse HEAD)
step c-bad-mbox --source "$tarball" --user-patches "$in/bad.mbox" --netpoll auto
[ "$rc" != 0 ]; t $? "c: an mbox that does not apply: non-zero exit"
grep -qF "\"$subj2\" (mbox message 2) does not apply" "$log"
check $? "c: the error names the failed patch's subject" || show
grep -qE 'git apply: error: patch failed: [^ ]+:[0-9]+$' "$log"
check $? "c: with git's own line about the failed hunk" || show
[ "$(kgit rev-parse HEAD)" = "$head_before" ] && kgit diff --quiet HEAD --
t $? "c: nothing half-applied: the build's tree is as it was"
step c-not-mbox --source "$tarball" --user-patches "$in/notmbox.txt" --netpoll auto
[ "$rc" != 0 ] && [ "$(grep -c '^kernel: error' "$log")" = 1 ] && grep -q "notmbox.txt is not an mbox" "$log"
check $? "c: a file that is no mbox: one error line" || show
step c-good-mbox --source "$tarball" --user-patches "$in/good.mbox" --netpoll auto
check $rc "c: then a good mbox builds in the same directory" || show
grep -rqF "(changed for the review test)" "$b/src/net"
t $? "c: the changed patch is what was built"
json_has "\"mbox_sha256\":\"$(sha256sum <"$in/good.mbox" | cut -d' ' -f1)\"" && json_has '"mbox_index":2'
t $? "c: series.json has the mbox's sha256 and each message's index"

# --- d. a config fragment with a symbol the tree does not have ------------------
step d-bad-config --source "$tarball" --user-patches "$in/good.mbox" --netpoll auto --fragment "$in/bogus.config"
[ "$rc" != 0 ]; t $? "d: a fragment with an unknown symbol: non-zero exit"
grep -qF "bogus.config asks for 'CONFIG_BPFWIRE_NO_SUCH_SYMBOL=y': this tree has no such symbol" "$log"
check $? "d: the error names the symbol and the fragment" || show
grep -q "asks for 'CONFIG_NET=y'" "$log"; t $((1 - $?)) "d: and only that symbol"

# --- n. netpoll: true on a series that has it; none with auto -------------------
step n-netpoll-true --source "$tarball" --user-patches "$in/good.mbox" --netpoll true
[ "$rc" != 0 ] && grep -q "already has net/core/bpf_netpoll.c" "$log"
check $? "n: --netpoll true on a series that has netpoll: a named error" || show
step n-none-auto --source "$tarball" --user-patches none --netpoll auto
check $rc "n: --user-patches none builds" || show
grep -qF "bpfwire's bpf_netpoll" "$b/src/net/core/bpf_netpoll.c" && ! grep -q 'return 112' "$b/src/net/core/sock.c" &&
	json_has '"netpoll_series":true' && [ "$(kgit rev-list --count pristine..HEAD)" = $((nnetpoll + nharness)) ]
t $? "n: with auto, a tree without bpf_netpoll gets the netpoll series and the harness, nothing else"

# --- b. a git work tree as the source -------------------------------------------
tree=$tmp/tree
git clone -q "$tmp/fake" "$tree"
git -C "$tree" checkout -q -b review-test pristine
echo "/* a commit only in the source tree (review test) */" >>"$tree/net/core/dev_addr_lists.c"
git -C "$tree" -c user.name="Tree Tester" -c user.email=tree@example.invalid commit -q -am "test: a commit of the source tree"
echo "/* uncommitted (review test) */" >>"$tree/net/core/sock.c"
echo untracked >"$tree/untracked-review-test"
git -C "$tree" status --porcelain >/dev/null	# settle the index before the snapshot
snap() { git -C "$tree" --no-optional-locks status --porcelain; git -C "$tree" rev-parse HEAD
	find "$tree" -printf '%p %T@ %s\n' | sort; }
# source_step STEP SNAP SEEN WHAT TREE: a build of TREE (WHAT) as --source;
# it builds, and the snapshot SNAP (of SEEN) reads the same after.
source_step() {
	local name=$1 snapfn=$2 seen=$3 what=$4 src=$5
	"$snapfn" >"$tmp/$name.before"
	step "$name" --source "$src" --user-patches "$in/good.mbox" --netpoll auto
	check $rc "${name%%-*}: --source $what builds" || show
	"$snapfn" >"$tmp/$name.after"
	cmp -s "$tmp/$name.before" "$tmp/$name.after"
	check $? "${name%%-*}: the tree is not written to ($seen)" ||
		diff "$tmp/$name.before" "$tmp/$name.after" | head -5 | sed 's/^/#   /'
}
source_step b-git-source snap "git status, HEAD, every file's mtime" "a git work tree" "$tree"
grep -q "uncommitted changes or untracked files: they are not used" "$log"
t $? "b: its uncommitted changes are said not to be used"
grep -qF "a commit only in the source tree" "$b/src/net/core/dev_addr_lists.c" &&
	! grep -qF "uncommitted (review test)" "$b/src/net/core/sock.c"
t $? "b: the build has the tree's HEAD, without the uncommitted change"
json_has '"kind":"git"' && json_has "\"commit\":\"$(git -C "$tree" rev-parse HEAD)\"" && json_has '"dirty":true'
t $? "b: series.json: a git base, its commit, dirty"

# --- e. an unpacked tree as the source ------------------------------------------
utree=$tmp/unpacked
mkdir -p "$utree"
git -C "$tmp/fake" archive pristine | tar -x -C "$utree"
echo "/* a change only in the unpacked tree (review test) */" >>"$utree/net/core/dev_addr_lists.c"
usnap() { find "$utree" -printf '%p %T@ %s\n' | sort; }
source_step e-unpacked-source usnap "every file's mtime" "an unpacked tree" "$utree"
grep -qF "a change only in the unpacked tree" "$b/src/net/core/dev_addr_lists.c"
t $? "e: the build has the tree's files"
json_has '"kind":"tree"'; t $? "e: series.json: a tree base"
tap_done
