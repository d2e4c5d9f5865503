/* make tflm: examples/tflm_memory_planner.cc side by side with TensorFlow
   Lite Micro's own GreedyMemoryPlanner (built from its source), on the
   same AddBuffer calls: random buffer sets (sizes from a few multiples of
   16, so ties abound; lifetimes from its allocator's -1; some offline
   offsets, apart or colliding as Vela's plans do) and every CSV named on
   the command line (the buffers
   examples/tflite_to_graph.py extracts from a .tflite file). With
   greedy-tflm every offset and the arena are its planner's; with best the
   plan is valid (no overlap but the offline buffers' own, offline offsets
   kept) and its arena never larger. Prints "tflm_side_by_side: N passed, M failed" (cases). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "examples/tflm_memory_planner.cc"
#include "tensorflow/lite/micro/memory_planner/greedy_memory_planner.h"

namespace {

struct Buffer {
  int size, first, last, offline;  // offline -1: planned online
};

alignas(16) unsigned char g_theirs[1 << 22];
alignas(16) unsigned char g_ours[1 << 24];
int g_passed = 0, g_failed = 0;

template <class Planner>
bool Add(Planner& p, const std::vector<Buffer>& b) {
  for (const Buffer& x : b) {
    TfLiteStatus s = x.offline < 0 ? p.AddBuffer(x.size, x.first, x.last)
                                   : p.AddBuffer(x.size, x.first, x.last, x.offline);
    if (s != kTfLiteOk) return false;
  }
  return true;
}

// One case: 1 when both of ours agree with theirs as they should.
void Compare(const std::vector<Buffer>& b, const char* what) {
  tflite::GreedyMemoryPlanner theirs;
  dnnmem_tflm::MemoryPlanner same(DNNMEM_PLAN_GREEDY_TFLM), best(DNNMEM_PLAN_BEST);
  const char* why = nullptr;
  theirs.Init(g_theirs, sizeof g_theirs);
  if (!Add(theirs, b)) why = "its planner refused a buffer";
  same.Init(g_ours, (int)sizeof g_ours);
  if (!why && !Add(same, b)) why = "greedy-tflm refused a buffer";
  size_t arena = theirs.GetMaximumMemorySize();
  if (!why && same.GetMaximumMemorySize() != arena) why = "greedy-tflm: another arena";
  for (int i = 0; !why && i < (int)b.size(); i++) {
    int o1 = -1, o2 = -2;
    theirs.GetOffsetForBuffer(i, &o1);
    if (same.GetOffsetForBuffer(i, &o2) != kTfLiteOk || o1 != o2) why = "greedy-tflm: another offset";
  }
  best.Init(g_ours, (int)sizeof g_ours);  // the same scratch: greedy-tflm's plan is read
  if (!why && !Add(best, b)) why = "best refused a buffer";
  if (!why && (best.GetMaximumMemorySize() > arena || best.DoAnyBuffersOverlap() ||
               best.GetMaximumMemorySize() < best.GetLowerBound()))
    why = "best: larger, overlapping or below the bound";
  for (int i = 0; !why && i < (int)b.size(); i++) {
    int o = -1;
    if (best.GetOffsetForBuffer(i, &o) != kTfLiteOk || (b[(size_t)i].offline >= 0 && o != b[(size_t)i].offline))
      why = "best: an offline offset moved";
  }
  if (why) {
    g_failed++;
    printf("FAIL %s: %s\n", what, why);
  } else {
    g_passed++;
  }
}

// tflite_to_graph.py's CSV: id,lower,upper,size[,offset],tensor
bool ReadCsv(const char* path, std::vector<Buffer>* out) {
  FILE* f = fopen(path, "r");
  char line[4096];
  bool has_offset = false;
  if (!f) return false;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    if (!strncmp(line, "id,", 3)) {
      has_offset = strstr(line, ",offset,") != nullptr;
      continue;
    }
    Buffer x;
    char* s = line;
    strtol(s, &s, 10);
    x.first = (int)strtol(s + 1, &s, 10);
    x.last = (int)strtol(s + 1, &s, 10) - 1;
    x.size = (int)strtol(s + 1, &s, 10);
    x.offline = has_offset && s[1] != ',' ? (int)strtol(s + 1, &s, 10) : -1;
    out->push_back(x);
  }
  fclose(f);
  return true;
}

uint64_t g_state = 30;
int Below(int n) {  // splitmix64
  uint64_t z = (g_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (int)((z ^ (z >> 31)) % (uint64_t)n);
}

}  // namespace

int main(int argc, char** argv) {
  for (int trial = 0; trial < 2000; trial++) {
    std::vector<Buffer> b;
    int n = 1 + Below(trial < 1500 ? 12 : 80), span = 2 + Below(30);
    for (int i = 0; i < n; i++) {
      Buffer x;
      x.first = Below(span) - 1;
      x.last = x.first + Below(6);
      x.size = 16 * (1 + Below(trial % 2 ? 3 : 40));
      x.offline = -1;
      if (trial % 3 == 0 && Below(5) == 0) {  // offline: apart, or (trial % 9 == 0) colliding as Vela's
        int o = 16 * Below(12), ok = 1;
        for (const Buffer& y : b)
          if (y.offline >= 0 && y.first <= x.last && x.first <= y.last && o < y.offline + y.size &&
              y.offline < o + x.size)
            ok = trial % 9 == 0;
        if (ok) x.offline = o;
      }
      b.push_back(x);
    }
    char what[32];
    snprintf(what, sizeof what, "random %d", trial);
    Compare(b, what);
  }
  for (int k = 1; k < argc; k++) {
    std::vector<Buffer> b;
    if (!ReadCsv(argv[k], &b)) {
      printf("FAIL %s: cannot read\n", argv[k]);
      g_failed++;
      continue;
    }
    Compare(b, argv[k]);
  }
  printf("tflm_side_by_side: %d passed, %d failed\n", g_passed, g_failed);
  return g_failed != 0;
}
