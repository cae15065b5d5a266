#!/bin/bash
# TAP: a patch that does not fit the kernel source stops the apply step
# with a message a user can act on. The apply step is ksrc_apply
# (source-version.sh), the one build.sh and check-series.sh use; it is fed
# a copy of PATCH, made here in a temp dir, whose first hunk in FILE has a
# context line no kernel has. The error must name the source version (the
# Debian package and the Makefile's), the patch file and the hunk (FILE,
# hunk #1 and its line range) and say what to do (the apt-get/apt-mark pin
# command, or refresh the series); once more with a list of known versions
# that lacks this one. Last, the tarball is unchanged.
#
# Cheap: no unpacked kernel is needed. Only the files PATCH touches (and
# the Makefile) are extracted from the tarball, into a small git repo
# tagged pristine like build.sh's; tar still reads the archive to the last
# of them (~20 s of xz), but writes a few files.
#
#   check-apply-error.sh TARBALL PATCH FILE
set -u
[ $# -eq 3 ] || { echo "Bail out! usage: check-apply-error.sh TARBALL PATCH FILE"; exit 1; }
tarball=$1 patch=$(realpath "$2") file=$3
. "$(dirname "$(realpath "$0")")/source-version.sh"
if [ ! -f "$tarball" ]; then
	echo "1..0 # SKIP $tarball is missing (apt-get install linux-source-6.12)"
	exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
n=0 fail=0
check() { # check DESCRIPTION COMMAND...: one TAP line
	local what=$1; shift
	n=$((n + 1))
	if "$@"; then echo "ok $n - $what"; else echo "not ok $n - $what"; fail=1; fi
}
has() { grep -qF -- "$2" <<<"$1"; }
echo "1..9"
tar_before=$(stat -c '%s %Y %i' "$tarball")

# --- the tree: the touched files of the pristine source ----------------------
top=$(tar -tf "$tarball" 2>/dev/null | head -1) || true
top=${top%%/*}
members=("$top/Makefile")
while IFS= read -r f; do members+=("$top/$f"); done < <(ksrc_patch_files "$patch")
tree=$scratch/tree
mkdir "$tree"
echo "# extracting ${#members[@]} files of $tarball"
if ! tar -xf "$tarball" -C "$tree" --strip-components=1 --occurrence=1 "${members[@]}"; then
	echo "Bail out! could not extract ${members[*]} from $tarball"
	exit 1
fi
g() { git -C "$tree" -c user.name=bpfwire -c user.email=bpfwire@example.invalid "$@"; }
g init -q && g add -A && g commit -q -m pristine && g tag pristine ||
	{ echo "Bail out! git could not commit the extracted files"; exit 1; }

# --- the version, read without source-version.sh -----------------------------
mk() { sed -n "s/^$1 = *//p" "$tree/Makefile" | head -1; }
want_kernel="$(mk VERSION).$(mk PATCHLEVEL).$(mk SUBLEVEL)$(mk EXTRAVERSION)"
want_pkg=
if [ "$(realpath "$tarball")" = /usr/src/linux-source-6.12.tar.xz ]; then
	want_pkg=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) || want_pkg=
fi
if [ -n "$want_pkg" ]; then
	want="linux-source-6.12 $want_pkg (Linux $want_kernel)"
else
	want="$tarball (Linux $want_kernel,"
fi
ksrc_read "$tarball"
say=$(ksrc_say "#" 2>&1)
echo "$say"
echo "# checked: ${want_pkg:+linux-source-6.12 $want_pkg, }Linux $want_kernel"
check "the version line names $want" has "$say" "source: $want"

export GIT_INDEX_FILE=$scratch/index
g read-tree pristine
check "$(basename "$patch") as it is applies to the extracted files" ksrc_apply "$tree" "$patch"

# --- the broken copy -----------------------------------------------------------
mkdir "$scratch/series"
broken=$scratch/series/$(basename "$patch")
# FILE's first hunk: its first context line becomes one no kernel has.
awk -v f="$file" '
	/^diff --git / { in_f = ($NF == "b/" f); hunks = 0 }
	in_f && /^@@ / { hunks++ }
	in_f && hunks == 1 && !done && /^ / { print " bpfwire check-apply-error: this line is in no kernel"; done = 1; next }
	{ print }' "$patch" >"$broken"
# The hunk's lines in the original file, from its header @@ -FIRST,COUNT.
range=$(awk -v f="$file" '
	/^diff --git / { in_f = ($NF == "b/" f) }
	in_f && /^@@ -/ { split(substr($2, 2), a, ",")
		print a[1] "-" a[1] + ((2 in a) ? a[2] : 1) - 1; exit }' "$patch")
if cmp -s "$patch" "$broken" || [ -z "$range" ]; then
	echo "Bail out! $file has no hunk with a context line in $patch"
	exit 1
fi
g read-tree pristine
err=$(ksrc_apply "$tree" "$broken" 2>&1); rc=$?
echo "$err" | sed 's/^/# /'
check "the broken copy does not apply (status $rc)" [ "$rc" -ne 0 ]
check "the error names the version" has "$err" "does not apply to $want"
check "the error names the patch file" has "$err" "patch file: $broken"
check "the error names the hunk: $file hunk #1, lines $range" has "$err" "hunk: $file hunk #1, lines $range:"
pin=$(ksrc_known | awk 'END { print $1 }')
check "the error says to pin $pin or refresh the series" \
	eval 'has "$err" "apt-get install linux-source-6.12=$pin && apt-mark hold linux-source-6.12" && has "$err" "refresh the series"'

# --- the same for a version kernel/source-versions does not list --------------
# Its last line is another package's: the pin must still be 6.12's newest.
printf '# test list\nlinux-source-6.12 6.12.0-1 6.12.0\nlinux-source-7.2 6.12.0-2 6.12.0\n' >"$scratch/versions"
g read-tree pristine
err=$( { KSRC_VERSIONS=$scratch/versions; ksrc_say "#"; ksrc_apply "$tree" "$broken"; } 2>&1)
echo "$err" | sed 's/^/# unlisted: /'
check "unlisted version: a warning, and the error says it is unlisted and pins a listed one" \
	eval 'has "$err" "warning: this version is not in kernel/source-versions" &&
		has "$err" "known to apply to: 6.12.0-1 (Linux 6.12.0)" &&
		has "$err" "apt-get install linux-source-6.12=6.12.0-1 && apt-mark hold linux-source-6.12"'

check "the tarball is unchanged" [ "$(stat -c '%s %Y %i' "$tarball")" = "$tar_before" ]
exit $fail
