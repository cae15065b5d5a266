#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# test_dissector.sh LUA PCAP EXPECTED: tshark with trace/bpfwire.lua on a
# capture saved from agent-killed (3 ksock and 3 netpoll datagrams) must
# decode every field as EXPECTED says (decoded apart, by hand, from the raw
# UDP payloads). Then each field's offset is broken in a copy of the
# dissector, and the same comparison must fail: the test can tell.
lua=$1 pcap=$2 expected=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0

decode() {
	tshark -n -X lua_script:"$1" -r "$pcap" -Y bpfwire -T fields -E separator=' ' \
		-e bpfwire.magic -e bpfwire.version -e bpfwire.type -e bpfwire.hdr_len \
		-e bpfwire.sender -e bpfwire.payload_len -e bpfwire.seq -e bpfwire.timestamp \
		-e bpfwire.check -e bpfwire.comm -e bpfwire.path -e bpfwire.check_good 2>"$tmp/err"
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
echo "1..$(( $# + 2 ))"

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
exit $bad
