// Whether this translation unit is built with AddressSanitizer, for code that must step aside for it:
// GCC defines __SANITIZE_ADDRESS__, Clang answers __has_feature(address_sanitizer).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define MSPROBE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MSPROBE_UNDER_ASAN 1
#endif
#endif
#ifndef MSPROBE_UNDER_ASAN
#define MSPROBE_UNDER_ASAN 0
#endif
