/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: copy and move files through splice(2) -- the command line. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argmatch.h"
#include "closeout.h"
#include "message.h"
#include "options.h"
#include "path.h"
#include "spmove.h"
#include "jsondoc.h"
#include "lazylib.h"
#include "stats.h"
#include "usage.h"
#include "version.h"

/* Copies at least this large get a progress bar when stderr is a terminal. */
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

/* Which program this is: spmove, or spcp and spmv (from argv[0]). */
static enum personality personality;

/* Option codes for what the parser hands back. */
enum {
	OPT_ARCHIVE = 1,
	OPT_BACKUP,
	OPT_BACKUP_DEFAULT,
	OPT_NO_DEREF_KEEP_LINKS,
	OPT_FORCE,
	OPT_DEREF_ARGS,
	OPT_INTERACTIVE,
	OPT_DEREF,
	OPT_NO_CLOBBER,
	OPT_NO_DEREF,
	OPT_PRESERVE_DEFAULT,
	OPT_PRESERVE,
	OPT_NO_PRESERVE,
	OPT_REFLINK,
	OPT_SUFFIX,
	OPT_UPDATE_OLDER,
	OPT_UPDATE,
	OPT_SPARSE,
	OPT_NO_PROGRESS,
	OPT_PROGRESS,
	OPT_TARGET,
	OPT_STRIP_SLASHES,
	OPT_CONTEXT,
	OPT_HELP,
	OPT_ONE_FS,
	OPT_LINK,
	OPT_PARENTS,
	OPT_KEEP_DIR_SYMLINK,
	OPT_COPY_CONTENTS,
	OPT_DEBUG,
	OPT_ATTRIBUTES_ONLY,
	OPT_SYMLINK,
	OPT_EXCHANGE,
	OPT_NO_COPY,
};

/* What the options set, before they are put together. */
struct raw_options {
	const char *method, *pipe_size, *backup_control, *suffix, *parallel;
	bool backup;
	enum ask ask_copy, ask_move; /* -i/-n last; -f/-i/-n last */
	int recursive, remove_source, in_place, fsync, verify, stats, json, splice_move, probe,
	    no_target, verbose, remove_destination, nocache;
	const char *target_dir;  /* -t DIR */
	bool strip_slashes;      /* --strip-trailing-slashes */
};

/* Apply a --preserve (on) or --no-preserve (off) list.  Returns false
 * after reporting a bad one. */
static bool apply_preserve(struct spmove_options *o, const char *list, bool on)
{
	size_t bad, len;
	unsigned keep;
	const char *context = on ? "--preserve" : "--no-preserve";
	if (preserve_list(list, &keep, &bad, &len) < 0) {
		char word[PATH_MAX];
		snprintf(word, sizeof(word), "%.*s", (int)len, list + bad);
		int unused; /* the word preserve_list() could not match: reported */
		(void)cli_argmatch(context, word, preserve_choices, PRESERVE_CHOICES, &unused);
		return false;
	}
	if (on) {
		o->keep |= keep;
		o->require_keep = true;
		o->require_xattr |= (keep & KEEP_XATTR) && keep != KEEP_ALL;
		if (keep & KEEP_MODE)
			o->no_keep_mode = false;
		return true;
	}
	o->keep &= ~keep;
	if (keep & KEEP_MODE)
		o->no_keep_mode = true;
	if (keep & KEEP_XATTR)
		o->require_xattr = false;
	return true;
}

/* Act on an option the parser handed back.  Returns false after reporting
 * a bad argument. */
static bool apply_option(struct spmove_options *o, struct raw_options *raw, int code,
			 const char *arg)
{
	static const struct cli_choice reflinks[] = {
		{ "auto", REFLINK_AUTO }, { "always", REFLINK_ALWAYS }, { "never", REFLINK_NEVER },
	};
	static const struct cli_choice updates[] = {
		{ "all", UPDATE_ALL }, { "none", UPDATE_NONE },
		{ "none-fail", UPDATE_NONE_FAIL }, { "older", UPDATE_OLDER },
	};
	static const struct cli_choice sparses[] = {
		{ "never", SPARSE_NEVER }, { "auto", SPARSE_AUTO }, { "always", SPARSE_ALWAYS },
	};
	int v;
	switch (code) {
	case OPT_ARCHIVE:
		o->deref = DEREF_NEVER;
		o->keep |= KEEP_ALL;
		o->require_keep = o->quiet_xattr = true;
		o->no_keep_mode = false;
		raw->recursive = 1;
		break;
	case OPT_BACKUP: raw->backup_control = arg; /* fall through */
	case OPT_BACKUP_DEFAULT: raw->backup = true; break;
	case OPT_NO_DEREF_KEEP_LINKS: o->keep |= KEEP_LINKS; /* fall through */
	case OPT_NO_DEREF: o->deref = DEREF_NEVER; break;
	case OPT_DEREF_ARGS: o->deref = DEREF_ARGS; break;
	case OPT_DEREF: o->deref = DEREF_ALWAYS; break;
	case OPT_FORCE: o->force = true; raw->ask_move = ASK_NEVER; break;
	case OPT_INTERACTIVE: raw->ask_copy = raw->ask_move = ASK_USER; break;
	case OPT_NO_CLOBBER: raw->ask_copy = raw->ask_move = ASK_SKIP; break;
	case OPT_PRESERVE_DEFAULT: return apply_preserve(o, "mode,ownership,timestamps", true);
	case OPT_PRESERVE: return apply_preserve(o, arg ? arg : "mode,ownership,timestamps", true);
	case OPT_NO_PRESERVE: return apply_preserve(o, arg, false);
	case OPT_REFLINK:
		v = REFLINK_ALWAYS;
		if (arg && !cli_argmatch("--reflink", arg, reflinks, 3, &v))
			return false;
		o->reflink = (enum reflink)v;
		break;
	case OPT_SUFFIX: raw->suffix = arg; raw->backup = true; break;
	case OPT_UPDATE_OLDER: o->update = UPDATE_OLDER; break;
	case OPT_UPDATE:
		v = UPDATE_OLDER;
		if (arg && !cli_argmatch("--update", arg, updates, 4, &v))
			return false;
		o->update = (enum update)v;
		break;
	case OPT_SPARSE:
		if (!cli_argmatch("--sparse", arg, sparses, 3, &v))
			return false;
		o->sparse = (enum sparse_mode)v;
		break;
	case OPT_TARGET:
		/* cp and mv take one -t (spmove, the last). */
		if (raw->target_dir && personality != PERSONALITY_SPMOVE) {
			cli_error(0, "multiple target directories specified");
			return false;
		}
		raw->target_dir = arg;
		break;
	case OPT_STRIP_SLASHES: raw->strip_slashes = true; break;
	case OPT_ONE_FS: o->one_file_system = true; break;
	case OPT_LINK: o->hard_link = true; break;
	case OPT_PARENTS: o->parents = true; break;
	case OPT_KEEP_DIR_SYMLINK: o->keep_directory_symlink = true; break;
	case OPT_COPY_CONTENTS: o->copy_contents = true; break;
	case OPT_DEBUG: o->debug = true; raw->verbose = 1; break;
	case OPT_ATTRIBUTES_ONLY: o->attributes_only = true; break;
	case OPT_SYMLINK: o->symbolic_link = true; break;
	case OPT_EXCHANGE: o->exchange = true; break;
	case OPT_NO_COPY: o->no_copy = true; break;
	case OPT_CONTEXT:
		/* As cp and mv on a kernel without SELinux: -Z does nothing,
		 * cp --context=CTX warns. */
		if (arg)
			cli_error(0, "warning: ignoring --context; it requires an SELinux-enabled "
				     "kernel");
		break;
	case OPT_HELP:
		personality_help(personality);
		exit(EXIT_SUCCESS); /* cli_init()'s exit handler checks stdout */
	case OPT_NO_PROGRESS: o->progress = 0; break;
	case OPT_PROGRESS:
		o->progress = 1;
		return cli_progress_style_parse(arg, &o->progress_style);
	}
	return true;
}

/* Put the options together as cp and mv do.  Returns 0, or CLI_EXIT_USAGE
 * after reporting a bad combination. */
static int combine_options(struct raw_options *raw, struct config *cfg)
{
	struct spmove_options *o = &cfg->o;
	o->recursive = raw->recursive;
	o->move = raw->remove_source;
	o->no_target_directory = raw->no_target;
	o->verbose = raw->verbose;
	o->remove_destination = raw->remove_destination;
	o->ask = o->move ? raw->ask_move : raw->ask_copy;
	if (o->hard_link && o->symbolic_link)
		return cli_usage_message("cannot make both hard and symbolic links");
	if (o->ask == ASK_SKIP)
		o->update = UPDATE_NONE;
	if (raw->backup &&
	    (o->update == UPDATE_NONE || o->update == UPDATE_NONE_FAIL || o->exchange))
		return o->move
			       ? cli_usage_message("cannot combine --backup with --exchange, -n, "
						   "or --update=none-fail")
			       : cli_usage_message("--backup is mutually exclusive with -n or "
						   "--update=none-fail");
	if (o->reflink == REFLINK_ALWAYS && o->sparse != SPARSE_AUTO)
		return cli_usage_message("--reflink can be used only with --sparse=auto");
	if (o->reflink == REFLINK_AUTO && o->sparse == SPARSE_NEVER)
		o->reflink = REFLINK_NEVER;
	if (raw->backup && !backup_parse(raw->backup_control, &o->backup))
		return CLI_EXIT_USAGE;
	o->suffix = backup_suffix(raw->suffix);
	if (o->keep & KEEP_CONTEXT) {
		cli_error(0, "cannot preserve security context without an SELinux-enabled kernel");
		return 1;
	}
	/* mv never follows links; cp follows them unless it copies trees. */
	if (o->move)
		o->deref = DEREF_NEVER;
	else if (o->deref == DEREF_UNSET)
		o->deref = o->recursive && !o->hard_link ? DEREF_NEVER : DEREF_ALWAYS;
	return 0;
}

/* Whether the descriptor limit is low: below 64, where the copy workers
 * stay off too (pool.c).  The mover then keeps no pipe between files, so
 * that the two descriptors it would hold are free for what comes after a
 * file's data -- a library loaded on first use (ACLs, xattrs), the
 * directory synced -- as mv, which holds no pipe, moves across file
 * systems under ulimit -n 8. */
static bool few_descriptors(void)
{
	struct rlimit r;
	return getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < 64;
}

/* --parallel=N: a count of threads, 1 or more (more than anyone could use
 * counts as the most pool.c starts).  Returns whether arg is one. */
static bool parse_threads(const char *arg, unsigned *threads)
{
	if (*arg < '0' || *arg > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long n = strtoul(arg, &end, 10);
	if (*end || n == 0)
		return false;
	*threads = errno == ERANGE || n > UINT_MAX ? UINT_MAX : (unsigned)n;
	return true;
}

/* Check the arguments in raw and fill cfg from them.  Returns 0, or
 * CLI_EXIT_USAGE after reporting a bad one. */
static int take_options(struct raw_options *raw, struct config *cfg)
{
	struct spmove_options *o = &cfg->o;
	uint64_t pipe_size = 0;
	if (raw->method && strcmp(raw->method, "auto") && sp_path_parse(raw->method, &o->path) < 0)
		return cli_usage_message("invalid argument '%s' for '--method'", raw->method);
	if (raw->pipe_size && !cli_size_option("pipe size", raw->pipe_size, &pipe_size, INT32_MAX))
		return CLI_EXIT_USAGE;
	if (raw->pipe_size && pipe_size == 0)
		return cli_usage_message("invalid pipe size: '%s'", raw->pipe_size);
	if (raw->parallel && !parse_threads(raw->parallel, &o->parallel))
		return cli_usage_message("invalid argument '%s' for '--parallel'", raw->parallel);
	int rc = combine_options(raw, cfg);
	if (rc)
		return rc;
	o->in_place = raw->in_place;
	o->dash_stdin = personality == PERSONALITY_SPMOVE;
	o->fsync = raw->fsync;
	o->verify = raw->verify;
	if (raw->json && !raw->stats && !raw->probe)
		return cli_usage_message("--json works with --stats or --probe only");
	o->stats = raw->stats;
	o->json = raw->json;
	cfg->probe = raw->probe;
	/* --method=NAME prefers that path; auto leaves it to the library, but
	 * --reflink=never rules out copy_file_range(2), which may share the
	 * blocks (btrfs, XFS): then splice(2) is preferred. */
	enum sp_path path = o->path;
	if (!path && o->reflink == REFLINK_NEVER)
		path = SP_PATH_SPLICE;
	cfg->mover = (struct sp_options){ .size = sizeof(cfg->mover), .cancel = &spmove_cancel,
					  .policy = path ? SP_POLICY_PREFER : SP_POLICY_AUTO,
					  .path = path,
					  .pipe_size = (size_t)pipe_size,
					  .splice_flags = raw->splice_move ? SPLICE_F_MOVE : 0,
					  .flags = (raw->nocache ? SP_NOCACHE : 0) |
						   (few_descriptors() ? SP_RELEASE_PIPE : 0) };
	return 0;
}

/* --strip-trailing-slashes: the trailing slashes of each SRC operand
 * (every operand but the last, or every one with -t) taken off, as cp and
 * mv do ("/" stays "/"). */
static void strip_source_slashes(struct config *cfg)
{
	int sources = cfg->target_dir ? cfg->count : cfg->count - 1;
	for (int i = 0; i < sources; i++) {
		char *name = cfg->operands[i];
		size_t len = strlen(name);
		while (len > 1 && name[len - 1] == '/')
			name[--len] = '\0';
	}
}

/* Parse the command line into cfg.  Returns 0, or CLI_EXIT_USAGE after
 * reporting a usage error. */
static int parse_command_line(int argc, char **argv, struct config *cfg)
{
	struct raw_options raw = { NULL };
	/* cp and mv print nothing unasked: spcp and spmv show no progress
	 * (they take --no-progress, spelled out, and no --progress); spmove
	 * shows it for large copies on a terminal. */
	*cfg = (struct config){ .o = { .progress = personality == PERSONALITY_SPMOVE ? -1 : 0 } };
	const struct poptOption spmove_table[] = {
		{ "archive", 'a', POPT_ARG_NONE, NULL, OPT_ARCHIVE,
		  "copy trees whole, links as links, every attribute (-dR --preserve=all)", NULL },
		{ "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_BACKUP,
		  "keep a file about to be overwritten as a backup", "CONTROL" },
		{ NULL, 'b', POPT_ARG_NONE, NULL, OPT_BACKUP_DEFAULT,
		  "--backup, with no CONTROL", NULL },
		{ NULL, 'd', POPT_ARG_NONE, NULL, OPT_NO_DEREF_KEEP_LINKS,
		  "-P and --preserve=links together", NULL },
		{ "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE,
		  "replace a destination that cannot be opened (and with --remove-source, do not ask)",
		  NULL },
		{ "interactive", 'i', POPT_ARG_NONE, NULL, OPT_INTERACTIVE,
		  "ask on the terminal before overwriting; cancels an earlier -n", NULL },
		{ NULL, 'H', POPT_ARG_NONE, NULL, OPT_DEREF_ARGS,
		  "follow a symbolic link named as SRC, not those inside a tree", NULL },
		{ "dereference", 'L', POPT_ARG_NONE, NULL, OPT_DEREF,
		  "follow each symbolic link and copy what it points to", NULL },
		{ "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER,
		  "do not replace existing files (deprecated: --update=none)", NULL },
		{ "no-dereference", 'P', POPT_ARG_NONE, NULL, OPT_NO_DEREF,
		  "copy symbolic links as links", NULL },
		{ NULL, 'p', POPT_ARG_NONE, NULL, OPT_PRESERVE_DEFAULT,
		  "keep mode, owner and times (--preserve=mode,ownership,timestamps)", NULL },
		{ "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PRESERVE,
		  "keep the listed attributes (default: mode,ownership,timestamps); also links, "
		  "xattr, all", "LIST" },
		{ "no-preserve", '\0', POPT_ARG_STRING, NULL, OPT_NO_PRESERVE,
		  "do not keep the listed attributes", "LIST" },
		{ "recursive", 'r', POPT_ARG_NONE, &raw.recursive, 0,
		  "descend into directories and copy all they hold", NULL },
		{ NULL, 'R', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, &raw.recursive, 0, NULL, NULL },
		{ "reflink", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_REFLINK,
		  "clone the data: auto (default), always, never", "WHEN" },
		{ "remove-destination", '\0', POPT_ARG_NONE, &raw.remove_destination, 0,
		  "remove each existing destination before copying", NULL },
		{ "suffix", 'S', POPT_ARG_STRING, NULL, OPT_SUFFIX,
		  "name simple backups with SUFFIX instead of '~'", "SUFFIX" },
		{ "target-directory", 't', POPT_ARG_STRING, NULL, OPT_TARGET,
		  "put the copies in DIR; every operand is a SRC", "DIR" },
		{ "no-target-directory", 'T', POPT_ARG_NONE, &raw.no_target, 0,
		  "never take DST for a directory to copy into", NULL },
		{ NULL, 'u', POPT_ARG_NONE, NULL, OPT_UPDATE_OLDER, "same as --update=older", NULL },
		{ "update", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_UPDATE,
		  "which existing files to replace: all, none, none-fail, older (default)",
		  "WHICH" },
		{ "verbose", 'v', POPT_ARG_NONE, &raw.verbose, 0, "print each file's name as it is copied", NULL },
		{ "remove-source", '\0', POPT_ARG_NONE, &raw.remove_source, 0,
		  "move, as mv: rename(2), or copy, make durable, then remove SRC", NULL },
		{ "in-place", '\0', POPT_ARG_NONE, &raw.in_place, 0,
		  "write DST directly instead of through a temporary file", NULL },
		{ "sparse", '\0', POPT_ARG_STRING, NULL, OPT_SPARSE,
		  "keep holes: auto (default), always (also make holes of zeros), never", "WHEN" },
		{ "method", '\0', POPT_ARG_STRING, &raw.method, 0,
		  "auto (default), splice, vmsplice, gift, rw, copy_file_range or sendfile", "NAME" },
		{ "splice-move", 'M', POPT_ARG_NONE, &raw.splice_move, 0,
		  "pass SPLICE_F_MOVE when splicing into DST", NULL },
		{ "pipe-size", '\0', POPT_ARG_STRING, &raw.pipe_size, 0,
		  "size pipes to N bytes (default 1M)", "N" },
		{ "nocache", '\0', POPT_ARG_NONE, &raw.nocache, 0,
		  "leave the page cache as it was: read and write regular files uncached", NULL },
		{ "fsync", '\0', POPT_ARG_NONE, &raw.fsync, 0,
		  "make each copy durable before it replaces DST", NULL },
		{ "verify", '\0', POPT_ARG_NONE, &raw.verify, 0, "read the copy back and compare", NULL },
		{ "parallel", '\0', POPT_ARG_STRING, &raw.parallel, 0,
		  "copy a tree's files with N threads at most (default: one per CPU, "
		  "once the tree is large enough)", "N" },
		{ "progress", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PROGRESS,
		  "show progress on stderr: a bar (on a terminal; by default for large copies), "
		  "or numbers (auto otherwise, or numeric)", "STYLE" },
		{ "no-progress", '\0', POPT_ARG_NONE, NULL, OPT_NO_PROGRESS, "never show one", NULL },
		{ "attributes-only", '\0', POPT_ARG_NONE, NULL, OPT_ATTRIBUTES_ONLY,
		  "copy no data, only the attributes", NULL },
		{ "copy-contents", '\0', POPT_ARG_NONE, NULL, OPT_COPY_CONTENTS,
		  "with -r, read special files as data", NULL },
		{ "debug", '\0', POPT_ARG_NONE, NULL, OPT_DEBUG,
		  "say how each file was copied (implies -v)", NULL },
		{ "keep-directory-symlink", '\0', POPT_ARG_NONE, NULL, OPT_KEEP_DIR_SYMLINK,
		  "follow a DST symbolic link to a directory", NULL },
		{ "link", 'l', POPT_ARG_NONE, NULL, OPT_LINK,
		  "make hard links instead of copies", NULL },
		{ "one-file-system", 'x', POPT_ARG_NONE, NULL, OPT_ONE_FS,
		  "stay on the file system of each SRC", NULL },
		{ "parents", '\0', POPT_ARG_NONE, NULL, OPT_PARENTS,
		  "copy SRC to DIR/SRC, its directories made", NULL },
		{ "strip-trailing-slashes", '\0', POPT_ARG_NONE, NULL, OPT_STRIP_SLASHES,
		  "take the trailing slashes off each SRC", NULL },
		{ "symbolic-link", 's', POPT_ARG_NONE, NULL, OPT_SYMLINK,
		  "make symbolic links instead of copies", NULL },
		{ "stats", '\0', POPT_ARG_NONE, &raw.stats, 0,
		  "print a summary line on stderr: bytes, paths taken, pages moved", NULL },
		{ "probe", '\0', POPT_ARG_NONE, &raw.probe, 0,
		  "measure which methods work in DIR (default .) and whether pages move", NULL },
		{ "json", '\0', POPT_ARG_NONE, &raw.json, 0,
		  "print --stats or --probe as one JSON document", NULL },
		CLI_AUTOVERSION
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	/* cp's options, in cp's order (abbreviations resolve as in GNU cp). */
	const struct poptOption cp_table[] = {
		{ "archive", 'a', POPT_ARG_NONE, NULL, OPT_ARCHIVE, NULL, NULL },
		{ "attributes-only", '\0', POPT_ARG_NONE, NULL, OPT_ATTRIBUTES_ONLY, NULL, NULL },
		{ "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_BACKUP, NULL,
		  NULL },
		{ NULL, 'b', POPT_ARG_NONE, NULL, OPT_BACKUP_DEFAULT, NULL, NULL },
		{ "copy-contents", '\0', POPT_ARG_NONE, NULL, OPT_COPY_CONTENTS, NULL, NULL },
		{ NULL, 'd', POPT_ARG_NONE, NULL, OPT_NO_DEREF_KEEP_LINKS, NULL, NULL },
		{ "debug", '\0', POPT_ARG_NONE, NULL, OPT_DEBUG, NULL, NULL },
		{ "dereference", 'L', POPT_ARG_NONE, NULL, OPT_DEREF, NULL, NULL },
		{ "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE, NULL, NULL },
		{ NULL, 'H', POPT_ARG_NONE, NULL, OPT_DEREF_ARGS, NULL, NULL },
		{ "interactive", 'i', POPT_ARG_NONE, NULL, OPT_INTERACTIVE, NULL, NULL },
		{ "link", 'l', POPT_ARG_NONE, NULL, OPT_LINK, NULL, NULL },
		{ "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER, NULL, NULL },
		{ "no-dereference", 'P', POPT_ARG_NONE, NULL, OPT_NO_DEREF, NULL, NULL },
		{ "no-preserve", '\0', POPT_ARG_STRING, NULL, OPT_NO_PRESERVE, NULL, NULL },
		{ "no-target-directory", 'T', POPT_ARG_NONE, &raw.no_target, 0, NULL, NULL },
		{ "one-file-system", 'x', POPT_ARG_NONE, NULL, OPT_ONE_FS, NULL, NULL },
		{ NULL, 'p', POPT_ARG_NONE, NULL, OPT_PRESERVE_DEFAULT, NULL, NULL },
		{ "parents", '\0', POPT_ARG_NONE, NULL, OPT_PARENTS, NULL, NULL },
		{ "path", '\0', POPT_ARG_NONE, NULL, OPT_PARENTS, NULL, NULL },
		{ "preserve", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PRESERVE,
		  NULL, NULL },
		{ "recursive", 'R', POPT_ARG_NONE, &raw.recursive, 0, NULL, NULL },
		{ NULL, 'r', POPT_ARG_NONE, &raw.recursive, 0, NULL, NULL },
		{ "remove-destination", '\0', POPT_ARG_NONE, &raw.remove_destination, 0, NULL,
		  NULL },
		{ "sparse", '\0', POPT_ARG_STRING, NULL, OPT_SPARSE, NULL, NULL },
		{ "reflink", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_REFLINK, NULL,
		  NULL },
		{ "strip-trailing-slashes", '\0', POPT_ARG_NONE, NULL, OPT_STRIP_SLASHES, NULL,
		  NULL },
		{ "suffix", 'S', POPT_ARG_STRING, NULL, OPT_SUFFIX, NULL, NULL },
		{ "symbolic-link", 's', POPT_ARG_NONE, NULL, OPT_SYMLINK, NULL, NULL },
		{ "target-directory", 't', POPT_ARG_STRING, NULL, OPT_TARGET, NULL, NULL },
		{ NULL, 'u', POPT_ARG_NONE, NULL, OPT_UPDATE_OLDER, NULL, NULL },
		{ "update", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_UPDATE, NULL,
		  NULL },
		{ "verbose", 'v', POPT_ARG_NONE, &raw.verbose, 0, NULL, NULL },
		{ "keep-directory-symlink", '\0', POPT_ARG_NONE, NULL, OPT_KEEP_DIR_SYMLINK, NULL,
		  NULL },
		{ "context", 'Z', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_CONTEXT, NULL,
		  NULL },
		{ "help", '\0', POPT_ARG_NONE, NULL, OPT_HELP, NULL, NULL },
		/* Not cp's: taken in full only (no abbreviation of cp's changes). */
		{ "no-progress", '\0', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, NULL,
		  OPT_NO_PROGRESS, NULL, NULL },
		{ "parallel", '\0', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &raw.parallel, 0,
		  NULL, NULL },
		CLI_AUTOVERSION
		POPT_TABLEEND
	};
	/* mv's options, in mv's order. */
	const struct poptOption mv_table[] = {
		{ "backup", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_BACKUP, NULL,
		  NULL },
		{ NULL, 'b', POPT_ARG_NONE, NULL, OPT_BACKUP_DEFAULT, NULL, NULL },
		{ "context", 'Z', POPT_ARG_NONE, NULL, OPT_CONTEXT, NULL, NULL },
		{ "debug", '\0', POPT_ARG_NONE, NULL, OPT_DEBUG, NULL, NULL },
		{ "exchange", '\0', POPT_ARG_NONE, NULL, OPT_EXCHANGE, NULL, NULL },
		{ "force", 'f', POPT_ARG_NONE, NULL, OPT_FORCE, NULL, NULL },
		{ "interactive", 'i', POPT_ARG_NONE, NULL, OPT_INTERACTIVE, NULL, NULL },
		{ "no-clobber", 'n', POPT_ARG_NONE, NULL, OPT_NO_CLOBBER, NULL, NULL },
		{ "no-copy", '\0', POPT_ARG_NONE, NULL, OPT_NO_COPY, NULL, NULL },
		{ "no-target-directory", 'T', POPT_ARG_NONE, &raw.no_target, 0, NULL, NULL },
		{ "strip-trailing-slashes", '\0', POPT_ARG_NONE, NULL, OPT_STRIP_SLASHES, NULL,
		  NULL },
		{ "suffix", 'S', POPT_ARG_STRING, NULL, OPT_SUFFIX, NULL, NULL },
		{ "target-directory", 't', POPT_ARG_STRING, NULL, OPT_TARGET, NULL, NULL },
		{ NULL, 'u', POPT_ARG_NONE, NULL, OPT_UPDATE_OLDER, NULL, NULL },
		{ "update", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_UPDATE, NULL,
		  NULL },
		{ "verbose", 'v', POPT_ARG_NONE, &raw.verbose, 0, NULL, NULL },
		{ "help", '\0', POPT_ARG_NONE, NULL, OPT_HELP, NULL, NULL },
		{ "no-progress", '\0', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, NULL,
		  OPT_NO_PROGRESS, NULL, NULL },
		CLI_AUTOVERSION
		POPT_TABLEEND
	};
	struct cli_options p;
	const struct poptOption *table = personality == PERSONALITY_SPCP   ? cp_table
				       : personality == PERSONALITY_SPMV ? mv_table
									 : spmove_table;
	if (personality == PERSONALITY_SPMV)
		raw.remove_source = 1;
	cli_options_start(&p, argc, argv, table, "[OPTION]... [-T] SRC DST\n"
			  "  or:  spmove [OPTION]... SRC... DIR\n"
			  "  or:  spmove [OPTION]... -t DIR SRC...\n"
			  "  or:  spmove --probe [--json] [DIR]\n"
			  "Copy (as cp), or with --remove-source move (as mv), files through splice(2).\n"
			  "SRC - streams standard input into DST.", 0);
	int rc;
	while ((rc = cli_options_next(&p)) > 0)
		if (!apply_option(&cfg->o, &raw, rc, p.arg))
			return CLI_EXIT_USAGE;
	if (rc < 0)
		return CLI_EXIT_USAGE;
	cfg->target_dir = raw.target_dir;
	cfg->operands = cli_options_operands(&p, &cfg->count);
	if (raw.strip_slashes)
		strip_source_slashes(cfg);
	return take_options(&raw, cfg);
}

/* Print --stats: the movers' figures (stats) plus the method asked for,
 * the paths taken, the copy workers and, on stealfs, the pages really
 * moved. */
static void print_stats(const struct spmove *s, const struct sp_stats *stats,
			const struct stealfs_counts *before, bool on_stealfs)
{
	char extra[512];
	/* json-c is loaded for --json only: JSON(call) is left out otherwise. */
	bool json = s->c.o->json;
#define JSON(call) (json ? (call) : 0)
	struct json_object *more = json ? json_object_new_object() : NULL;
	struct json_object *paths = json ? json_object_new_array() : NULL;
	const char *method = s->c.o->path ? sp_path_name(s->c.o->path) : "auto";
	size_t len = (size_t)snprintf(extra, sizeof(extra), "method %s", method);
	int rc = JSON(cli_json_add_text(more, "method", method));
	const char *sep = " (";
	for (unsigned p = SP_PATH_NONE + 1; p <= SP_PATH_SENDFILE; p++) {
		if (s->c.methods_used & (1u << p)) {
			const char *name = sp_path_name((enum sp_path)p);
			len += (size_t)snprintf(extra + len, sizeof(extra) - len, "%s%s", sep, name);
			rc |= paths ? json_object_array_add(paths, json_object_new_string(name)) : 0;
			sep = ", ";
		}
	}
	rc |= JSON(cli_json_add(more, "paths", paths));
	if (s->c.methods_used)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len, ")");
	/* Bytes vmspliced count as never entering user memory on their way
	 * out of it; on a kernel whose vmsplice copies, say that they did. */
	if (s->c.methods_used & (1u << SP_PATH_VMSPLICE | 1u << SP_PATH_GIFT)) {
		int copies = vmsplice_copies();
		if (copies > 0)
			len += (size_t)snprintf(extra + len, sizeof(extra) - len,
						", note: this kernel's vmsplice copies the pages "
						"(no zero copy on the vmsplice and gift paths)");
		rc |= JSON(copies < 0 ? cli_json_add(more, "vmsplice_copies", NULL)
				      : cli_json_add_bool(more, "vmsplice_copies", copies));
	}
	/* What was picked for this machine: workers beside the walker, which
	 * copies files handed over too (pool.c). */
	uint64_t handed = s->c.handed_copied + s->workers_copied;
	len += (size_t)snprintf(extra + len, sizeof(extra) - len, ", %u copy workers (%u possible)",
				s->workers_used, pool_worker_count(s->c.o));
	if (s->workers_used)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len,
					", started after %" PRIu64 " files, and the walker, which"
					" copied %" PRIu64 " of the %" PRIu64 " files handed over",
					s->copied_alone, s->c.handed_copied, handed);
	rc |= JSON(cli_json_add_u64(more, "workers", s->workers_used));
	rc |= JSON(cli_json_add_u64(more, "workers_possible", pool_worker_count(s->c.o)));
	rc |= JSON(cli_json_add_u64(more, "handed_over", handed));
	rc |= JSON(cli_json_add_u64(more, "walker_copied", s->c.handed_copied));
	rc |= JSON(s->workers_used ? cli_json_add_u64(more, "copied_alone", s->copied_alone)
				   : cli_json_add(more, "copied_alone", NULL));
	/* Replaced files made durable together (batch.c). */
	uint64_t barriers, batched;
	batch_counts(s->batch, &barriers, &batched);
	if (barriers)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len,
					", %" PRIu64 " replaced files made durable by %" PRIu64
					" syncfs", batched, barriers);
	rc |= JSON(cli_json_add_u64(more, "batched_files", batched));
	rc |= JSON(cli_json_add_u64(more, "batch_barriers", barriers));
	/* Existing files that held their source's bytes already (copy.c). */
	uint64_t unchanged = atomic_load(&s->same.found);
	if (unchanged)
		len += (size_t)snprintf(extra + len, sizeof(extra) - len,
					", %" PRIu64 " files found unchanged", unchanged);
	rc |= JSON(cli_json_add_u64(more, "unchanged", unchanged));
	struct stealfs_counts after;
	stealfs_read(&after);
	struct json_object *stealfs = NULL;
	if (before->present && after.present) {
		snprintf(extra + len, sizeof(extra) - len,
			 ", stealfs: %" PRIu64 " pages moved, %" PRIu64 " pages copied",
			 after.stolen - before->stolen, after.copied - before->copied);
		stealfs = json ? json_object_new_object() : NULL;
		rc |= JSON(cli_json_add_u64(stealfs, "pages_moved", after.stolen - before->stolen));
		rc |= JSON(cli_json_add_u64(stealfs, "pages_copied", after.copied - before->copied));
	} else if (on_stealfs) {
		snprintf(extra + len, sizeof(extra) - len,
			 ", stealfs: pages moved unknown (no counters)");
	}
	if (stealfs || on_stealfs)
		rc |= JSON(cli_json_add(more, "stealfs", stealfs));
	if (rc && s->c.o->json) {
		json_object_put(more);
		more = NULL;
	}
	cli_print_stats(stats, json, extra, more);
#undef JSON
}

/* Whether the destination (dst, or its directory) is on stealfs. */
static bool dest_on_stealfs(const char *dst)
{
	char buf[PATH_MAX];
	const char *dir, *base;
	return stealfs_mount(dst) ||
	       (path_split(dst, buf, sizeof(buf), &dir, &base) == 0 && stealfs_mount(dir));
}

/* Start --progress when asked, or on a terminal for a copy of at least
 * AUTO_PROGRESS_BYTES, with the whole run's total: s->c.progress, and the
 * mover's callback in cfg.  A display that cannot start is left out. */
static void start_progress(struct spmove *s, struct config *cfg)
{
	bool asked = cfg->o.progress == 1;
	if (!asked && !(cfg->o.progress < 0 && isatty(STDERR_FILENO)))
		return;
	int n = cfg->target_dir ? cfg->count : cfg->count - 1;
	const char *dest = cfg->target_dir ? cfg->target_dir
			 : cfg->count ? cfg->operands[cfg->count - 1] : ".";
	uint64_t total = n > 0 ? progress_total(&cfg->o, cfg->operands, n, dest) : 0;
	if (!asked && total < AUTO_PROGRESS_BYTES)
		return;
	if (cli_progress_start(&s->c.progress, asked ? cfg->o.progress_style : CLI_PROGRESS_BAR,
			       total) < 0)
		return;
	cfg->mover.progress = cli_progress_update;
	cfg->mover.progress_arg = s->c.progress;
}

/* The run itself, once s has its mover: the operands, the workers waited
 * for, the statistics; the mover freed.  Returns the exit status. */
static int run_with_mover(struct spmove *s, struct config *cfg)
{
	struct stealfs_counts before;
	stealfs_read(&before);
	const char *dest = cfg->target_dir ? cfg->target_dir
			 : cfg->count ? cfg->operands[cfg->count - 1] : NULL;
	bool on_stealfs = cfg->o.stats && dest && dest_on_stealfs(dest);

	signals_catch();
	int status = run_operands(s, cfg->operands, cfg->count, cfg->target_dir);
	status |= pool_wait(s);
	status |= batch_commit(s->batch);
	struct sp_stats stats = { .size = sizeof(stats) };
	sp_get_stats(s->c.mover, &stats);
	pool_stop(s, &stats);
	cli_progress_finish(s->c.progress);
	if (cfg->o.stats)
		print_stats(s, &stats, &before, on_stealfs);
	sp_mover_free(s->c.mover);
	return status;
}

/* Copy (or move) the operands as cfg says.  Returns the exit status. */
static int copy_or_move(struct config *cfg)
{
	cfg->o.root = geteuid() == 0;
	cfg->o.umask = umask(0);
	umask(cfg->o.umask);
	cfg->o.mover = &cfg->mover;
	struct spmove s = { .c = { .o = &cfg->o }, .sources = seen_new(), .created = seen_new(),
			    .copies = seen_new(), .moved_dirs = seen_new(), .batch = batch_new() };
	s.c.same = &s.same;
	start_progress(&s, cfg);
	/* Under a low descriptor limit, the libraries that keep ACLs and
	 * extended attributes are loaded before the run holds its
	 * descriptors, when it will keep them (a move, -p, -a): loaded on
	 * first use deep in a tree, the loader may find none free. */
	if (few_descriptors() && (cfg->o.move || (cfg->o.keep & (KEEP_MODE | KEEP_XATTR)))) {
		lazy_acl_load_early();
		if (cfg->o.move || (cfg->o.keep & KEEP_XATTR))
			lazy_attr_load_early();
	}
	int rc = s.sources && s.created && s.copies && s.moved_dirs
		 ? sp_mover_new(&s.c.mover, &cfg->mover) : -ENOMEM;
	int status = 1;
	if (rc < 0) {
		cli_error(-rc, "cannot set up");
		cli_progress_finish(s.c.progress);
	} else {
		status = run_with_mover(&s, cfg);
	}
	seen_free(s.sources);
	seen_free(s.created);
	seen_free(s.copies);
	seen_free(s.moved_dirs);
	batch_free(s.batch);
	signals_reraise();
	return status;
}

int main(int argc, char **argv)
{
	cli_hold_standard_fds();
	const char *name = cli_name_from(argc > 0 ? argv[0] : NULL, "spmove");
	personality = personality_of(name);
	cli_init(name);
	struct config cfg;
	int status = parse_command_line(argc, argv, &cfg);
	if (status == 0 && cfg.probe)
		status = cfg.count > 1 ? cli_usage_message("--probe takes at most one directory")
				       : probe(cfg.count ? cfg.operands[0] : ".", cfg.o.json);
	else if (status == 0)
		status = copy_or_move(&cfg);
	return status | cli_close_stdout();
}
