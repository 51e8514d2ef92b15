/* spmove: copy and move files through splice(2) -- options and operands. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "spmove.h"

/* Files at least this large get a progress bar when stderr is a terminal. */
#define AUTO_PROGRESS_BYTES (64u << 20)

/* Option codes for what popt hands back to main(). */
enum {
	OPT_VERSION = 1,
	OPT_FORCE,
	OPT_NO_CLOBBER,
	OPT_INTERACTIVE,
	OPT_PRESERVE_ALL,
	OPT_PRESERVE,
	OPT_NO_PROGRESS,
};

/* Apply --preserve=LIST (NULL: all).  Returns false after reporting a bad list. */
static bool parse_preserve(struct spmove_options *o, const char *list)
{
	size_t bad, len;
	if (preserve_list(o, list, &bad, &len) == 0)
		return true;
	return cli_usage_message("invalid argument '%.*s' for '--preserve'", (int)len,
				 list + bad) == 0;
}

/* Apply --sparse=WHEN.  Returns false after reporting a bad value. */
static bool parse_sparse(struct spmove_options *o, const char *when)
{
	static const char *const names[] = { "auto", "always", "never" };
	for (unsigned i = 0; i < 3; i++) {
		if (!strcmp(when, names[i])) {
			o->sparse = (enum sparse_mode)i;
			return true;
		}
	}
	return cli_usage_message("invalid argument '%s' for '--sparse'", when) == 0;
}

/* The last component of path, without trailing slashes, into buf. */
static const char *base_name(const char *path, char *buf, size_t size)
{
	snprintf(buf, size, "%s", path);
	size_t len = strlen(buf);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
	char *slash = strrchr(buf, '/');
	return slash && slash[1] ? slash + 1 : buf;
}

/* Whether dst lies inside the directory src (or is it): copying would never end. */
static bool inside(const char *src, const char *dst)
{
	char *s = realpath(src, NULL), *d = NULL, parent[PATH_MAX], name[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", dst);
	char *slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	d = realpath(slash ? (parent[0] ? parent : "/") : ".", NULL);
	bool in = false;
	if (s && d) {
		size_t len = strlen(s);
		snprintf(name, sizeof(name), "%s/%s", d, base_name(dst, parent, sizeof(parent)));
		in = !strncmp(name, s, len) && (name[len] == '/' || name[len] == '\0');
	}
	free(s);
	free(d);
	return in;
}

/* Copy or move a directory operand.  Returns 0 or 1. */
static int do_directory(struct spmove *s, const char *src, const char *dst,
			const struct stat *st)
{
	struct stat dst_st;
	/* rename(2) would replace an empty directory: -n and -i come first. */
	if (s->o->remove_source && s->o->overwrite != OVERWRITE_YES &&
	    lstat(dst, &dst_st) == 0 &&
	    (s->o->overwrite == OVERWRITE_NO || !ask_overwrite(dst)))
		return 0;
	if (s->o->remove_source && rename(src, dst) == 0)
		return 0;
	if (s->o->remove_source && errno != EXDEV) {
		report(src, dst, errno, "cannot move");
		return 1;
	}
	if (!s->o->recursive && !s->o->remove_source) {
		report(src, dst, 0, "-r not specified; omitting directory");
		return 1;
	}
	if (inside(src, dst)) {
		report(src, dst, 0, "cannot copy a directory into itself");
		return 1;
	}
	int status = copy_tree(s, src, dst, st);
	if (!status && s->o->remove_source && !spmove_cancel)
		status = remove_tree(src, dst);
	return status;
}

/* Copy or move one operand src to dst.  Returns 0 or 1. */
static int do_operand(struct spmove *s, const char *src, const char *dst)
{
	if (!strcmp(src, "-"))
		return copy_file(s, src, dst, NULL);
	struct stat st;
	bool no_follow = s->o->recursive || s->o->remove_source;
	if ((no_follow ? lstat(src, &st) : stat(src, &st)) < 0) {
		report(src, dst, errno, "cannot stat");
		return 1;
	}
	if (S_ISDIR(st.st_mode))
		return do_directory(s, src, dst, &st);
	if (s->o->recursive)
		return copy_tree(s, src, dst, &st);
	return copy_file(s, src, dst, &st);
}

/* Run every operand into the directory dir.  Returns 0 or 1. */
static int into_directory(struct spmove *s, const char **srcs, int n, const char *dir)
{
	int status = 0;
	for (int i = 0; i < n && !spmove_cancel; i++) {
		char base[PATH_MAX], dst[PATH_MAX];
		const char *name = base_name(srcs[i], base, sizeof(base));
		if (!strcmp(srcs[i], "-")) {
			report(srcs[i], dir, 0, "cannot stream standard input into a directory");
			status = 1;
			continue;
		}
		if ((size_t)snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= sizeof(dst)) {
			report(srcs[i], dir, ENAMETOOLONG, "cannot copy");
			status = 1;
			continue;
		}
		status |= do_operand(s, srcs[i], dst);
	}
	return status;
}

/* Whether path names a directory (following symbolic links). */
static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Print --stats: the mover's line plus the paths taken and, on stealfs,
 * the pages really moved. */
static void print_stats(const struct spmove *s, const struct stealfs_counts *before,
			bool on_stealfs)
{
	char extra[512];
	size_t len = (size_t)snprintf(extra, sizeof(extra), "method %s",
				      s->o->path ? sp_path_name(s->o->path) : "auto");
	const char *sep = " (";
	for (unsigned p = SP_PATH_NONE + 1; p <= SP_PATH_SENDFILE; p++) {
		if (s->methods_used & (1u << p)) {
			len += (size_t)snprintf(extra + len, sizeof(extra) - len, "%s%s", sep,
						sp_path_name((enum sp_path)p));
			sep = ", ";
		}
	}
	if (s->methods_used)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len, ")");
	struct stealfs_counts after;
	stealfs_read(&after);
	if (before->present && after.present)
		snprintf(extra + len, sizeof(extra) - len,
			 ", stealfs: %" PRIu64 " pages moved, %" PRIu64 " pages copied",
			 after.stolen - before->stolen, after.copied - before->copied);
	else if (on_stealfs)
		snprintf(extra + len, sizeof(extra) - len,
			 ", stealfs: pages moved unknown (no counters)");
	cli_print_stats_with(sp_get_stats(s->mover), extra);
}

/* Whether the destination (dst, or its directory) is on stealfs. */
static bool dest_on_stealfs(const char *dst)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", dst);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	return stealfs_mount(dst) || stealfs_mount(slash ? (dir[0] ? dir : "/") : ".");
}

/* Run the operands.  Returns the exit status. */
static int run(struct spmove *s, const char **args, int n, const char *target_dir)
{
	if (target_dir) {
		if (n < 1)
			return cli_usage_message("missing file operand");
		if (!is_dir(target_dir)) {
			cli_error(errno, "target directory %s", quoted(target_dir));
			return 1;
		}
		return into_directory(s, args, n, target_dir);
	}
	if (n < 1)
		return cli_usage_message("missing file operand");
	if (n < 2)
		return cli_usage_message("missing destination file operand after %s",
					 quoted(args[0]));
	const char *dst = args[n - 1];
	if (is_dir(dst))
		return into_directory(s, args, n - 1, dst);
	if (n > 2) {
		cli_error(0, "target %s is not a directory", quoted(dst));
		return 1;
	}
	return do_operand(s, args[0], dst);
}

/* The strings popt allocated for string options. */
struct option_strings {
	char *method, *sparse, *target_dir, *pipe_size;
};

/* Free the popt context and the strings it handed out. */
static void finish(poptContext ctx, struct option_strings *str)
{
	free(str->method);
	free(str->sparse);
	free(str->target_dir);
	free(str->pipe_size);
	poptFreeContext(ctx);
}

int main(int argc, char **argv)
{
	cli_init("spmove");
	struct spmove_options o = { .progress = -1 };
	struct option_strings str = { NULL, NULL, NULL, NULL };
	int recursive = 0, remove_source = 0, in_place = 0, fsync_ = 0, verify = 0, stats = 0,
	    splice_move = 0, probe_ = 0, progress = 0;

	const struct poptOption table[] = {
		{ "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE,
		  "replace existing files (the default; undoes -n and -i)", NULL },
		{ "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER,
		  "do not replace existing files", NULL },
		{ "interactive", 'i', POPT_ARG_NONE, NULL, OPT_INTERACTIVE,
		  "ask before replacing existing files", NULL },
		{ NULL, 'p', POPT_ARG_NONE, NULL, OPT_PRESERVE_ALL,
		  "same as --preserve=mode,ownership,timestamps", NULL },
		{ "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PRESERVE,
		  "keep the listed attributes (default: mode,ownership,timestamps)", "LIST" },
		{ "recursive", 'r', POPT_ARG_NONE, &recursive, 0, "copy directories recursively", NULL },
		{ NULL, 'R', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, &recursive, 0, NULL, NULL },
		{ "target-directory", 't', POPT_ARG_STRING, &str.target_dir, 0,
		  "copy every SRC into DIR", "DIR" },
		{ "remove-source", '\0', POPT_ARG_NONE, &remove_source, 0,
		  "move: rename(2), or copy, make durable, then remove SRC", NULL },
		{ "in-place", '\0', POPT_ARG_NONE, &in_place, 0,
		  "write DST directly instead of through a temporary file", NULL },
		{ "sparse", '\0', POPT_ARG_STRING, &str.sparse, 0,
		  "keep holes: auto (default), always (also make holes of zeros), never", "WHEN" },
		{ "method", '\0', POPT_ARG_STRING, &str.method, 0,
		  "auto (default), splice, vmsplice, gift, rw, copy_file_range or sendfile", "NAME" },
		{ "splice-move", 'M', POPT_ARG_NONE, &splice_move, 0,
		  "pass SPLICE_F_MOVE when splicing into DST", NULL },
		{ "pipe-size", '\0', POPT_ARG_STRING, &str.pipe_size, 0,
		  "size pipes to N bytes (default 1M)", "N" },
		{ "fsync", '\0', POPT_ARG_NONE, &fsync_, 0, "make each copy durable before it replaces DST", NULL },
		{ "verify", '\0', POPT_ARG_NONE, &verify, 0, "read the copy back and compare", NULL },
		{ "progress", '\0', POPT_ARG_NONE, &progress, 0,
		  "show a progress bar on stderr (default: for large files on a terminal)", NULL },
		{ "no-progress", '\0', POPT_ARG_NONE, NULL, OPT_NO_PROGRESS, "never show one", NULL },
		{ "stats", '\0', POPT_ARG_NONE, &stats, 0,
		  "print a summary line on stderr: bytes, paths taken, pages moved", NULL },
		{ "probe", '\0', POPT_ARG_NONE, &probe_, 0,
		  "measure which methods work in DIR (default .) and whether pages move", NULL },
		{ "version", '\0', POPT_ARG_NONE, NULL, OPT_VERSION,
		  "output version information and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	poptContext ctx = poptGetContext(NULL, argc, (const char **)argv, table, 0);
	poptSetOtherOptionHelp(ctx, "[OPTION]... SRC DST\n"
			       "  or:  spmove [OPTION]... SRC... DIR\n"
			       "  or:  spmove [OPTION]... -t DIR SRC...\n"
			       "  or:  spmove --probe [DIR]\n"
			       "Copy (or with --remove-source, move) files through splice(2).\n"
			       "SRC - streams standard input into DST.");
	int rc, status = 0;
	bool ok = true;
	while (ok && (rc = poptGetNextOpt(ctx)) > 0) {
		switch (rc) {
		case OPT_VERSION:
			cli_print_version();
			finish(ctx, &str);
			return cli_close_stdout();
		case OPT_FORCE: o.overwrite = OVERWRITE_YES; break;
		case OPT_NO_CLOBBER: o.overwrite = OVERWRITE_NO; break;
		case OPT_INTERACTIVE: o.overwrite = OVERWRITE_ASK; break;
		case OPT_PRESERVE_ALL: parse_preserve(&o, NULL); break;
		case OPT_PRESERVE: {
			char *list = poptGetOptArg(ctx);
			ok = parse_preserve(&o, list);
			free(list);
			break;
		}
		case OPT_NO_PROGRESS: o.progress = 0; break;
		}
	}
	if (ok && rc < -1) {
		status = cli_usage_error(ctx, rc);
		finish(ctx, &str);
		return status;
	}
	uint64_t v = 0;
	struct sp_options mo = { .cancel = &spmove_cancel };
	if (ok && str.sparse)
		ok = parse_sparse(&o, str.sparse);
	if (ok && str.method && strcmp(str.method, "auto") && sp_path_parse(str.method, &o.path) < 0)
		ok = cli_usage_message("invalid argument '%s' for '--method'", str.method) == 0;
	if (ok && str.pipe_size && (ok = cli_size_option("pipe size", str.pipe_size, &v, INT32_MAX)) &&
	    v == 0)
		ok = cli_usage_message("invalid pipe size: '%s'", str.pipe_size) == 0;
	if (!ok) {
		finish(ctx, &str);
		return CLI_EXIT_USAGE;
	}
	o.recursive = recursive;
	o.remove_source = remove_source;
	o.in_place = in_place;
	o.fsync = fsync_;
	o.verify = verify;
	o.stats = stats;
	if (progress)
		o.progress = 1;
	/* --method=NAME prefers that path; auto leaves it to the library. */
	mo.policy = o.path ? SP_POLICY_PREFER : SP_POLICY_AUTO;
	mo.path = o.path;
	mo.pipe_size = (size_t)v;
	mo.splice_flags = splice_move ? SPLICE_F_MOVE : 0;

	const char **args = poptGetArgs(ctx);
	int n = 0;
	while (args && args[n])
		n++;
	if (probe_) {
		status = n > 1 ? cli_usage_message("--probe takes at most one directory")
			       : probe(n ? args[0] : ".");
		finish(ctx, &str);
		return status | cli_close_stdout();
	}

	struct spmove s = { .o = &o };
	s.umask = umask(0);
	umask(s.umask);
	if (o.progress == 1 || (o.progress < 0 && isatty(STDERR_FILENO))) {
		s.progress = progress_new(o.progress == 1 ? 0 : AUTO_PROGRESS_BYTES);
		mo.progress = s.progress ? progress_update : NULL;
		mo.progress_arg = s.progress;
	}
	rc = sp_mover_new(&s.mover, &mo);
	if (rc < 0) {
		cli_error(-rc, "cannot set up");
		finish(ctx, &str);
		return 1;
	}
	struct stealfs_counts before;
	stealfs_read(&before);
	const char *dest = str.target_dir ? str.target_dir : n ? args[n - 1] : NULL;
	bool on_stealfs = o.stats && dest && dest_on_stealfs(dest);

	signals_catch();
	status = run(&s, args, n, str.target_dir);
	if (o.stats)
		print_stats(&s, &before, on_stealfs);
	sp_mover_free(s.mover);
	progress_free(s.progress);
	finish(ctx, &str);
	signals_reraise();
	return status | cli_close_stdout();
}
