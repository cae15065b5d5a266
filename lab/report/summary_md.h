/* SPDX-License-Identifier: GPL-2.0-only */
/* RUN/summary.md, for a README or a reply (summary_md.c). */
#ifndef BPFWIRE_LAB_REPORT_SUMMARY_MD_H
#define BPFWIRE_LAB_REPORT_SUMMARY_MD_H

#include <stddef.h>

/* RUN/summary.md. -1 with err. */
int summary_md_write(const char *dir, char *err, size_t errlen);

#endif
