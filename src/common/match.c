/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An option's argument matched against a list of words (no messages, so
 * that fuzz targets can link it alone). */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "argmatch.h"

int cli_match(const char *arg, const struct cli_choice *choices, size_t n)
{
	size_t len = strlen(arg);
	int found = -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(choices[i].word, arg, len))
			continue;
		if (choices[i].word[len] == '\0')
			return choices[i].value;
		if (found >= 0 && found != choices[i].value)
			return -ENOTUNIQ;
		found = choices[i].value;
	}
	return len ? found : -EINVAL;
}
