/* sptee: copy standard input to standard output and files, in the kernel
 * with tee(2); GNU tee's options, messages and exit statuses. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
	int status;
};

/* The long options, for expanding abbreviations as getopt_long does. */
static const char *const long_names[] = {
	"append", "ignore-interrupts", "output-error", "stats", "pipe-size",
	"no-splice", "version", "help", "usage",
};
#define LONG_COUNT (sizeof(long_names) / sizeof(long_names[0]))

/* Index of the entry of names[0..count-1] that text names: an exact match,
 * or the only one text abbreviates (len characters).  Returns the index,
 * -1 when none matches, -2 when several do. */
static int match_name(const char *const *names, size_t count, const char *text, size_t len)
{
	int found = -1;
	for (size_t i = 0; i < count; i++) {
		if (strncmp(names[i], text, len))
			continue;
		if (strlen(names[i]) == len)
			return (int)i;
		found = found == -1 ? (int)i : -2;
	}
	return found;
}

/*
 * Rewrite argv so that popt parses it as getopt_long would: expand unique
 * abbreviations of long options, and turn a bare --output-error (whose
 * argument is optional and so never the next word) into -p.  Returns false
 * when out of memory.
 */
static bool normalize_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (strncmp(a, "--", 2) || !a[2])
			continue;
		const char *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		int k = match_name(long_names, LONG_COUNT, a + 2, len);
		if (k < 0)
			continue;
		if (!strcmp(long_names[k], "output-error") && !eq) {
			argv[i] = (char *)"-p";
			continue;
		}
		char *full;
		if (asprintf(&full, "--%s%s", long_names[k], eq ? eq : "") < 0)
			return false;
		argv[i] = full;
		if (!strcmp(long_names[k], "pipe-size") && !eq)
			i++; /* its argument is the next word, whatever it looks like */
	}
	return true;
}

/* Parse an --output-error argument as GNU's argmatch does (exact names or
 * unambiguous abbreviations).  Returns true, or reports and returns false. */
static bool parse_mode(const char *arg, enum output_error *mode)
{
	int k = match_name(mode_names, MODE_COUNT, arg, strlen(arg));
	if (k >= 0) {
		*mode = (enum output_error)(MODE_WARN + k);
		return true;
	}
	cli_usage_message("%s argument '%s' for '--output-error'\n"
			  "Valid arguments are:\n  - 'warn'\n  - 'warn-nopipe'\n"
			  "  - 'exit'\n  - 'exit-nopipe'",
			  k == -2 ? "ambiguous" : "invalid", arg);
	return false;
}

/* sp_fanout()'s callback: report output i's failure as GNU tee would.
 * Returns nonzero to stop (the exit modes). */
static int on_output_error(size_t i, int err, void *arg)
{
	struct run *r = arg;
	bool quiet = err == EPIPE && (r->mode == MODE_SIGPIPE || r->mode == MODE_WARN_NOPIPE ||
				      r->mode == MODE_EXIT_NOPIPE);
	if (quiet)
		return 0;
	cli_error(err, "%s", cli_quote(r->names[i]));
	r->status = 1;
	return r->mode == MODE_EXIT || r->mode == MODE_EXIT_NOPIPE;
}

/* Keep closed standard fds closed in effect: put an O_PATH descriptor
 * there, on which every read, write, splice and tee fails with EBADF, so
 * that no file or pipe opened later lands on one.  Returns whether
 * standard input was closed. */
static bool hold_standard_fds(void)
{
	bool stdin_closed = false;
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (fd == 0)
			stdin_closed = true;
		/* The lowest free fd: this one, as the lower ones are taken. */
		if (open("/", O_PATH) < 0)
			break;
	}
	return stdin_closed;
}

/* Option codes for what popt hands back. */
enum {
	OPT_VERSION = 1,
	OPT_P,
	OPT_OUTPUT_ERROR,
};

/* What the command line asks for. */
struct config {
	enum output_error mode;
	int append, ignore_interrupts, no_splice, stats;
	size_t pipe_size;    /* 0: the library's default */
	poptContext ctx;     /* holds the operands */
};

/* Parse --pipe-size's argument into *size.  Returns true, or reports and
 * returns false. */
static bool pipe_size_option(const char *text, size_t *size)
{
	uint64_t v;
	if (!cli_size_option("pipe size", text, &v, INT32_MAX))
		return false;
	if (v == 0) {
		cli_usage_message("invalid pipe size: '%s'", text);
		return false;
	}
	*size = (size_t)v;
	return true;
}

/* Parse the command line into cfg.  Returns -1 to go on (cfg->ctx then
 * holds the operands), else the exit status to leave with. */
static int parse_command_line(int argc, char **argv, struct config *cfg)
{
	char *mode_arg = NULL, *pipe_size_arg = NULL;
	const struct poptOption table[] = {
		{ "append", 'a', POPT_ARG_NONE, &cfg->append, 0,
		  "append to the given FILEs, do not overwrite", NULL },
		{ "ignore-interrupts", 'i', POPT_ARG_NONE, &cfg->ignore_interrupts, 0,
		  "ignore interrupt signals", NULL },
		{ NULL, 'p', POPT_ARG_NONE, NULL, OPT_P,
		  "diagnose errors writing to non pipes", NULL },
		{ "output-error", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, &mode_arg,
		  OPT_OUTPUT_ERROR, "set behavior on write error: warn, warn-nopipe "
		  "(the default with no MODE), exit, exit-nopipe", "MODE" },
		{ "pipe-size", '\0', POPT_ARG_STRING, &pipe_size_arg, 0,
		  "size pipes to N bytes (default 1M, within fs.pipe-max-size)", "N" },
		{ "no-splice", '\0', POPT_ARG_NONE, &cfg->no_splice, 0,
		  "copy with read(2)/write(2) only", NULL },
		{ "stats", '\0', POPT_ARG_NONE, &cfg->stats, 0,
		  "print bytes, zero-copy share, syscalls and throughput on stderr", NULL },
		{ "version", '\0', POPT_ARG_NONE, NULL, OPT_VERSION,
		  "output version information and exit", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};

	if (!normalize_args(argc, argv)) {
		cli_error(ENOMEM, "cannot parse options");
		return 1;
	}
	cfg->ctx = poptGetContext(NULL, argc, (const char **)argv, table, 0);
	poptSetOtherOptionHelp(cfg->ctx, "[OPTION]... [FILE]...\n"
			       "Copy standard input to each FILE, and also to standard output,\n"
			       "duplicating it in the kernel with tee(2).");
	int rc, status = -1;
	while (status < 0 && (rc = poptGetNextOpt(cfg->ctx)) > 0) {
		if (rc == OPT_VERSION) {
			cli_print_version();
			status = cli_close_stdout();
		} else if (rc == OPT_P || !mode_arg) {
			cfg->mode = MODE_WARN_NOPIPE;
		} else if (!parse_mode(mode_arg, &cfg->mode)) {
			status = CLI_EXIT_USAGE;
		}
		/* popt's strings are ours to free. */
		free(mode_arg);
		mode_arg = NULL;
	}
	if (status < 0 && rc < -1)
		status = cli_usage_error(cfg->ctx, rc);
	if (status < 0 && pipe_size_arg && !pipe_size_option(pipe_size_arg, &cfg->pipe_size))
		status = CLI_EXIT_USAGE;
	free(pipe_size_arg);
	if (status >= 0)
		poptFreeContext(cfg->ctx);
	return status;
}

/* Open the outputs: standard output, then each operand ("-" is a file like
 * any other, as POSIX says).  Fills fds and names; reports the operands
 * that cannot be opened and sets r->status.  Returns the number of outputs. */
static size_t open_outputs(const char **operands, bool append, int *fds,
			   const char **names, struct run *r)
{
	size_t n = 0;
	fds[n] = STDOUT_FILENO;
	names[n++] = "standard output";
	for (; operands && *operands; operands++) {
		int fd = open(*operands, O_WRONLY | O_CREAT | O_CLOEXEC |
			      (append ? O_APPEND : O_TRUNC), 0666);
		if (fd < 0) {
			cli_error(errno, "%s", cli_quote(*operands));
			r->status = 1;
			continue;
		}
		fds[n] = fd;
		names[n++] = *operands;
	}
	return n;
}

int main(int argc, char **argv)
{
	cli_init("sptee");
	bool stdin_closed = hold_standard_fds();
	struct config cfg = { .mode = MODE_SIGPIPE };
	int status = parse_command_line(argc, argv, &cfg);
	if (status >= 0)
		return status;
	struct run run = { .mode = cfg.mode };
	struct sp_options mo = { .policy = cfg.no_splice ? SP_POLICY_ONLY : SP_POLICY_PREFER,
				 .path = cfg.no_splice ? SP_PATH_RW : SP_PATH_SPLICE,
				 .pipe_size = cfg.pipe_size };

	if (cfg.ignore_interrupts)
		signal(SIGINT, SIG_IGN);
	if (run.mode != MODE_SIGPIPE)
		signal(SIGPIPE, SIG_IGN);

	const char **operands = poptGetArgs(cfg.ctx);
	size_t max = 1;
	while (operands && operands[max - 1])
		max++;
	int *fds = calloc(max, sizeof(*fds));
	const char **names = calloc(max, sizeof(*names));
	struct sp_fanout_status *st = calloc(max, sizeof(*st));
	struct sp_mover *mover = NULL;
	int rc = -ENOMEM;
	if (!fds || !names || !st || (rc = sp_mover_new(&mover, &mo)) < 0) {
		cli_error(-rc, "cannot set up");
		return 1;
	}
	size_t n = open_outputs(operands, cfg.append, fds, names, &run);
	run.names = names;

	int64_t got = sp_fanout(mover, STDIN_FILENO, fds, n, st, on_output_error, &run);
	bool stopped = got < 0 && sp_error_side(mover) == SP_SIDE_OUTPUT;
	if (got < 0 && !stopped) {
		cli_error((int)-got, sp_error_side(mover) == SP_SIDE_INPUT ? "read error"
									: "cannot copy");
		run.status = 1;
	}
	if (cfg.stats)
		cli_print_stats(sp_get_stats(mover));
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
	poptFreeContext(cfg.ctx);
	if (stopped)
		return 1;
	if (stdin_closed || close(STDIN_FILENO) < 0) {
		cli_error(stdin_closed ? EBADF : errno, "standard input");
		return 1;
	}
	return run.status | cli_close_stdout();
}
