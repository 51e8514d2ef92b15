/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sockets the mover writes to: datagram or stream, and growing a stream
 * socket's send buffer. */
#include "config.h"

#include <errno.h>
#include <sys/socket.h>

#include "internal.h"
#include "sys.h"

bool lsp_socket_datagram(struct sp_mover *m, int fd)
{
	int type;
	socklen_t len = sizeof(type);
	return sys_getsockopt(&m->stats, fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 &&
	       (type == SOCK_DGRAM || type == SOCK_SEQPACKET);
}

/* The kernel doubles what SO_SNDBUF is set to (for its bookkeeping) and
 * caps it at twice net.core.wmem_max; it refuses nothing below that.  A
 * send buffer as large as the pipe lets the writer sleep far less often
 * than the default's; more than that gains nothing (NEWS has the
 * measurement). */
long lsp_socket_grow(struct sp_mover *m, int fd, size_t want)
{
	int cur;
	socklen_t len = sizeof(cur);
	if (sys_getsockopt(&m->stats, fd, SOL_SOCKET, SO_SNDBUF, &cur, &len) < 0)
		return -errno;
	if (cur < 0 || want <= (size_t)cur / 2 || want > INT32_MAX)
		return cur;
	int asked = (int)want;
	if (sys_setsockopt(&m->stats, fd, SOL_SOCKET, SO_SNDBUF, &asked, sizeof(asked)) < 0)
		return cur;
	len = sizeof(cur);
	return sys_getsockopt(&m->stats, fd, SOL_SOCKET, SO_SNDBUF, &cur, &len) < 0 ? -errno : cur;
}
