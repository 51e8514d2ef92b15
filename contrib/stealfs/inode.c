// SPDX-License-Identifier: GPL-2.0
/*
 * inode.c - stealfs inodes: a ramfs-like tree (regular files, directories,
 * device nodes, fifos, sockets) whose pages live only in the page cache,
 * plus the size= and nr_inodes= accounting.
 *
 * Space is accounted per file in whole pages up to its i_size (kept in
 * i_blocks), so size= bounds the sum of the files' sizes rounded up to
 * pages.  A short write may leave up to the pages it reserved accounted
 * until the next truncate or until the file is freed.  Holes count: reading
 * one puts a page of zeros in the page cache (ramfs' read path), unlike
 * tmpfs, which reads holes from the zero page.
 *
 * Every inode takes one of the nr_inodes= slots from its creation until it
 * is freed, and every hard link beyond the first one more, as on tmpfs.
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
 * holds the inode lock, or nobody else can see the inode yet.  Returns 0,
 * or -ENOSPC when size= would be exceeded.
 */
int stealfs_account(struct inode *inode, loff_t end)
{
	struct stealfs_sb *sbi = STEALFS_SB(inode->i_sb);
	unsigned long have = inode->i_blocks / STEALFS_BLOCKS_PER_PAGE;
	unsigned long need = stealfs_pages(end);
	unsigned long limit;
	int err = 0;

	if (need <= have)
		return 0;
	spin_lock(&sbi->stat_lock);
	/* with a limit, use never exceeds it (stealfs_reconfigure) */
	limit = sbi->max_pages ? sbi->max_pages : ULONG_MAX;
	if (sbi->used_pages > limit || need - have > limit - sbi->used_pages)
		err = -ENOSPC;
	else
		sbi->used_pages += need - have;
	spin_unlock(&sbi->stat_lock);
	if (!err)
		inode->i_blocks = need * STEALFS_BLOCKS_PER_PAGE;
	return err;
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
	spin_lock(&sbi->stat_lock);
	sbi->used_pages -= have - keep;
	spin_unlock(&sbi->stat_lock);
	inode->i_blocks = keep * STEALFS_BLOCKS_PER_PAGE;
}

/*
 * Takes one of the nr_inodes= slots for a new inode or, as tmpfs does, for
 * a new hard link (each pins a dentry in memory until it is unlinked).
 * Returns 0 or -ENOSPC when they are all taken.
 */
int stealfs_reserve_inode(struct super_block *sb)
{
	struct stealfs_sb *sbi = STEALFS_SB(sb);
	int err = 0;

	spin_lock(&sbi->stat_lock);
	if (sbi->max_inodes ? sbi->used_inodes >= sbi->max_inodes
			    : sbi->used_inodes == ULONG_MAX)
		err = -ENOSPC;
	else
		sbi->used_inodes++;
	spin_unlock(&sbi->stat_lock);
	return err;
}

/* Gives back a slot taken by stealfs_reserve_inode(). */
void stealfs_free_inode(struct super_block *sb)
{
	struct stealfs_sb *sbi = STEALFS_SB(sb);

	spin_lock(&sbi->stat_lock);
	sbi->used_inodes--;
	spin_unlock(&sbi->stat_lock);
}

/*
 * Accounts the write, then lets ramfs' write_begin find the folio.  Where
 * files may hold large folios the write path offers up to a large folio's
 * worth at a time, but ramfs' write_begin makes small folios and the write
 * stops at the folio's end: only that much is accounted, so that a write
 * beyond size= still fills the file up to the last page that fits.  A large
 * folio already there (a stolen one: readahead makes none beyond i_size,
 * and the inode lock we hold keeps steals out) is accounted to its end.
 */
static int stealfs_write_begin(stealfs_wb_ctx_t *file, struct address_space *mapping,
			       loff_t pos, unsigned int len,
			       stealfs_wb_t **pagep, void **fsdata)
{
	struct folio *folio = filemap_get_folio(mapping, pos >> PAGE_SHIFT);
	loff_t end = round_down(pos, PAGE_SIZE) + PAGE_SIZE;
	int err;

	if (!IS_ERR_OR_NULL(folio)) {	/* NULL on 6.1 */
		end = folio_pos(folio) + folio_size(folio);
		folio_put(folio);
	}
	err = stealfs_account(mapping->host, min_t(loff_t, pos + len, end));

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

/*
 * Returns a new inode of @mode under @dir (NULL for the root), holding an
 * nr_inodes= slot that stealfs_evict_inode() gives back, or NULL when the
 * slots are all taken or there is no memory.
 */
struct inode *stealfs_get_inode(struct super_block *sb, const struct inode *dir,
				umode_t mode, dev_t dev)
{
	struct inode *inode;

	if (stealfs_reserve_inode(sb))
		return NULL;
	inode = new_inode(sb);
	if (!inode) {
		stealfs_free_inode(sb);
		return NULL;
	}
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
		/* stolen large folios go in whole (splice.c) */
		stealfs_allow_large_folios(inode->i_mapping);
		break;
	case S_IFDIR:
		inode->i_op = &stealfs_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);	/* "." */
		break;
	case S_IFLNK:
		inode->i_op = &page_symlink_inode_operations;
		inode_nohighmem(inode);	/* page_symlink() writes the page directly */
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

/*
 * Creates a symbolic link; its target is the file's data, a page accounted
 * to size= like any other.  Returns 0 or -errno (-ENOSPC when no inode or
 * no page is left).
 */
static int stealfs_symlink(stealfs_idmap_t *idmap, struct inode *dir,
			   struct dentry *dentry, const char *symname)
{
	struct inode *inode = stealfs_get_inode(dir->i_sb, dir,
						S_IFLNK | 0777, 0);
	int err;

	if (!inode)
		return -ENOSPC;
	err = security_inode_init_security(inode, dir, &dentry->d_name,
					   NULL, NULL);
	if (!err)
		err = page_symlink(inode, symname, strlen(symname) + 1);
	if (err) {
		iput(inode);
		return err;
	}
	stealfs_pin_dentry(dentry, inode);	/* it is the only copy */
	stealfs_touch(dir);
	return 0;
}

/* Adds a hard link, which takes an nr_inodes= slot; returns 0 or -ENOSPC. */
static int stealfs_link(struct dentry *old_dentry, struct inode *dir,
			struct dentry *dentry)
{
	int err = stealfs_reserve_inode(dir->i_sb);

	if (err)
		return err;
	err = simple_link(old_dentry, dir, dentry);
	if (err)
		stealfs_free_inode(dir->i_sb);
	return err;
}

/*
 * Returns whether removing the name @dentry ends one of its inode's extra
 * hard links (the last name's slot goes when the inode is freed).
 */
static bool stealfs_extra_link(struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);

	return inode && !S_ISDIR(inode->i_mode) && inode->i_nlink > 1;
}

/* Removes a name; returns 0. */
static int stealfs_unlink(struct inode *dir, struct dentry *dentry)
{
	if (stealfs_extra_link(dentry))
		stealfs_free_inode(dir->i_sb);
	return simple_unlink(dir, dentry);
}

/*
 * simple_rename(), giving back the slot of an extra hard link it replaced.
 * Returns 0 or -errno.
 */
static int stealfs_rename(stealfs_idmap_t *idmap, struct inode *old_dir,
			  struct dentry *old_dentry, struct inode *new_dir,
			  struct dentry *new_dentry, unsigned int flags)
{
	bool extra = !(flags & RENAME_EXCHANGE) && stealfs_extra_link(new_dentry);
	int err = simple_rename(idmap, old_dir, old_dentry, new_dir,
				new_dentry, flags);

	if (!err && extra)
		stealfs_free_inode(old_dir->i_sb);
	return err;
}

static const struct inode_operations stealfs_dir_inode_operations = {
	.create		= stealfs_create,
	.lookup		= simple_lookup,
	.link		= stealfs_link,
	.unlink		= stealfs_unlink,
	.symlink	= stealfs_symlink,
	.mkdir		= stealfs_mkdir,
	.rmdir		= simple_rmdir,
	.mknod		= stealfs_mknod,
	.rename		= stealfs_rename,
};
