/* SPDX-License-Identifier: GPL-2.0-or-later */
/* warmmem MIB SECONDS KEEP_MIB: touch up to MIB MiB of fresh memory, one
 * write a page, then give it all back by exiting.  On a new virtual machine
 * the first touch of each page of the guest's memory costs the host an
 * allocation (20 GiB written to tmpfs once took 53 s, longer than the copy
 * being measured); after this, the pages the benchmark gets are ones the
 * host already backs.  Bounded three ways: MIB in all, SECONDS of wall
 * clock, and it stops when the system's MemAvailable falls below KEEP_MIB
 * (another program wanting memory meanwhile).  Prints "MIB SECONDS WHY"
 * on standard output: how much it touched, how long it took, and what
 * stopped it (done, time or memory). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Memory is taken and touched this much at a time. */
#define CHUNK_MIB 64

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* MemAvailable in MiB, or -1 when /proc/meminfo does not say. */
static long available_mib(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return -1;
	char line[256];
	long kib = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib < 0 ? -1 : kib / 1024;
}

static long number(const char *arg)
{
	char *end;
	errno = 0;
	long n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 0) {
		fprintf(stderr, "warmmem: invalid number: %s\n", arg);
		exit(2);
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: warmmem MIB SECONDS KEEP_MIB\n");
		return 2;
	}
	long want = number(argv[1]), seconds = number(argv[2]), keep = number(argv[3]);
	long page = sysconf(_SC_PAGESIZE);
	double start = now();
	long done = 0;
	const char *why = "done";
	while (done < want) {
		if (now() - start >= (double)seconds) {
			why = "time";
			break;
		}
		long avail = available_mib();
		if (avail >= 0 && avail - CHUNK_MIB < keep) {
			why = "memory";
			break;
		}
		long mib = want - done < CHUNK_MIB ? want - done : CHUNK_MIB;
		size_t len = (size_t)mib << 20;
		/* Never unmapped: the pages stay ours until exit, so that the
		 * next chunk is fresh memory, not these pages again. */
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS
			       | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED) {
			why = "memory";
			break;
		}
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = 1;
		done += mib;
	}
	printf("%ld %.3f %s\n", done, now() - start, why);
	return fflush(stdout) == 0 ? 0 : 1;
}
