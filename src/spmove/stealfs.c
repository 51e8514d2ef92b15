/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: the stealfs module's page counters, to tell pages moved from
 * pages copied (see contrib/stealfs). */
#include "config.h"

#include <sys/vfs.h>

#include "spmove.h"
#include "stealfs-abi.h"

void stealfs_read(struct stealfs_counts *c)
{
	struct sp_stealfs_counts n = { .size = sizeof(n) };
	c->present = sp_stealfs_read(&n) == 0;
	c->stolen = c->present ? n.stolen : 0;
	c->copied = c->present ? n.copied : 0;
}

bool stealfs_mount(const char *path)
{
	struct statfs sf;
	return statfs(path, &sf) == 0 && (unsigned long)sf.f_type == STEALFS_MAGIC;
}
