#!/bin/bash
# TAP: the built vmlinux carries every kfunc of its series in its BTF, and
# vmlinux.h has the opts types that bpf/ compiles against. The upstream
# flavour has no bind and a union for the address, and the test
# checks that the seed's extras are really gone.
#
#   check-btf.sh VMLINUX VMLINUX_H CONFIG [seed|upstream]
set -u
vmlinux=$1 header=$2 config=$3 series=${4:-seed}
kfuncs="bpf_netpoll_create bpf_netpoll_acquire bpf_netpoll_release bpf_netpoll_send_udp
bpf_ksock_create bpf_ksock_connect bpf_ksock_send bpf_ksock_acquire bpf_ksock_release"
case "$series" in
seed)
	kfuncs="$kfuncs bpf_ksock_bind"
	types="struct:bpf_ksock_create_opts struct:bpf_ksock_addr_opts struct:bpf_netpoll_opts"
	absent="" ;;
upstream)
	types="struct:bpf_ksock_create_opts union:bpf_ksock_addr struct:bpf_netpoll_opts"
	absent="bpf_ksock_bind" ;;
*) echo "Bail out! unknown series '$series' (seed or upstream)"; exit 1 ;;
esac
n=0 fail=0
ok() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi; }

btf=$(bpftool btf dump file "$vmlinux" 2>&1) || { echo "Bail out! bpftool btf dump failed: $btf"; exit 1; }
echo "1..$(( $(echo $kfuncs | wc -w) + $(echo $types | wc -w) + $(echo $absent | wc -w) + 2 ))"
for f in $kfuncs; do
	grep -q "FUNC '$f' " <<<"$btf"; ok $? "BTF has kfunc $f"
done
for f in $absent; do
	! grep -q "FUNC '$f' " <<<"$btf"; ok $? "BTF has no kfunc $f ($series)"
done
for t in $types; do
	grep -q "^${t%%:*} ${t#*:} {" "$header"; ok $? "vmlinux.h defines ${t%%:*} ${t#*:}"
done
grep -q '^CONFIG_LOCALVERSION="-bpfwire"$' "$config"; ok $? "LOCALVERSION names bpfwire"
grep -q '^CONFIG_BPF_NETPOLL=y$' "$config"; ok $? "CONFIG_BPF_NETPOLL=y"
exit $fail
