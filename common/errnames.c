// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "errnames.h"

/* Kernel-internal errnos (include/linux/errno.h) that libc does not know. */
static const struct { int e; const char *name, *text; } kernel_errnos[] = {
	{ 512, "ERESTARTSYS", "Restart system call" },
	{ 524, "ENOTSUPP", "Operation not supported by the device or kernel" },
	{ 526, "ESERVERFAULT", "Server fault" },
};

static int kernel_errno(int e)
{
	for (size_t i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (kernel_errnos[i].e == e)
			return (int)i;
	return -1;
}

const char *errno_name(int e)
{
	static __thread char buf[16];
	const char *n;
	int k;

	if (e < 0)
		e = -e;
	k = kernel_errno(e);
	if (k >= 0)
		return kernel_errnos[k].name;
	n = strerrorname_np(e);
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

const char *errno_text(int e)
{
	int k;

	if (e < 0)
		e = -e;
	k = kernel_errno(e);
	return k >= 0 ? kernel_errnos[k].text : strerror(e);
}

const char *errno_str(int e)
{
	static __thread char buf[4][160];
	static __thread int i;

	if (e < 0)
		e = -e;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s (%s, %d)", errno_text(e),
		 errno_name(e), -e);
	return buf[i];
}
