#!/bin/bash
# TAP: every series applies to the pristine linux-source-6.12 tree: the
# seed series, the fixes and then bpfwire's sndbuf extension on top of it
# (-Dkernel_fixes false and true), and
# the upstream series on its own (-Dkernel_series=upstream), each followed
# by the lab's harness and crypto series, without a kernel build. Uses the tree
# build.sh has unpacked (a git repo tagged pristine), on a scratch index:
# the work tree and the build are never touched. Last, the two kernels may
# differ only in the ksock files: any other difference (a shared header
# above all) makes ccache miss every object that includes it, and a cold
# ./run tests compiles those twice.
#
# The first comment line names the source version checked (the pristine
# tree's Makefile, and the Debian package version of TARBALL, by default
# /usr/src/linux-source-6.12.tar.xz) and whether kernel/source-versions
# lists it. A patch that does not apply is reported as build.sh reports it
# (source-version.sh): version, patch file, hunks, what to do.
#
# --only (Linux 7.x, -Dkernel_version): the tree has one flavour, so its
# series in order (each DIR/series: on 7.3 the netpoll series rebased,
# on 7.2 the seed series, its fixes and sndbuf), then the harness and
# crypto series, and no comparison of flavours.
#
#   check-series.sh SRC SEED_DIR FIXES_DIR SNDBUF_DIR UPSTREAM_DIR HARNESS_DIR CRYPTO_DIR [TARBALL]
#   check-series.sh --only SRC DIR... HARNESS_DIR CRYPTO_DIR TARBALL
set -u
only=false
if [ "${1:-}" = --only ]; then
	[ $# -ge 6 ] || { echo "Bail out! usage: check-series.sh --only SRC DIR... HARNESS_DIR CRYPTO_DIR TARBALL"; exit 1; }
	only=true
	shift
	src=$1
	shift
	dirs=()
	while [ $# -gt 3 ]; do dirs+=("$(realpath "$1")"); shift; done
	harness=$(realpath "$1") crypto=$(realpath "$2") tarball=$3
else
	[ $# -eq 7 ] || [ $# -eq 8 ] || { echo "Bail out! usage: check-series.sh SRC SEED_DIR FIXES_DIR SNDBUF_DIR UPSTREAM_DIR HARNESS_DIR CRYPTO_DIR [TARBALL]"; exit 1; }
	src=$1 seed=$(realpath "$2") fixes=$(realpath "$3") sndbuf=$(realpath "$4") upstream=$(realpath "$5")
	harness=$(realpath "$6") crypto=$(realpath "$7")
	tarball=${8:-/usr/src/linux-source-6.12.tar.xz}
fi
. "$(dirname "$(realpath "$0")")/source-version.sh"
if ! git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1; then
	echo "Bail out! $src has no 'pristine' tag: build the kernel first"
	exit 1
fi
ksrc_read "$tarball" "$src"
# The warning for an unlisted version goes to the log as a comment too.
ksrc_say "#" 2>&1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GIT_INDEX_FILE=$scratch/index
pristine() {
	git -C "$src" read-tree pristine || { echo "Bail out! git read-tree pristine failed"; exit 1; }
}

names() { grep -v '^\s*\(#\|$\)' "$1/series"; }
if [ "$only" = true ]; then
	total=0
	for d in "${dirs[@]}"; do total=$((total + $(names "$d" | wc -l))); done
	echo "1..$(( total + $(names "$harness" | wc -l) + $(names "$crypto" | wc -l) ))"
fi
[ "$only" = true ] || total=$(( $(names "$seed" | wc -l) + $(names "$fixes" | wc -l) + $(names "$sndbuf" | wc -l) + $(names "$upstream" | wc -l) + 2 * $(names "$harness" | wc -l) + 2 * $(names "$crypto" | wc -l) ))
[ "$only" = true ] || echo "1..$((total + 1))"
n=0 fail=0
# apply WHAT DIR: each patch of DIR/series onto the scratch index, in order.
apply() {
	local what=$1 dir=$2 p err
	for p in $(names "$dir"); do
		n=$((n + 1))
		if err=$(ksrc_apply "$src" "$dir/$p" "#" 2>&1); then
			echo "ok $n - $what $p applies"
		else
			echo "$err"
			echo "not ok $n - $what $p applies"
			fail=1
		fi
	done
}
pristine
if [ "$only" = true ]; then
	# Named by the path under patches/: 7.2, 7.2/fixes, 7.3/netpoll.
	for d in "${dirs[@]}"; do apply "$(basename "$(dirname "$d")")/$(basename "$d")" "$d"; done
	apply harness "$harness"
	apply crypto "$crypto"
	exit $fail
fi
apply seed "$seed"
apply fix "$fixes"
apply sndbuf "$sndbuf"
apply harness "$harness"
apply crypto "$crypto"
seed_tree=$(git -C "$src" write-tree)
pristine
apply upstream "$upstream"
apply harness "$harness"
apply crypto "$crypto"
up_tree=$(git -C "$src" write-tree)
n=$((n + 1))
own='^(include/linux/bpf_ksock\.h|net/core/bpf_ksock\.c|net/core/sysctl_net_core\.c|Documentation/.*)$'
differ=$(git -C "$src" diff --name-only "$seed_tree" "$up_tree")
others=$(echo "$differ" | grep -Ev "$own" | grep . || true)
echo "# seed+fixes and upstream differ in $(echo "$differ" | grep -c .) files"
if [ -z "$others" ]; then
	echo "ok $n - the flavours differ only in the ksock files"
else
	echo "$others" | sed 's/^/# also differs: /'
	echo "not ok $n - the flavours differ only in the ksock files"
	fail=1
fi
exit $fail
