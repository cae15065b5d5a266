// SPDX-License-Identifier: GPL-2.0-only
/* Kernel series of a bzImage; see kseries.h. */
#include "kseries.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include <stdlib.h>

#include "errnames.h"
#include "file.h"
#include "kapi.h"
#include "lab-config.h"

unsigned kseries_parse(const char *name)
{
	if (!strcmp(name, "seed"))
		return KSERIES_SEED;
	if (!strcmp(name, "upstream"))
		return KSERIES_UPSTREAM;
	return 0;
}

const char *kseries_name(unsigned series)
{
	switch (series) {
	case KSERIES_SEED:
		return "seed";
	case KSERIES_UPSTREAM:
		return "upstream";
	case KSERIES_ALL:
		return "seed upstream";
	default:
		return "unknown";
	}
}

/* api.json is a few KiB; anything much larger is not one. */
#define KSERIES_API_JSON_MAX	(1u << 20)

static int bz_fail(char *err, size_t errlen, const char *path, const char *what, int e)
{
	snprintf(err, errlen, "%s: %s%s%s", path, what, e ? ": " : "",
		 e ? errno_str(-e) : "");
	return e ? -e : -EINVAL;
}

/*
 * x86 boot protocol: "HdrS" at 0x202, protocol version at 0x206, and at
 * 0x20e a pointer to the version string, relative to 0x200.
 */
int kseries_bzimage_release(const char *path, char *rel, size_t len, char *err, size_t errlen)
{
	unsigned char hdr[0x210];
	char ver[256];
	uint16_t off;
	ssize_t n;
	size_t i;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return bz_fail(err, errlen, path, "can't open", errno);
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		return bz_fail(err, errlen, path, "not a bzImage (no HdrS setup header)", 0);
	}
	off = hdr[0x20e] | hdr[0x20f] << 8;
	n = pread(fd, ver, sizeof(ver) - 1, 0x200 + (off_t)off);
	close(fd);
	if (!off || n <= 0)
		return bz_fail(err, errlen, path, "its setup header has no kernel version string", 0);
	ver[n] = 0;
	i = strcspn(ver, " ");
	if (!i)
		return bz_fail(err, errlen, path, "empty kernel version string", 0);
	/* the series' own bytes: only a well-formed release is ever printed */
	if (!kseries_release_ok(ver, i))
		snprintf(rel, len, "invalid (%zu bytes)", i);
	else
		snprintf(rel, len, "%.*s", (int)i, ver);
	return 0;
}

bool kseries_release_ok(const char *rel, size_t n)
{
	if (!n || n > KSERIES_RELEASE_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = rel[i];

		/* not isalnum(): a locale must not widen the set */
		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
		    c != '.' && c != '-' && c != '+' && c != '_')
			return false;
	}
	return true;
}

int kseries_kernel_api(const char *bzimage, int *ksock, int *netpoll, char *from, size_t fromlen,
		       char *err, size_t errlen)
{
	const char *slash = strrchr(bzimage, '/');
	int dirlen = slash ? (int)(slash - bzimage) : 1;
	const char *dir = slash ? bzimage : ".";
	char msg[512];
	struct kapi k;
	char *text;

	snprintf(from, fromlen, "%.*s/api.json", dirlen, dir);
	text = read_file_max(from, NULL, KSERIES_API_JSON_MAX);
	if (text) {
		json_object *doc = json_tokener_parse(text);
		enum kapi_ksock ks;
		enum kapi_netpoll np;
		int r = kapi_from_json(doc, &ks, &np, NULL, msg, sizeof(msg));

		json_object_put(doc);
		free(text);
		if (r) {
			snprintf(err, errlen, "%s: %s", from, msg);
			return -1;
		}
		*ksock = ks;
		*netpoll = np;
		return 1;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "can't read %s: %s", from, errno_str(-errno));
		return -1;
	}
	snprintf(from, fromlen, "%.*s/vmlinux", dirlen, dir);
	if (access(from, F_OK))
		return 0;
	if (kapi_detect_file(from, &k, err, errlen))
		return -1;
	*ksock = k.ksock;
	*netpoll = k.netpoll;
	return 1;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

unsigned kseries_of_release(const char *rel)
{
	if (ends_with(rel, "-bpfwire-up"))
		return KSERIES_UPSTREAM;
	if (ends_with(rel, "-bpfwire") || ends_with(rel, "-bpfwire-seed"))
		return KSERIES_SEED;
	return 0;
}

int kseries_boot_timeout(const char *rel, int timeout_s)
{
	if (strstr(rel, "-kasan-bpfwire") && timeout_s < KSERIES_KASAN_BOOT_S)
		return KSERIES_KASAN_BOOT_S;
	return timeout_s;
}

void kseries_kernel(unsigned series, char *path, size_t len)
{
	char rel[128], err[256];

	snprintf(path, len, "%s/kernel/bzImage", BPFWIRE_BUILD_ROOT);
	if (!kseries_bzimage_release(path, rel, sizeof(rel), err, sizeof(err)) &&
	    kseries_of_release(rel) == series)
		return;
	snprintf(path, len, "%s/%s/kernel/bzImage", BPFWIRE_SOURCE_ROOT,
		 series == KSERIES_UPSTREAM ? "build-up" : "build");
}
