/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared libraries loaded on first use (see lazylib.h). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>

#include "lazylib.h"
#include "message.h"

/* Report the dynamic linker's message, once for lib (threads may both
 * report a race's failure: never worse than twice). */
static void lazy_report(struct lazy_lib *lib)
{
	const char *why = dlerror();
	if (!__atomic_exchange_n(&lib->failed, true, __ATOMIC_ACQ_REL))
		cli_error(0, "error while loading shared libraries: %s",
			  why ? why : lib->soname);
}

void *lazy_symbol(struct lazy_lib *lib, const char *name)
{
	void *handle = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (!handle && __atomic_load_n(&lib->failed, __ATOMIC_ACQUIRE)) {
		errno = ELIBACC;
		return NULL;
	}
	if (!handle) {
		handle = dlopen(lib->soname, RTLD_LAZY | RTLD_LOCAL);
		if (!handle) {
			lazy_report(lib);
			errno = ELIBACC;
			return NULL;
		}
		__atomic_store_n(&lib->handle, handle, __ATOMIC_RELEASE);
	}
	dlerror();
	void *sym = dlsym(handle, name);
	if (!sym) {
		lazy_report(lib);
		errno = ELIBACC;
	}
	return sym;
}

void lazy_load_early(struct lazy_lib *lib)
{
	if (__atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE))
		return;
	void *handle = dlopen(lib->soname, RTLD_LAZY | RTLD_LOCAL);
	if (handle)
		__atomic_store_n(&lib->handle, handle, __ATOMIC_RELEASE);
	else
		dlerror();
}

void lazy_preload(struct lazy_lib *lib, const char *name)
{
	if (!lazy_symbol(lib, name))
		exit(127);
}
