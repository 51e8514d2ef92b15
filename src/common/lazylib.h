/* Shared libraries loaded on first use.  json-c, libsmartcols, libacl and
 * libattr serve --json, tables and kept attributes only: a tool that links
 * them pays their loading and relocation at every start, which is most of
 * a small copy's time.  Instead, a shim module (lazy-jsonc.c, lazy-acl.c,
 * ...) defines each function the tools call, under the library's own name
 * and prototype (the library's header checks it), and the first call
 * dlopen()s the library by its soname and forwards to it. */
#ifndef SPLICE_UTILS_LAZYLIB_H
#define SPLICE_UTILS_LAZYLIB_H

#include <stdint.h>

struct lazy_lib {
	const char *soname;	/* as the dynamic linker finds it: "libacl.so.1" */
	void *handle;		/* once loaded */
};

/* Returns the address of NAME in LIB, loading LIB on first use (threads
 * may race here: dlopen counts references and both get the same handle).
 * It does not return when the library or the symbol is missing: it
 * reports the dynamic linker's words, as a tool linked against the
 * library would have at start, and exits with status 127 as it would. */
void *lazy_symbol(struct lazy_lib *lib, const char *name);

/* Load json-c or libsmartcols now, for a tool whose every run uses it
 * (acctpin's reports): it is then loaded with the tool, as if linked, and
 * never half way through a run.  Exits with 127 as lazy_symbol() when it
 * is missing. */
void lazy_jsonc_preload(void);
void lazy_smartcols_preload(void);

/* The body of a forwarding function: the target's address is looked up
 * once and kept. */
#define LAZY_TARGET(lib, name) \
	static __typeof__(&name) lazy_fn_; \
	__typeof__(&name) fn = __atomic_load_n(&lazy_fn_, __ATOMIC_ACQUIRE); \
	if (!fn) { \
		fn = (__typeof__(&name))(uintptr_t)lazy_symbol(&(lib), #name); \
		__atomic_store_n(&lazy_fn_, fn, __ATOMIC_RELEASE); \
	}

/* Defines RET NAME PARAMS forwarding ARGS to LIB's NAME. */
#define LAZY_FUNCTION(lib, ret, name, params, args) \
	ret name params \
	{ \
		LAZY_TARGET(lib, name) \
		return fn args; \
	}

/* The same for a function that returns nothing. */
#define LAZY_VOID_FUNCTION(lib, name, params, args) \
	void name params \
	{ \
		LAZY_TARGET(lib, name) \
		fn args; \
	}

#endif
