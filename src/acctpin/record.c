/* SPDX-License-Identifier: GPL-2.0-or-later */
/* acctpin: decoding struct acct_v3 records (<linux/acct.h>). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <linux/acct.h>

#include "acctpin.h"

_Static_assert(sizeof(struct acct_v3) == AP_RECORD_SIZE, "struct acct_v3 is 64 bytes");

/* Every flag bit the kernel defines. */
#define AP_KNOWN_FLAGS (AFORK | ASU | ACOMPAT | ACORE | AXSIG | AGROUP)

/* ac_version of a v3 record written on a machine of the other byte order. */
#define AP_OTHER_ORDER_V3 (3 | (ACCT_BYTEORDER ^ 0x80))

uint64_t ap_comp_decode(uint16_t c)
{
	return (uint64_t)(c & 0x1fff) << (3 * (c >> 13));
}

int ap_record_decode(const unsigned char raw[AP_RECORD_SIZE], struct ap_record *rec,
		     char *why, size_t why_size)
{
	struct acct_v3 a;
	memcpy(&a, raw, sizeof a);
	unsigned version = (unsigned char)a.ac_version;
	if (version == AP_OTHER_ORDER_V3) {
		snprintf(why, why_size, "version 3 record in the other byte order (%s-endian); "
			 "not supported", ACCT_BYTEORDER ? "little" : "big");
		return -EINVAL;
	}
	if (version != (3 | ACCT_BYTEORDER)) {
		snprintf(why, why_size, "record of version %u; only version 3 (acct_v3) is "
			 "supported", version & 0x7f);
		return -EINVAL;
	}
	unsigned flags = (unsigned char)a.ac_flag;
	if (flags & ~AP_KNOWN_FLAGS) {
		snprintf(why, why_size, "unknown flag bits 0x%02x", flags & ~AP_KNOWN_FLAGS);
		return -EINVAL;
	}
	const char *nul = memchr(a.ac_comm, '\0', sizeof a.ac_comm);
	bool padded = nul && nul != a.ac_comm;
	for (const char *p = nul; padded && p < a.ac_comm + sizeof a.ac_comm; p++)
		padded = *p == '\0';
	if (!padded) {
		snprintf(why, why_size, "command name is not a NUL-padded string");
		return -EINVAL;
	}
	rec->flags = flags;
	rec->version = 3;
	rec->tty = a.ac_tty;
	rec->exitcode = a.ac_exitcode;
	rec->uid = a.ac_uid;
	rec->gid = a.ac_gid;
	rec->pid = a.ac_pid;
	rec->ppid = a.ac_ppid;
	rec->btime = a.ac_btime;
	rec->etime = a.ac_etime;
	rec->utime = ap_comp_decode(a.ac_utime);
	rec->stime = ap_comp_decode(a.ac_stime);
	rec->mem = ap_comp_decode(a.ac_mem);
	rec->io = ap_comp_decode(a.ac_io);
	rec->rw = ap_comp_decode(a.ac_rw);
	rec->minflt = ap_comp_decode(a.ac_minflt);
	rec->majflt = ap_comp_decode(a.ac_majflt);
	rec->swaps = ap_comp_decode(a.ac_swaps);
	memcpy(rec->comm, a.ac_comm, sizeof a.ac_comm);
	rec->comm[sizeof a.ac_comm] = '\0';
	return 0;
}

int ap_record_read(FILE *f, uint64_t *offset, struct ap_record *rec, char *msg, size_t msg_size)
{
	unsigned char raw[AP_RECORD_SIZE];
	size_t got = 0;
	for (;;) {
		got += fread(raw + got, 1, sizeof raw - got, f);
		int err = errno;
		if (got == sizeof raw || !ferror(f) || (err != EINTR && err != EAGAIN))
			break;
		/* A signal, or an input that is not ready: try again. */
		clearerr(f);
		if (err == EAGAIN)
			poll(&(struct pollfd){ .fd = fileno(f), .events = POLLIN }, 1, -1);
	}
	if (got == 0 && !ferror(f))
		return 0;
	if (ferror(f)) {
		int err = errno ? errno : EIO;
		snprintf(msg, msg_size, "read error at byte offset %" PRIu64 ": %s",
			 *offset, strerror(err));
		return -err;
	}
	if (got < sizeof raw) {
		snprintf(msg, msg_size, "truncated record at byte offset %" PRIu64
			 " (%zu of %d bytes)", *offset, got, AP_RECORD_SIZE);
		return -EINVAL;
	}
	char why[120];
	if (ap_record_decode(raw, rec, why, sizeof why) < 0) {
		snprintf(msg, msg_size, "bad record at byte offset %" PRIu64 ": %s", *offset, why);
		return -EINVAL;
	}
	*offset += sizeof raw;
	return 1;
}

int ap_records_load(const char *path, uint64_t base, size_t max, struct ap_records *out)
{
	memset(out, 0, sizeof *out);
	FILE *f = fopen(path, "rbe");
	if (!f)
		return -errno;
	if (base && fseeko(f, (off_t)base, SEEK_SET) < 0) {
		int err = errno;
		fclose(f);
		return -err;
	}
	size_t cap = 0;
	uint64_t offset = base;
	struct ap_record rec;
	int rc;
	while ((rc = ap_record_read(f, &offset, &rec, out->error, sizeof out->error)) > 0) {
		if (out->n == max) {
			snprintf(out->error, sizeof out->error, "more than %zu records", max);
			out->damaged = true;
			break;
		}
		if (out->n == cap) {
			cap = cap ? 2 * cap : 64;
			struct ap_record *v = realloc(out->v, cap * sizeof *v);
			if (!v) {
				fclose(f);
				ap_records_free(out);
				return -ENOMEM;
			}
			out->v = v;
		}
		out->v[out->n++] = rec;
	}
	if (rc < 0)
		out->damaged = true;
	fclose(f);
	return 0;
}

void ap_records_free(struct ap_records *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

long ap_records_find(const struct ap_records *r, uint32_t pid, const char *comm)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].pid == pid && !strcmp(r->v[i].comm, comm))
			return (long)i;
	return -1;
}
