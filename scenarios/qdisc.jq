# qdisc: from the receiver's per-datagram log, each sender's delivered rate:
# wire bytes (Ethernet 14 + IPv4 20 + UDP 8 + bpfwire 40 + payload) after
# the first datagram, over the time from the first arrival to the last.
def rate(id):
  [ .[] | select(.side == "wire" and .verdict == "valid" and .sender_id == id) ] | sort_by(.ts_ns) as $d
  | (($d[-1].ts_ns - $d[0].ts_ns) / 1e9) as $s
  | ($d[1:] | map(82 + .payload_len) | add) as $bytes
  | { "s\(id)_datagrams": ($d | length),
      "s\(id)_span_ms": ($s * 1000 | floor),
      "s\(id)_kbit_s": ($bytes * 8 / $s / 1000 | floor),
      "s\(id)_per_s": ((($d | length) - 1) / $s | floor) };
rate(1) + rate(2)
