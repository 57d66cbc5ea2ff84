#ifndef SIFT_CLIBPQ_SHIM_H
#define SIFT_CLIBPQ_SHIM_H
// The include path comes from pkg-config (libpq.pc: -I/usr/include/postgresql on Debian).
#include <libpq-fe.h>
#endif
