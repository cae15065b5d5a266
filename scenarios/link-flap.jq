# link-flap: from the receiver's per-datagram log (bpfwire-recv --log-file), per
# sender id, where the arrivals paused and which sequence numbers were lost.
# Arrival times are mapped into the sender's clock by the smallest
# (arrival - sender timestamp) seen, so they compare with the sender's
# carrier times. With no loss, the loss bounds are the arrival gap's.
def fig(id):
  [ .[] | select(.side == "wire" and .verdict == "valid" and .sender_id == id) ] as $d
  | ($d | map(.ts_ns - .sender_ts_ns) | min) as $off
  | ($d | map(.ts_ns - $off) | sort) as $a
  | ([range(1; $a | length) | {i: ., g: ($a[.] - $a[. - 1])}] | max_by(.g)) as $gap
  | ($d | map(.seq) | sort) as $seq
  | ($d | map({key: (.seq | tostring), value: .sender_ts_ns}) | from_entries) as $ts
  | ([range(1; $seq | length) | select($seq[.] - $seq[. - 1] > 1) | {a: $seq[. - 1], b: $seq[.], n: ($seq[.] - $seq[. - 1] - 1)}]) as $holes
  | { "s\(id)_arrival_gap_start_ms": (($a[$gap.i - 1]) / 1e6 | floor),
      "s\(id)_arrival_gap_end_ms": (($a[$gap.i]) / 1e6 | floor),
      "s\(id)_loss_runs": ($holes | length),
      "s\(id)_lost_in_runs": ($holes | map(.n) | add // 0),
      "s\(id)_loss_after_ms": (if ($holes | length) > 0 then ($ts[$holes[0].a | tostring] / 1e6 | floor) else ($a[$gap.i - 1] / 1e6 | floor) end),
      "s\(id)_loss_before_ms": (if ($holes | length) > 0 then ($ts[$holes[-1].b | tostring] / 1e6 | floor) else ($a[$gap.i] / 1e6 | floor) end) };
fig(1) + fig(2)
