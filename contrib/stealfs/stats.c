// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the steal counters in /sys/fs/stealfs/stats/, one read-only
 * file per counter, each a count of pages (pipe buffers) since the module
 * was loaded.
 */
#include "stealfs.h"

#include <linux/kobject.h>
#include <linux/sysfs.h>

static atomic_long_t stealfs_counters[STEALFS_NR_COUNTERS];
static struct kobject *stealfs_kobj;

/* Adds @n to counter @c. */
void stealfs_count(enum stealfs_counter c, unsigned long n)
{
	atomic_long_add(n, &stealfs_counters[c]);
}

/* Prints the counter behind @attr; returns the length written. */
static ssize_t stealfs_counter_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf);

#define STEALFS_ATTR(name) \
	static struct kobj_attribute stealfs_attr_##name = \
		__ATTR(name, 0444, stealfs_counter_show, NULL)

STEALFS_ATTR(stolen_anon);
STEALFS_ATTR(stolen_pagecache);
STEALFS_ATTR(copied);
STEALFS_ATTR(refused_partial);
STEALFS_ATTR(refused_large);
STEALFS_ATTR(refused_anon);
STEALFS_ATTR(refused_mapped);
STEALFS_ATTR(refused_flags);
STEALFS_ATTR(refused_busy);

/* Indexed by enum stealfs_counter. */
static struct attribute *stealfs_stat_attrs[STEALFS_NR_COUNTERS + 1] = {
	[STEALFS_STOLEN_ANON] = &stealfs_attr_stolen_anon.attr,
	[STEALFS_STOLEN_PAGECACHE] = &stealfs_attr_stolen_pagecache.attr,
	[STEALFS_COPIED] = &stealfs_attr_copied.attr,
	[STEALFS_REFUSED_PARTIAL] = &stealfs_attr_refused_partial.attr,
	[STEALFS_REFUSED_LARGE] = &stealfs_attr_refused_large.attr,
	[STEALFS_REFUSED_ANON] = &stealfs_attr_refused_anon.attr,
	[STEALFS_REFUSED_MAPPED] = &stealfs_attr_refused_mapped.attr,
	[STEALFS_REFUSED_FLAGS] = &stealfs_attr_refused_flags.attr,
	[STEALFS_REFUSED_BUSY] = &stealfs_attr_refused_busy.attr,
};

static const struct attribute_group stealfs_stat_group = {
	.name = "stats",
	.attrs = stealfs_stat_attrs,
};

static ssize_t stealfs_counter_show(struct kobject *kobj,
				    struct kobj_attribute *attr, char *buf)
{
	int i;

	for (i = 0; i < STEALFS_NR_COUNTERS; i++)
		if (stealfs_stat_attrs[i] == &attr->attr)
			return sysfs_emit(buf, "%lu\n",
				atomic_long_read(&stealfs_counters[i]));
	return -EINVAL;
}

/* Creates /sys/fs/stealfs/stats/; returns 0 or -errno. */
int stealfs_stats_init(void)
{
	int err;

	stealfs_kobj = kobject_create_and_add("stealfs", fs_kobj);
	if (!stealfs_kobj)
		return -ENOMEM;
	err = sysfs_create_group(stealfs_kobj, &stealfs_stat_group);
	if (err)
		kobject_put(stealfs_kobj);
	return err;
}

/* Removes /sys/fs/stealfs/. */
void stealfs_stats_exit(void)
{
	sysfs_remove_group(stealfs_kobj, &stealfs_stat_group);
	kobject_put(stealfs_kobj);
}
