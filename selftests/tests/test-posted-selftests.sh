#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The posted series' own selftests, as their authors posted them (the
# project's shared/seeds/: netpoll 002-004, ksock 009-011), unmodified,
# on the kernel of this build (bpfwire's port of those series, Linux 7.2)
# with the tree's own test_progs: test-selftests.sh with the patches
# applied to copies of the tree's selftests (build.sh --apply). Each test
# and subtest has its TAP line; a failure says why in its output.
#
#   test-posted-selftests.sh SEEDS LAB RUNNER DECLS CLANG KERNEL_DIR OUT
set -u
seeds=$1
shift
if [ ! -d "$seeds" ]; then
	echo "1..0 # SKIP $seeds is absent (the posted series ship with the project's shared folder, not with a clone)"
	exit 0
fi
set -- "$@" "$seeds"/00[2-4]-*.patch "$seeds"/009-*.patch "$seeds"/01[01]-*.patch
for p in "$@"; do
	case $p in *\**) echo "1..0 # SKIP $seeds lacks the selftests patches ($p)"; exit 0 ;; esac
done
echo "# the posted selftests: $(for p in "$@"; do case $p in *.patch) printf '%s ' "$(basename "$p")" ;; esac; done)"
SELFTESTS_APPLY=1 exec "$(dirname "$0")/test-selftests.sh" "$@"
