// SPDX-License-Identifier: GPL-2.0-only
/* rtnetlink look-ups for netpoll: the route to a destination and the next hop's MAC. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "neigh.h"

struct nlreq {
	struct nlmsghdr nh;
	union {
		struct rtmsg rt;
		struct ndmsg nd;
	};
	char attrs[64];
};

static int nl_open(void)
{
	struct timeval tv = { .tv_sec = 2 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static void add_attr(struct nlreq *req, int type, const void *data, int len)
{
	size_t off = NLMSG_ALIGN(req->nh.nlmsg_len);
	struct rtattr rta = { .rta_len = RTA_LENGTH(len), .rta_type = type };

	if (off + RTA_ALIGN(rta.rta_len) > sizeof(*req))
		return;
	memcpy((char *)req + off, &rta, sizeof(rta));
	memcpy((char *)req + off + RTA_LENGTH(0), data, len);
	req->nh.nlmsg_len = off + RTA_ALIGN(rta.rta_len);
}

int route_get(int family, const __u8 *dst, int oif, struct route_info *ri)
{
	struct nlreq req = { 0 };
	char buf[8192];
	int fd, alen = family == AF_INET ? 4 : 16, ret = -ENOENT;
	ssize_t n;

	memset(ri, 0, sizeof(*ri));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	req.nh.nlmsg_type = RTM_GETROUTE;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.rt.rtm_family = family;
	req.rt.rtm_dst_len = alen * 8;
	add_attr(&req, RTA_DST, dst, alen);
	if (oif)
		add_attr(&req, RTA_OIF, &oif, sizeof(oif));
	fd = nl_open();
	if (fd < 0)
		return -errno;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
		ret = -errno;
		goto out;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	for (struct nlmsghdr *nh = (void *)buf; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
		struct rtmsg *rt = NLMSG_DATA(nh);
		int len = RTM_PAYLOAD(nh);

		if (nh->nlmsg_type == NLMSG_ERROR) {
			ret = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;
			break;
		}
		if (nh->nlmsg_type != RTM_NEWROUTE)
			continue;
		for (struct rtattr *a = RTM_RTA(rt); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
			if (a->rta_type == RTA_OIF)
				ri->oif = *(int *)RTA_DATA(a);
			else if (a->rta_type == RTA_GATEWAY) {
				memcpy(ri->gw, RTA_DATA(a), alen);
				ri->have_gw = 1;
			} else if (a->rta_type == RTA_PREFSRC) {
				memcpy(ri->src, RTA_DATA(a), alen);
				ri->have_src = 1;
			}
		}
		ret = ri->oif ? 0 : -ENOENT;
		break;
	}
out:
	close(fd);
	return ret;
}

int neigh_get(int family, const __u8 *addr, int ifindex, __u8 mac[6])
{
	struct nlreq req = { 0 };
	char buf[16384];
	int fd, alen = family == AF_INET ? 4 : 16, ret = -ENOENT, done = 0;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct ndmsg));
	req.nh.nlmsg_type = RTM_GETNEIGH;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nd.ndm_family = family;
	req.nd.ndm_ifindex = ifindex;
	fd = nl_open();
	if (fd < 0)
		return -errno;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
		ret = -errno;
		goto out;
	}
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n <= 0)
			break;
		for (struct nlmsghdr *nh = (void *)buf; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			struct ndmsg *nd = NLMSG_DATA(nh);
			int len = RTM_PAYLOAD(nh), match = 0, have_mac = 0;
			__u8 m[6];

			if (nh->nlmsg_type == NLMSG_DONE || nh->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (nh->nlmsg_type != RTM_NEWNEIGH || nd->ndm_ifindex != ifindex)
				continue;
			if (nd->ndm_state & (NUD_INCOMPLETE | NUD_FAILED | NUD_NONE))
				continue;
			for (struct rtattr *a = (struct rtattr *)((char *)nd + NLMSG_ALIGN(sizeof(*nd)));
			     RTA_OK(a, len); a = RTA_NEXT(a, len)) {
				if (a->rta_type == NDA_DST && RTA_PAYLOAD(a) == (unsigned)alen &&
				    !memcmp(RTA_DATA(a), addr, alen))
					match = 1;
				else if (a->rta_type == NDA_LLADDR && RTA_PAYLOAD(a) == 6) {
					memcpy(m, RTA_DATA(a), 6);
					have_mac = 1;
				}
			}
			if (match && have_mac) {
				memcpy(mac, m, 6);
				ret = 0;
			}
		}
	}
out:
	close(fd);
	return ret;
}

/*
 * Look the next hop up; when it is missing, make the kernel resolve it with
 * an empty UDP datagram to the discard port (9) and poll the table.
 */
int neigh_resolve(int family, const __u8 *addr, int ifindex, __u8 mac[6],
		  int timeout_ms)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(9) };
	struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(9) };
	int fd, waited;

	if (!neigh_get(family, addr, ifindex, mac))
		return 0;
	fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (family == AF_INET) {
		memcpy(&s4.sin_addr, addr, 4);
		sendto(fd, "", 0, 0, (struct sockaddr *)&s4, sizeof(s4));
	} else {
		memcpy(&s6.sin6_addr, addr, 16);
		s6.sin6_scope_id = ifindex;
		sendto(fd, "", 0, 0, (struct sockaddr *)&s6, sizeof(s6));
	}
	close(fd);
	for (waited = 0; waited < timeout_ms; waited += 50) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (!neigh_get(family, addr, ifindex, mac))
			return 0;
	}
	return -ENOENT;
}
