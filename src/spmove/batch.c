/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove -r: one durability barrier for many replaced files.
 *
 * Where a file system does not order a renamed file's data before the
 * rename (durable.c: XFS, btrfs), a temporary must be on disk before it
 * replaces a name, or a power cut can leave the name over an empty file.
 * One fdatasync(2) per file costs a log force and a cache flush each:
 * most of the time of replacing a tree of small files.  Inside a tree,
 * the complete temporaries of replaced files are instead queued here,
 * their writeback started as each is closed (sync_file_range(2)); when
 * the queue is full, and before the walker finishes a directory, one
 * syncfs(2) per file system makes them all durable at once, and then
 * each is renamed over its name, in the order queued.  The rule stays
 * the same -- no name is replaced by a file whose data a power cut could
 * lose -- and is proven the same way (doc/durability.md: replayed at
 * every flush point on XFS and btrfs, killed at every system call).
 *
 * A temporary that needs no flush (on XFS, a clone of its source) is
 * queued too, without the barrier: renamed in the same order, by the
 * walker rather than by the worker that made it.  Renames over XFS
 * names are slow (about 50 us) and hold the directory: two threads
 * renaming in one directory wait on each other (13 times the context
 * switches), and the one walker renaming a queue goes faster.  A queue
 * of such temporaries alone makes no barrier.
 *
 * syncfs(2) writes what every program has left dirty on that file system,
 * not only the tree's files: when the machine holds much more dirty data
 * than the queue's, each file is made durable by its own fdatasync(2)
 * instead, as before. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "message.h"
#include "quote.h"
#include "spmove.h"

/* A full queue: so many files, or so many bytes of their data. */
#define BATCH_FILES 1024
#define BATCH_BYTES (128u << 20)
/* Dirty data beyond the queue's that still lets one syncfs(2) pay. */
#define OTHERS_DIRTY_KIB (64u << 10)

/* A complete temporary, to be renamed over its name. */
struct pending {
	struct pending *next;
	int dirfd;          /* borrowed: open until the walker's next commit */
	dev_t dev;          /* its file system */
	bool barrier;       /* its data wait for the barrier */
	bool skip;          /* its barrier failed: removed, not renamed */
	bool borrowed;      /* on its caller's stack, not allocated */
	char temp[32];      /* the temporary's name in dirfd */
	const char *base;   /* the name it replaces */
	const char *path;   /* that name in messages */
	char names[];       /* path then base, when allocated */
};

struct batch {
	pthread_mutex_t lock;
	struct pending *head, **tail;
	unsigned files;
	uint64_t bytes;
	int status;          /* 1 once a commit made by a worker failed */
	uint64_t barriers;   /* for --stats: syncfs(2) calls made */
	uint64_t committed;  /* files renamed after one */
};

struct batch *batch_new(void)
{
	struct batch *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	pthread_mutex_init(&b->lock, NULL);
	b->tail = &b->head;
	return b;
}

void batch_free(struct batch *b)
{
	if (!b)
		return;
	pthread_mutex_destroy(&b->lock);
	free(b);
}

void batch_counts(const struct batch *b, uint64_t *barriers, uint64_t *files)
{
	*barriers = b ? b->barriers : 0;
	*files = b ? b->committed : 0;
}

/* The machine's dirty data and data under writeback, in KiB, as
 * /proc/meminfo says (UINT64_MAX when it cannot be read). */
static uint64_t dirty_kib(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	if (!f)
		return UINT64_MAX;
	char line[128];
	uint64_t sum = 0;
	int found = 0;
	unsigned long long kib;
	while (found < 2 && fgets(line, sizeof(line), f))
		if (sscanf(line, "Dirty: %llu", &kib) == 1 ||
		    sscanf(line, "Writeback: %llu", &kib) == 1) {
			sum += kib;
			found++;
		}
	fclose(f);
	return found == 2 ? sum : UINT64_MAX;
}

/* Make the temporaries of list on dev durable, one by one.  Returns 0 or
 * the negative errno of the first that failed (*failed: that entry). */
static int sync_each(struct pending *list, dev_t dev, struct pending **failed)
{
	for (struct pending *p = list; p; p = p->next) {
		if (p->dev != dev || !p->barrier)
			continue;
		int fd = openat(p->dirfd, p->temp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		int err = fd < 0 || fdatasync(fd) < 0 ? -errno : 0;
		if (fd >= 0)
			close(fd);
		if (err) {
			*failed = p;
			return err;
		}
	}
	return 0;
}

/* Commit list (detached from the queue; bytes of data): make it durable,
 * then rename each entry over its name; cancelled, remove the
 * temporaries.  Frees list.  Returns 0, or 1 after a report. */
static int commit_list(struct batch *b, struct pending *list, uint64_t bytes)
{
	int status = 0;
	bool one_sync = dirty_kib() <= bytes / 1024 + OTHERS_DIRTY_KIB;
	/* One barrier per file system, at its first entry that needs one. */
	for (struct pending *p = list; p && !spmove_cancel; p = p->next) {
		bool first = p->barrier;
		for (struct pending *q = list; q != p && first; q = q->next)
			first = !q->barrier || q->dev != p->dev;
		if (!first)
			continue;
		struct pending *failed = NULL;
		int err = one_sync ? (syncfs(p->dirfd) < 0 ? -errno : 0)
			  : sync_each(p, p->dev, &failed);
		if (one_sync)
			__atomic_add_fetch(&b->barriers, 1, __ATOMIC_RELAXED);
		if (!err)
			continue;
		/* Nothing on that file system is renamed: the old files
		 * stay.  The file that failed is named; with syncfs(2), whose
		 * error is the file system's, every one of them is. */
		for (struct pending *q = p; q; q = q->next) {
			if (q->dev != p->dev || !q->barrier)
				continue;
			if (!failed || q == failed)
				cli_error(-err, "cannot sync %s", quoted(q->path));
			q->skip = true;
		}
		status = 1;
	}
	for (struct pending *p = list, *next; p; p = next) {
		next = p->next;
		if (spmove_cancel || p->skip) {
			unlinkat(p->dirfd, p->temp, 0);
			status |= spmove_cancel != 0;
		} else if (renameat(p->dirfd, p->temp, p->dirfd, p->base) < 0) {
			cli_error(errno, "cannot create regular file %s", quoted(p->path));
			unlinkat(p->dirfd, p->temp, 0);
			status = 1;
		} else {
			__atomic_add_fetch(&b->committed, 1, __ATOMIC_RELAXED);
		}
		if (!p->borrowed)
			free(p);
	}
	return status;
}

/* Take the queue's entries out of b (with its lock held). */
static struct pending *detach(struct batch *b, uint64_t *bytes)
{
	struct pending *list = b->head;
	*bytes = b->bytes;
	b->head = NULL;
	b->tail = &b->head;
	b->files = 0;
	b->bytes = 0;
	return list;
}

int batch_add(struct batch *b, int dirfd, dev_t dev, const char *temp, const char *base,
	      const char *path, uint64_t size, bool barrier)
{
	size_t plen = strlen(path) + 1, blen = strlen(base) + 1;
	struct pending *p = malloc(sizeof(*p) + plen + blen);
	if (!p) {
		/* No room to queue it: what is queued is committed, then this
		 * file alone, the same way. */
		struct pending self = { .dirfd = dirfd, .dev = dev, .barrier = barrier,
					.borrowed = true, .base = base, .path = path };
		snprintf(self.temp, sizeof(self.temp), "%s", temp);
		int status = batch_commit(b);
		return status | commit_list(b, &self, size);
	}
	*p = (struct pending){ .dirfd = dirfd, .dev = dev, .barrier = barrier };
	snprintf(p->temp, sizeof(p->temp), "%s", temp);
	memcpy(p->names, path, plen);
	memcpy(p->names + plen, base, blen);
	p->path = p->names;
	p->base = p->names + plen;
	pthread_mutex_lock(&b->lock);
	*b->tail = p;
	b->tail = &p->next;
	b->files++;
	b->bytes += barrier ? size : 0;
	struct pending *full = NULL;
	uint64_t bytes = 0;
	if (b->files >= BATCH_FILES || b->bytes >= BATCH_BYTES)
		full = detach(b, &bytes);
	pthread_mutex_unlock(&b->lock);
	if (!full)
		return 0;
	/* Reported; returned by the walker's next batch_commit(). */
	int status = commit_list(b, full, bytes);
	if (status) {
		pthread_mutex_lock(&b->lock);
		b->status = 1;
		pthread_mutex_unlock(&b->lock);
	}
	return 0;
}

int batch_commit(struct batch *b)
{
	if (!b)
		return 0;
	uint64_t bytes;
	pthread_mutex_lock(&b->lock);
	struct pending *list = detach(b, &bytes);
	int status = b->status;
	b->status = 0;
	pthread_mutex_unlock(&b->lock);
	return status | (list ? commit_list(b, list, bytes) : 0);
}
