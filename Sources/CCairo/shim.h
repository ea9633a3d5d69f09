// Cairo for Swift, with the FreeType/fontconfig font backend for text layers.
// Debian 12 ships Cairo 1.16 and fontconfig 2.14; nothing newer is used.
#include <cairo.h>
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
#if CAIRO_VERSION < CAIRO_VERSION_ENCODE(1, 16, 0)
#error "animexport needs Cairo 1.16 or newer (libcairo2-dev)"
#endif
