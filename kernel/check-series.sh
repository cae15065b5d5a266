#!/bin/bash
# TAP: the seed series applies to the pristine linux-source-6.12 tree, and
# the fixes series applies on top of it: "applies both ways" (-Dkernel_fixes
# false and true) without a second kernel build. Uses the tree build.sh has
# unpacked (a git repo tagged pristine), on a scratch index: the work tree
# and the build are never touched.
#
#   check-series.sh SRC SEED_DIR FIXES_DIR
set -u
src=$1 seed=$2 fixes=$3
if ! git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1; then
	echo "Bail out! $src has no 'pristine' tag: build the kernel first"
	exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GIT_INDEX_FILE=$scratch/index
git -C "$src" read-tree pristine || { echo "Bail out! git read-tree pristine failed"; exit 1; }

names() { grep -v '^\s*\(#\|$\)' "$1/series"; }
total=$(( $(names "$seed" | wc -l) + $(names "$fixes" | wc -l) ))
echo "1..$total"
n=0 fail=0
for dir in "$seed" "$fixes"; do
	what=seed; [ "$dir" = "$fixes" ] && what=fix
	for p in $(names "$dir"); do
		n=$((n + 1))
		if err=$(git -C "$src" apply --cached --whitespace=nowarn "$dir/$p" 2>&1); then
			echo "ok $n - $what $p applies"
		else
			echo "$err" | sed 's/^/# /'
			echo "not ok $n - $what $p applies"
			fail=1
		fi
	done
done
exit $fail
