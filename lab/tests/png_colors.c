// SPDX-License-Identifier: GPL-2.0-only
/*
 * For the browser tests: "WIDTH HEIGHT COLOURS" of a PNG, the
 * number of distinct RGBA values, decoded with libpng. A blank screenshot
 * has one colour; a page with text, tables and pictures has many.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	png_image img;
	unsigned *px;
	size_t n, colours = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: png_colors FILE.png\n");
		return 2;
	}
	memset(&img, 0, sizeof(img));
	img.version = PNG_IMAGE_VERSION;
	if (!png_image_begin_read_from_file(&img, argv[1])) {
		fprintf(stderr, "png_colors: %s: %s\n", argv[1], img.message);
		return 1;
	}
	img.format = PNG_FORMAT_RGBA;
	n = (size_t)img.width * img.height;
	px = malloc(n * 4 + 4);
	if (!px || !png_image_finish_read(&img, NULL, px, 0, NULL)) {
		fprintf(stderr, "png_colors: %s: %s\n", argv[1], px ? img.message : "out of memory");
		free(px);
		return 1;
	}
	qsort(px, n, sizeof(*px), cmp_u32);
	for (size_t i = 0; i < n; i++)
		colours += !i || px[i] != px[i - 1];
	printf("%u %u %zu\n", img.width, img.height, colours);
	free(px);
	return 0;
}
