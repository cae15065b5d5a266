#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Remote hosts against their attackers, inside
# remote-sim.sh. A remote-only topology: no guest boots.
#  - a local user of the remote (nobody) makes /tmp/bpfwire-ID first, with
#     a pids file naming a victim process and a forged report: the lab's dir
#     there is mktemp's, elsewhere; down kills no victim and leaves nobody's
#     dir alone; a pids link planted in the lab's own dir is refused.
#  - a third host that reaches the underlay (or the remote) sends VXLAN
#     with the run's VNI to UDP 4789: nothing reaches the segment (the
#     lab's bridge learns no MAC of it; the remote learns no neighbour).
# Usage: remote-sim.sh test-remote-attacks.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tap_need_root
[ -n "${SIM_REMOTE:-}" ] || { echo "# run me inside remote-sim.sh"; exit 1; }
command -v nft > /dev/null || { echo "1..0 # SKIP no nft"; exit 0; }
tmp=$(mktemp -d /tmp/bpfwire-attacks.XXXXXX)
chmod 755 "$tmp"
eu=bpfwire-evil-$$-u er=bpfwire-evil-$$-r
id=r32d$$ id5=r32v$$
victim=
cleanup() {
	for i in $id $id5; do "$lab" down --run "$i" > /dev/null 2>&1; done
	[ -n "$victim" ] && kill "$victim" 2>/dev/null
	for ns in $eu $er; do ip netns del "$ns" 2>/dev/null; done
	rm -rf "$tmp" "/tmp/bpfwire-$id"
}
trap cleanup EXIT
# no guest boots; the lab only checks that a kernel file is there
: > "$tmp/no-kernel"
export BPFWIRE_KERNEL=$tmp/no-kernel
printf 'segment lan\n    ipv4 192.0.2.0/24\n\nhost far remote ssh://root@%s:%s\n    nic bw0 lan mac 02:00:00:00:00:20\n    address bw0 192.0.2.20\n' \
	"$SIM_ADDR" "$SIM_PORT" > "$tmp/only.topo"
up() { "$lab" up -q --run "$1" --results "$tmp/$1" --underlay-netns "$SIM_UNDERLAY" --ssh-config "$SIM_SSH_CONFIG" "$tmp/only.topo"; }

# --- 4: /tmp/bpfwire-ID made first by nobody ---
sleep 300 &
victim=$!
echo "$victim" > "$tmp/victims"
chmod 644 "$tmp/victims"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
as_nobody sh -c "mkdir -m 0777 /tmp/bpfwire-$id /tmp/bpfwire-$id/far && ln -s $tmp/victims /tmp/bpfwire-$id/pids &&
	echo '{\"verdict\": \"PASS\"}' > /tmp/bpfwire-$id/far/report"
t $? "nobody made /tmp/bpfwire-$id with a pids link to a victim's pid and a forged far/report"
up $id > "$tmp/up.out" 2>&1; st=$?
[ $st = 0 ]; t $? "up exits 0 (got $st)"
[ $st = 0 ] || sed 's/^/#   /' "$tmp/up.out"
share=$("$lab" exec --run $id far -- pwd)
case "$share" in
/tmp/bpfwire-$id.*/far) t 0 "the remote's share is mktemp's, $share";;
*) t 1 "the remote's share is not nobody's /tmp/bpfwire-$id (got '$share')";;
esac
base=${share%/far}
grep -q "\"rbase\": \"$base\"" "/run/bpfwire/$id/state.json"
t $? "the state file records it (rbase)"
out=$("$lab" exec --run $id far -- cat report 2>&1); st=$?
[ $st != 0 ] && ! echo "$out" | grep -q PASS
t $? "the forged report is not in the share (exec cat report: $st)"
# a link planted in the lab's own dir
rm -f "$base/pids" && ln -s "$tmp/victims" "$base/pids"
out=$("$lab" exec --run $id far -- true 2>&1); st=$?
[ $st != 0 ] && echo "$out" | grep -q "pids is a link: refused"
t $? "a pids link in the lab's own dir: exec is refused (exit $st)"
echo "$out" | sed 's/^/#   /'
[ "$(cat "$tmp/victims")" = "$victim" ]; t $? "nothing was appended through that link"
chmod 0777 "$base"
out=$("$lab" exec --run $id far -- true 2>&1); st=$?
[ $st != 0 ] && echo "$out" | grep -q "only it can write: refused"
t $? "the lab's dir made writable by others: exec is refused (exit $st)"
chmod 0700 "$base"
"$lab" down --run $id > "$tmp/down.out" 2>&1; st=$?
sed 's/^/#   /' "$tmp/down.out"
[ $st = 0 ]; t $? "down exits 0 (got $st)"
kill -0 "$victim" 2>/dev/null; t $? "down killed no pid of nobody's list (victim $victim alive)"
[ -L "/tmp/bpfwire-$id/pids" ] && [ -f "/tmp/bpfwire-$id/far/report" ]
t $? "down left nobody's /tmp/bpfwire-$id alone"
[ ! -e "$base" ]; t $? "down removed the lab's own $base"
grep -q "pids is a link: refused" "$tmp/down.out"; t $? "down says it refused the pids link"

# --- 5: a third host sends VXLAN with the run's VNI ---
evil() { # NS PEERNS ADDR PEERADDR
	ip netns add "$1" && ip -n "$1" link set lo up &&
	ip -n "$2" link add evil$$ type veth peer name evil netns "$1" &&
	ip -n "$2" addr add "$4/32" dev evil$$ && ip -n "$2" link set evil$$ up &&
	ip -n "$2" route add "$3/32" dev evil$$ &&
	ip -n "$1" addr add "$3/32" dev evil && ip -n "$1" link set evil up &&
	ip -n "$1" route add "$4/32" dev evil
}
evil $eu "$SIM_UNDERLAY" 198.51.100.66 198.51.100.65 && evil $er "$SIM_REMOTE" 198.51.100.70 198.51.100.69
t $? "two third hosts: one on the lab's underlay (.66), one on the remote's (.70)"
up $id5 > "$tmp/up5.out" 2>&1; st=$?
[ $st = 0 ]; t $? "up exits 0 (got $st)"
[ $st = 0 ] || sed 's/^/#   /' "$tmp/up5.out"
vni=$(ip -n bpfwire-$id5 -d link show master br-lan | grep -o 'vxlan id [0-9]*' | cut -d' ' -f3)
[ -n "$vni" ]; t $? "the run's VNI is $vni"
inject() { # NS TARGET MAC ADDR: ARP for 192.0.2.20 over a VXLAN with the run's VNI
	ip -n "$1" link add vxa type vxlan id "$vni" remote "$2" dstport 4789 &&
	ip -n "$1" link set vxa address "$3" up && ip -n "$1" addr add "$4/24" dev vxa &&
	ip netns exec "$1" busybox ping -c 3 -W 1 192.0.2.20 > /dev/null 2>&1
	ip netns exec "$1" cat /sys/class/net/vxa/statistics/tx_packets
}
sent=$(inject $eu 198.51.100.65 02:00:00:00:66:66 192.0.2.66)
[ "${sent:-0}" -gt 0 ]; t $? "the underlay's third host sent $sent VXLAN frames to the lab's UDP 4789"
sent=$(inject $er 198.51.100.69 02:00:00:00:70:70 192.0.2.70)
[ "${sent:-0}" -gt 0 ]; t $? "the remote's third host sent $sent VXLAN frames to the remote's UDP 4789"
sleep 0.5
! bridge -n bpfwire-$id5 fdb show br br-lan | grep -qi 02:00:00:00:66:66
t $? "the lab's br-lan learned no MAC of the third host (its frames never reached the segment)"
! ip -n "$SIM_REMOTE" neigh show dev bw0 | grep -q 192.0.2.70
t $? "the remote's bw0 took no ARP of the third host"
ip -n "$SIM_REMOTE" neigh show dev bw0 | sed 's/^/#   /'
# the tunnel itself still works: the remote's ARP reaches the lab's bridge
ip netns exec "$SIM_REMOTE" busybox ping -c 2 -W 1 192.0.2.99 > /dev/null 2>&1
bridge -n bpfwire-$id5 fdb show br br-lan | grep -qi 02:00:00:00:00:20
t $? "the remote's own frames still reach br-lan (its MAC is learned there)"
"$lab" down --run $id5 > /dev/null 2>&1; st=$?
[ $st = 0 ] && ! ip netns exec "$SIM_UNDERLAY" nft list tables | grep -q "bpfwire-$id5" &&
	! ip netns exec "$SIM_REMOTE" nft list tables | grep -q "bpfwire-$id5"
t $? "down removes the pins at both ends (exit $st)"
tap_done
