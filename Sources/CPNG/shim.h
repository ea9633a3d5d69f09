// libpng 1.6 for Swift: PNG frames and sprite sheets with straight alpha and a chosen zlib level.
#include <png.h>
#include <zlib.h>
