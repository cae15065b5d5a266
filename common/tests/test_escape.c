// SPDX-License-Identifier: GPL-2.0-only
/* TAP: escape.h's escaping of untrusted text, and the splat quotes that use it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "splat.h"
#include "tap.h"

struct esc_case { const char *name, *in; size_t len; unsigned flags; const char *want; };

#define C(name, in, flags, want) { name, in, sizeof(in) - 1, flags, want }

static const struct esc_case cases[] = {
	C("plain ASCII passes", "rx: valid=3, lost=0", 0, "rx: valid=3, lost=0"),
	C("ESC of a CSI", "\x1b[2J\x1b[H", 0, "\\x1b[2J\\x1b[H"),
	C("an OSC title with BEL", "\x1b]0;pwned\a", 0, "\\x1b]0;pwned\\x07"),
	C("a newline cannot start a line", "a\nconsole splats: 0", 0, "a\\nconsole splats: 0"),
	C("CR and tab", "ok\rFAIL\tx", 0, "ok\\rFAIL\\tx"),
	C("ESC_KEEP_NL keeps newline and tab", "a\n\tb\r\n", ESC_KEEP_NL, "a\n\tb\\r\n"),
	C("ESC_KEEP_NL still escapes ESC", "\x1b[31mred\n", ESC_KEEP_NL, "\\x1b[31mred\n"),
	C("a backslash is doubled", "\\x1b", 0, "\\\\x1b"),
	C("NUL and DEL", "a\0b\x7f", 0, "a\\x00b\\x7f"),
	C("UTF-8 passes", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", 0, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7"),
	C("a C1 CSI in UTF-8", "\xc2\x9b" "31m", 0, "\\xc2\\x9b31m"),
	C("a lone 8-bit CSI byte", "\x9b" "31m", 0, "\\x9b31m"),
	C("an overlong slash", "\xc0\xaf", 0, "\\xc0\\xaf"),
	C("a surrogate", "\xed\xa0\x80", 0, "\\xed\\xa0\\x80"),
	C("a bidi override", "abc\xe2\x80\xae" "cba", 0, "abc\\xe2\\x80\\xaecba"),
	C("a sequence cut at the end", "x\xe2\x82", 0, "x\\xe2\\x82"),
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct esc_case *c = &cases[i];
		char out[256], *m = NULL;
		size_t mlen = 0, n;
		FILE *f;

		tap_case_begin(c->name);
		n = esc_str(out, sizeof(out), c->in, c->len, c->flags);
		ASSERT_STREQ(out, c->want, "esc_str");
		ASSERT_EQ(n, strlen(c->want), "esc_str's length");
		f = open_memstream(&m, &mlen);
		if (ASSERT_OK_PTR(f, "memstream")) {
			ASSERT_OK(esc_fwrite(f, c->in, c->len, c->flags), "esc_fwrite");
			fclose(f);
			ASSERT_STREQ(m, c->want, "esc_fwrite writes the same");
		}
		free(m);
		tap_case_end();
	}
}

static void test_cut(void)
{
	char out[8];

	tap_case_begin("a short buffer is cut between escapes, never inside one");
	ASSERT_EQ(esc_str(out, 6, "ab\x1b" "c", 4, 0), 7, "the length the whole takes");
	ASSERT_STREQ(out, "ab", "\\x1b does not fit in 6: dropped whole");
	ASSERT_EQ(esc_str(out, 7, "ab\x1b" "c", 4, 0), 7, "the same length");
	ASSERT_STREQ(out, "ab\\x1b", "it fits in 7, the c after it does not");
	ASSERT_EQ(esc_str(NULL, 0, "\n", 1, 0), 2, "outlen 0 only counts");
	ASSERT_OK(esc_fputs(stdout, NULL, 0), "esc_fputs(NULL) writes nothing");
	tap_case_end();
}

/* A console quote is a guest's text: escaped, one quoted line per console line. */
static void test_splat_quote(void)
{
	static const char console[] = "boot\r\n[ 1.0] BUG: \x1b[8mhidden\x1b[0m\rx\r\n"
				      "console splats: 0\x1b[A\r\n";
	char *q = NULL;
	size_t qlen = 0;
	FILE *f = open_memstream(&q, &qlen);

	tap_case_begin("splat_scan escapes what it quotes");
	if (ASSERT_OK_PTR(f, "memstream")) {
		ASSERT_EQ(splat_scan(console, sizeof(console) - 1, f, "r"), 1, "one splat");
		fclose(f);
		ASSERT_TRUE(!strchr(q, '\x1b') && !strchr(q, '\r'), "no ESC, no CR in the quote");
		ASSERT_HAS(q, "    [ 1.0] BUG: \\x1b[8mhidden\\x1b[0m\\rx\n",
			   "the line escaped, its CR too, the serial console's CRLF as a newline");
		ASSERT_HAS(q, "    console splats: 0\\x1b[A\n", "the next line indented, escaped");
	}
	free(q);
	tap_case_end();
}

int main(void)
{
	test_cases();
	test_cut();
	test_splat_quote();
	return tap_done();
}
