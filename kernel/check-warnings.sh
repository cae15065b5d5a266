#!/bin/bash
# TAP: the series adds no compiler or sparse warning. `make C=2 W=1`
# (Debian's sparse, and gcc's extra warnings and kernel-doc checks) on each
# object whose .c file the series adds or modifies, once for the patched
# tree and once for the unpatched one, with the configuration build.sh
# made; an object fails when its patched build warns more than its
# unpatched one. Warnings are compared as "file: message" (line numbers
# move with any patch); a file the series adds has no baseline, so every
# warning of it counts.
#
# Cheap, and the build is only read: the file list is the diff of the
# built tree (SRC's HEAD) against its `pristine` tag, i.e. the series as
# build.sh applied it. Each side gets a symlink farm of SRC in which the
# touched files can be real: for the unpatched side the pristine versions
# (the added ones removed), and a copy of OBJ without its kernel objects
# (the configuration, generated headers and host tools, so nothing but
# the checked objects is compiled). The two sides build at once, one make
# each.
#
#   check-warnings.sh [--patch FILE] [--only OBJ.o]... [--scratch DIR] SRC OBJ
#
# --patch FILE applies FILE (patch -p1) on top of the patched side only:
# the test of this test (kernel/tests/check-warnings-bait.patch must make
# it fail). --only limits the check to the named objects. --scratch DIR
# holds the scratch trees (default: beside OBJ; removed on exit).
set -u
usage() { echo "usage: check-warnings.sh [--patch FILE] [--only OBJ.o]... [--scratch DIR] SRC OBJ" >&2; exit 2; }
bait= only=() scratch_in=
while [ $# -gt 0 ]; do
	case "$1" in
	--patch) [ $# -ge 2 ] || usage; bait=$(realpath "$2"); shift 2 ;;
	--only) [ $# -ge 2 ] || usage; only+=("$2"); shift 2 ;;
	--scratch) [ $# -ge 2 ] || usage; scratch_in=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "check-warnings.sh: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage
src=$(realpath "$1") obj=$(realpath "$2")

bail() { echo "Bail out! $*"; exit 1; }
command -v sparse >/dev/null 2>&1 || bail "sparse not found: install the Debian package sparse (tools/install-deps does)"
git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1 || bail "$src has no 'pristine' tag: build the kernel first"
[ -f "$obj/.config" ] && [ -f "$obj/include/generated/autoconf.h" ] || bail "$obj is not a configured kernel build tree: build the kernel first"
[ -z "$bait" ] || [ -f "$bait" ] || bail "--patch $bait: no such file"

t0=$(date +%s)
# By default beside OBJ (the same file system); removed on every exit.
scratch=$(mktemp -d "${scratch_in:-$(dirname "$obj")}/check-warnings.XXXXXX") || bail "mktemp in ${scratch_in:-$(dirname "$obj")} failed"
trap 'rm -rf "$scratch"' EXIT

# What the series changed: status TAB path, renames as delete + add.
git -C "$src" diff --no-renames --name-status pristine HEAD >"$scratch/changed" ||
	bail "git diff pristine HEAD failed in $src"
objects=() new=()
while IFS=$'\t' read -r st f; do
	case "$st:$f" in [AM]:*.c) ;; *) continue ;; esac
	o=${f%.c}.o
	if [ ${#only[@]} -gt 0 ]; then
		printf '%s\n' "${only[@]}" | grep -qxF "$o" || continue
	fi
	# Only what this configuration builds (a .cmd file says kbuild made it).
	if [ ! -f "$obj/$(dirname "$o")/.$(basename "$o").cmd" ]; then
		echo "# $f: not built in this configuration, not checked"
		continue
	fi
	objects+=("$o")
	[ "$st" = A ] && new+=("$o")
done <"$scratch/changed"
[ ${#objects[@]} -gt 0 ] || bail "the series adds or modifies no .c file that this configuration builds"
echo "# $(wc -l <"$scratch/changed") files changed by the series (pristine..HEAD of $src); ${#objects[@]} objects to check: ${objects[*]}"

# farm DIR PATH...: DIR mirrors SRC with symlinks, except that every
# directory on the way to a PATH is real (its other entries links), so a
# PATH can be made a real file there. A few hundred links, not SRC's 90k
# files. What is reached through ".." from inside a linked directory is
# SRC's own; kernel sources name their headers from the include paths.
farm() {
	local dst=$1 d e links
	local -A real=()
	shift
	for d in $(printf '%s\n' "$@" | awk '{ n = split($0, p, "/"); d = "."; print d
		for (i = 1; i < n; i++) { d = d "/" p[i]; print d } }' | sort -u); do
		real[$d]=1
	done
	for d in "${!real[@]}"; do
		mkdir -p "$dst/$d" || return 1
		links=()
		for e in "$src/$d"/* "$src/$d"/.[!.]*; do
			[ -e "$e" ] || [ -L "$e" ] || continue
			[ -z "${real[$d/${e##*/}]:-}" ] && [ "$d/${e##*/}" != ./.git ] && links+=("$e")
		done
		[ ${#links[@]} -eq 0 ] || ln -s "${links[@]}" "$dst/$d/" || return 1
	done
}
# real DIR PATH [REV]: PATH in DIR becomes a real file (REV's content, or
# SRC's), so that what is written there never reaches SRC.
real() {
	rm -f "$1/$2"
	if [ -n "${3:-}" ]; then git -C "$src" show "$3:$2" >"$1/$2"; else cp "$src/$2" "$1/$2"; fi
}
# objcopy DIR: OBJ without the kernel's objects and images (host tools
# under scripts/ and tools/ kept whole, so none is rebuilt); mtimes kept.
objcopy() {
	mkdir -p "$1"
	tar -C "$obj" -cf - --exclude='./scripts' --exclude='./tools' --exclude='*.o' \
		--exclude='*.a' --exclude='*.ko' --exclude='./vmlinux*' --exclude='./.tmp_*' \
		--exclude='./arch/x86/boot' --exclude='*.mod.c' --exclude='./System.map' . |
		tar -C "$1" -xf - && tar -C "$obj" -cf - ./scripts ./tools | tar -C "$1" -xf -
}
base=$scratch/base patched=$scratch/patched
touched=$(cut -f2 "$scratch/changed")
[ -z "$bait" ] || touched="$touched $(grep '^+++ b/' "$bait" | sed 's|^+++ b/||')"
for side in base patched; do
	d=$scratch/$side
	# shellcheck disable=SC2086 # paths of a kernel tree: no blanks
	{ farm "$d/src" $touched && objcopy "$d/obj"; } || bail "could not make the $side side's scratch trees in $scratch"
done
while IFS=$'\t' read -r st f; do
	case "$st" in
	A) rm -f "$base/src/$f" ;;
	*) real "$base/src" "$f" pristine || bail "git show pristine:$f failed" ;;
	esac
done <"$scratch/changed"
if [ -n "$bait" ]; then
	for f in $(grep '^+++ b/' "$bait" | sed 's|^+++ b/||'); do real "$patched/src" "$f"; done
	patch -s -p1 --no-backup-if-mismatch -d "$patched/src" -i "$bait" >"$scratch/bait.log" 2>&1 ||
		bail "--patch $bait does not apply to the patched tree: $(head -1 "$scratch/bait.log")"
	echo "# --patch $bait applied to the patched side only"
fi
t1=$(date +%s)

# The same make as build.sh's, plus C=2 W=1, one object after the other
# (-j1: each warning follows the kbuild line of the object it belongs to).
# Objects in new subtrees of scripts/ or tools/ are not expected.
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	cc="$(cd "$(dirname "$0")" && pwd)/ccache-cc.sh"	# build.sh's CC
	export CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime CCACHE_DEPEND=1
fi
export KBUILD_BUILD_USER=bpfwire KBUILD_BUILD_HOST=bpfwire
# The unpatched side has no object for a file the series adds.
old_objects=()
for o in "${objects[@]}"; do
	printf '%s\n' "${new[@]}" | grep -qxF "$o" || old_objects+=("$o")
done
check() {
	local d=$scratch/$1 s
	shift
	s=$(date +%s)
	if [ $# -gt 0 ]; then
		# -k: one object that does not compile does not hide the others.
		CCACHE_BASEDIR=$d make -C "$d/src" O="$d/obj" ARCH=x86_64 CC="$cc" HOSTCC=gcc \
			C=2 W=1 -j1 -k "$@" >"$d/make.log" 2>&1
	else
		: >"$d/make.log"
	fi
	echo $? >"$d/make.rc"
	echo $(( $(date +%s) - s )) >"$d/make.secs"
}
check base "${old_objects[@]}" & check patched "${objects[@]}" & wait
t2=$(date +%s)

# warnings SIDE: "OBJECT<TAB>file: kind: message" per warning, attributed
# to the object whose kbuild line (CC, CHECK, ...) came last.
warnings() {
	local d=$scratch/$1
	# ccache replays a hit's stderr as the compile that filled it printed
	# it, with that run's scratch directory in the paths: any run's goes.
	sed -E -e "s#$d/(src|obj)/##g" \
		-e 's#[^ :]*/check-warnings\.[A-Za-z0-9]{6}/(base|patched)/(src|obj)/##g' "$d/make.log" | awk -v list="${objects[*]}" '
		BEGIN { n = split(list, o, " "); for (i = 1; i <= n; i++) want[o[i]] = 1 }
		/^  [A-Z][A-Z0-9_]* +[^ ]/ {
			p = $2; sub(/\.[a-z]+$/, ".o", p); cur = (p in want) ? p : ""; next
		}
		cur == "" { next }
		{
			line = $0
			# file:LINE[:COL]: kind: message, and objtool'\''s file: kind: message
			if (match(line, /^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error): /)) {
				f = line; sub(/:.*/, "", f)
				rest = substr(line, RLENGTH + 1)
				kind = line; sub(/^[^ :]+:[0-9]+(:[0-9]+)?: /, "", kind); sub(/:.*/, "", kind)
				print cur "\t" f ": " kind ": " rest
			} else if (match(line, /^[^ :]+: (warning|error): /)) {
				print cur "\t" line
			}
		}' | sort
}
warnings base >"$scratch/base.w"
warnings patched >"$scratch/patched.w"
for side in base patched; do
	if [ "$(cat "$scratch/$side/make.rc")" != 0 ]; then
		grep -E 'error|Error' "$scratch/$side/make.log" | head -20 | sed 's/^/# /'
		# An object of the series that does not compile unpatched is no
		# baseline; one that does not compile patched is a failure below.
		[ "$side" = patched ] || bail "make C=2 W=1 of the unpatched side failed (log above)"
	fi
done

echo "1..$(( ${#objects[@]} + 1 ))"
n=0 fail=0 tb=0 tp=0 tn=0
for o in "${objects[@]}"; do
	n=$((n + 1))
	grep -P "^\Q$o\E\t" "$scratch/patched.w" | cut -f2- >"$scratch/p" || true
	if printf '%s\n' "${new[@]}" | grep -qxF "$o"; then
		: >"$scratch/b"; what="new file, no baseline"
	else
		grep -P "^\Q$o\E\t" "$scratch/base.w" | cut -f2- >"$scratch/b" || true
		what="unpatched $(wc -l <"$scratch/b")"
	fi
	# comm on sorted lists: a warning the patched side has more often.
	comm -13 "$scratch/b" "$scratch/p" >"$scratch/added"
	np=$(wc -l <"$scratch/p") nb=$(wc -l <"$scratch/b") na=$(wc -l <"$scratch/added")
	tp=$((tp + np)) tb=$((tb + nb)) tn=$((tn + na))
	built=true
	[ -f "$patched/obj/$o" ] || built=false
	if [ "$na" -eq 0 ] && $built; then
		echo "ok $n - $o: no new warning (patched $np, $what)"
	else
		sed 's/^/#   new: /' "$scratch/added"
		$built || echo "#   $o did not compile in the patched tree"
		echo "not ok $n - $o: $na new warnings (patched $np, $what)"
		fail=1
	fi
done
n=$((n + 1))
summary="${#objects[@]} objects: patched $tp warnings, unpatched $tb, new $tn"
if [ "$fail" = 0 ]; then echo "ok $n - $summary"; else echo "not ok $n - $summary"; fi
echo "# seconds: $((t1 - t0)) scratch trees, make C=2 W=1 unpatched $(cat "$base/make.secs") and patched $(cat "$patched/make.secs") (at once), $(( $(date +%s) - t0 )) in all"
exit $fail
