/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: what BSD process accounting does when its filesystem goes away.
 * The command line: acctpin run | race | dump. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acctpin.h"
#include "closeout.h"
#include "lazylib.h"
#include "message.h"
#include "options.h"
#include "quote.h"
#include "usage.h"
#include "version.h"

/* Seconds without progress before the watchdog calls it a hang, by default. */
enum { HANG_SECONDS = 30 };

static const char overview[] =
	"Usage: acctpin run [--scenario NAME]... [--fs tmpfs|ext4|existing] [--dir DIR]\n"
	"                   [--acct-file FILE --allow-foreign] [--expect linux|bsd]\n"
	"                   [--size N] [--watchdog S] [--json]\n"
	"  or:  acctpin race [--threads N] [--seconds S] [--iterations N] [--fs ...] [--dir DIR]\n"
	"                    [--size N] [--watchdog S] [--json]\n"
	"  or:  acctpin dump [--json] FILE...\n"
	"Show what BSD process accounting does when the filesystem holding its file is\n"
	"unmounted (run), hammer the races (race), decode accounting files (dump).\n"
	"Try 'acctpin COMMAND --help' for a command's options.\n";

/* Options both run and race take: where the scratch filesystems come
 * from, and the watchdog. */
struct fs_args {
	const char *fs, *dir, *size, *watchdog;
};
static struct fs_args fa;
static const struct poptOption fs_table[] = {
	{ "fs", '\0', POPT_ARG_STRING, &fa.fs, 0,
	  "scratch filesystem: tmpfs (default), ext4 (loop device), existing (--dir)", "TYPE" },
	{ "dir", '\0', POPT_ARG_STRING, &fa.dir, 0,
	  "use the filesystem mounted at DIR (bind mounts of a new directory in it)", "DIR" },
	{ "size", '\0', POPT_ARG_STRING, &fa.size, 0,
	  "size of each scratch filesystem (default 16M)", "N" },
	{ "watchdog", '\0', POPT_ARG_STRING, &fa.watchdog, 0,
	  "report a hang after S seconds without progress (default 30)", "S" },
	POPT_TABLEEND
};

/* Fill ws from the --fs/--dir/--size arguments.  Returns true, or false
 * after a usage message. */
static bool parse_fs(const struct fs_args *a, struct ap_workspace *ws)
{
	ws->kind = AP_FS_TMPFS;
	ws->size = 16 << 20;
	if (a->fs && !strcmp(a->fs, "ext4"))
		ws->kind = AP_FS_EXT4;
	else if ((a->fs && !strcmp(a->fs, "existing")) || (!a->fs && a->dir))
		ws->kind = AP_FS_EXISTING;
	else if (a->fs && strcmp(a->fs, "tmpfs"))
		return cli_usage_message("invalid --fs: '%s' (tmpfs, ext4 or existing)", a->fs) == 0;
	if (ws->kind == AP_FS_EXISTING) {
		if (!a->dir)
			return cli_usage_message("--fs existing needs --dir DIR") == 0;
		/* acctpin makes its directory in DIR and reaches it by name
		 * later: whoever can rename entries of DIR could put a
		 * symbolic link there instead and have root mount elsewhere. */
		if (ap_check_dir(NULL, a->dir) < 0) {
			ap_report_failure();
			return false;
		}
		ws->existing = a->dir;
	} else if (a->dir) {
		return cli_usage_message("--dir goes with --fs existing") == 0;
	}
	if (a->size && !cli_size_option("size", a->size, &ws->size, 1ULL << 30))
		return false;
	if (ws->size < (4 << 20) || ws->size > (1ULL << 30))
		return cli_usage_message("invalid size: '%s' (4M to 1G)", a->size) == 0;
	return true;
}

/* Parse a count option between 1 and max.  Returns true, or false after a message. */
static bool count_option(const char *what, const char *text, unsigned long max,
			 unsigned long *value)
{
	char *end;
	errno = 0;
	unsigned long v = text ? strtoul(text, &end, 10) : 0;
	if (!text || !*text || *end || errno || v < 1 || v > max || *text == '-')
		return cli_usage_message("invalid %s: '%s' (1 to %lu)", what, text ? text : "",
					 max) == 0;
	*value = v;
	return true;
}

/* Refuse politely (exit 77) without the privileges run and race need. */
static int need_privileges(const char *command)
{
	if (ap_have_privileges())
		return 0;
	cli_error(0, "%s needs CAP_SYS_PACCT and CAP_SYS_ADMIN (run it as root); skipping",
		  command);
	return AP_EXIT_SKIP;
}

/* Run body(arg) in the sandbox with the --watchdog period, on the
 * workspace ws (its --dir too is cleared of what killed runs left).
 * Returns the exit status. */
static int sandbox(const char *command, int (*body)(void *), void *arg,
		   const struct ap_workspace *ws)
{
	unsigned long hang = HANG_SECONDS;
	if (fa.watchdog && !count_option("watchdog period", fa.watchdog, 3600, &hang))
		return CLI_EXIT_USAGE;
	int status = need_privileges(command);
	return status ? status : ap_sandbox_run(body, arg, (unsigned)hang,
					     ws->kind == AP_FS_EXISTING ? ws->existing : NULL);
}

/* Read a command's options (table; help follows "Usage: acctpin COMMAND"
 * in its --help), collecting --scenario names as bits of *scenarios.
 * Returns 0 with the operands in p, or CLI_EXIT_USAGE after a message. */
static int parse(struct cli_options *p, int argc, char **argv, const struct poptOption *table,
		 const char *help, unsigned long *scenarios)
{
	cli_options_start(p, argc, argv, table, help, 0);
	int rc;
	while ((rc = cli_options_next(p)) > 0) {
		size_t i = 0;
		while (ap_scenario_names[i] && strcmp(ap_scenario_names[i], p->arg))
			i++;
		if (!ap_scenario_names[i])
			return cli_usage_message("unknown scenario: '%s' (plain, lazy, bind, "
						 "remount-ro, exiting, nearly-full, switch)", p->arg);
		*scenarios |= 1ul << i;
	}
	return rc < 0 ? CLI_EXIT_USAGE : 0;
}

/* For the commands without operands: 0, or CLI_EXIT_USAGE after a message
 * about the first operand of p. */
static int no_operands(struct cli_options *p)
{
	int count;
	char **operands = cli_options_operands(p, &count);
	return count ? cli_usage_message("unexpected operand: '%s'", operands[0]) : 0;
}

/* acctpin run. */
static int run_main(int argc, char **argv)
{
	static struct ap_run_options o = { .foreign_fd = -1 };
	const char *expect = NULL, *acct_file = NULL;
	int json = 0, allow_foreign = 0;
	const struct poptOption table[] = {
		{ "scenario", 's', POPT_ARG_STRING, NULL, 1,
		  "play only this scenario (repeatable): plain, lazy, bind, remount-ro, exiting, "
		  "nearly-full, switch", "NAME" },
		{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)fs_table, 0,
		  "Scratch filesystem:", NULL },
		{ "acct-file", '\0', POPT_ARG_STRING, &acct_file, 0,
		  "account to FILE, an existing regular file, instead of a new one (plain, "
		  "lazy, exiting, switch; the other scenarios are skipped)", "FILE" },
		{ "allow-foreign", '\0', POPT_ARG_NONE, &allow_foreign, 0,
		  "let --acct-file name a file acctpin did not create (it is never truncated; "
		  "only records appended during the run are judged)", NULL },
		{ "expect", '\0', POPT_ARG_STRING, &expect, 0,
		  "judge by what linux (default) or bsd promises", "linux|bsd" },
		{ "json", '\0', POPT_ARG_NONE, &json, 0, "print one JSON document", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct cli_options p;
	int status = parse(&p, argc, argv, table, "[OPTION]...\nPlay the scenarios: "
			   "accounting on a scratch filesystem, then an unmount.", &o.scenarios);
	if (!status)
		status = no_operands(&p);
	if (!status && !parse_fs(&fa, &o.ws))
		status = CLI_EXIT_USAGE;
	if (!status && expect && strcmp(expect, "linux") && strcmp(expect, "bsd"))
		status = cli_usage_message("invalid --expect: '%s' (linux or bsd)", expect);
	if (!status && allow_foreign && !acct_file)
		status = cli_usage_message("--allow-foreign goes with --acct-file FILE");
	if (!status && acct_file) {
		o.foreign = acct_file;
		o.foreign_fd = ap_foreign_open(acct_file, allow_foreign);
		if (o.foreign_fd < 0)
			ap_report_failure();
		status = o.foreign_fd < 0;
	}
	if (!status) {
		o.expect = expect && !strcmp(expect, "bsd") ? AP_EXPECT_BSD : AP_EXPECT_LINUX;
		o.json = json;
		if (!o.scenarios)
			o.scenarios = ~0ul;
		status = sandbox("run", ap_run_body, &o, &o.ws);
	}
	if (o.foreign_fd >= 0)
		close(o.foreign_fd);
	return status;
}

/* acctpin race. */
static int race_main(int argc, char **argv)
{
	static struct ap_race_options o;
	const char *threads = NULL, *seconds = NULL, *iterations = NULL;
	int json = 0;
	const struct poptOption table[] = {
		{ "threads", 't', POPT_ARG_STRING, &threads, 0,
		  "marker threads forking processes (default 2)", "N" },
		{ "seconds", '\0', POPT_ARG_STRING, &seconds, 0, "run this long (default 10)", "S" },
		{ "iterations", 'n', POPT_ARG_STRING, &iterations, 0,
		  "stop after N mount cycles", "N" },
		{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, (void *)fs_table, 0,
		  "Scratch filesystem:", NULL },
		{ "json", '\0', POPT_ARG_NONE, &json, 0, "print the counts as JSON", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct cli_options p;
	unsigned long none = 0, n_threads = 2, n_seconds = 10, n_iter = 0;
	int status = parse(&p, argc, argv, table, "[OPTION]...\nRace acct(2) on and off, "
			   "unmounts and remounts, and exiting processes.", &none);
	if (!status)
		status = no_operands(&p);
	if (!status && !parse_fs(&fa, &o.ws))
		status = CLI_EXIT_USAGE;
	if (!status && ((threads && !count_option("thread count", threads, 64, &n_threads)) ||
			(seconds && !count_option("seconds", seconds, 86400, &n_seconds)) ||
			(iterations && !count_option("iterations", iterations, 1ul << 30, &n_iter))))
		status = CLI_EXIT_USAGE;
	if (!status) {
		o.threads = (unsigned)n_threads;
		o.seconds = (unsigned)n_seconds;
		o.iterations = n_iter;
		o.json = json;
		status = sandbox("race", ap_race_body, &o, &o.ws);
	}
	return status;
}

/* acctpin dump. */
static int dump_main(int argc, char **argv)
{
	int json = 0;
	const struct poptOption table[] = {
		{ "json", '\0', POPT_ARG_NONE, &json, 0, "print one JSON object per record", NULL },
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct cli_options p;
	unsigned long none = 0;
	int status = parse(&p, argc, argv, table, "[--json] FILE...\n"
			   "Print the acct_v3 records of accounting FILEs (- for standard input)\n"
			   "in the layout of dump-acct(8), or as JSON.", &none);
	if (status)
		return status;
	int count;
	char **files = cli_options_operands(&p, &count);
	if (!count)
		return cli_usage_message("dump: missing FILE operand");
	return ap_dump(files, json);
}

/* Option code of acctpin's own --help. */
enum { OPT_HELP = 1 };

int main(int argc, char **argv)
{
	cli_hold_standard_fds();
	cli_init("acctpin");
	/* Every run reports through them: loaded with the program, not in
	 * the middle of a scenario. */
	lazy_jsonc_preload();
	lazy_smartcols_preload();
	const struct poptOption table[] = {
		{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, NULL, NULL },
		{ NULL, '?', POPT_ARG_NONE, NULL, OPT_HELP, NULL, NULL },
		CLI_AUTOVERSION
		POPT_TABLEEND
	};
	struct cli_options p;
	cli_options_start(&p, argc, argv, table, NULL, CLI_OPTIONS_IN_ORDER);
	int rc = cli_options_next(&p);
	if (rc == OPT_HELP)
		fputs(overview, stdout);
	if (rc)
		return rc < 0 ? CLI_EXIT_USAGE : cli_close_stdout();
	int count;
	char **args = cli_options_operands(&p, &count);
	if (!count)
		return cli_usage_message("missing command (run, race or dump)");
	/* The command's own argument vector, named "acctpin COMMAND" for --help. */
	const char *cmd = args[0];
	char name[32];
	snprintf(name, sizeof name, "acctpin %.20s", cmd);
	args[0] = name;
	int status;
	if (!strcmp(cmd, "run"))
		status = run_main(count, args);
	else if (!strcmp(cmd, "race"))
		status = race_main(count, args);
	else if (!strcmp(cmd, "dump"))
		status = dump_main(count, args);
	else
		return cli_usage_message("unknown command: '%s' (run, race or dump)", cmd);
	return status | cli_close_stdout();
}
