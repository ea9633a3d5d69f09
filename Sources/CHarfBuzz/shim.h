// HarfBuzz for Swift: OpenType shaping of text layers that ask for font features (tnum, …).
// Debian 12 ships HarfBuzz 6.0; only the stable core API (hb.h, hb-ot.h) is used.
#include <hb.h>
#include <hb-ot.h>
#if !HB_VERSION_ATLEAST(2, 6, 0)
#error "animexport needs HarfBuzz 2.6 or newer (libharfbuzz-dev)"
#endif
