// Cairo for Swift. Debian 12 ships Cairo 1.16; nothing newer is used.
#include <cairo.h>
#if CAIRO_VERSION < CAIRO_VERSION_ENCODE(1, 16, 0)
#error "animexport needs Cairo 1.16 or newer (libcairo2-dev)"
#endif
