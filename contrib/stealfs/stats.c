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

#define STEALFS_ATTR(e, name) \
	static struct kobj_attribute stealfs_attr_##name = \
		__ATTR(name, 0444, stealfs_counter_show, NULL);
STEALFS_COUNTERS(STEALFS_ATTR)
#undef STEALFS_ATTR

/* Indexed by enum stealfs_counter. */
#define STEALFS_ATTR_SLOT(e, name) [STEALFS_##e] = &stealfs_attr_##name.attr,
static struct attribute *stealfs_stat_attrs[STEALFS_NR_COUNTERS + 1] = {
	STEALFS_COUNTERS(STEALFS_ATTR_SLOT)
};
#undef STEALFS_ATTR_SLOT

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
