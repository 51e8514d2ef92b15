/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Replays fuzz inputs (files, or every file in the directories given)
 * through a fuzz target without libFuzzer: the regression half of fuzzing,
 * run by "make check" with the normal compiler. */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Feed one file to the target.  Returns 0, or 1 when it cannot be read. */
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

/* Feed a file, or each regular file of a directory.  Returns the number of
 * failures; counts the inputs in *count. */
static int replay(const char *path, unsigned *count)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		++*count;
		return replay_file(path);
	}
	DIR *d = opendir(path);
	if (!d) {
		perror(path);
		return 1;
	}
	int failures = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char child[4096];
		snprintf(child, sizeof(child), "%s/%s", path, e->d_name);
		failures += replay(child, count);
	}
	closedir(d);
	return failures;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int failures = 0;
	for (int i = 1; i < argc; i++)
		failures += replay(argv[i], &count);
	printf("%u inputs replayed, %d unreadable\n", count, failures);
	return failures ? 1 : 0;
}
