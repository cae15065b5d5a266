// SPDX-License-Identifier: GPL-2.0-only
/* errno names for messages and status output. */
#define _GNU_SOURCE
#include <string.h>
#include <stdio.h>
#include "args.h"

/* Kernel-internal errnos (include/linux/errno.h) that libc does not know. */
static const struct { int e; const char *name, *text; } kernel_errnos[] = {
	{ 512, "ERESTARTSYS", "Restart system call" },
	{ 524, "ENOTSUPP", "Operation not supported by the device or kernel" },
	{ 526, "ESERVERFAULT", "Server fault" },
};

const char *bpfwire_errno_name(int e)
{
	static __thread char buf[16];
	const char *n;
	size_t i;

	if (e < 0)
		e = -e;
	for (i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (kernel_errnos[i].e == e)
			return kernel_errnos[i].name;
	n = strerrorname_np(e);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

const char *bpfwire_strerror(int e)
{
	size_t i;

	if (e < 0)
		e = -e;
	for (i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (kernel_errnos[i].e == e)
			return kernel_errnos[i].text;
	return strerror(e);
}
