// giflib for Swift. Debian 12 ships giflib 5.2; giflib has no pkg-config file, so the
// header is found on the default include path and the library is linked by name.
#include <gif_lib.h>
#if !defined(GIFLIB_MAJOR) || GIFLIB_MAJOR < 5 || (GIFLIB_MAJOR == 5 && GIFLIB_MINOR < 1)
#error "animexport needs giflib 5.1 or newer (libgif-dev)"
#endif
