#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# bpfwire-recv live mode in two private network namespaces joined by a veth
# pair: socket and capture at once, IPv4 and IPv6, fragments, link-local
# bind with a scope, loss, idle end. Needs root; otherwise a TAP skip (1..0 # SKIP), exit 0.
# usage: test_live.sh BPFWIRE-RECV SEND_WIRE
set -u
RECV=$1
SEND=$2
[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root for ip netns"; exit 0; }
command -v ip >/dev/null || { echo "1..0 # SKIP no iproute2"; exit 0; }

NR=bpfwire-recvtest-$$-r
NS=bpfwire-recvtest-$$-s
TMP=$(mktemp -d /tmp/bpfwire-recv-live-XXXXXX)
RPID=
n=0
failed=0

cleanup() {
	[ -n "$RPID" ] && kill "$RPID" 2>/dev/null && wait "$RPID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	ip netns del "$NR" 2>/dev/null
	if [ -n "${BPFWIRE_KEEP_TEST_DIR:-}" ]; then echo "# kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() { # ok COND-EXIT-STATUS NAME [DETAIL]
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"
	else echo "not ok $n - $2${3:+ # $3}"; failed=1; fi
}

# jq-free JSON reads: the receiver's own json-c output, read with python3.
jget() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d=d[int(k)] if isinstance(d,list) else d[k]
print(json.dumps(d) if isinstance(d,(dict,list,bool)) else d)' "$1" "$2"; }

expect_eq() { # expect_eq ACTUAL EXPECTED NAME
	[ "$1" = "$2" ]; ok $? "$3" "actual $1, expected $2"
}

ip netns add "$NR" || { echo "1..0 # SKIP can't create a netns"; exit 0; }
ip netns add "$NS"
ip -n "$NR" link add veth-r type veth peer name veth-s netns "$NS"
ip -n "$NR" addr add 192.0.2.2/24 dev veth-r
ip -n "$NS" addr add 192.0.2.1/24 dev veth-s
ip -n "$NR" addr add 2001:db8::2/64 dev veth-r nodad
ip -n "$NS" addr add 2001:db8::1/64 dev veth-s nodad
ip -n "$NR" addr add fe80::2/64 dev veth-r nodad
ip -n "$NS" addr add fe80::1/64 dev veth-s nodad
# Only the addresses we set: no EUI-64 link-local to pick as a source.
ip -n "$NR" link set veth-r addrgenmode none
ip -n "$NS" link set veth-s addrgenmode none
ip -n "$NR" link set veth-r up
ip -n "$NS" link set veth-s up
ip -n "$NR" link set lo up
ip -n "$NS" link set lo up

# start_recv NAME ARGS...: run the receiver in $NR, wait for its ready file.
start_recv() {
	name=$1; shift
	rm -f "$TMP/$name.ready"
	ip netns exec "$NR" "$RECV" --iface veth-r --ready-file "$TMP/$name.ready" \
		--json "$TMP/$name.json" --pcap "$TMP/$name.pcap" "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err" &
	RPID=$!
	i=0
	while [ ! -s "$TMP/$name.ready" ] && [ $i -lt 100 ]; do
		kill -0 "$RPID" 2>/dev/null || break
		sleep 0.1; i=$((i + 1))
	done
	[ -s "$TMP/$name.ready" ]; ok $? "$name: ready file written" "$(cat "$TMP/$name.err")"
	PORT=$(jget "$TMP/$name.ready" port)
}

wait_recv() { # wait_recv NAME EXPECTED-EXIT
	wait "$RPID"; rc=$?; RPID=
	expect_eq "$rc" "$2" "$1: exit code"
	[ "$rc" = "$2" ] || { cat "$TMP/$1.out" "$TMP/$1.err" | sed 's/^/# /'; }
}

send() { ip netns exec "$NS" "$SEND" "$@"; }

# 1: dual-stack socket, IPv4 and IPv6 senders, everything accounted twice.
# veth keeps TX checksum offload, so on the wire the UDP checksum is partial.
start_recv dual --port 0 --expect-count 200 --timeout 30 --accept-csum-partial
send -s 1 -n 100 -p 40001 192.0.2.2 "$PORT"
send -s 2 -n 100 -p 40002 2001:db8::2 "$PORT"
wait_recv dual 0
expect_eq "$(jget "$TMP/dual.json" wire.valid)" 200 "dual: wire valid"
expect_eq "$(jget "$TMP/dual.json" socket.valid)" 200 "dual: socket valid"
expect_eq "$(jget "$TMP/dual.json" wire.senders.1.src)" 192.0.2.1 "dual: sender 1 is IPv4"
expect_eq "$(jget "$TMP/dual.json" socket.senders.2.src)" 2001:db8::1 "dual: sender 2 is IPv6"
expect_eq "$(jget "$TMP/dual.json" stopped_by)" "expected count reached" "dual: ended on count"
grep -q '^bpfwire-recv: PASS' "$TMP/dual.out"; ok $? "dual: summary line"
# The kept capture validates offline, through the same code path.
"$RECV" --read "$TMP/dual.pcap" --port "$PORT" --accept-csum-partial \
	--expect-count 200 --json "$TMP/dual-offline.json" >/dev/null 2>&1
ok $? "dual: capture re-validates with --read"
expect_eq "$(jget "$TMP/dual-offline.json" wire.valid)" 200 "dual: --read agrees"

# 2: the same traffic without --accept-csum-partial, when veth left the
# checksum partial, is named for what it is.
partial=$(jget "$TMP/dual.json" wire.udp_csum_partial)
if [ "$partial" != 0 ]; then
	"$RECV" --read "$TMP/dual.pcap" --port "$PORT" --json "$TMP/strict.json" >/dev/null 2>&1
	expect_eq "$?" 1 "strict: partial checksums fail without the option"
	expect_eq "$(jget "$TMP/strict.json" wire.reasons.udp_checksum_partial)" "$partial" \
		"strict: counted as udp_checksum_partial"
fi

# 3: fragments both ways: 3000-byte payloads over a 1500 MTU.
start_recv frag --port 0 --family 6 --bind 2001:db8::2 --expect-count 5 --timeout 30 \
	--accept-csum-partial --expect-src "[2001:db8::1]:40003"
send -s 3 -n 5 -l 3000 -p 40003 2001:db8::2 "$PORT"
wait_recv frag 0
expect_eq "$(jget "$TMP/frag.json" wire.fragments.reassembled)" 5 "frag: ipv6 reassembled"
start_recv frag4 --port 0 --family 4 --expect-count 5 --timeout 30 --accept-csum-partial
send -s 4 -n 5 -l 3000 192.0.2.2 "$PORT"
wait_recv frag4 0
expect_eq "$(jget "$TMP/frag4.json" wire.fragments.reassembled)" 5 "frag4: ipv4 reassembled"

# 4: link-local bind with a scope id.
start_recv ll --port 0 --bind fe80::2%veth-r --expect-count 20 --timeout 30 \
	--accept-csum-partial
send -s 5 -n 20 fe80::2%veth-s "$PORT"
wait_recv ll 0
expect_eq "$(jget "$TMP/ll.json" wire.senders.5.src)" fe80::1 "ll: link-local source"

# 5: a missing and a duplicated sequence number fail, and are named.
start_recv loss --port 0 --until-idle 1 --timeout 30 --accept-csum-partial
send -s 6 -n 20 -k 7 -d 9 192.0.2.2 "$PORT"
wait_recv loss 1
expect_eq "$(jget "$TMP/loss.json" wire.senders.6.lost)" 1 "loss: one lost"
expect_eq "$(jget "$TMP/loss.json" wire.senders.6.duplicates)" 1 "loss: one duplicate"
expect_eq "$(jget "$TMP/loss.json" socket.senders.6.lost)" 1 "loss: socket agrees"
expect_eq "$(jget "$TMP/loss.json" stopped_by)" idle "loss: ended when idle"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["failed"]; sys.exit(not ("max_loss" in f and "max_dup" in f))' "$TMP/loss.json"
ok $? "loss: failure names max_loss and max_dup"

# 6: the "any" device (Linux cooked capture) and an end by SIGTERM, which
# still writes every output.
start_recv any --port 0 --accept-csum-partial --iface any
send -s 8 -n 10 192.0.2.2 "$PORT"
sleep 0.5
kill -TERM "$RPID"
wait_recv any 0
expect_eq "$(jget "$TMP/any.json" wire.valid)" 10 "any: wire valid on cooked capture"
expect_eq "$(jget "$TMP/any.json" interrupted)" true "any: SIGTERM recorded"

# 7: timeout with nothing sent: the count expectation fails.
start_recv none --port 0 --timeout 1 --expect-count 1
wait_recv none 1

# 8: setup errors are exit 2 and leave nothing behind.
ip netns exec "$NR" "$RECV" --port 7000 --iface nosuchif0 --json "$TMP/e.json" \
	>/dev/null 2>"$TMP/e.err"
expect_eq "$?" 2 "bad iface: exit 2"
grep -q nosuchif0 "$TMP/e.err"; ok $? "bad iface: error names it"
[ ! -e "$TMP/e.json" ]; ok $? "bad iface: no JSON left"

echo "1..$n"
exit $failed
