/* The in-kernel copy paths (copy_file_range(2), sendfile(2)) and the
 * names of the methods. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "xfer.h"

/* Bytes asked for per in-kernel copy call: large enough to cost little,
 * small enough for progress reports and a prompt stop on a signal. */
#define KERNEL_COPY_CHUNK (16u << 20)

static const char *const names[] = {
	[SP_METHOD_AUTO] = "splice-or-rw",
	[SP_METHOD_SPLICE] = "splice",
	[SP_METHOD_RW] = "rw",
	[SP_METHOD_VMSPLICE] = "vmsplice",
	[SP_METHOD_GIFT] = "gift",
	[SP_METHOD_COPY_FILE_RANGE] = "copy_file_range",
	[SP_METHOD_SENDFILE] = "sendfile",
	[SP_METHOD_BEST] = "auto",
};

const char *sp_method_name(enum sp_method method)
{
	return (unsigned)method < sizeof(names) / sizeof(names[0]) ? names[method] : NULL;
}

int sp_method_parse(const char *name, enum sp_method *method)
{
	for (unsigned i = 0; name && i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i])) {
			*method = (enum sp_method)i;
			return 0;
		}
	}
	return -EINVAL;
}

enum sp_method sp_last_method(const struct sp_mover *m)
{
	return m->last_method;
}

/* One in-kernel copy call of up to n bytes by the given method. */
static ssize_t kernel_copy(struct xfer *x, enum sp_method how, size_t n)
{
	if (how == SP_METHOD_COPY_FILE_RANGE)
		return copy_file_range(x->in, x->posp, x->out, NULL, n, 0);
	return sendfile(x->out, x->in, x->posp, n);
}

/* Copy with copy_file_range(2) or sendfile(2) until done.  Returns 0,
 * SP_FALL_BACK when the first call is refused, as between two files it
 * cannot copy between (another filesystem, no support, O_APPEND ...), or
 * finds nothing to copy, as on files whose size the kernel does not know;
 * or a negative errno. */
static int move_in_kernel(struct xfer *x, enum sp_method how)
{
	struct sp_mover *m = x->m;
	x->used = how;
	while (x->left) {
		SP_COUNT_OTHER(&m->stats);
		ssize_t n = kernel_copy(x, how, xfer_min(x->left, KERNEL_COPY_CHUNK));
		if (n < 0) {
			int err = errno;
			int rc = xfer_next_step(x, err, -1, x->out,
						x->done ? SP_REFUSALS_NONE : SP_REFUSALS_COPY,
						xfer_error_side(x, err));
			if (rc)
				return rc;
			continue;
		}
		if (n == 0)
			return x->done == 0 ? SP_FALL_BACK : 0;
		int rc = xfer_spliced(x, (size_t)n);
		if (rc)
			return rc;
	}
	return 0;
}

int xfer_move_copy_file_range(struct xfer *x)
{
	return move_in_kernel(x, SP_METHOD_COPY_FILE_RANGE);
}

int xfer_move_sendfile(struct xfer *x)
{
	return move_in_kernel(x, SP_METHOD_SENDFILE);
}
