/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the kernel API differences between Debian's 6.1 and 6.12
 * kernels that stealfs touches, in one place.
 *
 *   - inode operations take a struct user_namespace * (6.1) or a
 *     struct mnt_idmap * (6.3+);
 *   - write_begin/write_end pass struct page * up to 6.11 and
 *     struct folio * from 6.12;
 *   - the page-cache replace route is replace_page_cache_page() (6.1) or
 *     replace_page_cache_folio() (6.12);
 *   - __filemap_get_folio() returns NULL (6.1) or ERR_PTR (6.4+) when
 *     there is no folio;
 *   - splice_read is generic_file_splice_read (6.1) or
 *     filemap_splice_read (6.5+);
 *   - inode timestamps became accessor functions (6.6+);
 *   - filemap_add_folio() leaves a folio locked or not after a failed
 *     charge (stealfs_add_folio_locked() below);
 *   - struct mem_cgroup exists only with CONFIG_MEMCG
 *     (stealfs_folio_memcg_get() below).
 */
#ifndef STEALFS_COMPAT_H
#define STEALFS_COMPAT_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <linux/splice.h>

/*
 * Every helper stealfs calls was read, error paths included, in 6.1 and
 * 6.12, and the module is tested on those two (contrib/stealfs/tests).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "stealfs needs Linux 6.1 or later: older kernels are not tested"
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
typedef struct mnt_idmap stealfs_idmap_t;
#define STEALFS_NOP_IDMAP (&nop_mnt_idmap)
#else
typedef struct user_namespace stealfs_idmap_t;
#define STEALFS_NOP_IDMAP (&init_user_ns)
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
typedef struct folio stealfs_wb_t;
/* Returns the folio write_begin handed out. */
static inline struct folio *stealfs_wb_folio(stealfs_wb_t *p)
{
	return p;
}
#else
typedef struct page stealfs_wb_t;
/* Returns the folio of the page write_begin handed out. */
static inline struct folio *stealfs_wb_folio(stealfs_wb_t *p)
{
	return page_folio(p);
}
#endif

/* Puts @new (locked, no mapping) into @old's slot; @old must be locked. */
static inline void stealfs_replace_folio(struct folio *old, struct folio *new)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	replace_page_cache_folio(old, new);
#else
	replace_page_cache_page(&old->page, &new->page);
#endif
}

/*
 * filemap_add_folio() for a locked @folio that nobody else can see (a
 * stolen pipe page), which stays locked whatever happens.  Returns 0 or the
 * -errno of filemap_add_folio(): -ENOMEM (charge or allocation), -EEXIST.
 *
 * What a failure does to the lock differs.  On 6.1 the memcg charge is
 * made inside __filemap_add_folio() and every failure ends in
 * __folio_clear_locked().  On 6.12 filemap_add_folio() charges first and
 * returns a failed charge with the folio as it came, locked, while a failed
 * insert still clears the bit.  Locking again after every failure waits
 * forever on 6.12 for our own lock, so the bit is tested; the bit is ours
 * alone, so it is set the way the kernel clears it.
 */
static inline int stealfs_add_folio_locked(struct address_space *mapping,
					   struct folio *folio, pgoff_t index,
					   gfp_t gfp)
{
	int err = filemap_add_folio(mapping, folio, index, gfp);

	if (err && !folio_test_locked(folio))
		__folio_set_locked(folio);
	return err;
}

/*
 * Returns the memory cgroup @folio is charged to (for a kmem charge, the
 * group of its object cgroup), referenced for mem_cgroup_put(), or NULL when
 * it is charged to none or the kernel has no memory cgroups.
 */
static inline struct mem_cgroup *stealfs_folio_memcg_get(struct folio *folio)
{
#ifdef CONFIG_MEMCG
	struct mem_cgroup *memcg;

	rcu_read_lock();
	do {
		memcg = folio_memcg(folio);
	} while (memcg && !css_tryget(&memcg->css));
	rcu_read_unlock();
	return memcg;
#else
	return NULL;
#endif
}

/* Returns @mapping's folio at @index locked and referenced, or NULL. */
static inline struct folio *stealfs_lock_cached(struct address_space *mapping,
						pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(mapping, index, FGP_LOCK, 0);

	return IS_ERR(folio) ? NULL : folio;
}

/* Returns @mapping's folio at @index, created if need be, locked, or NULL. */
static inline struct folio *stealfs_grab_folio(struct address_space *mapping,
					       pgoff_t index, gfp_t gfp)
{
	struct folio *folio = __filemap_get_folio(mapping, index,
						  FGP_LOCK | FGP_CREAT, gfp);

	return IS_ERR(folio) ? NULL : folio;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define stealfs_splice_read filemap_splice_read
#else
#define stealfs_splice_read generic_file_splice_read
#endif

/* Sets ctime and mtime of @inode to now. */
static inline void stealfs_touch(struct inode *inode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
#else
	inode->i_mtime = inode->i_ctime = current_time(inode);
#endif
}

/* Sets all three timestamps of a new @inode to now. */
static inline void stealfs_init_times(struct inode *inode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	simple_inode_init_ts(inode);
#else
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
#endif
}

#endif
