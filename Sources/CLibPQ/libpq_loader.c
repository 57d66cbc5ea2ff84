#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// libpq's functions, found once by sift_pq_load.
static struct {
#define SIFT_PQ_POINTER(type, name, parameters, arguments) type (*name) parameters;
#define SIFT_PQ_POINTER_VOID(name, parameters, arguments) void (*name) parameters;
    SIFT_PQ_FUNCTIONS(SIFT_PQ_POINTER, SIFT_PQ_POINTER_VOID)
#undef SIFT_PQ_POINTER
#undef SIFT_PQ_POINTER_VOID
} functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded = 0;

static void load(void) {
    // The runtime library's soname (apt libpq5); the development link as a fallback.
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libpq.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "PostgreSQL's client library libpq could not be loaded (install it: apt-get install libpq5): %s",
                 why ? why : "not found");
        return;
    }
#define SIFT_PQ_FIND(name) \
    do { \
        void *symbol = dlsym(library, #name); \
        if (!symbol) { \
            snprintf(load_error, sizeof load_error, "the libpq found has no %s: it is older than Sift needs", #name); \
            return; \
        } \
        memcpy(&functions.name, &symbol, sizeof symbol); \
    } while (0);
#define SIFT_PQ_FIND_FUNCTION(type, name, parameters, arguments) SIFT_PQ_FIND(name)
#define SIFT_PQ_FIND_VOID(name, parameters, arguments) SIFT_PQ_FIND(name)
    SIFT_PQ_FUNCTIONS(SIFT_PQ_FIND_FUNCTION, SIFT_PQ_FIND_VOID)
#undef SIFT_PQ_FIND_FUNCTION
#undef SIFT_PQ_FIND_VOID
#undef SIFT_PQ_FIND
    loaded = 1;
}

int sift_pq_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (loaded) return 0;
    if (error && size > 0) snprintf(error, size, "%s", load_error);
    return -1;
}

#define SIFT_PQ_FORWARD(type, name, parameters, arguments) \
    type sift_##name parameters { return functions.name arguments; }
#define SIFT_PQ_FORWARD_VOID(name, parameters, arguments) \
    void sift_##name parameters { functions.name arguments; }
SIFT_PQ_FUNCTIONS(SIFT_PQ_FORWARD, SIFT_PQ_FORWARD_VOID)
