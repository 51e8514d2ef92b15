/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spcat: concatenate files to standard output through splice(2). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "jsondoc.h"
#include "libsplice.h"
#include "message.h"
#include "options.h"
#include "progress.h"
#include "quote.h"
#include "stats.h"
#include "stdfds.h"
#include "text.h"
#include "usage.h"
#include "version.h"

/* What standard output is, found once at start (spcat never changes it):
 * st, its fstat, handed to the library with each file so that it is not
 * asked again and used to refuse copying a file onto itself as cat does;
 * append, whether it was opened O_APPEND (its position is then its end).
 * last_path: the path of the last transfer into it, for --stats. */
struct output_id {
	struct stat st;
	bool append;
	enum sp_path last_path;
};

/* What the command line asks for. */
struct config {
	int64_t offset;
	uint64_t length;
	bool stats;
	bool json;                /* --stats as JSON */
	int progress;             /* -1 without --progress, else its style */
	struct text_options text; /* cat's text options */
	struct sp_options mover;
	char **operands;          /* NULL-terminated */
	unsigned closed;          /* standard fds closed at start (CLI_*_CLOSED) */
	struct cli_progress *shown; /* the --progress display, once started */
};

/* Whether copying in (already fstat'ed as st) to stdout from in_pos on, at
 * most length bytes, would read what the copy itself wrote, so that it
 * might never end: in is the output file, and the output's position (its
 * end when it appends) is ahead of in_pos with bytes to read from there
 * on.  As cat 9.6 and later, a pipe or socket never counts, nor does a
 * position that cannot be known. */
static bool input_is_output(int fd, const struct stat *st, int64_t in_pos, uint64_t length,
			    const struct output_id *out)
{
	if (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode) || st->st_dev != out->st.st_dev ||
	    st->st_ino != out->st.st_ino)
		return false;
	if (in_pos == SP_OFFSET_CURRENT)
		in_pos = lseek(fd, 0, SEEK_CUR);
	off_t out_pos = lseek(STDOUT_FILENO, 0, out->append ? SEEK_END : SEEK_CUR);
	return in_pos >= 0 && in_pos < out_pos && length > (uint64_t)(out_pos - in_pos);
}

/* How many bytes of an input (fstat'ed as st) to copy from offset on: no
 * byte of a file or device lies past the largest file offset, and
 * bounding the length there keeps the kernel from refusing a read that
 * would run past it (EINVAL), so that any offset past the end reads
 * nothing, however large. */
static uint64_t length_from(const struct stat *st, int64_t offset, uint64_t length)
{
	bool seekable = S_ISREG(st->st_mode) || S_ISBLK(st->st_mode);
	if (offset == SP_OFFSET_CURRENT || !seekable)
		return length;
	uint64_t room = (uint64_t)(INT64_MAX - offset);
	return length < room ? length : room;
}

/* Report why the directory fd (name) cannot be copied: read it, as cat
 * does, and say what the kernel answers (EISDIR, or the error on the way
 * there).  The library refuses directories without reading them; where a
 * file system lets read(2) return a directory's bytes, spcat still
 * refuses it with EISDIR. */
static void report_directory(int fd, const char *name)
{
	char byte;
	cli_error(read(fd, &byte, 1) < 0 ? errno : EISDIR, "%s", cli_quote(name));
}

/* Copy the operand name, open as fd and fstat'ed as st, to stdout (through
 * text when a text option is on).  Returns 0, 1 after a reported input
 * error, or -1 after a reported output error. */
static int copy_operand(struct sp_mover *mover, struct text_cat *text, int fd,
			const struct stat *st, const char *name, const struct config *cfg,
			struct output_id *out)
{
	uint64_t length = length_from(st, cfg->offset, cfg->length);
	if (input_is_output(fd, st, cfg->offset, length, out)) {
		cli_error(0, "%s: input file is output file", cli_quote(name));
		return 1;
	}
	if (S_ISDIR(st->st_mode)) {
		report_directory(fd, name);
		return 1;
	}
	/* Both fstat(2)s are made already: two system calls fewer per file,
	 * which is what separates the many-small-files case from cat's. */
	bool output_error = false;
	enum sp_side res_side = SP_SIDE_NONE;
	int64_t n;
	if (text) {
		n = text_copy(text, fd, st, cfg->offset, length, &output_error);
	} else {
		struct sp_copy_args args = { .size = sizeof(args), .in_fd = fd,
					     .out_fd = STDOUT_FILENO, .offset = cfg->offset,
					     .length = length, .in_st = st, .out_st = &out->st };
		struct sp_result res = { .size = sizeof(res) };
		n = sp_copy(mover, &args, &res);
		output_error = res.side == SP_SIDE_OUTPUT;
		res_side = res.side;
		out->last_path = res.path;
	}
	if (n >= 0)
		return 0;
	if (output_error) {
		cli_error((int)-n, "write error");
		return -1;
	}
	/* Memory the copy could not have is neither the input's fault nor
	 * the output's: said as cat says it, and the run ends there. */
	if (n == -ENOMEM && !text && res_side == SP_SIDE_NONE) {
		cli_error(0, "memory exhausted");
		return -1;
	}
	cli_error((int)-n, "%s", cli_quote(name));
	return 1;
}

/* Open the operand name for reading.  A signal whose handler returns
 * while the open blocks (a FIFO without a writer) makes it again, as the
 * kernel does for a signal without a handler: a signal is not an error of
 * the operand's (GNU cat says nothing then either).  Returns the fd, or
 * -1 with errno set. */
static int open_input(const char *name)
{
	int fd;
	while ((fd = open(name, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	return fd;
}

/* Copy one operand to stdout.  Returns 0, 1 after a reported input error,
 * or -1 after a reported output error (which ends the run, as with cat). */
static int cat_one(struct sp_mover *mover, struct text_cat *text, const char *name,
		   const struct config *cfg, struct output_id *out)
{
	bool is_stdin = !strcmp(name, "-");
	if (is_stdin && (cfg->closed & CLI_STDIN_CLOSED)) {
		cli_error(EBADF, "%s", cli_quote(name));
		return 1;
	}
	int fd = is_stdin ? STDIN_FILENO : open_input(name);
	if (fd < 0) {
		cli_error(errno, "%s", cli_quote(name));
		return 1;
	}
	if (cfg->shown)
		cli_progress_name(cfg->shown, is_stdin ? NULL : name);
	int status = 1;
	struct stat st;
	if (fstat(fd, &st) < 0)
		cli_error(errno, "%s", cli_quote(name));
	else
		status = copy_operand(mover, text, fd, &st, name, cfg, out);
	/* As cat: a failed close is reported after an input error too, not
	 * after an output error, which ends the run at once. */
	if (!is_stdin && close(fd) < 0 && status >= 0) {
		cli_error(errno, "%s", cli_quote(name));
		status = 1;
	}
	return status;
}

/* Option codes besides cat's text options, which are their letters. */
enum { OPT_PROGRESS = 1 };

/* Turn on the text option letter (one of cat's AbeEnstTv) in o. */
static void set_text_option(struct text_options *o, int letter)
{
	o->show_nonprinting |= strchr("Aetv", letter) != NULL;
	o->show_ends |= strchr("AeE", letter) != NULL;
	o->show_tabs |= strchr("AtT", letter) != NULL;
	o->number |= letter == 'n' || letter == 'b';
	o->number_nonblank |= letter == 'b';
	o->squeeze_blank |= letter == 's';
}

/* Parse the command line into cfg.  Returns 0, or CLI_EXIT_USAGE after
 * reporting a usage error. */
static int parse_command_line(int argc, char **argv, struct config *cfg)
{
	const char *offset_arg = NULL, *length_arg = NULL, *pipe_size_arg = NULL;
	int no_splice = 0, nocache = 0, stats = 0, json = 0;
	/* cat's options first, in cat's order (the descriptions are ours). */
	const struct poptOption table[] = {
		{ "show-all", 'A', POPT_ARG_NONE, NULL, 'A', "-v, -E and -T together", NULL },
		{ "number-nonblank", 'b', POPT_ARG_NONE, NULL, 'b',
		  "put a line number before each line that is not empty (wins over -n)", NULL },
		{ NULL, 'e', POPT_ARG_NONE, NULL, 'e', "-v and -E together", NULL },
		{ "show-ends", 'E', POPT_ARG_NONE, NULL, 'E',
		  "mark where each line ends with $ (^M$ after a carriage return)", NULL },
		{ "number", 'n', POPT_ARG_NONE, NULL, 'n', "put a line number before every line", NULL },
		{ "squeeze-blank", 's', POPT_ARG_NONE, NULL, 's',
		  "print one empty line where several follow each other", NULL },
		{ NULL, 't', POPT_ARG_NONE, NULL, 't', "-v and -T together", NULL },
		{ "show-tabs", 'T', POPT_ARG_NONE, NULL, 'T', "show each tab as ^I", NULL },
		{ NULL, 'u', POPT_ARG_NONE, NULL, 0, "accepted and without effect", NULL },
		{ "show-nonprinting", 'v', POPT_ARG_NONE, NULL, 'v',
		  "show control and high bytes as ^X and M-X (not tab, newline)", NULL },
		{ "offset", '\0', POPT_ARG_STRING, &offset_arg, 0,
		  "start each FILE at byte N (suffixes K, M, G, ... and KB, MB, ...)", "N" },
		{ "length", '\0', POPT_ARG_STRING, &length_arg, 0,
		  "copy at most N bytes of each FILE", "N" },
		{ "pipe-size", '\0', POPT_ARG_STRING, &pipe_size_arg, 0,
		  "size pipes to N bytes (default 1M, within fs.pipe-max-size)", "N" },
		{ "no-splice", '\0', POPT_ARG_NONE, &no_splice, 0,
		  "copy with read(2)/write(2) only", NULL },
		{ "nocache", '\0', POPT_ARG_NONE, &nocache, 0,
		  "leave the page cache as it was: read and write files uncached", NULL },
		{ "stats", '\0', POPT_ARG_NONE, &stats, 0,
		  "print bytes, in-kernel share, syscalls and throughput on stderr", NULL },
		{ "json", '\0', POPT_ARG_NONE, &json, 0, "print --stats as one JSON object", NULL },
		{ "progress", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, OPT_PROGRESS,
		  "show progress on stderr: a bar on a terminal, else numbers as pv -n "
		  "(STYLE: auto, bar, numeric)", "STYLE" },
		CLI_AUTOVERSION
		POPT_AUTOHELP
		POPT_TABLEEND
	};
	struct cli_options p;
	cli_options_start(&p, argc, argv, table, "[OPTION]... [FILE]...\n"
			  "Write each FILE, one after another, to standard output.\n\n"
			  "A FILE of - is standard input, which is also read when no FILE is given.\n"
			  "The data move through splice(2) unless a text option formats them\n"
			  "(-A, -b, -e, -E, -n, -s, -t, -T, -v).\n", 0);
	int rc, progress = -1;
	struct text_options text = { 0 };
	while ((rc = cli_options_next(&p)) > 0) {
		if (rc != OPT_PROGRESS)
			set_text_option(&text, rc);
		else if (!cli_progress_style_parse(p.arg, &progress))
			return CLI_EXIT_USAGE;
	}
	if (rc < 0)
		return CLI_EXIT_USAGE;
	if (json && !stats)
		return cli_usage_message("--json works with --stats only");

	uint64_t offset = 0, pipe_size = 0;
	*cfg = (struct config){ .offset = SP_OFFSET_CURRENT, .length = SP_LENGTH_EOF,
				.stats = stats, .json = json, .progress = progress,
				.text = text,
				/* Splice, read/write where the kernel refuses. */
				.mover = { .size = sizeof(struct sp_options),
					   .policy = SP_POLICY_PREFER, .path = SP_PATH_SPLICE } };
	if ((offset_arg && !cli_size_option("offset", offset_arg, &offset, INT64_MAX)) ||
	    (length_arg && !cli_size_option("length", length_arg, &cfg->length, UINT64_MAX)) ||
	    (pipe_size_arg && !cli_size_option("pipe size", pipe_size_arg, &pipe_size, INT32_MAX)))
		return CLI_EXIT_USAGE;
	if (offset_arg)
		cfg->offset = (int64_t)offset;
	cfg->mover.pipe_size = (size_t)pipe_size;
	if (no_splice) {
		cfg->mover.policy = SP_POLICY_ONLY;
		cfg->mover.path = SP_PATH_RW;
	}
	if (nocache)
		cfg->mover.flags = SP_NOCACHE;
	static char *only_stdin[] = { "-", NULL };
	int n;
	cfg->operands = cli_options_operands(&p, &n);
	if (!n)
		cfg->operands = only_stdin;
	return 0;
}

/* Print --stats (json: as JSON): the totals and what was picked on this
 * machine -- the path of the last transfer, the pipe size within
 * pipe-max-size, the send buffer of a socket within wmem_max (each only
 * when used). */
static void print_stats(const struct sp_mover *mover, enum sp_path path, bool json)
{
	struct sp_stats stats = { .size = sizeof(stats) };
	sp_get_stats(mover, &stats);
	const struct sp_stats *totals = &stats;
	struct json_object *more = json_object_new_object();
	char extra[96];
	int n = 0, rc = 0;
	extra[0] = '\0';
	if (path != SP_PATH_NONE) {
		n = snprintf(extra, sizeof(extra), "%s", sp_path_name(path));
		rc |= cli_json_add_text(more, "path", sp_path_name(path));
	}
	if (totals->pipe_size) {
		n += snprintf(extra + n, sizeof(extra) - (size_t)n, "%spipe %" PRIu64 " KiB",
			      n ? ", " : "", totals->pipe_size / 1024);
		rc |= cli_json_add_u64(more, "pipe_size", totals->pipe_size);
	}
	if (totals->socket_buffer) {
		snprintf(extra + n, sizeof(extra) - (size_t)n, "%ssocket buffer %" PRIu64 " KiB",
			 n ? ", " : "", totals->socket_buffer / 1024);
		rc |= cli_json_add_u64(more, "socket_buffer", totals->socket_buffer);
	}
	if (rc && json) {
		json_object_put(more);
		more = NULL;
	}
	cli_print_stats(totals, json, extra[0] ? extra : NULL, more);
}

/* The bytes the operands hold from where the copy starts, when every one
 * is a regular file; 0 (not known) otherwise. */
static uint64_t bytes_to_copy(const struct config *cfg)
{
	uint64_t total = 0;
	for (char **operand = cfg->operands; *operand; operand++) {
		struct stat st;
		bool is_stdin = !strcmp(*operand, "-");
		if ((is_stdin ? fstat(STDIN_FILENO, &st) : stat(*operand, &st)) < 0 ||
		    !S_ISREG(st.st_mode))
			return 0;
		int64_t from = cfg->offset != SP_OFFSET_CURRENT ? cfg->offset
			       : is_stdin ? lseek(STDIN_FILENO, 0, SEEK_CUR) : 0;
		total += cli_progress_file_bytes(&st, from, cfg->length);
	}
	return total;
}

/* Copy every operand to stdout.  Returns the exit status. */
static int concatenate(struct config *cfg)
{
	struct stat st;
	if ((cfg->closed & CLI_STDOUT_CLOSED) || fstat(STDOUT_FILENO, &st) < 0) {
		cli_error(cfg->closed & CLI_STDOUT_CLOSED ? EBADF : errno, "standard output");
		return 1;
	}
	struct sp_options opts = cfg->mover;
	/* Into a socket or a regular file the library's own pick for a file
	 * is one call per chunk, sendfile(2) or copy_file_range(2) (cat 9.11
	 * uses the latter), where splice takes two (file -> pipe -> out). */
	if ((S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode)) && opts.policy == SP_POLICY_PREFER)
		opts = (struct sp_options){ .size = sizeof(opts), .pipe_size = opts.pipe_size,
					    .flags = opts.flags };
	struct sp_mover *mover;
	struct cli_progress *progress = NULL;
	if (cfg->progress >= 0 &&
	    cli_progress_start(&progress, (enum cli_progress_style)cfg->progress,
			       bytes_to_copy(cfg)) == 0) {
		opts.progress = cli_progress_update;
		opts.progress_arg = progress;
		cfg->shown = progress;
	}
	struct text_cat *text = NULL;
	int rc = sp_mover_new(&mover, &opts);
	if (rc >= 0 && text_wanted(&cfg->text) &&
	    (rc = text_new(&text, &cfg->text, STDOUT_FILENO, opts.pipe_size, opts.progress,
			     opts.progress_arg)) < 0)
		sp_mover_free(mover);
	if (rc < 0) {
		if (rc == -ENOMEM)
			cli_error(0, "memory exhausted");
		else
			cli_error(-rc, "cannot set up");
		cli_progress_finish(progress);
		return 1;
	}
	int flags = fcntl(STDOUT_FILENO, F_GETFL);
	struct output_id out = { .st = st, .append = flags >= 0 && (flags & O_APPEND),
				 .last_path = SP_PATH_NONE };
	int status = 0;
	bool read_stdin = false;
	int r = 0;
	for (char **operand = cfg->operands; *operand; operand++) {
		read_stdin |= !strcmp(*operand, "-");
		r = cat_one(mover, text, *operand, cfg, &out);
		if (r < 0) {
			status = 1;
			break;
		}
		status |= r;
	}
	if (text && r >= 0 && (rc = text_finish(text)) < 0) {
		cli_error(-rc, "write error");
		status = 1;
	}
	cli_progress_finish(progress);
	if (cfg->stats && text)
		cli_print_stats(text_stats(text), cfg->json, "formatted in user space", NULL);
	else if (cfg->stats)
		print_stats(mover, out.last_path, cfg->json);
	text_free(text);
	sp_mover_free(mover);
	bool stdin_closed = cfg->closed & CLI_STDIN_CLOSED;
	if (read_stdin && (stdin_closed || close(STDIN_FILENO) < 0)) {
		cli_error(stdin_closed ? EBADF : errno, "closing standard input");
		status = 1;
	}
	return status;
}

int main(int argc, char **argv)
{
	unsigned closed = cli_hold_standard_fds();
	cli_init(cli_name_from(argc > 0 ? argv[0] : NULL, "spcat"));
	struct config cfg;
	int status = parse_command_line(argc, argv, &cfg);
	cfg.closed = closed;
	if (status == 0)
		status = concatenate(&cfg);
	return status | cli_close_stdout();
}
