#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs as init inside one guest (see run_guest.sh): two NICs on a QEMU hub,
# eth0 sends from the root netns, eth1 receives in netns rx. Every sender
# must deliver exactly N valid datagrams to bpfwire-recv, status must agree,
# ksock/netpoll must keep sending with no agent, ringbuf must stop with it.
# Prints TAP on the console; BW_AGENT and BW_RECV come from the kernel
# command line.
. "$(dirname "$0")/guest_lib.sh"
A=$(host_path "$BW_AGENT"); R=$(host_path "$BW_RECV"); TC=$(host_path "$BW_TAGCHECK")
n=0; tap_failed=0
ok() { n=$((n+1)); echo "ok $n - $1"; }
nok() { n=$((n+1)); tap_failed=$((tap_failed+1)); echo "not ok $n - $1"; }
check() { if [ "$2" = "$3" ]; then ok "$1"; else nok "$1"; echo "#   actual '$2' != expected '$3'"; fi; }
finish() {
	echo "1..$n"
	echo "BPFWIRE-GUEST-DONE failed=$tap_failed"
	reboot -f
}
trap finish EXIT
waitfile() { for _ in $(seq 100); do [ -e "$1" ] && return 0; sleep 0.1; done; return 1; }
jget() { # FILE KEY: first integer value of "KEY"
	sed -n "s/.*\"$2\": *\([0-9][0-9]*\).*/\1/p" "$1" | head -1
}
jpath() { # FILE a.0.c: one value out of a JSON file (a number indexes a list); null if none
	# jq, not python3: a python3 start costs about 3 s under TCG, 33 calls.
	jq -r "$(printf '.%s' "$2" | sed -E 's/\.([0-9]+)/[\1]/g')" "$1" 2>/dev/null
}

ip link set lo up
ip netns add rx
ip link set eth1 netns rx
ip link set eth0 up
ip addr add 192.0.2.1/24 dev eth0; ip addr add 2001:db8::1/64 dev eth0 nodad
ip -n rx link set lo up; ip -n rx link set eth1 up
ip -n rx addr add 192.0.2.2/24 dev eth1; ip -n rx addr add 2001:db8::2/64 dev eth1 nodad
for _ in $(seq 50); do
	LL_RX=$(ip -n rx -6 addr show dev eth1 scope link | awk '/inet6/{print $2}' | cut -d/ -f1)
	LL_TX=$(ip -6 addr show dev eth0 scope link | awk '/inet6/{print $2}' | cut -d/ -f1)
	[ -n "$LL_RX" ] && [ -n "$LL_TX" ] && break; sleep 0.1
done
mkdir -p /tmp/bw; for i in $(seq 1 20); do echo "$i" > /tmp/bw/f$i; done
cp /usr/bin/true /tmp/bw/t

# recv PORT NAME [receiver options]: starts bpfwire-recv in netns rx
recv() {
	local port=$1 name=$2; shift 2
	ip netns exec rx "$R" --iface eth1 --accept-csum-partial --port "$port" \
		--json /tmp/$name.json --ready-file /tmp/$name.ready "$@" >/tmp/$name.out 2>&1 &
	RPID=$!
	waitfile /tmp/$name.ready || echo "# receiver $name not ready"
}
opens() { for i in $(seq "$1" "$2"); do : < /tmp/bw/f$i; done; }
# reconcile NAME VIA N: the receiver and status --json both say N
reconcile() {
	local rc
	wait $RPID; rc=$?
	check "$1: receiver exit status" $rc 0
	# the receiver says why it failed: keep that in the TAP log
	[ "$rc" = 0 ] || sed 's/^/#   /' /tmp/$1.out
	check "$1: receiver valid datagrams" "$(jget /tmp/$1.json valid)" "$3"
	check "$1: receiver lost" "$(jget /tmp/$1.json lost)" 0
	"$A" status --json "$2" > /tmp/$1.status
	check "$1: status sent" "$(jget /tmp/$1.status sent)" "$3"
	check "$1: status failed" "$(jget /tmp/$1.status failed)" 0
	check "$1: status last_seq" "$(jget /tmp/$1.status last_seq)" "$3"
}

# BW_API: the kernel's api.json (run_guest.sh); else the release says it
case "${BW_API:-}" in
seed|upstream) API=$BW_API ;;
*) case "$(uname -r)" in *-bpfwire-up) API=upstream ;; *) API=seed ;; esac ;;
esac
echo "# kernel $(uname -r): ksock API $API expected"
# netpoll and ringbuf run the same kernel code in both flavours (the
# upstream series carries netpoll's patches, byte for byte): their cases
# run on the seed kernel, and the upstream kernel's run checks ksock.
[ "$API" = seed ] || echo "# upstream: the netpoll and ringbuf cases ran on the seed kernel"

# 1. netpoll IPv4, MAC from the neighbour table; 5 opens, agent gone, 3 more.
if [ "$API" = seed ]; then
	recv 7000 np4 --expect-count 8 --timeout 60
	"$A" --via netpoll --dst 192.0.2.2:7000 --events open --path-prefix /tmp/bw/ --sender-id 21
	check "np4: install" $? 0
	pgrep -x bpfwire-agent >/dev/null; check "np4: no agent process left" $? 1
	opens 1 5; opens 6 8
	reconcile np4 netpoll 8
	"$A" unload netpoll >/dev/null; check "np4: unload" $? 0

	# 2. netpoll IPv6 with --remote-mac, exec: each exec is one exec + one open.
	recv 7001 np6 --expect-count 6 --timeout 60
	"$A" --via netpoll --dst '[2001:db8::2]:7001' --dev eth0 --remote-mac 52:54:00:00:00:02 \
		--path-prefix /tmp/bw/ --sender-id 22
	check "np6: install" $? 0
	for _ in 1 2 3; do /tmp/bw/t; done
	reconcile np6 netpoll 6
	"$A" unload >/dev/null
fi

# 2b. The agent finds the kernel's ksock API in its BTF, the
# release tells which one this kernel must have (-bpfwire-up: upstream).
"$A" status --json > /tmp/api.status
check "api: status --json ksock_api on $(uname -r)" "$(jpath /tmp/api.status ksock_api)" "$API"
if [ "$API" = upstream ]; then
	# Seed-only options: one line naming the option and the kernel, nothing loaded.
	out=$("$A" --via ksock --dst 192.0.2.2:7002 --bind 192.0.2.1:5002 2>&1)
	check "api: --bind on upstream exit status" $? 1
	check "api: --bind on upstream message" "$out" \
		"bpfwire-agent: --bind needs bpf_ksock_bind, which kernel $(uname -r) (the upstream ksock API) does not have: drop --bind, or run the seed kernel"
	out=$("$A" --via ksock --dst 192.0.2.2:7002 --sndbuf 65536 2>&1)
	check "api: --sndbuf on upstream exit status" $? 1
	check "api: --sndbuf on upstream message" "$out" \
		"bpfwire-agent: --sndbuf needs bpfwire's sndbuf extension (kernel/patches/sndbuf: bpf_ksock_create_opts.sndbuf), which kernel $(uname -r) (the upstream ksock API) lacks: drop --sndbuf, or run a kernel with the extension"
	[ ! -e /sys/fs/bpf/bpfwire/ksock ]; check "api: nothing pinned after the refusals" $? 0
fi
# BW_SNDBUF: api.json's ksock_sndbuf (run_guest.sh), bpfwire's sndbuf
# extension (kernel/patches/sndbuf), which --sndbuf needs.
if [ "$API" = seed ] && [ "${BW_SNDBUF:-}" = false ]; then
	out=$("$A" --via ksock --dst 192.0.2.2:7002 --sndbuf 65536 2>&1)
	check "api: --sndbuf without the sndbuf extension exit status" $? 1
	check "api: --sndbuf without the sndbuf extension message" "$out" \
		"bpfwire-agent: --sndbuf needs bpfwire's sndbuf extension (kernel/patches/sndbuf: bpf_ksock_create_opts.sndbuf), which kernel $(uname -r) (the seed ksock API) lacks: drop --sndbuf, or run a kernel with the extension"
	[ ! -e /sys/fs/bpf/bpfwire/ksock ]; check "api: nothing pinned after the --sndbuf refusal" $? 0
elif [ "$API" = seed ] && [ "${BW_SNDBUF:-}" = true ]; then
	"$A" --via ksock --dst 192.0.2.2:7002 --sndbuf 65536 --events open --path-prefix /tmp/bw/ >/dev/null
	check "api: --sndbuf 65536 with the sndbuf extension: install" $? 0
	"$A" status --json ksock > /tmp/sndbuf.status
	check "api: status shows sndbuf 65536" "$(jpath /tmp/sndbuf.status senders.0.sndbuf)" 65536
	"$A" unload ksock >/dev/null; check "api: --sndbuf sender unloaded" $? 0
elif [ "$API" = seed ]; then
	echo "# api: api.json says nothing of ksock_sndbuf: the seed's --sndbuf cases are not run"
fi

# 3. ksock IPv4 and 4. ksock link-local IPv6 with --bind (upstream: scope
# from --dst only, no bind), side by side with netpoll.
# The neighbours first (np4 above has its agent resolve IPv4 itself). A
# datagram sent while ARP or ND is pending waits in the neighbour's queue,
# and the reply's handler sends that queue with the lock dropped between
# datagrams: an open() on the other vCPU then goes out ahead of it, and
# the receiver counts a reorder (ks6 in ci5 and ci13: "max_reorder: 1 > 0").
busybox ping -c 1 -W 5 192.0.2.2 >/dev/null
check "ks: the receiver's IPv4 address answers a ping" $? 0
busybox ping -6 -c 1 -W 5 -I eth0 "$LL_RX" >/dev/null
check "ks: the receiver's link-local address answers a ping" $? 0
recv 7002 ks4 --expect-count 10 --timeout 60
"$A" --via ksock --dst 192.0.2.2:7002 --events open --path-prefix /tmp/bw/ --sender-id 23 > /tmp/ks4.install
check "ks4: install" $? 0
grep -q ", $API API, pinned at" /tmp/ks4.install; check "ks4: install names the $API API" $? 0
opens 1 10
reconcile ks4 ksock 10
check "ks4: no key: wire_version 1, no key id, no epoch" \
	"$(jpath /tmp/ks4.status senders.0.wire_version) $(jpath /tmp/ks4.status senders.0.key_id) $(jpath /tmp/ks4.status senders.0.epoch)" \
	"1 null null"
"$A" unload ksock >/dev/null
recv 7003 ks6 --expect-count 7 --timeout 60
if [ "$API" = seed ]; then
	"$A" --via ksock --dst "[$LL_RX%eth0]:7003" --bind "[$LL_TX%eth0]:5003" --events open \
		--path-prefix /tmp/bw/ --sender-id 24
	check "ks6: install link-local with bind" $? 0
else
	"$A" --via ksock --dst "[$LL_RX%eth0]:7003" --events open --path-prefix /tmp/bw/ --sender-id 24
	check "ks6: install link-local (upstream: no bind)" $? 0
fi
opens 1 7
reconcile ks6 ksock 7
if [ "$API" = seed ]; then
	grep -q "\"sport\": *5003" /tmp/ks6.json; check "ks6: source port is the bound one" $? 0
fi
"$A" unload >/dev/null

# 4b. Signed: with --key-file, ksock, netpoll and ringbuf send v2 whose
# tags verify with the key (wire.h's C reference, in tagcheck) and never
# with another key. Two of ksock's opens have 250-byte paths (334-byte
# datagrams; the longest is 340). The key is in no pin and no status, and
# its map is frozen; a reinstall draws a new epoch; a readable key file is
# refused.
( umask 077
  printf '00010203 04050607\n08090a0b 0c0d0e0f\n' > /run/sig.key
  printf '0f0e0d0c0b0a09080706050403020100\n' > /run/wrong.key )
long=/tmp/bw/$(printf 'L%.0s' $(seq 240))
: > "$long.1"; : > "$long.2"
# tagcheck PORT NAME COUNT: checks COUNT datagrams in netns rx
tagcheck() {
	ip netns exec rx "$TC" --port "$1" --key-file /run/sig.key --wrong-key-file /run/wrong.key \
		--count "$3" --timeout 60 > /tmp/$2.tags 2>&1 &
	TPID=$!
	for _ in $(seq 100); do grep -q '^listening' /tmp/$2.tags && break; sleep 0.1; done
}
tval() { sed -n "s/^$2 //p" /tmp/$1.tags; }
tags_ok() { # NAME N: every datagram v2, signed, sealed, verified; none under the wrong key
	wait $TPID
	check "$1: datagrams" "$(tval $1 datagrams)" "$2"
	check "$1: v2 and signed" "$(tval $1 v2) $(tval $1 signed)" "$2 $2"
	check "$1: FNV check over tag = 0" "$(tval $1 check_ok)" "$2"
	check "$1: tags verify with the key" "$(tval $1 tag_ok)" "$2"
	check "$1: no tag verifies with another key" "$(tval $1 tag_wrong_key)" 0
	check "$1: seq 1..$2, one epoch" "$(tval $1 first_seq) $(tval $1 last_seq) $(tval $1 epochs)" "1 $2 1"
}
tagcheck 7006 ksig 12
"$A" --via ksock --dst 192.0.2.2:7006 --events open --path-prefix /tmp/bw/ --sender-id 26 \
	--key-file /run/sig.key --key-id 3 > /tmp/ksig.agent 2>&1
check "ksig: install with --key-file" $? 0
pgrep -x bpfwire-agent >/dev/null; check "ksig: no agent process left" $? 1
opens 1 10; : < "$long.1"; : < "$long.2"
tags_ok ksig 12
check "ksig: key id on the wire" "$(tval ksig key_id)" 3
"$A" status --json ksock > /tmp/ksig.status
check "ksig: status wire_version, key_id" "$(jpath /tmp/ksig.status senders.0.wire_version) $(jpath /tmp/ksig.status senders.0.key_id)" "2 3"
check "ksig: status epoch = the wire's" "$(jpath /tmp/ksig.status senders.0.epoch)" "$(tval ksig epoch)"
check "ksig: status sent, failed" "$(jget /tmp/ksig.status sent) $(jget /tmp/ksig.status failed)" "12 0"
grep -qi '0001020304050607\|00 01 02 03' /tmp/ksig.status; check "ksig: status never shows the key" $? 1
check "ksig: the key map is not pinned" "$(ls /sys/fs/bpf/bpfwire/ksock | grep -c key)" 0
# Root can still read it (bpftool map dump name sign_key): see bpf/README.md.
bpftool map update name sign_key key hex 00 00 00 00 value hex $(printf '00 %.0s' $(seq 16)) >/dev/null 2>&1
[ $? -ne 0 ]; check "ksig: bpftool map update cannot change it (frozen)" $? 0
"$A" unload >/dev/null
"$A" --via ksock --dst 192.0.2.2:7006 --events open --sender-id 26 --key-file /run/sig.key >/dev/null
"$A" status --json ksock > /tmp/ksig2.status
e1=$(jpath /tmp/ksig.status senders.0.epoch); e2=$(jpath /tmp/ksig2.status senders.0.epoch)
[ "${e2#0x}" != "$e2" ] && [ "$e1" != "$e2" ]; check "ksig: a reinstall draws a new epoch ($e1, $e2)" $? 0
check "ksig: default key id 1" "$(jpath /tmp/ksig2.status senders.0.key_id)" 1
"$A" unload >/dev/null
chmod 644 /run/sig.key
out=$("$A" --via ksock --dst 192.0.2.2:7006 --key-file /run/sig.key 2>&1)
check "ksig: a key file others can read: exit status" $? 1
check "ksig: a key file others can read: message" "$out" \
	"bpfwire-agent: key file /run/sig.key can be read by group or others (mode 0644): chmod 600 /run/sig.key"
check "ksig: nothing pinned after the refusal" "$(ls -A /sys/fs/bpf)" ""
chmod 600 /run/sig.key
if [ "$API" = seed ]; then
	tagcheck 7007 nsig 5
	"$A" --via netpoll --dst 192.0.2.2:7007 --remote-mac 52:54:00:00:00:02 --events open \
		--path-prefix /tmp/bw/ --sender-id 27 --key-file /run/sig.key
	check "nsig: netpoll install with --key-file" $? 0
	opens 1 5
	tags_ok nsig 5
	"$A" status --json netpoll > /tmp/nsig.status
	check "nsig: status wire_version" "$(jpath /tmp/nsig.status senders.0.wire_version)" 2
	"$A" unload >/dev/null
fi
# bpfwire-recv --key-file (the receiver's check of the tags) agrees: every
# signed datagram valid under the key, every one 'auth' under another.
recv 7012 ksrx --key-file /run/sig.key --expect-count 5 --timeout 60
"$A" --via ksock --dst 192.0.2.2:7012 --events open --path-prefix /tmp/bw/ --sender-id 29 \
	--key-file /run/sig.key
check "ksrx: install" $? 0
opens 1 5
reconcile ksrx ksock 5
"$A" unload >/dev/null
recv 7013 ksbad --key-file /run/wrong.key --allow-invalid --until-idle 3 --timeout 60
"$A" --via ksock --dst 192.0.2.2:7013 --events open --path-prefix /tmp/bw/ --sender-id 30 \
	--key-file /run/sig.key
opens 1 5
wait $RPID
check "ksbad: wrong key: socket valid, auth" \
	"$(jpath /tmp/ksbad.json socket.valid) $(jpath /tmp/ksbad.json socket.reasons.auth)" "0 5"
"$A" unload >/dev/null
if [ "$API" = seed ]; then
	tagcheck 7008 rsig 3
	"$A" --via ringbuf --dst 192.0.2.2:7008 --events open --path-prefix /tmp/bw/ --sender-id 28 \
		--key-file /run/sig.key >/tmp/rsig.agent 2>&1 &
	APID=$!
	waitfile /sys/fs/bpf/bpfwire/ringbuf/ustats; sleep 1
	opens 1 3
	tags_ok rsig 3
	"$A" unload >/dev/null; wait $APID
	check "rsig: the ringbuf agent stops cleanly" $? 0
fi

# 5. ringbuf: 4 opens arrive; after kill -9 the programs are gone and 2 more do not.
if [ "$API" = seed ]; then
	recv 7004 rb4 --until-idle 3 --timeout 60
	"$A" --via ringbuf --dst 192.0.2.2:7004 --events open --path-prefix /tmp/bw/ --sender-id 25 \
		>/tmp/rb4.agent 2>&1 &
	APID=$!
	waitfile /sys/fs/bpf/bpfwire/ringbuf/ustats; sleep 1
	opens 1 4; sleep 1
	kill -9 $APID; wait $APID 2>/dev/null
	opens 5 6
	wait $RPID
	check "rb4: receiver valid datagrams" "$(jget /tmp/rb4.json valid)" 4
	"$A" status --json ringbuf > /tmp/rb4.status
	check "rb4: status events (none after the kill)" "$(jget /tmp/rb4.status events)" 4
	check "rb4: status sent" "$(jget /tmp/rb4.status sent)" 4
	grep -q '"agent_running":false' /tmp/rb4.status; check "rb4: status sees the agent gone" $? 0
	"$A" unload >/dev/null
fi

# 6. Load: opens from 4 processes as fast as python makes them. Whatever
# ksock and netpoll drop (ksock: EAGAIN from a full send buffer), the books
# must balance: events = sent + failed at the sender; the receiver's socket
# gets every sent datagram and counts every failed one as lost (a failed
# send has used its seq). The socket is the reference here: under TCG load
# libpcap drops frames (wire.capture.dropped), which is the receiver's
# capture, not delivery, and is printed for the record.
load() { # VIA PORT NAME PROCS COUNT [agent options]: PROCS openers, COUNT each
	local via=$1 port=$2 name=$3 procs=$4 count=$5; shift 5
	recv "$port" "$name" --until-idle 3 --timeout 120 --max-loss any
	"$A" --via "$via" --dst "192.0.2.2:$port" --events open --path-prefix /tmp/bw/ \
		--sender-id "$port" "$@" >/dev/null
	check "$name: install" $? 0
	python3 -c "
import os
for _ in range($procs - 1):
    if os.fork() == 0:
        break
for _ in range($count):
    os.close(os.open('/tmp/bw/f1', os.O_RDONLY))"
	# One more once the send buffer has drained: a failed send at the very
	# end would have no later seq to reveal it as lost.
	sleep 1; : < /tmp/bw/f1
	wait $RPID
	"$A" status --json "$via" > /tmp/$name.status
	local ev sent nfail seq valid lost
	ev=$(jget /tmp/$name.status events); sent=$(jget /tmp/$name.status sent)
	nfail=$(jget /tmp/$name.status failed); seq=$(jget /tmp/$name.status last_seq)
	valid=$(jpath /tmp/$name.json socket.valid); lost=$(jpath /tmp/$name.json socket.lost)
	echo "# $name: events $ev sent $sent failed $nfail last_seq $seq;" \
		"receiver socket valid $valid lost $lost drops $(jpath /tmp/$name.json socket.drops);" \
		"wire valid $(jpath /tmp/$name.json wire.valid) capture dropped $(jpath /tmp/$name.json wire.capture.dropped)"
	echo "# $name: errors $(sed -n '/"errors"/,/}/p' /tmp/$name.status | tr -d ' \n')"
	check "$name: events" "$ev" "$((procs * count + 1))"
	check "$name: events = sent + failed" "$((sent + nfail))" "$ev"
	check "$name: last_seq = events" "$seq" "$ev"
	check "$name: receiver socket valid = status sent" "$valid" "$sent"
	check "$name: receiver socket lost = status failed" "$lost" "$nfail"
	"$A" unload >/dev/null
}
load ksock 7010 ksload 4 2000
if [ "$API" = seed ]; then
	load netpoll 7011 npload 4 2000 --remote-mac 52:54:00:00:00:02
fi

# 6b. Batching: ksock --batch 8. Two writers at once (2 vCPUs)
# open 200 distinct files each: 400 events in exactly 50 datagrams, and
# every event, by its path, arrives exactly once (dgrams.py reads the
# receiver's pcap). A partial batch goes on 'flush' and at unload. With an
# age limit, the receiver (same guest, same CLOCK_MONOTONIC as the header's
# timestamp) measures how long the first event of each datagram waited.
mkdir -p /tmp/bw/a /tmp/bw/b
for i in $(seq 0 199); do : > /tmp/bw/a/$i; : > /tmp/bw/b/$i; done
cat > /tmp/dgrams.py <<'PY'
import struct, sys
# dgrams.py PCAP: one line per bpfwire datagram, "seq n_events path..."
d = open(sys.argv[1], 'rb').read()
off = 24
while off + 16 <= len(d):
    incl = struct.unpack_from('<I', d, off + 8)[0]
    pkt = d[off + 16:off + 16 + incl]
    off += 16 + incl
    if len(pkt) < 34 or pkt[12:14] != b'\x08\x00':
        continue
    udp = 14 + (pkt[14] & 15) * 4
    w = pkt[udp + 8:]
    if len(w) < 56 or w[:4] != b'BPWW':
        continue
    seq, n, hl = struct.unpack_from('>Q', w, 16)[0], struct.unpack_from('>H', w, 38)[0], struct.unpack_from('>H', w, 6)[0]
    p, paths = hl, []
    for _ in range(n):
        pl = struct.unpack_from('>H', w, p + 24)[0]
        paths.append(w[p + 28:p + 28 + pl].decode())
        p += 28 + pl
    print(seq, n, *paths)
PY
# Two closers may send in the other order of their seqs: reordering is allowed.
recv 7014 kb8 --expect-count 50 --max-reorder any --until-idle 3 --timeout 120 --pcap /tmp/kb8.pcap
"$A" --via ksock --dst 192.0.2.2:7014 --events open --path-prefix /tmp/bw/ --sender-id 31 \
	--batch 8 --batch-age-ms 0
check "kb8: install --batch 8" $? 0
python3 -c "
import os
d = '/tmp/bw/a/' if os.fork() == 0 else '/tmp/bw/b/'
for i in range(200):
    os.close(os.open(d + str(i), os.O_RDONLY))
if d.endswith('b/'):
    os.wait()"
wait $RPID
"$A" status --json ksock > /tmp/kb8.status
check "kb8: receiver valid datagrams, events" \
	"$(jpath /tmp/kb8.json socket.valid) $(jpath /tmp/kb8.json socket.events)" "50 400"
check "kb8: receiver lost, invalid" "$(jpath /tmp/kb8.json socket.lost) $(jpath /tmp/kb8.json invalid)" "0 0"
check "kb8: status events, sent, events_sent, failed, pending" \
	"$(jpath /tmp/kb8.status senders.0.counters.events) $(jpath /tmp/kb8.status senders.0.counters.sent) $(jpath /tmp/kb8.status senders.0.counters.events_sent) $(jpath /tmp/kb8.status senders.0.counters.failed) $(jpath /tmp/kb8.status senders.0.counters.events_pending)" \
	"400 50 400 0 0"
check "kb8: status batch, wire_version, last_seq" \
	"$(jpath /tmp/kb8.status senders.0.batch) $(jpath /tmp/kb8.status senders.0.wire_version) $(jpath /tmp/kb8.status senders.0.counters.last_seq)" "8 2 50"
python3 /tmp/dgrams.py /tmp/kb8.pcap > /tmp/kb8.dgrams
check "kb8: pcap: 50 datagrams of 8 events" "$(awk '$2 == 8' /tmp/kb8.dgrams | wc -l)" 50
check "kb8: pcap: 400 paths, 400 distinct, the writers' 400" \
	"$(cut -d' ' -f3- /tmp/kb8.dgrams | tr ' ' '\n' | sort | uniq | grep -c '^/tmp/bw/[ab]/[0-9]*$') $(cut -d' ' -f3- /tmp/kb8.dgrams | wc -w)" "400 400"
check "kb8: pcap: seq 1..50" "$(cut -d' ' -f1 /tmp/kb8.dgrams | sort -n | uniq | tr '\n' ' ')" "$(seq 1 50 | tr '\n' ' ')"
"$A" unload >/dev/null

recv 7015 kfl --expect-count 2 --until-idle 3 --timeout 60
"$A" --via ksock --dst 192.0.2.2:7015 --events open --path-prefix /tmp/bw/ --sender-id 32 \
	--batch 8 --batch-age-ms 0 >/dev/null
opens 1 3
"$A" status --json ksock > /tmp/kfl.status
check "kfl: 3 events pending, none sent" \
	"$(jpath /tmp/kfl.status senders.0.counters.events_pending) $(jpath /tmp/kfl.status senders.0.counters.sent)" "3 0"
out=$("$A" flush ksock); check "kfl: flush" "$out" "bpfwire-agent: flushed ksock: 3 events in 1 datagram"
out=$("$A" flush ksock); check "kfl: flush again: nothing" "$out" "bpfwire-agent: flushed ksock: 0 events"
opens 4 5
out=$("$A" unload ksock); check "kfl: unload flushes the last 2" "$out" \
	"bpfwire-agent: flushed ksock: 2 events in 1 datagram
bpfwire-agent: unloaded ksock"
wait $RPID
check "kfl: receiver valid datagrams, events" \
	"$(jpath /tmp/kfl.json socket.valid) $(jpath /tmp/kfl.json socket.events)" "2 5"

# Age: one open every 10 ms for 2 s with --batch 32 --batch-age-ms 100. A
# batch goes on the first event 100 ms after its own first: delay ~100 ms.
age=100
cat > /tmp/age.py <<'PY'
import os, socket, struct, sys, time
age = int(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(('192.0.2.2', 7016)); s.settimeout(5)
open('/tmp/age.ready', 'w').close()
got, events = {}, 0
try:
    while True:
        w = s.recv(2048)
        now = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        seq, ts = struct.unpack_from('>QQ', w, 16)
        got[seq] = (now - ts) / 1e6; events += struct.unpack_from('>H', w, 38)[0]
except socket.timeout:
    pass
# the last datagram is unload's flush: its wait is the agent's, not the age's
last = got.pop(max(got))
d = sorted(got.values())
print(len(d) + 1, events, '%.1f %.1f %.1f %.1f' % (d[0], d[len(d) // 2], d[-1], last))
PY
ip netns exec rx python3 /tmp/age.py $age > /tmp/age.out &
RPID=$!; waitfile /tmp/age.ready
"$A" --via ksock --dst 192.0.2.2:7016 --events open --path-prefix /tmp/bw/ --sender-id 33 \
	--batch 32 --batch-age-ms $age >/dev/null
python3 -c "
import time
for i in range(200):
    open('/tmp/bw/f1').close(); time.sleep(0.01)"
"$A" unload >/dev/null
wait $RPID
read -r nd nev dmin dmed dmax dlast < /tmp/age.out
echo "# age $age ms, an open every 10 ms: $nd datagrams for $nev events; the first event's" \
	"wait min/median/max $dmin/$dmed/$dmax ms; the last batch, sent by unload: $dlast ms"
check "kage: 200 events arrive" "$nev" 200
# A batch goes only when an event finds its first one $age ms old: no wait is shorter.
awk -v lo="$dmin" -v hi="$dmax" -v a=$age 'BEGIN { exit !(lo >= a && hi < a + 1000) }'
check "kage: every age-closed wait is in [$age, $age + 1000) ms ($dmin..$dmax)" $? 0

# 7. Bad input: clear errors, nothing pinned.
out=$("$A" --via ksock --dst 198.51.100.9:7000 2>&1)
check "bad: unreachable ksock exit status" $? 1
check "bad: unreachable ksock message" "$out" \
	"bpfwire-agent: couldn't connect ksock to 198.51.100.9:7000: Network is unreachable (ENETUNREACH, -101)"
if [ "$API" = seed ]; then
	ip link add va type veth peer name vb; ip link set va up; ip addr add 198.51.100.1/24 dev va
	out=$("$A" --via netpoll --dst 198.51.100.2:7000 --dev va --remote-mac 02:00:00:00:00:01 2>&1)
	check "bad: netpoll on veth exit status" $? 1
	# -ENOTSUPP (524) on the seeds alone, -EOPNOTSUPP since fix 0013.
	case $out in *"(ENOTSUPP, -524) (the device refuses netpoll)"* | \
		*"(EOPNOTSUPP, -95) (the device refuses netpoll)"*) ok "bad: netpoll on veth message";;
		*) nok "bad: netpoll on veth message"; echo "#   $out";; esac
fi
if [ "$API" = seed ]; then
	out=$("$A" --via ksock --dst 192.0.2.2:7000 --bind 192.0.2.99:5000 2>&1)
	check "bad: bind to a foreign address" "$out" \
		"bpfwire-agent: couldn't bind ksock to 192.0.2.99:5000: Cannot assign requested address (EADDRNOTAVAIL, -99)"
fi
if [ "$API" = seed ]; then
	"$A" --via ringbuf --dst 192.0.2.2:7005 --events open --path-prefix /tmp/bw/ >/dev/null 2>&1 &
	APID=$!
	waitfile /sys/fs/bpf/bpfwire/ringbuf/ustats; sleep 0.5
	"$A" unload >/dev/null; wait $APID
	check "bad: unload stops a running ringbuf agent, which exits 0" $? 0
fi
out=$("$A" --via ksock --dst '[fe80::2]:7000' 2>&1)
check "bad: link-local without scope exit status" $? 2
"$A" --via ksock --dst 192.0.2.2:7000 >/dev/null && "$A" --via ksock --dst 192.0.2.2:7000 2>/dev/null
check "bad: second install refused" $? 1
"$A" unload >/dev/null
check "bad: nothing left pinned" "$(ls -A /sys/fs/bpf)" ""

# 8. Verifier: each object loads (above); the console scan in run_guest.sh
# fails the run on any kernel splat (bpfwire-splat, common/splat.c).
