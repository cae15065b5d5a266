// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>

#include "escape.h"

/* A well-formed UTF-8 sequence at s: its length, with its code point; 0 if none. */
static size_t utf8_seq(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0], min;
	size_t need;

	if ((c & 0xe0) == 0xc0)
		need = 1, min = 0x80, c &= 0x1f;
	else if ((c & 0xf0) == 0xe0)
		need = 2, min = 0x800, c &= 0x0f;
	else if ((c & 0xf8) == 0xf0)
		need = 3, min = 0x10000, c &= 0x07;
	else
		return 0;
	if (need >= n)
		return 0;
	for (size_t i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are no UTF-8 */
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return need + 1;
}

/* C1 controls (8-bit CSI and friends) and the bidi overrides that reorder a line. */
static int unsafe_cp(unsigned cp)
{
	return cp <= 0x9f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * The piece of output for the bytes at s into piece (at most 12 bytes, not
 * NUL-terminated); *used gets how many input bytes it stands for.
 */
static size_t esc_piece(const unsigned char *s, size_t n, unsigned flags, char *piece, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	unsigned cp = 0;
	size_t k, out = 0;

	*used = 1;
	if (s[0] >= 0x20 && s[0] < 0x7f) {
		if (s[0] == '\\') {
			piece[0] = piece[1] = '\\';
			return 2;
		}
		piece[0] = (char)s[0];
		return 1;
	}
	if ((s[0] == '\n' || s[0] == '\t') && (flags & ESC_KEEP_NL)) {
		piece[0] = (char)s[0];
		return 1;
	}
	if (s[0] == '\n' || s[0] == '\r' || s[0] == '\t') {
		piece[0] = '\\';
		piece[1] = s[0] == '\n' ? 'n' : s[0] == '\r' ? 'r' : 't';
		return 2;
	}
	k = s[0] >= 0x80 ? utf8_seq(s, n, &cp) : 0;
	if (k && !unsafe_cp(cp)) {
		memcpy(piece, s, k);
		*used = k;
		return k;
	}
	/* a whole unsafe sequence, or one byte that is not UTF-8 */
	if (!k)
		k = 1;
	for (size_t i = 0; i < k; i++) {
		piece[out++] = '\\';
		piece[out++] = 'x';
		piece[out++] = hex[s[i] >> 4];
		piece[out++] = hex[s[i] & 15];
	}
	*used = k;
	return out;
}

size_t esc_str(char *out, size_t outlen, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t total = 0, end = 0, used, n;
	int full = 0;
	char piece[16];

	for (size_t i = 0; i < len; i += used) {
		n = esc_piece(p + i, len - i, flags, piece, &used);
		/* nothing after the first piece that does not fit */
		if (!full && end + n < outlen) {
			memcpy(out + end, piece, n);
			end += n;
		} else {
			full = 1;
		}
		total += n;
	}
	if (outlen)
		out[end] = '\0';
	return total;
}

int esc_fwrite(FILE *f, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used, n;
	char piece[16];

	for (size_t i = 0; i < len; i += used) {
		n = esc_piece(p + i, len - i, flags, piece, &used);
		if (fwrite(piece, 1, n, f) != n)
			return EOF;
	}
	return 0;
}

int esc_fputs(FILE *f, const char *s, unsigned flags)
{
	return s ? esc_fwrite(f, s, strlen(s), flags) : 0;
}
