#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Test glue: a stand-in for bpfwire-vcost --object (no kernel): a TAP line
# for each program of each object it is given, one loading with its
# figures and one refused as a TODO; FAKE_VCOST_EXIT its exit status.
n=0
for a in "$@"; do
	case "$a" in --object) continue ;; esac
	o=$(basename "$a")
	n=$((n + 1)); echo "ok $n - $o: good_prog # insns=120 peak_states=3 total_states=7"
	n=$((n + 1)); echo "not ok $n - $o: meant_to_fail # TODO does not load: R1 invalid mem access 'scalar'"
done
echo "libbpf: a warning on stderr" >&2
echo "1..$n"
exit "${FAKE_VCOST_EXIT:-0}"
