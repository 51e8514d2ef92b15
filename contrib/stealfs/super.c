// SPDX-License-Identifier: GPL-2.0
/*
 * super.c - the stealfs filesystem type: mount options (size=, mode=,
 * steal=on|off), superblock, statfs, and module init/exit.
 */
#include "stealfs.h"

#include <linux/module.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>

#define STEALFS_DEFAULT_MODE 0755

/* Options parsed from the mount call, before a superblock exists. */
struct stealfs_options {
	unsigned long max_pages;
	umode_t root_mode;
	bool steal;
};

enum { OPT_SIZE, OPT_MODE, OPT_STEAL };

static const struct constant_table stealfs_steal_values[] = {
	{ "off", 0 },
	{ "on", 1 },
	{}
};

static const struct fs_parameter_spec stealfs_parameters[] = {
	fsparam_string("size", OPT_SIZE),
	fsparam_u32oct("mode", OPT_MODE),
	fsparam_enum("steal", OPT_STEAL, stealfs_steal_values),
	{}
};

/* Parses one mount option into fc->fs_private; returns 0 or -errno. */
static int stealfs_parse_param(struct fs_context *fc,
			       struct fs_parameter *param)
{
	struct stealfs_options *opts = fc->fs_private;
	struct fs_parse_result result;
	unsigned long long size;
	char *rest;
	int opt;

	opt = fs_parse(fc, stealfs_parameters, param, &result);
	if (opt < 0)
		return opt;	/* -ENOPARAM is not ours either: refuse it */
	switch (opt) {
	case OPT_SIZE:
		size = memparse(param->string, &rest);
		if (*rest)
			return invalfc(fc, "bad size '%s'", param->string);
		opts->max_pages = DIV_ROUND_UP_ULL(size, PAGE_SIZE);
		break;
	case OPT_MODE:
		opts->root_mode = result.uint_32 & S_IALLUGO;
		break;
	case OPT_STEAL:
		opts->steal = result.uint_32;
		break;
	}
	return 0;
}

/* Reports statfs: size= as the block count, accounted pages as used. */
static int stealfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct stealfs_sb *sbi = STEALFS_SB(dentry->d_sb);
	long used = atomic_long_read(&sbi->used_pages);

	simple_statfs(dentry, buf);
	buf->f_type = STEALFS_MAGIC;
	if (sbi->max_pages) {
		buf->f_blocks = sbi->max_pages;
		buf->f_bfree = sbi->max_pages > used ? sbi->max_pages - used : 0;
		buf->f_bavail = buf->f_bfree;
	}
	return 0;
}

/* Shows the non-default options in /proc/mounts. */
static int stealfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct stealfs_sb *sbi = STEALFS_SB(root->d_sb);

	if (sbi->max_pages)
		seq_printf(m, ",size=%luk", sbi->max_pages << (PAGE_SHIFT - 10));
	if (sbi->root_mode != STEALFS_DEFAULT_MODE)
		seq_printf(m, ",mode=%o", sbi->root_mode);
	if (!sbi->steal)
		seq_puts(m, ",steal=off");
	return 0;
}

/* Drops an inode's pages and gives its accounted space back. */
static void stealfs_evict_inode(struct inode *inode)
{
	truncate_inode_pages_final(&inode->i_data);
	stealfs_settle(inode, 0);
	clear_inode(inode);
}

static const struct super_operations stealfs_super_ops = {
	.statfs		= stealfs_statfs,
	.drop_inode	= generic_delete_inode,
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
	sbi->max_pages = opts->max_pages;
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

/* Applies size= and steal= on remount; mode= only matters at mount time. */
static int stealfs_reconfigure(struct fs_context *fc)
{
	struct stealfs_options *opts = fc->fs_private;
	struct stealfs_sb *sbi = STEALFS_SB(fc->root->d_sb);

	if (opts->max_pages &&
	    opts->max_pages < atomic_long_read(&sbi->used_pages))
		return invalfc(fc, "size is smaller than the data");
	sbi->max_pages = opts->max_pages;
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
	opts->root_mode = STEALFS_DEFAULT_MODE;
	opts->steal = true;
	if (fc->root) {
		struct stealfs_sb *sbi = STEALFS_SB(fc->root->d_sb);

		opts->max_pages = sbi->max_pages;
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

	kill_litter_super(sb);
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
