/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stealfs.h - declarations shared by the stealfs sources.
 */
#ifndef STEALFS_H
#define STEALFS_H

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/spinlock.h>
#include "compat.h"
#include "stealfs-abi.h"

/*
 * Per-mount state, in sb->s_fs_info.  stat_lock guards the limits and the
 * use, so that a remount below the use is refused exactly, as on tmpfs.
 */
struct stealfs_sb {
	spinlock_t stat_lock;
	unsigned long max_pages;	/* size= in pages, 0 = unlimited */
	unsigned long used_pages;	/* pages accounted to files */
	unsigned long max_inodes;	/* nr_inodes=, 0 = unlimited */
	unsigned long used_inodes;	/* inodes and extra hard links */
	umode_t root_mode;		/* mode= */
	bool steal;			/* steal=on|off */
};

static inline struct stealfs_sb *STEALFS_SB(struct super_block *sb)
{
	return sb->s_fs_info;
}

/* The counters under /sys/fs/stealfs/stats/, one file each (stealfs-abi.h). */
#define STEALFS_COUNTER_ENUM(e, name) STEALFS_##e,
enum stealfs_counter {
	STEALFS_COUNTERS(STEALFS_COUNTER_ENUM)
	STEALFS_NR_COUNTERS
};
#undef STEALFS_COUNTER_ENUM

void stealfs_count(enum stealfs_counter c, unsigned long n);
int stealfs_stats_init(void);
void stealfs_stats_exit(void);

/* inode.c */
extern const struct file_operations stealfs_file_operations;
struct inode *stealfs_get_inode(struct super_block *sb, const struct inode *dir,
				umode_t mode, dev_t dev);
bool stealfs_owns(const struct address_space *mapping);
int stealfs_account(struct inode *inode, loff_t end);
void stealfs_settle(struct inode *inode, loff_t size);
int stealfs_reserve_inode(struct super_block *sb);
void stealfs_free_inode(struct super_block *sb);

/* splice.c */
ssize_t stealfs_splice_write(struct pipe_inode_info *pipe, struct file *out,
			     loff_t *ppos, size_t len, unsigned int flags);

#endif
