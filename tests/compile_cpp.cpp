// Compile check: dnnmem.h as C++ (implementation included), -Wall -Wextra -Werror.
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

int dnnmem_cpp_check();
int dnnmem_cpp_check() { return dnnmem_result_text(DNNMEM_OK)[0] == 'o' ? 0 : 1; }
