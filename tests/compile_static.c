/* Compile check: two translation units each with a private (DNNMEM_STATIC)
   implementation link together; the first is also built with -Wconversion. */
#define DNNMEM_STATIC
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#ifdef DNNMEM_STATIC_SECOND
int dnnmem_static_first(void);
int main(void) { return dnnmem_static_first() + (dnnmem_result_text(DNNMEM_OK)[0] != 'o'); }
#else
int dnnmem_static_first(void);
int dnnmem_static_first(void) { return dnnmem_result_text(DNNMEM_ERR_OVERFLOW)[0] != 'i'; }
#endif
