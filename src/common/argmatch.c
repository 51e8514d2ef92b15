/* SPDX-License-Identifier: GPL-2.0-or-later */
/* An option's argument matched against a list of words. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "argmatch.h"
#include "message.h"
#include "usage.h"

/* Print the valid arguments, the words of one value on one line. */
static void list_choices(const struct cli_choice *choices, size_t n)
{
	fputs("Valid arguments are:", stderr);
	for (size_t i = 0; i < n; i++) {
		bool synonym = i > 0 && choices[i].value == choices[i - 1].value;
		fprintf(stderr, "%s'%s'", synonym ? ", " : "\n  - ", choices[i].word);
	}
	fputc('\n', stderr);
}

bool cli_argmatch(const char *context, const char *arg, const struct cli_choice *choices,
		 size_t n, int *value)
{
	int v = cli_match(arg, choices, n);
	if (v >= 0) {
		*value = v;
		return true;
	}
	cli_error(0, "%s argument '%s' for '%s'", v == -ENOTUNIQ ? "ambiguous" : "invalid", arg,
		  context);
	list_choices(choices, n);
	cli_usage_hint();
	return false;
}
