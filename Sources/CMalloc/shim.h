// glibc's allocator settings (mallopt) for Swift; Swift's Glibc module leaves malloc.h out.
// Part of the C library, so nothing to link and nothing to install.
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
