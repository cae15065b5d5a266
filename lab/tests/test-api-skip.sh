#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lab-api-skip: `run` decides from the kernel's kfunc API (kapi/), read
# before boot from api.json or the vmlinux beside the bzImage, whether a
# scenario fits: SKIP (exit 77) with the reason when the ksock API is
# unknown or absent, when netpoll is missing, or when `series` does not
# list the API. Nothing boots: a made-up bzImage header, --dry-run.
# usage: test-api-skip.sh BPFWIRE-LAB BPFWIRE-KAPI KAPI-FAKE-BTF
. "$(dirname "$0")/tap.sh"
lab=$1 kapi=$2 fake=$3
tap_tmpdir

# A kernel dir: a bzImage whose setup header says release $1.
kdir() {
	d=$tmp/$2
	mkdir -p "$d"
	head -c 1024 /dev/zero >"$d/bzImage"
	printf 'HdrS' | dd of="$d/bzImage" bs=1 seek=$((0x202)) conv=notrunc 2>/dev/null
	printf '\000\001' | dd of="$d/bzImage" bs=1 seek=$((0x20e)) conv=notrunc 2>/dev/null
	printf '%s (test) #1' "$1" | dd of="$d/bzImage" bs=1 seek=$((0x300)) conv=notrunc 2>/dev/null
}
# run SCENARIO DIR: status in $rc, output in $tmp/out (and as comments)
run() {
	"$lab" run "$1" --kernel "$tmp/$2/bzImage" --dry-run >"$tmp/out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/out"
}
has() { grep -qF -- "$1" "$tmp/out"; }

# A v8 whose connect gained an argument, its api.json written by bpfwire-kapi.
kdir 6.12.118-bpfwire-v8 v8
"$fake" connect-flags "$tmp/v8.btf" && "$kapi" --btf "$tmp/v8.btf" --json "$tmp/v8/api.json" >/dev/null ||
	{ echo "Bail out! could not make the v8's api.json"; exit 1; }
run ipv4-ksock v8
t $([ $rc = 77 ]; echo $?) "unknown ksock API (api.json): ipv4-ksock is SKIP, exit 77 (got $rc)"
has "needs ksock; kernel 6.12.118-bpfwire-v8 has a ksock API bpfwire does not know (unknown: its bpf_ksock_* prototypes match neither seed nor upstream, from $tmp/v8/api.json"
t $? "  the reason names the API and the api.json that has the prototypes"
has "would run"
t $([ $? != 0 ]; echo $?) "  and nothing is laid out"
run ringbuf-ipv4 v8
t $([ $rc = 0 ] && has "would run ringbuf-ipv4"; echo $?) "  ringbuf-ipv4 (needs none) runs on it (got $rc)"
run netpoll-ipv4 v8
t $([ $rc = 0 ]; echo $?) "  netpoll-ipv4 (needs netpoll) runs on it (got $rc)"
run agent-killed v8
t $([ $rc = 77 ]; echo $?) "  agent-killed (needs ksock netpoll) is SKIP (got $rc)"

# Upstream without netpoll, from the vmlinux beside the bzImage (no api.json).
kdir 6.12.118-bpfwire-nonetpoll nonp
"$fake" no-netpoll "$tmp/nonp/vmlinux"
run netpoll-ipv4 nonp
t $([ $rc = 77 ] && has "needs netpoll; kernel 6.12.118-bpfwire-nonetpoll has no netpoll kfuncs (netpoll absent, from $tmp/nonp/vmlinux)"; echo $?) \
	"no netpoll (vmlinux): netpoll-ipv4 is SKIP with the reason (got $rc)"
run routed nonp
t $([ $rc = 77 ] && has "needs netpoll"; echo $?) "  routed (ksock and netpoll) is SKIP (got $rc)"
run ipv4-ksock nonp
t $([ $rc = 0 ] && has "would run ipv4-ksock"; echo $?) "  ipv4-ksock runs: the upstream API (got $rc)"
run bind-source nonp
t $([ $rc = 77 ] && has "applies to series 'seed' only; kernel 6.12.118-bpfwire-nonetpoll has the upstream ksock API"; echo $?) \
	"  bind-source (series seed) is SKIP: the API, not the release, decides (got $rc)"

# No ksock at all.
kdir 6.12.118-plain noks
"$fake" no-ksock "$tmp/noks/vmlinux"
run batching noks
t $([ $rc = 77 ] && has "has no ksock kfuncs (ksock API absent"; echo $?) "no ksock: batching is SKIP with the reason (got $rc)"

# The seed's API under a release that names no bpfwire series.
kdir 6.12.118-custom seedk
"$fake" seed "$tmp/seedk/vmlinux"
run bind-source seedk
t $([ $rc = 0 ]; echo $?) "the seed's API (vmlinux) under release -custom: bind-source runs (got $rc)"

# A broken api.json is a usage error, named.
kdir 6.12.118-bpfwire-bad bad
echo '{"ksock": "v8"}' >"$tmp/bad/api.json"
run ipv4-ksock bad
t $([ $rc = 2 ] && has "$tmp/bad/api.json: not an api.json"; echo $?) "a broken api.json: exit 2, named (got $rc)"

# Neither file: the release decides, as before.
kdir 6.12.118-bpfwire-up rel
run bind-source rel
t $([ $rc = 77 ] && has "is the upstream series: not run"; echo $?) "no api.json, no vmlinux: the release decides (got $rc)"
tap_done
