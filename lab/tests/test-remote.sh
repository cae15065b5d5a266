#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Remote hosts, against the simulated remote of remote-sim.sh,
# which runs this script inside it (SIM_* in the environment):
#  - a topology of one remote host (no guest, so no kernel needed): up makes
#    both VXLAN ends, exec runs there with its exit status, down removes both
#    ends and the remote's /tmp/bpfwire-ID;
#  - a bad remote fails up within 10 s, exit 1, with a message naming it:
#    a closed port, an address without a neighbour, one that drops every
#    packet (ssh's ConnectTimeout, 5 s), a wrong key, an unknown host key;
#  - with a kernel: a guest and the remote, the lab (and its reaper) killed
#    by SIGKILL once the remote's VXLAN exists, then `down` removes it; and
#    the lab alone killed: its reaper removes it.
# Usage: remote-sim.sh test-remote.sh BPFWIRE_LAB
lab=$1
. "$(dirname "$0")/tap.sh"
tap_need_root
[ -n "${SIM_REMOTE:-}" ] || { echo "# run me inside remote-sim.sh"; exit 1; }
tmp=$(mktemp -d /tmp/bpfwire-remote-test.XXXXXX)
ids=
cleanup() {
	for i in $ids; do "$lab" down --run "$i" > /dev/null 2>&1; done
	rm -rf "$tmp"
}
trap cleanup EXIT

topo() { # FILE URL [KEY] [GUEST]
	{
		printf 'segment lan\n    ipv4 192.0.2.0/24\n\n'
		[ -n "${4:-}" ] && printf 'host sender\n    nic eth0 lan\n    address eth0 192.0.2.10\n\n'
		printf 'host far remote %s\n' "$2"
		[ -n "${3:-}" ] && printf '    key %s\n' "$3"
		printf '    nic bw0 lan\n    address bw0 192.0.2.20\n'
	} > "$1"
}
# the remote's bw0, if it is a VXLAN
remote_vxlan() { ip -n "$SIM_REMOTE" -d link show dev bw0 2>/dev/null | grep -o 'vxlan id [0-9]*'; }
underlay_vx() { ip -n "$SIM_UNDERLAY" -br link show 2>/dev/null | grep -c '^vx'; }
up() { # ID TOPO [extra options]
	id=$1 t=$2
	shift 2
	ids="$ids $id"
	"$lab" up -q --run "$id" --results "$tmp/$id" --underlay-netns "$SIM_UNDERLAY" "$@" "$t"
}

# --- a remote-only topology: up, exec, down ---
topo "$tmp/only.topo" "ssh://root@$SIM_ADDR:$SIM_PORT"
up r18only "$tmp/only.topo" --ssh-config "$SIM_SSH_CONFIG" > "$tmp/up.out" 2>&1; st=$?
[ $st = 0 ]; t $? "up of a remote-only topology exits 0 (got $st)"
[ $st = 0 ] || sed 's/^/#   /' "$tmp/up.out"
v=$(remote_vxlan)
case "$v" in "vxlan id "*) t 0 "the remote has bw0, $v";; *) t 1 "the remote has a VXLAN bw0";; esac
ip -n bpfwire-r18only -d link show master br-lan 2>/dev/null | grep -q "${v:-none} remote $SIM_ADDR"
t $? "the lab's end (same VNI, remote $SIM_ADDR) is a port of br-lan in the run's netns"
[ "$(underlay_vx)" = 0 ]; t $? "no VXLAN is left in the underlay netns (it was moved)"
ip -n "$SIM_REMOTE" addr show dev bw0 2>/dev/null | grep -q "inet 192.0.2.20/24"
t $? "the remote's bw0 has the topology's address"
out=$("$lab" exec --run r18only far -- sh -c 'echo "here $(pwd)"; exit 3'); st=$?
rbase=${out#here }
rbase=${rbase%/far}
[ $st = 3 ] && case "$out" in "here /tmp/bpfwire-r18only."*/far) true;; *) false;; esac
t $? "exec on the remote: its output and exit status, in its mktemp dir (got $st: $out)"
"$lab" down --run r18only > "$tmp/down.out" 2>&1; st=$?
[ $st = 0 ]; t $? "down exits 0 (got $st)"
[ -z "$(remote_vxlan)" ]; t $? "down removed the remote's bw0"
[ -n "$rbase" ] && [ ! -e "$rbase" ]; t $? "down removed the remote's $rbase"
[ -s "$tmp/r18only/hosts/far/bw0.pcap" ]; t $? "the remote end's capture is kept in RUN/hosts/far/bw0.pcap"

# --- bad remotes: exit 1 within 10 s, naming the host ---
bad() { # ID WHAT EXPECT TOPO OPTIONS...
	id=$1 what=$2 want=$3 tp=$4
	shift 4
	t0=$(date +%s%N)
	up "$id" "$tp" "$@" > "$tmp/$id.out" 2>&1; st=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $st = 1 ] && [ $ms -lt 10000 ]; t $? "$what: up exits 1 within 10 s (got $st in $ms ms)"
	grep -q "remote host far (ssh://root@" "$tmp/$id.out" && grep -q "$want" "$tmp/$id.out"
	t $? "$what: the message names the host and says '$want'"
	grep "remote host far" "$tmp/$id.out" | sed 's/^/#   /'
	[ ! -e "/run/bpfwire/$id" ] && ! ip netns list | grep -q "^bpfwire-$id\b"
	t $? "$what: nothing of the run is left"
}
topo "$tmp/gone.topo" "ssh://root@$SIM_ADDR:2200"
bad r18gone "no sshd on the port" "SSH failed" "$tmp/gone.topo" --ssh-config "$SIM_SSH_CONFIG"
topo "$tmp/dark.topo" "ssh://root@198.51.100.3:$SIM_PORT"
bad r18dark "an address nobody answers" "SSH failed\|no answer" "$tmp/dark.topo" --ssh-config "$SIM_SSH_CONFIG"
# a neighbour that never answers: the SYN leaves, nothing comes back (ConnectTimeout)
ip -n "$SIM_UNDERLAY" neigh replace 198.51.100.4 lladdr 02:00:00:00:00:99 dev uplink nud permanent
topo "$tmp/silent.topo" "ssh://root@198.51.100.4:$SIM_PORT"
bad r18silent "an address that drops every packet" "SSH failed\|no answer" "$tmp/silent.topo" --ssh-config "$SIM_SSH_CONFIG"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/wrong_key"
topo "$tmp/wrongkey.topo" "ssh://root@$SIM_ADDR:$SIM_PORT" "$tmp/wrong_key"
bad r18key "a wrong key" "Permission denied" "$tmp/wrongkey.topo" --ssh-config "$SIM_SSH_CONFIG_NOKEY"
: > "$tmp/empty_known_hosts"
sed "s|UserKnownHostsFile .*|UserKnownHostsFile $tmp/empty_known_hosts|" "$SIM_SSH_CONFIG" > "$tmp/unknown_host.conf"
bad r18hostkey "an unknown host key" "Host key verification failed" "$tmp/only.topo" --ssh-config "$tmp/unknown_host.conf"

# --- kill -9 of the lab, with a guest booting ---
kernel=${BPFWIRE_KERNEL:-$BPFWIRE_BUILD_ROOT/kernel/bzImage}
[ -f "$kernel" ] || kernel=$BPFWIRE_SOURCE_ROOT/build/kernel/bzImage
if [ ! -f "$kernel" ]; then
	echo "# no kernel: the kill -9 cases need a guest, skipped"
	tap_done
fi
export BPFWIRE_KERNEL=$kernel
topo "$tmp/guest.topo" "ssh://root@$SIM_ADDR:$SIM_PORT" "" guest
killed() { # ID WHO(lab|lab+reaper)
	id=$1
	ids="$ids $id"
	"$lab" up -q --run "$id" --results "$tmp/$id" --underlay-netns "$SIM_UNDERLAY" \
		--ssh-config "$SIM_SSH_CONFIG" "$tmp/guest.topo" > "$tmp/$id.out" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 300 ] && [ -z "$(remote_vxlan)" ]; do sleep 0.05; i=$((i + 1)); done
	[ -n "$(remote_vxlan)" ]; t $? "$2 killed: the remote's bw0 exists before the kill"
	reaper=
	for c in $(ps -o pid= --ppid "$pid"); do
		[ "$(cat /proc/$c/comm 2>/dev/null)" = bpfwire-lab ] && reaper="$reaper $c"
	done
	[ "$2" = lab ] && reaper=
	# The reaper first: killed after the lab, it could read the lab's end
	# of its pipe in between and start down's ssh, which outlives it.
	[ -z "$reaper" ] || kill -KILL $reaper
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
}
killed r18kill9 "lab+reaper"
sleep 1
[ -n "$(remote_vxlan)" ]; t $? "lab+reaper killed: the remote's bw0 outlives them (nobody else removes it)"
"$lab" down --run r18kill9 > "$tmp/kill9-down.out" 2>&1; st=$?
sed 's/^/#   /' "$tmp/kill9-down.out"
[ -z "$(remote_vxlan)" ]; t $? "lab+reaper killed, then down: the remote's bw0 is gone (down exit $st)"
[ "$(underlay_vx)" = 0 ] && ! ip netns list | grep -q "^bpfwire-r18kill9\b" && [ ! -e /run/bpfwire/r18kill9 ]
t $? "lab+reaper killed, then down: no lab end, netns or state dir left"
killed r18reap lab
i=0
while [ $i -lt 150 ] && { [ -n "$(remote_vxlan)" ] || [ -e /run/bpfwire/r18reap ]; }; do sleep 0.1; i=$((i + 1)); done
[ -z "$(remote_vxlan)" ] && [ ! -e /run/bpfwire/r18reap ]
t $? "lab killed: within 15 s its reaper removed the remote's bw0 and the run"
"$lab" down --run r18reap > /dev/null 2>&1
[ -z "$(remote_vxlan)" ] && [ "$(underlay_vx)" = 0 ]; t $? "lab killed, then down: nothing left there either"
tap_done
