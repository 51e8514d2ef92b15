/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the kernel API differences between Debian's 6.1, 6.12 and
 * 7.2 kernels that stealfs touches, in one place.
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
 *   - the inode ctime became accessor functions (6.6+), atime and mtime
 *     too (6.7+);
 *   - filemap_add_folio() leaves a folio locked or not after a failed
 *     charge (stealfs_add_folio_locked() below);
 *   - a mapping's folio sizes are set with mapping_set_folio_order_range()
 *     (6.11+), and stealfs takes large folios from 6.12 on
 *     (STEALFS_LARGE_FOLIOS below);
 *   - struct mem_cgroup exists only with CONFIG_MEMCG
 *     (stealfs_folio_memcg_get() below);
 *   - mkdir returns a struct dentry * (6.15+);
 *   - write_begin/write_end take a const struct kiocb * (6.17+);
 *   - folio->flags is a memdesc_flags_t (6.18+);
 *   - generic_delete_inode() is called inode_just_drop() (6.18+);
 *   - a RAM filesystem pins its dentries with d_make_persistent(), which
 *     simple_unlink()/simple_rmdir() undo, and kill_litter_super() is gone
 *     (6.19+).
 *
 * Each rule below names the kernel commit that made the difference (by
 * subject and author: the Debian source packages carry no history, so the
 * release is the one whose headers first have the new form; 7.2.13's
 * sources were read for every rule).
 */
#ifndef STEALFS_COMPAT_H
#define STEALFS_COMPAT_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/pagemap.h>
#include <linux/splice.h>

/*
 * Every helper stealfs calls was read, error paths included, in 6.1, 6.12
 * and 7.2, and the module is tested on those (contrib/stealfs/tests).
 * Before 6.1 the page cache has no filemap_add_folio() and no folio
 * write_begin; Debian 11's 5.10 is refused here rather than half-supported.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0)
#error "stealfs needs Linux 6.1 or later (tested on 6.1, 6.12 and 7.2): this kernel lacks filemap_add_folio() and the folio page-cache API the module steals pages with"
#endif

/*
 * Inode operations take a struct mnt_idmap *, and the identity mapping is
 * nop_mnt_idmap: the type came with 256c8aed2b42 "fs: introduce dedicated
 * idmap type for mounts" (Christian Brauner, 6.3), the operations were
 * converted to it by his "fs: port ->...() to pass mnt_idmap" series in
 * the same release.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
typedef struct mnt_idmap stealfs_idmap_t;
#define STEALFS_NOP_IDMAP (&nop_mnt_idmap)
#else
typedef struct user_namespace stealfs_idmap_t;
#define STEALFS_NOP_IDMAP (&init_user_ns)
#endif

/*
 * write_begin/write_end hand out a folio: "fs: Convert aops->write_begin to
 * take a folio" (Matthew Wilcox, 6.12).
 */
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

/*
 * write_begin/write_end get the kiocb of the write instead of its file:
 * "fs: change write_begin/write_end interface to take struct kiocb *"
 * (Taotao Chen, 6.17).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
typedef const struct kiocb stealfs_wb_ctx_t;
#else
typedef struct file stealfs_wb_ctx_t;
#endif

/*
 * mkdir returns the dentry it made (NULL: the one it was given) or an
 * ERR_PTR: "Change inode_operations.mkdir to return struct dentry *"
 * (NeilBrown, 6.15).  STEALFS_MKDIR_RETURN(err) turns 0/-errno into it.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
typedef struct dentry *stealfs_mkdir_t;
#define STEALFS_MKDIR_RETURN(err) ((err) ? ERR_PTR(err) : NULL)
#else
typedef int stealfs_mkdir_t;
#define STEALFS_MKDIR_RETURN(err) (err)
#endif

/*
 * The flags word of a folio: "mm: introduce memdesc_flags_t" (Matthew
 * Wilcox, 6.18) wrapped it in a struct.
 */
static inline unsigned long stealfs_folio_flags(const struct folio *folio)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
	return folio->flags.f;
#else
	return folio->flags;
#endif
}

/*
 * drop_inode for a filesystem whose inodes live only while linked:
 * "fs: rename generic_delete_inode() and generic_drop_inode()" (Mateusz
 * Guzik, 6.18) renamed it inode_just_drop().
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 18, 0)
#define stealfs_drop_inode inode_just_drop
#else
#define stealfs_drop_inode generic_delete_inode
#endif

/*
 * Pins @dentry, now positive with @inode, as the only copy of a RAM file's
 * name, and frees a superblock's pinned tree.  From Al Viro's "d_make_persistent"
 * series (6.19) the pin is d_make_persistent() (DCACHE_PERSISTENT, which
 * simple_unlink()/simple_rmdir() drop with d_make_discardable() and
 * generic_shutdown_super() drops at unmount), so kill_anon_super() frees
 * the tree and kill_litter_super() is gone; before, d_instantiate() plus
 * an extra reference, which kill_litter_super()'s d_genocide() drops.
 */
static inline void stealfs_pin_dentry(struct dentry *dentry, struct inode *inode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0)
	d_make_persistent(dentry, inode);
#else
	d_instantiate(dentry, inode);
	dget(dentry);
#endif
}

static inline void stealfs_kill_pinned_super(struct super_block *sb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 19, 0)
	kill_anon_super(sb);
#else
	kill_litter_super(sb);
#endif
}

/*
 * Large folios.  From 6.12 on (read in 6.12 and 7.2) stealfs files take
 * folios of up to STEALFS_MAX_ORDER, the page cache's own ceiling
 * (MAX_PAGECACHE_ORDER: a PMD's 2 MiB on x86-64): their mappings say so
 * with mapping_set_folio_order_range() ("fs: Allow fine-grained control of
 * folio sizes", Pankaj Raghav, 6.11), a placeholder of the size wanted is
 * made with __filemap_get_folio(..., fgf_set_order()) ("filemap: Allow
 * __filemap_get_folio to allocate large folios", Matthew Wilcox, 6.6), and
 * a large folio replaces one of the same size (stealfs_replace_folio(),
 * which also moves the PMD-size folios' NR_FILE_THPS count).  A whole
 * folio must sit in one pipe: a 2 MiB folio needs a pipe of 512 slots,
 * twice the default ceiling (pipe-max-size) of 1 MiB, which only root
 * (CAP_SYS_RESOURCE) or a raised pipe-max-size allows; in a smaller pipe
 * it is copied.  On 6.1 stealfs files hold small folios only and a large
 * source folio is copied.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0) && defined(CONFIG_TRANSPARENT_HUGEPAGE)
#define STEALFS_LARGE_FOLIOS 1
#define STEALFS_MAX_ORDER ((unsigned int)MAX_PAGECACHE_ORDER)
#else
#define STEALFS_LARGE_FOLIOS 0
#define STEALFS_MAX_ORDER 0U
#endif

/* Lets @mapping, a new regular file's, hold folios up to STEALFS_MAX_ORDER. */
static inline void stealfs_allow_large_folios(struct address_space *mapping)
{
#if STEALFS_LARGE_FOLIOS
	mapping_set_folio_order_range(mapping, 0, STEALFS_MAX_ORDER);
#endif
}

/*
 * Returns @mapping's folio at @index, locked and referenced, made if need
 * be with @order pages' worth if it can (the kernel may make a smaller one:
 * memory, alignment, neighbours), or NULL.  The caller checks the size.
 */
static inline struct folio *stealfs_grab_large(struct address_space *mapping,
					       pgoff_t index, unsigned int order,
					       gfp_t gfp)
{
#if STEALFS_LARGE_FOLIOS
	struct folio *folio = __filemap_get_folio(mapping, index,
			FGP_LOCK | FGP_CREAT | fgf_set_order(PAGE_SIZE << order),
			gfp);

	return IS_ERR(folio) ? NULL : folio;
#else
	return NULL;
#endif
}

/*
 * Moves the count of PMD-size page-cache folios from @old, just replaced,
 * to @new (both locked, of one size).  __filemap_add_folio() counted @old
 * in NR_FILE_THPS (NR_SHMEM_THPS when swap-backed) of its node and memory
 * cgroup, and filemap_unaccount_folio() and a split take that count off
 * the folio in the page cache when it leaves, but
 * replace_page_cache_folio() moves only NR_FILE_PAGES and NR_SHMEM (6.12
 * and 7.2 alike): without this, @old's node and group would keep the
 * count for good and @new's lose it twice (once leaving its old file,
 * once leaving ours).  @old is still charged: its caller holds it.
 * lruvec_stat_mod_folio() is the interrupt-safe form in 6.12 (an inline
 * around __lruvec_stat_mod_folio()) and 7.2 (exported) alike.
 */
static inline void stealfs_move_thps(struct folio *old, struct folio *new)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	long nr = folio_nr_pages(new);

	if (folio_test_pmd_mappable(old))
		lruvec_stat_mod_folio(old, folio_test_swapbacked(old) ?
				      NR_SHMEM_THPS : NR_FILE_THPS, -nr);
	if (folio_test_pmd_mappable(new))
		lruvec_stat_mod_folio(new, folio_test_swapbacked(new) ?
				      NR_SHMEM_THPS : NR_FILE_THPS, nr);
#endif
}

/*
 * Puts @new (locked, no mapping, holding one reference per page: the pipe
 * buffers') into @old's slot; @old must be locked and of @new's size.
 *
 * replace_page_cache_folio() (6.12 and 7.2 alike) stores @new over the
 * whole range of @old's entry, moves the NR_FILE_PAGES count by folio size,
 * keeps @new's charge when it has one (mem_cgroup_replace_folio() returns
 * early), but takes one reference on @new and drops one on @old, while the
 * page cache holds one per page (__filemap_add_folio()'s folio_ref_add(nr),
 * filemap_free_folio()'s folio_put_refs(nr)).  For a large folio the rest
 * is moved here, with both folios locked, so nothing that frees page-cache
 * folios (truncation, reclaim, migration: all take the lock) sees the
 * counts in between.  For a small folio this is the plain replace.
 */
static inline void stealfs_replace_folio(struct folio *old, struct folio *new)
{
	long nr = folio_nr_pages(new);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	replace_page_cache_folio(old, new);
#else
	replace_page_cache_page(&old->page, &new->page);
#endif
	if (nr > 1) {
		folio_ref_add(new, nr - 1);
		folio_put_refs(old, nr - 1);
	}
	stealfs_move_thps(old, new);
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

/*
 * splice_read: generic_file_splice_read() went in "splice: Remove
 * generic_file_splice_read()" (David Howells, 6.5); filemap_splice_read(),
 * from the same series, is the page-cache reader from then on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define stealfs_splice_read filemap_splice_read
#else
#define stealfs_splice_read generic_file_splice_read
#endif

/*
 * Inode timestamps.  6.6 made ctime private (9b6304c1d537 "fs: add ctime
 * accessors infrastructure", 13bc24457850 "fs: rename i_ctime field to
 * __i_ctime"): inode_set_ctime_current() from then on.  6.7 did the same
 * for atime and mtime (12cd44023651 "fs: add new accessor methods for
 * atime and mtime") and added simple_inode_init_ts() (077c212f0344).
 */

/* Sets ctime and mtime of @inode to now. */
static inline void stealfs_touch(struct inode *inode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	inode->i_mtime = inode_set_ctime_current(inode);
#else
	inode->i_mtime = inode->i_ctime = current_time(inode);
#endif
}

/* Sets all three timestamps of a new @inode to now. */
static inline void stealfs_init_times(struct inode *inode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)
	simple_inode_init_ts(inode);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	inode->i_atime = inode->i_mtime = inode_set_ctime_current(inode);
#else
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
#endif
}

#endif
