// Makes fork() in a multithreaded sanitized build as safe for the child as glibc malloc makes it: a
// child that allocates must not inherit an allocator lock held by a thread it does not have.
#pragma once

namespace sample {

// Registers the guard; a no-op where the sanitizer runtime already does it or none is linked.
// REQUIRES: called before any other pthread_atfork registration whose prepare handler may wait for a
// thread that is allocating (fork prepare handlers run in reverse order, so this one runs last).
void InstallSanitizerForkGuard();

}  // namespace sample
