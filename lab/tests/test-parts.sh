#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A lab split across two machines: tests/good-parts.topo
# has parts a (underlay 198.51.100.1) and b (198.51.100.2). Two underlay
# netns joined by a veth play the two machines' uplinks; `up --part a` and
# `up --part b` run here as two runs, each booting its one guest, and the
# segment meets over VXLAN: the guests ping each other, their MTU is the
# tunnel's, and down removes both ends. Needs root and a kernel.
# Usage: test-parts.sh BPFWIRE_LAB TOPOLOGY
lab=$1 topo=$2
. "$(dirname "$0")/tap.sh"
tap_need_root
tap_need_kernel
ua=bpfwire-parts-$$-a ub=bpfwire-parts-$$-b
ra=parts-a-$$ rb=parts-b-$$
tmp=$(mktemp -d /tmp/bpfwire-parts.XXXXXX)
cleanup() {
	for i in $ra $rb; do "$lab" down --run "$i" > /dev/null 2>&1; done
	for ns in $ua $ub; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
ip netns add $ua && ip netns add $ub &&
	ip -n $ua link add uplink type veth peer name uplink netns $ub &&
	ip -n $ua addr add 198.51.100.1/24 dev uplink && ip -n $ub addr add 198.51.100.2/24 dev uplink &&
	ip -n $ua link set uplink up && ip -n $ub link set uplink up
t $? "two underlay netns, 198.51.100.1 and .2 on a veth"

"$lab" up -q --run x$$ "$topo" > "$tmp/nopart.out" 2>&1; st=$?
[ $st = 1 ] && grep -q "is split into parts (a b): boot one with --part NAME" "$tmp/nopart.out"
t $? "up of a split topology without --part exits 1 and names the parts (got $st)"
"$lab" up -q --run x$$ --part c "$topo" > "$tmp/badpart.out" 2>&1; st=$?
[ $st = 1 ] && grep -q "part c: topology good-parts has the parts a b" "$tmp/badpart.out"
t $? "--part c (no such part) exits 1 (got $st)"
"$lab" up -q --part a --run $ra --results "$tmp/a" --underlay-netns $ua "$topo"; st=$?
[ $st = 0 ]; t $? "up --part a exits 0 (got $st)"
"$lab" up -q --part b --run $rb --results "$tmp/b" --underlay-netns $ub "$topo"; st=$?
[ $st = 0 ]; t $? "up --part b exits 0 (got $st)"
"$lab" status --run $ra | grep -E "^(guest|link) " | sed 's/^/#   /'
ng=$("$lab" status --run $ra | grep -c "^guest ")
[ "$ng" = 1 ]; t $? "part a booted one guest (got $ng)"
va=$(ip -n bpfwire-$ra -d link show master br-lan | grep -o 'vxlan id [0-9]* remote 198.51.100.2')
vb=$(ip -n bpfwire-$rb -d link show master br-lan | grep -o 'vxlan id [0-9]* remote 198.51.100.1')
[ -n "$va" ] && [ "${va% remote*}" = "${vb% remote*}" ]
t $? "each part's end is a port of br-lan, with the same VNI ($va / $vb)"
ip netns exec $ua nft list table inet bpfwire-$ra 2>/dev/null |
	grep -q "ip saddr 198.51.100.2 udp dport 4789 @th,96,24 .* accept" &&
	ip netns exec $ub nft list table inet bpfwire-$rb 2>/dev/null | grep -q "udp dport 4789 @th,96,24 .* drop"
t $? "each underlay takes the VNI from the other part only (the nft pin)"
out=$("$lab" exec --run $ra left -- busybox ping -c 3 -W 2 192.0.2.20 2>&1); st=$?
[ $st = 0 ]; t $? "left (part a) pings right (part b) across the VXLAN (got $st)"
[ $st = 0 ] || echo "$out" | sed 's/^/#   /'
out=$("$lab" exec --run $rb right -- busybox ping -c 1 -W 2 192.0.2.10 2>&1); st=$?
[ $st = 0 ]; t $? "and back (got $st)"
mtu=$("$lab" exec --run $ra left -- cat /sys/class/net/eth0/mtu)
[ "$mtu" = 1450 ]; t $? "left's eth0 has the tunnel's MTU (got $mtu)"
"$lab" down --run $ra > /dev/null; sa=$?
"$lab" down --run $rb > /dev/null; sb=$?
[ $sa = 0 ] && [ $sb = 0 ]; t $? "both parts go down (got $sa $sb)"
left=$(ip -n $ua -br link show; ip -n $ub -br link show)
! echo "$left" | grep -q '^vp' && ! ip netns list | grep -q "^bpfwire-parts-[ab]-$$\b"
t $? "no VXLAN end in either underlay, no run netns left"
! ip netns exec $ua nft list tables | grep -q bpfwire && ! ip netns exec $ub nft list tables | grep -q bpfwire
t $? "no pin left in either underlay"
tap_done
