#ifndef SIFT_CSIFTSUPPORT_H
#define SIFT_CSIFTSUPPORT_H
#include <stddef.h>

/// Bytes of stack left below the caller on the current thread (stacks grow down on every
/// platform Sift runs on). Recursive code (the parser) checks it before going deeper, so
/// hostile nesting is an error, never a stack overflow, whatever the thread's stack size.
/// Returns SIZE_MAX when the thread's stack bounds cannot be read.
size_t sift_stack_remaining(void);

/// The current thread's stack size in bytes (0 if unknown).
size_t sift_stack_size(void);
#endif
