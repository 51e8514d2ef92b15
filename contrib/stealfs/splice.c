// SPDX-License-Identifier: GPL-2.0
/*
 * splice.c - stealfs' splice_write: with SPLICE_F_MOVE, whole pipe pages go
 * into the file's page cache instead of being copied.
 *
 * pipe_buf_try_steal() succeeds for two kinds of page (DESIGN.md §3):
 *
 *  - anonymous pipe pages written with write(2), when the pipe holds the
 *    only reference.  They come back locked, uncharged, off the LRU and not
 *    uptodate.  filemap_add_folio() is the insert route made for exactly
 *    such pages: it charges the folio and puts it on the LRU.  When the slot
 *    already holds a folio (overwrite), the folio is swapped in with the
 *    replace route instead and added to the LRU by hand, as fuse does.
 *  - page-cache pages spliced from a clean file nobody else uses.  They come
 *    back locked, removed from their old mapping, still on the LRU
 *    (PIPE_BUF_FLAG_LRU) and still charged to the old memcg, so they must
 *    not go through filemap_add_folio() (it would charge them twice and add
 *    them to the LRU twice).  They replace a locked folio of ours: the one
 *    already there, or a placeholder made for the purpose.
 *
 * Everything else is copied: partial pages and unaligned positions, large
 * folios, anonymous or swap-backed pages (vmsplice gifts, shmem), pages that
 * are mapped or carry unexpected flags, and failed steals.  Each refusal is
 * counted by reason.  fs/fuse/dev.c:fuse_try_move_page() is the model.
 */
#include "stealfs.h"

#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/pipe_fs_i.h>
#include <linux/sched/signal.h>
#include <linux/splice.h>
#include <linux/swap.h>
#include <linux/uio.h>

/* A stolen anonymous pipe page may carry nothing but its lock. */
#define STEALFS_ANON_FLAGS_OK (1UL << PG_locked | 1UL << PG_waiters)

/* A stolen page-cache page may also carry its LRU and uptodate state. */
#define STEALFS_CACHE_FLAGS_OK (STEALFS_ANON_FLAGS_OK | \
	1UL << PG_referenced | 1UL << PG_uptodate | 1UL << PG_lru | \
	1UL << PG_active | 1UL << PG_workingset | 1UL << PG_reclaim | \
	LRU_GEN_MASK | LRU_REFS_MASK)

/* The pseudo counter meaning "no reason to refuse". */
#define STEALFS_OK STEALFS_NR_COUNTERS

/*
 * Once a buffer's page is ours, the pipe's reference has been dropped
 * already; the splice loop's own release of the buffer must do nothing.
 */
static void stealfs_released_buf_release(struct pipe_inode_info *pipe,
					 struct pipe_buffer *buf)
{
}

static const struct pipe_buf_operations stealfs_released_buf_ops = {
	.release = stealfs_released_buf_release,
};

/*
 * Returns why @buf, about to be written at @pos, may not be stolen, before
 * touching it, or STEALFS_OK.  The pipe's reference keeps the folio's kind
 * stable while we look.
 */
static enum stealfs_counter stealfs_precheck(const struct pipe_buffer *buf,
					     size_t len, loff_t pos)
{
	struct folio *folio = page_folio(buf->page);

	if (buf->offset || buf->len != PAGE_SIZE || len != PAGE_SIZE ||
	    offset_in_page(pos))
		return STEALFS_REFUSED_PARTIAL;
	if (folio_test_large(folio))
		return STEALFS_REFUSED_LARGE;
	if (folio_test_anon(folio) || folio_test_swapbacked(folio))
		return STEALFS_REFUSED_ANON;
	if (folio_mapped(folio))
		return STEALFS_REFUSED_MAPPED;
	return STEALFS_OK;
}

/*
 * Returns why the stolen, locked @folio may not go into our page cache
 * after all, or STEALFS_OK.
 */
static enum stealfs_counter stealfs_postcheck(struct folio *folio,
					      bool from_cache)
{
	unsigned long ok = from_cache ? STEALFS_CACHE_FLAGS_OK
				      : STEALFS_ANON_FLAGS_OK;

	if (folio_test_large(folio))
		return STEALFS_REFUSED_LARGE;
	if (folio->mapping || folio_mapped(folio))
		return STEALFS_REFUSED_MAPPED;
	if ((folio->flags & PAGE_FLAGS_CHECK_AT_PREP & ~ok) ||
	    folio_test_hwpoison(folio))
		return STEALFS_REFUSED_FLAGS;
	return STEALFS_OK;
}

/*
 * Puts @src (stolen, locked, checked) at @index of @mapping; see the top of
 * the file for the two routes.  Caller holds the inode lock.  Returns
 * STEALFS_OK, or why the page could not go in; @src is locked either way.
 */
static enum stealfs_counter stealfs_insert(struct address_space *mapping,
					   pgoff_t index, struct folio *src,
					   bool from_cache)
{
	gfp_t gfp = mapping_gfp_mask(mapping);
	struct folio *dst = stealfs_lock_cached(mapping, index);
	enum stealfs_counter why = STEALFS_OK;

	if (!dst && !from_cache) {
		if (!filemap_add_folio(mapping, src, index, gfp))
			return STEALFS_OK;
		/* it unlocked @src on failure; nobody else can see @src */
		folio_lock(src);
		return STEALFS_REFUSED_BUSY;
	}
	if (!dst)
		dst = stealfs_grab_folio(mapping, index, gfp);
	if (!dst)
		return STEALFS_REFUSED_BUSY;
	/* @dst is locked: nobody can map it or start writeback meanwhile */
	if (folio_test_large(dst))
		why = STEALFS_REFUSED_LARGE;
	else if (folio_mapped(dst) || folio_test_writeback(dst) ||
		 folio_test_private(dst))
		why = STEALFS_REFUSED_MAPPED;
	if (why == STEALFS_OK) {
		stealfs_replace_folio(dst, src);
		if (!from_cache)
			folio_add_lru(src);
	}
	folio_unlock(dst);
	folio_put(dst);
	return why;
}

/*
 * Tries to move the page of @buf to byte @pos of @inode.  Caller holds the
 * pipe and inode locks.  Returns PAGE_SIZE when the page moved (and the
 * buffer is released), or 0 when it must be copied.
 */
static int stealfs_steal(struct pipe_inode_info *pipe, struct pipe_buffer *buf,
			 size_t len, loff_t pos, struct inode *inode)
{
	enum stealfs_counter why = stealfs_precheck(buf, len, pos);
	struct folio *src;
	bool from_cache;

	if (why != STEALFS_OK)
		goto refuse;
	if (!pipe_buf_try_steal(pipe, buf)) {
		why = STEALFS_REFUSED_BUSY;
		goto refuse;
	}
	src = page_folio(buf->page);
	from_cache = buf->flags & PIPE_BUF_FLAG_LRU;
	if (from_cache)
		folio_clear_mappedtodisk(src);	/* the old file's block state */
	why = stealfs_postcheck(src, from_cache);
	if (why == STEALFS_OK)
		why = stealfs_insert(inode->i_mapping, pos >> PAGE_SHIFT, src,
				     from_cache);
	if (why != STEALFS_OK) {
		folio_unlock(src);
		goto refuse;
	}

	/* Our reference, so releasing the buffer cannot recycle the page. */
	folio_get(src);
	pipe_buf_release(pipe, buf);
	buf->ops = &stealfs_released_buf_ops;

	folio_mark_uptodate(src);
	folio_mark_dirty(src);
	if (pos + PAGE_SIZE > i_size_read(inode))
		i_size_write(inode, pos + PAGE_SIZE);
	folio_unlock(src);
	folio_put(src);
	stealfs_count(from_cache ? STEALFS_STOLEN_PAGECACHE
				 : STEALFS_STOLEN_ANON, 1);
	return PAGE_SIZE;

refuse:
	stealfs_count(why, 1);
	return 0;
}

/*
 * Copies @len bytes of @buf to byte @pos of @file through the ordinary
 * write path.  Caller holds the inode lock.  Returns the bytes copied or
 * -errno.
 */
static int stealfs_copy(struct file *file, struct pipe_buffer *buf,
			size_t len, loff_t pos)
{
	struct bio_vec bvec;
	struct iov_iter from;
	struct kiocb kiocb;
	ssize_t ret;

	bvec_set_page(&bvec, buf->page, len, buf->offset);
	iov_iter_bvec(&from, ITER_SOURCE, &bvec, 1, len);
	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = pos;
	ret = generic_perform_write(&kiocb, &from);
	if (ret > 0)
		stealfs_count(STEALFS_COPIED, 1);
	return ret;
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

/*
 * The splice actor: moves or copies one pipe buffer.  Returns the bytes
 * consumed, 0 to stop, or -errno.
 */
static int stealfs_move_actor(struct pipe_inode_info *pipe,
			      struct pipe_buffer *buf, struct splice_desc *sd)
{
	struct file *file = sd->u.file;
	struct inode *inode = file_inode(file);
	loff_t len = sd->len;
	int ret;

	inode_lock(inode);
	ret = stealfs_write_limits(inode, sd->pos, &len);
	if (!ret)
		ret = stealfs_account(inode, sd->pos + len);
	if (!ret)
		ret = stealfs_steal(pipe, buf, len, sd->pos, inode);
	if (!ret)
		ret = stealfs_copy(file, buf, len, sd->pos);
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
	struct splice_desc sd = {
		.total_len = len,
		.flags = flags,
		.pos = *ppos,
		.u.file = out,
	};
	ssize_t ret;

	if (!(flags & SPLICE_F_MOVE) || !READ_ONCE(STEALFS_SB(inode->i_sb)->steal)) {
		ret = iter_file_splice_write(pipe, out, ppos, len, flags);
		if (ret > 0)
			stealfs_count(STEALFS_COPIED, DIV_ROUND_UP(ret, PAGE_SIZE));
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
	ret = __splice_from_pipe(pipe, &sd, stealfs_move_actor);
	pipe_unlock(pipe);
	if (ret > 0)
		*ppos = sd.pos;
	return ret;
}
