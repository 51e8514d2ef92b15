// SPDX-License-Identifier: GPL-2.0
/*
 * splice.c - stealfs' splice_write: with SPLICE_F_MOVE, whole pipe pages go
 * into the file's page cache instead of being copied.
 *
 * pipe_buf_try_steal() hands over two kinds of page (doc/stealfs.md):
 *
 *  - anonymous pipe pages written with write(2), when the pipe holds the
 *    only reference.  They come back locked, off the LRU, not uptodate, and
 *    uncharged: the steal dropped the kmem charge of the pipe's writer.
 *    Into an empty slot they go with filemap_add_folio(), which charges
 *    them to the writer's memory cgroup and puts them on the LRU.  Over a
 *    page already there (overwrite) the replace route swaps them in, moving
 *    the old page's charge to them, and they are put on the LRU by hand, as
 *    fuse does.
 *  - page-cache pages spliced from a clean file nobody else uses.  They come
 *    back locked, removed from their file, still on the LRU and still
 *    charged to the memory cgroup that read them.  They may only replace a
 *    locked folio of ours (the page there, or a placeholder made for it),
 *    and only when that cgroup is the writer's: nothing exported moves a
 *    charge from one cgroup to another, and a page paid for by another
 *    group would let the writer hold memory beyond its own limit.  So every
 *    page in stealfs is paid for by the group of the task that wrote it (or,
 *    for an overwrite, by whoever paid for the page it replaced, as with
 *    write(2)).
 *
 * A large page-cache folio (ext4 from 7.x, XFS, ...) spans several pipe
 * buffers, each holding a reference.  When the buffer of its first page
 * comes with the buffers of all its other pages behind it in the pipe, at a
 * file position aligned to its size, it is taken whole
 * (stealfs_steal_large()): the kernel's steal, remove_mapping(), expects
 * the references of the page cache and of one pipe buffer, so the others
 * are lent to it for the moment of the steal, and the folio replaces a
 * placeholder of its size in our page cache.  Its other buffers are then
 * consumed as moved.  A folio only partly in the pipe, or at a position
 * not aligned to its size, is copied.
 *
 * Everything else is copied: partial pages and unaligned positions, gifts
 * (vmsplice SPLICE_F_GIFT: PIPE_BUF_FLAG_LRU on them proves nothing),
 * large folios not taken whole, anonymous or swap-backed pages, pages of
 * stealfs itself, pages that are mapped, carry unexpected flags or are
 * charged elsewhere, destination pages that are mapped, mlocked, under
 * writeback, or hold references beyond the page cache's (a pin for
 * O_DIRECT), and failed steals.  All of that is decided before stealing.  After the steal only
 * the stolen page's own checks and, for an empty slot, filemap_add_folio()
 * can still fail; a refused pipe page, uncharged by then, goes back to the
 * pipe as a copy charged to its writer's group again (stealfs_give_back()).  Each refusal is
 * counted by reason.  fs/fuse/dev.c:fuse_try_move_page() is the model.
 *
 * Under a memory cgroup limit a splice ends: the charges made here carry
 * __GFP_NORETRY, so a limit they cannot meet after one round of reclaim
 * fails them with -ENOMEM instead of invoking the OOM killer, and the
 * splice returns what it moved, or -ENOMEM.  A task killed meanwhile (by
 * an OOM kill elsewhere) stops at the next buffer.
 */
#include "stealfs.h"

#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/rcupdate.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/splice.h>
#include <linux/swap.h>
#include <linux/uio.h>

/* A stolen anonymous pipe page may carry nothing but its lock. */
#define STEALFS_ANON_FLAGS_OK (1UL << PG_locked | 1UL << PG_waiters)

/*
 * Idle page tracking's bits (page_idle, DAMON) say whether a page was used
 * since someone last looked: hints, not state.  On 7.2 a 32-page ext4
 * folio now and then came out of the steal with PG_idle set.
 */
#if defined(CONFIG_PAGE_IDLE_FLAG) && defined(CONFIG_64BIT)
#define STEALFS_IDLE_FLAGS (1UL << PG_young | 1UL << PG_idle)
#else
#define STEALFS_IDLE_FLAGS 0UL
#endif

/* A stolen page-cache page may also carry its LRU and uptodate state. */
#define STEALFS_CACHE_FLAGS_OK (STEALFS_ANON_FLAGS_OK | \
	1UL << PG_referenced | 1UL << PG_uptodate | 1UL << PG_lru | \
	1UL << PG_active | 1UL << PG_workingset | 1UL << PG_reclaim | \
	STEALFS_IDLE_FLAGS | LRU_GEN_MASK | LRU_REFS_MASK)

/* The pseudo counter meaning "no reason to refuse". */
#define STEALFS_OK STEALFS_NR_COUNTERS

/*
 * One splice call: the kernel's descriptor, the bytes copied so far, and the
 * large folio whose first page was last decided: @large_why says what
 * became of it (STEALFS_STOLEN_PAGECACHE when it was taken whole), and its
 * next page is due at @large_next, up to @large_end.
 */
struct stealfs_move {
	struct splice_desc sd;
	size_t copied;
	struct folio *large;
	loff_t large_next, large_end;
	enum stealfs_counter large_why;
};

/*
 * Returns the allocation flags of the pages this file charges on the
 * splice path: its own, and no OOM killer (see the top of the file).
 */
static gfp_t stealfs_splice_gfp(struct address_space *mapping)
{
	return mapping_gfp_mask(mapping) | __GFP_NORETRY | __GFP_NOWARN;
}

/*
 * Returns whether @folio is charged to the memory cgroup @mm's charges go
 * to; with @mm NULL, whether it is charged to none.  Always true when
 * memory cgroups are off (no charges at all).
 */
static bool stealfs_charged_to(struct folio *folio, struct mm_struct *mm)
{
	struct mem_cgroup *memcg = mm ? get_mem_cgroup_from_mm(mm) : NULL;
	bool same;

	rcu_read_lock();
	same = folio_memcg(folio) == memcg;
	rcu_read_unlock();
	mem_cgroup_put(memcg);
	return same;
}

/*
 * Returns why @folio, a pipe buffer's, may not be stolen, or STEALFS_OK;
 * sets *@from_cache when it is a page-cache folio.  Decided before touching
 * it: the pipe's reference keeps the folio's kind stable, and RCU its
 * mapping (inodes are freed after a grace period).
 */
static enum stealfs_counter stealfs_check_source(struct folio *folio,
						 bool *from_cache)
{
	struct address_space *mapping;
	bool ours;

	if (folio_test_anon(folio) || folio_test_swapbacked(folio))
		return STEALFS_REFUSED_ANON;
	if (folio_mapped(folio))
		return STEALFS_REFUSED_MAPPED;
	rcu_read_lock();
	mapping = READ_ONCE(folio->mapping);
	ours = mapping && stealfs_owns(mapping);
	rcu_read_unlock();
	*from_cache = mapping != NULL;
	if (!mapping)
		return STEALFS_OK;
	/* our own pages could be our destination, locked: never steal them */
	if (ours || folio_test_dirty(folio) || folio_test_writeback(folio))
		return STEALFS_REFUSED_BUSY;
	if (!stealfs_charged_to(folio, current->mm))
		return STEALFS_REFUSED_MEMCG;
	return STEALFS_OK;
}

/*
 * Returns why the small page of @buf, about to be written at @pos, may not
 * be stolen, or STEALFS_OK; sets *@from_cache when it is a page-cache page.
 */
static enum stealfs_counter stealfs_precheck(const struct pipe_buffer *buf,
					     size_t len, loff_t pos,
					     bool *from_cache)
{
	if (buf->offset || buf->len != PAGE_SIZE || len != PAGE_SIZE ||
	    offset_in_page(pos))
		return STEALFS_REFUSED_PARTIAL;
	if (buf->flags & PIPE_BUF_FLAG_GIFT)
		return STEALFS_REFUSED_GIFT;
	if (folio_test_large(page_folio(buf->page)))
		return STEALFS_REFUSED_LARGE;
	return stealfs_check_source(page_folio(buf->page), from_cache);
}

/*
 * Returns why the locked page-cache folio @dst of ours at @index, holding
 * our reference, may not be replaced by a folio of @nr pages, or
 * STEALFS_OK.  It must start at @index and be of that size.  Its references
 * must be the page cache's (one per page), ours, and one of a per-CPU LRU
 * batch while it is off the LRU (a page just added waits there): any other,
 * a pin for O_DIRECT or a pipe's, would keep the old page alive and out of
 * the file.  With the folio locked and unmapped, nothing can map or pin it
 * meanwhile.
 */
static enum stealfs_counter stealfs_check_dst(struct folio *dst, pgoff_t index,
					      long nr)
{
	if (folio_nr_pages(dst) != nr || dst->index != index)
		return STEALFS_REFUSED_LARGE;
	if (folio_mapped(dst) || folio_test_mlocked(dst))
		return STEALFS_REFUSED_MAPPED;
	if (folio_test_writeback(dst) || folio_test_private(dst))
		return STEALFS_REFUSED_BUSY;
	if (folio_ref_count(dst) > nr + 1 + !folio_test_lru(dst))
		return STEALFS_REFUSED_PINNED;
	return STEALFS_OK;
}

/*
 * Returns why the stolen, locked @src of @buf, expected to be of @nr pages,
 * may not go into our page cache after all, or STEALFS_OK.
 * PIPE_BUF_FLAG_LRU alone proves nothing: a page-cache page must really be
 * on the LRU and still charged to the writer, a pipe page must carry no
 * charge.  A large folio's first page carries PG_head besides.
 */
static enum stealfs_counter stealfs_postcheck(struct folio *src,
					      const struct pipe_buffer *buf,
					      bool from_cache, long nr)
{
	unsigned long ok = from_cache ? STEALFS_CACHE_FLAGS_OK
				      : STEALFS_ANON_FLAGS_OK;

	if (nr > 1)
		ok |= 1UL << PG_head;
	if (folio_nr_pages(src) != nr)
		return STEALFS_REFUSED_LARGE;
	if (src->mapping || folio_mapped(src))
		return STEALFS_REFUSED_MAPPED;
	if ((stealfs_folio_flags(src) & PAGE_FLAGS_CHECK_AT_PREP & ~ok) ||
	    folio_test_hwpoison(src) ||
	    (nr > 1 && folio_test_has_hwpoisoned(src)) ||
	    from_cache != !!(buf->flags & PIPE_BUF_FLAG_LRU) ||
	    (from_cache && !folio_test_lru(src)))
		return STEALFS_REFUSED_FLAGS;
	if (!stealfs_charged_to(src, from_cache ? current->mm : NULL))
		return STEALFS_REFUSED_MEMCG;
	return STEALFS_OK;
}

/*
 * Puts the stolen, locked, checked @src at @index of @mapping: over @dst
 * (locked, checked) when there is one, else, for an anonymous page, with
 * filemap_add_folio() (a page-cache page always has @dst, a placeholder if
 * need be).  Returns STEALFS_OK, or why @src could not go in; @src stays
 * locked either way.
 */
static enum stealfs_counter stealfs_insert(struct address_space *mapping,
					   pgoff_t index, struct folio *src,
					   struct folio *dst, bool from_cache)
{
	int err;

	if (dst) {
		stealfs_replace_folio(dst, src);
		if (!from_cache)
			folio_add_lru(src);
		return STEALFS_OK;
	}
	err = stealfs_add_folio_locked(mapping, src, index,
				       stealfs_splice_gfp(mapping));
	if (!err)
		return STEALFS_OK;
	/* -EEXIST: a reader made the page meanwhile */
	return err == -ENOMEM ? STEALFS_REFUSED_CHARGE : STEALFS_REFUSED_BUSY;
}

/*
 * Returns the stolen @src, refused after all, to its pipe buffer @buf,
 * unlocked, to be copied.  A page-cache page kept its charge.  A pipe page
 * lost the kmem charge of @payer, its writer's group, in the steal, and
 * pipe_write() would reuse it for new data: the buffer gets a copy charged
 * to @payer again (forced, as __GFP_HIGH charges are, should the room the
 * steal freed be gone), and the uncharged page is freed.  When even that
 * page cannot be had, the buffer keeps the page but will free it, not reuse
 * it, when released.  A pipe page charged to nobody (@payer NULL) had no
 * charge to lose.
 */
static void stealfs_give_back(struct pipe_buffer *buf, struct folio *src,
			      struct mem_cgroup *payer)
{
	struct mem_cgroup *old;
	struct page *copy;

	folio_unlock(src);
	if (!payer)
		return;
	old = set_active_memcg(payer);
	copy = alloc_page(GFP_HIGHUSER | __GFP_ACCOUNT | __GFP_HIGH |
			  __GFP_NORETRY | __GFP_NOWARN);
	set_active_memcg(old);
	if (!copy) {
		buf->ops = &nosteal_pipe_buf_ops;
		return;
	}
	copy_highpage(copy, buf->page);
	put_page(buf->page);
	buf->page = copy;
}

/*
 * Trims @len so that a write at @pos stays within RLIMIT_FSIZE (raising
 * SIGXFSZ like write(2)) and the filesystem's maximum file size.  Returns 0
 * or -EFBIG when not a byte may be written.
 */
static int stealfs_write_limits(struct inode *inode, loff_t pos, loff_t *len)
{
	loff_t limit = rlimit(RLIMIT_FSIZE);

	if (limit == RLIM_INFINITY || limit > inode->i_sb->s_maxbytes)
		limit = inode->i_sb->s_maxbytes;
	else if (pos >= limit)
		send_sig(SIGXFSZ, current, 0);
	if (pos >= limit)
		return -EFBIG;
	*len = min(*len, limit - pos);
	return 0;
}

/* Returns the buffer @i places behind the one at @pipe's tail. */
static struct pipe_buffer *stealfs_pipe_buf(struct pipe_inode_info *pipe,
					    unsigned int i)
{
	return &pipe->bufs[(pipe->tail + i) & (pipe->ring_size - 1)];
}

/*
 * Returns STEALFS_OK when the @nr pages of the large @folio, whose first
 * page @buf (at the pipe's tail) holds, are all in @pipe in order, each a
 * whole page in a buffer of its own and of @buf's kind, within the bytes
 * this splice still moves (@sd), and its position in the file is aligned
 * to its size, as the page cache wants; else why the folio is copied.
 */
static enum stealfs_counter stealfs_whole_in_pipe(struct pipe_inode_info *pipe,
						  const struct pipe_buffer *buf,
						  const struct splice_desc *sd,
						  struct folio *folio, long nr)
{
	const struct pipe_buffer *b;
	long i;

	if (buf->flags & PIPE_BUF_FLAG_GIFT)
		return STEALFS_REFUSED_GIFT;
	if (folio_order(folio) > STEALFS_MAX_ORDER || offset_in_page(sd->pos) ||
	    ((sd->pos >> PAGE_SHIFT) & (nr - 1)) ||
	    sd->total_len < folio_size(folio) ||
	    stealfs_pipe_buf(pipe, 0) != buf ||
	    pipe_occupancy(pipe->head, pipe->tail) < nr)
		return STEALFS_REFUSED_LARGE;
	for (i = 0; i < nr; i++) {
		b = stealfs_pipe_buf(pipe, i);
		if (b->page != folio_page(folio, i) || b->offset ||
		    b->len != PAGE_SIZE || b->ops != buf->ops ||
		    (b->flags & PIPE_BUF_FLAG_GIFT))
			return STEALFS_REFUSED_LARGE;
	}
	return STEALFS_OK;
}

/*
 * Returns STEALFS_OK when the whole folio of @size bytes may be written at
 * @pos of @inode (RLIMIT_FSIZE, s_maxbytes) and has been accounted under
 * size=, else STEALFS_REFUSED_LARGE: the copy then writes page by page up
 * to the limit, and fails where the limit is.
 */
static enum stealfs_counter stealfs_large_fits(struct inode *inode, loff_t pos,
					       loff_t size)
{
	loff_t len = size;

	if (stealfs_write_limits(inode, pos, &len) || len != size ||
	    stealfs_account(inode, pos + size))
		return STEALFS_REFUSED_LARGE;
	return STEALFS_OK;
}

/* The next page of the large folio last decided is due. */
static void stealfs_large_advance(struct stealfs_move *move)
{
	move->large_next += PAGE_SIZE;
	if (move->large_next >= move->large_end)
		move->large = NULL;
}

/*
 * Tries to move the large page-cache folio of @buf, whose first page it
 * holds, whole to the position of @move in @inode; for a later page, says
 * what became of its folio.  Counts the outcome.  Caller holds the pipe and
 * inode locks.  Returns PAGE_SIZE when the folio moved (its later pages are
 * then in the file already: stealfs_move_actor() consumes their buffers),
 * or 0 when this page must be copied.
 *
 * The folio is held by its @nr buffers, one reference each, and by the
 * page cache, one per page.  The kernel's steal
 * (page_cache_pipe_buf_try_steal(), remove_mapping()) freezes the count
 * at the page cache's plus one, as for a folio in one buffer: any other
 * reference means a user it cannot see, and the steal fails.  So for the
 * moment of the steal the references of the @nr - 1 later buffers are lent
 * to it: the first buffer's own keeps the folio alive, and to anyone else
 * (reclaim, migration, a split, a GUP pin, a mapping) the folio looks as
 * used as a folio in one pipe buffer, which the kernel handles.  Afterwards,
 * stolen or not, each buffer holds its reference again.  The folio then
 * replaces a locked placeholder of its size in our page cache (the page
 * cache's references moved over by stealfs_replace_folio()), keeping its
 * charge, which must be the writer's group's, and its place on the LRU.
 */
static int stealfs_steal_large(struct pipe_inode_info *pipe,
			       struct pipe_buffer *buf, struct stealfs_move *move,
			       struct inode *inode)
{
	struct address_space *mapping = inode->i_mapping;
	struct folio *src = page_folio(buf->page), *dst = NULL;
	loff_t pos = move->sd.pos, size = folio_size(src);
	pgoff_t index = pos >> PAGE_SHIFT;
	long i, nr = folio_nr_pages(src);
	enum stealfs_counter why;
	bool from_cache = false;

	if (buf->page != folio_page(src, 0)) {
		/* its first page was not in this splice: refused_large */
		why = STEALFS_REFUSED_LARGE;
		if (move->large == src && pos == move->large_next) {
			why = move->large_why;
			stealfs_large_advance(move);
		}
		stealfs_count(why, 1);
		return 0;
	}
	move->large = src;
	move->large_next = pos + PAGE_SIZE;
	move->large_end = pos + size;

	why = stealfs_whole_in_pipe(pipe, buf, &move->sd, src, nr);
	if (why == STEALFS_OK)
		why = stealfs_check_source(src, &from_cache);
	if (why == STEALFS_OK && !from_cache)
		why = STEALFS_REFUSED_BUSY;	/* truncated from its file */
	if (why == STEALFS_OK)
		why = stealfs_large_fits(inode, pos, size);
	if (why == STEALFS_OK) {
		dst = stealfs_lock_cached(mapping, index);
		if (!dst)
			dst = stealfs_grab_large(mapping, index,
						 folio_order(src),
						 stealfs_splice_gfp(mapping));
		why = dst ? stealfs_check_dst(dst, index, nr)
			  : STEALFS_REFUSED_CHARGE;
	}
	if (why == STEALFS_OK) {
		bool stolen;

		folio_ref_sub(src, nr - 1);	/* lent to the steal */
		stolen = pipe_buf_try_steal(pipe, buf);
		folio_ref_add(src, nr - 1);
		if (!stolen)
			why = STEALFS_REFUSED_BUSY;
	}
	if (why != STEALFS_OK)
		goto out;

	folio_clear_mappedtodisk(src);	/* the old file's block state */
	why = stealfs_postcheck(src, buf, true, nr);
	if (why != STEALFS_OK) {
		folio_unlock(src);	/* kept its charge: copied as it is */
		goto out;
	}
	stealfs_replace_folio(dst, src);
	folio_mark_uptodate(src);
	folio_mark_dirty(src);
	if (pos + size > i_size_read(inode))
		i_size_write(inode, pos + size);
	folio_unlock(src);
	/* freed, never recycled, when the splice loop releases them */
	for (i = 0; i < nr; i++)
		stealfs_pipe_buf(pipe, i)->ops = &nosteal_pipe_buf_ops;
	why = STEALFS_STOLEN_PAGECACHE;
out:
	if (dst) {
		folio_unlock(dst);
		folio_put(dst);
	}
	move->large_why = why;
	if (why != STEALFS_STOLEN_PAGECACHE) {
		stealfs_count(why, 1);
		return 0;
	}
	stealfs_count(why, nr);
	return PAGE_SIZE;
}

/*
 * Tries to move the page of @buf to the position of @move in @inode, and
 * counts the outcome; a large folio goes whole or not at all
 * (stealfs_steal_large()).  Caller holds the pipe and inode locks.  Returns
 * PAGE_SIZE when the page moved, or 0 when it must be copied.
 */
static int stealfs_steal(struct pipe_inode_info *pipe, struct pipe_buffer *buf,
			 struct stealfs_move *move, size_t len,
			 struct inode *inode)
{
	struct address_space *mapping = inode->i_mapping;
	loff_t pos = move->sd.pos;
	pgoff_t index = pos >> PAGE_SHIFT;
	bool from_cache = false;
	enum stealfs_counter why = stealfs_precheck(buf, len, pos, &from_cache);
	struct mem_cgroup *payer = NULL;
	struct folio *dst = NULL, *src;
	int moved = 0;

	if (why != STEALFS_OK)
		goto out;
	if (!from_cache)	/* the charge the steal drops, should we refuse */
		payer = stealfs_folio_memcg_get(page_folio(buf->page));
	dst = stealfs_lock_cached(mapping, index);
	if (!dst && from_cache) {
		dst = stealfs_grab_folio(mapping, index,
					 stealfs_splice_gfp(mapping));
		if (!dst)
			why = STEALFS_REFUSED_CHARGE;
	}
	if (dst)
		why = stealfs_check_dst(dst, index, 1);
	if (why == STEALFS_OK && !pipe_buf_try_steal(pipe, buf))
		why = STEALFS_REFUSED_BUSY;
	if (why != STEALFS_OK)
		goto out;

	src = page_folio(buf->page);
	if (from_cache)
		folio_clear_mappedtodisk(src);	/* the old file's block state */
	why = stealfs_postcheck(src, buf, from_cache, 1);
	if (why == STEALFS_OK)
		why = stealfs_insert(mapping, index, src, dst, from_cache);
	if (why != STEALFS_OK) {
		stealfs_give_back(buf, src, payer);
		goto out;
	}
	folio_mark_uptodate(src);
	folio_mark_dirty(src);
	if (pos + PAGE_SIZE > i_size_read(inode))
		i_size_write(inode, pos + PAGE_SIZE);
	folio_unlock(src);
	/*
	 * The page cache holds its own references now.  The pipe's goes when
	 * the splice loop releases the buffer, after we dropped the inode
	 * lock: the page may be truncated from the file by then, and must be
	 * freed, not recycled into the pipe.
	 */
	buf->ops = &nosteal_pipe_buf_ops;
	why = from_cache ? STEALFS_STOLEN_PAGECACHE : STEALFS_STOLEN_ANON;
	moved = PAGE_SIZE;
out:
	if (dst) {
		folio_unlock(dst);
		folio_put(dst);
	}
	mem_cgroup_put(payer);
	stealfs_count(why, 1);
	return moved;
}

/*
 * Copies @len bytes of @buf to byte @pos of @file through the ordinary
 * write path.  The destination pages (one or two) are looked up or created
 * first with the splice path's allocation flags, so that a memory cgroup at
 * its limit fails the copy with -ENOMEM instead of having write_begin
 * invoke the OOM killer; our references keep them in the page cache until
 * the write finds them.  Caller holds the inode lock.  Returns the bytes
 * copied or -errno.
 */
static int stealfs_copy(struct file *file, struct pipe_buffer *buf,
			size_t len, loff_t pos)
{
	struct address_space *mapping = file->f_mapping;
	pgoff_t first = pos >> PAGE_SHIFT;
	pgoff_t last = (pos + len - 1) >> PAGE_SHIFT;
	struct folio *held[2] = { NULL, NULL };
	struct bio_vec bvec;
	struct iov_iter from;
	struct kiocb kiocb;
	ssize_t ret = -ENOMEM;
	pgoff_t i;

	for (i = first; i <= last && i - first < ARRAY_SIZE(held); i++) {
		held[i - first] = stealfs_grab_folio(mapping, i,
						     stealfs_splice_gfp(mapping));
		if (!held[i - first])
			goto out;
		folio_unlock(held[i - first]);
	}
	bvec_set_page(&bvec, buf->page, len, buf->offset);
	iov_iter_bvec(&from, ITER_SOURCE, &bvec, 1, len);
	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = pos;
	ret = generic_perform_write(&kiocb, &from);
out:
	for (i = 0; i < ARRAY_SIZE(held); i++)
		if (held[i])
			folio_put(held[i]);
	return ret;
}

/* Counts @bytes copied by one splice call as pages, rounded up. */
static void stealfs_count_copied(size_t bytes)
{
	if (bytes)
		stealfs_count(STEALFS_COPIED, DIV_ROUND_UP(bytes, PAGE_SIZE));
}

/*
 * Returns whether @buf holds the next page of the large folio taken whole
 * at its first page by this splice: that page is in the file already.
 */
static bool stealfs_moved_with_folio(const struct stealfs_move *move,
				     const struct pipe_buffer *buf)
{
	return move->large && move->large_why == STEALFS_STOLEN_PAGECACHE &&
	       page_folio(buf->page) == move->large &&
	       move->sd.pos == move->large_next &&
	       buf->ops == &nosteal_pipe_buf_ops && !buf->offset &&
	       buf->len == PAGE_SIZE && move->sd.len == PAGE_SIZE;
}

/*
 * The splice actor: moves or copies one pipe buffer.  Returns the bytes
 * consumed, 0 to stop, or -errno (-EINTR once the task is being killed).
 * The later pages of a folio taken whole are consumed whatever happens:
 * they are in the file, and their buffers must not outlive this call (see
 * stealfs_steal_large(): they are all in the pipe, within the bytes this
 * splice moves, and the kernel's loop feeds them to us one after another
 * under the pipe lock).
 */
static int stealfs_move_actor(struct pipe_inode_info *pipe,
			      struct pipe_buffer *buf, struct splice_desc *sd)
{
	struct stealfs_move *move = container_of(sd, struct stealfs_move, sd);
	struct file *file = sd->u.file;
	struct inode *inode = file_inode(file);
	loff_t len = sd->len;
	int ret;

	if (stealfs_moved_with_folio(move, buf)) {
		stealfs_large_advance(move);
		return PAGE_SIZE;
	}
	if (fatal_signal_pending(current))
		return -EINTR;
	inode_lock(inode);
	ret = stealfs_write_limits(inode, sd->pos, &len);
	if (!ret)
		ret = stealfs_account(inode, sd->pos + len);
	if (!ret && STEALFS_LARGE_FOLIOS && len == PAGE_SIZE &&
	    folio_test_large(page_folio(buf->page)))
		ret = stealfs_steal_large(pipe, buf, move, inode);
	else if (!ret)
		ret = stealfs_steal(pipe, buf, move, len, inode);
	if (!ret) {
		ret = stealfs_copy(file, buf, len, sd->pos);
		if (ret > 0)
			move->copied += ret;
	}
	inode_unlock(inode);
	return ret;
}

/*
 * splice_write for stealfs files.  Without SPLICE_F_MOVE, or on a steal=off
 * mount, this is the kernel's copying iter_file_splice_write().  Returns the
 * bytes written or -errno.
 */
ssize_t stealfs_splice_write(struct pipe_inode_info *pipe, struct file *out,
			     loff_t *ppos, size_t len, unsigned int flags)
{
	struct inode *inode = file_inode(out);
	struct stealfs_move move = {
		.sd = {
			.total_len = len,
			.flags = flags,
			.pos = *ppos,
			.u.file = out,
		},
	};
	ssize_t ret;

	if (!(flags & SPLICE_F_MOVE) || !READ_ONCE(STEALFS_SB(inode->i_sb)->steal)) {
		ret = iter_file_splice_write(pipe, out, ppos, len, flags);
		if (ret > 0)
			stealfs_count_copied(ret);
		return ret;
	}

	inode_lock(inode);
	ret = file_remove_privs(out);
	if (!ret)
		ret = file_update_time(out);
	inode_unlock(inode);
	if (ret)
		return ret;

	pipe_lock(pipe);
	ret = __splice_from_pipe(pipe, &move.sd, stealfs_move_actor);
	pipe_unlock(pipe);
	stealfs_count_copied(move.copied);
	if (ret > 0)
		*ppos = move.sd.pos;
	return ret;
}
