/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sptee: copy standard input to standard output and files, in the kernel
 * with tee(2); GNU tee's options, messages and exit statuses. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "libsplice.h"
#include "message.h"
#include "options.h"
#include "pipewatch.h"
#include "progress.h"
#include "quote.h"
#include "stats.h"
#include "stdfds.h"
#include "usage.h"
#include "version.h"

/* What to do when writing to an output fails (GNU tee's --output-error). */
enum output_error {
	MODE_SIGPIPE,     /* no -p: SIGPIPE kills; other errors are reported */
	MODE_WARN,        /* report every error, go on */
	MODE_WARN_NOPIPE, /* report every error but EPIPE, go on */
	MODE_EXIT,        /* report the first error and exit */
	MODE_EXIT_NOPIPE, /* likewise, but drop EPIPE outputs quietly */
};

/* The --output-error arguments, in the order of enum output_error from MODE_WARN. */
static const char *const mode_names[] = { "warn", "warn-nopipe", "exit", "exit-nopipe" };
#define MODE_COUNT (sizeof(mode_names) / sizeof(mode_names[0]))

/* What the output error callback needs. */
struct run {
	enum output_error mode;
	const char **names;  /* names[i] for messages about output i */
	struct pipe_watch *watch; /* told of each output dropped; may be NULL */
	int status;
};

/* Index of the --output-error MODE that arg names: an exact name, or the
 * only one it abbreviates (as GNU's argmatch reads it).  Returns the index
 * in mode_names, -EINVAL when none matches, -ENOTUNIQ when several do
 * (an empty one abbreviates them all). */
static int match_mode(const char *arg)
{
	size_t len = strlen(arg);
	int found = -EINVAL;
	for (size_t i = 0; i < MODE_COUNT; i++) {
		if (strncmp(mode_names[i], arg, len))
			continue;
		if (!mode_names[i][len])
			return (int)i;
		found = found == -EINVAL ? (int)i : -ENOTUNIQ;
	}
	return found;
}

/* Parse an --output-error argument (NULL: none given, warn-nopipe).
 * Returns true, or reports and returns false. */
static bool parse_mode(const char *arg, enum output_error *mode)
{
	int k = arg ? match_mode(arg) : MODE_WARN_NOPIPE - MODE_WARN;
	if (k >= 0) {
		*mode = (enum output_error)(MODE_WARN + k);
		return true;
	}
	cli_usage_message("%s argument '%s' for '--output-error'\n"
			  "Valid arguments are:\n  - 'warn'\n  - 'warn-nopipe'\n"
			  "  - 'exit'\n  - 'exit-nopipe'",
			  k == -ENOTUNIQ ? "ambiguous" : "invalid", arg);
	return false;
}

/* Whether the --output-error mode ends the run at the first output error. */
static bool exit_mode(enum output_error mode)
{
	return mode == MODE_EXIT || mode == MODE_EXIT_NOPIPE;
}

/* sp_fanout()'s callback: report output i's failure as GNU tee would.
 * Returns nonzero to stop (the exit modes). */
static int on_output_error(size_t i, int err, void *arg)
{
	struct run *r = arg;
	pipe_watch_dropped(r->watch, i);
	bool quiet = err == EPIPE && (r->mode == MODE_SIGPIPE || r->mode == MODE_WARN_NOPIPE ||
				      r->mode == MODE_EXIT_NOPIPE);
	if (quiet)
		return 0;
	cli_error(err, "%s", cli_quote(r->names[i]));
	r->status = 1;
	return exit_mode(r->mode);
}

/* What the command line asks for. */
struct config {
	enum output_error mode;
	int append, ignore_interrupts, no_splice, nocache, stats, json;
	int progress;        /* -1 without --progress, else its style */
	size_t pipe_size;    /* 0: the library's default */
	char **operands;     /* the files, NULL-terminated */
	int count;           /* how many */
};

/* Option codes for what the parser hands back. */
enum {
	OPT_P = 1,
	OPT_OUTPUT_ERROR,
	OPT_PROGRESS,
};

/* Parse the command line into cfg.  Returns 0, or CLI_EXIT_USAGE after
 * reporting a usage error. */
static int parse_command_line(int argc, char **argv, struct config *cfg)
{
	const char *pipe_size_arg = NULL;
	const struct poptOption table[] = {
		{ "append", 'a', POPT_ARG_NONE, &cfg->append, 0,
		  "add to the end of each FILE instead of emptying it first", NULL },
		{ "ignore-interrupts", 'i', POPT_ARG_NONE, &cfg->ignore_interrupts, 0,
		  "carry on when SIGINT arrives", NULL },
		{ NULL, 'p', POPT_ARG_NONE, NULL, OPT_P,
		  "as --output-error with no MODE (warn-nopipe)", NULL },
		{ "output-error", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
		  OPT_OUTPUT_ERROR, "what a failed write does: warn, warn-nopipe (MODE's "
		  "default), exit, exit-nopipe", "MODE" },
		{ "pipe-size", '\0', POPT_ARG_STRING, &pipe_size_arg, 0,
		  "size pipes to N bytes (default 1M, within fs.pipe-max-size)", "N" },
		{ "no-splice", '\0', POPT_ARG_NONE, &cfg->no_splice, 0,
		  "copy with read(2)/write(2) only", NULL },
		{ "nocache", '\0', POPT_ARG_NONE, &cfg->nocache, 0,
		  "leave the page cache as it was: write the FILEs uncached", NULL },
		{ "stats", '\0', POPT_ARG_NONE, &cfg->stats, 0,
		  "print bytes, in-kernel share, syscalls and throughput on stderr", NULL },
		{ "json", '\0', POPT_ARG_NONE, &cfg->json, 0, "print --stats as one JSON object",
		  NULL },
		{ "progress", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PROGRESS,
		  "show progress on stderr: a bar on a terminal, else numbers as pv -n "
		  "(STYLE: auto, bar, numeric)", "STYLE" },
		CLI_AUTOVERSION
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct cli_options p;
	cli_options_start(&p, argc, argv, table, "[OPTION]... [FILE]...\n"
			  "Write what arrives on standard input to standard output and to every\n"
			  "FILE, the kernel duplicating it with tee(2).", 0);
	int rc;
	while ((rc = cli_options_next(&p)) > 0) {
		bool good = rc == OPT_PROGRESS ? cli_progress_style_parse(p.arg, &cfg->progress)
						: parse_mode(rc == OPT_P ? NULL : p.arg, &cfg->mode);
		if (!good)
			return CLI_EXIT_USAGE;
	}
	if (rc < 0)
		return CLI_EXIT_USAGE;
	if (cfg->json && !cfg->stats)
		return cli_usage_message("--json works with --stats only");
	if (pipe_size_arg) {
		uint64_t v;
		if (!cli_size_option("pipe size", pipe_size_arg, &v, INT32_MAX))
			return CLI_EXIT_USAGE;
		if (v == 0)
			return cli_usage_message("invalid pipe size: '%s'", pipe_size_arg);
		cfg->pipe_size = (size_t)v;
	}
	cfg->operands = cli_options_operands(&p, &cfg->count);
	return 0;
}

/* Open the outputs: standard output, then each operand ("-" is a file like
 * any other, as POSIX says).  Fills fds and names; reports the operands
 * that cannot be opened and sets r->status.  Returns the number of outputs,
 * or 0 when an exit mode ends the run at an operand that cannot be opened
 * (as GNU tee, before copying anything). */
static size_t open_outputs(char **operands, bool append, int *fds, const char **names,
			   struct run *r)
{
	size_t n = 0;
	fds[n] = STDOUT_FILENO;
	names[n++] = "standard output";
	for (; *operands; operands++) {
		int fd;
		/* Again after a signal whose handler returned while a FIFO
		 * without a reader held the open up: as the kernel does
		 * without a handler, and GNU tee says nothing then. */
		while ((fd = open(*operands, O_WRONLY | O_CREAT | O_CLOEXEC |
				  (append ? O_APPEND : O_TRUNC), 0666)) < 0 && errno == EINTR)
			;
		if (fd < 0) {
			cli_error(errno, "%s", cli_quote(*operands));
			r->status = 1;
			if (exit_mode(r->mode))
				return 0;
			continue;
		}
		fds[n] = fd;
		names[n++] = *operands;
	}
	return n;
}

/* Whether to end the copy when every output left is a broken pipe, even
 * while standard input is idle: in the modes that drop broken pipes
 * quietly, when the input can be idle at all (GNU tee's pipe_check). */
static bool watch_pipes(enum output_error mode)
{
	struct stat st;
	bool always_ready = fstat(STDIN_FILENO, &st) == 0 &&
			    (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode));
	return (mode == MODE_WARN_NOPIPE || mode == MODE_EXIT_NOPIPE) && !always_ready;
}

/* Copy standard input to the n outputs fds (names in r).  Returns whether
 * an exit mode stopped the copy at an output error; other failures are
 * reported and set r->status. */
static bool copy(struct sp_mover *mover, const int *fds, size_t n,
		 struct sp_fanout_status *st, struct run *r, volatile sig_atomic_t *cancel)
{
	/* Without a watch (it could not be started) a broken pipe is only
	 * noticed at the next write, as in GNU tee without -p. */
	if (watch_pipes(r->mode))
		pipe_watch_start(&r->watch, fds, n, cancel);
	struct sp_result res = { .size = sizeof(res) };
	int64_t got = sp_fanout(mover, STDIN_FILENO, fds, n, st, sizeof(*st), on_output_error, r,
				&res);
	if (pipe_watch_stop(r->watch) && got == -ECANCELED)
		return false; /* every output left was a broken pipe: the copy is over */
	if (got >= 0)
		return false;
	if (res.side == SP_SIDE_OUTPUT)
		return true;
	/* The copy's own memory, not the input's nor an output's. */
	if (got == -ENOMEM && res.side == SP_SIDE_NONE)
		cli_error(0, "memory exhausted");
	else
		cli_error((int)-got, res.side == SP_SIDE_INPUT ? "read error" : "cannot copy");
	r->status = 1;
	return false;
}

/* What the progress callback reads: the display and the outputs' counts,
 * the furthest of which is how much of the input was handed on. */
struct tee_progress {
	struct cli_progress *shown;
	const struct sp_fanout_status *st;
	size_t n;
};

/* The libsplice progress callback (arg: a struct tee_progress): the
 * input's bytes copied so far.  Returns 0. */
static int tee_progress_update(const struct sp_stats *stats, void *arg)
{
	const struct tee_progress *tp = arg;
	uint64_t done = 0;
	(void)stats; /* its bytes count every output's */
	for (size_t i = 0; i < tp->n; i++)
		if (tp->st[i].bytes > done)
			done = tp->st[i].bytes;
	cli_progress_set(tp->shown, done);
	return 0;
}

/* The bytes of standard input from its position on, when it is a regular
 * file; 0 (not known) otherwise. */
static uint64_t input_bytes(void)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) < 0)
		return 0;
	return cli_progress_file_bytes(&st, lseek(STDIN_FILENO, 0, SEEK_CUR), SP_LENGTH_EOF);
}

/* Copy standard input to standard output and the files, then close them.
 * Returns the exit status. */
static int tee_input(const struct config *cfg, bool stdin_closed)
{
	struct run run = { .mode = cfg->mode };
	static volatile sig_atomic_t cancel;
	struct sp_options mo = { .size = sizeof(mo),
				 .policy = cfg->no_splice ? SP_POLICY_ONLY : SP_POLICY_PREFER,
				 .path = cfg->no_splice ? SP_PATH_RW : SP_PATH_SPLICE,
				 .pipe_size = cfg->pipe_size, .cancel = &cancel,
				 .flags = cfg->nocache ? SP_NOCACHE : 0 };
	if (cfg->ignore_interrupts)
		signal(SIGINT, SIG_IGN);
	if (run.mode != MODE_SIGPIPE)
		signal(SIGPIPE, SIG_IGN);

	size_t max = (size_t)cfg->count + 1;
	int *fds = calloc(max, sizeof(*fds));
	const char **names = calloc(max, sizeof(*names));
	struct sp_fanout_status *st = calloc(max, sizeof(*st));
	struct sp_mover *mover = NULL;
	struct tee_progress tp = { .st = st };
	if (st && cfg->progress >= 0 &&
	    cli_progress_start(&tp.shown, (enum cli_progress_style)cfg->progress,
			       input_bytes()) == 0) {
		mo.progress = tee_progress_update;
		mo.progress_arg = &tp;
	}
	int rc = -ENOMEM;
	if (!fds || !names || !st || (rc = sp_mover_new(&mover, &mo)) < 0) {
		if (rc == -ENOMEM)
			cli_error(0, "memory exhausted");
		else
			cli_error(-rc, "cannot set up");
		cli_progress_finish(tp.shown);
		return 1;
	}
	size_t n = open_outputs(cfg->operands, cfg->append, fds, names, &run);
	run.names = names;
	tp.n = n;
	bool stopped = n == 0 || copy(mover, fds, n, st, &run, &cancel);
	cli_progress_finish(tp.shown);
	struct sp_stats stats = { .size = sizeof(stats) };
	if (cfg->stats && sp_get_stats(mover, &stats) == 0)
		cli_print_stats(&stats, cfg->json, NULL, NULL);
	sp_mover_free(mover);

	/* Close the files that are still live, unless an exit mode stopped the
	 * copy: then, as GNU tee, leave at once.  Standard output goes last. */
	for (size_t i = 1; i < n && !stopped; i++) {
		if (close(fds[i]) < 0 && !st[i].error) {
			cli_error(errno, "%s", cli_quote(names[i]));
			run.status = 1;
		}
	}
	free(fds);
	free(names);
	free(st);
	if (stopped)
		return 1;
	if (stdin_closed || close(STDIN_FILENO) < 0) {
		cli_error(stdin_closed ? EBADF : errno, "standard input");
		return 1;
	}
	return run.status | cli_close_stdout();
}

int main(int argc, char **argv)
{
	bool stdin_closed = cli_hold_standard_fds() & CLI_STDIN_CLOSED;
	cli_init(cli_name_from(argc > 0 ? argv[0] : NULL, "sptee"));
	struct config cfg = { .mode = MODE_SIGPIPE, .progress = -1 };
	int status = parse_command_line(argc, argv, &cfg);
	return status ? status : tee_input(&cfg, stdin_closed);
}
