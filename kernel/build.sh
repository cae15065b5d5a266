#!/bin/bash
# Build the bpfwire lab kernel: take the source once (Debian's
# linux-source-6.12 tarball, or a user's git work tree or unpacked tree)
# into a git repo, apply the series, configure from lab.config and any
# further fragments, build, dump BTF, and record what went in
# (series.json).
#
# Incremental by design: the base is committed once into a git repo; the
# series is applied to a scratch index (never the work tree), and only files
# whose content changed are checked out, so make rebuilds just what a patch
# touches. A series that stops half-way leaves the work tree as it was:
# the next run starts again from the base.
#
# The source version: for the tarball, one line names the linux-source-6.12
# version (Debian package and Makefile) and whether kernel/source-versions
# lists it as one the series are known to apply to; an unlisted version is
# a warning only. A shipped patch that does not apply stops the build with
# the version, the patch file, each hunk that does not match (file and line
# range) and what to do: pin the package to a listed version or refresh
# the series (source-version.sh). A user's patch that does not apply stops
# it with the patch's subject and git's own lines about the failed hunk.
# The tarball and a user's tree are only ever read.
set -euo pipefail
# The system's tools, whoever runs it: Kconfig asks PATH's rustc for its
# version, so root's ~/.cargo/bin put CONFIG_RUSTC_VERSION in autoconf.h,
# the sandbox (which has the system's PATH) got 0, and none of root's
# ccache entries matched a reviewed series' objects.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
. "$(dirname "$(realpath "$0")")/source-version.sh"

usage() {
	cat <<USAGE
usage: build.sh --out DIR (--patches DIR [--fixes DIR] | --user-patches PATH)
                [--series DIR ...] --fragment FILE [--fragment FILE ...]
                [--source TARBALL|DIR] [--netpoll auto|true|false]
                [--netpoll-series DIR] [--localversion SUFFIX]
                [--flavour NAME] [--series-json TOOL] [--jobs N] [--sandbox]
                [--kernel-version X.Y]
       build.sh --fit --out DIR --user-patches PATH [--source TARBALL]
                [--kernel-version X.Y] [--sandbox] [--range-base PATH]

Builds DIR/{bzImage,vmlinux,vmlinux.h,config,series.json} from the source
plus the patch series.

--source: a kernel tarball (default /usr/src/linux-source-6.12.tar.xz, or
  linux-source-X.Y's with --kernel-version; --tarball is the same), a git work tree (its HEAD commit is fetched,
  read-only; uncommitted changes are not used) or an unpacked tree (its
  files, all of them, are committed into DIR/src). The
  source is never written to.
--patches DIR, --fixes DIR: bpfwire's shipped series (DIR/series each).
--user-patches PATH: instead of them, a directory with a series file, an
  mbox (git format-patch --stdout, b4 am), or "none". Applied as git am
  does: each commit keeps the mail's author, date and message.
--netpoll: with --user-patches, whether the --netpoll-series DIR goes on
  top: auto (when the tree then lacks net/core/bpf_netpoll.c), true, false.
--series DIR: applied last, in order (bpfwire's own sndbuf extension in
  the seed flavour, then the lab harness's and crypto patches).
--localversion appends SUFFIX to the release (-seed, -up, -NAME) without
  touching the config. Fragments are merged in order over allnoconfig and
  kvm_guest.config; every symbol's last setting is checked after
  olddefconfig, and one that the tree drops is named with its fragment.
--kapi TOOL (with --sandbox) writes DIR/api.json (bpfwire-kapi) from the
  sandbox: root never parses the series' BTF.
--flavour NAME and --series-json TOOL (bpfwire-kernel-series) write
  DIR/series.json: flavour, release, base, patches, mbox sha256, netpoll,
  fragments.
--kernel-version X.Y: the tree must be Linux X.Y (its Makefile), else
  nothing is built; series.json names its version (kernel_version).
--sandbox: the inputs are a reviewer's (a series, a source, a fragment):
  everything that runs or reads the series' tree, from the unpack to the
  BTF dump, runs in kernel/sandbox.sh (no root, no network, only DIR/sbx
  writable, a ccache of its own over root's, read-only). Root then takes
  the outputs from DIR/sbx/out only when they are plain files, and
  vmlinux.h only when it declares types and nothing else. A fragment may
  not set a string option off an allow-list (no host path gets into the
  kernel), and no symlink the series adds may leave the tree.
--fit: only whether the --user-patches series applies to the tarball, as
  the build would apply it: the files it touches are taken from the
  tarball into DIR/fit-src (no unpack), nothing is built. Exit 0 when it
  applies, 1 with the first patch and hunk that does not. The last line
  names the source's version (Linux X.Y.Z); for a git or unpacked tree
  that is all it does (the build itself tries the series there).
--range-base PATH (with --fit): the previous version of the series (an
  mbox or a patch directory). Both are applied to the same pristine files
  (those either touches, from any kind of source), the base as branch
  base, then the series as branch series, and DIR gets range-diff.txt
  (git range-diff), range-pairs.txt (its lines without the diffs) and
  range-patches.txt: "tree same|differs" (whether the two make the same
  tree), then "SIDE N PATCH-ID SUBJECT" a patch (SIDE base or series,
  PATCH-ID git patch-id --stable's, or - for no diff). Exit 1 when either
  does not apply, naming it.
Progress is one line per phase: source, patch, config, build (a line
every 30 s with the objects compiled), btf.
USAGE
}

out= patches= fixes= user_patches= localversion= jobs=0 flavour= series_tool= kapi=
netpoll=auto netpoll_dir= kversion= range_base= range_shown=
sandbox=false fit=false inside= patches_shown= fragment_text= fragment_wanted=
fragments=() series=()
source=
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || case "$1" in -h|--help|--sandbox|--fit) ;; *) echo "build.sh: $1 needs a value" >&2; exit 2 ;; esac
	case "$1" in
	--out) out=$2; shift 2 ;;
	--patches) patches=$2; shift 2 ;;
	--fixes) fixes=$2; shift 2 ;;
	--user-patches) user_patches=$2; shift 2 ;;
	--series) series+=("$(realpath -m "$2")"); shift 2 ;;
	--netpoll) netpoll=$2; shift 2 ;;
	--netpoll-series) netpoll_dir=$(realpath -m "$2"); shift 2 ;;
	--localversion) localversion=$2; shift 2 ;;
	--fragment) fragments+=("$2"); shift 2 ;;
	--source|--tarball) source=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	--series-json) series_tool=$2; shift 2 ;;
	--kapi) kapi=$(realpath "$2"); shift 2 ;;
	--jobs) jobs=$2; shift 2 ;;
	--kernel-version) kversion=$2; shift 2 ;;
	--sandbox) sandbox=true; shift ;;
	--fit) fit=true; shift ;;
	--range-base) range_base=$2; shift 2 ;;
	--range-shown) range_shown=$2; shift 2 ;;
	# Set by the sandboxed run of this script for itself.
	--inside) inside=$2; shift 2 ;;
	--patches-shown) patches_shown=$2; shift 2 ;;
	--fragment-text) fragment_text=$2; shift 2 ;;
	--fragment-wanted) fragment_wanted=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "build.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done
[ -z "$range_base" ] || [ "$fit" = true ] || { echo "build.sh: --range-base needs --fit" >&2; exit 2; }
if [ "$fit" = true ]; then
	[ -n "$out" ] && [ -n "$user_patches" ] && [ "$user_patches" != none ] || { usage >&2; exit 2; }
else
	[ -n "$out" ] && { [ -n "$patches" ] || [ -n "$user_patches" ]; } && [ ${#fragments[@]} -gt 0 ] || { usage >&2; exit 2; }
fi
case "$netpoll" in auto|true|false) ;; *) echo "build.sh: --netpoll '$netpoll' is not auto, true or false" >&2; exit 2 ;; esac
[[ -z $kversion || $kversion =~ ^[0-9]+\.[0-9]+$ ]] || { echo "build.sh: --kernel-version '$kversion' is not X.Y (6.12, 7.3)" >&2; exit 2; }
# Debian's tarball of the version (linux-source-X.Y), unless named.
default_tarball=/usr/src/linux-source-${kversion:-6.12}.tar.xz
[ -n "$source" ] || source=$default_tarball

die() { echo "kernel: error: $*" >&2; exit 1; }
t0=$(date +%s)
phase() { echo "kernel: [$(( $(date +%s) - t0 ))s] $*"; }

# --- what the source is ----------------------------------------------------
if [ -d "$source" ]; then
	source=$(realpath "$source")
	# Its own .git only: an unpacked tree inside some other repository is
	# still an unpacked tree.
	if [ -e "$source/.git" ]; then kind=git; else kind=tree; fi
elif [ -f "$source" ]; then
	kind=tarball
elif [ "$source" = "$default_tarball" ] && [ "$fit" = true ]; then
	die "$source is missing: linux-source-${kversion:-6.12} is not installed, so no series can be tried on it"
elif [ "$source" = "$default_tarball" ]; then
	# 6.12 is Debian 12's own; the 7.x sources come from trixie-backports.
	case ${kversion:-6.12} in
	6.12) how="apt-get install linux-source-6.12" ;;
	*) how="tools/install-sources linux-source-$kversion" ;;
	esac
	die "$source is missing: the Debian package linux-source-${kversion:-6.12} is not installed ($how)"
else
	die "kernel source $source does not exist: name a kernel tarball, a git work tree or an unpacked tree"
fi
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found: install the Debian package $2 (apt-get install $2)"; }
need git git; need make make; need gcc gcc; need flex flex; need bison bison
need bc bc; need pahole dwarves; need bpftool bpftool
[ "$kind" != tarball ] || need xz xz-utils
[ -f /usr/include/libelf.h ] || die "libelf.h not found: install libelf-dev (apt-get install libelf-dev)"
[ -f /usr/include/openssl/ssl.h ] || die "openssl headers not found: install libssl-dev (apt-get install libssl-dev)"

out=$(realpath -m "$out")
[ -z "$patches" ] || patches=$(realpath "$patches")
[ -z "$fixes" ] || fixes=$(realpath "$fixes")
if [ -n "$user_patches" ] && [ "$user_patches" != none ]; then
	[ -e "$user_patches" ] || die "kernel patches $user_patches do not exist: name a directory with a series file, or an mbox"
	user_patches=$(realpath "$user_patches")
fi
if [ -n "$range_base" ]; then
	[ -e "$range_base" ] || die "the base series $range_base does not exist: name a directory with a series file, or an mbox"
	range_base=$(realpath "$range_base")
fi
here=$(dirname "$(realpath "$0")")
# A fragment sets a string only from this list: another string may be a
# host path that the build reads into the kernel (INITRAMFS_SOURCE,
# EXTRA_FIRMWARE_DIR, SYSTEM_TRUSTED_KEYS, MODULE_SIG_KEY...).
strings_allowed="LOCALVERSION LSM CMDLINE DEFAULT_HOSTNAME"
# Each symbol's last setting (a later fragment overrides an earlier one),
# with the fragment that set it: SYM TAB WANTED LINE TAB FRAGMENT.
wanted_table() {
	awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s); w = $0 }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { s = $2; w = s "=n" }
		s != "" {
			if (w == s "=n") w = "# " s " is not set"
			if (!(s in want)) order[++n] = s
			want[s] = w; from[s] = FILENAME; s = ""
		}
		END { for (i = 1; i <= n; i++) print order[i] "\t" want[order[i]] "\t" from[order[i]] }
	' "${fragments[@]}"
}
if [ -z "$inside" ]; then
	for f in "${fragments[@]}"; do
		[ -f "$f" ] || die "config fragment $f does not exist"
		bad=$(awk -v ok=" $strings_allowed " '
			/^[[:space:]]*CONFIG_[A-Za-z0-9_]+[[:space:]]*=[[:space:]]*"/ {
				s = $0; sub(/^[[:space:]]*CONFIG_/, "", s); sub(/[[:space:]]*=.*/, "", s)
				if (index(ok, " " s " ") == 0) { print "CONFIG_" s " (line " FNR ")"; exit }
			}' "$f")
		[ -z "$bad" ] || die "config fragment $f sets the string option $bad: a string there may name a host file that the build would read into the kernel, so only $strings_allowed may be strings; nothing was built"
	done
	for i in "${!fragments[@]}"; do fragments[i]=$(realpath "${fragments[i]}"); done
fi
src=$out/src
obj=$out/obj
dest=$out
mkdir -p "$out"

# A first build writes about 4.2 GiB (the tree and its git objects 2.8,
# the objects 1.4): stop before unpacking rather than half-way through
# with "No space left on device". Whatever this run would replace counts
# as free.
space_gib=5
# need_space WHAT [none]: "none" counts no tree as replaced (root, who
# reads nothing of the sandbox's trees), else $src and $obj.
need_space() {
	local avail old=0
	avail=$(df -P -k "$out" | awk 'NR == 2 { print $4 }')
	[ $((avail / 1048576)) -lt "$space_gib" ] || return 0
	if [ "${2:-}" != none ] && { [ -e "$src" ] || [ -e "$obj" ]; }; then
		old=$(du -sk "$src" "$obj" 2>/dev/null | awk '{ k += $1 } END { print k + 0 }')
	fi
	[ $(((avail + old) / 1048576)) -lt "$space_gib" ] || return 0
	die "$1 needs about $space_gib GiB free under $out; $(df -P -h "$out" | awk 'NR == 2 { print $4 " are free on " $6 }'). Nothing was unpacked: free some space (each bpfwire build directory's kernel/ holds about 4.2 GiB) and run again"
}
# --- sandbox: a reviewer's inputs are built by no one with power ------------
# Root's part: hand the sandbox copies of what it must read, run this
# script again inside it, then take its outputs as data.
if [ "$sandbox" = true ] && [ -z "$inside" ]; then
	sbx=$out/sbx
	# Written just before the series' own build starts: a build that
	# fails without it failed in root's steps, never the series' doing.
	rm -f "$out/sandboxed-build.started"
	mkdir -p "$sbx"
	# The sandbox's uid walks to $sbx: a 0700 output directory (mkdtemp's,
	# or made under umask 077) would hide it.
	[ "$(stat -c %u "$out")" != 0 ] || chmod go+x "$out"
	"$here/sandbox.sh" --rw "$sbx" -- test -x "$sbx" ||
		die "$sbx cannot be reached by the sandbox's uid $("$here/sandbox.sh" --uid), which builds a reviewer's series: give its parent directories o+x"
	# Trees built before the sandbox move in (chowned by sandbox.sh).
	for d in src obj; do
		if [ -d "$out/$d" ] && [ ! -L "$out/$d" ]; then rm -rf "${sbx:?}/$d"; mv "$out/$d" "$sbx/$d"; fi
	done
	rm -rf "$sbx/in"
	mkdir -p "$sbx/in"
	a=(--out "$out" --inside "$sbx" --netpoll "$netpoll" --localversion "$localversion"
	   --source "$source" --flavour "$flavour" --jobs "$jobs")
	[ -z "$kversion" ] || a+=(--kernel-version "$kversion")
	[ "$fit" = false ] || a+=(--fit)
	[ -z "$series_tool" ] || a+=(--series-json "$(realpath "$series_tool")")
	[ -z "$kapi" ] || a+=(--kapi "$kapi")
	[ -z "$netpoll_dir" ] || a+=(--netpoll-series "$netpoll_dir")
	for d in "${series[@]}"; do a+=(--series "$d"); done
	[ -z "$patches" ] || a+=(--patches "$patches")
	[ -z "$fixes" ] || a+=(--fixes "$fixes")
	# The reviewer's files may sit where the sandbox's uid cannot read.
	if [ "$user_patches" = none ]; then
		a+=(--user-patches none)
	elif [ -n "$user_patches" ]; then
		if [ -d "$user_patches" ]; then
			cp -R -P -- "$user_patches" "$sbx/in/series"
		else
			cp -- "$user_patches" "$sbx/in/series"
		fi
		a+=(--user-patches "$sbx/in/series" --patches-shown "$user_patches")
	fi
	if [ -n "$range_base" ]; then
		cp -R -P -- "$range_base" "$sbx/in/base"
		a+=(--range-base "$sbx/in/base" --range-shown "$range_base")
	fi
	if [ ${#fragments[@]} -gt 0 ]; then
		cat "${fragments[@]}" >"$sbx/in/lab.fragment"
		wanted_table >"$sbx/in/lab.wanted"
		for f in "${fragments[@]}"; do a+=(--fragment "$f"); done
		a+=(--fragment-text "$sbx/in/lab.fragment" --fragment-wanted "$sbx/in/lab.wanted")
	fi
	uid=$("$here/sandbox.sh" --uid)
	# This checkout and the build tools: a clone under /tmp is otherwise
	# out of sight (the sandbox's /tmp is its own).
	ro=(--ro "$(dirname "$here")" --ro "$source")
	[ -z "$series_tool" ] || ro+=(--ro "$(dirname "$(realpath "$series_tool")")")
	[ -z "$kapi" ] || ro+=(--ro "$(dirname "$kapi")")
	# bpfwire's series, wherever they are named from.
	for d in "$patches" "$fixes" "$netpoll_dir" "${series[@]}"; do
		[ -z "$d" ] || [ ! -d "$d" ] || ro+=(--ro "$d")
	done
	if [ "$source" != "$default_tarball" ] &&
	   ! "$here/sandbox.sh" "${ro[@]}" -- test -r "$source" -a \( -f "$source" -o -x "$source" \); then
		die "$source cannot be read by the sandbox's uid $uid, which builds a reviewer's series: make it readable by all (chmod -R o+rX, and o+x on its parents)"
	fi
	# Nothing is compiled and nothing comes out but the exit status (and
	# the range's text files: data, plain files only).
	if [ "$fit" = true ]; then
		rm -f "$out"/range-{diff,pairs,patches}.txt
		"$here/sandbox.sh" --rw "$sbx" "${ro[@]}" -- bash "$here/build.sh" "${a[@]}" || exit $?
		[ -n "$range_base" ] || exit 0
		[ -d "$sbx/out" ] && [ ! -L "$sbx/out" ] || die "the sandboxed range-diff left no output directory $sbx/out"
		for f in range-diff.txt range-pairs.txt range-patches.txt; do
			[ -f "$sbx/out/$f" ] && [ ! -L "$sbx/out/$f" ] || die "the sandboxed range-diff's $f is not a plain file: refused"
			cp -- "$sbx/out/$f" "$out/$f"
		done
		exit 0
	fi
	# Checked here too, by root: a full disk is no fault of the series.
	[ -d "$sbx/src/.git" ] || need_space "the series' build" none
	# The sandbox's ccache starts as a copy of root's: root's hits, and
	# nothing the series compiles ever reaches root's cache. Copied once
	# per build directory, by root, before any sandboxed code runs.
	if [ ! -e "$sbx/ccache" ] && [ ! -L "$sbx/ccache" ] && command -v ccache >/dev/null 2>&1; then
		rcache=$(ccache -k cache_dir)
		if [ -d "$rcache" ]; then
			phase "sandbox: ccache seeded from $rcache ($(du -sh "$rcache" | cut -f1))"
			rm -rf "$out/.ccache-seed"
			cp -a -- "$rcache" "$out/.ccache-seed"
			chown -R "$uid:$uid" "$out/.ccache-seed"
			mv -T -- "$out/.ccache-seed" "$sbx/ccache"
		fi
	fi
	phase "sandbox: the build runs as uid $uid with no network; only $sbx is writable"
	: >"$out/sandboxed-build.started"
	"$here/sandbox.sh" --rw "$sbx" "${ro[@]}" -- bash "$here/build.sh" "${a[@]}" || exit $?
	# Data from here on: plain files only, checked before root uses them.
	[ -d "$sbx/out" ] && [ ! -L "$sbx/out" ] || die "the sandboxed build left no output directory $sbx/out"
	taken=(bzImage vmlinux vmlinux.h config build.log)
	[ -z "$series_tool" ] || taken+=(series.json)
	[ -z "$kapi" ] || taken+=(api.json)
	for f in "${taken[@]}"; do
		[ -f "$sbx/out/$f" ] && [ ! -L "$sbx/out/$f" ] ||
			die "the sandboxed build's $f is not a plain file: refused"
	done
	"$here/check-vmlinux-h.sh" "$sbx/out/vmlinux.h" || die "$sbx/out/vmlinux.h is not what bpftool writes: refused, nothing will be compiled against it"
	for f in "${taken[@]}"; do
		cmp -s "$sbx/out/$f" "$out/$f" && [ ! -L "$out/$f" ] && continue
		rm -f "$out/$f.new"
		cp -- "$sbx/out/$f" "$out/$f.new"
		mv -f "$out/$f.new" "$out/$f"
	done
	# Where the shipped flavours have their trees.
	for d in src obj; do
		[ -L "$out/$d" ] || { rm -rf "${out:?}/$d"; ln -s "sbx/$d" "$out/$d"; }
	done
	phase "sandbox: outputs checked and taken"
	exit 0
fi
if [ -n "$inside" ]; then
	src=$inside/src obj=$inside/obj dest=$inside/out
	mkdir -p "$dest"
	export CCACHE_DIR=$inside/ccache XDG_CACHE_HOME=$inside/cache
fi
# --fit on a tree: its version, read from its Makefile (HEAD's in git).
if [ "$fit" = true ] && [ "$kind" != tarball ]; then
	if [ "$kind" = git ]; then
		KSRC_KERNEL=$(git -c safe.directory='*' -c core.fsmonitor=false -c core.hooksPath=/dev/null \
			-C "$source" show HEAD:Makefile 2>/dev/null | ksrc_makefile_version) || KSRC_KERNEL=
	else
		KSRC_KERNEL=$(ksrc_makefile_version <"$source/Makefile" 2>/dev/null) || KSRC_KERNEL=
	fi
	[ -n "$KSRC_KERNEL" ] || die "$source has no kernel Makefile with a VERSION at its top: not a kernel tree"
	phase "fit: $source is $( [ "$kind" = git ] && echo "a git work tree" || echo "an unpacked tree") of Linux $KSRC_KERNEL (the build tries the series there)"
	[ -n "$range_base" ] || exit 0
fi
# Fixed committer and dates: the same inputs give the same commits.
git_() { git -C "$src" -c user.name=bpfwire -c user.email=bpfwire@example.invalid \
	-c core.compression=0 -c gc.auto=0 -c advice.detachedHead=false "$@"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
base_dirty=false base_name= base_commit= base_time=
# fit_files: the Makefile and each path the series (and --range-base's)
# touches, one a line, relative to the tree's top.
fit_files() {
	local list=() d f
	for d in "$user_patches" $range_base; do
		if [ -d "$d" ]; then list+=("$d"/*); else list+=("$d"); fi
	done
	{
		echo Makefile
		for f in "${list[@]}"; do
			[ -f "$f" ] && ksrc_patch_files "$f" | grep -v ' => '
		done
	} | sort -u
}
# git on a user's tree: the tree's own config may name programs
# (core.fsmonitor, hooks); none of them runs.
gitsrc() { git -c safe.directory='*' -c core.fsmonitor=false -c core.hooksPath=/dev/null -C "$source" "$@"; }

# --- source: the base commit, tagged pristine -------------------------------
if [ "$fit" = true ] && [ "$kind" != tarball ]; then
	# --range-base on a tree: only the files either series touches, as
	# from a tarball; nothing else of the tree is read.
	src=${inside:-$out}/fit-src
	rm -rf "$src"
	mkdir -p "$src"
	fit_files >"$scratch/fit-files"
	while read -r f; do
		if [ "$kind" = git ]; then
			gitsrc cat-file -e "HEAD:$f" 2>/dev/null || continue
			mkdir -p "$src/$(dirname "$f")"
			gitsrc show "HEAD:$f" >"$src/$f"
		elif [ -f "$source/$f" ] && [ ! -L "$source/$f" ]; then
			mkdir -p "$src/$(dirname "$f")"
			cp -- "$source/$f" "$src/$f"
		fi
	done <"$scratch/fit-files"
	git -C "$src" init -q
	git_ add -A -f
	git_ commit -q -m "$source (the files the series touch)"
	git_ tag pristine
	KSRC_DESC="$source (Linux $KSRC_KERNEL)"
elif [ "$kind" = tarball ]; then
	tarball=$source
	stamp=$(stat -c '%s-%Y' "$tarball")
	base_time=${stamp#*-} base_name=$(basename "$tarball")
	# The stamp lives in .git, where a checkout of another base leaves it
	# (a tree an older build.sh unpacked has it in the work tree).
	if [ "$fit" = true ]; then
		# Only what the series touches, and the Makefile for the version:
		# tar still reads the whole archive (~20 s of xz), but writes a
		# few files.
		src=${inside:-$out}/fit-src
		rm -rf "$src"
		mkdir -p "$src"
		top=$(tar -tf "$tarball" 2>/dev/null | head -1) || true
		top=${top%%/*}
		[ -n "$top" ] || die "$tarball lists no files: not a kernel tarball"
		fit_files | sed "s|^|$top/|" >"$scratch/fit-files"
		phase "fit: taking $(($(wc -l <"$scratch/fit-files") - 1)) files the series touches from $tarball"
		tar -xJf "$tarball" -C "$src" --strip-components=1 --no-wildcards --verbatim-files-from -T "$scratch/fit-files" 2>/dev/null || true
		[ -f "$src/Makefile" ] || die "$tarball has no $top/Makefile: not a kernel tarball"
		git -C "$src" init -q
		git_ add -A -f
		git_ commit -q -m "$(basename "$tarball") (the files a series touches)"
		git_ tag pristine
	elif [ -d "$src/.git" ] && { [ "$(cat "$src/.git/bpfwire-tarball" 2>/dev/null)" = "$stamp" ] ||
	   [ "$(cat "$src/.bpfwire-tarball" 2>/dev/null)" = "$stamp" ]; }; then
		# refs/bpfwire/tarball keeps the tarball's commit while another
		# base is built in the same repo; a tree unpacked before it existed
		# has only ever had the tarball as pristine.
		git_ rev-parse -q --verify refs/bpfwire/tarball >/dev/null ||
			git_ update-ref refs/bpfwire/tarball pristine
		git_ tag -f pristine refs/bpfwire/tarball >/dev/null
		phase "unpack: up to date"
	else
		need_space "unpacking $(basename "$tarball") and building it"
		phase "unpack $tarball"
		rm -rf "$src" "$obj" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
		git -C "$src.tmp" init -q
		git -C "$src.tmp" -c user.name=bpfwire -c user.email=bpfwire@example.invalid \
			-c core.compression=0 add -A -f
		git -C "$src.tmp" -c user.name=bpfwire -c user.email=bpfwire@example.invalid \
			-c core.compression=0 commit -q -m "linux-source-${kversion:-6.12} ($stamp)"
		git -C "$src.tmp" tag pristine
		git -C "$src.tmp" update-ref refs/bpfwire/tarball pristine
		echo "$stamp" > "$src.tmp/.git/bpfwire-tarball"
		mv "$src.tmp" "$src"
	fi
	ksrc_read "$tarball" "$src"
	ksrc_say "kernel: [$(( $(date +%s) - t0 ))s]"
else
	# The repo outlives a change of base: its objects and obj/ make the
	# next checkout and make incremental.
	[ -d "$src/.git" ] || need_space "taking $source in and building it"
	[ -d "$src/.git" ] || { rm -rf "$src" "$obj"; git init -q "$src"; }
	if [ "$kind" = git ]; then
		# Only reads: rev-parse, and upload-pack behind the fetch. git's
		# own safe.directory rule applies to a tree another user owns.
		base_commit=$(gitsrc rev-parse --verify -q 'HEAD^{commit}') ||
			die "$source: git rev-parse HEAD failed (an empty repository, or one git refuses: run git -C $source status)"
		if ! git_ cat-file -e "$base_commit^{commit}" 2>/dev/null; then
			phase "source: fetching HEAD $base_commit from $source (read-only)"
			git_ fetch -q --no-tags --depth=1 --upload-pack="git -c safe.directory='*' upload-pack" "$source" HEAD || die "git fetch from $source failed"
		fi
		# --no-optional-locks: status must not refresh the user's index.
		ndirty=$(gitsrc --no-optional-locks status --porcelain | wc -l)
		if [ "$ndirty" -gt 0 ]; then
			base_dirty=true
			echo "kernel: warning: $source has $ndirty uncommitted changes or untracked files: they are not used; the build takes its HEAD commit $base_commit" >&2
		fi
		base_time=$(git_ log -1 --format=%ct "$base_commit")
		KSRC_DESC="git work tree $source at $(git_ log -1 --format='%h ("%s")' "$base_commit")"
	else
		# Every file of the tree, as for the tarball (-f: Debian's
		# .gitignore ignores the whole top level), goes into src's object
		# store through an index kept beside it, which makes the next run
		# hash only what changed; nothing is written in the tree. A tree
		# with build output in it stops at make's "source tree is not
		# clean".
		phase "source: reading the unpacked tree $source (read-only)"
		GIT_INDEX_FILE=$src.tree-index gitsrc --git-dir="$src/.git" \
			--work-tree="$source" -c core.compression=0 add -A -f . ||
			die "git add of $source into $src failed"
		tree=$(GIT_INDEX_FILE=$src.tree-index git -C "$src" write-tree)
		base_time=$(stat -c %Y "$source/Makefile" 2>/dev/null || echo 0)
		base_commit=$(echo "unpacked tree $source" | GIT_AUTHOR_DATE="@$base_time +0000" \
			GIT_COMMITTER_DATE="@$base_time +0000" git_ commit-tree "$tree")
		KSRC_DESC="unpacked tree $source"
	fi
	git_ tag -f pristine "$base_commit" >/dev/null
	KSRC_KERNEL=$(git_ show pristine:Makefile 2>/dev/null | ksrc_makefile_version) || KSRC_KERNEL=
	[ -n "$KSRC_KERNEL" ] || die "$source has no kernel Makefile with a VERSION at its top: not a kernel tree"
	KSRC_DESC="$KSRC_DESC (Linux $KSRC_KERNEL)"
	KSRC_PKG=
	phase "source: $KSRC_DESC, commit $base_commit"
fi

# The series and configs of --kernel-version are for that version only.
# A user's newer tree (bpf-next) is built with the newest version's
# configs and series below it, as bpfwire-review picks them.
if [ -n "$kversion" ] && [ "$kind" != tarball ] && [[ $KSRC_KERNEL != "$kversion" && $KSRC_KERNEL != "$kversion".* ]] &&
   [ "$(printf '%s\n%s\n' "$kversion" "$KSRC_KERNEL" | sort -V | tail -1)" = "$KSRC_KERNEL" ]; then
	echo "kernel: note: the source is Linux $KSRC_KERNEL, newer than $kversion: built with $kversion's configs and series"
elif [ -n "$kversion" ] && [[ $KSRC_KERNEL != "$kversion" && $KSRC_KERNEL != "$kversion".* ]]; then
	die "the source is Linux ${KSRC_KERNEL:-of no readable version}, not $kversion (-Dkernel_version=$kversion): name a $kversion source, or configure the version it is"
fi

# --- patch: build the series as commits on a scratch index -----------------
export GIT_INDEX_FILE=$scratch/index
git_ read-tree pristine
head=$(git_ rev-parse pristine)
: >"$scratch/record"
# record SERIES SUBJECT AUTHOR KIND VALUE: one patch for series.json.
record() { printf '%s\0' "$@" >>"$scratch/record"; }

# commit_mail MAIL: the commit of the scratch index's tree, with the
# author, date and message git am takes from MAIL (git mailinfo, as am
# runs it); sets subject and author for the caller.
commit_mail() {
	local mail=$1 name email date tree
	git mailinfo "$scratch/msg" "$scratch/diff" <"$mail" >"$scratch/info"
	subject=$(sed -n 's/^Subject: //p' "$scratch/info")
	name=$(sed -n 's/^Author: //p' "$scratch/info")
	email=$(sed -n 's/^Email: //p' "$scratch/info")
	date=$(sed -n 's/^Date: //p' "$scratch/info")
	author="$name <$email>"
	tree=$(git_ write-tree)
	{ printf '%s\n' "$subject"; [ ! -s "$scratch/msg" ] || { echo; cat "$scratch/msg"; }; } >"$scratch/message"
	head=$(GIT_AUTHOR_NAME=${name:-unknown} GIT_AUTHOR_EMAIL=${email:-unknown} \
		GIT_AUTHOR_DATE=${date:-@0 +0000} GIT_COMMITTER_DATE=${date:-@0 +0000} \
		git_ commit-tree "$tree" -p "$head" -F "$scratch/message")
}
# apply_series DIR [NAME]: each patch of DIR/series (bpfwire's), in order,
# as one commit; a failure names the version and what to do.
apply_series() {
	local dir=$1 name=${2:-$(basename "$1")} p
	[ -f "$dir/series" ] || die "$dir/series does not exist"
	phase "patch: applying $(grep -cv '^\s*\(#\|$\)' "$dir/series") patches from $dir/series"
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$dir/$p" ] || die "patch $p is listed in $dir/series but missing"
		# On failure ksrc_apply has said which hunk and what to do; the
		# work tree was never touched.
		ksrc_apply "$src" "$dir/$p" || exit 1
		commit_mail "$dir/$p"
		record "$name" "$subject" "$author" file "$p"
	done <"$dir/series"
}

# A user's series: one message at a time, as git am would apply it.
user_n=0 user_total=0
# apply_user_mail MAIL WHAT KIND VALUE: WHAT names it in messages.
apply_user_mail() {
	local mail=$1 what=$2 kind=$3 value=$4 err after
	git mailinfo "$scratch/msg" "$scratch/diff" <"$mail" >"$scratch/info" ||
		die "$what: git mailinfo cannot read this message"
	subject=$(sed -n 's/^Subject: //p' "$scratch/info")
	if [ ! -s "$scratch/diff" ]; then
		# b4 am writes the cover letter apart; a 0/N kept in an mbox
		# carries no diff.
		echo "kernel: note: $what (\"$subject\") has no diff, skipped (a cover letter?)"
		return 0
	fi
	user_n=$((user_n + 1))
	if ! err=$(git_ apply --cached --whitespace=nowarn "$scratch/diff" 2>&1); then
		{
			case $user_n in 1) after= ;; 2) after=" after patch 1" ;; *) after=" after patches 1-$((user_n - 1))" ;; esac
			echo "kernel: error: patch $user_n \"$subject\" ($what) does not apply to $KSRC_DESC$after"
			echo "$err" | grep -v 'while searching for' | grep . | sed 's/^/kernel:   git apply: /'
			ksrc_report_hunks "$src" "$scratch/diff" kernel: || true
			echo "kernel:   Patch failed at $(printf '%04d' "$user_n") $subject"
			echo "kernel:   Nothing was applied: the build's tree is as it was; the next build starts again from the base."
		} >&2
		exit 1
	fi
	commit_mail "$mail"
	record user "$subject" "$author" "$kind" "$value"
}
# split_mail FILE DIR: the messages of FILE into DIR (0001, 0002...), or
# a one-line error when FILE is no mbox.
split_mail() {
	local file=$1 dir=$2 err shown=${3:-$1}
	mkdir -p "$dir"
	if ! err=$(git mailsplit -o"$dir" "$file" 2>&1 >/dev/null) || [ -z "$(ls -A "$dir")" ]; then
		die "$shown is not an mbox (git mailsplit: ${err:-no message in it}): give git format-patch or b4 am output, or a directory with a series file"
	fi
}
mbox_sha=
apply_user() {
	local up=$1 p i m shown=${patches_shown:-$1}
	if [ -d "$up" ]; then
		[ -f "$up/series" ] || die "$shown has no series file: list its patches in $shown/series, one a line, in order"
		user_total=$(grep -cv '^\s*\(#\|$\)' "$up/series" || true)
		phase "patch: applying $user_total patches from $shown/series (git am semantics)"
		i=0
		while read -r p; do
			case "$p" in ''|'#'*) continue ;; esac
			[ -f "$up/$p" ] || die "patch $p is listed in $shown/series but missing"
			i=$((i + 1))
			split_mail "$up/$p" "$scratch/mail.$i" "$shown/$p"
			for m in "$scratch/mail.$i"/*; do apply_user_mail "$m" "$p" file "$p"; done
		done <"$up/series"
	else
		mbox_sha=$(sha256sum <"$up" | cut -d' ' -f1)
		split_mail "$up" "$scratch/mbox" "$shown"
		phase "patch: applying $(ls "$scratch/mbox" | wc -l) messages of $shown (sha256 ${mbox_sha:0:16}, git am semantics)"
		for m in "$scratch/mbox"/*; do
			apply_user_mail "$m" "mbox message $((10#$(basename "$m")))" mbox_index "$((10#$(basename "$m")))"
		done
	fi
	[ "$user_n" -gt 0 ] || die "$shown holds no patch: no message in it has a diff"
}

# --range-base: the base series as branch base, then the series from the
# same pristine as branch series; what git says of the two, as text files.
range_diff() {
	local side c n id
	phase "range: applying the base series $range_shown"
	patches_shown=$range_shown apply_user "$range_base"
	git_ branch -f base "$head"
	phase "range: applying the series ${patches_shown:-$user_patches}"
	git_ read-tree pristine
	head=$(git_ rev-parse pristine) user_n=0
	rm -rf "$scratch/mbox" "$scratch"/mail.*
	apply_user "$user_patches"
	git_ branch -f series "$head"
	git_ range-diff --no-color pristine..base pristine..series >"$dest/range-diff.txt"
	git_ range-diff --no-color --no-patch pristine..base pristine..series >"$dest/range-pairs.txt"
	{
		[ "$(git_ rev-parse 'base^{tree}')" = "$(git_ rev-parse 'series^{tree}')" ] && echo "tree same" ||
			echo "tree differs"
		for side in base series; do
			n=0
			for c in $(git_ rev-list --reverse "pristine..$side"); do
				n=$((n + 1))
				id=$(git_ show --no-color --no-ext-diff --format='commit %H' "$c" | git patch-id --stable | cut -d' ' -f1)
				printf '%s %d %s %s\n' "$side" "$n" "${id:--}" "$(git_ log -1 --format=%s "$c")"
			done
		done
	} >"$dest/range-patches.txt"
	phase "range: $(grep -c '^base ' "$dest/range-patches.txt") base patches, $(grep -c '^series ' "$dest/range-patches.txt") patches of the series, $(head -1 "$dest/range-patches.txt")"
}

netpoll_applied=true
if [ -n "$range_base" ]; then
	range_diff
	exit 0
fi
if [ -n "$user_patches" ]; then
	[ "$user_patches" = none ] || apply_user "$user_patches"
	if [ "$fit" = true ]; then
		phase "fit: the series applies to $KSRC_DESC"
		exit 0
	fi
	has_netpoll=false
	git_ ls-files --error-unmatch net/core/bpf_netpoll.c >/dev/null 2>&1 && has_netpoll=true
	netpoll_applied=false
	if [ "$netpoll" = true ] || { [ "$netpoll" = auto ] && [ "$has_netpoll" = false ]; }; then
		[ -n "$netpoll_dir" ] || die "--netpoll $netpoll needs --netpoll-series DIR"
		if [ "$has_netpoll" = true ]; then
			die "-Dkernel_netpoll=true, but the tree already has net/core/bpf_netpoll.c: use auto or false"
		fi
		apply_series "$netpoll_dir" netpoll
		netpoll_applied=true
	elif [ "$has_netpoll" = true ]; then
		phase "patch: the tree has bpf_netpoll: bpfwire's netpoll series not applied"
	else
		phase "patch: no bpf_netpoll in the tree and -Dkernel_netpoll=false: netpoll tests and scenarios will be SKIP"
	fi
else
	apply_series "$patches"
	[ -z "$fixes" ] || apply_series "$fixes"
fi
for d in "${series[@]}"; do apply_series "$d"; done
unset GIT_INDEX_FILE
# A symlink the patches add or change must stay inside the tree: root and
# the build follow them.
git_ diff --raw --no-renames -z pristine "$head" | tr '\0' '\n' | paste - - |
	awk -F'\t' '$1 ~ /^:[0-7]+ 120000 [0-9a-f]+ [0-9a-f]+ [AMT]$/ { print $2 }' >"$scratch/links"
while read -r l; do
	[ -n "$l" ] || continue
	t=$(git_ cat-file blob "$head:$l")
	r=$(realpath -m --relative-to=/tree "/tree/$(dirname "$l")/$t")
	case "$t:$r" in
	/*|*:../*|*:..) die "the series makes $(printf %q "$l") a symlink to $(printf %q "$t"), outside the tree: refused" ;;
	esac
done <"$scratch/links"
# Checkout only rewrites the files that differ, keeping make incremental.
if ! git_ rev-parse -q --verify HEAD >/dev/null; then
	git_ checkout -q -f --detach "$head"
	phase "patch: $(git_ ls-files | wc -l) files checked out"
elif [ "$(git_ rev-parse HEAD^{tree})" != "$(git_ rev-parse "$head^{tree}")" ]; then
	changed=$(git_ diff --name-only HEAD "$head" | wc -l)
	git_ checkout -q -f --detach "$head"
	phase "patch: $changed files changed"
else
	git_ update-ref --no-deref HEAD "$head"
	phase "patch: tree unchanged"
fi

# series.json: what went in, for every run's summary.json.
write_series_json() {
	[ -n "$series_tool" ] || return 0
	local a=() f
	[ "$kind" = tarball ] && a+=(--base-name "$base_name") || a+=(--base-commit "$base_commit")
	[ "$kind" != git ] || [ "$base_dirty" = false ] || a+=(--dirty)
	[ -z "$KSRC_PKG" ] || a+=(--package-version "$KSRC_PKG")
	[ -z "$mbox_sha" ] || a+=(--mbox-sha256 "$mbox_sha")
	[ -z "$user_patches" ] || a+=(--patches-source "${patches_shown:-$user_patches}")
	[ -z "$kversion" ] || a+=(--kernel-version "$KSRC_KERNEL")
	for f in "${fragments[@]}"; do a+=(--fragment "$f"); done
	"$series_tool" --out "$scratch/series.json" --flavour "${flavour:-unnamed}" \
		--release "$(cat "$obj/include/config/kernel.release")" --base-kind "$kind" \
		--netpoll-series "$netpoll_applied" --patches "$scratch/record" "${a[@]}" ||
		die "could not write $dest/series.json"
	# Rewritten only when it changed: ninja restats the outputs.
	cmp -s "$scratch/series.json" "$dest/series.json" || mv "$scratch/series.json" "$dest/series.json"
}

# Same tree, fragment and script as the last good build, and no hand edits
# in src: nothing to do, so skip the config and make passes (~10 s).
# Inside the sandbox the fragments' text comes from root, read already.
fragment_cat() { if [ -n "$fragment_text" ]; then cat "$fragment_text"; else cat "${fragments[@]}"; fi; }
inputs="$(git_ rev-parse HEAD^{tree}) $( (fragment_cat; cat "$0"; echo "$localversion") | sha256sum | cut -c1-16)"
if [ "$(cat "$dest/.bpfwire-built" 2>/dev/null)" = "$inputs" ] &&
   git_ diff --quiet HEAD -- && [ -f "$dest/bzImage" ] && [ -f "$dest/vmlinux.h" ]; then
	write_series_json
	phase "build: up to date ($inputs)"
	exit 0
fi
rm -f "$dest/.bpfwire-built"

# --- config: allnoconfig + kvm_guest.config + lab.config --------------------
phase "config"
mkdir -p "$obj"
fragment_cat >"$obj/lab.fragment"
# CONFIG_BPF_NETPOLL exists only where the netpoll series is: a tree
# without it (a reviewer's series, -Dkernel_netpoll=false) is not asked.
netpoll_cfg='^(CONFIG_BPF_NETPOLL=|# CONFIG_BPF_NETPOLL is not set)'
no_netpoll=false
if ! git_ ls-files --error-unmatch net/core/bpf_netpoll.c >/dev/null 2>&1 &&
   grep -qE "$netpoll_cfg" "$obj/lab.fragment"; then
	no_netpoll=true
	phase "config: no net/core/bpf_netpoll.c in the tree: CONFIG_BPF_NETPOLL is not asked for"
	grep -vE "$netpoll_cfg" "$obj/lab.fragment" >"$obj/lab.fragment.new" || true
	mv "$obj/lab.fragment.new" "$obj/lab.fragment"
fi
# The tree's own fragment, from git: a file, never a link to follow.
[ "$(git_ ls-tree HEAD kernel/configs/kvm_guest.config | cut -c1-6)" = 100644 ] ||
	die "kernel/configs/kvm_guest.config is not a plain file in the patched tree: refused"
git_ show HEAD:kernel/configs/kvm_guest.config | cat - "$obj/lab.fragment" >"$obj/bpfwire.fragment"
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 "$@"; }
KCONFIG_CONFIG=.config.new KCONFIG_ALLCONFIG="$obj/bpfwire.fragment" kmake allnoconfig >/dev/null
KCONFIG_CONFIG=.config.new kmake olddefconfig >/dev/null
if [ -n "$fragment_wanted" ]; then cp "$fragment_wanted" "$obj/lab.wanted"; else wanted_table >"$obj/lab.wanted"; fi
if [ "$no_netpoll" = true ]; then
	awk -F'\t' '$1 != "CONFIG_BPF_NETPOLL"' "$obj/lab.wanted" >"$obj/lab.wanted.new"
	mv "$obj/lab.wanted.new" "$obj/lab.wanted"
fi
bad=0
while IFS=$'\t' read -r sym want frag; do
	grep -qxF "$want" "$obj/.config.new" && continue
	got=$(grep -E "^($sym=|# $sym is not set$)" "$obj/.config.new" || true)
	# Not set and not offered is still "not set".
	[ -z "$got" ] && [ "$want" = "# $sym is not set" ] && continue
	if [ -n "$got" ]; then
		why="olddefconfig made it '$got' (a dependency is off, or a later choice overrides it)"
	elif git_ grep -qE "^[[:space:]]*(menu)?config[[:space:]]+${sym#CONFIG_}[[:space:]]*\$" HEAD -- '*Kconfig*'; then
		why="olddefconfig left it out: its dependencies are not met in this tree"
	else
		why="this tree has no such symbol: no Kconfig file defines ${sym#CONFIG_}"
	fi
	echo "kernel: error: $frag asks for '$want': $why" >&2
	bad=$((bad + 1))
done <"$obj/lab.wanted"
[ "$bad" = 0 ] || die "$bad config symbols were dropped or changed (named above with their fragment); nothing was built"
# Whatever set them (a fragment, or a series' Kconfig default), these name
# files the build reads from the host into the kernel.
for sym in INITRAMFS_SOURCE EXTRA_FIRMWARE SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS \
	SYSTEM_BLACKLIST_HASH_LIST UNUSED_KSYMS_WHITELIST MODULE_SIG_KEY; do
	v=$(sed -n "s/^CONFIG_$sym=\"\(.*\)\"\$/\1/p" "$obj/.config.new")
	[ -z "$v" ] || { [ "$sym" = MODULE_SIG_KEY ] && [ "$v" = certs/signing_key.pem ]; } ||
		die "the config sets CONFIG_$sym=\"$v\": a host path the build would read into the kernel; refused"
done
if ! cmp -s "$obj/.config.new" "$obj/.config"; then
	mv "$obj/.config.new" "$obj/.config"
else
	rm -f "$obj/.config.new"
fi

# --- build -----------------------------------------------------------------
[ "$jobs" -gt 0 ] || jobs=$(( $(nproc) + 1 ))
cc=gcc
if command -v ccache >/dev/null 2>&1; then
	# a wrapper: a source with .incbin bypasses the cache (ccache-cc.sh)
	cc="$(cd "$(dirname "$0")" && pwd)/ccache-cc.sh"
	# Paths relative to the build root let a fresh clone reuse the cache.
	export CCACHE_BASEDIR=$(dirname "$src") CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros,include_file_mtime,include_file_ctime,locale
	# Depend mode: a miss does not run the preprocessor a second time, the
	# compiler's -MMD list names the headers. net/ipv4 with an empty cache:
	# 78 s, 58 s in depend mode, 48 s without ccache; hits 6 s either way.
	export CCACHE_DEPEND=1
fi
# The object total of the last build of this config, so progress has a scale.
# Kept per user, like ccache, so a fresh clone knows it too.
objects_db=${XDG_CACHE_HOME:-$HOME/.cache}/bpfwire/kernel-objects
mkdir -p "$(dirname "$objects_db")" 2>/dev/null || objects_db=$dest/.bpfwire-objects
cfgsum=$(sha256sum <"$obj/.config" | cut -c1-16)
total=$(awk -v k="$cfgsum" '$1 == k { t = $2 } END { print t }' "$objects_db" 2>/dev/null || true)
phase "build: make -j$jobs CC='$cc' bzImage${total:+ (this config: $total objects last time)}"
# A fixed build identity keeps init/version.c, and so ccache, stable.
export KBUILD_BUILD_USER=bpfwire KBUILD_BUILD_HOST=bpfwire KBUILD_BUILD_TIMESTAMP="@$base_time"
# LOCALVERSION on the command line stops setlocalversion appending "+"
# for the git-managed tree; CONFIG_LOCALVERSION still names bpfwire. A
# suffix here changes only the release string, not autoconf.h, so ccache
# still serves a second flavour that differs only in its patches.
make -C "$src" O="$obj" ARCH=x86_64 CC="$cc" HOSTCC=gcc LOCALVERSION="$localversion" -j"$jobs" bzImage >"$dest/build.log" 2>&1 &
mk=$!
trap 'kill $mk 2>/dev/null; rm -rf "$scratch"' EXIT
# A line at least every 30 s: a silent 10-minute step looks hung.
while kill -0 "$mk" 2>/dev/null; do
	for _ in $(seq 30); do kill -0 "$mk" 2>/dev/null || break; sleep 1; done
	kill -0 "$mk" 2>/dev/null || break
	phase "build: $(grep -cE '^  (CC|AS) ' "$dest/build.log" || true) objects compiled${total:+ of about $total}"
done
if ! wait "$mk"; then
	grep -E 'error|Error' "$dest/build.log" | head -20 >&2
	die "make failed; full log in $dest/build.log"
fi
trap 'rm -rf "$scratch"' EXIT
# The bzImage boots the vmlinux just linked: its payload is vmlinux.bin
# (then the relocations). A cached piggy.o once carried the build
# before (ccache-cc.sh), and a review tested the wrong kernel.
vbin=$obj/arch/x86/boot/compressed/vmlinux.bin
sh "$src/scripts/extract-vmlinux" "$obj/arch/x86/boot/bzImage" >"$scratch/payload" 2>/dev/null ||
	die "no kernel found in $obj/arch/x86/boot/bzImage (scripts/extract-vmlinux)"
cmp -s -n "$(stat -c %s "$vbin")" "$scratch/payload" "$vbin" ||
	die "$obj/arch/x86/boot/bzImage does not carry the vmlinux this build linked (a stale arch/x86/boot/compressed/piggy.o?): delete that file and build again"
n=$(find "$obj" -name '*.o' | wc -l)
{ grep -v "^$cfgsum " "$objects_db" 2>/dev/null || true; echo "$cfgsum $n"; } >"$objects_db.new.$$" &&
	mv "$objects_db.new.$$" "$objects_db" || true

# --- btf -------------------------------------------------------------------
phase "btf: vmlinux.h"
bpftool btf dump file "$obj/vmlinux" format c >"$dest/vmlinux.h.new"
if cmp -s "$dest/vmlinux.h.new" "$dest/vmlinux.h"; then rm "$dest/vmlinux.h.new"; else mv "$dest/vmlinux.h.new" "$dest/vmlinux.h"; fi
ln -f "$obj/arch/x86/boot/bzImage" "$dest/bzImage"
ln -f "$obj/vmlinux" "$dest/vmlinux"
cmp -s "$obj/.config" "$dest/config" || cp "$obj/.config" "$dest/config"
write_series_json
# The kfunc API from the series' BTF (kapi/), parsed here, not by root.
[ -z "$kapi" ] || "$kapi" --btf "$obj/vmlinux" --json "$dest/api.json" >/dev/null ||
	die "bpfwire-kapi could not read $obj/vmlinux's BTF"
echo "$inputs" >"$dest/.bpfwire-built"
phase "done: $(sed -n 's/^CONFIG_LOCALVERSION=//p' "$obj/.config" | tr -d '"') $(cat "$obj/include/config/kernel.release")"
