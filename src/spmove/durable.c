/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: which file systems lose a file's new data in a power cut when
 * a temporary replaces an existing name before its data is on disk.
 *
 * Measured on Linux 6.18 (tests/spmove/powercut.sh: write the temporary,
 * rename it over an old file, fsync the directory as any other program
 * may, cut the power with the shutdown ioctl, mount again):
 *   - XFS: the name comes back as an empty file -- the old data and the
 *     new are both gone.  XFS logs the rename and the new inode at once
 *     but the data (and the size that goes with it) only when writeback
 *     completes.  An fdatasync before the rename is needed.
 *   - ext3/ext4 in data=ordered or data=journal with auto_da_alloc (the
 *     defaults): the new file.  A rename over a regular file starts the
 *     new file's writeback, and the ordered journal writes that data
 *     before the transaction holding the rename commits.  Nothing to do.
 *     data=writeback or noauto_da_alloc drop that ordering: flushed.
 *   - tmpfs, ramfs: nothing survives a power cut; a flush costs nothing
 *     and gains nothing.
 *   - btrfs and everything else: flushed (btrfs has the shutdown ioctl
 *     only under CONFIG_BTRFS_EXPERIMENTAL; the VM sweep below found no
 *     violation with the flush).
 * New names are never flushed for this: there is no old data to lose.
 * Nor, on XFS, is a temporary whose data is a clone of its source
 * (FICLONE, the source on the same file system): the clone first waits
 * for the source's writeback, and the log orders the clone, then the
 * rename, behind it, so no point of the log has the rename without the
 * data.  Replayed at every point on 6.1 and 6.12 (check-powercut cases d
 * and e: 0 violations).  Not on btrfs: there a clone renamed over a name
 * whose directory another program fsyncs comes back as 0 bytes (case d:
 * 3 of 14 points on 6.1, 3 of 8 on 6.12), as the O_TMPFILE file below.
 * Inside a tree, on XFS and btrfs, the flush is one syncfs(2) for many
 * temporaries before their renames (batch.c), replayed at every flush
 * point of a tree replaced on Debian's 6.1 and 6.12 with no violation;
 * elsewhere (ext4 without the ordering, file systems never measured) one
 * fdatasync(2) per file, whose promise is per file by definition.
 *
 * A second rule, for durable copies (a move, or --fsync), measured by the
 * VM sweep (contrib/stealfs/tests/check-powercut.sh: dm-log-writes, every
 * flush and FUA point replayed, on Debian's 6.1 and 6.12):
 *   - btrfs: a file made by O_TMPFILE, fsynced while it has no name, then
 *     linked in, with its directory fsynced, comes back from a power cut
 *     as its name over 0 bytes (6 points of 623 in a tree moved onto
 *     btrfs, on both kernels, the source already gone: both copies lost).
 *     An fsync of the file after it is linked in carries its data: 0 of
 *     1223 points.  Needed.
 *   - ext4, XFS: 0 violations at every point without it (1287 and 824
 *     points); tmpfs keeps nothing.  Not needed.
 *   - anything else: not measured, so done (one more fsync of a file
 *     whose data is on disk already). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/magic.h>

#include "spmove.h"

/* Whether the ext2/3/4 file system mounted from dev orders a renamed
 * file's data before the rename: mounted as ext3 or ext4 (a journal),
 * data=ordered or data=journal, and auto_da_alloc, as /proc/self/mountinfo
 * says.  False when that cannot be read. */
static bool ext4_orders_rename(dev_t dev)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	char want[32], line[4096];
	snprintf(want, sizeof(want), "%u:%u", major(dev), minor(dev));
	bool orders = false;
	while (fgets(line, sizeof(line), f)) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS...] - TYPE SOURCE SUPER */
		char id[32], parent[32], majmin[32];
		if (sscanf(line, "%31s %31s %31s", id, parent, majmin) != 3 || strcmp(majmin, want))
			continue;
		const char *tail = strstr(line, " - ");
		char type[32], source[1024], super[2048] = "";
		if (!tail || sscanf(tail, " - %31s %1023s %2047s", type, source, super) < 2)
			continue;
		orders = (!strcmp(type, "ext4") || !strcmp(type, "ext3")) &&
			 !strstr(super, "noauto_da_alloc") && !strstr(super, "data=writeback");
		break;
	}
	fclose(f);
	return orders;
}

/* What a file system needs, by the measurements above. */
struct fs_rules {
	bool flush_before_replace; /* fdatasync before a rename over a name */
	bool fsync_after_link;     /* durable: fsync an O_TMPFILE file once named */
	bool acl_is_mode;          /* an ACL naming no one is kept as the mode */
	bool batches;              /* one syncfs for many before their renames */
	bool clone_is_ordered;     /* a clone needs no flush before the rename */
	bool in_memory;            /* its files' pages are memory: a read never
				    * waits for a disk */
	bool local;                /* a file's pages in memory are the file
				    * (no other machine writes it) */
	/* A clone shares the blocks of its source, as FIEMAP tells: */
	enum shared_extents shares_extents;
};

static struct fs_rules rules_of(int fd, dev_t dev)
{
	struct statfs fs;
	if (fstatfs(fd, &fs) < 0)
		return (struct fs_rules){ true, true, false, false, false, false, false,
					  EXTENTS_NOT_SHARED };
	switch (fs.f_type) {
	case TMPFS_MAGIC:
	case RAMFS_MAGIC:
		return (struct fs_rules){ false, false, fs.f_type == TMPFS_MAGIC, false, false,
					  true, true, EXTENTS_NOT_SHARED };
	case EXT4_SUPER_MAGIC: /* also ext2's and ext3's */
		return (struct fs_rules){ !ext4_orders_rename(dev), false, true, false, false,
					  false, true, EXTENTS_NOT_SHARED };
	case XFS_SUPER_MAGIC:
		return (struct fs_rules){ true, false, true, true, true, false, true,
					  EXTENTS_ASKED_ALONE };
	case BTRFS_SUPER_MAGIC:
		return (struct fs_rules){ true, true, true, true, false, false, true,
					  EXTENTS_SHARED };
	default: /* what was never measured */
		return (struct fs_rules){ true, true, false, false, false, false, false,
					  EXTENTS_NOT_SHARED };
	}
}

/* The rules of fd's file system: the answer for the last file system
 * asked is kept per thread (a tree's files mostly go to one). */
static struct fs_rules rules_for(int fd, dev_t dev)
{
	static _Thread_local bool known;
	static _Thread_local dev_t known_dev;
	static _Thread_local struct fs_rules known_rules;
	struct stat st;
	if (!dev && fstat(fd, &st) == 0)
		dev = st.st_dev;
	if (!known || known_dev != dev) {
		known_rules = rules_of(fd, dev);
		known_dev = dev;
		known = true;
	}
	return known_rules;
}

bool durable_before_replace(int fd, dev_t dev, bool cloned)
{
	struct fs_rules r = rules_for(fd, dev);
	return r.flush_before_replace && !(cloned && r.clone_is_ordered);
}

bool durable_batches(int fd, dev_t dev)
{
	return rules_for(fd, dev).batches;
}

bool durable_acl_is_mode(int fd, dev_t dev)
{
	return rules_for(fd, dev).acl_is_mode;
}

bool durable_in_memory(int fd, dev_t dev)
{
	return rules_for(fd, dev).in_memory;
}

bool durable_local(int fd, dev_t dev)
{
	return rules_for(fd, dev).local;
}

enum shared_extents durable_shares_extents(int fd, dev_t dev)
{
	return rules_for(fd, dev).shares_extents;
}

bool durable_after_link(int fd)
{
	return rules_for(fd, 0).fsync_after_link;
}
