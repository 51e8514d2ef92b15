/* spmove --probe: print what sp_probe() measured in a directory -- which
 * data paths work and what the kernel really does with the pages. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "message.h"
#include "spmove.h"
#include "stealfs-abi.h"

/* The file system's name for the usual magic numbers. */
static const char *fs_name(unsigned long type)
{
	switch (type) {
	case 0xEF53: return "ext2/3/4";
	case 0x01021994: return "tmpfs";
	case 0x58465342: return "xfs";
	case 0x9123683E: return "btrfs";
	case STEALFS_MAGIC: return "stealfs";
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
static void print_method(const struct sp_probe_method *r)
{
	char label[40];
	snprintf(label, sizeof(label), "%s%s",
		 r->policy == SP_POLICY_AUTO ? "auto" : sp_path_name(r->path),
		 r->splice_flags ? " -M" : "");
	printf("  %-20s ", label);
	switch (r->verdict) {
	case SP_PROBE_NOT_RUN:
		printf("unknown (cannot set up: %s)\n", strerror(r->error));
		return;
	case SP_PROBE_FAILS:
		printf("fails: %s\n", strerror(r->error));
		return;
	case SP_PROBE_WRONG_DATA:
		printf("WRONG DATA (%" PRIu64 " bytes)\n", r->bytes);
		return;
	case SP_PROBE_FALLS_BACK:
		printf("falls back to %s", sp_path_name(r->used));
		break;
	case SP_PROBE_WORKS:
		if (r->policy == SP_POLICY_AUTO)
			printf("works (uses %s)", sp_path_name(r->used));
		else
			printf("works");
		break;
	}
	if (r->pages_moved >= 0)
		printf(", stealfs: %" PRId64 " pages moved, %" PRId64 " copied", r->pages_moved,
		       r->pages_copied);
	printf(", %.0f%% zero-copy\n",
	       r->bytes ? 100.0 * (double)r->bytes_spliced / (double)r->bytes : 0.0);
}

/* What "shared" and "copied" mean for a page measurement. */
struct sharing_words {
	const char *label;
	const char *shared, *copied;
};

/* Print one sharing measurement: the error, or the words for its fate. */
static void print_sharing(const struct sp_probe_pages *p, const struct sharing_words *w)
{
	const char *text = p->fate == SP_PAGES_SHARED ? w->shared
			   : p->fate == SP_PAGES_COPIED ? w->copied
			   : p->fate == SP_PAGES_REFUSED ? "refused (EINVAL)"
			   : p->error ? strerror(p->error) : "unknown";
	page_line(w->label, text);
}

/* Print the vmsplice and splice-in measurements. */
static void print_sharings(const struct sp_probe *r)
{
	static const struct sharing_words anon = {
		"vmsplice of user memory:", "references the pages (zero-copy)",
		"copies the pages (plain-copy vmsplice)" };
	static const struct sharing_words gift = {
		"SPLICE_F_GIFT:", "accepted, pages handed over by reference",
		"accepted, but the pages are copied (the gift means nothing)" };
	static const struct sharing_words file = {
		"vmsplice of a mapped file:", "references the page cache (zero-copy)",
		"copies the pages" };
	static const struct sharing_words splice_in = {
		"splice from a file:", "references the page cache (zero-copy)",
		"copies the pages" };
	print_sharing(&r->vmsplice_anon, &anon);
	if (r->vmsplice_gift.fate == SP_PAGES_REFUSED)
		page_line(gift.label, "refused (EINVAL: this kernel dropped gifting)");
	else
		print_sharing(&r->vmsplice_gift, &gift);
	print_sharing(&r->vmsplice_file, &file);
	print_sharing(&r->splice_in, &splice_in);
}

/* Print a SPLICE_F_MOVE measurement: stealfs's count when there is one,
 * else what was observed. */
static void print_move(const char *label, const struct sp_probe_pages *p)
{
	char line[120];
	if (p->pages_moved >= 0) {
		snprintf(line, sizeof(line), "%" PRId64 " of %" PRId64 " pages moved (stealfs counters)",
			 p->pages_moved, p->pages);
	} else if (p->fate == SP_PAGES_UNKNOWN) {
		snprintf(line, sizeof(line), "unknown (%s)",
			 p->error ? strerror(p->error)
				  : "the kernel gives no way to tell without stealfs's counters");
	} else {
		snprintf(line, sizeof(line), "%s",
			 p->fate == SP_PAGES_SHARED ? "SHARED with the source (the destination changed with it)"
			 : p->fate == SP_PAGES_MOVED ? "moved (pages left the source's page cache)"
			 : "copied (the source's pages stayed in its page cache)");
	}
	page_line(label, line);
}

int probe(const char *dir)
{
	struct sp_probe r;
	int rc = sp_probe(dir, &r, sizeof(r));
	if (rc) {
		if (rc == -ENOENT || rc == -ENOTDIR)
			cli_error(-rc, "%s", quoted(dir));
		else
			cli_error(-rc, "cannot create probe files in %s", quoted(dir));
		return 1;
	}
	printf("kernel %s, %s: %s (f_type 0x%lx), page size %zu, stealfs counters %s\n", r.kernel,
	       dir, fs_name(r.fs_type), r.fs_type, r.page_size,
	       r.stealfs_counters ? "present" : "absent");
	printf("methods:\n");
	for (unsigned i = 0; i < SP_PROBE_METHODS; i++)
		print_method(&r.methods[i]);
	printf("pages:\n");
	print_sharings(&r);
	print_move("page-cache pages with -M:", &r.pagecache_move);
	print_move("write(2) pipe pages with -M:", &r.anon_move);
	print_move("gifted pages with -M:", &r.gift_move);
	if (r.vmsplice_anon.fate == SP_PAGES_COPIED)
		printf("note: vmsplice copies on this kernel (upstream's plain-copy vmsplice): "
		       "--method=vmsplice and gift save nothing over rw\n");
	return 0;
}
