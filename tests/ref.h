/* tests/ref.h: the independent oracles and recounts of dnnmem.h's answers,
   shared by the unit tests (tests/test_*.c) and the fuzz targets (fuzz/).
   One oracle per question: brute force on small inputs, or a recount that
   uses none of the code under test. Include after dnnmem.h; every function
   is static (a file uses some of them). Sections follow the header's parts. */
#ifndef DNNMEM_TESTS_REF_H
#define DNNMEM_TESTS_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dnnmem.h"

#if defined(__GNUC__) || defined(__clang__)
#define REF_FN static __attribute__((unused))
#else
#define REF_FN static
#endif

/* ==== 2. Interval planning ================================================ */

/* (end of section 2) */

/* ==== 3. Shared objects =================================================== */

/* (end of section 3) */

/* ==== 4. Path covers of graphs ============================================ */

/* (end of section 4) */

/* ==== 5. Recompute ======================================================== */

/* (end of section 5) */

/* ==== 6. Layout arithmetic ================================================ */

/* (end of section 6) */

/* ==== 7. Max flow ========================================================= */

/* (end of section 7) */

/* ==== 8. Placement ======================================================== */

/* (end of section 8) */

#endif /* DNNMEM_TESTS_REF_H */
