/* spmove: copy and move files through splice(2) -- the command line. */
#include "config.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "message.h"
#include "options.h"
#include "path.h"
#include "spmove.h"
#include "stats.h"
#include "usage.h"
#include "version.h"

/* Files at least this large get a progress bar when stderr is a terminal. */
#define AUTO_PROGRESS_BYTES (64u << 20)

/* What the command line asks for. */
struct config {
	struct spmove_options o;
	struct sp_options mover;
	const char *target_dir;  /* -t DIR, or NULL */
	bool probe;              /* --probe */
	char **operands;         /* NULL-terminated */
	int count;               /* how many */
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

/* Option codes for what the parser hands back. */
enum {
	OPT_FORCE = 1,
	OPT_NO_CLOBBER,
	OPT_INTERACTIVE,
	OPT_PRESERVE_ALL,
	OPT_PRESERVE,
	OPT_NO_PROGRESS,
};

/* Act on an option the parser handed back.  Returns false after reporting
 * a bad argument. */
static bool apply_option(struct spmove_options *o, int code, const char *arg)
{
	switch (code) {
	case OPT_FORCE: o->overwrite = OVERWRITE_YES; break;
	case OPT_NO_CLOBBER: o->overwrite = OVERWRITE_NO; break;
	case OPT_INTERACTIVE: o->overwrite = OVERWRITE_ASK; break;
	case OPT_PRESERVE_ALL: return parse_preserve(o, NULL);
	case OPT_PRESERVE: return parse_preserve(o, arg);
	case OPT_NO_PROGRESS: o->progress = 0; break;
	}
	return true;
}

/* The string arguments and flags of the command line, as the parser
 * stores them. */
struct raw_options {
	const char *method, *sparse, *pipe_size;
	int recursive, remove_source, in_place, fsync, verify, stats, splice_move, probe,
	    progress;
};

/* Check the arguments in raw and fill cfg from them.  Returns 0, or
 * CLI_EXIT_USAGE after reporting a bad one. */
static int take_options(const struct raw_options *raw, struct config *cfg)
{
	struct spmove_options *o = &cfg->o;
	uint64_t pipe_size = 0;
	if (raw->sparse && !parse_sparse(o, raw->sparse))
		return CLI_EXIT_USAGE;
	if (raw->method && strcmp(raw->method, "auto") && sp_path_parse(raw->method, &o->path) < 0)
		return cli_usage_message("invalid argument '%s' for '--method'", raw->method);
	if (raw->pipe_size && !cli_size_option("pipe size", raw->pipe_size, &pipe_size, INT32_MAX))
		return CLI_EXIT_USAGE;
	if (raw->pipe_size && pipe_size == 0)
		return cli_usage_message("invalid pipe size: '%s'", raw->pipe_size);
	o->recursive = raw->recursive;
	o->remove_source = raw->remove_source;
	o->in_place = raw->in_place;
	o->fsync = raw->fsync;
	o->verify = raw->verify;
	o->stats = raw->stats;
	if (raw->progress)
		o->progress = 1;
	cfg->probe = raw->probe;
	/* --method=NAME prefers that path; auto leaves it to the library. */
	cfg->mover = (struct sp_options){ .cancel = &spmove_cancel,
					  .policy = o->path ? SP_POLICY_PREFER : SP_POLICY_AUTO,
					  .path = o->path,
					  .pipe_size = (size_t)pipe_size,
					  .splice_flags = raw->splice_move ? SPLICE_F_MOVE : 0 };
	return 0;
}

/* Parse the command line into cfg.  Returns 0, or CLI_EXIT_USAGE after
 * reporting a usage error. */
static int parse_command_line(int argc, char **argv, struct config *cfg)
{
	struct raw_options raw = { NULL };
	*cfg = (struct config){ .o = { .progress = -1 } };
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
		{ "recursive", 'r', POPT_ARG_NONE, &raw.recursive, 0,
		  "copy directories recursively", NULL },
		{ NULL, 'R', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, &raw.recursive, 0, NULL, NULL },
		{ "target-directory", 't', POPT_ARG_STRING, &cfg->target_dir, 0,
		  "copy every SRC into DIR", "DIR" },
		{ "remove-source", '\0', POPT_ARG_NONE, &raw.remove_source, 0,
		  "move: rename(2), or copy, make durable, then remove SRC", NULL },
		{ "in-place", '\0', POPT_ARG_NONE, &raw.in_place, 0,
		  "write DST directly instead of through a temporary file", NULL },
		{ "sparse", '\0', POPT_ARG_STRING, &raw.sparse, 0,
		  "keep holes: auto (default), always (also make holes of zeros), never", "WHEN" },
		{ "method", '\0', POPT_ARG_STRING, &raw.method, 0,
		  "auto (default), splice, vmsplice, gift, rw, copy_file_range or sendfile", "NAME" },
		{ "splice-move", 'M', POPT_ARG_NONE, &raw.splice_move, 0,
		  "pass SPLICE_F_MOVE when splicing into DST", NULL },
		{ "pipe-size", '\0', POPT_ARG_STRING, &raw.pipe_size, 0,
		  "size pipes to N bytes (default 1M)", "N" },
		{ "fsync", '\0', POPT_ARG_NONE, &raw.fsync, 0,
		  "make each copy durable before it replaces DST", NULL },
		{ "verify", '\0', POPT_ARG_NONE, &raw.verify, 0, "read the copy back and compare", NULL },
		{ "progress", '\0', POPT_ARG_NONE, &raw.progress, 0,
		  "show a progress bar on stderr (default: for large files on a terminal)", NULL },
		{ "no-progress", '\0', POPT_ARG_NONE, NULL, OPT_NO_PROGRESS, "never show one", NULL },
		{ "stats", '\0', POPT_ARG_NONE, &raw.stats, 0,
		  "print a summary line on stderr: bytes, paths taken, pages moved", NULL },
		{ "probe", '\0', POPT_ARG_NONE, &raw.probe, 0,
		  "measure which methods work in DIR (default .) and whether pages move", NULL },
		CLI_AUTOVERSION
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct cli_options p;
	cli_options_start(&p, argc, argv, table, "[OPTION]... SRC DST\n"
			  "  or:  spmove [OPTION]... SRC... DIR\n"
			  "  or:  spmove [OPTION]... -t DIR SRC...\n"
			  "  or:  spmove --probe [DIR]\n"
			  "Copy (or with --remove-source, move) files through splice(2).\n"
			  "SRC - streams standard input into DST.", 0);
	int rc;
	while ((rc = cli_options_next(&p)) > 0)
		if (!apply_option(&cfg->o, rc, p.arg))
			return CLI_EXIT_USAGE;
	if (rc < 0)
		return CLI_EXIT_USAGE;
	cfg->operands = cli_options_operands(&p, &cfg->count);
	return take_options(&raw, cfg);
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
	char buf[PATH_MAX];
	const char *dir, *base;
	return stealfs_mount(dst) ||
	       (path_split(dst, buf, sizeof(buf), &dir, &base) == 0 && stealfs_mount(dir));
}

/* Copy (or move) the operands as cfg says.  Returns the exit status. */
static int run(struct config *cfg)
{
	struct spmove s = { .o = &cfg->o };
	s.umask = umask(0);
	umask(s.umask);
	if (cfg->o.progress == 1 || (cfg->o.progress < 0 && isatty(STDERR_FILENO))) {
		s.progress = progress_new(cfg->o.progress == 1 ? 0 : AUTO_PROGRESS_BYTES);
		cfg->mover.progress = s.progress ? progress_update : NULL;
		cfg->mover.progress_arg = s.progress;
	}
	int rc = sp_mover_new(&s.mover, &cfg->mover);
	if (rc < 0) {
		cli_error(-rc, "cannot set up");
		progress_free(s.progress);
		return 1;
	}
	struct stealfs_counts before;
	stealfs_read(&before);
	const char *dest = cfg->target_dir ? cfg->target_dir
			 : cfg->count ? cfg->operands[cfg->count - 1] : NULL;
	bool on_stealfs = cfg->o.stats && dest && dest_on_stealfs(dest);

	signals_catch();
	int status = run_operands(&s, cfg->operands, cfg->count, cfg->target_dir);
	if (cfg->o.stats)
		print_stats(&s, &before, on_stealfs);
	sp_mover_free(s.mover);
	progress_free(s.progress);
	signals_reraise();
	return status;
}

int main(int argc, char **argv)
{
	cli_init("spmove");
	struct config cfg;
	int status = parse_command_line(argc, argv, &cfg);
	if (status == 0 && cfg.probe)
		status = cfg.count > 1 ? cli_usage_message("--probe takes at most one directory")
				       : probe(cfg.count ? cfg.operands[0] : ".");
	else if (status == 0)
		status = run(&cfg);
	return status | cli_close_stdout();
}
