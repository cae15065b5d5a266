#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Test glue: write a ksock series as an mbox, made at test time with git
# format-patch from a built upstream kernel tree (build-up/kernel/src,
# where kernel/build.sh made each patch of kernel/patches/upstream/series
# a commit over the tag `pristine`). The tree is only read: the changed
# commit is made in a scratch repository that borrows its objects.
#
#   make-series.sh MODE SRC OUT.mbx
#
# MODE: copy   the upstream series unchanged (a review of it must match
#              its baseline: exit 0)
#       v8     the same with one behaviour change: bpf_ksock_create() no
#              longer refuses a non-zero `reserved` (kernel-suite's case
#              "up ksock_create: reserved 1 -> EINVAL" must be the one
#              that breaks)
#       proto  the same with a changed kfunc prototype: bpf_ksock_send()
#              takes a `u64 flags` more; it builds, and the ksock API is
#              one bpfwire does not know
set -eu

mode=$1 src=$2 out=$3
subject='bpf: Add ksock kfuncs (as merged)'
file=net/core/bpf_ksock.c

case "$mode" in
copy|v8|proto) ;;
*) echo "make-series.sh: MODE '$mode' is not copy, v8 or proto" >&2; exit 2 ;;
esac
git -C "$src" rev-parse -q --verify pristine >/dev/null || {
	echo "make-series.sh: $src has no tag pristine: not a tree kernel/build.sh made" >&2
	exit 2
}
base=$(git -C "$src" rev-parse pristine)
top=$(git -C "$src" log --format=%H -1 --fixed-strings --grep="$subject" pristine..HEAD)
[ -n "$top" ] || { echo "make-series.sh: no commit '$subject' in $src" >&2; exit 2; }

tmp=$(mktemp -d /tmp/make-series.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
git init -q --bare "$tmp/g"
objects=$(cd "$src" && realpath "$(git rev-parse --git-path objects)")
echo "$objects" >"$tmp/g/objects/info/alternates"
export GIT_DIR="$tmp/g" GIT_INDEX_FILE="$tmp/index"

new=$top
if [ "$mode" != copy ]; then
	git cat-file blob "$top:$file" >"$tmp/a.c"
	if [ "$mode" = v8 ]; then
		# drop "if (o->reserved)" and its "return -EINVAL;"
		sed '/^\tif (o->reserved)$/{N;d}' "$tmp/a.c" >"$tmp/b.c"
	else
		sed 's/^\(\t\t\t       u32 data__sz\))$/\1, u64 flags)/' "$tmp/a.c" >"$tmp/b.c"
	fi
	if cmp -s "$tmp/a.c" "$tmp/b.c"; then
		echo "make-series.sh: $mode: $file of '$subject' has no line to change" >&2
		exit 1
	fi
	blob=$(git hash-object -w "$tmp/b.c")
	git read-tree "$top"
	git update-index --cacheinfo "100644,$blob,$file"
	tree=$(git write-tree)
	# the same patch, author and message, one line changed: a v8 of it
	GIT_AUTHOR_NAME=$(git log -1 --format=%an "$top")
	GIT_AUTHOR_EMAIL=$(git log -1 --format=%ae "$top")
	GIT_AUTHOR_DATE=$(git log -1 --format=%aD "$top")
	GIT_COMMITTER_NAME=bpfwire GIT_COMMITTER_EMAIL=bpfwire@example.org
	export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
	new=$(git log -1 --format=%B "$top" | git commit-tree "$tree" -p "$top^")
fi
git format-patch -q --stdout "$base..$new" >"$out"
echo "make-series.sh: $out: $(grep -c '^Subject: ' "$out") patches ($mode)"
