#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Test glue: a stand-in for test_progs that bpfwire-selftests-run drives in
# the unit test (no kernel): -l lists four tests; -a NAME behaves as:
# good (two subtests, OK), bad (a subtest FAILs), crash (dies with no
# result line), sleepy (sleeps in a child too, past any watchdog; its
# pids into $FAKE_PIDS).
case "$1" in
-l) printf 'bad\ncrash\ngood\nsleepy\n'; exit 0 ;;
-a) ;;
*) exit 2 ;;
esac
case "$2" in
good) echo "#3/1     good/one:OK"; echo "#3/2     good/two:OK"; echo "#3       good:OK" ;;
bad) echo "bad: ASSERT_EQ failed, 1 != 2"; echo "#1/1     bad/sub:FAIL"; echo "#1       bad:FAIL"; exit 1 ;;
crash) echo "about to crash"; kill -SEGV $$ ;;
sleepy) echo "#4/1     sleepy/first:OK"; sleep 300 &
	[ -n "${FAKE_PIDS:-}" ] && echo "$$ $!" >"$FAKE_PIDS"
	sleep 300 ;;
esac
