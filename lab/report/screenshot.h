/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BPFWIRE_LAB_SCREENSHOT_H
#define BPFWIRE_LAB_SCREENSHOT_H

#include <stddef.h>

/* html rendered by headless chromium into png at width x height; -1 with err. */
int page_screenshot(const char *html, const char *png, int width, int height, char *err, size_t errlen);

#endif
