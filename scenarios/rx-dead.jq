# rx-dead: the figures of one run (one family), flat, for `report` and `check`.
# jq -n --arg dst ADDR --argjson kid N --argjson nid N
#   --slurpfile k KSOCK-LOG --slurpfile n NETPOLL-LOG    bpfwire-recv --log-file lines
#   --slurpfile s1 .. --slurpfile s4                       rx-dead.sh snap: before the
#       kill, end of the outage, just after the restore, end of the stream
#   --slurpfile kill --slurpfile restore                   rx-dead.sh rx stamps
#   --rawfile mon NEIGH-LOG                                "UPTIME ip-monitor-line" lines
#
# Clocks: everything is put in the sender's CLOCK_MONOTONIC (the datagrams'
# sender_ts_ns), in ms. The receiver's capture stamps and its rx stamps are
# its CLOCK_REALTIME; the offset between the two clocks is the smallest
# (arrival - sender_ts) seen, as in link-flap.jq (it includes the smallest
# one-way delay, well under 1 ms). The neighbour log is stamped with the
# sender's /proc/uptime, the same clock as CLOCK_MONOTONIC in a guest that
# never suspends (10 ms resolution).
#
# Phases are cut by the senders' own last_seq in the snapshots, so that the
# sender and receiver figures of a phase count the same datagrams:
#   before (seq <= s1), outage (s1 < seq <= s2), restore (s2 < seq <= s3),
#   after (seq > s3).

def valid(l; id): [l[] | select(.side == "wire" and .verdict == "valid" and .sender_id == id)]
  | unique_by(.seq);
def ms: . / 1e6 | floor;
def ctr(s; via): s.status.senders | map(select(.via == via))[0].counters;

([$k[], $n[]] | map(select(.side == "wire" and .verdict == "valid")) | map(.ts_ns - .sender_ts_ns) | min) as $off
| ((($kill[0].from_ns + $kill[0].to_ns) / 2) - $off) as $kill_ns
| ((($restore[0].from_ns + $restore[0].to_ns) / 2) - $off) as $restore_ns

| def path(name; l; id; via):
    valid(l; id) as $d
    | ctr($s1[0]; via) as $c1 | ctr($s2[0]; via) as $c2
    | ctr($s3[0]; via) as $c3 | ctr($s4[0]; via) as $c4
    | ($d | map(.seq)) as $seq
    | ($d | map({key: (.seq | tostring), value: .}) | from_entries) as $by
    # holes: [a, b] = the lost run a..b; a tail loss shows against last_seq
    | ([range(1; $seq | length) | select($seq[.] - $seq[. - 1] > 1) | [$seq[. - 1] + 1, $seq[.] - 1]]
       + (if ($seq | length) == 0 then [[1, $c4.last_seq]]
          elif $seq[0] > 1 then [[1, $seq[0] - 1]] else [] end)
       + (if ($seq | length) > 0 and $c4.last_seq > $seq[-1] then [[$seq[-1] + 1, $c4.last_seq]] else [] end)
      | sort) as $holes
    # the stream's end is the last arrival of either path (netpoll's normally):
    # a loss at the tail is a pause up to it
    | ([valid($k; $kid)[], valid($n; $nid)[]] | map(.ts_ns - $off) | max) as $stream_end
    | ($d | map(.ts_ns - $off) | sort | if length > 0 and $stream_end > .[-1] then . + [$stream_end] else . end) as $arr
    | ([range(1; $arr | length) | {i: ., g: ($arr[.] - $arr[. - 1])}] | max_by(.g)) as $gap
    | { "\(name)_events": $c4.events,
        "\(name)_sent": $c4.sent,
        "\(name)_failed": $c4.failed,
        "\(name)_errors": ($c4.errors | tojson),
        "\(name)_received": ($seq | length),
        "\(name)_lost": ($c4.last_seq - ($seq | length)),
        "\(name)_sent_never_arrived": ($c4.sent - ($seq | length)),
        "\(name)_loss_runs": ($holes | length),
        "\(name)_first_lost_seq": (if ($holes | length) > 0 then $holes[0][0] else 0 end),
        "\(name)_last_lost_seq": (if ($holes | length) > 0 then $holes[-1][1] else 0 end),
        "\(name)_before_events": $c1.last_seq,
        "\(name)_before_sent": $c1.sent,
        "\(name)_before_received": ($seq | map(select(. <= $c1.last_seq)) | length),
        "\(name)_outage_events": ($c2.last_seq - $c1.last_seq),
        "\(name)_outage_sent": ($c2.sent - $c1.sent),
        "\(name)_outage_failed": ($c2.failed - $c1.failed),
        "\(name)_outage_received": ($seq | map(select(. > $c1.last_seq and . <= $c2.last_seq)) | length),
        "\(name)_restore_events": ($c3.last_seq - $c2.last_seq),
        "\(name)_restore_sent": ($c3.sent - $c2.sent),
        "\(name)_restore_received": ($seq | map(select(. > $c2.last_seq and . <= $c3.last_seq)) | length),
        "\(name)_after_events": ($c4.last_seq - $c3.last_seq),
        "\(name)_after_sent": ($c4.sent - $c3.sent),
        "\(name)_after_failed": ($c4.failed - $c3.failed),
        "\(name)_after_received": ($seq | map(select(. > $c3.last_seq)) | length),
        # the longest pause in arrivals, from the kill and to the restore
        "\(name)_max_gap_ms": (if $gap then $gap.g | ms else 0 end),
        "\(name)_gap_from_kill_ms": (if $gap then ($arr[$gap.i - 1] - $kill_ns) | ms else 0 end),
        "\(name)_gap_to_restore_ms": (if $gap then ($arr[$gap.i] - $restore_ns) | ms else 0 end) }
      as $f
    # one line for summary.txt
    | $f + { "\(name)_story": ("\($f["\(name)_received"]) of \($c4.last_seq) arrived, \($f["\(name)_sent_never_arrived"]) counted as sent never did, \($c4.failed) failed"
        + (if ($holes | length) > 0 then "; lost seq \($holes | map("\(.[0])-\(.[1])") | join(","))" else "" end)
        + "; longest pause \($f["\(name)_max_gap_ms"]) ms") }
    + (if ($holes | length) > 0 and $holes[0][0] > 1 and $by[($holes[0][0] - 1) | tostring] then
        # the last datagram that arrived before the loss, made this long after the kill
        { "\(name)_loss_after_kill_ms": (($by[($holes[0][0] - 1) | tostring].sender_ts_ns - $kill_ns) | ms) }
      else {} end)
    + (if ($holes | length) > 0 and $by[($holes[-1][1] + 1) | tostring] then
        $by[($holes[-1][1] + 1) | tostring] as $r
        # the first datagram after the loss: when it was made and when it arrived
        | { "\(name)_resume_seq": $r.seq,
            "\(name)_resume_made_ms": (($r.sender_ts_ns - $restore_ns) | ms),
            "\(name)_resume_arrived_ms": (($r.ts_ns - $off - $restore_ns) | ms) }
      else {} end);

# the neighbour's transitions (ip monitor: STALE, PROBE, FAILED, REACHABLE;
# the kernel does not announce DELAY or INCOMPLETE). The outage's story
# starts at the last REACHABLE before the kill: the STALE that ends it may
# come before the kill.
($mon | split("\n") | map(split(" ") | select(length > 2 and .[1] == $dst and .[2] != "Deleted"))
 | map({t: ((.[0] | tonumber) * 1e9), state: .[-1]})) as $nl
| ([range($nl | length) | select(($nl[.].state == "REACHABLE" or $nl[.].state == "PERMANENT") and $nl[.].t <= $kill_ns)] | max) as $from
| ($nl[($from // 0):] | map(select(.t <= $restore_ns and ($from != null or .t >= $kill_ns)))) as $out
| ($nl | map(select(.t > $restore_ns and .t <= $s4[0].uptime_s * 1e9))) as $after
| def cnt(s): $out | map(select(.state == s)) | length;
  def firstms(s): ($out | map(select(.state == s and .t >= $kill_ns)) | first) as $e | if $e then (($e.t - $kill_ns) | ms) else -1 end;

{ dst: $dst,
  kill_ms: ($kill_ns | ms),
  kill_window_ms: (($kill[0].to_ns - $kill[0].from_ns) | ms),
  restore_ms: ($restore_ns | ms),
  restore_window_ms: (($restore[0].to_ns - $restore[0].from_ns) | ms),
  outage_ms: (($restore_ns - $kill_ns) | ms),
  frames_to_sender_dropped: $restore[0].netem_dropped,
  neigh_states_outage: ($out | map("\(.state)@\((.t - $kill_ns) | ms)") | join(" ")),
  neigh_states_after: ($after | map("\(.state)@+\((.t - $restore_ns) | ms)") | join(" ")),
  neigh_stale: cnt("STALE"), neigh_probe: cnt("PROBE"), neigh_failed: cnt("FAILED"),
  neigh_reachable: cnt("REACHABLE"),
  neigh_first_failed_ms: firstms("FAILED"),
  neigh_reachable_after: ($after | map(select(.state == "REACHABLE" or .state == "PERMANENT")) | length),
  neigh_s1: ($s1[0].neigh | map(.state | join(",")) | join(";")),
  neigh_s2: ($s2[0].neigh | map(.state | join(",")) | join(";")),
  neigh_s3: ($s3[0].neigh | map(.state | join(",")) | join(";")),
  neigh_s4: ($s4[0].neigh | map(.state | join(",")) | join(";")),
  unresolved_discards_outage: ($s2[0].cache.unresolved_discards - $s1[0].cache.unresolved_discards),
  unresolved_discards_run: ($s4[0].cache.unresolved_discards - $s1[0].cache.unresolved_discards),
  res_failed_outage: ($s2[0].cache.res_failed - $s1[0].cache.res_failed),
  res_failed_run: ($s4[0].cache.res_failed - $s1[0].cache.res_failed),
  icmp_out_dest_unreachs_run: ($s4[0].icmp.out_dest_unreachs - $s1[0].icmp.out_dest_unreachs),
  icmp_in_dest_unreachs_run: ($s4[0].icmp.in_dest_unreachs - $s1[0].icmp.in_dest_unreachs) }
+ path("ksock"; $k; $kid; "ksock")
+ path("netpoll"; $n; $nid; "netpoll")
