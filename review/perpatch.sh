#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Per patch of the series, on its own parent: the .c files it touches that
# the review's config builds, compiled with `make W=1` (and C=1, sparse,
# when it is installed) at the parent and at the patch. bpfwire-review
# runs this in kernel/sandbox.sh, as the sandbox's uid: the tree and its
# Makefiles are the series', so nothing here runs with power, and root
# reads only the text files it writes (perpatch.c).
#
#   perpatch.sh SRC OBJ N WORK OUT
#
# SRC: the review's built tree (build-review-NAME/kernel/sbx/src), a git
# repository whose first N commits after tag pristine are the series'
# patches; OBJ: its build (its .config, and which objects it built). WORK
# (kept between reviews, so the kernel's prepare runs once): WORK/src, a
# symlink farm of SRC in which the files the series touches are real and
# set to each commit's content in turn, and WORK/obj, a build of it with
# OBJ's config. SRC and OBJ are only read. OUT:
#   tools          "sparse VERSION" or "sparse none", "gcc VERSION"
#   NNNN.files     per patch, a line a file it touches: "c PATH" (built
#                  here), "config PATH" (a .c file this config does not
#                  build), "host PATH" (scripts/, tools/, usr/: a host
#                  tool's or a test's), "other PATH" (not a .c file),
#                  "name" (a name
#                  with bytes other than [A-Za-z0-9_./+,-]: not shown)
#   sK.log         make's output at commit K (0: pristine, K: patch K),
#                  for the objects of patches K and K+1
#   sK.status      a line an object: "built|failed|absent PATH.o"
#   sK.seconds     the make's time
# WORK/cache keeps each commit's three files under a key of its tree (the
# content make sees), the objects, the config and the tools: a review of
# the same series again (after a stop, under --strict) makes nothing again.
# One line a commit on stdout. Exit 0 when each commit was tried, whatever
# it built; 3 when SRC or OBJ is not such a tree.
set -euo pipefail
[ $# -eq 5 ] || { echo "usage: perpatch.sh SRC OBJ N WORK OUT" >&2; exit 2; }
src=$1 obj=$2 n=$3 work=$4 out=$5
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "perpatch: N '$n' is not a count" >&2; exit 2; }
[ -f "$obj/.config" ] || { echo "perpatch: $obj has no .config" >&2; exit 3; }
# gcc's quotes in ASCII: "In function 'f'"
export LC_ALL=C
git_() { git -C "$src" -c core.fsmonitor=false -c core.hooksPath=/dev/null "$@"; }
git_ rev-parse -q --verify pristine >/dev/null || { echo "perpatch: $src has no tag pristine" >&2; exit 3; }
mapfile -t commits < <(git_ rev-list --reverse pristine..HEAD)
[ "${#commits[@]}" -ge "$n" ] ||
	{ echo "perpatch: $src has ${#commits[@]} commits after pristine, fewer than the series' $n" >&2; exit 3; }
rev=("$(git_ rev-parse "pristine^{commit}")" "${commits[@]:0:n}")
mkdir -p "$out" "$work"

c1=()
if command -v sparse >/dev/null; then
	c1=(C=1)
	echo "sparse $(sparse --version 2>&1 | head -n 1)" >"$out/tools"
else
	echo "sparse none" >"$out/tools"
fi
echo "gcc $(gcc -dumpfullversion 2>/dev/null || echo unknown)" >>"$out/tools"

# What each patch touches; the union is what the farm holds real.
declare -A touched=()
# compile[i]: patch i's .c files that this config builds
compile=()
for ((i = 1; i <= n; i++)); do
	f=$(printf '%s/%04d.files' "$out" "$i")
	list=
	: >"$f"
	while IFS= read -r -d '' p; do
		if [[ ! $p =~ ^[A-Za-z0-9_.+,-][A-Za-z0-9_./+,-]*$ ]] || [[ $p == *..* ]]; then
			echo name >>"$f"
			continue
		fi
		touched[$p]=1
		case $p in
		scripts/*|tools/*|usr/*) echo "host $p" >>"$f" ;;
		*.c)
			# kbuild made it in the review's build (its .cmd): this config builds it
			if [ -f "$obj/$(dirname "$p")/.$(basename "${p%.c}").o.cmd" ]; then
				echo "c $p" >>"$f"
				list+=" $p"
			else
				echo "config $p" >>"$f"
			fi ;;
		*) echo "other $p" >>"$f" ;;
		esac
	done < <(git_ diff-tree -r -z --no-renames --name-only "${rev[i - 1]}" "${rev[i]}")
	compile[i]=$list
done

# farm DIR PATH...: DIR mirrors SRC with symlinks, except that every
# directory on the way to a PATH is real (its other entries links), so a
# PATH can be a real file there (kernel/check-warnings.sh's farm).
farm() {
	local dst=$1 d e k links
	local -A real=()
	shift
	for d in $(printf '%s\n' "$@" | awk '{ n = split($0, p, "/"); d = "."; print d
		for (i = 1; i < n; i++) { d = d "/" p[i]; print d } }' | sort -u); do
		real[$d]=1
	done
	for d in "${!real[@]}"; do
		mkdir -p "$dst/$d"
		links=()
		for e in "$src/$d"/* "$src/$d"/.[!.]*; do
			[ -e "$e" ] || [ -L "$e" ] || continue
			k=$d/${e##*/}
			[ -z "${real[$k]:-}" ] && [ -z "${touched[${k#./}]:-}" ] && [ "$k" != ./.git ] && links+=("$e")
		done
		[ ${#links[@]} -eq 0 ] || ln -s "${links[@]}" "$dst/$d/"
	done
}
rm -rf "$work/src"
# shellcheck disable=SC2046 # checked names: no blanks
farm "$work/src" $(printf '%s\n' "${!touched[@]}")
mkdir -p "$work/obj"
# The review's config; the first run (or a new config) prepares WORK/obj.
cmp -s "$obj/.config" "$work/obj/.config" || cp "$obj/.config" "$work/obj/.config"
[ -f "$work/obj/include/config/auto.conf" ] || [ ! -f "$src/scripts/Kbuild.include" ] ||
	echo "perpatch: $work/obj is new: its first make prepares it (host tools, objtool, headers), once"

# set_commit K: each touched file as commit K has it (absent when it has
# none); a file that did not change keeps its mtime, so make rebuilds
# only what depends on what changed.
set_commit() {
	local p
	for p in "${!touched[@]}"; do
		if git_ cat-file -e "${rev[$1]}:$p" 2>/dev/null; then
			git_ show "${rev[$1]}:$p" >"$work/new"
			cmp -s "$work/new" "$work/src/$p" || mv -f "$work/new" "$work/src/$p"
		else
			rm -f "$work/src/$p"
		fi
	done
	rm -f "$work/new"
}

for ((k = 0; k <= n; k++)); do
	s=$out/s$k
	: >"$s.status"
	# patch K's objects (after) and patch K+1's (before), once each
	# shellcheck disable=SC2086 # lists of checked names
	targets=$(printf '%s\n' ${compile[k]:-} ${compile[k + 1]:-} | sed '/^$/d' | sort -u)
	[ -n "$targets" ] || continue
	# The review's config, not WORK's copy: kbuild's syncconfig rewrites
	# that for each commit's Kconfig, so it holds what the make before did.
	key=$(printf '%s\n' "$(git_ rev-parse "${rev[k]}^{tree}")" $targets |
		cat - "$obj/.config" "$out/tools" | sha256sum | cut -c1-64)
	kept=$work/cache/$key
	if [ -f "$kept.status" ] && [ -f "$kept.log" ] && [ -f "$kept.seconds" ]; then
		cp "$kept.log" "$s.log"
		cp "$kept.status" "$s.status"
		cp "$kept.seconds" "$s.seconds"
		echo "perpatch: $([ "$k" = 0 ] && echo "the series' parent" || echo "patch $k of $n"):" \
			"$(grep -c '^built' "$s.status" || true) built, $(grep -c '^failed' "$s.status" || true) failed," \
			"$(grep -c '^absent' "$s.status" || true) absent (kept from a review of the same commit)"
		continue
	fi
	set_commit "$k"
	# each commit's make starts from the review's config
	cmp -s "$obj/.config" "$work/obj/.config" || cp "$obj/.config" "$work/obj/.config"
	objs=()
	for p in $targets; do	# checked names: no blanks
		if [ -f "$work/src/$p" ]; then
			rm -f "$work/obj/${p%.c}.o"
			objs+=("${p%.c}.o")
		else
			echo "absent ${p%.c}.o" >>"$s.status"
		fi
	done
	t=$(date +%s)
	if [ ${#objs[@]} -gt 0 ]; then
		# -k: one object that fails hides no other; --output-sync: each
		# object's lines together, after its kbuild line; -Wno-error: a
		# W=1 warning under CONFIG_WERROR is a warning, not a break
		make -C "$work/src" O="$work/obj" ARCH=x86_64 CC=gcc HOSTCC=gcc W=1 "${c1[@]}" KCFLAGS=-Wno-error \
			-k -j"$(nproc)" --output-sync=target "${objs[@]}" >"$s.log" 2>&1 || true
	fi
	for o in "${objs[@]}"; do
		if [ -f "$work/obj/$o" ]; then echo "built $o"; else echo "failed $o"; fi
	done >>"$s.status"
	echo $(( $(date +%s) - t )) >"$s.seconds"
	if [ ${#objs[@]} -gt 0 ]; then
		mkdir -p "$work/cache"
		cp "$s.log" "$kept.log" && cp "$s.status" "$kept.status" && cp "$s.seconds" "$kept.seconds"
	fi
	echo "perpatch: $([ "$k" = 0 ] && echo "the series' parent" || echo "patch $k of $n"):" \
		"$(grep -c '^built' "$s.status" || true) built, $(grep -c '^failed' "$s.status" || true) failed," \
		"$(grep -c '^absent' "$s.status" || true) absent ($(cat "$s.seconds") s)"
done
