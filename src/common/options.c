/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line options read as GNU getopt_long reads them, from popt
 * option tables (see options.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "usage.h"

/* An option entry and the callback entry of its table (NULL: none). */
struct entry {
	const struct poptOption *opt;
	const struct poptOption *callback;
};

/* A visitor of walk(); returns true to stop the walk. */
typedef bool visit_fn(struct entry e, void *ctx);

/* Call visit for each option entry of table and of the tables it
 * includes, in their order.  Returns whether a visit stopped the walk. */
static bool walk(const struct poptOption *table, visit_fn *visit, void *ctx)
{
	const struct poptOption *callback = NULL;
	for (const struct poptOption *o = table; o->longName || o->shortName || o->arg; o++) {
		unsigned type = o->argInfo & POPT_ARG_MASK;
		if (type == POPT_ARG_INCLUDE_TABLE) {
			if (walk(o->arg, visit, ctx))
				return true;
		} else if (type == POPT_ARG_CALLBACK) {
			callback = o;
		} else if (visit((struct entry){ o, callback }, ctx)) {
			return true;
		}
	}
	return false;
}

/* Whether the option takes an argument (a string; the others are flags). */
static bool takes_arg(const struct poptOption *o)
{
	return (o->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING;
}

/* Whether the option's argument may be left out. */
static bool arg_optional(const struct poptOption *o)
{
	return o->argInfo & POPT_ARGFLAG_OPTIONAL;
}

/* Whether two entries act the same (getopt_long's has_arg, flag and val),
 * so that a prefix of both names no ambiguity. */
static bool same_action(const struct poptOption *a, const struct poptOption *b)
{
	return takes_arg(a) == takes_arg(b) && arg_optional(a) == arg_optional(b) &&
	       a->arg == b->arg && a->val == b->val;
}

/* A search for a short option. */
struct short_search {
	char name;
	struct entry found;
};

/* walk()'s visitor for a short_search: stops at the entry of that letter. */
static bool visit_short(struct entry e, void *ctx)
{
	struct short_search *s = ctx;
	if (e.opt->shortName != s->name)
		return false;
	s->found = e;
	return true;
}

/* A search for a long option: the name or a prefix of it. */
struct long_search {
	const char *name;
	size_t len;
	struct entry exact, first; /* the exact match; the first prefix match */
	bool ambiguous;            /* a later prefix match acts otherwise */
	FILE *list;                /* where list_candidate() writes */
};

/* walk()'s visitor for a long_search: notes the first entry the name
 * abbreviates and whether another acts otherwise; stops at an exact match. */
static bool visit_long(struct entry e, void *ctx)
{
	struct long_search *s = ctx;
	if (!e.opt->longName || strncmp(e.opt->longName, s->name, s->len))
		return false;
	if (!e.opt->longName[s->len]) {
		s->exact = e;
		return true;
	}
	/* A hidden option is taken only spelled out in full: it changes no
	 * abbreviation of the others (GNU's, in the tools' cp and mv). */
	if (e.opt->argInfo & POPT_ARGFLAG_DOC_HIDDEN)
		return false;
	if (!s->first.opt)
		s->first = e;
	else if (!same_action(s->first.opt, e.opt))
		s->ambiguous = true;
	return false;
}

/* walk()'s visitor after an ambiguous long_search: writes " '--NAME'" for
 * each candidate, as glibc lists them (the first match and the matches
 * that act otherwise).  Never stops the walk. */
static bool list_candidate(struct entry e, void *ctx)
{
	struct long_search *s = ctx;
	if (e.opt->longName && !strncmp(e.opt->longName, s->name, s->len) &&
	    !(e.opt->argInfo & POPT_ARGFLAG_DOC_HIDDEN) &&
	    (e.opt == s->first.opt || !same_action(s->first.opt, e.opt)))
		fprintf(s->list, " '--%s'", e.opt->longName);
	return false;
}

/* Report the ambiguous abbreviation word (as glibc does, without the list
 * when there is no memory for it).  Returns CLI_EXIT_USAGE. */
static int report_ambiguous(const struct poptOption *table, struct long_search *s,
			    const char *word)
{
	char *list = NULL;
	size_t size;
	s->list = open_memstream(&list, &size);
	if (s->list) {
		walk(table, list_candidate, s);
		fclose(s->list);
	}
	int status = list ? cli_usage_message("option '%s' is ambiguous; possibilities:%s",
					      word, list)
			  : cli_usage_message("option '%s' is ambiguous", word);
	free(list);
	return status;
}

/* Read the long option word ("--NAME[=ARG]"), taking its argument from the
 * next word when it needs one.  Returns 0 with *e and *arg set, or
 * CLI_EXIT_USAGE after reporting a usage error. */
static int read_long(struct cli_options *p, const char *word, struct entry *e,
		     const char **arg)
{
	const char *name = word + 2, *eq = strchr(name, '=');
	struct long_search s = { .name = name, .len = eq ? (size_t)(eq - name) : strlen(name) };
	walk(p->table, visit_long, &s);
	if (s.exact.opt)
		*e = s.exact;
	else if (s.ambiguous)
		return report_ambiguous(p->table, &s, word);
	else if (s.first.opt)
		*e = s.first;
	else
		return cli_usage_message("unrecognized option '%s'", word);
	if (eq && !takes_arg(e->opt))
		return cli_usage_message("option '--%s' doesn't allow an argument",
					 e->opt->longName);
	if (eq)
		*arg = eq + 1;
	else if (takes_arg(e->opt) && !arg_optional(e->opt) && p->next < p->argc)
		*arg = p->argv[p->next++];
	else if (takes_arg(e->opt) && !arg_optional(e->opt))
		return cli_usage_message("option '--%s' requires an argument",
					 e->opt->longName);
	return 0;
}

/* Read the next short option of p->cluster, and its argument: the rest of
 * the word, or else (unless optional) the next word.  Returns 0 with *e
 * and *arg set, or CLI_EXIT_USAGE after reporting a usage error. */
static int read_short(struct cli_options *p, struct entry *e, const char **arg)
{
	struct short_search s = { .name = *p->cluster++ };
	if (!walk(p->table, visit_short, &s))
		return cli_usage_message("invalid option -- '%c'", s.name);
	*e = s.found;
	if (!takes_arg(e->opt))
		return 0;
	if (*p->cluster)
		*arg = p->cluster;
	else if (!arg_optional(e->opt) && p->next < p->argc)
		*arg = p->argv[p->next++];
	else if (!arg_optional(e->opt))
		return cli_usage_message("option requires an argument -- '%c'", s.name);
	p->cluster = NULL;
	return 0;
}

/* Act on option e given with arg: store it where its entry says, or run
 * its table's callback.  Returns whether the caller is to see it. */
static bool apply(struct cli_options *p, struct entry e, const char *arg)
{
	p->opt = e.opt;
	p->arg = arg;
	if (e.callback) {
		poptContext ctx = poptGetContext(NULL, p->argc, (const char **)p->argv,
						 p->table, 0);
		if (p->help)
			poptSetOtherOptionHelp(ctx, p->help);
		poptCallbackType callback = (poptCallbackType)e.callback->arg;
		callback(ctx, POPT_CALLBACK_REASON_OPTION, e.opt, arg, e.callback->descrip);
		poptFreeContext(ctx);
		return false;
	}
	if (e.opt->arg && takes_arg(e.opt))
		*(const char **)e.opt->arg = arg;
	else if (e.opt->arg)
		*(int *)e.opt->arg = 1;
	return e.opt->val != 0;
}

/* Take argv[from] and the words after it as operands: the options are
 * over. */
static void rest_are_operands(struct cli_options *p, int from)
{
	while (from < p->argc)
		p->argv[1 + p->operands++] = p->argv[from++];
	p->next = p->argc;
}

void cli_options_start(struct cli_options *p, int argc, char **argv,
		       const struct poptOption *table, const char *help, unsigned flags)
{
	*p = (struct cli_options){ .argc = argc, .argv = argv, .table = table, .help = help,
				   .flags = flags, .next = 1 };
	if (getenv("POSIXLY_CORRECT"))
		p->flags |= CLI_OPTIONS_IN_ORDER;
}

int cli_options_next(struct cli_options *p)
{
	for (;;) {
		struct entry e = { NULL, NULL };
		const char *arg = NULL;
		int rc;
		if (p->cluster && *p->cluster) {
			rc = read_short(p, &e, &arg);
		} else if (p->next >= p->argc) {
			return 0;
		} else {
			char *word = p->argv[p->next++];
			if (!strcmp(word, "--")) {
				rest_are_operands(p, p->next);
				return 0;
			}
			if (word[0] != '-' || !word[1]) {
				if (p->flags & CLI_OPTIONS_IN_ORDER) {
					rest_are_operands(p, p->next - 1);
					return 0;
				}
				p->argv[1 + p->operands++] = word;
				continue;
			}
			if (word[1] == '-') {
				rc = read_long(p, word, &e, &arg);
			} else {
				p->cluster = word + 1;
				rc = read_short(p, &e, &arg);
			}
		}
		if (rc)
			return -1;
		if (apply(p, e, arg))
			return e.opt->val;
	}
}

char **cli_options_operands(struct cli_options *p, int *count)
{
	if (p->argc < 1) {
		*count = 0;
		return p->argv; /* execve() gave no words at all: { NULL } */
	}
	p->argv[1 + p->operands] = NULL;
	*count = p->operands;
	return p->argv + 1;
}
