/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: directories left behind by runs that were killed.
 *
 * A run that ends, even by a caught signal, removes its directories; one
 * killed by SIGKILL cannot, and its mounts and accounting die with its
 * namespaces, but its empty temporary directory (and, with --dir, its
 * directory in DIR with the files) stays.  So each directory acctpin
 * makes holds an owner file naming the run's outer process: its pid, its
 * start time (so that a reused pid is not taken for it), the boot and the
 * PID namespace it ran in.  The next run removes the directories whose
 * process is gone -- only ones its own user owns, with the owner file
 * inside, from this boot or an earlier one; never one whose process still
 * runs, nor one from another PID namespace, whose processes it cannot see. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acctpin.h"
#include "message.h"
#include "path.h"
#include "quote.h"
#include "rmtree.h"

/* Which process made a directory. */
struct owner {
	long pid;
	unsigned long long start;  /* in clock ticks after boot (/proc/PID/stat) */
	char boot[40];             /* /proc/sys/kernel/random/boot_id */
	char pidns[40];            /* /proc/self/ns/pid, as "pid:[INODE]" */
};

/* Read up to size - 1 bytes of the regular file name (relative to dirfd)
 * into buf, NUL-terminated, without following a symbolic link at name
 * (again after EINTR or EAGAIN).  Returns the length, or -errno. */
static ssize_t read_small(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	ssize_t n = -EINVAL; /* not a regular file: nothing that could block */
	if (fstat(fd, &st) < 0) {
		n = -errno;
	} else if (S_ISREG(st.st_mode)) {
		while ((n = read(fd, buf, size - 1)) < 0 && (errno == EINTR || errno == EAGAIN))
			;
		if (n < 0)
			n = -errno;
	}
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The start time of process pid (field 22 of /proc/PID/stat).  Returns 0
 * with *start set, -ESRCH when there is no such process, or another
 * negative errno when it cannot be told. */
static int start_time(long pid, unsigned long long *start)
{
	char path[64], stat[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	ssize_t n = read_small(AT_FDCWD, path, stat, sizeof stat);
	if (n == -ENOENT)
		return -ESRCH;
	if (n < 0)
		return (int)n;
	/* The name (field 2) may hold anything but ends at the last ')';
	 * fields 3 to 21 follow. */
	char *p = strrchr(stat, ')');
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", start) != 1)
		return -EPROTO;
	return 0;
}

int ap_owner_text(char *buf, size_t size)
{
	struct owner o = { .pid = (long)getpid() };
	int rc = start_time(o.pid, &o.start);
	if (rc < 0)
		return rc;
	ssize_t n = read_small(AT_FDCWD, "/proc/sys/kernel/random/boot_id", o.boot,
			       sizeof o.boot);
	if (n < 0)
		return (int)n;
	o.boot[strcspn(o.boot, "\n")] = '\0';
	n = readlink("/proc/self/ns/pid", o.pidns, sizeof o.pidns - 1);
	if (n < 0)
		return -errno;
	o.pidns[n] = '\0';
	snprintf(buf, size, "%ld %llu %s %s\n", o.pid, o.start, o.boot, o.pidns);
	return 0;
}

/* Parse an owner file's text into o.  Returns whether it is one. */
static bool owner_parse(const char *text, struct owner *o)
{
	return sscanf(text, "%ld %llu %39s %39s", &o->pid, &o->start, o->boot, o->pidns) == 4;
}

/* Write all of text to fd (again after EINTR, EAGAIN or a short write).
 * Returns 0 or a negative errno. */
static int write_all(int fd, const char *text)
{
	size_t len = strlen(text);
	while (len) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
		if (n > 0) {
			text += n;
			len -= (size_t)n;
		}
	}
	return 0;
}

int ap_owner_write(const char *dir, const char *text)
{
	char path[PATH_MAX];
	if (!*text)
		return 0;
	int rc = ap_path(path, dir, AP_OWNER_FILE);
	if (rc < 0)
		return rc;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		rc = -errno;
	else {
		rc = write_all(fd, text);
		if (close(fd) < 0 && rc == 0)
			rc = -errno;
		if (rc < 0)
			unlink(path);
	}
	return rc < 0 ? ap_fail(rc, -rc, "cannot write %s", cli_quote(path)) : 0;
}

/* Whether the directory name in parent (the fd) was left by a run of this
 * user whose process is gone (see the top of this file); me is this run.
 * *pid gets that run's pid. */
static bool is_stale(int parent, const char *name, const struct owner *me, long *pid)
{
	int dir = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return false;
	struct stat st, fst;
	char text[256];
	struct owner o;
	bool ours = fstat(dir, &st) == 0 && st.st_uid == geteuid() &&
		    fstatat(dir, AP_OWNER_FILE, &fst, AT_SYMLINK_NOFOLLOW) == 0 &&
		    fst.st_uid == geteuid() &&
		    read_small(dir, AP_OWNER_FILE, text, sizeof text) > 0 && owner_parse(text, &o);
	close(dir);
	if (!ours)
		return false;
	*pid = o.pid;
	if (strcmp(o.boot, me->boot))
		return true;  /* from an earlier boot: its process is long gone */
	if (strcmp(o.pidns, me->pidns))
		return false; /* its processes are not ours to see */
	unsigned long long start;
	int rc = start_time(o.pid, &start);
	return rc == -ESRCH || (rc == 0 && start != o.start);
}

void ap_sweep_stale(const char *parent, const char *self)
{
	struct owner me;
	if (!owner_parse(self, &me))
		return;
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return; /* making our own directory there reports what is wrong */
	int listing = dup(fd);
	DIR *d = listing < 0 ? NULL : fdopendir(listing);
	if (!d) {
		if (listing >= 0)
			close(listing);
		close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		long pid;
		if (strncmp(e->d_name, "acctpin.", 8) || !is_stale(fd, e->d_name, &me, &pid))
			continue;
		char path[PATH_MAX];
		path_join(path, sizeof path, parent, e->d_name);
		int err = rm_tree_at(fd, e->d_name);
		if (err && err != -ENOENT)
			fprintf(stderr, "%s: note: cannot remove %s, left by a run (pid %ld) that "
				"was killed: %s\n", cli_program, cli_quote(path), pid, strerror(-err));
		else if (!err)
			fprintf(stderr, "%s: note: removed %s, left by a run (pid %ld) that was "
				"killed\n", cli_program, cli_quote(path), pid);
	}
	closedir(d);
	close(fd);
}
