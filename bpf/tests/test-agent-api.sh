#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# agent-api: bpfwire-agent --btf FILE on made-up kernels (kapi-fake-btf):
# a changed connect exits 3 with the prototype found beside the expected
# ones, a kernel without ksock or netpoll exits 3 naming what is missing,
# the seed's and upstream's would install. --btf loads nothing, so this
# runs on the host, as any user.
# usage: test-agent-api.sh BPFWIRE-AGENT KAPI-FAKE-BTF [VMLINUX]
. "$(dirname "$0")/../../lab/tests/tap.sh"
agent=$1 fake=$2 vmlinux=${3:-}
tap_tmpdir
dst="--dst 192.0.2.20:7000 --events open --path-prefix /tmp/w/"

# agent VARIANT VIA [OPTIONS]: its status in $rc, stderr and stdout in $tmp/out
agent() {
	v=$1 via=$2
	shift 2
	"$fake" "$v" "$tmp/$v.btf" || { echo "# kapi-fake-btf $v failed"; exit 1; }
	"$agent" --via "$via" $dst --btf "$tmp/$v.btf" "$@" >"$tmp/out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/out"
}
has() { grep -qF -- "$1" "$tmp/out"; }

agent connect-flags ksock
t $([ $rc = 3 ]; echo $?) "ksock, connect with a fourth argument: exit 3 (got $rc)"
has "has a ksock API bpfwire does not know: not installed (exit 3)"
t $? "  says the API is unknown and nothing was installed"
has "found     int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz, u32 flags);"
t $? "  prints the prototype found"
has "upstream  int bpf_ksock_connect(struct bpf_ksock *ks, const union bpf_ksock_addr *addr, u32 addr__sz);" &&
	has "seed      int bpf_ksock_connect(struct bpf_ksock *ks, const struct bpf_ksock_addr_opts *opts, u32 opts__sz);"
t $? "  beside the seed's and upstream's"
has "bpf_ksock_send"
t $([ $? != 0 ]; echo $?) "  and not the kfuncs that match"

agent create-12 ksock
t $([ $rc = 3 ] && has "/* struct bpf_ksock_create_opts: 12 bytes */"; echo $?) "ksock, 12-byte create opts: exit 3, the size shown (got $rc)"

agent no-ksock ksock
t $([ $rc = 3 ] && has "has no ksock kfuncs"; echo $?) "ksock on a kernel without ksock: exit 3, said (got $rc)"

agent no-netpoll netpoll --dev eth0 --remote-mac 52:54:00:00:00:01
t $([ $rc = 3 ] && has "has no netpoll kfuncs"; echo $?) "netpoll on a kernel without netpoll: exit 3, said (got $rc)"

agent no-netpoll ksock
t $([ $rc = 0 ] && has "ksock API upstream: the ksock sender would install; nothing loaded"; echo $?) \
	"ksock on that kernel (upstream): would install, exit 0 (got $rc)"
agent seed ksock --bind 192.0.2.10:5555
t $([ $rc = 0 ] && has "ksock API seed"; echo $?) "ksock --bind on the seed: would install (got $rc)"
agent upstream ksock --bind 192.0.2.10:5555
t $([ $rc = 1 ] && has "--bind needs bpf_ksock_bind"; echo $?) "ksock --bind on upstream: exit 1, the option refused (got $rc)"
# --sndbuf needs bpfwire's sndbuf extension, which the BTF shows (kapi/).
sndbuf_refused="--sndbuf needs bpfwire's sndbuf extension (kernel/patches/sndbuf: bpf_ksock_create_opts.sndbuf), which BTF $tmp"
agent seed ksock --sndbuf 65536
t $([ $rc = 1 ] && has "$sndbuf_refused/seed.btf (the seed ksock API) lacks: drop --sndbuf, or run a kernel with the extension"; echo $?) \
	"ksock --sndbuf on the posted seed (no sndbuf extension): exit 1, the extension named (got $rc)"
agent upstream ksock --sndbuf 65536
t $([ $rc = 1 ] && has "$sndbuf_refused/upstream.btf (the upstream ksock API) lacks"; echo $?) \
	"ksock --sndbuf on upstream: exit 1, the extension named (got $rc)"
agent seed-sndbuf ksock --sndbuf 65536
t $([ $rc = 0 ] && has "ksock API seed: the ksock sender would install"; echo $?) \
	"ksock --sndbuf on the seed with the sndbuf extension: would install (got $rc)"
agent seed ksock
t $([ $rc = 0 ]; echo $?) "ksock without --sndbuf on the posted seed: would install (got $rc)"
agent connect-flags ringbuf
t $([ $rc = 0 ]; echo $?) "ringbuf needs no kfunc: exit 0 (got $rc)"

# --encrypt. Whether LSM programs may call the crypto kfuncs is
# the running kernel's to say (the guest tests check it), so --btf passes.
printf '%s\n' 000102030405060708090a0b0c0d0e0f2b7e151628aed2a6abf7158809cf4f3c >"$tmp/k64"
chmod 600 "$tmp/k64"
agent seed ksock --key-file "$tmp/k64" --encrypt
t $([ $rc = 0 ] && has "would install"; echo $?) "ksock --encrypt: would install (got $rc)"
agent seed netpoll --dev eth0 --remote-mac 52:54:00:00:00:01 --key-file "$tmp/k64" --encrypt
t $([ $rc = 0 ] && has "would install"; echo $?) "netpoll --encrypt: would install (got $rc)"
agent seed ksock --key-file "$tmp/k64" --encrypt --batch 4
t $([ $rc = 2 ] && has "--encrypt encrypts one event per datagram: drop --batch"; echo $?) \
	"ksock --encrypt --batch 4: usage, exit 2 (got $rc)"
agent seed ringbuf --key-file "$tmp/k64" --encrypt
t $([ $rc = 0 ]; echo $?) "ringbuf --encrypt: it would run (got $rc)"
agent seed ringbuf --encrypt
t $([ $rc = 2 ] && has "--encrypt needs --key-file FILE"; echo $?) "--encrypt without --key-file: usage, exit 2 (got $rc)"

if [ -n "$vmlinux" ] && [ -f "$vmlinux" ]; then
	"$agent" --via ksock $dst --btf "$vmlinux" >"$tmp/out" 2>&1
	rc=$?
	sed 's/^/# /' "$tmp/out"
	t $([ $rc = 0 ]; echo $?) "this build's vmlinux: a known ksock API, exit 0 (got $rc)"
fi
"$agent" --via ksock $dst --btf "$tmp/missing" >"$tmp/out" 2>&1
rc=$?
t $([ $rc = 1 ] && has "couldn't read BTF from $tmp/missing"; echo $?) "a missing --btf file: exit 1, named (got $rc)"
tap_done
