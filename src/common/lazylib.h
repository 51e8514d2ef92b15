/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared libraries loaded on first use.  json-c, libsmartcols, libacl and
 * libattr serve --json, tables and kept attributes only: a tool that links
 * them pays their loading and relocation at every start, which is most of
 * a small copy's time.  Instead, a shim module (lazy-jsonc.c, lazy-acl.c,
 * ...) defines each function the tools call, under the library's own name
 * and prototype (the library's header checks it), and the first call
 * dlopen()s the library by its soname and forwards to it. */
#ifndef SPLICE_UTILS_LAZYLIB_H
#define SPLICE_UTILS_LAZYLIB_H

#include <stdbool.h>
#include <stdint.h>

struct lazy_lib {
	const char *soname;	/* as the dynamic linker finds it: "libacl.so.1" */
	void *handle;		/* once loaded */
	bool failed;		/* could not be loaded (reported): not tried again */
};

/* Returns the address of NAME in LIB, loading LIB on first use (threads
 * may race here: dlopen counts references and both get the same handle).
 * When the library cannot be loaded (missing, out of descriptors or
 * memory) or lacks NAME, it reports the dynamic linker's words once, as a
 * tool linked against the library would have at start, and returns NULL
 * with errno ELIBACC: the call fails as the library's own failures do, and
 * the tool goes on (a copy cleans up and keeps its status) instead of
 * dying half way through a run. */
void *lazy_symbol(struct lazy_lib *lib, const char *name);

/* Load LIB now (NAME: one of its symbols), for a tool whose every run
 * uses it: exits with status 127, as the dynamic linker would have at
 * start, when it cannot. */
void lazy_preload(struct lazy_lib *lib, const char *name);

/* Try to load LIB now, quietly: a failure is neither reported nor kept,
 * and the first use tries again (and reports).  For a tool short of
 * descriptors that will use the library: loaded while descriptors are
 * free, before the run holds them all. */
void lazy_load_early(struct lazy_lib *lib);

/* lazy_load_early() for libacl and libattr (lazy-acl.c, lazy-attr.c);
 * libattr's configuration file is read then too. */
void lazy_acl_load_early(void);
void lazy_attr_load_early(void);

/* Load json-c or libsmartcols now, for a tool whose every run uses it
 * (acctpin's reports): it is then loaded with the tool, as if linked, and
 * never half way through a run.  Exits with 127 when it is missing. */
void lazy_jsonc_preload(void);
void lazy_smartcols_preload(void);

/* The body of a forwarding function: the target's address is looked up
 * once and kept (NULL when the library cannot be loaded). */
#define LAZY_TARGET(lib, name) \
	static __typeof__(&name) lazy_fn_; \
	__typeof__(&name) fn = __atomic_load_n(&lazy_fn_, __ATOMIC_ACQUIRE); \
	if (!fn) { \
		fn = (__typeof__(&name))(uintptr_t)lazy_symbol(&(lib), #name); \
		__atomic_store_n(&lazy_fn_, fn, __ATOMIC_RELEASE); \
	}

/* Defines RET NAME PARAMS forwarding ARGS to LIB's NAME; FAIL is what it
 * returns (errno ELIBACC) when the library cannot be loaded: the value
 * by which NAME itself says it failed. */
#define LAZY_FUNCTION(lib, ret, name, params, args, fail) \
	ret name params \
	{ \
		LAZY_TARGET(lib, name) \
		return fn ? fn args : (fail); \
	}

/* The same for a function that returns nothing (nothing done). */
#define LAZY_VOID_FUNCTION(lib, name, params, args) \
	void name params \
	{ \
		LAZY_TARGET(lib, name) \
		if (fn) \
			fn args; \
	}

#endif
