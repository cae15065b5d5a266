#!/bin/bash
# Is FILE what `bpftool btf dump format c` writes, and nothing more? A
# series' BTF becomes vmlinux.h, which root's clang compiles: it may
# declare types, but a directive could read a host file (#include, a
# digraph %:include), and asm(".incbin") or _Pragma could do the same from
# a crafted type name. Exit 0 when every directive line is one bpftool
# writes and none of those tokens appears; else one line on stderr, exit 1.
#
#   check-vmlinux-h.sh FILE
set -euo pipefail
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: check-vmlinux-h.sh FILE" >&2; exit 2; }
LC_ALL=C awk '
	BEGIN {
		split("#ifndef __VMLINUX_H__|#define __VMLINUX_H__|#endif /* __VMLINUX_H__ */|" \
		      "#ifndef BPF_NO_PRESERVE_ACCESS_INDEX|#endif|" \
		      "#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)|" \
		      "#pragma clang attribute pop|#ifndef __ksym|#ifndef __weak|#ifndef BPF_NO_KFUNC_PROTOTYPES|" \
		      "#define __ksym __attribute__((section(\".ksyms\")))|#define __weak __attribute__((weak))|" \
		      "#ifndef __bpf_fastcall|#if __has_attribute(bpf_fastcall)|" \
		      "#define __bpf_fastcall __attribute__((bpf_fastcall))|#else|#define __bpf_fastcall",
		      ok, "|")
		for (i in ok) allowed[ok[i]] = 1
	}
	function bad(why) {
		printf "check-vmlinux-h: %s line %d: %s: not what bpftool writes\n", FILENAME, FNR, why > "/dev/stderr"
		exit 1
	}
	/\\$/ { bad("a line continuation") }
	/\?\?=/ { bad("a trigraph") }
	/^[ \t]*(#|%:)/ { l = $0; sub(/[ \t]+$/, "", l); if (!(l in allowed)) bad("a directive bpftool does not write") }
	/(^|[^A-Za-z0-9_])(_Pragma|asm|__asm|__asm__|__has_embed)([^A-Za-z0-9_]|$)/ { bad("an asm or _Pragma token") }
	/incbin/ { bad("incbin") }
' "$1"
