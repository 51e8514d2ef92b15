/* spmove: the stealfs module's page counters, to tell pages moved from
 * pages copied (see contrib/stealfs). */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/vfs.h>

#include "spmove.h"

#define STEALFS_MAGIC 0x5354454c /* 'STEL' */
#define STEALFS_STATS "/sys/fs/stealfs/stats/"

/* One counter; false when it cannot be read. */
static bool counter(const char *name, uint64_t *value)
{
	char path[128];
	snprintf(path, sizeof(path), STEALFS_STATS "%s", name);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool ok = fscanf(f, "%" SCNu64, value) == 1;
	fclose(f);
	return ok;
}

void stealfs_read(struct stealfs_counts *c)
{
	uint64_t anon, pagecache;
	c->present = counter("stolen_anon", &anon) && counter("stolen_pagecache", &pagecache) &&
		     counter("copied", &c->copied);
	c->stolen = c->present ? anon + pagecache : 0;
}

bool stealfs_mount(const char *path)
{
	struct statfs sf;
	return statfs(path, &sf) == 0 && (unsigned long)sf.f_type == STEALFS_MAGIC;
}
