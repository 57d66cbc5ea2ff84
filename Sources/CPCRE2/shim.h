#ifndef SIFT_CPCRE2_SHIM_H
#define SIFT_CPCRE2_SHIM_H
// The 8-bit (UTF-8) API of PCRE2. The generic names (pcre2_compile, ...) are macros that
// Swift cannot import, so the inline functions below forward to the _8 symbols.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

static inline uint32_t sift_pcre2_utf(void) { return PCRE2_UTF; }
static inline uint32_t sift_pcre2_ucp(void) { return PCRE2_UCP; }
static inline uint32_t sift_pcre2_caseless(void) { return PCRE2_CASELESS; }
static inline uint32_t sift_pcre2_anchored(void) { return PCRE2_ANCHORED; }
static inline uint32_t sift_pcre2_endanchored(void) { return PCRE2_ENDANCHORED; }
static inline size_t sift_pcre2_zero_terminated(void) { return PCRE2_ZERO_TERMINATED; }
static inline uint32_t sift_pcre2_no_utf_check(void) { return PCRE2_NO_UTF_CHECK; }
static inline uint32_t sift_pcre2_no_jit(void) { return PCRE2_NO_JIT; }
static inline uint32_t sift_pcre2_jit_complete(void) { return PCRE2_JIT_COMPLETE; }
static inline int sift_pcre2_error_nomatch(void) { return PCRE2_ERROR_NOMATCH; }
static inline int sift_pcre2_error_matchlimit(void) { return PCRE2_ERROR_MATCHLIMIT; }
static inline int sift_pcre2_error_depthlimit(void) { return PCRE2_ERROR_DEPTHLIMIT; }
static inline int sift_pcre2_error_heaplimit(void) { return PCRE2_ERROR_HEAPLIMIT; }
static inline int sift_pcre2_error_jit_stacklimit(void) { return PCRE2_ERROR_JIT_STACKLIMIT; }
static inline uint32_t sift_pcre2_config_jit(void) { return PCRE2_CONFIG_JIT; }
#endif
