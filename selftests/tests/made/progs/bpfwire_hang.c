// SPDX-License-Identifier: GPL-2.0-only
/* A map the watchdog's evidence must show: the hang test sets a value. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hang_state SEC(".maps");

SEC("syscall")
int hang_mark(void *ctx)
{
	__u32 k = 0;
	__u64 v = 0x68616e67;	/* "hang" */

	bpf_map_update_elem(&hang_state, &k, &v, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
