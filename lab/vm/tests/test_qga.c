// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lab's qemu-ga and QMP clients against a hostile peer: a UNIX socket
 * server thread that plays a guest's agent (or a QMP) and answers the way
 * a guest that wants to hang or crash the root-run lab would: stale
 * answers for ever, events for ever, silence, nulls where strings or
 * objects belong, a reply over the 32 MiB cap. Each call must come back
 * with an error in its deadline, a signal must end a wait, nothing may
 * crash (the same test runs under valgrind, lab-qga-peer-valgrind).
 *
 * usage: test_qga [-f FILTER]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "escape.h"
#include "file.h"
#include "proc.h"
#include "tap.h"
#include "timeutil.h"
#include "vm/guest.h"
#include "vm/model.h"
#include "vm/qga.h"
#include "vm/qmp.h"
#include "vm/util.h"

struct peer {
	int lfd;
	pthread_t th;
	void (*talk)(int fd);
	char path[108];
};

/* Send all of s; -1 once the client has gone. */
static int say(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = send(fd, s, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

static int says(int fd, const char *s)
{
	return say(fd, s, strlen(s));
}

/*
 * The next request line (0xff bytes dropped): its "execute" into cmd and
 * its arguments' "id" into id. -1 once the client has gone.
 */
static int next_request(int fd, char *cmd, size_t cmdlen, long long *id)
{
	char line[4096];
	size_t n = 0;
	json_object *o, *v, *a;

	for (;;) {
		char c;
		ssize_t r = read(fd, &c, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		if (c == '\xff')
			continue;
		if (c == '\n')
			break;
		if (n < sizeof(line) - 1)
			line[n++] = c;
	}
	line[n] = '\0';
	o = json_tokener_parse(line);
	snprintf(cmd, cmdlen, "%s", json_object_object_get_ex(o, "execute", &v) ?
		 json_object_get_string(v) : "");
	*id = 0;
	if (json_object_object_get_ex(o, "arguments", &a) && json_object_object_get_ex(a, "id", &v))
		*id = json_object_get_int64(v);
	json_object_put(o);
	return 0;
}

/* An honest guest-sync-delimited; -1 once the client has gone. */
static int sync_ok(int fd)
{
	char cmd[64], ans[128];
	long long id;

	if (next_request(fd, cmd, sizeof(cmd), &id))
		return -1;
	snprintf(ans, sizeof(ans), "\xff{\"return\": %lld}\n", id);
	return says(fd, ans);
}

/* Answer each request with ans, until the client goes. */
static void answer_all(int fd, const char *ans)
{
	char cmd[64];
	long long id;

	while (!next_request(fd, cmd, sizeof(cmd), &id) && !says(fd, ans))
		;
}

/* guest-sync answered by a stale object every 100 ms, for ever. */
static void talk_stale(int fd)
{
	char cmd[64];
	long long id;

	if (next_request(fd, cmd, sizeof(cmd), &id) || says(fd, "\xff"))
		return;
	while (!says(fd, "{\"return\": 1}\n"))
		usleep(100 * 1000);
}

/* Synced, then never a word: the client waits. */
static void talk_silent(int fd)
{
	char cmd[64];
	long long id;

	if (sync_ok(fd))
		return;
	while (!next_request(fd, cmd, sizeof(cmd), &id))
		;
}

static void talk_return_null(int fd)
{
	if (!sync_ok(fd))
		answer_all(fd, "{\"return\": null}\n");
}

/* guest-exec works; its status has a null where the output belongs. */
static void talk_out_null(int fd)
{
	char cmd[64];
	long long id;

	if (sync_ok(fd))
		return;
	while (!next_request(fd, cmd, sizeof(cmd), &id)) {
		if (says(fd, !strcmp(cmd, "guest-exec") ? "{\"return\": {\"pid\": 7}}\n" :
			 "{\"return\": {\"exited\": true, \"exitcode\": 0, \"out-data\": null}}\n"))
			return;
	}
}

static void talk_exitcode_string(int fd)
{
	if (!sync_ok(fd))
		answer_all(fd, "{\"return\": {\"exited\": true, \"exitcode\": \"0\"}}\n");
}

/* qemu-ga's error, its desc a guest's: a newline, a line of its own, a clear. */
#define FORGED_DESC "boom\\nverdict: OK\\u001b[2J"

static void talk_error_forged(int fd)
{
	if (!sync_ok(fd))
		answer_all(fd, "{\"error\": {\"class\": \"GenericError\", \"desc\": \"" FORGED_DESC "\"}}\n");
}

static void talk_pid_null(int fd)
{
	if (!sync_ok(fd))
		answer_all(fd, "{\"return\": {\"pid\": null}}\n");
}

static int huge_mib;

/* An answer one string of huge_mib MiB + 64 KiB long. */
static void talk_huge(int fd)
{
	size_t chunk = 1 << 20;
	char *a = malloc(chunk), cmd[64];
	long long id;

	if (!a || sync_ok(fd) || next_request(fd, cmd, sizeof(cmd), &id) ||
	    says(fd, "{\"return\": {\"x\": \""))
		goto out;
	memset(a, 'A', chunk);
	for (int i = 0; i < huge_mib; i++)
		if (say(fd, a, chunk))
			goto out;
	if (say(fd, a, 65536) || says(fd, "\"}}\n"))
		goto out;
	answer_all(fd, "{\"return\": {}}\n");
out:
	free(a);
}

/* QMP: greeting, capabilities, then for the next command what ans says. */
static void qmp_then(int fd, const char *ans, bool events)
{
	char cmd[64];
	long long id;

	if (says(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\n") ||
	    next_request(fd, cmd, sizeof(cmd), &id) || says(fd, "{\"return\": {}, \"id\": 1}\n") ||
	    next_request(fd, cmd, sizeof(cmd), &id))
		return;
	while (events && !says(fd, "{\"event\": \"NIC_RX_FILTER_CHANGED\", \"data\": {}}\n"))
		usleep(100 * 1000);
	if (ans && !says(fd, ans))
		while (!next_request(fd, cmd, sizeof(cmd), &id))
			;
}

static void talk_qmp_events(int fd)
{
	qmp_then(fd, NULL, true);
}

static void talk_qmp_return_null(int fd)
{
	qmp_then(fd, "{\"return\": null, \"id\": 2}\n", false);
}

static void talk_qmp_error_no_desc(int fd)
{
	qmp_then(fd, "{\"error\": {\"class\": \"GenericError\"}, \"id\": 2}\n", false);
}

static void talk_qmp_error_null(int fd)
{
	qmp_then(fd, "{\"error\": null, \"id\": 2}\n", false);
}

static void *peer_main(void *arg)
{
	struct peer *p = arg;
	int fd = accept(p->lfd, NULL, NULL);

	if (fd >= 0) {
		p->talk(fd);
		close(fd);
	}
	return NULL;
}

static char tmpdir[64];

/* Listen on a fresh socket and play talk to the one client that comes. */
static int peer_start(struct peer *p, void (*talk)(int fd))
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	static int seq;
	sigset_t all, old;
	int ret;

	p->talk = talk;
	snprintf(p->path, sizeof(p->path), "%s/peer%d.sock", tmpdir, seq++);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", p->path);
	p->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->lfd < 0 || bind(p->lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(p->lfd, 1))
		return -1;
	/* signals are for the client under test, never the peer's thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&p->th, NULL, peer_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret ? -1 : 0;
}

/* After the client closed: the peer sees EOF or EPIPE and ends. */
static void peer_stop(struct peer *p)
{
	shutdown(p->lfd, SHUT_RDWR);
	pthread_join(p->th, NULL);
	close(p->lfd);
	unlink(p->path);
}

/* SIGINT to this process after ms, from a thread that takes no signal. */
static void *interrupt_main(void *arg)
{
	usleep((useconds_t)(long)arg * 1000);
	kill(getpid(), SIGINT);
	return NULL;
}

static pthread_t interrupt_after(long ms)
{
	sigset_t all, old;
	pthread_t th;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_create(&th, NULL, interrupt_main, (void *)ms);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return th;
}

/* err filled with non-NUL junk: a call that leaves it unset shows. */
static void junk(char *err, size_t len)
{
	memset(err, 'J', len);
}

static bool err_set(const char *err, size_t len)
{
	return strnlen(err, len) < len && err[0] != 'J';
}

static void case_stale_sync(void)
{
	struct peer p;
	struct qga g;
	double t0;
	int r;

	if (!tap_case_begin("qga_open: stale answers every 100 ms end at the deadline"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_stale), "peer")) {
		t0 = now_s();
		r = qga_open(&g, p.path, 1000);
		ASSERT_EQ(r, -ETIMEDOUT, "qga_open times out");
		ASSERT_LE((long long)((now_s() - t0) * 1000), 2000, "within its 1 s deadline (ms)");
		if (!r)
			qga_close(&g);
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_signal(void)
{
	char err[256];
	json_object *o;
	pthread_t th;
	struct peer p;
	struct qga g;
	double t0;

	if (!tap_case_begin("qga_execute: SIGINT ends a 20 s wait on a silent agent"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_silent), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		lab_interrupted = 0;
		th = interrupt_after(300);
		t0 = now_s();
		junk(err, sizeof(err));
		o = qga_execute(&g, "guest-ping", NULL, 20000, err, sizeof(err));
		ASSERT_TRUE(o == NULL, "no answer");
		ASSERT_LE((long long)((now_s() - t0) * 1000), 3000, "ended by the signal (ms)");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		if (err_set(err, sizeof(err)))
			ASSERT_HAS(err, "EINTR", "says interrupted");
		pthread_join(th, NULL);
		/* and a new open does not start while the lab is interrupted */
		json_object_put(o);
		qga_close(&g);
		t0 = now_s();
		ASSERT_EQ(qga_open(&g, p.path, 20000), -EINTR, "open while interrupted");
		ASSERT_LE((long long)((now_s() - t0) * 1000), 3000, "at once (ms)");
		lab_interrupted = 0;
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_signal_wait(void)
{
	struct qga_result res;
	char err[256];
	pthread_t th;
	struct peer p;
	struct qga g;
	double t0;

	if (!tap_case_begin("qga_exec_wait: SIGINT ends a wait for ever on a silent agent"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_silent), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		lab_interrupted = 0;
		th = interrupt_after(300);
		t0 = now_s();
		junk(err, sizeof(err));
		ASSERT_EQ(qga_exec_wait(&g, 7, -1, &res, err, sizeof(err)), -1, "fails");
		ASSERT_LE((long long)((now_s() - t0) * 1000), 3000, "ended by the signal (ms)");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		pthread_join(th, NULL);
		qga_result_free(&res);
		qga_close(&g);
		lab_interrupted = 0;
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_out_null(void)
{
	char *argv[] = { "true", NULL }, err[256];
	struct qga_result res;
	struct peer p;
	struct qga g;
	long pid;

	if (!tap_case_begin("guest-exec-status with \"out-data\": null is an error, no crash"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_out_null), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		pid = qga_exec_start(&g, argv, NULL, err, sizeof(err));
		ASSERT_EQ(pid, 7, "pid");
		junk(err, sizeof(err));
		ASSERT_EQ(qga_exec_wait(&g, pid, 2000, &res, err, sizeof(err)), -1, "wait fails");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		if (err_set(err, sizeof(err)))
			ASSERT_HAS(err, "out-data", "names the member");
		ASSERT_TRUE(res.out == NULL && res.err == NULL, "no output left to free");
		qga_result_free(&res);
		qga_close(&g);
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_exitcode_string(void)
{
	struct qga_result res;
	char err[256];
	struct peer p;
	struct qga g;

	if (!tap_case_begin("guest-exec-status with \"exitcode\": \"0\" is an error, not exit 0"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_exitcode_string), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		junk(err, sizeof(err));
		ASSERT_EQ(qga_exec_status(&g, 7, &res, err, sizeof(err)), -1, "status fails");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		if (err_set(err, sizeof(err)))
			ASSERT_HAS(err, "exitcode", "names the member");
		qga_result_free(&res);
		qga_close(&g);
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_return_null(void)
{
	char *argv[] = { "true", NULL }, err[256];
	struct qga_result res;
	json_object *o;
	struct peer p;
	struct qga g;

	if (!tap_case_begin("\"return\": null sets err for guest-exec, -exec-status, -ping"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_return_null), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		junk(err, sizeof(err));
		ASSERT_EQ(qga_exec_start(&g, argv, NULL, err, sizeof(err)), -1, "exec_start fails");
		ASSERT_TRUE(err_set(err, sizeof(err)), "exec_start: err set");
		junk(err, sizeof(err));
		ASSERT_EQ(qga_exec_status(&g, 7, &res, err, sizeof(err)), -1, "exec_status fails");
		ASSERT_TRUE(err_set(err, sizeof(err)), "exec_status: err set");
		qga_result_free(&res);
		junk(err, sizeof(err));
		o = qga_execute(&g, "guest-ping", NULL, 2000, err, sizeof(err));
		ASSERT_TRUE(o == NULL, "guest-ping: no answer");
		ASSERT_TRUE(err_set(err, sizeof(err)), "guest-ping: err set");
		json_object_put(o);
		qga_close(&g);
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_pid_null(void)
{
	char *argv[] = { "true", NULL }, err[256];
	struct peer p;
	struct qga g;

	if (!tap_case_begin("guest-exec with \"pid\": null is no pid"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_pid_null), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		junk(err, sizeof(err));
		ASSERT_EQ(qga_exec_start(&g, argv, NULL, err, sizeof(err)), -1, "exec_start fails");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		qga_close(&g);
		peer_stop(&p);
	}
	tap_case_end();
}

/*
 * A guest's error text, as lab_exec logs it (pr_warn) and as err holds it:
 * escaped, so it neither starts a line on stderr nor clears the terminal.
 */
static void case_error_forged(void)
{
	char *argv[] = { "true", NULL }, err[512], logp[128], *log = NULL;
	struct lab_run *r = calloc(1, sizeof(*r));
	struct qga_result res;
	json_object *o;
	struct peer p;
	struct qga g;
	int saved;

	if (!tap_case_begin("qemu-ga's error desc with \\n and \\x1b[2J reaches err and stderr escaped"))
		return;
	printf("# desc tried: \"%s\"\n", FORGED_DESC);
	if (ASSERT_OK(peer_start(&p, talk_error_forged), "peer")) {
		if (ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
			o = qga_execute(&g, "guest-ping", NULL, 2000, err, sizeof(err));
			ASSERT_TRUE(o == NULL, "guest-ping: an error");
			fputs("# err: ", stdout);
			esc_fputs(stdout, err, 0);
			putchar('\n');
			ASSERT_TRUE(!strchr(err, '\n') && !strchr(err, '\x1b'), "err holds no newline, no ESC");
			ASSERT_HAS(err, "boom\\nverdict: OK\\x1b[2J", "the desc, escaped");
			json_object_put(o);
			qga_close(&g);
		}
		peer_stop(&p);
	}
	/* lab_exec's path: a guest (this process stands for its QEMU) whose agent is the peer */
	if (ASSERT_OK_PTR(r, "calloc") && ASSERT_OK(peer_start(&p, talk_error_forged), "peer")) {
		snprintf(r->statedir, sizeof(r->statedir), "%s", tmpdir);
		r->nguests = 1;
		snprintf(r->guests[0].name, sizeof(r->guests[0].name), "g");
		snprintf(r->guests[0].qga, sizeof(r->guests[0].qga), "%s", p.path);
		r->guests[0].pid = getpid();
		r->guests[0].start = proc_starttime(getpid());
		snprintf(logp, sizeof(logp), "%s/stderr", tmpdir);
		fflush(stderr);
		saved = dup(2);
		if (ASSERT_TRUE(saved >= 0 && freopen(logp, "w", stderr), "stderr to a file")) {
			ASSERT_EQ(lab_exec(r, "g", argv, 2000, &res), -1, "lab_exec fails");
			qga_result_free(&res);
			fflush(stderr);
			dup2(saved, 2);
			close(saved);
			log = read_file(logp, NULL);
		}
		if (ASSERT_OK_PTR(log, "stderr kept")) {
			fputs("# stderr: ", stdout);
			esc_fputs(stdout, log, 0);
			putchar('\n');
			ASSERT_TRUE(!strchr(log, '\x1b'), "stderr holds no ESC");
			ASSERT_TRUE(strchr(log, '\n') == log + strlen(log) - 1, "one line on stderr");
			ASSERT_HAS(log, "boom\\nverdict: OK\\x1b[2J", "the desc, escaped");
		}
		free(log);
		unlink(logp);
		snprintf(logp, sizeof(logp), "%s/g.lock", tmpdir);
		unlink(logp);
		peer_stop(&p);
	}
	free(r);
	tap_case_end();
}

static void case_huge(void)
{
	char err[256];
	json_object *o;
	struct peer p;
	struct qga g;

	if (tap_case_begin("an answer of 31 MiB is still read")) {
		huge_mib = 31;
		if (ASSERT_OK(peer_start(&p, talk_huge), "peer") &&
		    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
			o = qga_execute(&g, "guest-ping", NULL, 60000, err, sizeof(err));
			ASSERT_TRUE(o != NULL, "answer");
			json_object_put(o);
			qga_close(&g);
			peer_stop(&p);
		}
		tap_case_end();
	}
	if (!tap_case_begin("an answer over the 32 MiB cap is refused (EMSGSIZE)"))
		return;
	huge_mib = 32;
	if (ASSERT_OK(peer_start(&p, talk_huge), "peer") &&
	    ASSERT_OK(qga_open(&g, p.path, 2000), "qga_open")) {
		junk(err, sizeof(err));
		o = qga_execute(&g, "guest-ping", NULL, 60000, err, sizeof(err));
		ASSERT_TRUE(o == NULL, "no answer");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		if (err_set(err, sizeof(err)))
			ASSERT_HAS(err, "EMSGSIZE", "says too long");
		json_object_put(o);
		qga_close(&g);
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_qmp_events(void)
{
	char err[256];
	json_object *o;
	struct peer p;
	struct qmp q;
	double t0;

	if (!tap_case_begin("qmp_execute: events every 100 ms end at the deadline"))
		return;
	if (ASSERT_OK(peer_start(&p, talk_qmp_events), "peer") &&
	    ASSERT_OK(qmp_open(&q, p.path, 2000), "qmp_open")) {
		t0 = now_s();
		junk(err, sizeof(err));
		o = qmp_execute(&q, "query-status", NULL, 1000, err, sizeof(err));
		ASSERT_TRUE(o == NULL, "no answer");
		ASSERT_LE((long long)((now_s() - t0) * 1000), 2000, "within its 1 s deadline (ms)");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		json_object_put(o);
		qmp_close(&q);
		peer_stop(&p);
	}
	tap_case_end();
}

static void case_qmp_bad(const char *name, void (*talk)(int fd))
{
	char err[256];
	json_object *o;
	struct peer p;
	struct qmp q;

	if (!tap_case_begin(name))
		return;
	if (ASSERT_OK(peer_start(&p, talk), "peer") &&
	    ASSERT_OK(qmp_open(&q, p.path, 2000), "qmp_open")) {
		junk(err, sizeof(err));
		o = qmp_execute(&q, "query-status", NULL, 2000, err, sizeof(err));
		ASSERT_TRUE(o == NULL, "no answer");
		ASSERT_TRUE(err_set(err, sizeof(err)), "err set");
		json_object_put(o);
		qmp_close(&q);
		peer_stop(&p);
	}
	tap_case_end();
}

int main(int argc, char **argv)
{
	int c;

	while ((c = getopt(argc, argv, "f:")) != -1) {
		if (c != 'f') {
			fprintf(stderr, "usage: test_qga [-f FILTER]\n");
			return 2;
		}
		tap_opts.filter = optarg;
	}
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_qga.XXXXXX");
	if (!mkdtemp(tmpdir))
		return tap_skip_all("no temporary directory");
	lab_install_signals();
	/* a client that hangs is a failure, not a test that never ends */
	alarm(240);
	case_stale_sync();
	case_signal();
	case_signal_wait();
	case_out_null();
	case_exitcode_string();
	case_return_null();
	case_pid_null();
	case_error_forged();
	case_huge();
	case_qmp_events();
	case_qmp_bad("qmp_execute: \"return\": null sets err", talk_qmp_return_null);
	case_qmp_bad("qmp_execute: an error without desc sets err", talk_qmp_error_no_desc);
	case_qmp_bad("qmp_execute: \"error\": null sets err", talk_qmp_error_null);
	rmdir(tmpdir);
	return tap_done();
}
