#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Helpers of scenario remote-receiver.
#   remote-receiver.sh sim LAB REMOTE_SIM   the suite's test: run the scenario
#                                           with the simulated remote around it
#   remote-receiver.sh run LAB              inside remote-sim.sh: the scenario
#   remote-receiver.sh flap IFACE SECONDS   on the remote: IFACE down, then up;
#                                           prints the times (its clock) as JSON
set -eu
case "$1" in
sim)
	# the simulated remote is set up and torn down here, whatever the verdict
	exec "$3" "$0" run "$2"
	;;
run)
	exec "$2" run --underlay-netns "$SIM_UNDERLAY" --ssh-config "$SIM_SSH_CONFIG" remote-receiver
	;;
flap)
	ms() { date +%s%3N; }
	d=$(ms); ip link set dev "$2" down
	sleep "$3"
	u=$(ms); ip link set dev "$2" up
	printf '{"down_ms": %s, "up_ms": %s, "outage_ms": %s}\n' "$d" "$u" $((u - d))
	;;
*)
	echo "usage: remote-receiver.sh sim LAB REMOTE_SIM | run LAB | flap IFACE SECONDS" >&2
	exit 2
	;;
esac
