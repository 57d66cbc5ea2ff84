#ifndef SIFT_BENCHMARKS_CSQLITE3RAW_H
#define SIFT_BENCHMARKS_CSQLITE3RAW_H
// The system SQLite, for the hand-written baseline the SQLite benchmarks compare Sift with.
#include <sqlite3.h>

static inline sqlite3_destructor_type sift_bench_transient(void) { return SQLITE_TRANSIENT; }
#endif
