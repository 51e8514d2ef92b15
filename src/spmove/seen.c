/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spmove: sets of files by device and inode -- the sources already seen,
 * the destinations made in this run, and which copy each source has (to
 * make hard links again).  A binary tree (tsearch) keyed on (dev, ino). */
#include "config.h"

#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "spmove.h"

struct file {
	dev_t dev;
	ino_t ino;
	char *name;
	dev_t copy_dev;   /* the file made under name, once known */
	ino_t copy_ino;
	bool has_copy;
};

struct seen {
	void *root;
};

static int compare(const void *a, const void *b)
{
	const struct file *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

struct seen *seen_new(void)
{
	return calloc(1, sizeof(struct seen));
}

static void free_file(void *node)
{
	struct file *f = node;
	free(f->name);
	free(f);
}

void seen_free(struct seen *set)
{
	if (!set)
		return;
	tdestroy(set->root, free_file);
	free(set);
}

const char *seen_add(struct seen *set, const struct stat *st, const char *name)
{
	struct file *f = malloc(sizeof(*f));
	if (!f)
		return NULL;
	*f = (struct file){ st->st_dev, st->st_ino, strdup(name), 0, 0, false };
	struct file **slot = f->name ? tsearch(f, &set->root, compare) : NULL;
	if (slot && *slot == f)
		return NULL;
	free_file(f);
	return slot ? (*slot)->name : NULL;
}

const char *seen_find(const struct seen *set, const struct stat *st)
{
	struct file key = { st->st_dev, st->st_ino, NULL, 0, 0, false };
	struct file *const *slot = tfind(&key, &set->root, compare);
	return slot ? (*slot)->name : NULL;
}

void seen_set_copy(struct seen *set, const struct stat *st, const struct stat *copy)
{
	struct file key = { st->st_dev, st->st_ino, NULL, 0, 0, false };
	struct file **slot = tfind(&key, &set->root, compare);
	if (slot) {
		(*slot)->copy_dev = copy->st_dev;
		(*slot)->copy_ino = copy->st_ino;
		(*slot)->has_copy = true;
	}
}

bool seen_copy(const struct seen *set, const struct stat *st, struct stat *copy)
{
	struct file key = { st->st_dev, st->st_ino, NULL, 0, 0, false };
	struct file *const *slot = tfind(&key, &set->root, compare);
	if (!slot || !(*slot)->has_copy)
		return false;
	copy->st_dev = (*slot)->copy_dev;
	copy->st_ino = (*slot)->copy_ino;
	return true;
}

void seen_forget(struct seen *set, const struct stat *st)
{
	struct file key = { st->st_dev, st->st_ino, NULL, 0, 0, false };
	struct file **slot = tfind(&key, &set->root, compare);
	if (!slot)
		return;
	struct file *f = *slot;
	tdelete(&key, &set->root, compare);
	free_file(f);
}
