/* The endpoint record: what the library knows of one descriptor, worked
 * out once per descriptor (see struct endpoint). */
#include "config.h"

#include <errno.h>
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
