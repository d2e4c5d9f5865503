/* make tflm: TensorFlow Lite Micro's own greedy_memory_planner_test.cc
   compiled against examples/tflm_memory_planner.cc. Force-included
   (-include) ahead of the test: it takes its planner header's include
   guard, so the test's tflite::GreedyMemoryPlanner is the drop-in planning
   with DNNMEM_TFLM_TEST_ALGO (greedy-tflm: its expected offsets hold). */
#ifndef DNNMEM_TFLM_GREEDY_SHIM_H
#define DNNMEM_TFLM_GREEDY_SHIM_H
#define TENSORFLOW_LITE_MICRO_MEMORY_PLANNER_GREEDY_MEMORY_PLANNER_H_
#include "examples/tflm_memory_planner.cc"

#ifndef DNNMEM_TFLM_TEST_ALGO
#define DNNMEM_TFLM_TEST_ALGO DNNMEM_PLAN_GREEDY_TFLM
#endif

namespace tflite {
class GreedyMemoryPlanner : public dnnmem_tflm::MemoryPlanner {
 public:
  GreedyMemoryPlanner() : MemoryPlanner(DNNMEM_TFLM_TEST_ALGO) {}
};
}  // namespace tflite
#endif
