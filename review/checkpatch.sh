#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The series' own scripts/checkpatch.pl --strict on each of its patches.
# bpfwire-review runs this in kernel/sandbox.sh, as the sandbox's uid:
# the tree, its checkpatch.pl and its git config are the series', so
# nothing here runs with power, and root reads only the files it writes.
#
#   checkpatch.sh SRC N OUT
#
# SRC: the review's built tree (build-review-NAME/kernel/sbx/src), a git
# repository whose first N commits after tag pristine are the series'
# patches (bpfwire's netpoll and lab series follow them). Each is made a
# patch again with git format-patch (the mail's author, date and message
# kept), OUT/NNNN.patch, and checked from SRC's top, OUT/NNNN.checkpatch.
# One line a patch on stdout. Exit 0 when each was checked, whatever it
# found; 3 when SRC is not such a tree.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: checkpatch.sh SRC N OUT" >&2; exit 2; }
src=$1 n=$2 out=$3
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "checkpatch: N '$n' is not a count" >&2; exit 2; }
[ -f "$src/scripts/checkpatch.pl" ] || { echo "checkpatch: $src has no scripts/checkpatch.pl" >&2; exit 3; }
git_() { git -C "$src" -c core.fsmonitor=false -c core.hooksPath=/dev/null "$@"; }
git_ rev-parse -q --verify pristine >/dev/null || { echo "checkpatch: $src has no tag pristine" >&2; exit 3; }
mapfile -t commits < <(git_ rev-list --reverse pristine..HEAD)
[ "${#commits[@]}" -ge "$n" ] ||
	{ echo "checkpatch: $src has ${#commits[@]} commits after pristine, fewer than the series' $n" >&2; exit 3; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git_ format-patch -q --no-signature -o "$tmp" "pristine..${commits[n - 1]}"
cd "$src"
i=0
for p in "$tmp"/*.patch; do
	i=$((i + 1))
	f=$(printf '%s/%04d' "$out" "$i")
	mv -- "$p" "$f.patch"
	# its exit status is 1 on any error or warning: what it found is in the file
	perl scripts/checkpatch.pl --strict --show-types "$f.patch" >"$f.checkpatch" 2>&1 || true
	echo "checkpatch: patch $i of $n: $(sed -n 's/^total: //p' "$f.checkpatch" | tail -n 1)"
done
[ "$i" = "$n" ] || { echo "checkpatch: git format-patch made $i patches of $n" >&2; exit 3; }
