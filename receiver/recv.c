// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpfwire-recv: receive bpfwire telemetry on a UDP socket while capturing the
 * same traffic with libpcap, validate every datagram on the wire, check the
 * expectations, and leave a capture and a JSON summary for review.
 * --read runs a saved capture through the same pipeline (rx.c). The parts
 * are named in recv_run.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "recv_capture.h"
#include "recv_json.h"
#include "recv_opts.h"
#include "recv_run.h"
#include "recv_verdict.h"

int main(int argc, char **argv)
{
	struct opts o;
	struct run run = { .o = &o, .sock = -1, .logf = stdout };
	struct checks c = { 0 };
	struct sigaction sa = { .sa_handler = recv_on_signal };
	json_object *root = NULL;
	int ret = EXIT_USAGE;

	log_init(PROG, LOG_WARN);
	if (parse_opts(argc, argv, &o))
		return EXIT_USAGE;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (o.log_file) {
		run.logf = fopen(o.log_file, "w");
		if (!run.logf) {
			pr_errno(errno, "couldn't write log file %s", o.log_file);
			return EXIT_USAGE;
		}
	}
	if (o.read) {
		run.port = (uint16_t)o.port;
		if (run_offline(&run))
			goto out;
	} else if (run_live(&run)) {
		goto out;
	}
	c.list = json_object_new_array();
	c.failed = json_object_new_array();
	evaluate(&run, &c);
	root = summary_json(&run, &c);
	if (o.json_out && write_json(o.json_out, root))
		goto out;
	print_line(&run, &c);
	ret = json_object_array_length(c.failed) ? EXIT_FAIL : EXIT_PASS;
out:
	if (run.dumper) {
		pcap_dump_flush(run.dumper);
		pcap_dump_close(run.dumper);
		/* A run that gave no verdict leaves no half capture behind. */
		if (ret == EXIT_USAGE && o.pcap_out)
			unlink(o.pcap_out);
	}
	if (run.pcap)
		pcap_close(run.pcap);
	if (run.sock >= 0)
		close(run.sock);
	if (ret == EXIT_USAGE && o.ready_file)
		unlink(o.ready_file);
	if (run.logf && run.logf != stdout)
		fclose(run.logf);
	json_object_put(root);
	json_object_put(c.list);
	json_object_put(c.failed);
	bpfw_rx_fini(&run.rx);
	return ret;
}
