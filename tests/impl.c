/* tests/impl.c: the implementation of dnnmem.h, compiled once per build
   flavour into an archive (build/san/libdnnmem.a for the tests and the
   fuzz regression drivers, build/libfuzzer/libdnnmem.a for libFuzzer) that
   make test links every test, fuzz target and the sanitized tool against.
   A test or fuzz file still defines DNNMEM_IMPLEMENTATION itself (it builds
   on its own: make coverage, fuzz/build.sh, the C++ checks); the Makefile
   compiles it with -DDNNMEM__IMPLEMENTATION_DONE (the header's guard) so
   that it skips its copy, unless the file uses private dnnmem__ names or
   configures the implementation (#define DNNMEM_X before the include):
   those keep their own copy, and the archive stays unused at their link. */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
