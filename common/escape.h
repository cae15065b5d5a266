/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Untrusted text (a guest's output, its report keys, a console) for a
 * terminal or a text log: nothing in it may move the cursor, set a title,
 * hide a line or start a line of its own. Printable ASCII and well-formed
 * UTF-8 pass; a backslash is doubled; \n \r \t are written so; every other
 * byte is \xNN: the C0 controls, DEL, the C1 controls (U+0080..U+009F),
 * the bidi overrides (U+202A..U+202E, U+2066..U+2069) and invalid UTF-8.
 * An HTML page escapes for itself.
 */
#ifndef BPFWIRE_COMMON_ESCAPE_H
#define BPFWIRE_COMMON_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Multi-line text (a quote, a tool's output): a newline and a tab stay. */
#define ESC_KEEP_NL 1u

/*
 * Like snprintf: len bytes of s (NULs included) escaped into out, always
 * NUL-terminated when outlen > 0, never cut inside an escape. Returns the
 * length the whole would take; outlen or more means it was cut short.
 */
size_t esc_str(char *out, size_t outlen, const char *s, size_t len, unsigned flags);
/* The same, written to f; EOF on a write error, else 0. */
int esc_fwrite(FILE *f, const char *s, size_t len, unsigned flags);
/* A NUL-terminated s to f (NULL writes nothing). */
int esc_fputs(FILE *f, const char *s, unsigned flags);

#endif /* BPFWIRE_COMMON_ESCAPE_H */
