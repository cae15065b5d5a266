# SPDX-License-Identifier: GPL-2.0-only
# Sourced first by each guest init of run_guest.sh: the mounts every one
# needs, and host_path for a path on the host's /tmp (a CI clone).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev 2>/dev/null
# /run 0755 (tmpfs makes 1777): the key files below live there, and a
# key in a directory others can write is refused (StrictModes).
mount -t tmpfs -o mode=0755 run /run; mount -t bpf bpf /sys/fs/bpf
# The build tree may live under /tmp (a CI clone): keep the host's /tmp
# reachable before a tmpfs covers it.
mkdir -p /run/host-tmp && mount --bind /tmp /run/host-tmp
mount -t tmpfs tmp /tmp
host_path() { case $1 in /tmp/*) echo "/run/host-tmp/${1#/tmp/}" ;; *) echo "$1" ;; esac; }
