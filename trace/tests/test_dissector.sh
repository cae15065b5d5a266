#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# test_dissector.sh LUA PCAP EXPECTED: tshark with trace/bpfwire.lua on a
# capture saved from agent-killed (3 ksock and 3 netpoll datagrams) must
# decode every field as EXPECTED says (decoded apart, by hand, from the raw
# UDP payloads). Then each field's offset is broken in a copy of the
# dissector, and the same comparison must fail: the test can tell.
# The same for wire format v2 with v2.pcap and v2.expected beside PCAP: a
# signed OPEN with two events, an unsigned TEST, a signed EXEC whose check is
# wrong, and a v1 OPEN, written by a one-off script from common/wire.h's layout
# (SipHash-2-4 under key 0f1e2d3c4b5a69788796a5b4c3d2e1f0, key id 3); v2.expected holds
# the values that script put in, the tags as it computed them. A fifth,
# appended for batching: an unsigned OPEN batch of 8 events (--batch 8),
# 360 bytes, pids 5000..5007, paths /tmp/w/b/0..7.
# Wire format v3 with v3.pcap and v3.expected: an encrypted OPEN
# (/etc/shadow), an encrypted EXEC of two events, an encrypted OPEN with a
# ciphertext byte flipped after sealing (bad check) and a clear signed v2
# OPEN, written with receiver/tests/craft.h and common/wirecrypt.h (MAC key
# as above, AES-128 key 2b7e151628aed2a6abf7158809cf4f3c, key id 3, epoch
# 0x5dcd7438b80d87c8). The first payload was decrypted apart with
# `openssl enc -d -aes-128-ctr -iv 5dcd7438b80d87c80000000000010000` to
# pid 4242, cat, /etc/shadow. The header is decoded, the payload shown as
# bytes (bpfwire.encrypted_payload), and no pid or path comes out of it.
lua=$1 pcap=$2 expected=$3
v2pcap=$(dirname "$pcap")/v2.pcap v2expected=$(dirname "$pcap")/v2.expected
v3pcap=$(dirname "$pcap")/v3.pcap v3expected=$(dirname "$pcap")/v3.expected
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0

decode() {
	tshark -n -X lua_script:"$1" -r "$pcap" -Y bpfwire -T fields -E separator=' ' \
		-e bpfwire.magic -e bpfwire.version -e bpfwire.type -e bpfwire.hdr_len \
		-e bpfwire.sender -e bpfwire.payload_len -e bpfwire.seq -e bpfwire.timestamp \
		-e bpfwire.check -e bpfwire.comm -e bpfwire.path -e bpfwire.check_good 2>"$tmp/err"
}

decode_v2() {
	tshark -n -X lua_script:"$1" -r "$v2pcap" -Y bpfwire -T fields -E separator=' ' \
		-e bpfwire.version -e bpfwire.type -e bpfwire.sender -e bpfwire.seq \
		-e bpfwire.v2 -e bpfwire.flags -e bpfwire.flags.signed -e bpfwire.key_id \
		-e bpfwire.n_events -e bpfwire.epoch -e bpfwire.tag -e bpfwire.check_good \
		-e bpfwire.pid -e bpfwire.path 2>"$tmp/err"
}

decode_v3() {
	tshark -n -X lua_script:"$1" -r "$v3pcap" -Y bpfwire -T fields -E separator=' ' \
		-e bpfwire.version -e bpfwire.type -e bpfwire.sender -e bpfwire.seq \
		-e bpfwire.v2 -e bpfwire.v3 -e bpfwire.flags -e bpfwire.flags.signed \
		-e bpfwire.flags.encrypted -e bpfwire.key_id -e bpfwire.n_events -e bpfwire.epoch \
		-e bpfwire.tag -e bpfwire.check_good -e bpfwire.pid -e bpfwire.path \
		-e bpfwire.encrypted_payload 2>"$tmp/err"
}

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); bad=1; echo "not ok $n - $1"; }

# One mutant per field the issue names: magic, version, sender, seq, type, timestamp.
set -- \
	'magic|s/tvb(0, 4):uint() ~= MAGIC/tvb(0, 4):uint() ~= MAGIC + 1/' \
	'version|s/f.version, tvb(4, 1)/f.version, tvb(7, 1)/' \
	'type|s/f.type, tvb(5, 1)/f.type, tvb(4, 1)/' \
	'sender|s/f.sender, tvb(8, 4)/f.sender, tvb(12, 4)/' \
	'seq|s/f.seq, tvb(16, 8)/f.seq, tvb(17, 8)/' \
	'timestamp|s/f.timestamp, tvb(24, 8)/f.timestamp, tvb(25, 8)/'
# v2 mutants: flags, key id, n_events, epoch, tag, and the tag left out of the check.
v2mutants='flags|s/f.flags, tvb(36, 1)/f.flags, tvb(37, 1)/
key_id|s/f.key_id, tvb(37, 1)/f.key_id, tvb(36, 1)/
n_events|s/n = tvb(38, 2):uint()/n = 1/
epoch|s/f.epoch, tvb(40, 8)/f.epoch, tvb(41, 8)/
tag|s/f.tag, tvb(48, 8)/f.tag, tvb(47, 8)/
check|s/i >= 48 and i < 56/i >= 48 and i < 55/'
# v3 mutants: the encrypted bit, the ciphertext read as events, v3's check
# without the tag zeroed (v3 taken for v1), v3 shown as v2.
v3mutants='encrypted|s/8, nil, 0x02/8, nil, 0x04/
as-events|s/local enc = v2 and ver == 3/local enc = false/
check|s/(ver == 2 or ver == 3) and len/ver == 2 and len/
v3|s/ver == 3 and f.v3 or f.v2/f.v2/'
echo "1..$(( $# + 2 + 2 + $(echo "$v2mutants" | wc -l) + 2 + $(echo "$v3mutants" | wc -l) ))"

if decode "$lua" > "$tmp/got" && [ -s "$tmp/got" ]; then
	ok "tshark decodes $(wc -l < "$tmp/got") datagrams"
else
	not_ok "tshark decodes the capture"; sed 's/^/# /' "$tmp/err"
fi
if cmp -s "$tmp/got" "$expected"; then
	ok "magic, version, type, hdr_len, sender, payload_len, seq, timestamp, check, comm, path, check_good as expected"
else
	not_ok "fields as expected"
	diff "$expected" "$tmp/got" | sed 's/^/# /'
fi
for m in "$@"; do
	name=${m%%|*} expr=${m#*|}
	sed "$expr" "$lua" > "$tmp/mutant.lua"
	if cmp -s "$tmp/mutant.lua" "$lua"; then
		not_ok "mutant '$name' did not change the dissector (fix its sed)"
		continue
	fi
	decode "$tmp/mutant.lua" > "$tmp/mut" || true
	if cmp -s "$tmp/mut" "$expected"; then
		not_ok "a dissector decoding $name wrong still passes"
	else
		ok "a dissector decoding $name wrong fails the comparison"
	fi
done

if decode_v2 "$lua" > "$tmp/got2" && [ -s "$tmp/got2" ]; then
	ok "tshark decodes $(wc -l < "$tmp/got2") datagrams of v2.pcap"
else
	not_ok "tshark decodes v2.pcap"; sed 's/^/# /' "$tmp/err"
fi
if cmp -s "$tmp/got2" "$v2expected"; then
	ok "v2: version, type, sender, seq, v2, flags, signed, key_id, n_events, epoch, tag, check_good, pids, paths as expected"
else
	not_ok "v2 fields as expected"
	diff "$v2expected" "$tmp/got2" | sed 's/^/# /'
fi
while IFS= read -r m; do
	name=${m%%|*} expr=${m#*|}
	sed "$expr" "$lua" > "$tmp/mutant.lua"
	if cmp -s "$tmp/mutant.lua" "$lua"; then
		not_ok "mutant v2 '$name' did not change the dissector (fix its sed)"
		continue
	fi
	decode_v2 "$tmp/mutant.lua" > "$tmp/mut" || true
	if cmp -s "$tmp/mut" "$v2expected"; then
		not_ok "a dissector decoding v2 $name wrong still passes"
	else
		ok "a dissector decoding v2 $name wrong fails the comparison"
	fi
done <<EOF
$v2mutants
EOF

if decode_v3 "$lua" > "$tmp/got3" && [ -s "$tmp/got3" ]; then
	ok "tshark decodes $(wc -l < "$tmp/got3") datagrams of v3.pcap"
else
	not_ok "tshark decodes v3.pcap"; sed 's/^/# /' "$tmp/err"
fi
if cmp -s "$tmp/got3" "$v3expected"; then
	ok "v3: version, type, sender, seq, v2/v3, flags, signed, encrypted, key_id, n_events, epoch, tag, check_good, no pid or path, the encrypted payload as expected"
else
	not_ok "v3 fields as expected"
	diff "$v3expected" "$tmp/got3" | sed 's/^/# /'
fi
while IFS= read -r m; do
	name=${m%%|*} expr=${m#*|}
	sed "$expr" "$lua" > "$tmp/mutant.lua"
	if cmp -s "$tmp/mutant.lua" "$lua"; then
		not_ok "mutant v3 '$name' did not change the dissector (fix its sed)"
		continue
	fi
	decode_v3 "$tmp/mutant.lua" > "$tmp/mut" || true
	if cmp -s "$tmp/mut" "$v3expected"; then
		not_ok "a dissector decoding v3 $name wrong still passes"
	else
		ok "a dissector decoding v3 $name wrong fails the comparison"
	fi
done <<EOF
$v3mutants
EOF
exit $bad
