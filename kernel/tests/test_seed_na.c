// SPDX-License-Identifier: GPL-2.0-only
/*
 * Built only for the upstream flavour: the seed-only areas whose files
 * (and BPF objects, typed by the seed's vmlinux.h) are not built there.
 * Each is one "# SKIP not applicable on upstream" line, under the key its
 * file uses on the seed build.
 */
#include "kt.h"

KT_TEST(20, test_ksock_basic) { kt_not_applicable("ksock_basic (seed create/connect opts)"); }
KT_TEST(21, test_ksock_lsm_recursion) { kt_not_applicable("ksock_lsm_recursion: runtime -EBUSY guard"); }
KT_TEST(30, test_ksock_net_quota) { kt_not_applicable("ksock_net_quota: net.core.bpf_ksock_max"); }
KT_TEST(70, test_ksock_max_writes) { kt_not_applicable("ksock quota: bpf_ksock_max sysctl writes"); }
KT_TEST(71, test_ksock_max_lowered) { kt_not_applicable("ksock quota: bpf_ksock_max lowered below the live count"); }
KT_TEST(72, test_ksock_quota_3netns) { kt_not_applicable("ksock quota: 3 netns at once"); }
KT_TEST(73, test_ksock_refund) { kt_not_applicable("ksock quota: the refund path"); }
KT_TEST(74, test_ksock_sndbuf_checks) { kt_not_applicable("ksock_create: sndbuf (patch 0004) and its LSM/CAP checks"); }
KT_TEST(75, test_ksock_send_from_bind) { kt_not_applicable("ksock_send: from lsm.s/socket_bind, seed setup (upstream: up ksock_send from lsm.s/socket_bind)"); }
KT_TEST(76, test_ksock_release_race) { kt_not_applicable("ksock: release race (seed setup)"); }
