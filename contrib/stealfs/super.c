// SPDX-License-Identifier: GPL-2.0
/*
 * super.c - the stealfs filesystem type: mount options (size=, nr_inodes=,
 * mode=, steal=on|off), superblock, statfs, and module init/exit.
 */
#include "stealfs.h"

#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>

#define STEALFS_DEFAULT_MODE 0755

/* Options parsed from the mount call, before a superblock exists. */
struct stealfs_options {
	unsigned long max_pages;
	unsigned long max_inodes;
	umode_t root_mode;
	bool steal;
};

enum { OPT_SIZE, OPT_NR_INODES, OPT_MODE, OPT_STEAL };

static const struct constant_table stealfs_steal_values[] = {
	{ "off", 0 },
	{ "on", 1 },
	{}
};

/*
 * size=, nr_inodes= and mode= are taken as strings and parsed here: the
 * kernel's number helpers accept more than we document (memparse() reads a
 * bare suffix as 0, wraps on overflow and takes octal and hex; kstrtouint()
 * takes a '+' and a trailing newline).  Every value must be all digits.
 */
static const struct fs_parameter_spec stealfs_parameters[] = {
	fsparam_string("size", OPT_SIZE),
	fsparam_string("nr_inodes", OPT_NR_INODES),
	fsparam_string("mode", OPT_MODE),
	fsparam_enum("steal", OPT_STEAL, stealfs_steal_values),
	{}
};

/*
 * Reads the number in base @base (8 or 10) that starts @s: digits only, no
 * sign, no prefix.  Stores it in *@val and the first character after the
 * digits in *@end.  Returns 0, -EINVAL when @s does not start with a digit,
 * or -ERANGE when the number exceeds @max.
 */
static int stealfs_read_number(const char *s, unsigned int base, u64 max,
			       u64 *val, const char **end)
{
	const char *p;
	u64 v = 0;

	for (p = s; *p >= '0' && *p < (char)('0' + base); p++) {
		unsigned int digit = *p - '0';

		if (v > (max - digit) / base)
			return -ERANGE;
		v = v * base + digit;
	}
	if (p == s)
		return -EINVAL;
	*val = v;
	*end = p;
	return 0;
}

/*
 * tmpfs' defaults (mm/shmem.c, the same in 6.1 and 6.12): size= half of the
 * RAM, nr_inodes= half of its pages or all of its low-memory pages,
 * whichever is fewer.  (6.12's tmpfs also caps nr_inodes at ULONG_MAX / 1024
 * for its own arithmetic; no machine comes near that.)
 */
static unsigned long stealfs_default_max_pages(void)
{
	return totalram_pages() / 2;
}

static unsigned long stealfs_default_max_inodes(void)
{
	unsigned long pages = totalram_pages();

	return min(pages - totalhigh_pages(), pages / 2);
}

/* The size= and nr_inodes= suffixes, each 1024 times the one before. */
static const char stealfs_suffixes[] = "kmgtpe";

/*
 * Reads decimal digits followed by at most one of K, M, G, T, P, E (either
 * case, powers of 1024) from @s into *@val; with @percent, "N%" is taken
 * too and sets *@percent.  Returns 0, -EINVAL when @s is not of that form,
 * or -ERANGE when the value exceeds 2^64 - 1.
 */
static int stealfs_read_scaled(const char *s, u64 *val, bool *percent)
{
	const char *end, *suffix;
	int err = stealfs_read_number(s, 10, U64_MAX, val, &end);

	if (err)
		return err;
	if (percent)
		*percent = false;
	if (!*end)
		return 0;
	if (end[1])
		return -EINVAL;
	if (percent && *end == '%') {
		*percent = true;
		return 0;
	}
	suffix = strchr(stealfs_suffixes, tolower(*end));
	if (!suffix)
		return -EINVAL;
	return check_shl_overflow(*val, 10 * (suffix - stealfs_suffixes + 1),
				  val) ? -ERANGE : 0;
}

/*
 * Parses size= (decimal bytes, optionally followed by one of K, M, G, T, P,
 * E in either case, or a percentage of the RAM followed by %) into
 * *@pages, rounded up to whole pages; 0 means no limit.  N% is N * RAM /
 * 100 bytes, rounded down, then up to pages, as tmpfs computes it.
 * Returns 0, or -EINVAL with a message in @fc's log.
 */
static int stealfs_parse_size(struct fs_context *fc, const char *s,
			      unsigned long *pages)
{
	bool percent;
	u64 bytes;
	int err = stealfs_read_scaled(s, &bytes, &percent);

	if (err == -ERANGE)
		goto too_large;
	if (err)
		return invalfc(fc, "bad size '%s': want decimal bytes, optionally followed by K, M, G, T, P or E, or a percentage of the RAM followed by %%",
			       s);
	if (percent) {
		if (check_shl_overflow(bytes, PAGE_SHIFT, &bytes) ||
		    check_mul_overflow(bytes, (u64)totalram_pages(), &bytes))
			goto too_large;
		bytes = div_u64(bytes, 100);
	}
	if (bytes > U64_MAX - (PAGE_SIZE - 1) ||
	    (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT > ULONG_MAX)
		goto too_large;
	*pages = (bytes + PAGE_SIZE - 1) >> PAGE_SHIFT;
	return 0;

too_large:
	return invalfc(fc, "size '%s' is too large", s);
}

/*
 * Parses nr_inodes= (decimal, optionally followed by one of K, M, G, T, P,
 * E in either case) into *@inodes; 0 means no limit.  Returns 0, or -EINVAL
 * with a message in @fc's log.
 */
static int stealfs_parse_inodes(struct fs_context *fc, const char *s,
				unsigned long *inodes)
{
	u64 val;
	int err = stealfs_read_scaled(s, &val, NULL);

	if (err == -ERANGE || (!err && val > ULONG_MAX))
		return invalfc(fc, "nr_inodes '%s' is too large", s);
	if (err)
		return invalfc(fc, "bad nr_inodes '%s': want a decimal number, optionally followed by K, M, G, T, P or E",
			       s);
	*inodes = val;
	return 0;
}

/*
 * Parses mode= (octal, at most 7777) into *@mode.  Returns 0, or -EINVAL
 * with a message in @fc's log.
 */
static int stealfs_parse_mode(struct fs_context *fc, const char *s,
			      umode_t *mode)
{
	const char *end;
	u64 val;
	int err = stealfs_read_number(s, 8, S_IALLUGO, &val, &end);

	if (err == -ERANGE)
		return invalfc(fc, "mode '%s' is out of range (at most 7777)", s);
	if (err || *end)
		return invalfc(fc, "bad mode '%s': want octal digits", s);
	*mode = val;
	return 0;
}

/*
 * Parses one mount option into fc->fs_private; returns 0 or -errno.  A
 * repeated option replaces the earlier value, as mount(8) expects (it and
 * busybox send the current options again on remount).
 */
static int stealfs_parse_param(struct fs_context *fc,
			       struct fs_parameter *param)
{
	struct stealfs_options *opts = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	opt = fs_parse(fc, stealfs_parameters, param, &result);
	if (opt < 0)
		return opt;	/* -ENOPARAM: the VFS refuses it as unknown */
	switch (opt) {
	case OPT_SIZE:
		return stealfs_parse_size(fc, param->string, &opts->max_pages);
	case OPT_NR_INODES:
		return stealfs_parse_inodes(fc, param->string, &opts->max_inodes);
	case OPT_MODE:
		return stealfs_parse_mode(fc, param->string, &opts->root_mode);
	case OPT_STEAL:
		opts->steal = result.uint_32;
		return 0;
	}
	return -EINVAL;
}

/*
 * Reports statfs: size= as the block count, accounted pages as used, and
 * nr_inodes= as the inode count, as tmpfs does (no limit: 0 for both).
 */
static int stealfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct stealfs_sb *sbi = STEALFS_SB(dentry->d_sb);

	simple_statfs(dentry, buf);
	buf->f_type = STEALFS_MAGIC;
	spin_lock(&sbi->stat_lock);
	if (sbi->max_pages) {
		buf->f_blocks = sbi->max_pages;
		buf->f_bfree = sbi->max_pages - min(sbi->used_pages, sbi->max_pages);
		buf->f_bavail = buf->f_bfree;
	}
	if (sbi->max_inodes) {
		buf->f_files = sbi->max_inodes;
		buf->f_ffree = sbi->max_inodes - min(sbi->used_inodes, sbi->max_inodes);
	}
	spin_unlock(&sbi->stat_lock);
	return 0;
}

/*
 * Shows the options in /proc/mounts.  size= (in KiB) and nr_inodes= are
 * written as tmpfs writes them, but always: their defaults depend on the
 * machine's RAM, so the limits in force are shown (tmpfs omits its
 * defaults).  mode= and steal=off only when they are not the defaults.
 */
static int stealfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct stealfs_sb *sbi = STEALFS_SB(root->d_sb);
	unsigned long max_pages, max_inodes;

	spin_lock(&sbi->stat_lock);
	max_pages = sbi->max_pages;
	max_inodes = sbi->max_inodes;
	spin_unlock(&sbi->stat_lock);
	/* size= is at most 2^64 - 1 bytes, so this does not overflow */
	seq_printf(m, ",size=%lluk", (u64)max_pages << (PAGE_SHIFT - 10));
	seq_printf(m, ",nr_inodes=%lu", max_inodes);
	if (sbi->root_mode != STEALFS_DEFAULT_MODE)
		seq_printf(m, ",mode=%o", sbi->root_mode);
	if (!READ_ONCE(sbi->steal))
		seq_puts(m, ",steal=off");
	return 0;
}

/* Drops an inode's pages and gives its accounted space and slot back. */
static void stealfs_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	stealfs_settle(inode, 0);
	stealfs_free_inode(inode->i_sb);
	clear_inode(inode);
}

static const struct super_operations stealfs_super_ops = {
	.statfs		= stealfs_statfs,
	.drop_inode	= stealfs_drop_inode,
	.evict_inode	= stealfs_evict_inode,
	.show_options	= stealfs_show_options,
};

/* Sets up a new superblock and its root; returns 0 or -errno. */
static int stealfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct stealfs_options *opts = fc->fs_private;
	struct stealfs_sb *sbi;
	struct inode *root;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return -ENOMEM;
	spin_lock_init(&sbi->stat_lock);
	sbi->max_pages = opts->max_pages;
	sbi->max_inodes = opts->max_inodes;
	sbi->root_mode = opts->root_mode;
	sbi->steal = opts->steal;
	sb->s_fs_info = sbi;
	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = STEALFS_MAGIC;
	sb->s_op = &stealfs_super_ops;
	sb->s_time_gran = 1;

	root = stealfs_get_inode(sb, NULL, S_IFDIR | sbi->root_mode, 0);
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

/* Creates a new, independent instance for each mount. */
static int stealfs_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, stealfs_fill_super);
}

/*
 * Applies size=, nr_inodes= and steal= on remount, all or nothing.  A limit
 * below what is in use is refused, as tmpfs does; unlike tmpfs, a mount
 * without a limit may get one (the use is counted either way).  mode= is
 * the root directory's mode at mount time: a remount may repeat it
 * (mount(8) and busybox send the current options again) but not change it.
 * Returns 0 or -EINVAL with a message in @fc's log.
 */
static int stealfs_reconfigure(struct fs_context *fc)
{
	struct stealfs_options *opts = fc->fs_private;
	struct stealfs_sb *sbi = STEALFS_SB(fc->root->d_sb);
	unsigned long used_pages, used_inodes;
	bool pages_ok, inodes_ok;

	if (opts->root_mode != sbi->root_mode)
		return invalfc(fc, "mode cannot change on remount (mounted with mode=%o); chmod the mount point instead",
			       sbi->root_mode);
	/* the use and the limits change together, under the lock */
	spin_lock(&sbi->stat_lock);
	used_pages = sbi->used_pages;
	used_inodes = sbi->used_inodes;
	pages_ok = !opts->max_pages || opts->max_pages >= used_pages;
	inodes_ok = !opts->max_inodes || opts->max_inodes >= used_inodes;
	if (pages_ok && inodes_ok) {
		sbi->max_pages = opts->max_pages;
		sbi->max_inodes = opts->max_inodes;
	}
	spin_unlock(&sbi->stat_lock);
	if (!pages_ok)
		return invalfc(fc, "size %lluk is smaller than the data (%lluk)",
			       (u64)opts->max_pages << (PAGE_SHIFT - 10),
			       (u64)used_pages << (PAGE_SHIFT - 10));
	if (!inodes_ok)
		return invalfc(fc, "nr_inodes %lu is smaller than the inodes in use (%lu)",
			       opts->max_inodes, used_inodes);
	WRITE_ONCE(sbi->steal, opts->steal);
	return 0;
}

static void stealfs_free_fc(struct fs_context *fc)
{
	kfree(fc->fs_private);
}

static const struct fs_context_operations stealfs_context_ops = {
	.free		= stealfs_free_fc,
	.parse_param	= stealfs_parse_param,
	.get_tree	= stealfs_get_tree,
	.reconfigure	= stealfs_reconfigure,
};

/*
 * Starts a mount with the default options, or a remount with the current
 * ones; returns 0 or -ENOMEM.
 */
static int stealfs_init_fs_context(struct fs_context *fc)
{
	struct stealfs_options *opts = kzalloc(sizeof(*opts), GFP_KERNEL);

	if (!opts)
		return -ENOMEM;
	opts->max_pages = stealfs_default_max_pages();
	opts->max_inodes = stealfs_default_max_inodes();
	opts->root_mode = STEALFS_DEFAULT_MODE;
	opts->steal = true;
	if (fc->root) {
		struct stealfs_sb *sbi = STEALFS_SB(fc->root->d_sb);

		spin_lock(&sbi->stat_lock);
		opts->max_pages = sbi->max_pages;
		opts->max_inodes = sbi->max_inodes;
		spin_unlock(&sbi->stat_lock);
		opts->root_mode = sbi->root_mode;
		opts->steal = sbi->steal;
	}
	fc->fs_private = opts;
	fc->ops = &stealfs_context_ops;
	return 0;
}

/* Frees the pages of every file, then the per-mount state. */
static void stealfs_kill_sb(struct super_block *sb)
{
	struct stealfs_sb *sbi = STEALFS_SB(sb);

	stealfs_kill_pinned_super(sb);
	kfree(sbi);
}

static struct file_system_type stealfs_fs_type = {
	.owner		= THIS_MODULE,
	.name		= "stealfs",
	.init_fs_context = stealfs_init_fs_context,
	.parameters	= stealfs_parameters,
	.kill_sb	= stealfs_kill_sb,
};

static int __init stealfs_init(void)
{
	int err = stealfs_stats_init();

	if (err)
		return err;
	err = register_filesystem(&stealfs_fs_type);
	if (err)
		stealfs_stats_exit();
	return err;
}

static void __exit stealfs_exit(void)
{
	unregister_filesystem(&stealfs_fs_type);
	stealfs_stats_exit();
}

module_init(stealfs_init);
module_exit(stealfs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("RAM filesystem whose splice_write steals pipe pages (SPLICE_F_MOVE)");
MODULE_AUTHOR("splice-utils");
MODULE_ALIAS_FS("stealfs");
