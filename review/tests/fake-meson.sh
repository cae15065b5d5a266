# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire-review with no kernel and no guest, for its tests: a fake meson
# on PATH, a fake kernel tree as --source (kernel/tests/fake-kernel.sh, so
# the choice of the kernel reads Linux 6.12.0 in a second), a baseline
# build directory, and a mount namespace of its own with a tmpfs on /run,
# so that the machine's locks (which real kernel builds hold) are neither
# waited for nor touched. Sourced after lab/tests/tap.sh and
# kernel/tests/fake-kernel.sh:
#
#   fake_meson_need VAR "$0" "$@"   SKIP unless root, bwrap and the tools;
#                                   re-exec in a mount namespace (VAR set)
#   fake_meson_setup                $tmp (tap_tmpdir) made readable; its
#                                   src (the tree), base, bin/meson
#   fake_meson_forget_base          before each review: the baseline's
#                                   logs go, so that it runs (a clean
#                                   checkout's review reuses them: .commit)
#
# The fake meson: setup makes build.ninja; test --list names kernel-suite
# (or prints $tmp/list); test adds "LOGBASE ARGS" to $tmp/tests.WHO;
# compile and test hang at the step named in $tmp/slow ("compile:review",
# "test:base", ...: STEP:WHO, or STEP:WHO:LOGBASE) with a grandchild
# "hang $tmp" ("test:review" ignoring SIGTERM) and write $tmp/started;
# else test writes meson-logs/LOGBASE.json, one line for kernel-suite:
# its TAP from $tmp/tap.WHO.LOGBASE, else $tmp/tap.WHO, else "ok 1 - a"
# (a line a case), FAIL when one is "not ok", and a duration of
# $tmp/duration seconds (default 1). compile of the review's build copies
# $tmp/tree, when there is one, to its kernel/sbx/src (the sandbox's
# uid's, as build.sh leaves it), $tmp/obj, when there is one, to its
# kernel/sbx/obj, and $tmp/series.json to its kernel/series.json; then,
# when $tmp/setup-fails exists, compile fails before the sandboxed build
# (no kernel/sandboxed-build.started); when $tmp/build-fails exists, it
# becomes the sandbox's make output (kernel/sbx/out/build.log) and compile
# fails after that mark; when $tmp/own-fails exists, compile writes
# kernel/bzImage and fails. $root: the source root.

fake_meson_need() {
	local var=$1 p
	shift
	fake_kernel_need
	for p in unshare setsid flock timeout pgrep git; do
		command -v $p >/dev/null || { echo "1..0 # SKIP no $p (util-linux, procps, git)"; exit 0; }
	done
	if [ -z "${!var:-}" ]; then
		unshare -m true 2>/dev/null || { echo "1..0 # SKIP no mount namespace (unshare -m)"; exit 0; }
		exec unshare -m --propagation private env "$var=1" "$@"
	fi
	mount -t tmpfs -o mode=0755 tmpfs /run || { echo "Bail out! no tmpfs on /run in a mount namespace"; exit 1; }
	lockdir=/run/bpfwire-locks
	mkdir -m 0700 "$lockdir"
}

fake_meson_setup() {
	chmod 755 "$tmp"
	export CCACHE_DIR=$tmp/no-ccache
	fake_kernel "$tmp/src"
	mkdir -p "$tmp/bin" "$tmp/base"
	: >"$tmp/base/build.ninja"
	echo none >"$tmp/slow"
	{
		echo '#!/bin/bash'
		printf 'tmp=%q root=%q\n' "$tmp" "$root"
		cat <<-'FAKE'
		cmd=$1; shift
		case $cmd in
		setup) mkdir -p "$1"; : >"$1/build.ninja"; exit 0 ;;
		configure) exit 0 ;;
		esac
		dir=$2 logbase=
		case $dir in "$tmp/base") who=base ;; *) who=review ;; esac
		case " $* " in *" --list "*) cat "$tmp/list" 2>/dev/null || echo "bpfwire:kernel / kernel-suite"; exit 0 ;; esac
		for ((i = 1; i < $#; i++)); do [ "${!i}" = --logbase ] && { j=$((i + 1)); logbase=${!j}; }; done
		slow=$(cat "$tmp/slow")
		if [ "$slow" = "$cmd:$who" ] || [ "$slow" = "$cmd:$who:$logbase" ]; then
			[ "$slow" != test:review ] || trap '' TERM
			(exec -a "hang $tmp" sleep 300) &
			echo "$cmd:$who" >"$tmp/started"
			wait
			exit 1
		fi
		# compile: a "built" tree and its series.json, as build.sh leaves them
		if [ "$cmd:$who" = compile:review ] && [ -d "$tmp/tree" ]; then
			rm -rf "$dir/kernel/sbx/src"
			mkdir -p "$dir/kernel/sbx"
			cp -a "$tmp/tree" "$dir/kernel/sbx/src"
			[ ! -d "$tmp/obj" ] || cp -a "$tmp/obj" "$dir/kernel/sbx/obj"
			chown -R "$("$root/kernel/sandbox.sh" --uid)" "$dir/kernel/sbx"
			cp "$tmp/series.json" "$dir/kernel/series.json"
			# root's steps fail before the sandboxed build starts: no mark
			[ ! -f "$tmp/setup-fails" ] || { echo "kernel: error: cp: cannot stat 'x': No such file or directory"; exit 1; }
			# a series that applies but does not build: the log build.sh keeps
			if [ -f "$tmp/build-fails" ]; then
				: >"$dir/kernel/sandboxed-build.started"
				mkdir -p "$dir/kernel/sbx/out"
				cp "$tmp/build-fails" "$dir/kernel/sbx/out/build.log"
				echo "kernel: error: make failed" >"$dir/kernel/build.log"
				exit 1
			fi
			# the kernel built, then one of bpfwire's own programs did not
			if [ -f "$tmp/own-fails" ]; then
				: >"$dir/kernel/bzImage"
				exit 1
			fi
		fi
		[ "$cmd" = test ] || exit 0
		echo "$logbase $*" >>"$tmp/tests.$who"
		tap="ok 1 - a"
		for f in "$tmp/tap.$who.$logbase" "$tmp/tap.$who"; do [ -f "$f" ] && { tap=$(cat "$f"); break; }; done
		result=OK
		grep -q '^not ok' <<<"$tap" && result=FAIL
		mkdir -p "$dir/meson-logs"
		printf '{"name": "bpfwire:kernel / kernel-suite", "result": "%s", "duration": %s, "stdout": "%s\\n1..%s\\n"}\n' \
			"$result" "$(cat "$tmp/duration" 2>/dev/null || echo 1)" "$(sed -z 's/\n/\\n/g' <<<"$tap" | sed 's/\\n$//')" \
			"$(wc -l <<<"$tap")" >"$dir/meson-logs/$logbase.json"
		FAKE
	} >"$tmp/bin/meson"
	chmod 755 "$tmp/bin/meson"
}

fake_meson_forget_base() {
	rm -rf "$tmp/base/meson-logs"
}
