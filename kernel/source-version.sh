# shellcheck shell=bash
# Which Debian kernel source a kernel is built from (linux-source-6.12, or
# linux-source-7.2 and 7.3 from trixie-backports, tools/install-sources),
# and what to do when a patch series does not fit it. Sourced (not run) by
# kernel/build.sh, kernel/check-series.sh, kernel/check-apply-error.sh and
# tools/install-deps.
#
# Debian's source packages follow the security updates, so a fresh machine
# may get a point release the series was never applied to. The versions
# known to work are listed per package in kernel/source-versions (its
# header says how to add one); an unlisted version is a warning, since the
# patches usually still apply. When one does not, ksrc_apply names the
# version, the patch file and each hunk that does not match, and says how
# to pin the package to a known version or refresh the series.
#
# Nothing here writes to the tarball or to a tree's work tree: versions are
# read with tar -O and git show, patches are applied to the index the
# caller chose (GIT_INDEX_FILE), and the hunk report works on a copy of the
# touched files in a temporary directory.

# The package until ksrc_read names the tarball's own.
KSRC_PACKAGE=linux-source-6.12
# BPFWIRE_SOURCE_VERSIONS names another list (check-apply-error.sh uses it
# to see the message for a version that is not listed).
KSRC_VERSIONS=${BPFWIRE_SOURCE_VERSIONS:-$(dirname "$(realpath "${BASH_SOURCE[0]}")")/source-versions}
KSRC_INSTALL_SOURCES=$(realpath -m "$(dirname "$(realpath "${BASH_SOURCE[0]}")")/../tools/install-sources")
KSRC_PKG= KSRC_KERNEL= KSRC_DESC=

# Makefile on stdin -> VERSION.PATCHLEVEL.SUBLEVEL[EXTRAVERSION].
ksrc_makefile_version() {
	awk -F'[ \t]*=[ \t]*' '
		!(1 in seen) && $1 == "VERSION" { v = $2; seen[1] }
		!(2 in seen) && $1 == "PATCHLEVEL" { p = $2; seen[2] }
		!(3 in seen) && $1 == "SUBLEVEL" { s = $2; seen[3] }
		!(4 in seen) && $1 == "EXTRAVERSION" { e = $2; seen[4] }
		END { if (v != "" && p != "") print v "." p (s != "" ? "." s : "") e }'
}

# ksrc_package_of TARBALL OWNER KERNEL: the source package a tarball is
# from: its dpkg OWNER, else the package its name is Debian's for
# (linux-source-X.Y.tar.xz), else linux-source-X.Y of its KERNEL version,
# else linux-source-6.12.
ksrc_package_of() {
	local re='^linux-source-[0-9]+\.[0-9]+$' base
	base=$(basename "$1" .tar.xz)
	if [[ $2 =~ $re ]]; then
		echo "$2"
	elif [[ $1 == *.tar.xz && $base =~ $re ]]; then
		echo "$base"
	elif [[ $3 =~ ^([0-9]+\.[0-9]+)(\.|$) ]]; then
		echo "linux-source-${BASH_REMATCH[1]}"
	else
		echo linux-source-6.12
	fi
}

# ksrc_read TARBALL [SRC]: set KSRC_PACKAGE (the source package TARBALL is
# from, ksrc_package_of), KSRC_PKG (its Debian version, empty when no
# installed package owns TARBALL), KSRC_KERNEL (from the Makefile: SRC's
# pristine tag when SRC is a tree build.sh unpacked, else the tarball's,
# which tar finds in about a second) and KSRC_DESC, one phrase for both.
ksrc_read() {
	local tarball=$1 src=${2:-} owner= real
	KSRC_PKG= KSRC_KERNEL=
	if [ -n "$src" ] && git -C "$src" rev-parse -q --verify pristine >/dev/null 2>&1; then
		KSRC_KERNEL=$(git -C "$src" show pristine:Makefile 2>/dev/null | ksrc_makefile_version) || KSRC_KERNEL=
	elif [ -f "$tarball" ]; then
		# The top directory's Makefile only (* does not match /); tar stops
		# at the first one, near the start of the archive.
		KSRC_KERNEL=$(tar -xOf "$tarball" --occurrence=1 --wildcards \
			--no-wildcards-match-slash '*/Makefile' 2>/dev/null | ksrc_makefile_version) || KSRC_KERNEL=
	fi
	real=$(realpath -m "$tarball")
	if [ -f "$tarball" ] && command -v dpkg-query >/dev/null 2>&1; then
		# dpkg-query -S reads every package's file list (0.3 s); the owner
		# of Debian's own /usr/src/linux-source-X.Y.tar.xz is known.
		if [[ $real =~ ^/usr/src/(linux-source-[0-9]+\.[0-9]+)\.tar\.xz$ ]]; then
			owner=${BASH_REMATCH[1]}
		else
			owner=$(dpkg-query -S "$real" 2>/dev/null | sed -n '1s/[:,].*//p') || owner=
		fi
		[ -z "$owner" ] || KSRC_PKG=$(dpkg-query -W -f='${Status}\t${Version}\n' "$owner" 2>/dev/null |
			awk -F'\t' '$1 ~ / installed$/ { print $2 }') || KSRC_PKG=
	fi
	KSRC_PACKAGE=$(ksrc_package_of "$real" "${KSRC_PKG:+$owner}" "$KSRC_KERNEL")
	if [ -n "$KSRC_PKG" ]; then
		KSRC_DESC="$KSRC_PACKAGE $KSRC_PKG (Linux ${KSRC_KERNEL:-version unreadable})"
	else
		KSRC_DESC="$tarball (Linux ${KSRC_KERNEL:-version unreadable}, not from the $KSRC_PACKAGE package)"
	fi
}

# KSRC_PACKAGE's lines of the list: "PACKAGE_VERSION KERNEL_VERSION".
ksrc_known() {
	[ -f "$KSRC_VERSIONS" ] || return 0
	awk -v p="$KSRC_PACKAGE" '!/^[ \t]*(#|$)/ && $1 == p && NF == 3 { print $2, $3 }' "$KSRC_VERSIONS"
}
# "6.12.118-1~deb12u1 (Linux 6.12.118), ..." or "none".
ksrc_known_desc() {
	local d
	d=$(ksrc_known | awk '{ printf "%s%s (Linux %s)", (NR > 1 ? ", " : ""), $1, $2 }')
	echo "${d:-none}"
}
# True when the version read is listed: by package version when the
# tarball is the package's, else by kernel version.
ksrc_is_known() {
	if [ -n "$KSRC_PKG" ]; then
		ksrc_known | awk -v v="$KSRC_PKG" '$1 == v { f = 1 } END { exit !f }'
	else
		[ -n "$KSRC_KERNEL" ] && ksrc_known | awk -v v="$KSRC_KERNEL" '$2 == v { f = 1 } END { exit !f }'
	fi
}
# The command that pins the newest listed version. Debian 12 has
# linux-source-6.12; the others come from trixie-backports through
# install-sources, which no system apt upgrade touches.
ksrc_pin_cmd() {
	local v
	v=$(ksrc_known | awk 'END { print $1 }')
	if [ "$KSRC_PACKAGE" = linux-source-6.12 ]; then
		echo "apt-get install $KSRC_PACKAGE=${v:-VERSION} && apt-mark hold $KSRC_PACKAGE"
	else
		echo "$KSRC_INSTALL_SOURCES $KSRC_PACKAGE=${v:-VERSION}"
	fi
}

# ksrc_say PREFIX: the version line on stdout; when the version is not
# listed, a warning on stderr with the pin command.
# A package none of whose versions is listed (the series not ported to it
# yet) is said so, without a warning: there is no version to pin.
ksrc_say() {
	local prefix=$1
	if ksrc_is_known; then
		echo "$prefix source: $KSRC_DESC, a version the patch series are known to apply to"
	elif [ -z "$(ksrc_known)" ]; then
		echo "$prefix source: $KSRC_DESC; the patch series are not known to apply to any $KSRC_PACKAGE version yet (kernel/source-versions)"
	else
		echo "$prefix source: $KSRC_DESC; the patch series are known to apply to: $(ksrc_known_desc)"
		echo "${prefix%% *} warning: this version is not in kernel/source-versions: the patches may still apply. If one does not, pin a known version: $(ksrc_pin_cmd)" >&2
	fi
}

# Per hunk of a patch: FILE TAB N TAB FIRST TAB LAST TAB HEADER, where N
# counts the file's hunks from 1 (as git apply --reject does) and
# FIRST-LAST are the lines of the original file the hunk must match.
ksrc_hunks() {
	awk '
		/^diff --git / { f = $NF; sub(/^b\//, "", f); n = 0; next }
		/^@@ -[0-9]/ {
			n++; split(substr($2, 2), a, ",")
			l = (2 in a) ? a[2] + 0 : 1
			print f "\t" n "\t" a[1] "\t" (l ? a[1] + l - 1 : a[1]) "\t" $0
		}' "$1"
}

# ksrc_patch_files PATCH: the paths PATCH touches, one a line. git apply
# run inside a repository's subdirectory (a meson build directory) ignores
# paths outside it, so this runs in an empty directory outside any.
ksrc_patch_files() {
	local tmp patch
	patch=$(realpath "$1") tmp=$(mktemp -d)
	(cd "$tmp" && env -u GIT_INDEX_FILE GIT_CEILING_DIRECTORIES="$tmp" \
		git apply --numstat "$patch") | cut -f3 || true
	rmdir "$tmp"
}

# ksrc_rejects SRC PATCH: FILE TAB N for each hunk that does not match the
# files as SRC's index has them (GIT_INDEX_FILE). git apply stops a file at
# its first bad hunk; --reject goes on, so this runs it on a copy of the
# touched files outside any repository.
ksrc_rejects() {
	local src=$1 patch=$2 tmp
	tmp=$(mktemp -d)
	mkdir "$tmp/t"
	# Files the patch creates are in no index: checkout-index skips them.
	ksrc_patch_files "$patch" |
		(cd "$src" && xargs -r -d '\n' git checkout-index --prefix="$tmp/t/" -- 2>/dev/null) || true
	(cd "$tmp/t" && env -u GIT_INDEX_FILE GIT_CEILING_DIRECTORIES="$tmp" \
		git apply --reject --verbose "$patch" 2>&1) |
		awk '/^Applying patch .* with [0-9]+ reject/ { f = $3 }
		     /^Rejected hunk #[0-9]+/ { n = $3; gsub(/[#.]/, "", n); print f "\t" n }' || true
	rm -rf "$tmp"
}

# ksrc_report_hunks SRC PATCH PREFIX: a line "PREFIX   hunk: FILE hunk #N,
# lines A-B: @@ header" for each hunk of PATCH that SRC's index rejects;
# status 1 when no single hunk was rejected. build.sh's user patches and
# ksrc_apply's series patches share it so that both name a hunk alike.
ksrc_report_hunks() {
	local src=$1 patch=$2 prefix=$3 rejects f n first last header found=1
	rejects=$(ksrc_rejects "$src" "$patch") || rejects=
	while IFS=$'\t' read -r f n; do
		[ -n "$f" ] || continue
		IFS=$'\t' read -r first last header < <(ksrc_hunks "$patch" |
			awk -F'\t' -v f="$f" -v n="$n" '$1 == f && $2 == n { print $3 "\t" $4 "\t" $5; exit }') || true
		echo "$prefix   hunk: $f hunk #$n, lines ${first:-?}-${last:-?}: $header"
		found=0
	done <<<"$rejects"
	return "$found"
}

# ksrc_apply SRC PATCH [PREFIX]: git apply --cached PATCH to SRC's index
# (the caller's GIT_INDEX_FILE). When it does not apply: the report on
# stderr, lines starting with PREFIX (default "kernel:"), and status 1.
# ksrc_read must have run.
ksrc_apply() {
	local src=$1 patch=$2 prefix=${3:-kernel:} err found=0
	patch=$(realpath "$patch")
	if err=$(git -C "$src" apply --cached --whitespace=nowarn "$patch" 2>&1); then
		return 0
	fi
	{
		echo "$prefix error: patch $(basename "$patch") does not apply to $KSRC_DESC"
		echo "$prefix   patch file: $patch"
		ksrc_report_hunks "$src" "$patch" "$prefix" && found=1
		# git's own lines (file:line of the first bad hunk of each file, a
		# missing file...) without the context it searched for.
		echo "$err" | grep '^error: ' | grep -v 'while searching for' | sed "s|^|$prefix   git apply: |" || true
		[ "$found" = 1 ] || echo "$prefix   (no single hunk was rejected: see git apply's lines above)"
		if ksrc_is_known; then
			echo "$prefix   this version is in kernel/source-versions, so the patch file changed, not the source: see git diff and git log -p on it"
		else
			echo "$prefix   this version is not in kernel/source-versions; the series are known to apply to: $(ksrc_known_desc)"
		fi
		if [ -n "$(ksrc_known)" ]; then
			echo "$prefix what to do: pin $KSRC_PACKAGE to a version the series are known to apply to:"
			echo "$prefix     $(ksrc_pin_cmd)"
			[ -n "$KSRC_PKG" ] || echo "$prefix   and build from its tarball, /usr/src/$KSRC_PACKAGE.tar.xz (build.sh --tarball names another);"
		else
			echo "$prefix what to do: no $KSRC_PACKAGE version is known to take the series yet: build from linux-source-6.12 (build.sh --tarball /usr/src/linux-source-6.12.tar.xz),"
		fi
		echo "$prefix   or refresh the series for this version: fix the hunk in the patch file, check with the kernel-series-apply test, then add the version to kernel/source-versions."
		echo "$prefix   Nothing was changed: the tarball is only read and the patch was applied to a scratch index."
	} >&2
	return 1
}
