/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rawtree [-r] [-T] [-n] [-u] [-s] SRC DST [THREADS]: the raw ceiling for
 * the spmove -r benchmark -- the least work that copies every file of the
 * tree SRC into a new directory DST with spmove's guarantee that no file
 * shows under its name half-written: DST made under a temporary name
 * beside it and renamed into place at the end, and per file open, fstat,
 * a file created under its name, copy_file_range to the end, two closes,
 * spread over THREADS threads (default: one per online CPU, at most 8, as
 * spmove's workers, each started on a CPU other than the walker's).  With
 * -u, the way spmove made a new tree before: DST made under its name, and
 * each file made without a name (O_TMPFILE) and linked in when complete.
 * With -n, without the guarantee: DST and each file are created under
 * their names, as cp does.
 * With -T, DST exists and its files are replaced: each copy is made under a
 * temporary name and, once all are made, renamed over its file (with -s,
 * after one syncfs(2) of DST's file system, each copy's writeback started
 * when it was closed: the durable replace on XFS and btrfs); with -T -n,
 * each file is truncated and written in place, as cp does.  The main
 * thread walks the tree -- making each subdirectory in DST, listing the
 * regular files of each directory for the copiers as it goes -- and, once
 * the walk is done (or when it runs far ahead of them), copies too: the
 * files listed last, while the copiers take the first, so that each
 * thread works in a directory of its own, as spmove's walker does.  As
 * spmove's workers, each copier has a descriptor table of its own and
 * takes the directories into it by pidfd_getfd(2), once a directory,
 * where the kernel lets it (else it shares the walker's).  No checks
 * beyond stopping at the first error: it is a yardstick, not a tool. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "thread.h"

/* A pair of directories (source, destination) whose files are copied;
 * closed when its last file is copied and the walker is done with it. */
struct dirs {
	int src, dst;
	unsigned refs;  /* its files not yet copied, and the walker's */
	unsigned files; /* its files listed */
	unsigned long serial; /* a copier's own descriptors know it by it */
	struct dirs *next;    /* on the list of those to close */
};

/* One regular file to copy: its name in d. */
struct entry {
	struct dirs *d;
	char *name;
};

/* The entries, in chunks that never move while the copiers read them. */
#define CHUNK 4096
#define CHUNKS 4096
/* How far the walker may run ahead of the copiers (it holds the
 * directories of what is listed open). */
#define AHEAD (8 * CHUNK)

static bool named, replace, barrier, unnamed;
static struct entry *chunks[CHUNKS];
/* The copiers take entries [next_entry, end_entry) from the front; once
 * the walk is done, the walker takes them from the back. */
static size_t count, next_entry, end_entry;
static bool walked;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t listed = PTHREAD_COND_INITIALIZER;

/* The process's pidfd when the copiers have tables of their own, or -1;
 * the directories given a serial; those whose last file a copier with a
 * table of its own copied, for the walker to close (under lock). */
static int pidfd = -1;
static unsigned long serials;
static struct dirs *spent;
/* A copier with a table of its own: its descriptors for the directories
 * of the serial it copies in. */
static _Thread_local bool own_table;
static _Thread_local struct {
	unsigned long serial;
	int src, dst;
} mine = { 0, -1, -1 };

static struct entry *entry_at(size_t i)
{
	return &chunks[i / CHUNK][i % CHUNK];
}

static void die(const char *what, const char *name)
{
	fprintf(stderr, "rawtree: %s %s: %m\n", what, name);
	exit(1);
}

static void put_dirs(struct dirs *d)
{
	if (__atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (replace && d->files)
		return; /* -T renames in the end: its directories stay open */
	if (own_table) {
		/* Its descriptors are in the walker's table. */
		pthread_mutex_lock(&lock);
		d->next = spent;
		spent = d;
		pthread_mutex_unlock(&lock);
		return;
	}
	close(d->src);
	close(d->dst);
	free(d);
}

/* In the walker: close the directories the copiers finished. */
static void close_spent(void)
{
	pthread_mutex_lock(&lock);
	struct dirs *d = spent;
	spent = NULL;
	pthread_mutex_unlock(&lock);
	for (struct dirs *next; d; d = next) {
		next = d->next;
		close(d->src);
		close(d->dst);
		free(d);
	}
}

/* The descriptors this thread uses for d's directories: the walker's, or
 * with a table of its own, its own, taken once for each directory. */
static void dirs_for(const struct dirs *d, int *src, int *dst)
{
	*src = d->src;
	*dst = d->dst;
	if (!own_table)
		return;
	if (mine.serial != d->serial) {
		if (mine.src >= 0)
			close(mine.src);
		if (mine.dst >= 0)
			close(mine.dst);
		mine.src = (int)syscall(SYS_pidfd_getfd, pidfd, d->src, 0);
		mine.dst = (int)syscall(SYS_pidfd_getfd, pidfd, d->dst, 0);
		if (mine.src < 0 || mine.dst < 0)
			die("pidfd_getfd", "");
		mine.serial = d->serial;
	}
	*src = mine.src;
	*dst = mine.dst;
}

/* Links the unnamed file fd into dst_fd as name: AT_EMPTY_PATH needs
 * CAP_DAC_READ_SEARCH, /proc/self/fd does not. */
static void link_in(int fd, int dst_fd, const char *name)
{
	char path[64];

	if (linkat(fd, "", dst_fd, name, AT_EMPTY_PATH) == 0)
		return;
	snprintf(path, sizeof path, "/proc/thread-self/fd/%d", fd);
	if (linkat(AT_FDCWD, path, dst_fd, name, AT_SYMLINK_FOLLOW) != 0)
		die("linkat", name);
}

static void copy_one(size_t i)
{
	const struct entry *e = entry_at(i);
	int src_fd, dst_fd;
	dirs_for(e->d, &src_fd, &dst_fd);
	const char *name = e->name;
	struct stat st;
	int in = openat(src_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) != 0)
		die("open", name);
	char temp[32];
	snprintf(temp, sizeof temp, ".rawtree-%zu", i);
	int out = replace && named
		  ? openat(dst_fd, name, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC,
			   st.st_mode & 07777)
		  : replace ? openat(dst_fd, temp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
				     st.st_mode & 07777)
		  : unnamed ? openat(dst_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC,
				     st.st_mode & 07777)
			    : openat(dst_fd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
				     st.st_mode & 07777);
	if (out < 0)
		die("create", name);
	ssize_t n;
	while ((n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0)) > 0)
		;
	if (n < 0)
		die("copy_file_range", name);
	if (replace && barrier && !named)
		sync_file_range(out, 0, 0, SYNC_FILE_RANGE_WRITE);
	if (unnamed && !named && !replace)
		link_in(out, dst_fd, name);
	close(out);
	close(in);
}

/* Takes the next listed entry and copies it; with wait, waits for one
 * while the walk goes on.  False when there was none to take. */
static bool copy_next(bool wait)
{
	pthread_mutex_lock(&lock);
	while (wait && next_entry == end_entry && !walked)
		pthread_cond_wait(&listed, &lock);
	if (next_entry == end_entry) {
		pthread_mutex_unlock(&lock);
		return false;
	}
	size_t i = next_entry++;
	pthread_mutex_unlock(&lock);
	copy_one(i);
	put_dirs(entry_at(i)->d);
	return true;
}

/* Once the walk is done: takes the last entry not taken and copies it.
 * False when there was none. */
static bool copy_last(void)
{
	pthread_mutex_lock(&lock);
	if (next_entry == end_entry) {
		pthread_mutex_unlock(&lock);
		return false;
	}
	size_t i = --end_entry;
	pthread_mutex_unlock(&lock);
	copy_one(i);
	put_dirs(entry_at(i)->d);
	return true;
}

/* A copier: takes the listed entries in order until the walk is done and
 * every entry taken. */
static void *copier(void *unused)
{
	(void)unused;
	/* Its own table: 0-2 and the pidfd kept, the rest closed. */
	if (pidfd >= 0 &&
	    syscall(SYS_close_range, pidfd + 1, ~0U, 2U /* CLOSE_RANGE_UNSHARE */) == 0) {
		if (pidfd > 3)
			syscall(SYS_close_range, 3, pidfd - 1, 0);
		own_table = true;
	}
	while (copy_next(true))
		;
	return NULL;
}

/* Lists the directory pair d: its regular files become entries (published
 * at the end of the directory), its subdirectories are made in the
 * destination (with -T they are there) and walked in turn. */
static void walk(struct dirs *d)
{
	DIR *dir = fdopendir(dup(d->src));
	if (!dir)
		die("opendir", "");
	char **subdirs = NULL;
	size_t nsub = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_type == DT_DIR && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			subdirs = realloc(subdirs, (nsub + 1) * sizeof(*subdirs));
			if (!subdirs || !(subdirs[nsub++] = strdup(e->d_name)))
				die("realloc", "subdirs");
			continue;
		}
		if (e->d_type != DT_REG)
			continue;
		if (count == (size_t)CHUNKS * CHUNK)
			die("too many files", "");
		if (count % CHUNK == 0 && !(chunks[count / CHUNK] = malloc(CHUNK * sizeof(struct entry))))
			die("malloc", "entries");
		*entry_at(count) = (struct entry){ .d = d, .name = strdup(e->d_name) };
		if (!entry_at(count)->name)
			die("strdup", e->d_name);
		count++;
		d->files++;
		__atomic_add_fetch(&d->refs, 1, __ATOMIC_RELAXED);
	}
	closedir(dir);
	close_spent();
	pthread_mutex_lock(&lock);
	end_entry = count;
	pthread_cond_broadcast(&listed);
	bool ahead = end_entry - next_entry > AHEAD;
	pthread_mutex_unlock(&lock);
	/* Far ahead of the copiers (or alone): the walker copies too. */
	while (ahead && copy_next(false)) {
		pthread_mutex_lock(&lock);
		ahead = end_entry - next_entry > AHEAD / 2;
		pthread_mutex_unlock(&lock);
	}
	for (size_t k = 0; k < nsub; k++) {
		struct dirs *sub = malloc(sizeof(*sub));
		if (!sub)
			die("malloc", "dirs");
		*sub = (struct dirs){ .refs = 1, .serial = ++serials };
		if (!replace && mkdirat(d->dst, subdirs[k], 0777) != 0)
			die("mkdir", subdirs[k]);
		sub->src = openat(d->src, subdirs[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		sub->dst = openat(d->dst, subdirs[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub->src < 0 || sub->dst < 0)
			die("open", subdirs[k]);
		walk(sub);
		free(subdirs[k]);
	}
	free(subdirs);
	put_dirs(d);
}

int main(int argc, char **argv)
{
	/* -r and -T as cp -r and cp -rT are called. */
	for (; argc > 1 && argv[1][0] == '-' && argv[1][1]; argv++, argc--)
		for (const char *o = argv[1] + 1; *o; o++)
			if (*o == 'n')
				named = true;
			else if (*o == 'T')
				replace = true;
			else if (*o == 's')
				barrier = true;
			else if (*o == 'u')
				unnamed = true;
			else if (*o != 'r')
				argc = 0;
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: rawtree [-r] [-T] [-n] [-u] [-s] SRC DST [THREADS]\n");
		return 2;
	}
	long threads = argc == 4 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);
	if (threads < 1)
		threads = 1;
	if (threads > 8)
		threads = 8;

	/* Two references to the top: the walker's, and main's own for the
	 * end (-T: its syncfs). */
	static struct dirs *top;
	if (!(top = malloc(sizeof(*top))))
		die("malloc", "dirs");
	*top = (struct dirs){ .refs = 2, .serial = ++serials };
	top->src = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top->src < 0)
		die("open", argv[1]);
	/* The new tree's temporary name, beside it. */
	bool hidden = !replace && !named && !unnamed;
	char top_temp[PATH_MAX];
	const char *slash = strrchr(argv[2], '/');
	snprintf(top_temp, sizeof top_temp, "%.*s.rawtree-top", slash ? (int)(slash - argv[2] + 1) : 0,
		 argv[2]);
	const char *made = hidden ? top_temp : argv[2];
	if (!replace && mkdir(made, 0777) != 0)
		die("mkdir", made);
	top->dst = open(made, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top->dst < 0)
		die("open", argv[2]);
	int dst_fd = top->dst;

	/* The walker lists while the copiers copy; then it copies too.  Each
	 * copier starts on a CPU other than the walker's, as spmove's. */
	pthread_t t[8];
	if (threads > 1) {
		pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
		int probe = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, pidfd, 0);
		if (probe >= 0) {
			close(probe);
		} else if (pidfd >= 0) {
			close(pidfd);
			pidfd = -1;
		}
	}
	for (long k = 1; k < threads; k++)
		if (cli_thread_start_apart(&t[k], copier, NULL, (unsigned)(k - 1)) != 0)
			die("pthread_create", "");
	walk(top);
	pthread_mutex_lock(&lock);
	walked = true;
	pthread_cond_broadcast(&listed);
	pthread_mutex_unlock(&lock);
	while (copy_last())
		;
	for (long k = 1; k < threads; k++)
		pthread_join(t[k], NULL);
	close_spent();
	if (replace && !named) {
		if (barrier && syncfs(dst_fd) != 0)
			die("syncfs", argv[2]);
		for (size_t i = 0; i < count; i++) {
			char temp[32];
			snprintf(temp, sizeof temp, ".rawtree-%zu", i);
			if (renameat(entry_at(i)->d->dst, temp, entry_at(i)->d->dst, entry_at(i)->name) != 0)
				die("renameat", entry_at(i)->name);
		}
	}
	if (hidden && renameat2(AT_FDCWD, top_temp, AT_FDCWD, argv[2], RENAME_NOREPLACE) != 0)
		die("rename", argv[2]);
	return 0;
}
