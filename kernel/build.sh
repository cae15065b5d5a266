#!/bin/bash
# Build the bpfwire lab kernel: unpack linux-source-6.12 once, apply
# kernel/patches/series, configure from lab.config, build, dump BTF.
#
# Incremental by design: the tree is unpacked once into a git repo; the
# series is applied to a scratch index (never the work tree), and only files
# whose content changed are checked out, so make rebuilds just what a patch
# touches.
#
# The source version: after unpacking, one line names the linux-source-6.12
# version (Debian package and Makefile) and whether kernel/source-versions
# lists it as one the series are known to apply to; an unlisted version is
# a warning only. A patch that does not apply stops the build with the
# version, the patch file, each hunk that does not match (file and line
# range) and what to do: pin the package to a listed version or refresh
# the series (source-version.sh). The tarball is only ever read.
set -euo pipefail
. "$(dirname "$(realpath "$0")")/source-version.sh"

usage() {
	cat <<USAGE
usage: build.sh --out DIR --patches DIR [--fixes DIR] [--series DIR ...]
                --fragment FILE [--fragment FILE ...]
                [--localversion SUFFIX] [--tarball FILE] [--jobs N]

Builds DIR/{bzImage,vmlinux,vmlinux.h,config} from linux-source-6.12 plus
the patch series (DIR/series, then the fixes' DIR/series when given, then
each --series DIR/series in order: the lab harness's own patches).
--localversion appends SUFFIX to the release (-bpfwire-seed names a kernel
built without the fixes) without touching the config. Fragments are merged in order over allnoconfig and
kvm_guest.config. Progress is one line per phase: unpack, patch, config,
build (a line every 30 s with the objects compiled), btf. After unpacking,
one line names the source version and whether kernel/source-versions lists
it (a warning if not); a patch that does not apply is an error naming the
version, the patch file and its hunks, with the pin or refresh to do.
USAGE
}

out= patches= fixes= localversion= jobs=0
fragments=() series=()
tarball=/usr/src/linux-source-6.12.tar.xz
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift 2 ;;
	--patches) patches=$2; shift 2 ;;
	--fixes) fixes=$2; shift 2 ;;
	--series) series+=("$(realpath -m "$2")"); shift 2 ;;
	--localversion) localversion=$2; shift 2 ;;
	--fragment) fragments+=("$2"); shift 2 ;;
	--tarball) tarball=$2; shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "build.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
[ -n "$out" ] && [ -n "$patches" ] && [ ${#fragments[@]} -gt 0 ] || { usage >&2; exit 2; }

die() { echo "kernel: error: $*" >&2; exit 1; }
t0=$(date +%s)
phase() { echo "kernel: [$(( $(date +%s) - t0 ))s] $*"; }

if [ ! -f "$tarball" ]; then
	die "$tarball is missing: the Debian package linux-source-6.12 is not installed (apt-get install linux-source-6.12)"
fi
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found: install the Debian package $2 (apt-get install $2)"; }
need git git; need make make; need gcc gcc; need flex flex; need bison bison
need bc bc; need pahole dwarves; need bpftool bpftool; need xz xz-utils
[ -f /usr/include/libelf.h ] || die "libelf.h not found: install libelf-dev (apt-get install libelf-dev)"
[ -f /usr/include/openssl/ssl.h ] || die "openssl headers not found: install libssl-dev (apt-get install libssl-dev)"

out=$(realpath -m "$out")
patches=$(realpath "$patches")
[ -z "$fixes" ] || fixes=$(realpath "$fixes")
for f in "${fragments[@]}"; do
	[ -f "$f" ] || die "config fragment $f does not exist"
done
src=$out/src
obj=$out/obj
mkdir -p "$out"
git_() { git -C "$src" -c user.name=bpfwire -c user.email=bpfwire@example.invalid \
	-c core.compression=0 -c gc.auto=0 -c advice.detachedHead=false "$@"; }

# --- unpack: once per tarball ----------------------------------------------
stamp=$(stat -c '%s-%Y' "$tarball")
if [ "$(cat "$src/.bpfwire-tarball" 2>/dev/null)" != "$stamp" ]; then
	phase "unpack $tarball"
	rm -rf "$src" "$obj" "$out/src.tmp"
	mkdir -p "$out/src.tmp"
	tar -xJf "$tarball" -C "$out/src.tmp" --strip-components=1
	git -C "$out/src.tmp" init -q
	git -C "$out/src.tmp" -c user.name=bpfwire -c user.email=bpfwire@example.invalid \
		-c core.compression=0 add -A -f
	git -C "$out/src.tmp" -c user.name=bpfwire -c user.email=bpfwire@example.invalid \
		-c core.compression=0 commit -q -m "linux-source-6.12 ($stamp)"
	git -C "$out/src.tmp" tag pristine
	echo "$stamp" > "$out/src.tmp/.bpfwire-tarball"
	mv "$out/src.tmp" "$src"
else
	phase "unpack: up to date"
fi
ksrc_read "$tarball" "$src"
ksrc_say "kernel: [$(( $(date +%s) - t0 ))s]"

# --- patch: build the series as commits on a scratch index -----------------
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export GIT_INDEX_FILE=$scratch/index
git_ read-tree pristine
head=$(git_ rev-parse pristine)
# apply_series DIR: each patch of DIR/series, in order, as one commit.
apply_series() {
	local dir=$1 p subject tree
	[ -f "$dir/series" ] || die "$dir/series does not exist"
	phase "patch: applying $(grep -cv '^\s*\(#\|$\)' "$dir/series") patches from $dir/series"
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$dir/$p" ] || die "patch $p is listed in $dir/series but missing"
		# On failure ksrc_apply has said which hunk and what to do; the
		# work tree was never touched.
		ksrc_apply "$src" "$dir/$p" || exit 1
		git mailinfo "$scratch/msg" "$scratch/body" <"$dir/$p" >"$scratch/info"
		subject=$(sed -n 's/^Subject: //p' "$scratch/info")
		tree=$(git_ write-tree)
		head=$(printf '%s\n\n%s\n' "$subject" "$(cat "$scratch/msg")" |
			git_ commit-tree "$tree" -p "$head")
	done <"$dir/series"
}
apply_series "$patches"
[ -z "$fixes" ] || apply_series "$fixes"
for d in "${series[@]}"; do apply_series "$d"; done
unset GIT_INDEX_FILE
# Checkout only rewrites the files that differ, keeping make incremental.
if [ "$(git_ rev-parse HEAD^{tree})" != "$(git_ rev-parse "$head^{tree}")" ]; then
	changed=$(git_ diff --name-only HEAD "$head" | wc -l)
	git_ checkout -q -f --detach "$head"
	phase "patch: $changed files changed"
else
	git_ update-ref --no-deref HEAD "$head"
	phase "patch: tree unchanged"
fi

# Same tree, fragment and script as the last good build, and no hand edits
# in src: nothing to do, so skip the config and make passes (~10 s).
inputs="$(git_ rev-parse HEAD^{tree}) $( (cat "${fragments[@]}" "$0"; echo "$localversion") | sha256sum | cut -c1-16)"
if [ "$(cat "$out/.bpfwire-built" 2>/dev/null)" = "$inputs" ] &&
   git_ diff --quiet HEAD -- && [ -f "$out/bzImage" ] && [ -f "$out/vmlinux.h" ]; then
	phase "build: up to date ($inputs)"
	exit 0
fi
rm -f "$out/.bpfwire-built"

# --- config: allnoconfig + kvm_guest.config + lab.config --------------------
phase "config"
mkdir -p "$obj"
cat "${fragments[@]}" >"$obj/lab.fragment"
cat "$src/kernel/configs/kvm_guest.config" "$obj/lab.fragment" >"$obj/bpfwire.fragment"
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 "$@"; }
KCONFIG_CONFIG=.config.new KCONFIG_ALLCONFIG="$obj/bpfwire.fragment" kmake allnoconfig >/dev/null
KCONFIG_CONFIG=.config.new kmake olddefconfig >/dev/null
missing=
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) sym=${line%%=*}; want="# $sym is not set" ;;
	CONFIG_*=*) sym=${line%%=*}; want=$line ;;
	*) continue ;;
	esac
	grep -qxF "$want" "$obj/.config.new" || missing="$missing $sym"
done <"$obj/lab.fragment"
[ -z "$missing" ] || die "olddefconfig dropped or changed these lab.config symbols:$missing"
if ! cmp -s "$obj/.config.new" "$obj/.config"; then
	mv "$obj/.config.new" "$obj/.config"
else
	rm -f "$obj/.config.new"
fi

# --- build -----------------------------------------------------------------
[ "$jobs" -gt 0 ] || jobs=$(( $(nproc) + 1 ))
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	cc="ccache gcc"
	# Paths relative to the build root let a fresh clone reuse the cache.
	export CCACHE_BASEDIR=$out CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime
	# Depend mode: a miss does not run the preprocessor a second time, the
	# compiler's -MMD list names the headers. net/ipv4 with an empty cache:
	# 78 s, 58 s in depend mode, 48 s without ccache; hits 6 s either way.
	export CCACHE_DEPEND=1
fi
# The object total of the last build of this config, so progress has a scale.
# Kept per user, like ccache, so a fresh clone knows it too.
objects_db=${XDG_CACHE_HOME:-$HOME/.cache}/bpfwire/kernel-objects
mkdir -p "$(dirname "$objects_db")" 2>/dev/null || objects_db=$out/.bpfwire-objects
cfgsum=$(sha256sum <"$obj/.config" | cut -c1-16)
total=$(awk -v k="$cfgsum" '$1 == k { t = $2 } END { print t }' "$objects_db" 2>/dev/null || true)
phase "build: make -j$jobs CC='$cc' bzImage${total:+ (this config: $total objects last time)}"
# A fixed build identity keeps init/version.c, and so ccache, stable.
export KBUILD_BUILD_USER=bpfwire KBUILD_BUILD_HOST=bpfwire KBUILD_BUILD_TIMESTAMP="@${stamp#*-}"
# LOCALVERSION on the command line stops setlocalversion appending "+"
# for the git-managed tree; CONFIG_LOCALVERSION still names bpfwire. A
# suffix here changes only the release string, not autoconf.h, so ccache
# still serves a second flavour that differs only in its patches.
make -C "$src" O="$obj" ARCH=x86_64 CC="$cc" HOSTCC=gcc LOCALVERSION="$localversion" -j"$jobs" bzImage >"$out/build.log" 2>&1 &
mk=$!
trap 'kill $mk 2>/dev/null; rm -rf "$scratch"' EXIT
# A line at least every 30 s: a silent 10-minute step looks hung.
while kill -0 "$mk" 2>/dev/null; do
	for _ in $(seq 30); do kill -0 "$mk" 2>/dev/null || break; sleep 1; done
	kill -0 "$mk" 2>/dev/null || break
	phase "build: $(grep -cE '^  (CC|AS) ' "$out/build.log" || true) objects compiled${total:+ of about $total}"
done
if ! wait "$mk"; then
	grep -E 'error|Error' "$out/build.log" | head -20 >&2
	die "make failed; full log in $out/build.log"
fi
trap 'rm -rf "$scratch"' EXIT
n=$(find "$obj" -name '*.o' | wc -l)
{ grep -v "^$cfgsum " "$objects_db" 2>/dev/null || true; echo "$cfgsum $n"; } >"$objects_db.new.$$" &&
	mv "$objects_db.new.$$" "$objects_db" || true

# --- btf -------------------------------------------------------------------
phase "btf: vmlinux.h"
bpftool btf dump file "$obj/vmlinux" format c >"$out/vmlinux.h.new"
if cmp -s "$out/vmlinux.h.new" "$out/vmlinux.h"; then rm "$out/vmlinux.h.new"; else mv "$out/vmlinux.h.new" "$out/vmlinux.h"; fi
ln -f "$obj/arch/x86/boot/bzImage" "$out/bzImage"
ln -f "$obj/vmlinux" "$out/vmlinux"
cmp -s "$obj/.config" "$out/config" || cp "$obj/.config" "$out/config"
echo "$inputs" >"$out/.bpfwire-built"
phase "done: $(sed -n 's/^CONFIG_LOCALVERSION=//p' "$obj/.config" | tr -d '"') $(cat "$obj/include/config/kernel.release")"
