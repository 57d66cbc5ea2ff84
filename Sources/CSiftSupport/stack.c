#define _GNU_SOURCE
#include "CSiftSupport.h"
#include <pthread.h>
#include <stdint.h>

// The lowest usable address of this thread's stack, read once per thread (reading it can be
// slow: for the main thread glibc parses /proc/self/maps).
static __thread uintptr_t stack_low = 0;
static __thread size_t stack_size = 0;
static __thread int stack_known = 0;

static void load_bounds(void) {
    if (stack_known) return;
    stack_known = -1;
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t high = (uintptr_t)pthread_get_stackaddr_np(self);
    size_t size = pthread_get_stacksize_np(self);
    stack_low = high - size;
    stack_size = size;
    stack_known = 1;
#else
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        void *addr = NULL;
        size_t size = 0;
        if (pthread_attr_getstack(&attr, &addr, &size) == 0 && addr != NULL) {
            stack_low = (uintptr_t)addr;
            stack_size = size;
            stack_known = 1;
        }
        pthread_attr_destroy(&attr);
    }
#endif
}

size_t sift_stack_remaining(void) {
    load_bounds();
    if (stack_known != 1) return SIZE_MAX;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    return here > stack_low ? (size_t)(here - stack_low) : 0;
}

size_t sift_stack_size(void) {
    load_bounds();
    return stack_known == 1 ? stack_size : 0;
}
