/* lwreplay: replay a dm-log-writes log (the format of the kernel's
 * Documentation/admin-guide/device-mapper/log-writes.rst and
 * drivers/md/dm-log-writes.c) onto a device, for the power-cut checks of
 * check-powercut.sh.  Our own, small: no checksums, no fsck.
 *
 *   lwreplay LOG points MARK   the entries at which a power cut is checked,
 *                              from the mark entry MARK on: each flush and
 *                              each FUA write, and the write halfway
 *                              between two of them; one "INDEX KIND" a line
 *   lwreplay LOG replay DEV FROM TO
 *                              apply entries FROM..TO-1 (writes; discards
 *                              as zeros) to DEV, in log order
 *   lwreplay LOG count         the number of entries
 * Exit 0, 1 on an error (with a message). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int points(const char *from_mark)
{
	uint64_t pos = 1, last = 0;
	long since = 0;
	bool on = false;
	for (uint64_t i = 0; i < nr_entries; i++) {
		struct entry e;
		char mark[256];
		read_entry(pos, &e, mark, sizeof(mark));
		if (!on && (e.flags & MARK_FLAG) && !strcmp(mark, from_mark)) {
			on = true;
			last = i;
			printf("%llu mark\n", (unsigned long long)i);
		} else if (on && (e.flags & (FLUSH_FLAG | FUA_FLAG))) {
			/* halfway between the last point and this one */
			if (since > 2)
				printf("%llu between\n", (unsigned long long)(last + (i - last) / 2));
			/* the state just before the flush, and with the FUA write in */
			printf("%llu %s\n", (unsigned long long)(e.flags & FUA_FLAG ? i + 1 : i),
			       e.flags & FUA_FLAG ? "fua" : "flush");
			last = i;
			since = 0;
		} else if (on) {
			since++;
		}
		pos = next_pos(pos, &e);
	}
	printf("%llu end\n", (unsigned long long)nr_entries);
	return 0;
}

static int replay(const char *dev, uint64_t from, uint64_t to)
{
	int out = open(dev, O_WRONLY);
	if (out < 0)
		die(dev);
	uint64_t pos = 1;
	static char data[1 << 20];
	for (uint64_t i = 0; i < to && i < nr_entries; i++) {
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

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: lwreplay LOG points MARK | replay DEV FROM TO | count\n");
		return 2;
	}
	open_log(argv[1]);
	if (!strcmp(argv[2], "points") && argc == 4)
		return points(argv[3]);
	if (!strcmp(argv[2], "replay") && argc == 6)
		return replay(argv[3], strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10));
	if (!strcmp(argv[2], "count") && argc == 3) {
		printf("%llu\n", (unsigned long long)nr_entries);
		return 0;
	}
	fprintf(stderr, "usage: lwreplay LOG points MARK | replay DEV FROM TO | count\n");
	return 2;
}
