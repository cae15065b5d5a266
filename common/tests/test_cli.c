// SPDX-License-Identifier: GPL-2.0-only
/* cli.c's lines: which option was wrong and what is accepted, and exit 2. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "tap.h"

static char said[4096];

static const char shortopts[] = ":a:bx";
static const struct option longopts[] = {
	{ "alpha", required_argument, NULL, 'a' },
	{ "beta", no_argument, NULL, 'b' },
	{ NULL, 0, NULL, 0 },
};

/* stderr of fn into said */
#define CAPTURE(call) ({						\
	int fd_ = memfd_create("stderr", 0), saved_ = dup(2), r_;	\
	ssize_t n_;							\
	fflush(stderr);							\
	dup2(fd_, 2);							\
	r_ = (call);							\
	fflush(stderr);							\
	dup2(saved_, 2);						\
	close(saved_);							\
	n_ = pread(fd_, said, sizeof(said) - 1, 0);			\
	said[n_ > 0 ? n_ : 0] = 0;					\
	close(fd_);							\
	r_;								\
})

/* getopt_long over args until the first error, then cli_bad_option. */
static int parse(char **args)
{
	int argc = 0, c;

	while (args[argc])
		argc++;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, args, shortopts, longopts, NULL)) != -1)
		if (c == '?' || c == ':')
			return cli_bad_option("prog", args, shortopts, longopts);
	return 0;
}

static void bad_option(char **args, const char *line, const char *name)
{
	ASSERT_EQ(CAPTURE(parse(args)), CLI_EUSAGE, name);
	ASSERT_HAS(said, line, name);
	ASSERT_HAS(said, "accepted: --alpha=V --beta -x\n", name);
	ASSERT_HAS(said, "(prog --help for details)\n", name);
}

int main(void)
{
	bad_option((char *[]){ "prog", "--beta", "--nope", NULL },
		   "prog: unknown option '--nope'\n", "unknown long option");
	bad_option((char *[]){ "prog", "pos", "--nope=3", NULL },
		   "prog: unknown option '--nope=3'\n", "unknown long option after a positional");
	bad_option((char *[]){ "prog", "-z", NULL }, "prog: unknown option '-z'\n",
		   "unknown short option");
	bad_option((char *[]){ "prog", "-bz", NULL }, "prog: unknown option '-z'\n",
		   "unknown short option in a cluster");
	bad_option((char *[]){ "prog", "--alpha", NULL }, "prog: option '--alpha' needs a value\n",
		   "long option without its value");
	bad_option((char *[]){ "prog", "-a", NULL }, "prog: option '-a' needs a value\n",
		   "short option without its value");

	ASSERT_EQ(CAPTURE(cli_bad_value("prog", "--alpha", "7", "one of 1|2")), CLI_EUSAGE,
		  "cli_bad_value");
	ASSERT_STREQ(said, "prog: --alpha: '7' is not one of 1|2\n", "cli_bad_value's line");
	ASSERT_EQ(CAPTURE(cli_bad_args("prog", "takes one RUN, not %d", 2)), CLI_EUSAGE,
		  "cli_bad_args");
	ASSERT_STREQ(said, "prog: takes one RUN, not 2 (prog --help for details)\n",
		     "cli_bad_args's line");
	ASSERT_TRUE(!strncmp(bpfwire_version, BPFWIRE_PROJECT_VERSION " (",
			     strlen(BPFWIRE_PROJECT_VERSION " (")),
		    "bpfwire_version: Meson's version, then (git describe)");
	return tap_done();
}
