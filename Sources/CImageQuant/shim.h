// libimagequant (GPL-3.0-or-later) for Swift: the quantiser behind pngquant and gifski.
#include <stddef.h>
#include <dlfcn.h>
#include <libimagequant.h>

// Debian builds libimagequant with OpenMP. Its k-means step sums colour errors per thread and
// adds the partial sums in thread order, so the palette (and every byte after it) could depend
// on the number of cores. Call this on the thread that is about to quantise: it sets that
// thread's OpenMP team size to 1 through libgomp's omp_set_num_threads, found at run time in
// the libraries already loaded (libimagequant brings libgomp), so no OpenMP headers or link
// flags are needed. Returns 1 when OpenMP is present and was limited, 0 when libimagequant was
// built without it (then it is single-threaded anyway).
static inline int aex_liq_limit_to_one_thread(void) {
    void *everything = dlopen(NULL, RTLD_LAZY);
    if (everything == NULL) {
        return 0;
    }
    void (*setThreads)(int) = (void (*)(int))dlsym(everything, "omp_set_num_threads");
    int found = setThreads != NULL;
    if (found) {
        setThreads(1);
    }
    dlclose(everything);
    return found;
}
