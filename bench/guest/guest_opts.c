// SPDX-License-Identifier: GPL-2.0-only
/* bpfwire-bench-guest's option tables, parsed (guest_opts.h). */
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <string.h>
#include "cli.h"
#include "guest.h"
#include "guest_opts.h"
#include "guest_out.h"
#include "guest_parse.h"
#include "log.h"

static int opt_uint(const char *name, const char *s, uint64_t min, uint64_t max,
		    uint64_t *v)
{
	if (bg_parse_uint(s, min, max, v))
		return usage_error("bad %s '%s': need an integer %" PRIu64 "..%" PRIu64,
				   name, s, min, max);
	return 0;
}

/* One value into its option's place; 0, or 2 when it is not in range. */
static int opt_store(const struct gopt *o, const char *arg)
{
	char flag[40];

	switch (o->kind) {
	case GOPT_STRING:
		*(const char **)o->dst = arg;
		break;
	case GOPT_UINT:
		snprintf(flag, sizeof(flag), "--%s", o->name);
		if (opt_uint(flag, arg, o->min, o->max, o->dst))
			return 2;
		break;
	case GOPT_FLAG:
		*(int *)o->dst = 1;
		break;
	}
	if (o->seen)
		*o->seen = 1;
	return 0;
}

int guest_opts_parse(int argc, char **argv, const struct gopt *opts, size_t n,
		     void (*usage)(FILE *f))
{
	struct option lo[GOPT_MAX + 2] = { 0 };
	size_t i;
	int c;

	if (n > GOPT_MAX) {
		pr_warn("%zu options: the table holds %d", n, GOPT_MAX);
		return 2;
	}
	for (i = 0; i < n; i++)
		lo[i] = (struct option){ opts[i].name,
			opts[i].kind == GOPT_FLAG ? no_argument : required_argument, 0, opts[i].val };
	lo[n] = (struct option){ "help", no_argument, 0, 'h' };

	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		for (i = 0; i < n && opts[i].val != c; i++)
			;
		if (i == n)
			return cli_bad_option(log_prog, argv, "h", lo);
		if (opt_store(&opts[i], optarg))
			return 2;
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	return -1;
}

int opt_common(struct out *out)
{
	if (!out->json_path)
		return usage_error("missing --json FILE");
	if (strlen(out->dev) >= IF_NAMESIZE || !if_nametoindex(out->dev))
		return usage_error("no network device '%s' (--dev)", out->dev);
	return 0;
}
