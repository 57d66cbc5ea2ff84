#ifndef SIFT_CSQLITE_SHIM_H
#define SIFT_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type sift_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type sift_sqlite_static(void) { return SQLITE_STATIC; }
#endif
