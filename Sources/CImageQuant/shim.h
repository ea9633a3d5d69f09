// libimagequant (GPL-3.0-or-later) for Swift: the quantiser behind pngquant and gifski.
#include <stddef.h>
#include <libimagequant.h>
