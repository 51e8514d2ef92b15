// SPDX-License-Identifier: GPL-2.0
/*
 * debug-kernel-selftest - a module that commits one bug on purpose, so that
 * `contrib/stealfs/tests/debug-kernel.sh --self-test` can show each detector of the debug
 * kernel firing and failing the run.  insmod debug-kernel-selftest.ko bug=NAME:
 *   none      nothing (the clean run must pass)
 *   leak      kmalloc and lose the pointer        (kmemleak)
 *   uaf       write to freed slab memory          (KASAN)
 *   warn      WARN_ON(1)                          (WARNING:)
 *   lockdep   take two mutexes in both orders     (PROVE_LOCKING)
 *   vm        put_page on a free page             (DEBUG_VM)
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *bug = "none";
module_param(bug, charp, 0444);

static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);
static void *lost;

/* Loses the only pointer to a 1000-byte allocation. */
static void do_leak(void)
{
	lost = kmalloc(1000, GFP_KERNEL);
	lost = NULL;
}

/* Writes one byte into a freed 64-byte object. */
static void do_uaf(void)
{
	char *p = kmalloc(64, GFP_KERNEL);

	kfree(p);
	OPTIMIZER_HIDE_VAR(p);
	((volatile char *)p)[3] = 1;
}

/* Takes lock_a then lock_b, and later lock_b then lock_a. */
static void do_lockdep(void)
{
	mutex_lock(&lock_a);
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);
	mutex_lock(&lock_b);
	mutex_lock(&lock_a);
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
}

/* Drops a reference to a page that has none left. */
static void do_vm(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	if (!page)
		return;
	put_page(page);
	OPTIMIZER_HIDE_VAR(page);
	put_page(page);
}

/* Commits the bug named by the bug= parameter; returns 0, or -EINVAL for an
 * unknown name. */
static int __init selftest_init(void)
{
	if (!strcmp(bug, "leak"))
		do_leak();
	else if (!strcmp(bug, "uaf"))
		do_uaf();
	else if (!strcmp(bug, "warn"))
		WARN_ON(1);
	else if (!strcmp(bug, "lockdep"))
		do_lockdep();
	else if (!strcmp(bug, "vm"))
		do_vm();
	else if (strcmp(bug, "none"))
		return -EINVAL;
	return 0;
}

static void __exit selftest_exit(void)
{
}

module_init(selftest_init);
module_exit(selftest_exit);
MODULE_DESCRIPTION("Deliberate bugs for the splice-utils debug kernel self-test");
MODULE_LICENSE("GPL");
