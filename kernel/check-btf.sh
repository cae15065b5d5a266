#!/bin/bash
# TAP: the built vmlinux carries every kfunc of the series in its BTF, and
# vmlinux.h has the opts structs that bpf/ compiles against.
set -u
vmlinux=$1 header=$2 config=$3
kfuncs="bpf_netpoll_create bpf_netpoll_acquire bpf_netpoll_release bpf_netpoll_send_udp
bpf_ksock_create bpf_ksock_bind bpf_ksock_connect bpf_ksock_send bpf_ksock_acquire bpf_ksock_release"
structs="bpf_ksock_create_opts bpf_ksock_addr_opts bpf_netpoll_opts"
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

btf=$(bpftool btf dump file "$vmlinux" 2>&1) || { echo "Bail out! bpftool btf dump failed: $btf"; exit 1; }
echo "1..$(( $(echo $kfuncs | wc -w) + $(echo $structs | wc -w) + 2 ))"
for f in $kfuncs; do
	grep -q "FUNC '$f' " <<<"$btf"; ok $? "BTF has kfunc $f"
done
for s in $structs; do
	grep -q "^struct $s {" "$header"; ok $? "vmlinux.h defines struct $s"
done
grep -q '^CONFIG_LOCALVERSION="-bpfwire"$' "$config"; ok $? "LOCALVERSION names bpfwire"
grep -q '^CONFIG_BPF_NETPOLL=y$' "$config"; ok $? "CONFIG_BPF_NETPOLL=y"
exit $fail
