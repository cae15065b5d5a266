/* SPDX-License-Identifier: GPL-2.0-only */
/* bpfwire-recv's inputs: a saved capture, or a live socket and capture (recv_capture.c). */
#ifndef BPFWIRE_RECV_CAPTURE_H
#define BPFWIRE_RECV_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include "recv_run.h"

/* The SIGINT/SIGTERM handler, and the two modes. */
void recv_on_signal(int sig);
int run_offline(struct run *run);
int run_live(struct run *run);
/* An address as text, and the datagrams a side's senders gave. */
void fmt_addr(uint8_t family, const uint8_t *a, char *buf, size_t len);
uint64_t total_received(struct bpfw_senders *s);

#endif
