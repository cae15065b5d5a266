#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# CC of the kernel build (build.sh): gcc through ccache, except for a
# source that pulls a file in with .incbin (x86's compressed/piggy.S,
# kernel/configs.c, certs/*.S, usr/initramfs_data.S ...). In depend mode
# ccache hashes the source and the headers gcc lists, never the .incbin'd
# file: piggy.S names only the payload's sizes, so a new vmlinux of the
# same compressed size was served the last one's piggy.o, and the bzImage
# booted the kernel before (the review suite's changed-prototype review).
src=
for a; do
	case $a in
	*.c | *.S) src=$a ;;
	esac
done
if [ -n "$src" ] && grep -qs '\.incbin' "$src"; then
	exec gcc "$@"
fi
exec ccache gcc "$@"
