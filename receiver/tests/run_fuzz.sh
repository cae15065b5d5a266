#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Bounded libFuzzer run of the receiver pipeline from the crafted seeds.
# usage: run_fuzz.sh FUZZ_RX FUZZ_SEEDS [libFuzzer flags, e.g. -runs=1000000]
# Exit 0 only when libFuzzer ends without a crash, leak or sanitizer report;
# a crashing input is kept and its path printed.
set -u
FUZZ=$1
SEEDS=$2
shift 2
TMP=$(mktemp -d /tmp/bpfwire-recv-fuzz-XXXXXX)
mkdir "$TMP/corpus" "$TMP/artifacts"
"$SEEDS" "$TMP/corpus" || { rm -rf "$TMP"; exit 1; }
"$FUZZ" -artifact_prefix="$TMP/artifacts/" -print_final_stats=1 "$@" "$TMP/corpus" \
	>"$TMP/log" 2>&1
rc=$?
grep -E '^stat::number_of_executed_units|^stat::average_exec_per_sec|^Done' "$TMP/log"
if [ $rc -ne 0 ] || [ -n "$(ls "$TMP/artifacts")" ]; then
	tail -50 "$TMP/log"
	echo "fuzzing failed (exit $rc); inputs kept in $TMP/artifacts"
	exit 1
fi
rm -rf "$TMP"
exit 0
