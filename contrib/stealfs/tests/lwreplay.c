/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lwreplay: replay a dm-log-writes log (the format of the kernel's
 * Documentation/admin-guide/device-mapper/log-writes.rst and
 * drivers/md/dm-log-writes.c) onto a device, and compare what a mounted
 * image holds with reference trees, for the power-cut checks of
 * check-powercut.sh.  Our own, small: no checksums, no fsck.
 *
 *   lwreplay LOG points MARK HALF
 *                              the entries at which a power cut is checked,
 *                              from the mark entry MARK on: each flush and
 *                              each FUA write, and the write halfway
 *                              between two of them; one "INDEX KIND POS VA
 *                              VB" a line, in order, each index once: POS
 *                              the log sector of entry INDEX, VA and VB the
 *                              number of entries before INDEX that wrote
 *                              below sector HALF (the first file system)
 *                              and from it on (the second).  Two points
 *                              with the same VA hold the same image of the
 *                              first file system, byte for byte.
 *   lwreplay LOG replay DEV FROM TO [POS]
 *                              apply entries FROM..TO-1 (writes; discards
 *                              as zeros) to DEV, in log order; POS, the
 *                              log sector of entry FROM (from points),
 *                              spares reading the log from its start
 *   lwreplay LOG count         the number of entries
 *   lwreplay - same PATH REF [ALT]
 *                              whether PATH is REF (a file: the same bytes;
 *                              a directory: the same names, types and
 *                              contents, names beginning ".spmove-" aside)
 *                              or, file by file, ALT's file of that name;
 *                              prints what differs, at most 5 lines and a
 *                              count; exit 0 same, 1 different, 2 error
 * Exit 0, 1 on an error (with a message). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_MAGIC 0x6a736677736872ULL
#define FLUSH_FLAG 1
#define FUA_FLAG 2
#define DISCARD_FLAG 4
#define MARK_FLAG 8

struct entry {
	uint64_t sector, nr_sectors, flags, data_len;
};

static int log_fd;
static uint64_t sectorsize, nr_entries;

static void die(const char *what)
{
	fprintf(stderr, "lwreplay: %s: %s\n", what, errno ? strerror(errno) : "bad log");
	exit(1);
}

/* Read the entry header at log sector pos (in sectorsize units) into e and
 * its mark text (if any) into mark. */
static void read_entry(uint64_t pos, struct entry *e, char *mark, size_t size)
{
	unsigned char buf[4096];
	if (pread(log_fd, buf, sectorsize, (off_t)(pos * sectorsize)) != (ssize_t)sectorsize)
		die("cannot read an entry");
	uint64_t v[4];
	memcpy(v, buf, sizeof(v));
	e->sector = le64toh(v[0]);
	e->nr_sectors = le64toh(v[1]);
	e->flags = le64toh(v[2]);
	e->data_len = le64toh(v[3]);
	mark[0] = '\0';
	if (e->flags & MARK_FLAG) {
		size_t n = e->data_len < size - 1 ? e->data_len : size - 1;
		if (n > sectorsize - sizeof(v))
			n = sectorsize - sizeof(v);
		memcpy(mark, buf + sizeof(v), n);
		mark[n] = '\0';
	}
}

/* The log sector of the entry after the one at pos (header e). */
static uint64_t next_pos(uint64_t pos, const struct entry *e)
{
	return pos + 1 + ((e->flags & (DISCARD_FLAG | MARK_FLAG)) ? 0 : e->nr_sectors);
}

static void open_log(const char *path)
{
	log_fd = open(path, O_RDONLY);
	if (log_fd < 0)
		die(path);
	unsigned char buf[512];
	if (pread(log_fd, buf, sizeof(buf), 0) != (ssize_t)sizeof(buf))
		die("cannot read the super block");
	uint64_t magic, version, n;
	uint32_t ss;
	memcpy(&magic, buf, 8);
	memcpy(&version, buf + 8, 8);
	memcpy(&n, buf + 16, 8);
	memcpy(&ss, buf + 24, 4);
	errno = 0;
	if (le64toh(magic) != LOG_MAGIC || le64toh(version) != 1)
		die("not a dm-log-writes log (magic or version)");
	nr_entries = le64toh(n);
	sectorsize = le32toh(ss);
	if (sectorsize < 512 || sectorsize > 4096)
		die("odd sector size");
}

struct point {
	uint64_t index, pos, va, vb;
	const char *kind;
};

static int by_index(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Grows *v (of *cap elements of size sz) to hold n + 1 elements. */
static void *grow(void *v, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 1024;
	v = realloc(v, *cap * sz);
	if (!v)
		die("out of memory");
	return v;
}

static int points(const char *from_mark, uint64_t half)
{
	/* Per entry: its log sector and the writes below and above half
	 * before it; then the points, sorted, each index once. */
	uint64_t *pos = NULL, *va = NULL, *vb = NULL, p = 1, a = 0, b = 0, last = 0;
	size_t cap = 0, pcap = 0, np = 0;
	struct point *pt = NULL;
	long since = 0;
	bool on = false;
	for (uint64_t i = 0; i <= nr_entries; i++) {
		size_t c0 = cap;
		pos = grow(pos, &cap, i, sizeof(*pos));
		if (cap != c0) {
			va = realloc(va, cap * sizeof(*va));
			vb = realloc(vb, cap * sizeof(*vb));
			if (!va || !vb)
				die("out of memory");
		}
		pos[i] = p, va[i] = a, vb[i] = b;
		if (i == nr_entries)
			break;
		struct entry e;
		char mark[256];
		read_entry(p, &e, mark, sizeof(mark));
		if (!(e.flags & MARK_FLAG) && e.nr_sectors) {
			uint64_t start = e.sector * sectorsize / 512, end = start + e.nr_sectors * sectorsize / 512;
			a += start < half;
			b += end > half;
		}
		const char *k[2] = { NULL, NULL };
		uint64_t at[2] = { 0, 0 };
		if (!on && (e.flags & MARK_FLAG) && !strcmp(mark, from_mark)) {
			on = true;
			last = i;
			k[0] = "mark", at[0] = i;
		} else if (on && (e.flags & (FLUSH_FLAG | FUA_FLAG))) {
			/* halfway between the last point and this one */
			if (since > 2)
				k[1] = "between", at[1] = last + (i - last) / 2;
			/* the state just before the flush, and with the FUA write in */
			k[0] = e.flags & FUA_FLAG ? "fua" : "flush";
			at[0] = e.flags & FUA_FLAG ? i + 1 : i;
			last = i;
			since = 0;
		} else if (on) {
			since++;
		}
		for (int n = 0; n < 2; n++)
			if (k[n]) {
				pt = grow(pt, &pcap, np, sizeof(*pt));
				pt[np++] = (struct point){ .index = at[n], .kind = k[n] };
			}
		p = next_pos(p, &e);
	}
	pt = grow(pt, &pcap, np, sizeof(*pt));
	pt[np++] = (struct point){ .index = nr_entries, .kind = "end" };
	qsort(pt, np, sizeof(*pt), by_index);
	for (size_t n = 0; n < np; n++) {
		if (n && pt[n].index == pt[n - 1].index)
			continue;
		uint64_t x = pt[n].index;
		printf("%llu %s %llu %llu %llu\n", (unsigned long long)x, pt[n].kind,
		       (unsigned long long)pos[x], (unsigned long long)va[x], (unsigned long long)vb[x]);
	}
	free(pos), free(va), free(vb), free(pt);
	return 0;
}

static int replay(const char *dev, uint64_t from, uint64_t to, uint64_t pos)
{
	int out = open(dev, O_WRONLY);
	if (out < 0)
		die(dev);
	static char data[1 << 20];
	uint64_t i = 0;
	if (pos)
		i = from;
	else
		pos = 1;
	for (; i < to && i < nr_entries; i++) {
		struct entry e;
		char mark[256];
		read_entry(pos, &e, mark, sizeof(mark));
		if (i >= from && !(e.flags & MARK_FLAG) && e.nr_sectors) {
			uint64_t left = e.nr_sectors * sectorsize, src = (pos + 1) * sectorsize;
			uint64_t dst = e.sector * sectorsize;
			while (left) {
				size_t n = left < sizeof(data) ? left : sizeof(data);
				if (e.flags & DISCARD_FLAG)
					memset(data, 0, n);
				else if (pread(log_fd, data, n, (off_t)src) != (ssize_t)n)
					die("cannot read logged data");
				if (pwrite(out, data, n, (off_t)dst) != (ssize_t)n)
					die("cannot write the replay device");
				left -= n;
				src += n;
				dst += n;
			}
		}
		pos = next_pos(pos, &e);
	}
	if (fsync(out) < 0 || close(out) < 0)
		die("cannot sync the replay device");
	return 0;
}

/* Compares files ref and alt (alt may be NULL or missing) with path:
 * 0 when path holds the bytes of one of them, 1 when not, -errno. */
static int same_file(const char *path, const char *ref, const char *alt)
{
	static char x[1 << 16], y[1 << 16], z[1 << 16];
	int fp = open(path, O_RDONLY), fr = open(ref, O_RDONLY), fa = alt ? open(alt, O_RDONLY) : -1;
	int r = fp < 0 || fr < 0 ? -errno : 0;
	bool eq_r = true, eq_a = fa >= 0;
	while (!r && (eq_r || eq_a)) {
		ssize_t n = read(fp, x, sizeof(x)), m = 0, l = 0;
		if (n < 0 || (eq_r && (m = read(fr, y, sizeof(y))) < 0) ||
		    (eq_a && (l = read(fa, z, sizeof(z))) < 0)) {
			r = -errno;
			break;
		}
		/* short reads of regular files happen only at their end */
		eq_r = eq_r && m == n && !memcmp(x, y, (size_t)n);
		eq_a = eq_a && l == n && !memcmp(x, z, (size_t)n);
		if (n == 0)
			break;
	}
	if (!r)
		r = eq_r || eq_a ? 0 : 1;
	if (fp >= 0)
		close(fp);
	if (fr >= 0)
		close(fr);
	if (fa >= 0)
		close(fa);
	return r;
}

static long differences;

static void differs(const char *path, const char *what)
{
	if (differences++ < 5)
		printf("%s: %s\n", path, what);
}

static bool ignored(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..") || !strncmp(name, ".spmove-", 8);
}

/* Counts in differences what makes path other than ref (or, file by file,
 * alt); dies on an error other than a missing or unreadable path. */
static void same(const char *path, const char *ref, const char *alt)
{
	struct stat sp, sr;
	if (lstat(ref, &sr) < 0)
		die(ref);
	if (lstat(path, &sp) < 0) {
		differs(path, "missing");
		return;
	}
	if ((sp.st_mode & S_IFMT) != (sr.st_mode & S_IFMT)) {
		differs(path, "another type");
		return;
	}
	if (S_ISREG(sr.st_mode)) {
		int r = same_file(path, ref, alt);
		char what[64];
		snprintf(what, sizeof(what), "neither old nor new (%lld bytes)", (long long)sp.st_size);
		if (r)
			differs(path, r > 0 ? what : strerror(-r));
		return;
	}
	if (!S_ISDIR(sr.st_mode))
		return;
	DIR *d = opendir(ref);
	struct dirent *de;
	char p[4096], q[4096], a[4096];
	if (!d)
		die(ref);
	while ((de = readdir(d))) {
		if (ignored(de->d_name))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
		snprintf(q, sizeof(q), "%s/%s", ref, de->d_name);
		if (alt)
			snprintf(a, sizeof(a), "%s/%s", alt, de->d_name);
		same(p, q, alt ? a : NULL);
	}
	closedir(d);
	if (!(d = opendir(path))) {
		differs(path, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		snprintf(q, sizeof(q), "%s/%s", ref, de->d_name);
		if (!ignored(de->d_name) && lstat(q, &sr) < 0) {
			snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
			differs(p, "not in the reference");
		}
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: lwreplay LOG points MARK HALF | replay DEV FROM TO [POS] | count | - same PATH REF [ALT]\n");
		return 2;
	}
	if (!strcmp(argv[1], "-") && !strcmp(argv[2], "same") && (argc == 5 || argc == 6)) {
		same(argv[3], argv[4], argc == 6 ? argv[5] : NULL);
		if (differences > 5)
			printf("%ld differences\n", differences);
		return differences != 0;
	}
	open_log(argv[1]);
	if (!strcmp(argv[2], "points") && argc == 5)
		return points(argv[3], strtoull(argv[4], NULL, 10));
	if (!strcmp(argv[2], "replay") && (argc == 6 || argc == 7))
		return replay(argv[3], strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10),
			      argc == 7 ? strtoull(argv[6], NULL, 10) : 0);
	if (!strcmp(argv[2], "count") && argc == 3) {
		printf("%llu\n", (unsigned long long)nr_entries);
		return 0;
	}
	fprintf(stderr, "usage: lwreplay LOG points MARK HALF | replay DEV FROM TO [POS] | count | - same PATH REF [ALT]\n");
	return 2;
}
