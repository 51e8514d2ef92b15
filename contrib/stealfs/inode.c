// SPDX-License-Identifier: GPL-2.0
/*
 * inode.c - stealfs inodes: a ramfs-like tree (regular files, directories,
 * device nodes, fifos, sockets) whose pages live only in the page cache,
 * plus the size= accounting.
 *
 * Space is accounted per file in whole pages up to its i_size (kept in
 * i_blocks), so size= bounds the sum of the files' sizes rounded up to
 * pages.  A short write may leave up to the pages it reserved accounted
 * until the next truncate or until the file is freed.
 */
#include "stealfs.h"

#include <linux/pagemap.h>
#include <linux/security.h>
#include <linux/uio.h>

#define STEALFS_BLOCKS_PER_PAGE (PAGE_SIZE >> 9)

/* Returns the number of pages needed to hold @size bytes. */
static unsigned long stealfs_pages(loff_t size)
{
	return (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/*
 * Makes sure the pages up to byte @end of @inode are accounted.  Caller
 * holds the inode lock.  Returns 0, or -ENOSPC when size= would be exceeded.
 */
int stealfs_account(struct inode *inode, loff_t end)
{
	struct stealfs_sb *sbi = STEALFS_SB(inode->i_sb);
	unsigned long have = inode->i_blocks / STEALFS_BLOCKS_PER_PAGE;
	unsigned long need = stealfs_pages(end);
	unsigned long max = READ_ONCE(sbi->max_pages);
	long used;

	if (need <= have)
		return 0;
	used = atomic_long_add_return(need - have, &sbi->used_pages);
	if (max && (used < 0 || (unsigned long)used > max)) {
		atomic_long_sub(need - have, &sbi->used_pages);
		return -ENOSPC;
	}
	inode->i_blocks = need * STEALFS_BLOCKS_PER_PAGE;
	return 0;
}

/*
 * Gives back the pages of @inode beyond byte @size.  Caller holds the inode
 * lock, or the inode is being freed.
 */
void stealfs_settle(struct inode *inode, loff_t size)
{
	struct stealfs_sb *sbi = STEALFS_SB(inode->i_sb);
	unsigned long have = inode->i_blocks / STEALFS_BLOCKS_PER_PAGE;
	unsigned long keep = stealfs_pages(size);

	if (keep >= have)
		return;
	atomic_long_sub(have - keep, &sbi->used_pages);
	inode->i_blocks = keep * STEALFS_BLOCKS_PER_PAGE;
}

/* Accounts the write, then lets ramfs' write_begin find the folio. */
static int stealfs_write_begin(stealfs_wb_ctx_t *file, struct address_space *mapping,
			       loff_t pos, unsigned int len,
			       stealfs_wb_t **pagep, void **fsdata)
{
	int err = stealfs_account(mapping->host, pos + len);

	if (err)
		return err;
	return ram_aops.write_begin(file, mapping, pos, len, pagep, fsdata);
}

/* ramfs' write_end: copies done, page dirtied, i_size extended. */
static int stealfs_write_end(stealfs_wb_ctx_t *file, struct address_space *mapping,
			     loff_t pos, unsigned int len, unsigned int copied,
			     stealfs_wb_t *page, void *fsdata)
{
	return ram_aops.write_end(file, mapping, pos, len, copied, page, fsdata);
}

/* A page read from a hole: ramfs zeroes it. */
static int stealfs_read_folio(struct file *file, struct folio *folio)
{
	return ram_aops.read_folio(file, folio);
}

static const struct address_space_operations stealfs_aops = {
	.read_folio	= stealfs_read_folio,
	.write_begin	= stealfs_write_begin,
	.write_end	= stealfs_write_end,
	.dirty_folio	= noop_dirty_folio,
};

/* Returns whether @mapping is the page cache of a stealfs file. */
bool stealfs_owns(const struct address_space *mapping)
{
	return mapping->a_ops == &stealfs_aops;
}

/*
 * Changes attributes; a size change is accounted first and truncates the
 * page cache.  Returns 0 or -errno.
 */
static int stealfs_setattr(stealfs_idmap_t *idmap, struct dentry *dentry,
			   struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int err;

	if (attr->ia_valid & ATTR_SIZE) {
		err = inode_newsize_ok(inode, attr->ia_size);
		if (!err)
			err = stealfs_account(inode, attr->ia_size);
		if (err)
			return err;
	}
	err = simple_setattr(idmap, dentry, attr);
	stealfs_settle(inode, i_size_read(inode));
	return err;
}

const struct file_operations stealfs_file_operations = {
	.read_iter	= generic_file_read_iter,
	.write_iter	= generic_file_write_iter,
	.mmap		= generic_file_mmap,
	.fsync		= noop_fsync,
	.splice_read	= stealfs_splice_read,
	.splice_write	= stealfs_splice_write,
	.llseek		= generic_file_llseek,
};

static const struct inode_operations stealfs_file_inode_operations = {
	.setattr	= stealfs_setattr,
	.getattr	= simple_getattr,
};

static const struct inode_operations stealfs_dir_inode_operations;

/* Returns a new inode of @mode under @dir (NULL for the root), or NULL. */
struct inode *stealfs_get_inode(struct super_block *sb, const struct inode *dir,
				umode_t mode, dev_t dev)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode_init_owner(STEALFS_NOP_IDMAP, inode, dir, mode);
	inode->i_mapping->a_ops = &stealfs_aops;
	mapping_set_gfp_mask(inode->i_mapping, GFP_HIGHUSER);
	mapping_set_unevictable(inode->i_mapping);
	stealfs_init_times(inode);
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &stealfs_file_inode_operations;
		inode->i_fop = &stealfs_file_operations;
		break;
	case S_IFDIR:
		inode->i_op = &stealfs_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);	/* "." */
		break;
	default:
		init_special_inode(inode, mode, dev);
		break;
	}
	return inode;
}

/* Creates a node of any type in @dir; returns 0 or -errno. */
static int stealfs_mknod(stealfs_idmap_t *idmap, struct inode *dir,
			 struct dentry *dentry, umode_t mode, dev_t dev)
{
	struct inode *inode = stealfs_get_inode(dir->i_sb, dir, mode, dev);
	int err;

	if (!inode)
		return -ENOSPC;
	err = security_inode_init_security(inode, dir, &dentry->d_name,
					   NULL, NULL);
	if (err) {
		iput(inode);
		return err;
	}
	stealfs_pin_dentry(dentry, inode);	/* it is the only copy */
	stealfs_touch(dir);
	return 0;
}

/* Creates a directory; returns 0 or -errno (as compat.h's mkdir wants). */
static stealfs_mkdir_t stealfs_mkdir(stealfs_idmap_t *idmap, struct inode *dir,
				     struct dentry *dentry, umode_t mode)
{
	int err = stealfs_mknod(idmap, dir, dentry, mode | S_IFDIR, 0);

	if (!err)
		inc_nlink(dir);
	return STEALFS_MKDIR_RETURN(err);
}

/* Creates a regular file; returns 0 or -errno. */
static int stealfs_create(stealfs_idmap_t *idmap, struct inode *dir,
			  struct dentry *dentry, umode_t mode, bool excl)
{
	return stealfs_mknod(idmap, dir, dentry, mode | S_IFREG, 0);
}

static const struct inode_operations stealfs_dir_inode_operations = {
	.create		= stealfs_create,
	.lookup		= simple_lookup,
	.link		= simple_link,
	.unlink		= simple_unlink,
	.mkdir		= stealfs_mkdir,
	.rmdir		= simple_rmdir,
	.mknod		= stealfs_mknod,
	.rename		= simple_rename,
};
