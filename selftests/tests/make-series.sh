#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Test glue: write the test-made selftests series, made at test time with
# git format-patch from bpfwire's own selftests (made/: bpfwire_netpoll,
# bpfwire_ksock and bpfwire_hang, which hangs on purpose; each named
# bpfwire_ so that no tree's own test has its name: Linux 7.3 has
# prog_tests/ksock.c), as a series of selftests alone
# that adds them under tools/testing/selftests/bpf. The shipped series
# carry no selftests, so the kernel suite's `selftests` case builds these.
#
#   make-series.sh MADE_DIR OUT_DIR
#
# OUT_DIR gets one patch per test and a series file.
set -eu
made=$(realpath "$1") out=$(realpath -m "$2")
sel=tools/testing/selftests/bpf
[ -d "$made/prog_tests" ] || { echo "make-series.sh: $made has no prog_tests/" >&2; exit 2; }
tmp=$(mktemp -d /tmp/selftests-series.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
git init -q "$tmp/g"
export GIT_AUTHOR_NAME=bpfwire GIT_AUTHOR_EMAIL=bpfwire@example.invalid \
	GIT_COMMITTER_NAME=bpfwire GIT_COMMITTER_EMAIL=bpfwire@example.invalid \
	GIT_AUTHOR_DATE='2026-01-01 00:00:00 +0000' GIT_COMMITTER_DATE='2026-01-01 00:00:00 +0000'
git -C "$tmp/g" commit -q --allow-empty -m base
mkdir -p "$tmp/g/$sel/prog_tests" "$tmp/g/$sel/progs"
for t in "$made"/prog_tests/*.c; do
	n=$(basename "$t" .c)
	cp "$t" "$tmp/g/$sel/prog_tests/"
	git -C "$tmp/g" add "$sel/prog_tests/$n.c"
	case "$n" in bpfwire_*) p=$n ;; *) p=bpfwire_$n ;; esac
	if [ -f "$made/progs/$p.c" ]; then
		cp "$made/progs/$p.c" "$tmp/g/$sel/progs/"
		git -C "$tmp/g" add "$sel/progs/$p.c"
	fi
	git -C "$tmp/g" commit -q -m "selftests/bpf: add bpfwire's $n test"
done
rm -rf "$out"
mkdir -p "$out"
git -C "$tmp/g" format-patch -q -o "$out" HEAD~$(ls "$made"/prog_tests/*.c | wc -l)
(cd "$out" && ls *.patch) >"$out/series"
echo "make-series.sh: $(wc -l <"$out/series") patches in $out"
