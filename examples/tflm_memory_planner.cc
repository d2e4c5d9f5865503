/* examples/tflm_memory_planner.cc: a tflite::MicroMemoryPlanner backed by
   dnnmem.h, the drop-in for TensorFlow Lite Micro's GreedyMemoryPlanner.

   An engine lands it in two steps. First with DNNMEM_PLAN_GREEDY_TFLM: the
   same offsets as its GreedyMemoryPlanner, buffer for buffer (no behaviour
   change to chase). Then with DNNMEM_PLAN_BEST: never a larger arena than
   greedy-tflm's (best tries it among its strategies), often smaller (its
   audio preprocessor models: 2096 bytes where its planner needs 3040).
   The three lines an engine changes:

     #include "tflm_memory_planner.cc"   // in one source file
     static dnnmem_tflm::MemoryPlanner planner(DNNMEM_PLAN_GREEDY_TFLM);
     tflite::MicroInterpreter interpreter(model, resolver,
         tflite::MicroAllocator::Create(arena, kArenaSize, &planner));

   Allocation-free like the engine it serves: everything lives in the
   scratch Init receives (the allocator hands it the free part of the
   arena): the buffers' records from its start, then at planning time the
   offsets and dnnmem_plan_solve's scratch. ScratchBytes(n, algo) says how
   much n buffers need (greedy-tflm about 500 bytes per buffer; best more:
   its exact search's block); AddBuffer refuses a buffer the scratch could
   not plan, as its planner does ("too many buffers").

   Build: C++11 against a TensorFlow Lite Micro tree (-I its root), one
   translation unit with DNNMEM_IMPLEMENTATION (here, unless
   DNNMEM_TFLM_NO_IMPLEMENTATION says another file has it). `make tflm
   TFLM=DIR` builds it and runs its planner unit tests against it. */
#ifndef DNNMEM_TFLM_MEMORY_PLANNER_CC
#define DNNMEM_TFLM_MEMORY_PLANNER_CC

#include <stddef.h>
#include <stdint.h>

#include "tensorflow/lite/micro/memory_planner/micro_memory_planner.h"
#include "tensorflow/lite/micro/micro_log.h"

#ifndef DNNMEM_TFLM_NO_IMPLEMENTATION
#define DNNMEM_IMPLEMENTATION
#endif
#include "dnnmem.h"

namespace dnnmem_tflm {

class MemoryPlanner : public tflite::MicroMemoryPlanner {
 public:
  // DNNMEM_PLAN_GREEDY_TFLM (its offsets) or DNNMEM_PLAN_BEST (any algo).
  explicit MemoryPlanner(dnnmem_plan_algo algo = DNNMEM_PLAN_GREEDY_TFLM) : algo_(algo) {}
  ~MemoryPlanner() override {}

  TfLiteStatus Init(unsigned char* scratch_buffer, int scratch_buffer_size) override;
  TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used) override;
  TfLiteStatus AddBuffer(int size, int first_time_used, int last_time_used, int offline_offset) override;
  size_t GetMaximumMemorySize() override;  // 0 when the plan failed
  int GetBufferCount() override { return count_; }
  TfLiteStatus GetOffsetForBuffer(int buffer_index, int* offset) override;
  bool preserves_all_tensors() const override { return false; }
  void PrintMemoryPlan() override;

  // Whether two buffers live at a common time share a byte (dnnmem's
  // checker: an independent recount, O(n log n)); false when they do not.
  bool DoAnyBuffersOverlap();
  // No plan is smaller (the most bytes live at one time); 0 before planning.
  size_t GetLowerBound();
  // Init's scratch for `buffers` buffers planned with `algo`.
  static size_t ScratchBytes(int buffers, dnnmem_plan_algo algo);

 private:
  // Plans when buffers were added since; false when planning failed.
  bool Plan();
  dnnmem_result PlanAroundOverlaps(unsigned char* work, size_t bytes);

  dnnmem_plan_algo algo_;
  unsigned char* scratch_ = nullptr;
  size_t scratch_bytes_ = 0;
  dnnmem_interval* records_ = nullptr;  // count_ records at the scratch's start
  int64_t* offsets_ = nullptr;          // after them, at planning time
  int count_ = 0;
  bool planned_ = false, failed_ = false;
  bool overlaps_ = false;  // the offline offsets collide (planned around their union)
  dnnmem_plan_result result_ = {};
};

#ifndef DNNMEM_TFLM_NO_DEFINITIONS

size_t MemoryPlanner::ScratchBytes(int buffers, dnnmem_plan_algo algo) {
  dnnmem_intervals problem = {nullptr, buffers, 0};
  dnnmem_plan_options options = {};
  size_t solve = 0, check = 0;
  options.algo = algo;
  if (buffers < 0 || dnnmem_plan_solve_scratch_size(&problem, &options, &solve) != DNNMEM_OK ||
      dnnmem_plan_check_scratch_size(&problem, &check) != DNNMEM_OK)
    return SIZE_MAX;
  // the records, their offsets, the larger scratch, Init's alignment
  return (size_t)buffers * (sizeof(dnnmem_interval) + sizeof(int64_t)) + (solve > check ? solve : check) + 7;
}

TfLiteStatus MemoryPlanner::Init(unsigned char* scratch_buffer, int scratch_buffer_size) {
  uintptr_t at = (uintptr_t)scratch_buffer, aligned = (at + 7) & ~(uintptr_t)7;
  count_ = 0;
  planned_ = failed_ = false;
  result_ = dnnmem_plan_result();
  if (scratch_buffer == nullptr || scratch_buffer_size < 0 || aligned - at > (size_t)scratch_buffer_size) {
    scratch_ = nullptr, scratch_bytes_ = 0, records_ = nullptr;
    return scratch_buffer_size == 0 ? kTfLiteOk : kTfLiteError;
  }
  scratch_ = (unsigned char*)aligned;
  scratch_bytes_ = (size_t)scratch_buffer_size - (aligned - at);
  records_ = (dnnmem_interval*)scratch_;
  return kTfLiteOk;
}

TfLiteStatus MemoryPlanner::AddBuffer(int size, int first_time_used, int last_time_used) {
  if (size < 0 || last_time_used < first_time_used || count_ == INT32_MAX) {
    MicroPrintf("dnnmem planner: buffer %d: size %d, lifetime %d..%d", count_, size, first_time_used,
                last_time_used);
    return kTfLiteError;
  }
  if (ScratchBytes(count_ + 1, algo_) > scratch_bytes_) {
    MicroPrintf("dnnmem planner: too many buffers (%d bytes of scratch plan %d)", (int)scratch_bytes_, count_);
    return kTfLiteError;
  }
  dnnmem_interval* r = &records_[count_++];
  *r = dnnmem_interval();
  r->lower = first_time_used;  // its inclusive [first, last] is [first, last + 1)
  r->upper = (int64_t)last_time_used + 1;
  r->size = size;
  planned_ = false;
  return kTfLiteOk;
}

TfLiteStatus MemoryPlanner::AddBuffer(int size, int first_time_used, int last_time_used, int offline_offset) {
  if (offline_offset < 0) {
    MicroPrintf("dnnmem planner: buffer %d: offline offset %d", count_, offline_offset);
    return kTfLiteError;
  }
  TfLiteStatus s = AddBuffer(size, first_time_used, last_time_used);
  if (s == kTfLiteOk) {
    records_[count_ - 1].flags = DNNMEM_INTERVAL_FIXED;
    records_[count_ - 1].fixed_offset = offline_offset;
  }
  return s;
}

// Offline plans may overlap on purpose (Vela's for Ethos-U puts its
// scratch over the input: its command stream shares them); its planner
// takes them as they are, dnnmem refuses colliding fixed records. So the
// online buffers are planned around their union instead: for each time
// segment between the offline buffers' ends, the merged byte ranges of
// those alive, one fixed record each. Their walk sees the same occupied
// bytes at every time, so the offsets are the same as around the
// originals (positive sizes); the offline buffers keep their offsets.
dnnmem_result MemoryPlanner::PlanAroundOverlaps(unsigned char* work, size_t bytes) {
  dnnmem_interval* merged = (dnnmem_interval*)work;
  size_t cap = bytes / sizeof(dnnmem_interval);
  int32_t m = 0;
  int64_t* times = nullptr;
  for (int i = 0; i < count_; i++)  // the online buffers first, in order (ties go by it)
    if (!(records_[i].flags & DNNMEM_INTERVAL_FIXED)) {
      if ((size_t)m >= cap) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
      merged[m++] = records_[i];
    }
  int32_t nt = 0;
  // the times: each offline buffer's ends, sorted, at the scratch's end
  times = (int64_t*)(work + bytes - bytes % 8) - 2 * (size_t)count_;
  if ((unsigned char*)times < (unsigned char*)(merged + m)) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  for (int i = 0; i < count_; i++)
    if (records_[i].flags & DNNMEM_INTERVAL_FIXED) {
      int64_t ends[2] = {records_[i].lower, records_[i].upper};
      for (int e = 0; e < 2; e++) {
        int k = nt++;
        for (; k > 0 && times[k - 1] > ends[e]; k--) times[k] = times[k - 1];
        times[k] = ends[e];
      }
    }
  cap = (size_t)((dnnmem_interval*)times - merged);
  for (int k = 0; k + 1 < nt; k++) {
    if (times[k] == times[k + 1]) continue;
    int32_t first = m;
    for (int i = 0; i < count_; i++) {  // those alive over [times[k], times[k + 1]), by offset
      const dnnmem_interval* f = &records_[i];
      if (!(f->flags & DNNMEM_INTERVAL_FIXED) || f->size == 0 || f->lower > times[k] || f->upper < times[k + 1])
        continue;
      if ((size_t)m >= cap) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
      int32_t j = m++;
      for (; j > first && merged[j - 1].fixed_offset > f->fixed_offset; j--) merged[j] = merged[j - 1];
      merged[j] = *f;
      merged[j].lower = times[k], merged[j].upper = times[k + 1];
    }
    int32_t out = first;  // merge overlapping ranges in place
    for (int32_t j = first; j < m; j++) {
      if (out > first && merged[j].fixed_offset < merged[out - 1].fixed_offset + merged[out - 1].size) {
        int64_t end = merged[j].fixed_offset + merged[j].size;
        if (end > merged[out - 1].fixed_offset + merged[out - 1].size)
          merged[out - 1].size = end - merged[out - 1].fixed_offset;
      } else {
        merged[out++] = merged[j];
      }
    }
    m = out;
  }
  for (int i = 0; i < count_; i++)  // zero-size offline buffers stay themselves (they end a free range)
    if ((records_[i].flags & DNNMEM_INTERVAL_FIXED) && records_[i].size == 0) {
      if ((size_t)m >= cap) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
      merged[m++] = records_[i];
    }
  // the merged records, their offsets, then the solve's scratch
  int64_t* offsets = (int64_t*)(merged + m);
  unsigned char* rest = (unsigned char*)(offsets + m);
  if (rest > work + bytes) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  dnnmem_intervals problem = {merged, m, 0};
  dnnmem_plan_options options = {};
  options.algo = algo_;
  dnnmem_result r = dnnmem_plan_solve(&problem, &options, offsets, &result_, rest, (size_t)(work + bytes - rest));
  if (r != DNNMEM_OK) return r;
  // the same arena (the union's top is the highest offline top) and a bound
  // of the originals too (their every plan is one of the merged records)
  for (int i = 0, j = 0; i < count_; i++)
    offsets_[i] = (records_[i].flags & DNNMEM_INTERVAL_FIXED) ? records_[i].fixed_offset : offsets[j++];
  return DNNMEM_OK;
}

bool MemoryPlanner::Plan() {
  if (planned_) return !failed_;
  planned_ = true;
  failed_ = false;
  overlaps_ = false;
  dnnmem_intervals problem = {records_, count_, 0};
  dnnmem_plan_options options = {};
  options.algo = algo_;
  offsets_ = (int64_t*)(records_ + count_);  // 8-byte aligned as the records
  unsigned char* work = (unsigned char*)(offsets_ + count_);
  size_t used = (size_t)(work - scratch_);
  dnnmem_result r = used <= scratch_bytes_
                        ? dnnmem_plan_solve(&problem, &options, offsets_, &result_, work, scratch_bytes_ - used)
                        : DNNMEM_ERR_SCRATCH_TOO_SMALL;
  if (r == DNNMEM_ERR_PLAN_FIXED_COLLISION) {
    overlaps_ = true;
    r = PlanAroundOverlaps(work, scratch_bytes_ - used);
  }
  if (r == DNNMEM_OK && result_.arena > INT32_MAX) r = DNNMEM_ERR_OVERFLOW;  // its offsets are int
  if (r != DNNMEM_OK) {
    MicroPrintf("dnnmem planner: %s", dnnmem_result_text(r));
    failed_ = true;
  }
  return !failed_;
}

size_t MemoryPlanner::GetMaximumMemorySize() { return count_ > 0 && Plan() ? (size_t)result_.arena : 0; }

size_t MemoryPlanner::GetLowerBound() { return count_ > 0 && Plan() ? (size_t)result_.lower_bound : 0; }

TfLiteStatus MemoryPlanner::GetOffsetForBuffer(int buffer_index, int* offset) {
  if (buffer_index < 0 || buffer_index >= count_) {
    MicroPrintf("dnnmem planner: buffer index %d is outside range 0 to %d", buffer_index, count_);
    return kTfLiteError;
  }
  if (!Plan()) return kTfLiteError;
  *offset = (int)offsets_[buffer_index];
  return kTfLiteOk;
}

bool MemoryPlanner::DoAnyBuffersOverlap() {
  if (count_ == 0 || !Plan()) return false;
  dnnmem_intervals problem = {records_, count_, 0};
  unsigned char* work = (unsigned char*)(offsets_ + count_);
  size_t used = (size_t)(work - scratch_);
  if (overlaps_) {  // the offline buffers' own overlaps are theirs: check each online one against all
    for (int i = 0; i < count_; i++)
      for (int j = 0; j < count_; j++) {
        const dnnmem_interval *a = &records_[i], *b = &records_[j];
        if (i != j && !(a->flags & DNNMEM_INTERVAL_FIXED) && a->lower < b->upper && b->lower < a->upper &&
            offsets_[i] < offsets_[j] + b->size && offsets_[j] < offsets_[i] + a->size)
          return true;
      }
    return false;
  }
  return dnnmem_plan_check(&problem, offsets_, nullptr, work, scratch_bytes_ - used) == DNNMEM_ERR_PLAN_OVERLAP;
}

void MemoryPlanner::PrintMemoryPlan() {
  if (count_ == 0 || !Plan()) return;
  MicroPrintf("dnnmem planner (%s): %d buffers, arena %d bytes, lower bound %d", dnnmem_plan_algo_name(algo_),
              count_, (int)result_.arena, (int)result_.lower_bound);
  for (int i = 0; i < count_; ++i)
    MicroPrintf("%d: size=%d, offset=%d, first_used=%d last_used=%d", i, (int)records_[i].size, (int)offsets_[i],
                (int)records_[i].lower, (int)records_[i].upper - 1);
}

#endif  // DNNMEM_TFLM_NO_DEFINITIONS

}  // namespace dnnmem_tflm

#endif  // DNNMEM_TFLM_MEMORY_PLANNER_CC
