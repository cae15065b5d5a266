// SPDX-License-Identifier: GPL-2.0-only
/* review.eml: see reply.h. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "errnames.h"
#include "escape.h"
#include "file.h"
#include "jsonget.h"
#include "reply.h"

void reply_to_free(struct reply_to *t)
{
	free(t->message_id), free(t->subject), free(t->from), free(t->to), free(t->cc), free(t->references);
	memset(t, 0, sizeof(*t));
}

/* A header's value from s to e, unfolded: the line breaks go, the blanks after them stay. */
static char *unfold(const char *s, const char *e)
{
	char *v = malloc(e - s + 1), *o = v;

	if (!v)
		return NULL;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	for (; s < e; s++)
		if (*s != '\n' && *s != '\r')
			*o++ = *s;
	while (o > v && (o[-1] == ' ' || o[-1] == '\t'))
		o--;
	*o = '\0';
	return v;
}

/* The header block of text's first message: after an mbox "From " line, up to an empty line. */
static int parse_headers(const char *text, struct reply_to *t)
{
	static const char *const names[] = { "Message-ID", "Subject", "From", "To", "Cc", "References" };
	char **fields[] = { &t->message_id, &t->subject, &t->from, &t->to, &t->cc, &t->references };
	const char *p = text;
	int found = 0;

	if (!strncmp(p, "From ", 5))
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
	while (*p && *p != '\n' && strncmp(p, "\r\n", 2)) {
		const char *e = p, *colon;

		/* a header and its continuation lines */
		for (;;) {
			const char *nl = strchr(e, '\n');

			if (!nl) {
				e += strlen(e);
				break;
			}
			e = nl;
			if (nl[1] != ' ' && nl[1] != '\t')
				break;
			e = nl + 1;
		}
		colon = memchr(p, ':', e - p);
		if (!colon || memchr(p, ' ', colon - p))
			break;	/* no header: the body has begun */
		for (size_t i = 0; i < ARRAY_SIZE(names); i++)
			if ((size_t)(colon - p) == strlen(names[i]) && !strncasecmp(p, names[i], colon - p) &&
			    !*fields[i]) {
				*fields[i] = unfold(colon + 1, e);
				if (!*fields[i])
					return -ENOMEM;
				found++;
			}
		p = *e ? e + 1 : e;
	}
	return found ? 0 : -ENOENT;
}

/* The first patch a directory's series file lists. */
static char *first_patch(const char *dir)
{
	char path[PATH_MAX + 16], *list, *save = NULL, *r = NULL;

	snprintf(path, sizeof(path), "%s/series", dir);
	list = read_user_file(path, NULL);
	for (char *l = list ? strtok_r(list, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		l[strcspn(l, " \t\r")] = '\0';
		if (!*l || *l == '#' || strchr(l, '/'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, l);
		r = read_user_file(path, NULL);
		break;
	}
	free(list);
	return r;
}

int reply_read_series(const char *series, struct reply_to *t, char *err, size_t errlen)
{
	struct stat st;
	char *text;
	int r;

	memset(t, 0, sizeof(*t));
	text = !stat(series, &st) && S_ISDIR(st.st_mode) ? first_patch(series) : read_user_file(series, NULL);
	if (!text) {
		snprintf(err, errlen, "%s: its first message: %s", series, errno_str(errno ? errno : ENOENT));
		return -1;
	}
	r = parse_headers(text, t);
	free(text);
	if (r) {
		reply_to_free(t);
		snprintf(err, errlen, "%s: its first message has no mail headers (Message-ID, Subject, From)", series);
		return -1;
	}
	return 0;
}

void reply_kernel_line(json_object *sj, const char *version, char *out, size_t len)
{
	json_object *base;
	const char *rel = jget_str(sj, "release", NULL), *name, *pkg, *commit;
	int n;

	n = snprintf(out, len, "Linux %s", version);
	if (rel && n < (int)len)
		n += snprintf(out + n, len - n, ", release %s", rel);
	base = jget(sj, "base", json_type_object);
	name = jget_str(base, "name", NULL);
	pkg = jget_str(base, "package_version", NULL);
	commit = jget_str(base, "commit", NULL);
	if (name && n < (int)len)
		n += snprintf(out + n, len - n, ", from %s%s%s", name, pkg ? " " : "", pkg ? pkg : "");
	else if (commit && n < (int)len)
		snprintf(out + n, len - n, ", from commit %.12s", commit);
}

void reply_configs(json_object *sj, const char *root, char *out, size_t len)
{
	json_object *list;
	size_t n = 0, rl = strlen(root);

	out[0] = '\0';
	list = jget(sj, "config_fragments", json_type_array);
	if (!list)
		return;
	for (size_t i = 0; i < json_object_array_length(list) && n < len; i++) {
		const char *f = json_object_get_string(json_object_array_get_idx(list, i));

		if (!f)
			continue;
		if (!strncmp(f, root, rl) && f[rl] == '/')
			f += rl + 1;
		n += snprintf(out + n, len - n, "%s%s", n ? ", " : "", f);
	}
}

/* arg as a shell word: as it is when it is plain, else in single quotes. */
static int shell_word(const char *arg, char *out, size_t len)
{
	size_t n = 0;

	if (arg[0] && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=,:@+-") ==
	    strlen(arg))
		return snprintf(out, len, "%s", arg);
	n += snprintf(out + n, len > n ? len - n : 0, "'");
	for (const char *p = arg; *p; p++)
		n += snprintf(out + n, len > n ? len - n : 0, *p == '\'' ? "'\\''" : "%c", *p);
	n += snprintf(out + n, len > n ? len - n : 0, "'");
	return (int)n;
}

void reply_command(int argc, char **argv, const char *pin, char *out, size_t len)
{
	size_t n = snprintf(out, len, "./run review");

	for (int i = 1; i < argc && n < len; i++) {
		n += snprintf(out + n, len - n, " ");
		if (n < len)
			n += shell_word(argv[i], out + n, len - n);
	}
	if (pin && n < len)
		snprintf(out + n, len - n, " --kernel %s", pin);
}

/* "Name: VALUE\n", VALUE escaped: the series' text never breaks a header's line. */
static void header(FILE *f, const char *name, const char *prefix, const char *value)
{
	fprintf(f, "%s: %s", name, prefix ? prefix : "");
	esc_fputs(f, value, 0);
	fputc('\n', f);
}

/* References: the original's and its Message-ID, one a folded line. */
static void references(FILE *f, const struct reply_to *t)
{
	char *refs = t->references ? strdup(t->references) : NULL, *save = NULL;

	fputs("References:", f);
	for (char *r = refs ? strtok_r(refs, " \t,", &save) : NULL; r; r = strtok_r(NULL, " \t,", &save)) {
		if (r[0] != '<' || r[strlen(r) - 1] != '>')
			continue;	/* a comment, not an id */
		fputs(" ", f);
		esc_fputs(f, r, 0);
		fputs("\n", f);
	}
	fputs(" ", f);
	esc_fputs(f, t->message_id, 0);
	fputc('\n', f);
	free(refs);
}

static void section(FILE *f, const char *title, const char *what, const struct vd_report *rep,
		    enum vd_mark mark, size_t count)
{
	if (!count) {
		fprintf(f, "%s: none\n\n", title);
		return;
	}
	fprintf(f, "%s: %zu %s\n", title, count, what);
	for (size_t i = 0; i < rep->n; i++)
		if (rep->items[i].mark == mark)
			vd_write_item(f, &rep->items[i], false);
	fputc('\n', f);
}

/* "  label  VALUE", escaped, or "unknown". */
static void env_line(FILE *f, const char *label, const char *value)
{
	fprintf(f, "  %-10s ", label);
	esc_fputs(f, value && value[0] ? value : "unknown", 0);
	fputc('\n', f);
}

int reply_write(FILE *f, const struct reply_to *t, const struct reply_env *env, const struct vd_report *rep)
{
	char date[64];
	struct tm tm;

	fputs("From: bpfwire <bpfwire@example.invalid>\n", f);
	if (t->from)
		header(f, "To", NULL, t->from);
	if (t->to || t->cc) {
		/* a reply to all: the list, where the series went */
		fputs("Cc: ", f);
		esc_fputs(f, t->to ? t->to : "", 0);
		fputs(t->to && t->cc ? ", " : "", f);
		esc_fputs(f, t->cc ? t->cc : "", 0);
		fputc('\n', f);
	}
	if (t->subject)
		header(f, "Subject", strncasecmp(t->subject, "Re:", 3) ? "Re: " : NULL, t->subject);
	else
		header(f, "Subject", "bpfwire review of ", env->name);
	gmtime_r(&env->date, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	fprintf(f, "Date: %s\n", date);
	fputs("Message-ID: <", f);
	esc_fputs(f, env->id, 0);
	fputs("@example.invalid>\n", f);
	if (t->message_id) {
		header(f, "In-Reply-To", NULL, t->message_id);
		references(f, t);
	}
	fputs("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n", f);

	fprintf(f, "bpfwire built this series on its lab kernel and ran %d tests, each compared\n"
		"case by case with the baseline: ", env->ntests);
	esc_fputs(f, env->base, 0);
	fputs(".\n\n", f);
	/* here, not last: the last paragraph is where git and b4 read trailers */
	vd_write_verdict(f, "Verdict", rep);
	fputs(VD_CAVEAT "\n\n", f);
	section(f, "Regressions", "worse than the baseline", rep, VD_WORSE, rep->worse);
	section(f, "Fixes", "better than the baseline", rep, VD_BETTER, rep->better);
	section(f, "Changes", "neither better nor worse", rep, VD_CHANGED, rep->changed);
	/* run again, a flake's runs are counted; never dropped, never worse */
	if (rep->flaky)
		section(f, "Flaky", "worse in some runs only, not counted as worse", rep, VD_FLAKY, rep->flaky);
	if (rep->known_flaky)
		section(f, "Known flaky", "on bpfwire's list (review/known-flaky), not counted as worse", rep,
			VD_KNOWN_FLAKY, rep->known_flaky);
	fprintf(f, "The same as the baseline: %zu tests, %zu cases, %zu checks, %zu counts.\n\n",
		rep->same[VD_TEST], rep->same[VD_CASE], rep->same[VD_CHECK], rep->same[VD_COUNT]);
	if (env->range_text && env->range_text[0])
		fprintf(f, "%s\n", env->range_text);
	if (env->static_text && env->static_text[0])
		fprintf(f, "%s\n", env->static_text);
	fputs("Environment:\n", f);
	env_line(f, "kernel:", env->kernel);
	env_line(f, "baseline:", env->base);
	env_line(f, "configs:", env->configs);
	env_line(f, "compiler:", env->compiler);
	env_line(f, "bpfwire:", env->bpfwire);
	fputs("\nTo reproduce, from a bpfwire checkout at that commit:\n  ", f);
	esc_fputs(f, env->command, 0);
	fputc('\n', f);
	/* the last paragraph, where b4 looks for trailers: ours alone */
	if (!vd_worse(rep))
		fputs("\n" REPLY_TESTED_BY "\n", f);
	return ferror(f) ? -EIO : 0;
}
