#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs as init inside one guest (see run_guest.sh): bpfwire-vcost
# (BW_VCOST, from the kernel command line) loads each of the agent's BPF
# programs and prints its verifier cost as TAP on the console.
. "$(dirname "$0")/guest_lib.sh"
"$(host_path "$BW_VCOST")"
echo "BPFWIRE-GUEST-DONE failed=$?"
reboot -f
