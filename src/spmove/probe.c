/* spmove --probe: measure, in a directory, which data paths work and what
 * the kernel really does with the pages -- never assume it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "message.h"
#include "spmove.h"

/* Size of the probe's source file: whole pages and a ragged tail. */
#define PROBE_BYTES ((1u << 20) + 123)
/* Pages used by the page-level measurements. */
#define PROBE_PAGES 16

/* The probe's scratch files in the directory. */
struct scratch {
	char src[PATH_MAX], dst[PATH_MAX];
	int src_fd, dst_fd;
	size_t page;
};

/* Create a scratch file from a template ending in XXXXXX.  Returns the fd or -1. */
static int scratch_file(char *path, size_t size, const char *dir)
{
	snprintf(path, size, "%s/.spmove-probe-XXXXXX", dir);
	return mkstemp(path);
}

/* Write n bytes of a pattern starting at seed to fd from offset 0.
 * Returns 0 or an errno value. */
static int fill(int fd, size_t n, unsigned seed)
{
	char buf[4096];
	for (size_t at = 0; at < n;) {
		size_t k = n - at < sizeof(buf) ? n - at : sizeof(buf);
		for (size_t i = 0; i < k; i++)
			buf[i] = (char)((at + i) * 31 + seed);
		ssize_t w = pwrite(fd, buf, k, (off_t)at);
		if (w <= 0)
			return w < 0 ? errno : EIO;
		at += (size_t)w;
	}
	return ftruncate(fd, (off_t)n) < 0 ? errno : 0;
}

/* Read the pipe's first byte after n bytes went in; -1 on error.  The
 * rest of the pipe is drained. */
static int pipe_first_byte(int rfd, size_t n)
{
	char *buf = malloc(n);
	int first = -1;
	size_t got = 0;
	while (buf && got < n) {
		ssize_t k = read(rfd, buf + got, n - got);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (buf && got == n)
		first = (unsigned char)buf[0];
	free(buf);
	return first;
}

/* The filesystem's name for the usual magic numbers. */
static const char *fs_name(unsigned long type)
{
	switch (type) {
	case 0xEF53: return "ext2/3/4";
	case 0x01021994: return "tmpfs";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case 0x5354454c: return "stealfs";
	case 0x6969: return "nfs";
	case 0x65735546: return "fuse";
	default: return "other";
	}
}

/* Print one line of the "pages:" part. */
static void page_line(const char *label, const char *verdict)
{
	printf("  %-29s %s\n", label, verdict);
}

/* Print one method's line: whether it works, falls back, or fails. */
static void probe_method(struct scratch *sc, enum sp_method method, unsigned flags)
{
	struct sp_options mo = { .method = method, .splice_flags = flags };
	struct sp_mover *m;
	struct stealfs_counts before, after;
	char label[40];
	snprintf(label, sizeof(label), "%s%s", sp_method_name(method), flags ? " -M" : "");
	printf("  %-20s ", label);
	if (ftruncate(sc->dst_fd, 0) < 0 || lseek(sc->dst_fd, 0, SEEK_SET) < 0 ||
	    sp_mover_new(&m, &mo) < 0) {
		printf("unknown (cannot set up: %s)\n", strerror(errno));
		return;
	}
	stealfs_read(&before);
	int64_t n = sp_move(m, sc->src_fd, sc->dst_fd, 0, SP_LENGTH_EOF);
	stealfs_read(&after);
	const struct sp_stats *st = sp_get_stats(m);
	enum sp_method used = sp_last_method(m);
	if (n < 0) {
		printf("fails: %s\n", strerror((int)-n));
	} else if (n != PROBE_BYTES || sp_compare(sc->src_fd, 0, sc->dst_fd, 0, PROBE_BYTES)) {
		printf("WRONG DATA (%" PRId64 " bytes)\n", n);
	} else if (method == SP_METHOD_BEST) {
		printf("works (uses %s)", sp_method_name(used));
	} else if (used != method || st->fallbacks) {
		printf("falls back to %s", sp_method_name(used));
	} else {
		printf("works");
	}
	if (n >= 0 && after.present && before.present)
		printf(", stealfs: %" PRIu64 " pages moved, %" PRIu64 " copied",
		       after.stolen - before.stolen, after.copied - before.copied);
	if (n >= 0)
		printf(", %.0f%% zero-copy\n", st->bytes ? 100.0 * (double)st->bytes_spliced /
						       (double)st->bytes : 0.0);
	sp_mover_free(m);
}

/* vmsplice (with flags) PROBE_PAGES pages of mem holding byte 'A' into a
 * new pipe, then overwrite them with 'B' and read the pipe: 'B' means the
 * pipe referenced our pages, 'A' that vmsplice copied them.  Returns the
 * first byte read, or -errno when vmsplice failed. */
static int vmsplice_shares(char *mem, size_t len, unsigned flags)
{
	int p[2];
	if (pipe(p) < 0)
		return -errno;
	sp_pipe_grow(p[1], len);
	memset(mem, 'A', len);
	struct iovec iov = { .iov_base = mem, .iov_len = len };
	ssize_t k = vmsplice(p[1], &iov, 1, flags);
	int rc = k < 0 ? -errno : 0;
	if (!rc) {
		memset(mem, 'B', len);
		rc = pipe_first_byte(p[0], (size_t)k);
	}
	close(p[0]);
	close(p[1]);
	return rc;
}

/* Print what vmsplice does with anonymous and file-backed pages, and
 * whether SPLICE_F_GIFT is still accepted. */
static void probe_vmsplice(struct scratch *sc, bool *copies)
{
	size_t len = PROBE_PAGES * sc->page;
	char *anon = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int r = anon == MAP_FAILED ? -ENOMEM : vmsplice_shares(anon, len, 0);
	page_line("vmsplice of user memory:",
	       r < 0 ? strerror(-r) : r == 'B' ? "references the pages (zero-copy)"
			 : r == 'A' ? "copies the pages (plain-copy vmsplice)" : "unknown");
	*copies = r == 'A';
	int g = anon == MAP_FAILED ? -ENOMEM : vmsplice_shares(anon, len, SPLICE_F_GIFT);
	page_line("SPLICE_F_GIFT:",
	       g == -EINVAL ? "refused (EINVAL: this kernel dropped gifting)"
	       : g < 0 ? strerror(-g) : g == 'B' ? "accepted, pages handed over by reference"
	       : "accepted, but the pages are copied (the gift means nothing)");
	if (anon != MAP_FAILED)
		munmap(anon, len);

	char *map = MAP_FAILED;
	if (fill(sc->dst_fd, len, 0) == 0)
		map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, sc->dst_fd, 0);
	r = map == MAP_FAILED ? -errno : vmsplice_shares(map, len, 0);
	page_line("vmsplice of a mapped file:",
	       r < 0 ? strerror(-r) : r == 'B' ? "references the page cache (zero-copy)"
			 : r == 'A' ? "copies the pages" : "unknown");
	if (map != MAP_FAILED)
		munmap(map, len);
}

/* Splice the source's first pages into a pipe, change the file, read the
 * pipe: does splice(2) take page-cache pages by reference here? */
static void probe_splice_in(struct scratch *sc)
{
	size_t len = PROBE_PAGES * sc->page;
	int p[2], r = -EIO;
	if (fill(sc->dst_fd, len, 0) == 0 && pipe(p) == 0) {
		sp_pipe_grow(p[1], len);
		char a = 'A', b = 'B';
		loff_t off = 0;
		if (pwrite(sc->dst_fd, &a, 1, 0) == 1 &&
		    splice(sc->dst_fd, &off, p[1], NULL, len, 0) == (ssize_t)len &&
		    pwrite(sc->dst_fd, &b, 1, 0) == 1)
			r = pipe_first_byte(p[0], len);
		else
			r = -errno;
		close(p[0]);
		close(p[1]);
	}
	page_line("splice from a file:",
	       r < 0 ? strerror(-r) : r == 'B' ? "references the page cache (zero-copy)"
			 : r == 'A' ? "copies the pages" : "unknown");
}

/* Splice cached source pages to the destination with SPLICE_F_MOVE; pages
 * that left the source's page cache were moved (stolen).  Also check that
 * the destination does not share the source's pages. */
static void probe_page_move(struct scratch *sc, const char *dir)
{
	size_t len = PROBE_PAGES * sc->page;
	unsigned char vec[PROBE_PAGES];
	int p[2];
	struct stealfs_counts before, after;
	const char *verdict = "unknown";
	char line[160];
	int src = scratch_file(line, sizeof(line), dir);
	if (src >= 0 && fill(src, len, 7) == 0 && pipe(p) == 0) {
		unlink(line);
		sp_pipe_grow(p[1], len);
		char *buf = malloc(len);
		if (buf && pread(src, buf, len, 0) == (ssize_t)len) { /* cache it */
			stealfs_read(&before);
			loff_t off = 0;
			ssize_t in = splice(src, &off, p[1], NULL, len, 0);
			ssize_t out = in > 0 && ftruncate(sc->dst_fd, 0) == 0
					      ? splice(p[0], NULL, sc->dst_fd, &(loff_t){ 0 },
						       (size_t)in, SPLICE_F_MOVE)
					      : -1;
			stealfs_read(&after);
			char *map = out == (ssize_t)len
					    ? mmap(NULL, len, PROT_READ, MAP_SHARED, src, 0)
					    : MAP_FAILED;
			if (map != MAP_FAILED && mincore(map, len, vec) == 0) {
				unsigned resident = 0;
				for (unsigned i = 0; i < PROBE_PAGES; i++)
					resident += vec[i] & 1;
				verdict = resident == PROBE_PAGES
						  ? "copied (the source's pages stayed in its page cache)"
						  : "moved (pages left the source's page cache)";
				char z = 0;
				if (pwrite(src, &z, 1, 0) == 1 && pread(sc->dst_fd, buf, 1, 0) == 1 &&
				    buf[0] == 0)
					verdict = "SHARED with the source (the destination changed with it)";
			}
			if (map != MAP_FAILED)
				munmap(map, len);
			if (before.present && after.present) {
				snprintf(line, sizeof(line), "%" PRIu64 " of %u pages moved (stealfs counters)",
					 after.stolen - before.stolen, PROBE_PAGES);
				verdict = line;
			}
		}
		free(buf);
		close(p[0]);
		close(p[1]);
	}
	if (src >= 0)
		close(src);
	page_line("page-cache pages with -M:", verdict);
}

/* Anonymous pages written into a pipe with write(2) (stdin from a
 * producer), or gifted, spliced into the directory with SPLICE_F_MOVE: only
 * stealfs's counters can tell whether they were moved. */
static void probe_anon_move(struct scratch *sc, bool gift)
{
	size_t len = PROBE_PAGES * sc->page;
	struct stealfs_counts before, after;
	char line[120] = "unknown (the kernel gives no way to tell without stealfs's counters)";
	int p[2];
	char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf != MAP_FAILED && pipe(p) == 0) {
		sp_pipe_grow(p[1], len);
		memset(buf, 'x', len);
		stealfs_read(&before);
		struct iovec iov = { .iov_base = buf, .iov_len = len };
		ssize_t in = gift ? vmsplice(p[1], &iov, 1, SPLICE_F_GIFT) : write(p[1], buf, len);
		if (gift) {
			munmap(buf, len);
			buf = MAP_FAILED;
		}
		ssize_t out = in > 0 && ftruncate(sc->dst_fd, 0) == 0
				      ? splice(p[0], NULL, sc->dst_fd, &(loff_t){ 0 }, (size_t)in,
					       SPLICE_F_MOVE)
				      : -1;
		stealfs_read(&after);
		if (out < 0)
			snprintf(line, sizeof(line), "unknown (%s)", strerror(errno));
		else if (before.present && after.present)
			snprintf(line, sizeof(line), "%" PRIu64 " of %zd pages moved (stealfs counters)",
				 after.stolen - before.stolen, out / (ssize_t)sc->page);
		close(p[0]);
		close(p[1]);
	}
	if (buf != MAP_FAILED)
		munmap(buf, len);
	page_line(gift ? "gifted pages with -M:" : "write(2) pipe pages with -M:", line);
}

int probe(const char *dir)
{
	struct scratch sc = { .page = (size_t)sysconf(_SC_PAGESIZE) };
	struct utsname u;
	struct statfs sf;
	if (statfs(dir, &sf) < 0) {
		cli_error(errno, "%s", quoted(dir));
		return 1;
	}
	sc.src_fd = scratch_file(sc.src, sizeof(sc.src), dir);
	sc.dst_fd = sc.src_fd < 0 ? -1 : scratch_file(sc.dst, sizeof(sc.dst), dir);
	int err = sc.dst_fd < 0 ? errno : fill(sc.src_fd, PROBE_BYTES, 1);
	if (err) {
		cli_error(err, "cannot create probe files in %s", quoted(dir));
		if (sc.src_fd >= 0)
			unlink(sc.src);
		return 1;
	}
	uname(&u);
	struct stealfs_counts counts;
	stealfs_read(&counts);
	printf("kernel %s, %s: %s (f_type 0x%lx), page size %zu, stealfs counters %s\n",
	       u.release, dir, fs_name((unsigned long)sf.f_type), (unsigned long)sf.f_type,
	       sc.page, counts.present ? "present" : "absent");
	printf("methods:\n");
	static const enum sp_method methods[] = {
		SP_METHOD_BEST, SP_METHOD_SPLICE, SP_METHOD_VMSPLICE, SP_METHOD_GIFT,
		SP_METHOD_RW, SP_METHOD_COPY_FILE_RANGE, SP_METHOD_SENDFILE,
	};
	for (unsigned i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
		probe_method(&sc, methods[i], 0);
	probe_method(&sc, SP_METHOD_SPLICE, SPLICE_F_MOVE);
	probe_method(&sc, SP_METHOD_GIFT, SPLICE_F_MOVE);
	printf("pages:\n");
	bool copies = false;
	probe_vmsplice(&sc, &copies);
	probe_splice_in(&sc);
	probe_page_move(&sc, dir);
	probe_anon_move(&sc, false);
	probe_anon_move(&sc, true);
	if (copies)
		printf("note: vmsplice copies on this kernel (upstream's plain-copy vmsplice): "
		       "--method=vmsplice and gift save nothing over rw\n");
	unlink(sc.src);
	unlink(sc.dst);
	close(sc.src_fd);
	close(sc.dst_fd);
	return 0;
}
