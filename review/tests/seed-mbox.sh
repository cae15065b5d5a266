#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The posted series as a reviewer holds them (b4 am: one mbox, one message
# a patch), from the seeds' files (the project's shared/seeds/):
#   ksock    007-011, mails already: each gets its mbox "From " line;
#   netpoll  001-004, git log -p text (commit, Author, Date, message,
#            ---, diff): each made a mail. The seeds carry no e-mail
#            address for the author: <unknown@example.invalid> stands in.
#
#   seed-mbox.sh SEEDS_DIR ksock|netpoll OUT
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: seed-mbox.sh SEEDS_DIR ksock|netpoll OUT" >&2; exit 2; }
seeds=$1 which=$2 out=$3
case $which in
ksock) files=("$seeds"/00[7-9]-*.patch "$seeds"/01[01]-*.patch) ;;
netpoll) files=("$seeds"/00[1-4]-*.patch) ;;
*) echo "seed-mbox.sh: '$which' is not ksock or netpoll" >&2; exit 2 ;;
esac
for f in "${files[@]}"; do [ -f "$f" ] || { echo "seed-mbox.sh: $f is missing" >&2; exit 1; }; done
: >"$out"
i=0
for f in "${files[@]}"; do
	i=$((i + 1))
	if [ "$which" = ksock ]; then
		{ echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"; cat "$f"; echo; } >>"$out"
		continue
	fi
	# git wants an RFC 2822 date; the seeds have YYYY-MM-DD.
	d=$(sed -n '2,6s/^Date: //p' "$f" | head -1)
	d=$(date -u -R -d "$d")
	awk -v n="$i" -v total="${#files[@]}" -v date="$d" '
		NR == 1 && /^commit / { sha = $2; next }
		!body && /^Author: / { sub(/^Author: /, ""); author = $0; next }
		!body && /^Date: / { next }
		!body && /^[A-Za-z-]+: / { next }
		!body && /^$/ { body = 1; next }
		body == 1 {
			printf "From %s Mon Sep 17 00:00:00 2001\n", sha
			printf "From: %s <unknown@example.invalid>\n", author
			printf "Date: %s\n", date
			printf "Subject: [PATCH bpf-next %d/%d] %s\n\n", n, total, $0
			body = 2; skip = 1; next
		}
		skip && /^$/ { skip = 0; next }
		{ skip = 0; print }
		END { print "" }
	' "$f" >>"$out"
done
