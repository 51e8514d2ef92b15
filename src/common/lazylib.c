/* Shared libraries loaded on first use (see lazylib.h). */
#include "config.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "lazylib.h"
#include "message.h"

/* Reports the dynamic linker's message and exits as it would have. */
static _Noreturn void lazy_fail(void)
{
	const char *why = dlerror();
	cli_error(0, "error while loading shared libraries: %s", why ? why : "unknown error");
	exit(127);
}

void *lazy_symbol(struct lazy_lib *lib, const char *name)
{
	void *handle = __atomic_load_n(&lib->handle, __ATOMIC_ACQUIRE);
	if (!handle) {
		handle = dlopen(lib->soname, RTLD_LAZY | RTLD_LOCAL);
		if (!handle)
			lazy_fail();
		__atomic_store_n(&lib->handle, handle, __ATOMIC_RELEASE);
	}
	dlerror();
	void *sym = dlsym(handle, name);
	if (!sym)
		lazy_fail();
	return sym;
}
