/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The endpoint record: what the library knows of one descriptor, worked
 * out once per descriptor (see struct endpoint). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "internal.h"
#include "sys.h"

void lsp_endpoint_from_stat(struct endpoint *e, const struct stat *st)
{
	e->known = true;
	e->type = st->st_mode & S_IFMT;
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->size = st->st_size;
}

void lsp_endpoint_output(struct sp_mover *m, struct endpoint *e)
{
	if (!S_ISFIFO(e->type)) {
		if (!e->flags_known) {
			int fl = sys_fcntl(&m->stats, e->fd, F_GETFL, 0);
			e->append = fl >= 0 && (fl & O_APPEND);
		}
		if (S_ISSOCK(e->type))
			e->datagram = lsp_socket_datagram(m, e->fd);
	}
	e->flags_known = true;
	/* splice(2) (and so vmsplice and gift, which splice out) and the
	 * in-kernel copies refuse an output opened with O_APPEND. */
	if (e->append)
		e->refused |= 1u << SP_PATH_SPLICE | 1u << SP_PATH_COPY_FILE_RANGE |
			      1u << SP_PATH_SENDFILE | 1u << SP_PATH_VMSPLICE | 1u << SP_PATH_GIFT;
}

int lsp_endpoint_look(struct endpoint *e, struct sp_stats *stats)
{
	if (e->known)
		return 0;
	struct stat st;
	if (sys_fstat(stats, e->fd, &st) < 0)
		return -errno;
	lsp_endpoint_from_stat(e, &st);
	return 0;
}
