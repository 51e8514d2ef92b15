/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cat's text options: read into a large buffer, format line by line into
 * an output buffer, write that in large blocks.
 *
 * A line is found and copied eight bytes at a time, the word tested for
 * an LF (-n, -b, -s, -E) or for any byte -v changes, which then goes
 * through a table of escapes; -T alone finds LF and TAB with memchr(3).  The state that crosses reads
 * and files: where the line is (inside a line, or at its start after how
 * many empty lines), the line number, and under -E without -v a carriage
 * return that ended a read, which shows as "^M" only if a newline follows
 * it.  What GNU cat does (coreutils 9.11) is the specification. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "text.h"

enum {
	IN_SIZE = 128 * 1024,  /* bytes per read */
	FLUSH_AT = 128 * 1024, /* write once this much output has gathered */
	MAX_GROWTH = 4,        /* an input byte gives at most "M-^X" */
	/* Output of one step of format() besides its bytes: a line number
	 * (NUM_LEN), a held-back CR and "^M$\n", and the 8 bytes that
	 * put_escaped_line() may write past its end. */
	STEP_EXTRA = 64,
	NUM_LEN = 24,          /* 22 digits (more than 2^64 lines), TAB, NUL */
	NUM_LAST = NUM_LEN - 3,/* index of the units digit */
	NUM_WIDTH = 6,         /* numbers are right-aligned in 6 columns at least */
};

/* How -v shows one byte: n (1 to 4) bytes of s. */
struct escape {
	char s[4];
	uint32_t n;
};

struct text_cat {
	struct text_options opt;
	int out_fd;
	bool cr_ends;           /* -E without -v: a CR before LF shows as ^M */
	/* -1 inside a line; else at the start of a line after this many
	 * empty lines in a row (at most 2), 0 at the start of the input. */
	int blanks;
	bool pending_cr;        /* a read ended in a CR, not yet written */
	char num[NUM_LEN];      /* the last line number, right-aligned */
	int num_first;          /* index of its first digit */
	unsigned char *in;
	char *out;
	size_t used;            /* bytes waiting in out */
	struct sp_stats stats;
	sp_progress_fn progress;
	void *progress_arg;
	struct escape table[256];
};

bool text_wanted(const struct text_options *o)
{
	return o->number || o->number_nonblank || o->squeeze_blank || o->show_ends ||
	       o->show_tabs || o->show_nonprinting;
}

/* Fill e with the n bytes of s. */
static void set_escape(struct escape *e, const char *s, size_t n)
{
	memcpy(e->s, s, n);
	e->n = (uint32_t)n;
}

/* The -v table: printable ASCII as itself, 127 as ^?, other control bytes
 * as ^ and the byte + 64 (TAB only under -T; LF never reaches the table),
 * bytes from 128 on as M- and what their low 7 bits show as. */
static void fill_table(struct escape *table, bool show_tabs)
{
	for (int b = 0; b < 256; b++) {
		int low = b & 0x7f;
		char s[4];
		size_t n = 0;
		if (b >= 128) {
			s[n++] = 'M';
			s[n++] = '-';
		}
		if (low == 127) {
			s[n++] = '^';
			s[n++] = '?';
		} else if (low < 32 && !(b == '\t' && !show_tabs)) {
			s[n++] = '^';
			s[n++] = (char)(low + 64);
		} else {
			s[n++] = (char)low;
		}
		set_escape(&table[b], s, n);
	}
}

int text_new(struct text_cat **text, const struct text_options *opts, int out_fd,
	     size_t pipe_size, sp_progress_fn progress, void *progress_arg)
{
	struct text_cat *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->opt = *opts;
	t->opt.number |= t->opt.number_nonblank;
	t->out_fd = out_fd;
	t->cr_ends = opts->show_ends && !opts->show_nonprinting;
	t->progress = progress;
	t->progress_arg = progress_arg;
	memset(t->num, ' ', NUM_LAST);
	t->num[NUM_LAST] = '0';
	t->num[NUM_LAST + 1] = '\t';
	t->num_first = NUM_LAST;
	if (opts->show_nonprinting)
		fill_table(t->table, opts->show_tabs);
	/* Into a pipe, room for several writes lets the reader drain one
	 * while the next is formatted (not an error where refused). */
	sp_pipe_grow(out_fd, pipe_size ? pipe_size : SP_DEFAULT_PIPE_SIZE);
	t->in = malloc(IN_SIZE);
	t->out = malloc(FLUSH_AT + MAX_GROWTH * IN_SIZE + STEP_EXTRA);
	if (!t->in || !t->out) {
		text_free(t);
		return -ENOMEM;
	}
	*text = t;
	return 0;
}

void text_free(struct text_cat *t)
{
	if (!t)
		return;
	free(t->in);
	free(t->out);
	free(t);
}

const struct sp_stats *text_stats(const struct text_cat *t)
{
	return &t->stats;
}

/* Count the next line and write its number (at least NUM_WIDTH columns,
 * then TAB) at o.  Returns the end of what was written. */
static char *put_number(struct text_cat *t, char *o)
{
	int i = NUM_LAST;
	while (t->num[i] == '9')
		t->num[i--] = '0';
	if (i < t->num_first) {
		t->num[i] = '1';
		t->num_first = i;
	} else {
		t->num[i]++;
	}
	int from = t->num_first < NUM_LAST + 1 - NUM_WIDTH ? t->num_first
							   : NUM_LAST + 1 - NUM_WIDTH;
	size_t n = (size_t)(NUM_LAST + 2 - from);
	memcpy(o, t->num + from, n);
	return o + n;
}

/* Which of the 8 bytes of w -v changes: below 32 (TAB included), 127, or
 * 128 and above, as the high bit of each such byte.  A borrow can mark a
 * byte above one truly marked (at a higher address on a little-endian
 * machine), never below: the lowest mark is always true. */
static inline uint64_t escape_marks(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t below_32 = (w - 32 * ones) & ~w;
	uint64_t del = w ^ (127 * ones);
	uint64_t is_del = (del - ones) & ~del;
	return (below_32 | is_del | w) & highs;
}

/* Write byte b at o as -v shows it.  Returns the end of what was written. */
static inline char *put_escape(const struct text_cat *t, char *o, unsigned char b)
{
	const struct escape *e = &t->table[b];
	memcpy(o, e->s, 4);
	return o + e->n;
}

/* Write the bytes from p up to the next LF (or end) at *o as -v shows them
 * (TAB as ^I under -T), eight at a time up to the first that needs an
 * escape or is the LF; *o moves past what was written, and up to 8 bytes
 * past that may be written.  Returns the LF, or NULL when end came first. */
static const unsigned char *put_escaped_line(const struct text_cat *t, char **op,
					     const unsigned char *p, const unsigned char *end)
{
	char *o = *op;
	while (end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		memcpy(o, p, 8);
		uint64_t marks = escape_marks(w);
		if (!marks) {
			o += 8;
			p += 8;
			continue;
		}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* The bytes before the first mark are copied already. */
		unsigned clean = (unsigned)__builtin_ctzll(marks) / 8;
		o += clean;
		p += clean;
		if (*p == '\n') {
			*op = o;
			return p;
		}
		o = put_escape(t, o, *p++);
#else
		for (const unsigned char *stop = p + 8; p < stop; p++) {
			if (*p == '\n') {
				*op = o;
				return p;
			}
			o = put_escape(t, o, *p);
		}
#endif
	}
	for (; p < end; p++) {
		if (*p == '\n') {
			*op = o;
			return p;
		}
		o = put_escape(t, o, *p);
	}
	*op = o;
	return NULL;
}

/* Copy the bytes from p up to the next LF (or end) to *o, eight at a time;
 * *o moves past them, and up to 8 bytes past that may be written.
 * Returns the LF, or NULL when end came first. */
static const unsigned char *copy_line(char **op, const unsigned char *p,
				      const unsigned char *end)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	char *o = *op;
	while (end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		memcpy(o, p, 8);
		uint64_t lf = w ^ ('\n' * ones);
		uint64_t marks = (lf - ones) & ~lf & highs;
		if (!marks) {
			o += 8;
			p += 8;
			continue;
		}
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		unsigned clean = (unsigned)__builtin_ctzll(marks) / 8;
		*op = o + clean;
		return p + clean;
#else
		break;
#endif
	}
	const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
	const unsigned char *stop = nl ? nl : end;
	memcpy(o, p, (size_t)(stop - p));
	*op = o + (stop - p);
	return nl;
}

/* Write [p, end) at o with each TAB as ^I.  Returns the end of what was
 * written. */
static char *put_tabs(char *o, const unsigned char *p, const unsigned char *end)
{
	const unsigned char *tab;
	while ((tab = memchr(p, '\t', (size_t)(end - p)))) {
		memcpy(o, p, (size_t)(tab - p));
		o += tab - p;
		*o++ = '^';
		*o++ = 'I';
		p = tab + 1;
	}
	memcpy(o, p, (size_t)(end - p));
	return o + (end - p);
}

/* Write all the gathered output.  Returns 0 or -errno. */
static int flush_output(struct text_cat *t)
{
	size_t done = 0;
	while (done < t->used) {
		ssize_t n = write(t->out_fd, t->out + done, t->used - done);
		t->stats.write_calls++;
		t->stats.syscalls++;
		if (n >= 0) {
			done += (size_t)n;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			/* A non-blocking output: wait until it takes more. */
			struct pollfd pfd = { .fd = t->out_fd, .events = POLLOUT };
			t->stats.poll_calls++;
			t->stats.syscalls++;
			if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
				return -errno;
		} else if (errno != EINTR) {
			return -errno;
		}
	}
	t->used = 0;
	return 0;
}

/* Format [p, end) into the output buffer, writing it out whenever
 * FLUSH_AT bytes have gathered.  Returns 0 or the -errno of a write.  The
 * state lives in locals here: stores through o may alias *t, and the
 * compiler would reload every field of it after each one. */
static int format(struct text_cat *t, const unsigned char *p, const unsigned char *end)
{
	const bool number = t->opt.number, number_empty = number && !t->opt.number_nonblank;
	const bool squeeze = t->opt.squeeze_blank, show_ends = t->opt.show_ends;
	const bool nonprinting = t->opt.show_nonprinting, tabs = t->opt.show_tabs;
	const bool cr_ends = t->cr_ends;
	char *const out = t->out;
	char *o = out + t->used;
	int blanks = t->blanks;
	bool pending_cr = t->pending_cr;
	int rc = 0;
	while (p < end) {
		/* Room for this step: FLUSH_AT + MAX_GROWTH * IN_SIZE + STEP_EXTRA. */
		if (o - out >= FLUSH_AT) {
			t->used = (size_t)(o - out);
			if ((rc = flush_output(t)) < 0)
				break;
			o = out;
		}
		if (blanks >= 0) {
			if (*p == '\n') {
				/* An empty line. */
				p++;
				if (blanks < 2)
					blanks++;
				if (blanks == 2 && squeeze)
					continue;
				if (number_empty)
					o = put_number(t, o);
				if (show_ends)
					*o++ = '$';
				*o++ = '\n';
				continue;
			}
			if (number)
				o = put_number(t, o);
			blanks = -1;
		}
		const unsigned char *nl;
		bool cr = false;
		if (nonprinting) {
			/* One pass finds the LF and escapes the bytes before it. */
			nl = put_escaped_line(t, &o, p, end);
		} else {
			if (pending_cr) {
				pending_cr = false;
				if (*p == '\n') {
					*o++ = '^';
					*o++ = 'M';
				} else {
					*o++ = '\r';
				}
			}
			const unsigned char *line = p;
			if (tabs) {
				nl = memchr(p, '\n', (size_t)(end - p));
				o = put_tabs(o, p, nl ? nl : end);
			} else {
				nl = copy_line(&o, p, end);
			}
			/* Under -E without -v, a CR just before LF shows as ^M;
			 * one at the end of the read waits for the next byte.
			 * Either way it is taken back from the output. */
			const unsigned char *stop = nl ? nl : end;
			cr = cr_ends && stop > line && stop[-1] == '\r';
			if (cr)
				o--;
		}
		if (!nl) {
			pending_cr = cr;
			break;
		}
		if (cr) {
			*o++ = '^';
			*o++ = 'M';
		}
		if (show_ends)
			*o++ = '$';
		*o++ = '\n';
		blanks = 0;
		p = nl + 1;
	}
	if (rc == 0)
		t->used = (size_t)(o - out);
	t->blanks = blanks;
	t->pending_cr = pending_cr;
	return rc;
}

/* After a failed read of fd: 0 to try again (EINTR, or EAGAIN once poll(2)
 * says fd is readable), or -errno. */
static int retry_input(struct text_cat *t, int fd)
{
	if (errno == EAGAIN || errno == EWOULDBLOCK) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		t->stats.poll_calls++;
		t->stats.syscalls++;
		return poll(&pfd, 1, -1) < 0 && errno != EINTR ? -errno : 0;
	}
	return errno == EINTR ? 0 : -errno;
}

/* Read up to want bytes of fd into the input buffer, retrying after
 * EINTR and waiting in poll(2) after EAGAIN.  Returns the count or -errno. */
static ssize_t read_input(struct text_cat *t, int fd, size_t want)
{
	for (;;) {
		ssize_t n = read(fd, t->in, want);
		t->stats.read_calls++;
		t->stats.syscalls++;
		if (n >= 0)
			return n;
		int rc = retry_input(t, fd);
		if (rc)
			return rc;
	}
}

/* Whether fd is a socket that keeps message boundaries (a read takes
 * one datagram, and drops what does not fit). */
static bool datagram_socket(struct text_cat *t, int fd, const struct stat *st)
{
	int type;
	socklen_t len = sizeof(type);
	if (!S_ISSOCK(st->st_mode))
		return false;
	t->stats.syscalls++;
	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 &&
	       (type == SOCK_DGRAM || type == SOCK_SEQPACKET);
}

/* The whole length of the datagram waiting on fd (MSG_PEEK | MSG_TRUNC:
 * it stays there), waiting for one as read_input() does.  Returns it or
 * -errno. */
static ssize_t peek_datagram(struct text_cat *t, int fd)
{
	for (;;) {
		ssize_t n = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
		t->stats.read_calls++;
		t->stats.syscalls++;
		if (n >= 0)
			return n;
		int rc = retry_input(t, fd);
		if (rc)
			return rc;
	}
}

/* Move fd to offset: seek there, or, where fd cannot seek (a pipe, socket
 * or terminal), read and drop offset bytes, as the mover does.  From a
 * socket that keeps message boundaries each datagram is read whole, and
 * the bytes of the one the offset falls in that come after it go to *tail
 * (*tail_len of them, in t->in or in a buffer of its own, *tail_alloc,
 * that the caller frees).  Returns 0 (also when the input ends first) or
 * -errno. */
static int skip_to(struct text_cat *t, int fd, const struct stat *st, int64_t offset,
		   const unsigned char **tail, size_t *tail_len, unsigned char **tail_alloc)
{
	t->stats.syscalls++;
	if (lseek(fd, offset, SEEK_SET) >= 0)
		return 0;
	if (errno != ESPIPE)
		return -errno;
	bool datagrams = datagram_socket(t, fd, st);
	for (uint64_t left = (uint64_t)offset; left;) {
		ssize_t size = 0;
		if (datagrams && (size = peek_datagram(t, fd)) < 0)
			return (int)size;
		if ((uint64_t)size > left) {
			unsigned char *buf = t->in;
			if (size > IN_SIZE && !(buf = *tail_alloc = malloc((size_t)size)))
				return -ENOMEM;
			ssize_t n;
			while ((n = read(fd, buf, (size_t)size)) < 0 && errno == EINTR)
				;
			t->stats.read_calls++;
			t->stats.syscalls++;
			if (n < 0)
				return -errno;
			if ((uint64_t)n > left) {
				*tail = buf + left;
				*tail_len = (size_t)((uint64_t)n - left);
			}
			return 0;
		}
		ssize_t n = read_input(t, fd, left < IN_SIZE ? (size_t)left : IN_SIZE);
		if (n <= 0)
			return (int)n;
		left -= (uint64_t)(size > n ? size : n);
	}
	return 0;
}

int64_t text_copy(struct text_cat *t, int fd, const struct stat *st, int64_t offset,
		  uint64_t length, bool *output_error)
{
	uint64_t start = lsp_now_ns();
	int64_t total = 0;
	int rc = 0;
	*output_error = false;
	const unsigned char *tail = NULL;
	size_t tail_len = 0;
	unsigned char *tail_alloc = NULL;
	if (offset != SP_OFFSET_CURRENT &&
	    (rc = skip_to(t, fd, st, offset, &tail, &tail_len, &tail_alloc)) < 0) {
		free(tail_alloc);
		return rc;
	}
	bool may_wait = !S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode);
	if (S_ISREG(st->st_mode)) {
		t->stats.syscalls++;
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	}
	uint64_t left = length;
	if (tail_len) {
		/* The rest of the datagram the offset fell in. */
		size_t k = tail_len < left ? tail_len : (size_t)left;
		left -= k;
		total += (int64_t)k;
		t->stats.bytes += k;
		t->stats.bytes_copied += k;
		rc = format(t, tail, tail + k);
		*output_error = rc < 0;
		if (rc < 0)
			left = 0;
	}
	free(tail_alloc);
	while (left) {
		if (may_wait && t->used && (rc = flush_output(t)) < 0) {
			*output_error = true;
			break;
		}
		ssize_t n = read_input(t, fd, left < IN_SIZE ? (size_t)left : IN_SIZE);
		if (n <= 0) {
			rc = (int)n;
			break;
		}
		left -= (uint64_t)n;
		total += n;
		t->stats.bytes += (uint64_t)n;
		t->stats.bytes_copied += (uint64_t)n;
		if ((rc = format(t, t->in, t->in + n)) < 0) {
			*output_error = true;
			break;
		}
		if (t->progress)
			t->progress(&t->stats, t->progress_arg);
	}
	/* After an input error too, what was read goes out, as with cat. */
	if (!*output_error) {
		int out_rc = flush_output(t);
		if (out_rc < 0) {
			rc = out_rc;
			*output_error = true;
		}
	}
	t->stats.elapsed_ns += lsp_now_ns() - start;
	return rc < 0 ? rc : total;
}

int text_finish(struct text_cat *t)
{
	if (!t->pending_cr)
		return 0;
	t->pending_cr = false;
	t->out[t->used++] = '\r';
	return flush_output(t);
}
