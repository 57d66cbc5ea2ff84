#ifndef SIFT_CZLIB_SHIM_H
#define SIFT_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro passing the library's version and the stream's size; Swift cannot import it.
static inline int sift_inflate_init_raw(z_streamp stream) { return inflateInit2(stream, -15); }
// deflateInit2 likewise: raw deflate (no zlib header), as Core Data compresses its model cache.
static inline int sift_deflate_init_raw(z_streamp stream) { return deflateInit2(stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY); }
#endif
