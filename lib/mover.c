/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Creating and freeing movers; their options, counters and helpers. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define SP_KNOWN_SPLICE_FLAGS (SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE)

int sp_mover_new(struct sp_mover **mover, const struct sp_options *opts)
{
	struct sp_options given = { .size = sizeof(given) };
	if (!mover)
		return -EINVAL;
	if (opts) {
		/* An option of a later release (nonzero past ours) is refused. */
		if (!lsp_sized_valid(opts, opts->size, SP_OPTIONS_SIZE_1_0, sizeof(*opts)))
			return -EINVAL;
		lsp_sized_store(&given, sizeof(given), opts, opts->size, sizeof(given.size));
	}
	opts = &given;
	if (opts->flags & ~(SP_NOCACHE | SP_RELEASE_PIPE))
		return -EINVAL;
	/* Uncached I/O takes read/write: not under another path only. */
	if ((opts->flags & SP_NOCACHE) && opts->policy == SP_POLICY_ONLY &&
	    opts->path != SP_PATH_RW)
		return -EINVAL;
	bool path_needed = opts->policy != SP_POLICY_AUTO;
	if (opts->policy > SP_POLICY_ONLY || opts->path > SP_PATH_SENDFILE ||
	    path_needed != (opts->path != SP_PATH_NONE) ||
	    (opts->splice_flags & ~(unsigned int)SP_KNOWN_SPLICE_FLAGS) ||
	    opts->pipe_size > INT32_MAX || opts->buffer_size > INT32_MAX)
		return -EINVAL;

	struct sp_mover *m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->opts = *opts;
	if (!m->opts.pipe_size)
		m->opts.pipe_size = SP_DEFAULT_PIPE_SIZE;
	/* An uncached write starts the writeback of what it wrote: in larger
	 * pieces the disk sees larger requests. */
	if (!m->opts.buffer_size)
		m->opts.buffer_size = m->opts.flags & SP_NOCACHE ? NOCACHE_BUFFER_SIZE
								 : SP_DEFAULT_BUFFER_SIZE;
	m->opts.size = sizeof(m->opts);
	m->stats.size = sizeof(m->stats);
	m->worker = (struct worker){ .opts = &m->opts, .stats = &m->stats };
	m->pipe_fds[0] = m->pipe_fds[1] = -1;
	*mover = m;
	return 0;
}

void sp_mover_free(struct sp_mover *m)
{
	if (!m)
		return;
	int saved = errno;
	lsp_private_pipe_discard(m);
	free(m->buf);
	free(m);
	errno = saved;
}

int sp_get_stats(const struct sp_mover *m, struct sp_stats *stats)
{
	if (!m || !stats || stats->size < SP_STATS_SIZE_1_0)
		return -EINVAL;
	lsp_sized_store(stats, stats->size, &m->stats, sizeof(m->stats), sizeof(stats->size));
	return 0;
}

size_t sp_pipe_size(const struct sp_mover *m)
{
	return m->pipe_size;
}

const char *sp_version(void)
{
	return PACKAGE_VERSION;
}

int lsp_mover_buffer(struct sp_mover *m)
{
	if (m->buf)
		return 0;
	void *p;
	if (posix_memalign(&p, lsp_page_size(), m->opts.buffer_size))
		return -ENOMEM;
	m->buf = p;
	return 0;
}

int lsp_report_progress(struct sp_mover *m)
{
	if (lsp_worker_cancelled(&m->worker))
		return -ECANCELED;
	if (m->opts.progress && m->opts.progress(&m->stats, m->opts.progress_arg))
		return -ECANCELED;
	return 0;
}
