#!/bin/bash
# TAP (suite review, issue 30): kernel inputs a user names, built for real
# in one build directory reused step after step, so that ccache and the
# incremental tree keep each step short (each step's time is printed):
#
#  a. -Dkernel_patches=DIR: a series directory made here with git
#     format-patch from this build's own commits (pristine..HEAD less the
#     harness patches) builds; the commits keep the patches' authors, dates
#     and messages; series.json and the release name the flavour.
#  c. an mbox whose second patch does not apply: a non-zero exit naming
#     its subject and git's line about the failed hunk, the build's tree
#     untouched; a file that is no mbox is a one-line error; then a good
#     mbox (the same series, one comment changed in one patch) builds in
#     the same directory, and series.json has its sha256.
#  d. a config fragment asking for a symbol no Kconfig defines: an error
#     naming the symbol and the fragment.
#  n. (not by default: BPFWIRE_INPUTS_STEPS="a n") -Dkernel_patches=none
#     on the tarball: bpfwire's netpoll series goes on top (auto);
#     -Dkernel_netpoll=true on a series with netpoll is an error.
#  b. -Dkernel_source=DIR: a git work tree cloned here from the build's
#     pristine tag, with a commit of its own and uncommitted changes,
#     builds from its HEAD; the uncommitted changes are not used (and
#     said so); the tree is not written to (git status, HEAD and every
#     file's mtime are the same after).
#  e. -Dkernel_source=DIR: an unpacked tree (git archive of pristine, one
#     file changed) builds with that change and is not written to.
#
#   check-inputs.sh SRC WORK SOURCE_ROOT TARBALL DEBUG BPFWIRE_LOCK
# SRC: this build's kernel/src; WORK: a directory kept between runs (the
# build directory lives there); DEBUG: -Dkernel_debug of this build, so
# the objects are the ones ccache has. Kernel builds take the kbuild lock
# (BPFWIRE_LOCK: common/bpfwire-lock).
set -u
[ $# -eq 6 ] || { echo "Bail out! usage: check-inputs.sh SRC WORK SOURCE_ROOT TARBALL DEBUG BPFWIRE_LOCK"; exit 1; }
src=$1 work=$2 root=$3 tarball=$4 debug=$5 locker=$6
. "$root/lab/tests/tap.sh"
if ! git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1; then
	echo "1..0 # SKIP $src has no pristine tag: build the kernel first"
	exit 0
fi
[ -f "$tarball" ] || { echo "1..0 # SKIP $tarball is missing"; exit 0; }
mkdir -p "$work"
work=$(realpath "$work")
b=$work/build in=$work/in
rm -rf "$in" "$work/tree"
mkdir -p "$in/dir"

# Each step: configure $b with the options, build its kernel under the
# lock; $rc, $log (the output) and a line with the time.
step() {
	local name=$1 t0; shift
	t0=$(date +%s)
	log=$work/$name.log
	if [ -f "$b/build.ninja" ]; then
		meson configure "$b" "$@" >"$log" 2>&1
	else
		meson setup "$b" "$root" -Dkernel_debug="$debug" "$@" >"$log" 2>&1
	fi
	# The time is counted from when the lock is held: others' builds wait.
	"$locker" kbuild sh -c 'date +%s >"$1"; exec nice ninja -C "$2" kernel/bzImage' - "$work/.locked" "$b" >>"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - $(cat "$work/.locked" 2>/dev/null || echo "$t0") ))
	echo "# step $name: $secs s (and $(( $(date +%s) - t0 - secs )) s configuring and waiting for the kernel-build lock), exit $rc"
}
# show: the log's kernel lines and errors, as comments, after a failure.
show() { grep -E '^kernel|rror' "$log" | tail -${1:-15} | sed 's/^/#   /'; }
# t, then a status (false when the line failed) for "|| show".
check() { t "$1" "$2"; [ "$1" = 0 ]; }
json_has() { grep -qF -- "$1" "$b/kernel/series.json"; }
kb=$b/kernel
# The review's tree is the sandbox's (kernel/sandbox.sh): read it there,
# never with root's git.
kgit() { "$root/kernel/sandbox.sh" --ro "$kb" -- git -C "$kb/src" "$@"; }
# BPFWIRE_INPUTS_STEPS picks steps (default "a c d b e"; each needs a
# build directory that one of the others has made).
steps=" ${BPFWIRE_INPUTS_STEPS:-a c d b e} "
want() { [[ $steps == *" $1 "* ]]; }

# --- the inputs, from this build's commits ---------------------------------
# the lab's own patches, applied last: harness and crypto
nharness=$(cat "$root/kernel/patches/harness/series" "$root/kernel/patches/crypto/series" | grep -cv '^\s*\(#\|$\)')
last=$(git -C "$src" rev-parse "HEAD~$nharness")
git -C "$src" format-patch -q -o "$in/dir" "pristine..$last"
(cd "$in/dir" && ls -- *.patch) >"$in/dir/series"
npatches=$(grep -c . "$in/dir/series")
echo "# inputs: $npatches patches from $src (pristine..HEAD~$nharness)"
# The first patch gets an author of its own (UTF-8), to be seen kept.
author1='Ré Viewer <rv@example.invalid>'
sed -i "0,/^From: /s/^From: .*/From: $author1/" "$in/dir/$(head -1 "$in/dir/series")"
(cd "$in/dir" && cat $(cat series)) >"$in/series.mbox"
# What git am itself makes of the directory: in a clone that checks out
# only the files the patches touch (sparse), so it is cheap.
git clone -q --shared --no-checkout "$src" "$work/am"
grep -h '^diff --git ' "$in/dir"/*.patch | awk '{ print substr($4, 3) }' | sort -u >"$in/paths"
git -C "$work/am" sparse-checkout set --no-cone $(sed 's|^|/|' "$in/paths")
git -C "$work/am" checkout -q pristine
(cd "$in/dir" && git -C "$work/am" -c user.name=am -c user.email=am@example.invalid am -q \
	$(sed "s|^|$in/dir/|" series)) >"$work/am.log" 2>&1 || { echo "Bail out! git am of the inputs failed: $(head -3 "$work/am.log")"; exit 1; }
# Who, when, what and the tree, per commit, as git log gives it.
commits() { $1 log --reverse --format='%an <%ae>|%ad|%T|%B' "$2"; }
commits "git -C $work/am" pristine..HEAD >"$in/want.log"
rm -rf "$work/am"
# The good mbox: the last patch's first added comment line changed (the
# same line count), so one object is rebuilt.
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
printf 'CONFIG_NET=y\nCONFIG_BPFWIRE_NO_SUCH_SYMBOL=y\n' >"$in/bogus.config"
cmp -s "$in/series.mbox" "$in/good.mbox"; t $((1 - $?)) "the good mbox differs from the series in one comment"
cmp -s "$in/series.mbox" "$in/bad.mbox"; t $((1 - $?)) "the bad mbox has a broken context line in patch 2 (\"$subj2\")"

if want a; then
# --- a. a series directory --------------------------------------------------
step a-series-dir -Dkernel_source="$tarball" -Dkernel_patches="$in/dir" -Dkernel_config=[] -Dkernel_name= -Dkernel_netpoll=auto
check $rc "a: -Dkernel_patches=DIR builds" || show
commits kgit "pristine..HEAD~$nharness" >"$work/got.log"
cmp -s "$in/want.log" "$work/got.log"; check $? "a: git log in the build's tree has what git am gives: each patch's author, date, message and tree" ||
	diff "$in/want.log" "$work/got.log" | head -6 | sed 's/^/#   /'
json_has "\"author\":\"$author1\""; t $? "a: series.json has the first patch's author, UTF-8 and all"
[ "$(kgit rev-list --count pristine..HEAD)" = $((npatches + nharness)) ]
t $? "a: the tree has the $npatches patches and the lab's $nharness (harness, crypto), nothing else (the tree has netpoll: auto adds none)"
grep -q -- '-bpfwire-review$' "$kb/obj/include/config/kernel.release"
t $? "a: the release names the flavour: $(cat "$kb/obj/include/config/kernel.release" 2>/dev/null)"
json_has '"flavour":"review"' && json_has '"kind":"tarball"' && json_has '"netpoll_series":false' &&
	[ "$(grep -c '"subject":' "$kb/series.json")" = $((npatches + nharness)) ]
t $? "a: series.json: flavour review, tarball base, no netpoll series, $((npatches + nharness)) subjects"
ok=0
while IFS= read -r s; do json_has "\"subject\":\"$s\"" || { ok=1; echo "# not in series.json: $s"; }; done \
	< <(git -C "$src" log --reverse --format=%s "pristine..$last")
t $ok "a: series.json names each patch's subject"

fi
if want c; then
# --- c. an mbox that does not apply, then a good one --------------------------
head_before=$(kgit rev-parse HEAD)
step c-bad-mbox -Dkernel_source="$tarball" -Dkernel_patches="$in/bad.mbox" -Dkernel_config=[] -Dkernel_netpoll=auto
[ "$rc" != 0 ]; t $? "c: an mbox that does not apply: non-zero exit"
grep -qF "\"$subj2\" (mbox message 2) does not apply" "$log"
check $? "c: the error names the failed patch's subject" || show
grep -qE 'git apply: error: patch failed: [^ ]+:[0-9]+$' "$log"
check $? "c: with git's own line about the failed hunk" || show
[ "$(kgit rev-parse HEAD)" = "$head_before" ] && kgit diff --quiet HEAD --
t $? "c: nothing half-applied: the build's tree is as it was"
step c-not-mbox -Dkernel_patches="$in/notmbox.txt"
[ "$rc" != 0 ] && [ "$(grep -c '^kernel: error' "$log")" = 1 ] && grep -q "notmbox.txt is not an mbox" "$log"
check $? "c: a file that is no mbox: one error line" || show
step c-good-mbox -Dkernel_patches="$in/good.mbox"
check $rc "c: then a good mbox builds in the same directory (one patch changed: $secs s)" || show
grep -rqF "(changed for the review test)" "$kb/src/net" "$kb/src/include" "$kb/src/kernel"
t $? "c: the changed patch is what was built"
json_has "\"mbox_sha256\":\"$(sha256sum <"$in/good.mbox" | cut -d' ' -f1)\"" && json_has '"mbox_index":2'
t $? "c: series.json has the mbox's sha256 and each message's index"

fi
if want d; then
# --- d. a config fragment with a symbol the tree does not have ------------------
step d-bad-config -Dkernel_source="$tarball" -Dkernel_patches="$in/good.mbox" -Dkernel_config="$in/bogus.config"
[ "$rc" != 0 ]; t $? "d: a fragment with an unknown symbol: non-zero exit"
grep -qF "bogus.config asks for 'CONFIG_BPFWIRE_NO_SUCH_SYMBOL=y': this tree has no such symbol" "$log"
check $? "d: the error names the symbol and the fragment" || show
grep -q "asks for 'CONFIG_NET=y'" "$log"; t $((1 - $?)) "d: and only that symbol"

fi
# --- n. no series: bpfwire's netpoll series goes on top (auto) ----------------
if want n; then
step n-netpoll-true -Dkernel_source="$tarball" -Dkernel_patches="$in/good.mbox" -Dkernel_netpoll=true -Dkernel_config=[]
[ "$rc" != 0 ] && grep -q "already has net/core/bpf_netpoll.c" "$log"
check $? "n: -Dkernel_netpoll=true on a series that has netpoll: a named error" || show
step n-none-auto -Dkernel_patches=none -Dkernel_netpoll=auto -Dkernel_config=[]
check $rc "n: -Dkernel_patches=none builds" || show
[ -f "$kb/src/net/core/bpf_netpoll.c" ] && [ ! -f "$kb/src/net/core/bpf_ksock.c" ] && json_has '"netpoll_series":true' &&
	[ "$(kgit rev-list --count pristine..HEAD)" = $(( $(grep -cv '^\s*\(#\|$\)' "$root/kernel/patches/netpoll/series") + nharness )) ]
t $? "n: with auto, a tree without bpf_netpoll gets bpfwire's netpoll series and the harness, nothing else"
meson configure "$b" -Dkernel_netpoll=auto >/dev/null
fi

if want b; then
# --- b. a git work tree as the source -------------------------------------------
tree=$work/tree
git clone -q --shared --no-checkout "$src" "$tree"
git -C "$tree" checkout -q -b review-test pristine
echo "/* a commit only in the source tree (review test) */" >>"$tree/net/core/dev_addr_lists.c"
git -C "$tree" -c user.name="Tree Tester" -c user.email=tree@example.invalid commit -q -am "test: a commit of the source tree"
echo "/* uncommitted (review test) */" >>"$tree/net/core/sock.c"
echo untracked >"$tree/untracked-review-test"
git -C "$tree" status --porcelain >/dev/null	# settle the index before the snapshot
snap() { git -C "$tree" --no-optional-locks status --porcelain; git -C "$tree" rev-parse HEAD
	find "$tree" -printf '%p %T@ %s\n' | sort; }
snap >"$work/tree.before"
step b-git-source -Dkernel_source="$tree" -Dkernel_patches="$in/good.mbox" -Dkernel_config=[] -Dkernel_netpoll=auto
check $rc "b: -Dkernel_source=a git work tree builds" || show
snap >"$work/tree.after"
cmp -s "$work/tree.before" "$work/tree.after"
check $? "b: the tree is not written to (git status, HEAD, every file's mtime)" || diff "$work/tree.before" "$work/tree.after" | head -5 | sed 's/^/#   /'
grep -q "uncommitted changes or untracked files: they are not used" "$log"
t $? "b: its uncommitted changes are said not to be used"
grep -qF "a commit only in the source tree" "$kb/src/net/core/dev_addr_lists.c" &&
	! grep -qF "uncommitted (review test)" "$kb/src/net/core/sock.c"
t $? "b: the build has the tree's HEAD, without the uncommitted change"
json_has '"kind":"git"' && json_has "\"commit\":\"$(git -C "$tree" rev-parse HEAD)\"" && json_has '"dirty":true'
t $? "b: series.json: a git base, its commit, dirty"
rm -rf "$tree"
fi

# --- e. an unpacked tree as the source ------------------------------------------
if want e; then
utree=$work/unpacked
rm -rf "$utree"
mkdir -p "$utree"
git -C "$src" archive pristine | tar -x -C "$utree"
echo "/* a change only in the unpacked tree (review test) */" >>"$utree/net/core/dev_addr_lists.c"
usnap() { find "$utree" -printf '%p %T@ %s\n' | sort; }
usnap >"$work/utree.before"
step e-unpacked-source -Dkernel_source="$utree" -Dkernel_patches="$in/good.mbox" -Dkernel_config=[] -Dkernel_netpoll=auto
check $rc "e: -Dkernel_source=an unpacked tree builds" || show
usnap >"$work/utree.after"
cmp -s "$work/utree.before" "$work/utree.after"
check $? "e: the tree is not written to (every file's mtime)" || diff "$work/utree.before" "$work/utree.after" | head -5 | sed 's/^/#   /'
grep -qF "a change only in the unpacked tree" "$kb/src/net/core/dev_addr_lists.c"
t $? "e: the build has the tree's files"
json_has '"kind":"tree"'; t $? "e: series.json: a tree base"
rm -rf "$utree"
fi
tap_done
