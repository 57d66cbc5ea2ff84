#ifndef SIFT_CZLIB_SHIM_H
#define SIFT_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro passing the library's version and the stream's size; Swift cannot import it.
static inline int sift_inflate_init_raw(z_streamp stream) { return inflateInit2(stream, -15); }
#endif
