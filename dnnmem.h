/*
   dnnmem.h - v0.6.1 - memory and placement planning for deep-learning
   compilers and runtimes. One header, C99 (compiles as C++), no allocation.

   ---------------------------------------------------------------- TOUR ----

   WHAT IT SOLVES (one numbered part each; `grep '==== N\.'` finds part N in
   this manual, in the declarations and in the implementation)
       1. Common             results, the interval record, the graph, rng.
       2. Interval planning  byte offsets in one arena for tensors with known
                             lifetimes: TFLite's and LeapMind's heuristics,
                             best fit, an exact search that proves the
                             minimum, a lower bound, a checker, chains;
                             sizes known late (multi-pass) or growing with
                             a symbol S (one plan for every S).
       3. Shared objects     TFLite's shared objects: tensors grouped into
                             reusable buffers, least total size.
       4. Path covers        DAG path covers and the W bound (LeapMind).
       5. Recompute          which values to recompute, and when, so that a
                             training step fits a memory budget.
       6. Layout arithmetic  PFN's TensorLayout notation (a tensor spread over
                             a tree of processing units), CuTe-style algebra.
       7. Max flow           Boykov-Kolmogorov and push-relabel; the min cut.
       8. Placement          CPU or accelerator per op, exactly, by a min cut.
       9. Labeling           one of k labels per node (devices, layouts):
                             exact for k = 2, a Lagrangian dual bound,
                             alpha-expansion and branch and bound beyond.

   DO THIS
       #define DNNMEM_IMPLEMENTATION   (in exactly one C or C++ file)
       #include "dnnmem.h"             (everywhere else without the define)

   THE ONE SHAPE. Every part's operations look the same:
       dnnmem_result dnnmem_<part>_<op>_scratch_size(problem, options, ...,
                                                     size_t *out_bytes);
       dnnmem_result dnnmem_<part>_<op>(problem, options, inputs..., outputs...,
                                        result, void *scratch, size_t bytes);
   in that order: the problem (const), the options (NULL or zeroed: the
   defaults), further inputs, outputs (arrays you own; an array with a
   capacity comes as (array, capacity)), the result struct (NULL where the
   function says so), then the scratch memory. Ask for the scratch size
   with the same leading arguments, allocate it however you like, pass it.
   The main operation of a part is dnnmem_<part>_solve; others are named
   for what they do
   (_check, _lower_bound, _simulate, _cost). Small functions drop what they
   do not need (a checker has no options) but never reorder (one exception:
   dnnmem_flow_solve(flow, source, sink, options, result), the network
   being built in place). Every enum but dnnmem_layout_slot has _name and
   _parse (text <-> value), and 0 is its default.

   RESULTS AND ERRORS. Every operation returns a dnnmem_result code; what
   it computes goes to arrays you own and, for numbers, to a result struct,
   never a loose pointer: a lower bound fills result->lower_bound, a check
   of a plan result->arena (or cost, total), a cost result->cost (or time)
   of the part's dnnmem_<part>_result, the fields it does not compute zero.
   Only these calls hand back a value by pointer: the scratch size
   queries (*out_bytes), the _parse functions (*out, the value named),
   dnnmem_remat_arena_options (the plan options it fills), the building
   blocks of a flow network (dnnmem_flow_add_arc's arc id,
   dnnmem_flow_arc) and part 6's arithmetic
   on one layout, which needs no scratch and has no result struct
   (positions, addresses, a printed length, a run count).
   On failure the code says what and result->error says where:
   dnnmem_error {index, field, other}, the record, node, sequence step, arc
   or layout factor at fault (-1: the error is about an argument), which
   of its fields (or which argument: DNNMEM_FIELD_ALGO, _SCRATCH, ...),
   and the second of a pair (two records that overlap). A cycle names a
   node on it. Functions without a result struct that validate records
   (dnnmem_intervals_check, dnnmem_graph_check, dnnmem_graph_topo_order,
   dnnmem_graph_intervals, dnnmem_plan_symbolic_records,
   dnnmem_layout_finish, _bind, dnnmem_layout_strided_check) take a last
   dnnmem_error *error (may be NULL); success leaves {-1, NONE, -1}:
       dnnmem_error e;
       if (dnnmem_intervals_check(&p, &e) != DNNMEM_OK)   (t[2].size = -1)
         printf("record %d: %s\n", e.index, dnnmem_field_name(e.field));
                                                       (record 2: size)

   ONE EXAMPLE PER PART (error checks left out; each call returns DNNMEM_OK
   or an error code; `bytes` and `scratch` as asked for). Types follow the
   part: dnnmem_<part>_problem (dnnmem_intervals for parts 2 and 3,
   dnnmem_graph for part 4), _options, _result; arrays follow the integer
   rule under CONVENTIONS (int64_t bytes, int32_t ids).
   2. Plan an arena (lifetimes are half-open steps [lower, upper)):
       dnnmem_interval t[3] = {{.lower = 0, .upper = 2, .size = 4096},
                               {.lower = 1, .upper = 3, .size = 8192},
                               {.lower = 2, .upper = 4, .size = 4096}};
       dnnmem_intervals p = {t, 3, 64};          (records, count, alignment)
       int64_t offsets[3];  dnnmem_plan_result res;  size_t bytes;
       dnnmem_plan_solve_scratch_size(&p, NULL, &bytes);
       dnnmem_plan_solve(&p, NULL, offsets, &res, scratch, bytes);
       (res.arena == 12288, res.optimal == 1; offsets[i] for record i)
      In place: let t[2] be an element-wise op's output, as large as its
      input t[1] (the arena is then 16384); t[1] dies at t[2]'s first step,
      so t[2] may overwrite it, and the planner decides whether it does:
       t[2].size = 8192;  t[2].flags = DNNMEM_INTERVAL_REUSE;  t[2].reuse = 1;
       dnnmem_plan_solve_scratch_size(&p, NULL, &bytes);   (ask again)
       dnnmem_plan_solve(&p, NULL, offsets, &res, scratch, bytes);
       (res.reused == 1, offsets[2] == offsets[1], res.arena == 12288:
       4096 bytes saved, and res.optimal == 1)
   3. Shared objects for the same records:
       int32_t object_of[3];  int64_t object_sizes[3];  (at most n objects)
       dnnmem_share_result res;
       dnnmem_share_solve_scratch_size(&p, NULL, &bytes);
       dnnmem_share_solve(&p, NULL, object_of, object_sizes, &res, scratch, bytes);
       (res.objects == 2, res.total == 12288)
   4. W of a graph, the fewest paths covering every edge (node v's inputs
      are in_ids[in_offsets[v] .. in_offsets[v+1])):
       int32_t in_offsets[4] = {0, 0, 1, 2}, in_ids[2] = {0, 1};  (0 -> 1 -> 2)
       dnnmem_graph g = {3, in_offsets, in_ids};  dnnmem_cover_result res;
       dnnmem_cover_edges_scratch_size(&g, NULL, &bytes);
       dnnmem_cover_edges(&g, NULL, NULL, NULL, NULL, 0, &res, scratch, bytes);
       (res.paths == 1; the NULLs skip per-edge uses and the paths' nodes)
   5. Recompute to fit a budget (nodes without inputs are graph inputs,
      computed once and held; is_output marks values held to the end):
       int64_t sizes[3] = {1 << 20, 1 << 20, 1 << 20}, times[3] = {10, 20, 30};
       dnnmem_remat_problem p = {&g, sizes, times, NULL};   (NULL: no outputs)
       dnnmem_remat_options o;   (zeroed: the defaults, DNNMEM_REMAT_ANNEAL)
       memset(&o, 0, sizeof o);  o.budget = 3 << 20;
       dnnmem_rng rng;  int32_t seq[2 * 3];   (room for 2n steps is plenty)
       dnnmem_remat_result res;
       dnnmem_rng_seed(&rng, 1);
       dnnmem_remat_solve_scratch_size(&p, &o, 2 * 3, &bytes);
       dnnmem_remat_solve(&p, &o, &rng, seq, 2 * 3, &res, scratch, bytes);
       (seq[0 .. res.length): nodes in computing order, a node repeated is
       recomputed; res.arena <= o.budget: its instances planned in one
       arena (dnnmem_remat_plan), res.peak <= res.arena; res.time = sum
       of their times;
       DNNMEM_ERR_INFEASIBLE: none found within the budget, seq and res
       then hold the best found)
   6. Where does element (7, 5) live?
       dnnmem_layout l;  int64_t index[2] = {7, 5}, address;
       int64_t units[DNNMEM_LAYOUT_MAX_LEVELS];     (one unit per level)
       dnnmem_layout_parse("((3:8, 4_PE), (8:1))", 20, &l, NULL);
       dnnmem_layout_forward(&l, index, units, &address, NULL);
       (units[0] == 3 (PE 3), address == 13; "3:8" is extent 3, stride 8,
       "4_PE" spreads 4 over level PE; the notation is in part 6)
   7. Max flow (the scratch holds the network: keep it while f is used):
       dnnmem_flow f;  dnnmem_flow_result res;
       dnnmem_flow_scratch_size(4, 5, &bytes);         (4 nodes, 5 arcs)
       dnnmem_flow_init(&f, 4, 5, scratch, bytes);
       dnnmem_flow_add_arc(&f, 0, 1, 3, 0, NULL);  (from, to, capacity,
       ...                                      reverse capacity, &arc id)
       dnnmem_flow_solve(&f, 0, 3, NULL, &res);   (source, sink: res.value)
   8. CPU or accelerator (xfer[v]: moving v's output, paid once however
      many consumers sit on the other device):
       dnnmem_place_problem p = {&g, cpu_time, acc_time, xfer, NULL, NULL};
                                 (NULL, NULL: no pinned nodes, no outputs)
       uint8_t device[3];  dnnmem_place_result res;
       dnnmem_place_solve_scratch_size(&p, NULL, &bytes);
       dnnmem_place_solve(&p, NULL, device, &res, scratch, bytes);
       (device[v] == DNNMEM_PLACE_CPU or _ACC; res.time, the sum of node
       and transfer times, is the optimum)
   9. One of k devices per op (cost[v * k + l]: op v on device l,
      DNNMEM_LABEL_UNSUPPORTED where it cannot run; a value converted once
      per device that reads it: convert_size[v] * rate[a * k + b] + latency):
       dnnmem_label_problem p = {&g, 3, cost, NULL, sizes, rate, latency,
                                 NULL, NULL};     (no pins, no outputs)
       int32_t label[3];  dnnmem_label_result res;
       dnnmem_label_solve_scratch_size(&p, NULL, &bytes);
       dnnmem_label_solve(&p, NULL, label, &res, scratch, bytes);
       (res.cost, res.lower_bound: proven, res.gap; res.optimal == 1 when
       they meet)
   Every example of this manual runs in tests/test_tour.c, results checked.
   Complete programs: examples/engine.c (graph -> lifetimes -> one arena,
   recomputation, placement), examples/plan_arena.c, examples/layout_mncore.c.

   CONVENTIONS
       Results. Every fallible function returns dnnmem_result: DNNMEM_OK (0)
       or a negative code from one list (DNNMEM_RESULT_LIST), numbered per
       part (common 0..-99, part N from -100 N); dnnmem_result_text() says
       it in words, dnnmem_result_name() names it. Every input is validated
       (sizes, ids, cycles, strings, overflow): bad input gets a code, never
       a crash. Outputs are written only on DNNMEM_OK unless the function
       says otherwise (a search that stops early, an output too small).
       Scratch ("ask, then pass"). Nothing is allocated inside. Any pointer
       alignment is accepted, the memory need not be zeroed, nothing outside
       it is touched, and a short buffer gives DNNMEM_ERR_SCRATCH_TOO_SMALL
       before any output is written. Size and use come from one private
       function each, so they cannot disagree. Scratch may be reused.
       DNNMEM_*_SCRATCH_BYTES macros give static bounds where they are simple.
       Outputs too small. An array with a capacity that is too short gives
       DNNMEM_ERR_OUTPUT_TOO_SMALL and reports the count needed; call again.
       Integers. int64_t for bytes, offsets, times and capacities (sums that
       could overflow are checked: DNNMEM_ERR_OVERFLOW); int32_t for counts
       and ids; size_t only for scratch sizes; uint8_t for flag arrays. Times
       are integers (the tool uses nanoseconds), so every answer is exact.
       Determinism. Same input and seed, same output on every platform: own
       sorts with explicit tie-breaks, random state in a caller-visible
       dnnmem_rng, no libm (own exp and log from + - * /), and no
       floating-point contraction inside the implementation (pragmas for
       gcc, clang and MSVC: bit-identical annealing with or without FMA;
       not under clang's -ffp-contract=fast, which ignores them; -ffast-math
       and x87 arithmetic, 32-bit x86 without -msse2 -mfpmath=sse, are
       refused). A stop callback that reads a clock is the only source
       of run-to-run differences, and only where a search stops early.
       Threads. No globals, no static mutable state: calls on different
       scratch buffers may run concurrently.
       Limits. Counts past int32_t are DNNMEM_ERR_TOO_MANY; per part:
       DNNMEM_PLAN_SYMBOLIC_MAX_TERMS (8 terms, degree 7),
       DNNMEM_REMAT_MAX_GROUP (64 nodes in an exactly ordered group;
       max_group_size 0 means 32), DNNMEM_LABEL_MAX_LABELS (256),
       DNNMEM_LAYOUT_MAX_AXES, _MAX_FACTORS, _MAX_LEVELS (8, 32, 8) and
       DNNMEM_LAYOUT_NAME_BYTES (16, with the NUL).

   COMPILE-TIME OPTIONS
       DNNMEM_IMPLEMENTATION   emit the implementation (in one file only).
       DNNMEM_STATIC           make every function static (a private copy).
       DNNMEM_DEF              override the linkage of every function.
       DNNMEM_ASSERT(x)        internal invariants only; default assert().
       DNNMEM_MEMCPY, DNNMEM_MEMSET   default memcpy(), memset().
       DNNMEM_EXP(x)           default: the built-in exp (+ - * / only).
       DNNMEM_ALLOW_FAST_MATH, DNNMEM_ALLOW_EXCESS_PRECISION   build the
                               implementation under -ffast-math, or with
                               x87 arithmetic (FLT_EVAL_METHOD 2), both
                               refused otherwise: valid answers, but other
                               bits than other platforms' (annealing runs
                               differ).
       DNNMEM_LABEL_FACTOR_BITS  1 .. 16, default 10: labeling's dual bound
                               minimises a value's factor exactly when it
                               spans at most this many labels (2^N label
                               sets), by a weaker relaxation beyond.
       DNNMEM_NO_EXACT, DNNMEM_NO_COVER, DNNMEM_NO_REMAT, DNNMEM_NO_LAYOUT,
       DNNMEM_NO_FLOW, DNNMEM_NO_PLACE, DNNMEM_NO_LABEL   leave a part out
                               (embedded builds; planning and shared objects
                               are always in). Path covers, recompute and
                               labeling need max flow, placement needs
                               labeling: they drop out with it.
       DNNMEM_ONLY_PLAN        parts 1-3 alone (planning, shared objects;
                               with DNNMEM_NO_EXACT the embedded planner).
       DNNMEM_NO_LINKS         no in-place reuse or alias links: records
                               with DNNMEM_INTERVAL_REUSE or _ALIAS are
                               refused (INVALID_ARGUMENT, field REUSE or
                               ALIAS) and their code drops out. With
                               DNNMEM_ONLY_PLAN and DNNMEM_NO_EXACT the
                               planner (heuristics, check, lower bound) is
                               18.6 KiB of x86-64 .text at -Os
                               (tests/size_plan.c; make test keeps it
                               <= 20 KB), TFLite Micro's greedy planner's
                               feature set.

   ----------------------------------------------------------- REFERENCE ----

   ==== 1. COMMON TYPES
       dnnmem_interval   one tensor usage record: half-open lifetime
                         [lower, upper) in steps, size in bytes, optional
                         alignment, fixed offset (flag DNNMEM_INTERVAL_FIXED),
                         preferred offset (DNNMEM_INTERVAL_HINT) and gaps
                         (idle times inside the lifetime, optionally keeping
                         a byte window). The TFLite paper's inclusive
                         {first_op, last_op} is {first_op, last_op + 1}.
       dnnmem_intervals  the problem of parts 2 and 3: {records, count,
                         alignment}. dnnmem_intervals_check validates it in
                         O(n + gaps) without scratch.
       dnnmem_graph      a graph as CSR of input edges: node v's inputs are
                         in_ids[in_offsets[v] .. in_offsets[v+1]) (an id may
                         repeat: x * x). Per-node data (sizes, times) are
                         arrays of the part's problem. dnnmem_graph_check
                         validates ranges in O(V + E); dnnmem_graph_topo_order
                         orders any DAG (Kahn, FIFO: deterministic) or says
                         DNNMEM_ERR_CYCLE (dnnmem_graph_is_topological: is
                         the numbering one already?); dnnmem_graph_intervals
                         turns a topologically numbered graph into
                         lifetimes: value i lives over [i, max(i, last
                         consumer) + 1), outputs to the end.
       dnnmem_rng        splitmix64; the state is the caller's:
                         dnnmem_rng_seed, _next (64 bits), _below(n),
                         _uniform ([0, 1)).
       dnnmem_result     DNNMEM_OK or an error code: _text, _name and
                         _parse (name -> code). DNNMEM_VERSION_MAJOR,
                         _MINOR, _PATCH and _STRING give the version.
       dnnmem_error      where an error is: {index, field, other}, the
                         record (node, step, arc, factor; -1: an argument),
                         a dnnmem_field (dnnmem_field_name: "size",
                         "reuse", "input", "algo", "scratch", ...) and the
                         second of a pair. In every _result struct and the
                         last argument of the validators (see RESULTS AND
                         ERRORS in the tour):
                           dnnmem_plan_solve(&p, NULL, offsets, &res, s, n)
                             == DNNMEM_ERR_PLAN_REUSE, res.error ==
                             {7, DNNMEM_FIELD_REUSE, 3}: record 7 may not
                             overwrite record 3, still in use.
       dnnmem_stop_fn    "stop now?" callback for anytime searches, and
       dnnmem_progress_fn "how much of the budget is used?" (0..1) for
                         annealing schedules; the header reads no clock.
       Example (lifetimes of the tour's chain g, 0 -> 1 -> 2, no outputs):
           int64_t sizes[3] = {4096, 8192, 4096};  dnnmem_interval records[3];
           dnnmem_graph_intervals(&g, sizes, NULL, records, NULL);
           (records [0, 2), [1, 3), [2, 3) of 4096, 8192 and 4096 bytes:
           value 2, read by nobody, lives its own step only)
       Errors (the last argument, a dnnmem_error * (may be NULL), names the
       node and field): DNNMEM_ERR_ID_RANGE (an input id outside the graph:
       INPUT), DNNMEM_ERR_NOT_TOPOLOGICAL (an input numbered after its
       consumer: INPUT), DNNMEM_ERR_NEGATIVE (SIZE), DNNMEM_ERR_CYCLE
       (topo_order: a node on the cycle).
       Example (a graph numbered out of order: node 0 reads node 2, node 2
       reads node 1; renumber it by a topological order first):
           int32_t in_offsets[4] = {0, 1, 1, 2}, in_ids[2] = {2, 1}, order[3];
           dnnmem_graph h = {3, in_offsets, in_ids};  dnnmem_error e;
           dnnmem_graph_check(&h, &e);          (DNNMEM_OK: ids in range)
           dnnmem_graph_is_topological(&h);     (0: node 0 reads a later id)
           dnnmem_graph_topo_order_scratch_size(&h, &bytes);
           dnnmem_graph_topo_order(&h, order, scratch, bytes, &e);
           (order {1, 2, 0}; in_ids {2, 0}, nodes 0 and 2 reading each
           other: DNNMEM_ERR_CYCLE, e.index 0 or 2 (on the cycle), field
           INPUT; in_ids {2, 3}: DNNMEM_ERR_ID_RANGE from both, e.index 2)
       Example (an offset's alignment: the record's, the problem's, or 1):
           dnnmem_interval_alignment(&t[0], 64);  (64; with t[0].alignment =
                                                  256: 256; both 0: 1)
       Example (names: every enum alike; a file or flag names a strategy):
           dnnmem_plan_algo a = DNNMEM_PLAN_BEST;  dnnmem_result r;
           dnnmem_plan_algo_parse("greedy-size", &a);
           (DNNMEM_OK, a == DNNMEM_PLAN_GREEDY_SIZE; dnnmem_plan_algo_name(a)
           is "greedy-size", _name(DNNMEM_PLAN_ALGO_COUNT) NULL;
           "greedy": DNNMEM_ERR_PARSE, a unchanged)
           dnnmem_result_parse("DNNMEM_ERR_CYCLE", &r);
           (r == DNNMEM_ERR_CYCLE; dnnmem_result_name(r) gives the name
           back, dnnmem_result_text(r) "graph has a cycle";
           dnnmem_field_parse("size", &f): f == DNNMEM_FIELD_SIZE)
       Example (the same seed, the same draws: a run is replayed by seed):
           dnnmem_rng r;  dnnmem_rng_seed(&r, 0);
           dnnmem_rng_next(&r);      (0xE220A8397B1DCDAF: splitmix64's first)
           dnnmem_rng_below(&r, 6);  (2: a die, 0 .. 5, without modulo bias)
           dnnmem_rng_uniform(&r);   (0.0264...: 238094247788840 / 2^53)



   ==== 2. INTERVAL PLANNING (dnnmem_plan_*)
   Problem.     Give every record (dnnmem_interval: lifetime [lower, upper),
                size) an offset in one arena so that records live at a common
                time never share a byte, each offset a multiple of
                dnnmem_interval_alignment(record, problem.alignment), fixed
                offsets kept, and the arena max(offset + size) as small as
                possible (dynamic storage allocation; NP-hard). Inside a gap
                a record occupies only its window. Also: "is there a plan
                within capacity C?", a lower bound, a checker, and chains.
   API.         dnnmem_plan_solve_scratch_size(&problem, &options, &bytes)
                dnnmem_plan_solve(&problem, &options, offsets, &result, mem, bytes)
                dnnmem_plan_lower_bound_scratch_size / dnnmem_plan_lower_bound
                dnnmem_plan_check_scratch_size / dnnmem_plan_check
                dnnmem_plan_chains_scratch_size / dnnmem_plan_chains
                dnnmem_plan_pass_scratch_size / dnnmem_plan_pass (multi-pass)
                dnnmem_plan_symbolic_solve_scratch_size /
                dnnmem_plan_symbolic_solve, dnnmem_plan_symbolic_resolve,
                dnnmem_plan_symbolic_records (sizes growing with S)
                dnnmem_plan_conflict_scratch_size / dnnmem_plan_conflict
                (why a capacity cannot be met: a conflict set)
                records may carry in-place reuse and alias links (below)
                dnnmem_plan_pools_solve / _lower_bound / _check /
                _conflict (+ their _scratch_size): several pools with
                capacities and costs, links too; why no plan fits them
                dnnmem_plan_algo_name / dnnmem_plan_algo_parse
                dnnmem_plan_stop_name / dnnmem_plan_stop_parse
                options (NULL = zeroed): algo, node_limit, capacity, stop,
                stop_user.
   Example.     The tour's records t[3], p = {t, 3, 64}, by one strategy:
                    dnnmem_plan_options o;  memset(&o, 0, sizeof o);
                    o.algo = DNNMEM_PLAN_GREEDY_SIZE;        (zeroed: best)
                    dnnmem_plan_solve_scratch_size(&p, &o, &bytes);
                    dnnmem_plan_solve(&p, &o, offsets, &res, scratch, bytes);
                    (res.arena == res.lower_bound == 12288, res.optimal == 1,
                    res.algo == DNNMEM_PLAN_GREEDY_SIZE; offsets {8192, 0,
                    8192}: record 1 at the bottom, 0 and 2 above it)
                The check recounts any plan (yours too) and the bound
                needs no plan; each asks its scratch the same way:
                    dnnmem_plan_check_scratch_size(&p, &bytes);
                    dnnmem_plan_check(&p, offsets, &res, scratch, bytes);
                    (DNNMEM_OK, res.arena == 12288; offsets {0, 0, 0}:
                    DNNMEM_ERR_PLAN_OVERLAP, res.error.index 0, .other 1)
                    dnnmem_plan_lower_bound_scratch_size(&p, &bytes);
                    dnnmem_plan_lower_bound(&p, &res, scratch, bytes);
                    (res.lower_bound == 12288)
                Chains: the fewest groups whose records never meet in
                time (a group can be one buffer reused in turn):
                    int32_t group_of[3], order[3];
                    dnnmem_plan_chains_result ch;
                    dnnmem_plan_chains_scratch_size(&p, &bytes);
                    dnnmem_plan_chains(&p, group_of, order, &ch, scratch,
                                       bytes);
                    (ch.groups == 2, group_of {0, 1, 0}: record 2 starts
                    when record 0 ends; order {0, 2, 1}, group by group)
                Multi-pass, symbolic sizes, conflict sets and pools have
                their examples in their sections below; in-place reuse in
                the tour.
   Result.      dnnmem_plan_result:
                arena        max(offset + size) of the plan in offsets
                lower_bound  proven: no plan is smaller
                optimal      1: arena == lower_bound (proved minimal)
                algo         the strategy whose plan was returned (under
                             best: the one that won)
                feasible     with options.capacity: 1 the plan fits, 0
                             proven impossible, -1 unknown; without: 1
                nodes        exact search nodes (0 for the heuristics)
                stop         why planning ended (see Guarantees)
                degraded     1: the undo log filled (slower, same answers)
                reused       reuse links the plan uses (see In place)
                error        where a failure is (below)
   Errors.      res.error names the record and field (a pair: index and
                other); arguments have index -1. The records, checked by
                dnnmem_intervals_check:
                DNNMEM_ERR_NEGATIVE (a size or fixed offset),
                DNNMEM_ERR_EMPTY_INTERVAL (upper <= lower),
                DNNMEM_ERR_ALIGNMENT (not a power of two), DNNMEM_ERR_BAD_GAP,
                DNNMEM_ERR_PLAN_MISALIGNED (a fixed offset), DNNMEM_ERR_OVERFLOW
                (sizes summing past int64_t), DNNMEM_ERR_PLAN_REUSE,
                DNNMEM_ERR_ID_RANGE and DNNMEM_ERR_CYCLE (links, see In
                place); then
                DNNMEM_ERR_PLAN_FIXED_COLLISION (fixed records overlap),
                DNNMEM_ERR_INVALID_ARGUMENT (an algo out of range),
                DNNMEM_ERR_NEGATIVE (node_limit or capacity),
                DNNMEM_ERR_SCRATCH_TOO_SMALL. On an error offsets is not
                written; a capacity that is not met is feasible 0, not an
                error.
   Algorithm.   options.algo (n records, k = records meeting a given one):
                naive          each record its own region, in input order.
                greedy-size    Greedy by Size (Pisarchyk & Lee, "Efficient
                               Memory Management for Deep Neural Net
                               Inference", 2020): by size, descending, each in
                               the smallest gap between placed records that
                               meet it in time (the lowest of equal ones),
                               else above them. The gaps are the free
                               intervals of those records' bytes, from a
                               time tree (a leaf per 64 time segments, or
                               fewer where records outnumber segments; each
                               record in the deepest node holding its
                               lifetime, a node's records by offset and
                               their bytes merged into runs: a node whose
                               records all meet the record gives its runs,
                               others their meeting records, an inner
                               node's by segments of stacked records, of
                               which a prefix meets); a zero size
                               (the record or one it meets) scans the
                               records it meets by offset instead, as the
                               rule reads.
                greedy-breadth their Greedy by Breadth: records by the
                               widest step of their lifetime (a range tree),
                               then size; the same gap rule. Placed in an
                               order local in time that keeps the rule's
                               order for every two records that meet (the
                               same plan): the widest steps' tree in
                               preorder. Without zero sizes, a sweep over
                               time: the free intervals of the records
                               alive at the step, moved from group to
                               group, cut by the few neighbours that end
                               or start beside it (the time tree when
                               there are more than 32).
                sorted-height  by lifetime length, then size, each on top of
                               what is placed over its lifetime (range chmax
                               segment tree); builds staircases on chains.
                pathcover      LeapMind's planner (2021): the chains below,
                               placed chain after chain with the height rule;
                               a chain of equal records [i, i+2) alternates
                               low/high: 2 x size, the optimum.
                bestfit        best fit on the skyline (Sekiyama et al.,
                               "Profile-guided memory optimization for deep
                               neural networks", 2018): fill the lowest run
                               of equal height with the unplaced record that
                               fits it best (longest, then largest); if none
                               fits, raise the run to its lower neighbour.
                greedy-tflm    TensorFlow Lite Micro's GreedyMemoryPlanner,
                               offset for offset: fixed records first (its
                               offline-planned buffers), the others by size,
                               descending, among equal sizes the record
                               added last first (its sort runs over the
                               buffers stacked from the tail), each at the
                               lowest offset above 0 or a placed record
                               meeting it that leaves its size free below
                               the next such record by offset (the lowest
                               free interval that fits, not the smallest; a
                               zero-size record ends a free interval, as in
                               its walk). What it is for: an engine that
                               swaps its planner for this header lands with
                               identical offsets first (no behaviour
                               change; examples/tflm_memory_planner.cc is
                               that drop-in), then switches to best. Its
                               AddBuffer(size, first, last) is the record
                               {first, last + 1, size}, in the order added
                               (examples/tflite_to_graph.py writes a model's
                               buffers so); with an alignment the candidate
                               is rounded up (it has none). The gaps from
                               greedy-size's time tree: its complexity.
                               Scratch alone: about 450 bytes per record.
                exact          branch and bound after minimalloc (Moffitt,
                               "MiniMalloc", ASPLOS 2023): records in
                               canonical (offset, rank) order, each at its
                               lowest offset above what it meets; dominance
                               and "hatless" cuts; a section bound stronger
                               than minimalloc's (the unplaced records of a
                               section stacked by release offset); independent
                               sides solved apart with backjumping; a table of
                               failed states, keyed by capacity and kept
                               across restarts (nogoods); tight cells: a
                               section whose unplaced bytes fill all above
                               its floor (the least lowest offset there)
                               must have that byte covered by a record
                               placed there, so a frame may branch on the
                               cell with the fewest such records (dancing
                               links' smallest column): always in a part
                               without slack (tilings), elsewhere only
                               when one record or none can cover it;
                               a failure there names the records it could
                               not place, and the search jumps back to the
                               deepest frame that raised one of their lowest
                               offsets (conflict-directed backjumping,
                               Prosser 1993); minimalloc's round robin
                               over its static orders with doubling limits,
                               each order's search suspended at its limit
                               and resumed in the next round (its path
                               replayed: no node searched twice), plus
                               randomised orders with Luby's limits (Luby,
                               Sinclair & Zuckerman, 1993), sharing the
                               nodes equally. A candidate that would leave
                               a section over capacity - its offset is
                               refused without being placed (O(1) but a
                               count of the part's sections per offset),
                               and each frame lists its candidates once
                               instead of scanning its part at every
                               choice. Minimising: two capacity
                               questions side by side, one restart at a
                               time: "a plan within the bound?" with 80%
                               of the work and of the nodes at least (its
                               restarts are exactly the decision's, so a
                               minimum at the bound costs at most about
                               1.25x deciding it), and a probe below
                               the best plan (twice as far below after a
                               success, halfway back after its doubling
                               quota; its first turn a greedy dive, the
                               heuristics' plan the first best);
                               capacities step by the gcd of sizes,
                               alignments and fixed offsets. When the undo
                               log fills, placements go unlogged and are
                               undone by recounting (result.degraded).
                best (default) pathcover, sorted-height, greedy-size,
                               greedy-breadth, bestfit, greedy-tflm until one
                               meets the bound (smallest arena wins, ties:
                               that order),
                               then, for up to DNNMEM_PLAN_BEST_EXACT_MAX
                               records, the exact search from that plan with
                               DNNMEM_PLAN_BEST_NODES nodes (x 256 / n above
                               256 records, but at least 8 n: a path places
                               all n; options.node_limit when set).
                Fixed offsets bind every strategy; the heuristics and best
                ignore gaps (still a valid plan), exact and the checker use
                them. Lower bound: the most bytes live at one time (a record
                in a gap counts its window), with the alignment rounding of
                all but the topmost record when there are no gaps, and every
                fixed record's top. Checker: records split into pieces at
                their gaps, by offset, each against the highest end of the
                earlier pieces meeting it in time. Chains: records by
                (lower, longer first, larger, id); each joins a group whose
                last member has ended (the one whose last size is closest,
                then the latest end, then the oldest), else opens one.
   Sizes not known in advance. Two answers (the TFLite paper's, and one
                plan for every size):
                Multi-pass (Pisarchyk & Lee, 2020, on recurrent nets): each
                record carries a pass (record.pass); pass 1's sizes are
                known before the run, pass k's when its first record is
                produced. dnnmem_plan_pass(k) plans pass k with any algo
                around the records of passes < k, which stay where they are
                (fixed records to the planner). Planning everything at once
                (dnnmem_plan_solve ignores pass) gives the price of not
                knowing: the tool reports both. Example (the tour's t[3],
                t[2] in pass 2, its size known only then):
                    t[0].pass = t[1].pass = 1;  t[2].pass = 2;
                    dnnmem_plan_pass_scratch_size(&p, NULL, 1, &bytes);
                    dnnmem_plan_pass(&p, NULL, 1, offsets, &res, scratch, bytes);
                    (res.arena == 12288; offsets[0], offsets[1] written)
                    t[2].size = 16384;                 (now it is known)
                    dnnmem_plan_pass_scratch_size(&p, NULL, 2, &bytes);
                    dnnmem_plan_pass(&p, NULL, 2, offsets, &res, scratch, bytes);
                    (offsets[2] == 12288 above the records that stay,
                    res.arena == 28672; planned at once: 24576)
                Symbolic sizes: each size a polynomial in one dimension S
                (sequence length, batch) with non-negative coefficients,
                S in [s_min, s_max]. dnnmem_plan_symbolic_solve returns a
                stacking: an order and, for each record, the records right
                under it. dnnmem_plan_symbolic_resolve puts each record at
                the highest end of those under it at the S of the request:
                valid at every S, since every two records that meet in time
                are ordered (sizes are never negative) - the plan is never
                redone, only resolved, in O(n x terms + edges) without
                scratch. The stacking is read off a plan: records by offset,
                each over the records that meet it in time below it, less
                those another such record separates from it (the max
                reaches them through it): a subset of the plan's vertical
                visibility graph, planar, so at most 3n edges. The plans
                tried: dnnmem_plan_solve (options) at
                DNNMEM_PLAN_SYMBOLIC_REFERENCES values of S spread over the
                range, and at three blends (each record's share of the lower
                bound summed over both ends; over the ends and the middle;
                over every fourth sample); the stacking kept is the one
                whose worst arena(S) / lower_bound(S) over
                DNNMEM_PLAN_SYMBOLIC_SAMPLES values of S (every S of a short
                range; else both ends and a geometric series) is least
                (ties: the least sum). The resolved arena at S never exceeds
                the reference plan's (when the reference is S itself). No
                fixed offsets or gaps. Example (the tour's lifetimes, sizes
                4096 S, 8192 S and 64 for S in [1, 64]; sizes in t ignored):
                    int64_t c[3 * 2] = {0, 4096,  0, 8192,  64, 0};
                    dnnmem_plan_symbolic sp = {&p, c, 2, 1, 64};
                                          (terms: 2 per record, S in [1, 64])
                    int32_t order[3], below_offsets[4],
                            below_ids[DNNMEM_PLAN_SYMBOLIC_EDGES(3)];
                    dnnmem_plan_symbolic_solve_scratch_size(&sp, NULL, &bytes);
                    dnnmem_plan_symbolic_solve(&sp, NULL, order, below_offsets,
                        below_ids, DNNMEM_PLAN_SYMBOLIC_EDGES(3), &res,
                        scratch, bytes);         (res.worst_ratio == 1.0)
                    dnnmem_plan_stacking st = {order, below_offsets, below_ids};
                    dnnmem_plan_symbolic_resolve(&sp, &st, 10, offsets, &at);
                    (at S = 10: at.arena == 122880, offsets[1] == 40960; at
                    S = 64: 786432, both the lower bound; no scratch, so a
                    runtime resolves per request)
                    dnnmem_interval at10[3];  dnnmem_error e;
                    dnnmem_plan_symbolic_records(&sp, 10, at10, &e);
                    (the records at S = 10 for any operation above: sizes
                    40960, 81920, 64; S = 65: DNNMEM_ERR_PLAN_SYMBOL_RANGE,
                    e.index -1, field SYMBOL)
   In place.    Two links a record may carry (dnnmem_interval.reuse /
                .alias with DNNMEM_INTERVAL_REUSE / _ALIAS), after XLA's
                may-alias and must-alias and ggml's / ONNX Runtime's
                in-place ops. ALIAS: a view (reshape, slice) that must share
                the offset of the record it names; the records ALIAS links
                join form an alias class, one buffer whose height at each
                time is its tallest live member. REUSE: record B may
                overwrite record A (an element-wise op writing over an input
                that dies there): A ends at B's first step (A.upper ==
                B.lower + 1), began before it, and is at least B's size. The
                planner decides: B at A's offset is the reuse used (then the
                two may overlap at that one step), anywhere else it is not.
                Each class is overwritten at most once and overwrites at
                most one, so the used links chain classes into tied groups.
                Every operation of this part then sees an ordinary problem:
                a tied group is one merged record (its span, its tallest
                member's size, and a gap keeping the window [0, h) wherever
                it is only h tall, or nothing in a hole), painted tallest
                member first with skip pointers, O(n log n). Solving tries
                three sets of ties: every link (largest B first), only links
                between records of equal size (a tie to a smaller B leaves
                a window that the heuristics, blind to gaps, cannot use;
                exact can), none; the smallest arena wins (ties: that
                order), result.reused counts its links. The lower bound:
                the alias classes merged (exact heights), less at each step
                the most reuse can save there: a tie saves min(height of
                A's class, of B's class) at B.lower, and a class takes part
                in one tie per step, so the saving is at most the sum over
                the B classes starting there of each one's largest, and the
                same over the A classes ending there; the smaller of the two
                sums is subtracted (no alignment rounding then). optimal =
                the arena meets it; with reuse links only the bound proves
                (a capacity is answered infeasible when the bound exceeds
                it; else unknown unless a plan fits), and a variant's own
                proof is reported as stop incomplete. The checker merges the
                ties the plan uses (B at A's offset; per class the first in
                id order) and looks for overlaps between groups, so it
                accepts an overlap only for a declared pair at one offset
                (two records overwriting one buffer overlap each other: an
                error). Rules: see dnnmem_interval. Pools take links (see
                Pools). Links are ignored by chains and refused by passes,
                symbolic sizes, conflict sets and shared objects. Cost: solve 3 x
                dnnmem_plan_solve's on at most n records, plus O(n log n);
                bound and check O(p log p). Scratch: the operation's own
                for n records and p + 4 m pieces (m linked records, at most
                twice the flagged ones; the bound 2 n more), plus about 330
                bytes per record.
   Why not.     When no plan fits capacity C, dnnmem_plan_conflict names a
                conflict set: records that alone cannot fit C either,
                minimal (every proper subset fits) when proven. Each
                question "does this subset fit C?" is a decision of
                dnnmem_plan_solve (exact; feasible 1, 0, or -1 when
                options.node_limit or stop ends it) on the subset copied
                into scratch; subsets keep their records as they are, so
                a fixed record stays at its offset in every subset it is
                in and may itself belong to the conflict. Start: the whole
                problem is asked (fits: no conflict); a record alone over
                C (size, or a fixed record's top) is the answer; else the
                records live at the step of the most bytes, the largest
                first, as few as make dnnmem_plan_lower_bound exceed C
                (binary search); else the time components (records linked
                by meeting in time; independent) asked one by one, the
                peak's first; else the whole problem. Then a deletion
                filter by blocks (after QuickXplain's divide and conquer,
                Junker, AAAI 2004): records ordered farthest in time from
                the peak first, then smallest; a block is dropped while
                the rest is proven infeasible (the next block twice as
                large), else halved; a single record whose removal lets
                the rest fit stays, proven needed. Minimal = every kept
                record was so proven (a subset of a fitting set fits).
                A subset proven infeasible proves the whole problem
                infeasible (feasible 0) also when the whole decision was
                left unknown. Cost: 1 + components + at most
                2m + log2(m) + 1 decisions (m = records of the start; a
                load start costs O(log k) bounds first), each an exact
                search (exponential) on at most m records. Scratch:
                dnnmem_plan_solve's for the problem with algo exact + about
                113 bytes per record. Over pools, dnnmem_plan_pools_conflict runs the
                same search with each question a pools plan of the subset
                (dnnmem_plan_pools_solve, exact; each record keeps its
                allowed pools) and the load start's test the pools bound
                (a step's bytes over every capacity); a record alone never
                conflicts there (refused first). Linked records are
                refused by both (a subset would cut links). Example (the
                tour's t[3] cannot fit 8192 bytes):
                    dnnmem_plan_options o;  memset(&o, 0, sizeof o);
                    o.capacity = 8192;                       (required)
                    int32_t conflict[3];  dnnmem_plan_conflict_result res;
                    dnnmem_plan_conflict_scratch_size(&p, &o, &bytes);
                    dnnmem_plan_conflict(&p, &o, conflict, 3, &res, scratch, bytes);
                    (res.feasible == 0, res.count == 2, conflict {0, 1}:
                    4096 + 8192 live at step 1; res.minimal == 1)
   Pools.       Several memories (TVM USMP's pools: fast SRAM beside DRAM on
                a microcontroller; an accelerator's scratchpad beside HBM).
                dnnmem_plan_pools: the records, pools (dnnmem_pool: name,
                capacity (0: unbounded), alignment, integer cost per byte)
                and per record the pools it may use in preference order
                (CSR allowed_offsets / allowed_ids; NULL: all, in index
                order). A plan gives each record a pool it may use and an
                offset in that pool's own arena; inside a pool the rules
                above hold (offsets multiples of max(record's, problem's,
                pool's alignment)); every bounded pool's arena stays within
                its capacity. Objective: the least total cost, the sum of
                size x cost over the records (bytes served from dear
                memory), then small arenas (not proven). A fixed offset
                binds in whichever pool the record goes; it may only go
                where that offset is aligned and within the capacity.
                API: dnnmem_plan_pools_solve / _lower_bound / _check, each
                with _scratch_size; options.algo (dnnmem_plan_pools_algo,
                _name/_parse), node_limit, pack_node_limit, stop. Result:
                cost, lower_bound, optimal, feasible, algo, nodes,
                decisions, moves, reused, stop. Example (the tour's t[3]
                with 8 KiB of SRAM at cost 1 beside DRAM at cost 10):
                    dnnmem_pool pools[2] = {{"sram", 8192, 0, 1},
                                            {"dram", 0, 0, 10}};  (0: unbounded)
                    dnnmem_plan_pools pp = {&p, pools, 2, NULL, NULL};
                                          (NULL, NULL: every record, every pool)
                    int32_t pool_of[3];  int64_t offsets[3], arenas[2];
                    dnnmem_plan_pools_solve_scratch_size(&pp, NULL, &bytes);
                    dnnmem_plan_pools_solve(&pp, NULL, pool_of, offsets, arenas,
                                            &res, scratch, bytes);
                    (pool_of {1, 0, 1}: record 1 in SRAM, res.cost == 8192 x 1
                    + 8192 x 10 == 90112, res.optimal == 1; arenas {8192,
                    4096}: records 0 and 2 share DRAM's bytes)
                The bound, the check of any plan and, with SRAM alone, why
                no plan fits (each asks its scratch the same way):
                    dnnmem_plan_pools_lower_bound(&pp, &res, scratch, bytes);
                    (res.lower_bound == 16384 x 1 + 4096 x (10 - 1) == 53248:
                    the fractional bound, 4096 bytes of step 1 in DRAM; the
                    solve's exact search proved 90112)
                    dnnmem_plan_pools_check(&pp, pool_of, offsets, arenas, &res,
                                            scratch, bytes);
                    (res.cost == 90112; pool_of {0, 0, 1} with offsets
                    {8192, 0, ..}: DNNMEM_ERR_PLAN_POOL_OVER_CAPACITY,
                    res.error.index 0 (the record reaching highest), .other 0
                    (SRAM))
                    dnnmem_plan_pools sram = {&p, pools, 1, NULL, NULL};
                    dnnmem_plan_pools_conflict(&sram, NULL, conflict, 3, &why,
                                               scratch, bytes);
                    (why.feasible == 0, conflict {0, 1}: 12288 bytes live at
                    step 1, why.minimal == 1; the bound of sram alone:
                    DNNMEM_ERR_INFEASIBLE, no plan exists)
                Heuristics. greedy is USMP's greedy_by_size with fallback:
                records (fixed first) by size descending, each to its first
                allowed pool with room at the best-fit offset (the smallest
                hole between the records of that pool meeting it in time,
                else on top; room: within the capacity). improve runs it
                and a second order (shortest lifetime first: a byte-step of
                SRAM saves the most there), then on each plan: every bounded
                pool re-planned by dnnmem_plan_solve (best, at its capacity)
                when smaller, and passes of moves: records by the saving at
                stake (size x (its pool's cost - its cheapest pool's)), each
                into the cheapest allowed pool that takes it, a best-fit
                hole or, when its bytes over its lifetime fit, a re-plan of
                that pool with it (dnnmem_plan_solve, best, at the
                capacity: "more fits in fast pools when they are packed
                tighter"; these re-plans plan at most 16 n records in
                all); up to 8 passes, until none moves.
                Lower bound (dnnmem_plan_pools_lower_bound). Let m(i) be the
                cheapest cost of a pool record i may use and fits alone.
                Every plan costs at least sum size(i) m(i) (S0). At a step t,
                let L(t) be the records live there (outside gaps). The
                records of L(t) must share the pools' capacities at t, so
                their cost is at least the least cost of a fractional
                assignment x(i,p) >= 0, sum_p x(i,p) = size(i), sum_i x(i,p)
                <= capacity(p), at price max(cost(p), m(i)) (a relaxation:
                pools a record may not use become open at a price no lower
                than its cheapest, so no plan's cost is undercut). Its
                excess over sum size m is E(t). With classes by m ascending
                and pools by cost ascending, the price excess
                max(0, cost(p) - m) is a convex function of cost(p) - m, so
                the matrix is Monge and the north-west-corner fill (each
                class in turn into the cheapest pools left) is optimal
                (Hoffman, "On simple linear programming problems", 1963);
                unused capacity is a last class of price 0. E(t) >= 0 and
                depends only on L(t); for steps whose live sets are
                disjoint the excesses add (disjoint records). Steps t1 <
                t2 < ... chain when each t(k) lies before the first lower
                of the records live at t(k+1): then no record is live at two
                of them. Bound = S0 + the largest sum of E over a chain, a
                dynamic program over the distinct lowers (prefix maxima).
                If the bytes of one step exceed all capacities together (no
                unbounded pool), no plan exists (DNNMEM_ERR_INFEASIBLE).
                Exact (algo exact; best up to
                DNNMEM_PLAN_POOLS_BEST_EXACT_MAX records with
                DNNMEM_PLAN_POOLS_BEST_NODES nodes): depth-first branch and
                bound over the assignment, from the heuristics' best plan:
                records by size descending, each pool it may use and fits
                alone in preference order; the bound at a node is the
                assigned cost plus the bound above over the unassigned
                records with the assigned ones' bytes taken out of their
                pools' capacities at each step (a step over a capacity
                prunes: no packing can fit). Tables per step and class
                (unassigned bytes) and per step and pool (assigned bytes)
                change in O(steps of the record) per move. At a leaf (a full
                assignment cheaper than the best) each bounded pool is
                packed by dnnmem_plan_solve at its capacity: best first,
                then exact with pack_node_limit nodes; proven infeasible
                prunes, undecided counts as not found and the search can no
                longer claim a proof. A completed search proves its best
                (result.lower_bound = cost) or that there is none
                (feasible 0); gaps: the search plans whole lifetimes, so
                stop is incomplete unless the bound meets the cost.
                Links (reuse and alias, see In place). An alias class is
                one buffer: it goes to one pool that all its members may
                use and that takes it as one record (its height, alignment
                and fixed offset; none: DNNMEM_ERR_PLAN_POOL_CAPACITY). A
                reuse is used when B goes to A's pool at A's offset. Each
                record still costs its own size x its pool's cost: a tensor
                is read and written where it lives, shared bytes or not, so
                ties save room, not cost. solve plans four tie sets, each as
                an ordinary problem of merged records whose cost counts
                their members' bytes: every link, equal sizes only (both
                chains needing a pool in common), the classes alone with
                their reuse links kept (the greedy takes a tie when A's
                offset is free, a move counts what ties may save, and each
                pool's packing, dnnmem_plan_solve, chooses its ties), and
                none; the cheapest plan wins (then the smallest arenas),
                result.reused counts its ties. The bound with links: each
                class priced at the cheapest pool all its members may use
                and it fits; the classes that any plan may let share bytes
                (every link) form components, and at each step a
                component's tallest live member holds its bytes alone (no
                other component shares them), so the step's fractional fill
                over those members, each at its own price, is a relaxation;
                the chain over steps as above (no record live at two). Only
                this bound proves with links (the tie sets are some of the
                choices), so stop is incomplete unless it meets the cost.
                The checker keeps each class in one pool
                (DNNMEM_ERR_PLAN_ALIAS_OFFSET) and checks each pool with
                dnnmem_plan_check, the ties inside it declared (a reuse
                across pools is simply not used).
                Measured (tests/BENCHMARKS.md): on 18 inference models with SRAM of
                25/50/75% of the single arena (cost 1, DRAM 10), the exact
                search proves 52 of the 54 plans optimal (10 s each; most
                in milliseconds); improve's plan is that optimum in 52,
                USMP's greedy in 45. The fractional bound alone is met in 5:
                it lets a record split differently at each step, and the
                search closes the rest.
                Complexity: the bound O(n log n + T P) (T distinct lowers, P
                pools); greedy O(n^2) (a placement scans the pool's records
                meeting it, O(k log k) to sort them); improve adds up to 8
                passes of n moves, each a placement or one dnnmem_plan_solve
                (best) on a pool's records; exact: exponential, O(T P + steps
                of the record) per node plus the leaf's packings (each an
                exact search, exponential). Check O(P + p log p).
                Scratch: solve, dnnmem_plan_solve's (exact) for n records
                plus about 150 + 32 P bytes per record; the bound about
                24 + 32 P bytes per record; the check dnnmem_plan_check's
                plus about 90 bytes per record. With links: solve sizes
                dnnmem_plan_solve's for the records with their links, and
                each operation adds the ties' 350 bytes per record (the
                solve also the merged allowed lists). Cost with links:
                4 x the solve above on at most n merged records.
   Complexity.  naive O(n); greedy-size and greedy-breadth O(n log n +
                sum (c + s) + sum of node sizes), per record c the runs of
                the nodes whose records all meet it (at most k), s the
                records of the others it visits (its ancestors and the
                two ends' nodes), a node's size the shifting of its
                insertion, plus per node cut the free intervals left
                (those shorter than the record dropped); O(n^2) worst;
                greedy-breadth's sweep O(f + w + m) per record: f the
                free intervals at its step, w the words of marks scanned
                (at most 32) and m the records they mark (at most 32 each
                way), a placed record's flips O(f); past those bounds,
                the time tree's;
                O(k log k) for a record with a zero size in play;
                sorted-height and pathcover O(n log n) (plus O(k log k)
                per record near fixed ones); bestfit O((n + T)
                log n + scanned candidates), O(n^2) worst; exact exponential,
                O(n + sections x live) per placed node, O(1) per refused
                one (plus O(sections) per offset a frame reaches, O(its
                part's sections + busy sections) to choose its cell, and
                O(k log k) to list a frame's k candidates), a resumed
                search's replay O(depth) nodes, undoing an unlogged
                placement O(k m) (m records searched); bound, checker
                O(p log p), p = records + 2 gaps; chains O(n log n). A
                pass: dnnmem_plan_solve's on passes 1..k, plus O(n log n).
                Symbolic solve: 11 plans (dnnmem_plan_solve at n records),
                64 lower bounds, and per plan O(n log n + sum k^2) for the
                stacking and 64 resolutions; resolve O(n x terms + edges).
   Guarantees.  Every returned plan is valid (offsets always hold one, also
                when a capacity is answered "no"). lower_bound is proven;
                optimal = 1 only when arena == lower_bound. feasible: 1 the
                returned plan fits, 0 proven impossible, -1 unknown (a
                heuristic that cannot tell, or a search stopped by
                node_limit or stop, which then returns its best plan). With
                windows the exact search is conservative (a window is never
                nested in another's): it proves nothing beyond the load
                bound. stop says why planning ended, and no search ends
                early for a reason it does not name: proved (optimal, or
                the capacity answered), nodes (node_limit, or best's own
                budget), time (options.stop said so), incomplete (every
                capacity the search can decide was asked without a proof:
                windows, or best's search that ignores gaps), none (a
                heuristic's plan, nothing proven, no search). A full undo
                log or failed-state table never stops a search: the table
                replaces old entries, the log is replaced by recounting
                (degraded = 1: slower nodes, the same answers). Chains:
                exactly as many groups as the most records
                alive at one time (the minimum). Multi-pass: earlier passes'
                offsets never move, later passes' are never read or written.
                Symbolic: every resolved plan is valid at every S of the
                range (sizes checked against int64 at s_max once, at every
                resolve again); worst_ratio is measured on the samples, not
                proven between them (the tool's tests and make bench check
                every S of [64, 2048]). Deterministic; no clock is
                read (a stop callback may).
   Scratch.     Bound 64 and checker about 180 bytes per piece; solve about
                740 bytes per record plus the exact search's block (about
                1.9 KiB per record + 1.9 MiB up to DNNMEM_PLAN_BEST_EXACT_MAX
                records for every algo; above, for exact only, about 3.1 KiB
                per record + 43 MiB; its undo log holds 32 entries per
                record + 2^16 up to DNNMEM_PLAN_BEST_EXACT_MAX records, 64
                per record + 2^20 above; a search that needs more goes on
                degraded). Chains: DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(n).
                DNNMEM_NO_EXACT compiles the exact search out (no "exact";
                best stops after the heuristics). A pass: dnnmem_plan_solve's
                for its records + 100 bytes per record. Symbolic solve:
                dnnmem_plan_solve's + about 510 bytes per record; resolve
                none. Measured results: tests/BENCHMARKS.md.


   ==== 3. SHARED OBJECTS (dnnmem_share_*)
   Problem.     Assign each record to an object (a GPU texture, a buffer) so
                that no two records live at a common time share one; an
                object is as large as its largest record; minimise the sum
                of the object sizes. Alignment, fixed offsets and gaps do
                not apply.
   API.         dnnmem_share_solve_scratch_size(&problem, &options, &bytes)
                dnnmem_share_solve(&problem, &options, object_of, object_sizes,
                                   &result, mem, bytes)
                dnnmem_share_lower_bound_scratch_size / dnnmem_share_lower_bound
                dnnmem_share_check_scratch_size / dnnmem_share_check
                dnnmem_share_algo_name / dnnmem_share_algo_parse
                options (NULL = zeroed): algo.
   Example.     The tour's records t[3] (alignment ignored) by one strategy:
                    dnnmem_share_options o;  memset(&o, 0, sizeof o);
                    o.algo = DNNMEM_SHARE_GREEDY_BREADTH;
                    dnnmem_share_solve_scratch_size(&p, &o, &bytes);
                    dnnmem_share_solve(&p, &o, object_of, object_sizes, &res,
                                       scratch, bytes);
                    (object_of {0, 1, 0}, object_sizes {4096, 8192},
                    res.objects == 2, res.total == 12288, res.optimal == 1;
                    object_sizes may be NULL, else room for n objects)
                The check recounts any assignment, the bound needs none
                (each asks its scratch the same way):
                    dnnmem_share_check(&p, object_of, &res, scratch, bytes);
                    (res.objects == 2, res.total == 12288; object_of {0, 0,
                    0}: DNNMEM_ERR_SHARE_OVERLAP, records 0 and 1 in
                    res.error.index and .other)
                    dnnmem_share_lower_bound(&p, &res, scratch, bytes);
                    (res.lower_bound == 12288)
   Result.      objects (count), total (sum of object sizes), lower_bound
                (proven), optimal (total == lower_bound), algo (the
                strategy whose assignment was returned), error.
   Errors.      dnnmem_intervals_check's (res.error: the record and
                field); DNNMEM_ERR_INVALID_ARGUMENT (an algo out of range,
                a NULL object_of; a record with a link: field ALIAS or
                REUSE), DNNMEM_ERR_SCRATCH_TOO_SMALL. The checker:
                DNNMEM_ERR_SHARE_OVERLAP (the two records, field OBJECT),
                DNNMEM_ERR_ID_RANGE (the record).
   Algorithm.   Pisarchyk & Lee (2020), shared objects:
                greedy-size           by size, descending: the smallest free
                                      object at least as large, else a new one.
                greedy-size-improved  stages by positional maximums; inside a
                                      stage the (record, large-enough free
                                      object) pair nearest in time.
                greedy-breadth        by the widest step of the lifetime,
                                      then size: the smallest large-enough
                                      free object, else grow the largest free
                                      one, else a new one.
                greedy-order          by first use, the same choice.
                best (default)        greedy-size, greedy-breadth,
                                      greedy-order, greedy-size-improved until
                                      one meets the bound; the smallest total
                                      (ties: that order).
                Lower bound: the sum of positional maximums (the i-th is the
                largest i-th biggest size live at one step). Objects are
                numbered by first use.
   Complexity.  Greedies O(n^2) worst (a free test walks an object's
                time neighbours, found by an interval tree); the improved one
                O(n^2) plus rescans; lower bound O(n log n); check O(n log n).
   Guarantees.  The assignment is valid; lower_bound is proven; optimal = 1
                only when total == lower_bound. Deterministic.
   Scratch.     solve about 480 bytes per record, lower bound about 140,
                check 8.



   ==== 4. PATH COVERS OF GRAPHS (dnnmem_cover_*)
       Problem. A DAG in the shared CSR form (edges run from an input to
       its consumer). Vertices: the fewest vertex-disjoint paths that
       cover every vertex, each next vertex a consumer of the one before
       (transitive: reachable from it, i.e. the fewest chains of the
       reachability order). Edges: W, the fewest directed paths that
       together walk every edge (paths may share vertices and edges). W is
       the quantity of LeapMind's bound (Maeda, "Solving buffer allocation
       as a path-cover problem", LeapMind blog, July 2021, in Japanese):
       the lifetimes [i, last consumer + 1) overlap at most 2 W at a time,
       so the chains plan (dnnmem_plan_chains) needs at most 2 W x the
       largest size.

       API.
         dnnmem_cover_vertices_scratch_size(graph, options, &bytes)
         dnnmem_cover_vertices(graph, options, path_of, order, &result,
                               scratch, bytes)
         dnnmem_cover_edges_scratch_size(graph, options, &bytes)
         dnnmem_cover_edges(graph, options, edge_uses, path_offsets,
                            path_nodes, capacity, &result, scratch, bytes)
           options.transitive (vertices only).

       Example (the diamond 0 -> {1, 2} -> 3).
           int32_t in_offsets[5] = {0, 0, 1, 2, 4}, in_ids[4] = {0, 0, 1, 2};
           dnnmem_graph g = {4, in_offsets, in_ids};
           dnnmem_cover_edges_scratch_size(&g, NULL, &bytes);
           dnnmem_cover_edges(&g, NULL, NULL, NULL, NULL, 0, &res, scratch, bytes);
           (res.paths == 2 == W: 0-1-3 and 0-2-3; the NULLs skip the paths)
           int32_t path_of[4], order[4];
           dnnmem_cover_vertices_scratch_size(&g, NULL, &bytes);
           dnnmem_cover_vertices(&g, NULL, path_of, order, &res, scratch, bytes);
           (res.paths == 2: path_of {0, 0, 1, 0}, order {0, 1, 3, 2})

       Result. paths (W for edges), path_nodes (the paths' total length
       in vertices: the capacity path_nodes needs), error.

       Errors. res.error names the node (a cycle: one on it; a bad input
       id: the node reading it, field INPUT). DNNMEM_ERR_CYCLE,
       DNNMEM_ERR_ID_RANGE (the graph),
       DNNMEM_ERR_INVALID_ARGUMENT (an empty graph),
       DNNMEM_ERR_OUTPUT_TOO_SMALL (path_nodes shorter than
       result.path_nodes: the result is written, call again),
       DNNMEM_ERR_TOO_MANY (the flow network past int32_t),
       DNNMEM_ERR_SCRATCH_TOO_SMALL.

       Algorithm. Vertices: n minus a maximum matching "u precedes v" over
       the edges (Fulkerson, "Note on Dilworth's decomposition theorem for
       partially ordered sets", Proc. AMS 1956), by Hopcroft and Karp ("An
       n^5/2 algorithm for maximum matchings in bipartite graphs", SIAM J.
       Comput. 1973), iterative. Transitive: the same matching over the
       reachability order without its quadratic closure, as one max flow
       (part 7) on 2V + 2 nodes where unbounded arcs in_w -> out_w let a
       unit travel along the graph; by Dilworth's theorem the result is
       the largest antichain. Edges: a minimum flow with lower bound 1 per
       edge: every edge walked once needs sum over v of max(0, out(v) -
       in(v)) paths; a max flow from the vertices where paths end to those
       where they start joins paths pairwise; W is the difference. Paths
       are recovered by walking the flow from the vertices in topological
       order. A repeated input (x * x) is one edge.

       Complexity. Vertices O(E sqrt V); transitive one max flow on 2V + 2
       nodes and 3V + E arcs plus O(V (V + E)) at most to decompose it;
       edges one max flow on V + 2 nodes and V + E arcs plus the total
       path length.

       Guarantees. Exact minimum covers (W exactly). Paths come in the
       topological order of their first vertex; deterministic. Cycles give
       DNNMEM_ERR_CYCLE, an empty graph DNNMEM_ERR_INVALID_ARGUMENT. A path
       array shorter than result.path_nodes gives
       DNNMEM_ERR_OUTPUT_TOO_SMALL with the result written: call again.

       Scratch. O(V + E), from the _scratch_size functions (they read the
       graph's counts; DNNMEM_ERR_TOO_MANY when the flow network would
       leave int32_t).



   ==== 5. RECOMPUTE (dnnmem_remat_*)
       Problem. A training graph (values with byte sizes and compute times)
       must run within a memory budget. A sequence computes one node per
       step and may compute a node again (recomputation). A use of v at step
       j binds to the latest computation of v before j; an instance is held
       from its step through its last bound use (only its own step if none);
       the last instance of a graph output is held to the end. Memory at a
       step = the sizes of the instances held at it; peak = the maximum;
       time = the sum of node times over the sequence. Valid: every node at
       least once, every input computed before each use, graph inputs
       (nodes without inputs) exactly once. The arena: every instance gets
       an offset (dnnmem_remat_plan); arena >= peak, and the bytes an
       engine allocates. Goal: the least time with arena <= budget
       (options.peak_only: peak <= budget, for engines that place memory
       their own way; no budget: the lowest peak).

       API.
         dnnmem_remat_solve_scratch_size(problem, options, capacity, &bytes)
         dnnmem_remat_solve(problem, options, rng, sequence, capacity,
                            &result, scratch, bytes)
           options.algo: ANNEAL (default), ROW_ORDER, CHECKPOINT
         dnnmem_remat_simulate[_scratch_size](problem, sequence, length,
                            profile, &result, scratch, bytes)
         dnnmem_remat_lower_bound(problem, &bounds)      (bounds.peak)
         dnnmem_remat_time_bound[_scratch_size](problem, options,
                            &bounds, scratch, bytes)  (.extra_time, .cut)
         dnnmem_remat_group_order[_scratch_size](problem, members, count,
                            max_states, order, capacity, &result, ...)
                            (.length, .peak)
                            (the size query takes no members)
         dnnmem_remat_plan[_scratch_size](problem, plan_options, sequence,
                            length, alignment, records, offsets, &result, ...)
         dnnmem_remat_arena_options(budget, length, &plan_options)
         dnnmem_remat_curve[_scratch_size](problem, options, rng, capacity,
                            points, num_points, &result, scratch, bytes)
         dnnmem_remat_spacing_name / dnnmem_remat_spacing_parse

       Example (solve within a budget: the tour's part 5; the arena of the
       sequence found: examples/engine.c). The trade-off curve of
       x -> f1 -> f2 -> f3 -> f4, g = (f4, f2), h = (g, f1):
           int32_t in_offsets[8] = {0, 0, 1, 2, 3, 4, 6, 8},
                   in_ids[8] = {0, 1, 2, 3, 4, 2, 5, 1};
           int64_t sizes[7] = {0, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20,
                               1 << 20},  times[7] = {0, 10, 10, 10, 10, 10, 10};
           dnnmem_graph g = {7, in_offsets, in_ids};
           dnnmem_remat_problem p = {&g, sizes, times, NULL};
           dnnmem_remat_options o;  memset(&o, 0, sizeof o);
           dnnmem_remat_point points[3];  dnnmem_remat_curve_result res;
           o.iterations = 20000;                    (moves per point)
           dnnmem_rng_seed(&rng, 1);
           dnnmem_remat_curve_scratch_size(&p, &o, 14, 3, &bytes);
           dnnmem_remat_curve(&p, &o, &rng, 14, points, 3, &res, scratch, bytes);
           (res.base_peak == 4 MiB (f1 .. f4 held at once), res.lower_bound
           == 3 MiB; budgets 4, 3.5, 3 MiB: time 60, 70, 70 ns (f1
           recomputed before h), time_lower_bound 60, 65, 70: the last
           point is proven optimal; res.knee == -1)
       The row order counted step by step, and the bounds (the same p;
       each solve-shaped call asks its scratch first):
           int32_t row[7] = {0, 1, 2, 3, 4, 5, 6};  int64_t profile[7];
           dnnmem_remat_result sim;  dnnmem_remat_bound_result bound;
           dnnmem_remat_simulate(&p, row, 7, profile, &sim, scratch, bytes);
           (sim.peak == 4 MiB, sim.time == 60; profile: bytes held per step)
           dnnmem_remat_lower_bound(&p, &bound);      (bound.peak == 3 MiB)
           o.budget = 3 << 20;
           dnnmem_remat_time_bound(&p, &o, &bound, scratch, bytes);
           (bound.extra_time == 10: no sequence within 3 MiB takes under 70)
       The exact order of a small group (h from f1 .. g; x, outside the
       group, held and not counted), and the arena of that order:
           int32_t members[6] = {1, 2, 3, 4, 5, 6}, order[12];  (target last)
           dnnmem_remat_group_order_scratch_size(&p, 6, 1000, 12, &bytes);
           dnnmem_remat_group_order(&p, members, 6, 1000, order, 12, &sim,
                                    scratch, bytes);
           (sim.length == 7, order {1, 2, 3, 4, 5, 1, 6}: f1 again before h,
           sim.peak == 3 MiB; members {1, 2, 3, 4, 5, 2}:
           DNNMEM_ERR_INVALID_ARGUMENT, sim.error.index 5, .other 1, field
           MEMBER)
           int32_t seq[8] = {0, 1, 2, 3, 4, 5, 1, 6};  dnnmem_plan_options po;
           dnnmem_interval records[8];  int64_t offsets[8];
           dnnmem_remat_plan_result arena;
           dnnmem_remat_arena_options(3 << 20, 8, &po);   (solve's: exact,
                                     capacity 3 MiB, node_limit 1000000)
           dnnmem_remat_plan_scratch_size(&p, &po, seq, 8, 0, &bytes);
           dnnmem_remat_plan(&p, &po, seq, 8, 0, records, offsets, &arena,
                             scratch, bytes);
           (arena.arena == arena.peak == 3 MiB, arena.time == 70,
           arena.optimal == 1; records: instance j over [j, its last use
           + 1), x's [0, 7); seq[5] = 6, h before g:
           DNNMEM_ERR_REMAT_INPUT_NOT_READY, arena.error.index 5, field
           SEQUENCE)

       Result. dnnmem_remat_result (solve, simulate): peak, time, length
       (steps; OUTPUT_TOO_SMALL: the capacity needed), recomputations
       (length - V), moves and accepted (anneal), arena (anneal with a
       budget, not peak_only: the planned arena, <= budget when OK; else
       -1). dnnmem_remat_point (the curve): budget, time, peak and arena
       of the best sequence within it (-1: none), time_lower_bound
       (proven), run_time, run_peak and run_arena (the point's own run),
       seed, source; dnnmem_remat_curve_result:
       base_peak, base_time, lower_bound, knee, points, moves.
       dnnmem_remat_plan_result: arena, peak, time, length, optimal, plan
       (dnnmem_plan_solve's result). dnnmem_remat_bound_result
       (lower_bound, time_bound): peak, extra_time (INT64_MAX when the
       budget is below the peak's bound) and the cut node. Each has error.

       Errors. result.error names the node (SIZE, TIME, INPUT; a cycle: a
       node on it), the sequence step (simulate, plan: SEQUENCE) or the
       option (ALGO, BUDGET, OPTIONS). DNNMEM_ERR_CYCLE,
       DNNMEM_ERR_NEGATIVE (a size or time),
       DNNMEM_ERR_ID_RANGE, DNNMEM_ERR_OVERFLOW (times x capacity),
       DNNMEM_ERR_INVALID_ARGUMENT (bad options, a NULL result or rng),
       DNNMEM_ERR_OUTPUT_TOO_SMALL (the sequence's capacity),
       DNNMEM_ERR_TOO_MANY, DNNMEM_ERR_SCRATCH_TOO_SMALL; a sequence that
       does not fit the budget is DNNMEM_ERR_INFEASIBLE with the best one
       found written. simulate and plan refuse a sequence with
       DNNMEM_ERR_REMAT_MISSING_NODE, _INPUT_NOT_READY, _INPUT_REPEATED;
       group_order DNNMEM_ERR_REMAT_STATE_LIMIT.

       Algorithm. Anneal: FastSA (Imanishi, Xu, Takagi, Wang, Castillo, "A
       fast heuristic to optimize time-space tradeoff for large models",
       NeurIPS 2023): instances in 2 x capacity slots with gaps; moves SWAP,
       ADD (a recomputation just before a use, half of the time with one of
       its inputs), REMOVE, and CHAIN (one move in 128: a node computed once
       and the chain of its sole consumers, up to 6, move up together, each
       to the first free slot after its inputs: a value and the values it
       feeds shift as one block where single SWAPs would each hold one
       longer and be refused); hold intervals in a segment tree (range add,
       global max), so a move's peak costs O(degree log L). Cost: time /
       base time, plus exp(10 x overshoot / base peak) - 1 over the budget
       (continuous at the budget: a jump there kept the search in the first
       feasible region it reached; the contraction pipeline: over an aim 2%
       below it, so that its search, which ends hovering just over its aim,
       ends near the budget; results and the final polish use the budget
       itself);
       Metropolis acceptance, temperature geometric over options.iterations
       (or the progress callback). The start order is the row order with
       every graph input moved just before its first consumer (no step
       holds more). A portfolio shares the run: a drop-set
       search (checkpointing decoded from a set of dropped values, annealed
       over the set: finds pairs such as bn + relu that pay only when
       recomputed together), the plain graph, then graph contraction
       (Preferred Networks tech blog, "Improving recomputation with
       graph-contraction preprocessing", Nov. 2023, in Japanese): small
       values, inputs, outputs and sinks are marked, each marked node
       stands for its group of unmarked ancestors, ordered exactly by
       dnnmem_remat_group_order (backward Dijkstra over held sets with the
       lossless pruning "uncompute a member whose inputs are all held"),
       and marks are added in decompose_steps rounds up to the plain graph.
       Repair: a pipeline's final state over the budget is mended
       greedily before its polish: at the step that holds the most, each
       instance held across it could be released by a recomputation just
       before its next use after that step, together with the inputs that
       recomputation would otherwise stretch across it (recursively, at
       most 16 nodes); the one that lowers the peak (else that step's
       memory) at the least time per byte is applied, until the peak fits,
       nothing helps, or V / 16 + 64 rounds (not after a stop before the
       run's end). Single ADDs cannot make such a move in one step, and as
       an annealing move it drove the search into high-time feasible
       states (bert_base.train, 26 M moves: 12% -> 18% extra time).
       Every stage's result is re-simulated and the best kept.
       reorder_only: SWAP only; no_contraction: no contraction pipeline.
       The arena (a budget, not peak_only): the pipelines get the first
       75% of the run; every candidate they offer (each pipeline's and
       stage's result) and their answer are planned by dnnmem_remat_plan with
       dnnmem_remat_arena_options (part 2's exact search asked "do the
       instances fit capacity = budget?", node-limited: it decides a fit
       far faster than it minimises, and finds fits the heuristics miss by
       3-7% of the peak). Then 5 rounds share the last 25%: from the last
       state, anneal warm (a tenth of the start temperature) at an aim
       corrected by the measured fragmentation, aim' = peak x budget /
       arena (at least 0.25% of the budget lower when the arena did not
       fit; half-way up, at most the budget, when it did), with one more
       cost: memory above the aim less 5% of the budget (per block of
       slots, as the overshoot is counted), for a plateau near the aim
       plans with holes; planning the
       polished state at each quarter of the round (the plan is erratic
       near a fit: swaps that changed neither peak nor time took one
       resnet18.train state from 1.065 to 1.030 and 0.999 of the budget),
       then repair to the aim, polish, plan. While no plan fits, up to 8 repairs: guided by
       the plan (the instances held across the first step of a record
       planned above the budget are released there by the repair's
       recomputation, each of up to 16 candidates planned, the smallest
       arena kept; an equal load can fragment less: test_remat_arena's
       8-node graph), else greedy to an aim lowered the same way. Every
       plan is a
       candidate: the answer is the fastest whose arena fits (none: the
       smallest arena), so result.arena <= budget whenever DNNMEM_OK.
       The plans are the arena's extra cost: 7-18% more CPU time at
       the same move count on the training graphs (tests/BENCHMARKS.md).
       Row order: the topological order (the given one when topological).
       Checkpoint: Chen, Xu, Zhang, Guestrin, "Training deep nets with
       sublinear memory cost" (arXiv 2016): sqrt(V) segments.
       Time bound: cut at the first computation of a node L; each node is
       done before and not needed after, held at the cut (H), recomputed
       after, or first computed after; the budget bounds bytes(H). Its
       Lagrangian relaxation is a minimum cut over three ordered threshold
       variables per node (Ishikawa, "Exact optimization for Markov random
       fields with convex priors", PAMI 2003; dnnmem_flow, Boykov-
       Kolmogorov), maximised over the multiplier by doubling and 24
       bisection steps in integer arithmetic, for the options.bound_cuts
       steps of the row order that hold the most. The multiplier ranges
       from half the least to twice the largest time per byte of a node
       that can be recomputed (beyond it no node is held where it could be
       recomputed); times are scaled to integers so that the range times
       the total size fits, by up to 2^24 more before the range is capped
       (a range capped near total time / total size, before 0.5.0, left
       the bound weaker than it is on transformer graphs). The bound holds
       for every sequence whose peak fits; every arena is at least its
       peak, so it holds for every sequence whose arena fits too (the
       default solve's answers): it bounds both kinds of answer.

       The schedule's arena (dnnmem_remat_plan): record j is the instance
       computed at step j over [j, end + 1), end its last bound use (j if
       none), length - 1 for a graph output's last instance: the
       simulator's own holding rule, so the records' load is the peak and
       the peak is a lower bound of every arena. dnnmem_plan_solve plans
       them (the caller's plan options); result.optimal = 1 when the arena
       equals the plan's lower bound (at least the peak; above it where
       the plan proves more, e.g. 74 over a peak of 73 on a fuzzed
       12-step schedule): proven minimal. Measured (tests/BENCHMARKS.md): equal on some graphs, 2-6% above the
       peak on others, where recomputed instances fragment the arena.

       The trade-off curve (dnnmem_remat_curve). N budgets from the row
       order's peak B down to dnnmem_remat_lower_bound b: even,
       B - floor((B - b) k / (N - 1)); geometric (b > 0),
       floor(B (b / B)^(k / (N - 1))) by the built-in exp and log; kept
       within [b, B], non-increasing, first B and last b (one point: B).
       Point k runs dnnmem_remat_solve at its budget with an rng seeded
       s + k (s: one value drawn from the caller's rng), then
       dnnmem_remat_time_bound. Monotone by construction: a sequence found
       for one budget serves every budget its arena (peak_only: its peak)
       fits, so point k's time is the least time of all the runs whose
       arena fits budget k (-1 if none; the first such run on ties); its
       arena never exceeds a larger budget's point's (that point's run,
       when it fits budget k, is point k's too); a bound proven for a
       budget holds for every smaller one, so
       point k's time_lower_bound is the sum of all times plus the largest
       extra-time bound of the points with budgets >= its own. Knee: over
       the points with a time (a prefix), equal budgets once, slope i =
       (time[i+1] - time[i]) / (budget[i] - budget[i+1]), the time per byte
       saved; the knee is the point between slopes i - 1 and i with the
       largest increase slope i - slope (i - 1) > 0 (in double; increases
       within 1e-9 x the two slopes' sum count as equal, the larger budget
       wins): the budget below which time starts to grow fastest; -1 when
       no slope increases. With options->progress the caller's fraction p
       drives point k as p N - k.

       Complexity. simulate O(V + L + the steps' in-degrees); lower_bound
       O(V + squared in-degrees); anneal O(degree log L) per move, 1000 V +
       500000 moves by default, a repair round O(S + the instances held at
       the peak x 16 recomputations' degree log L), each trial counted as
       a move; checkpoint O(L + E); time_bound ~30 x
       bound_cuts min cuts (3 V + 2 nodes, 9 V + 2 E arcs); group_order
       O(states x g^2); plan O(V + L + in-degrees) plus dnnmem_plan_solve on
       L records; curve N x (solve + time_bound) + O(N^2).

       Guarantees. Every sequence returned is valid and its result is the
       simulator's. Anneal never returns worse than the row order (feasible
       first, then less time; neither: lower peak; with the arena bounded:
       by the arena, the row order's planned as the answer's is). DNNMEM_OK when there is
       no budget or the peak fits it, else DNNMEM_ERR_INFEASIBLE with the
       best sequence found still written (always when the budget is below
       dnnmem_remat_lower_bound; possibly at or above it: the bound is not
       always reached). With a budget (not peak_only) the same for the
       arena: DNNMEM_OK means result.arena <= budget, and
       dnnmem_remat_plan with dnnmem_remat_arena_options(budget, length)
       gives those offsets again (the plan is deterministic).
       Deterministic for a given rng state unless a progress callback reads
       a clock; a stop returns the best so far. The lower bound and the
       time bound hold for every valid sequence within the budget (results
       measured on real graphs: tests/BENCHMARKS.md).

       Scratch. Anneal about 1.8 KB per node at capacity 2 V and the default
       max_group_size (4 V max_group_size unit edges dominate); baselines
       and simulate O(V + E + capacity); DNNMEM_REMAT_SIMULATE_SCRATCH_BYTES.
       Unless peak_only: plus dnnmem_remat_plan's for capacity records with
       the exact search (about 3.1 KiB a record, plus 43 MiB above 4096) and
       about 84 bytes a step.
       Plan: the simulator's plus dnnmem_plan_solve's for L records
       (without gaps: the size query needs the length only). Curve: the larger of
       solve's and time_bound's, plus the capacity's sequence.




   ==== 6. LAYOUT ARITHMETIC (dnnmem_layout_*)
       Problem.     Say how a tensor is spread over a tree of processing
                    units (MN-Core's board > L2B > L1B > MAB > PE, each with
                    its own memory) and where each element sits in that
                    memory; answer "where is element i?", "what is in slot
                    (unit, address)?", "how big, how many copies, which DMA
                    runs?". The notation is PFN's TensorLayout (MN-Core
                    compiler, 2023): one group per logical axis, split into
                    factors, leftmost most significant:
                        n:s        memory factor, extent n, element stride s
                        n_LEVEL    spread over hardware level LEVEL (a letter,
                        n_LEVEL:s  then letters, digits or '_'), unit stride s
                    "(12:8, 8:1)" may drop the axis parentheses; a prefix
                    "(10,7)/(...)" gives the unpadded shape (the rest is
                    padding); "; B@[PE]" broadcasts over all units of PE,
                    "; B@[8_L2B:1]" over 8 units of L2B (a counted broadcast).
                    Model: write each axis index in the mixed radix of its
                    factors; address = sum over memory factors of digit *
                    stride, unit at level L = sum over L's factors (and its
                    counted broadcast copies) of digit * stride. E.g.
                    ((3:8, 4_PE), (8:1)), element (7,5): 7 = 1*4 + 3, so PE 3,
                    address 1*8 + 5 = 13. A level used once defaults to
                    stride 1, one used twice needs strides; memory strides
                    are all given or all omitted (then compact row-major in
                    text order). The position of an index is its row-major
                    rank in the padded shape.
       API.         dnnmem_layout_parse(text, len, &layout, &err_pos)
                    dnnmem_layout_finish(&layout, &error)  built in code:
                                       error.index the factor at fault
                    dnnmem_layout_machine_parse("L2B=16,PE=4", len, &m, &pos)
                    dnnmem_layout_bind(&layout, &m, &error)  (its byte in
                                       the text: factors[index].position)
                    dnnmem_layout_print(&layout, buf, cap, &len)
                    dnnmem_layout_equal(&a, &b); dnnmem_layout_level_index
                    dnnmem_layout_position / dnnmem_layout_index
                    dnnmem_layout_forward(&layout, index, units, &addr, &pad)
                    dnnmem_layout_forward_range(&layout, first, n, units, addrs)
                    dnnmem_layout_replica_offset(&layout, copy, offsets)
                    dnnmem_layout_inverse(&layout, units, addr, index, &slot)
                    dnnmem_layout_inverse_batch(&layout, n, units, addrs,
                                                positions, slots)
                    dnnmem_layout_measure(&layout, &result)
                    dnnmem_layout_runs(&layout, units, runs, cap, &count)
                    dnnmem_layout_convert[_scratch_size](&from, &to, &conv,
                                                         scratch, bytes)
                    dnnmem_layout_part(&layout, level, &strided)
                    dnnmem_layout_strided_check / _size / _eval
                    dnnmem_layout_coalesce(&in, &out), _compose(&a, &b, &out),
                    _complement(&a, cosize, &out), _right_inverse(&a, &out),
                    _reshape_view(&in, rank, shape, &out)
                    Slots are DNNMEM_LAYOUT_SLOT_ELEMENT, _PAD or _UNUSED (a
                    hole, or a unit holding no copy); a level broadcast to
                    all units reads DNNMEM_LAYOUT_ALL in the forward map
                    (copy 0; replica_offset gives the others). Binding to a
                    machine orders the levels as the machine's, checks every
                    unit coordinate fits, adds the machine levels the layout
                    does not name as implicit broadcasts and gives B@[PE] its
                    count; measure needs it when B@[LEVEL] is used.
                    Strided layouts (dnnmem_layout_strided: the memory part
                    of a layout, or any shape:stride list) use CuTe's algebra
                    (Cecka, CuTe in NVIDIA CUTLASS 3, 2023) written row-major
                    (the last mode fastest; CuTe's convention is the mirror):
                      coalesce(L)       same function on [0, size), fewest modes
                      compose(A, B)     R(x) = A(B(x)) on [0, size(B)); needs
                                        B's image in [0, size(A)), B's modes on
                                        disjoint digit ranges of A, each stride
                                        of B dividing or divided by A's modes
                      complement(A, M)  R, strides decreasing, with (R, A)
                                        a bijection onto [0, size) >= [0, M);
                                        needs A's sorted strides each a
                                        positive multiple of the previous
                                        extent*stride (the first: of 1)
                      right_inverse(A)  R with A(R(x)) = x on [0, size(R)): the
                                        chain of modes with strides 1, n1,
                                        n1*n2, ... (all of A when A is a
                                        bijection onto [0, size))
                      reshape_view(L, shape)  strides keeping the row-major
                                        element order (NumPy's no-copy reshape
                                        rule), else DNNMEM_ERR_LAYOUT_NEEDS_COPY
                    compose and complement answer
                    DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE when their conditions
                    fail (a strided result may still exist in odd cases).
       Example.     Where element (7, 5) lives: the tour's part 6 (lay, a
                    12x8 tensor: row r on PE r % 4 from address r / 4 * 8).
                    Sizes on a machine of 4 PEs, and converting to the
                    layout with the PE factor first:
                        dnnmem_layout lay, other;  dnnmem_layout_machine pe4;
                        dnnmem_layout_result sizes;  dnnmem_layout_conversion conv;
                        int64_t err;          (the byte of a parse error)
                        dnnmem_error fault;   (bind: the factor at fault)
                        dnnmem_layout_parse("((3:8, 4_PE), (8:1))", 20, &lay, &err);
                        dnnmem_layout_machine_parse("PE=4", 4, &pe4, &err);
                        dnnmem_layout_bind(&lay, &pe4, &fault);
                        dnnmem_layout_measure(&lay, &sizes);
                        (sizes.units == 4, sizes.cosize == 24 addresses per
                        PE, sizes.unused_slots == 0)
                        dnnmem_layout_parse("((4_PE, 3:8), (8:1))", 20, &other, &err);
                        dnnmem_layout_bind(&other, &pe4, &fault);
                        dnnmem_layout_convert_scratch_size(&lay, &other, &bytes);
                        dnnmem_layout_convert(&lay, &other, &conv, scratch, bytes);
                        (of conv.copies == 96, conv.kept == 16 stay, 16 move
                        within their PE (local), 64 change PE (moved), in
                        conv.runs == 10 DMA runs)
                    An index's position (its row-major rank) and back:
                        int64_t at[2] = {7, 5}, pos;
                        dnnmem_layout_position(&lay, at, &pos);   (pos == 61)
                        dnnmem_layout_index(&lay, 61, at);        (at {7, 5})
                    Positions [6, 10) at once: row 0 ends on PE 0, row 1
                    starts on PE 1 (units[e * num_levels + l], addrs[e]):
                        int64_t units[4], addrs[4];
                        dnnmem_layout_forward_range(&lay, 6, 4, units, addrs);
                        (units {0, 0, 1, 1}, addrs {6, 7, 0, 1})
                    What a slot (units, address) holds, the inverse map:
                        int64_t pe3[1] = {3};  dnnmem_layout_slot slot;
                        dnnmem_layout_inverse(&lay, pe3, 13, at, &slot);
                        (slot == DNNMEM_LAYOUT_SLOT_ELEMENT, at {7, 5};
                        address 24, past PE 3's 24: DNNMEM_LAYOUT_SLOT_UNUSED)
                    Many slots, of pad: lay with rows 10 and 11 padding
                    (held: the position, -1 when unused; what: the slot):
                        dnnmem_layout_parse("(10,8)/((3:8, 4_PE), (8:1))", 27,
                                            &pad, &err);
                        int64_t pes[3] = {3, 3, 0}, addresses[3] = {13, 21, 24};
                        int64_t held[3];  uint8_t what[3];
                        dnnmem_layout_inverse_batch(&pad, 3, pes, addresses,
                                                    held, what);
                        (held {61, 93, -1}, what {SLOT_ELEMENT, _PAD, _UNUSED})
                    PE 3's DMA runs (rows 3, 7, 11: 8 elements each at
                    consecutive addresses); capacity 0 counts them:
                        dnnmem_layout_run runs[3];  int32_t count;
                        dnnmem_layout_runs(&lay, pe3, NULL, 0, &count);
                        (DNNMEM_ERR_OUTPUT_TOO_SMALL, count == 3)
                        dnnmem_layout_runs(&lay, pe3, runs, 3, &count);
                        (runs {24, 0, 8}, {56, 8, 8}, {88, 16, 8}: element,
                        address, length)
                    Copies: B@[MAB] puts the tensor on each of 2 MABs.
                    Bound, the levels follow the machine's order; forward
                    gives copy 0 (DNNMEM_LAYOUT_ALL: every MAB), replica_offset
                    where copy 1 sits relative to it:
                        dnnmem_layout_parse("((3:8, 4_PE), (8:1); B@[MAB])", 29,
                                            &rep, &err);
                        dnnmem_layout_machine_parse("MAB=2,PE=4", 10, &mab2,
                                                    &err);
                        dnnmem_layout_bind(&rep, &mab2, &fault);  (2 replicas)
                        dnnmem_layout_level_index(&rep, "PE");    (1; "L2B": -1)
                        dnnmem_layout_forward(&rep, at, units, &address, NULL);
                        (units {DNNMEM_LAYOUT_ALL, 3}, address == 13)
                        dnnmem_layout_replica_offset(&rep, 1, offsets);
                        (int64_t offsets[2] {1, 0}: copy 1 on MAB 1, PE 3)
                    Built in code (factors by axis, outer first; strides
                    DNNMEM_LAYOUT_AUTO: compact row-major), printed, and
                    compared with a layout writing the rows as 2 x 2:
                        dnnmem_layout built = {.num_axes = 2, .num_factors = 2,
                                               .axis_first = {0, 1, 2}};
                        dnnmem_layout_factor *f = built.factors;
                        f[0].extent = 4;  f[1].extent = 8;
                        f[0].level = f[1].level = DNNMEM_LAYOUT_MEMORY;
                        f[0].stride = f[1].stride = DNNMEM_LAYOUT_AUTO;
                        dnnmem_layout_finish(&built, &fault);   (cosize 32)
                        dnnmem_layout_print(&built, text, 64, &length);
                        (char text[64]: "((4:8), (8:1))", length == 14)
                        dnnmem_layout_parse("((2:16, 2:8), 8:1)", 18, &split,
                                            &err);
                        dnnmem_layout_equal(&built, &split);
                        (1; of built and "(4:1, 8:4)", its transpose: 0)
                    finish refuses rows 4 apart that are 8 long, naming the
                    factor (the derived fields stay as they were):
                        f[0].stride = 4;
                        dnnmem_layout_finish(&built, &fault);
                        (DNNMEM_ERR_LAYOUT_COLLISION, fault.index == 0, the
                        factor, fault.field == DNNMEM_FIELD_STRIDE)
                    The memory part as a strided layout, for the algebra (a
                    level index gives the unit part):
                        dnnmem_layout_strided mem;
                        dnnmem_layout_part(&lay, DNNMEM_LAYOUT_MEMORY, &mem);
                        (mem (3:8, 8:1): rank 2, shape {3, 8}, stride {8, 1};
                        of level 0, PE: (4:1))
                    A strided layout by hand: cm, a 4x8 tensor stored
                    column-major (element (i, j) at i + 4 j):
                        dnnmem_layout_strided cm = {2, {4, 8}, {1, 4}}, r;
                        dnnmem_layout_strided_check(&cm, &fault);
                        (DNNMEM_OK; shape {4, 0}: DNNMEM_ERR_LAYOUT_EXTENT,
                        fault.index == 1, the mode, field EXTENT)
                        dnnmem_layout_strided_size(&cm);      (32)
                        dnnmem_layout_strided_eval(&cm, 13);
                        (21: position 13 is (1, 5), at 1 + 4 * 5)
                    The algebra, each result in r: a row-major 4x8 with a
                    shape-1 mode coalesces to one mode; cm composed with
                    the left 4x4 tile (its positions) gives its addresses:
                        dnnmem_layout_strided rm1 = {3, {4, 1, 8}, {8, 5, 1}};
                        dnnmem_layout_coalesce(&rm1, &r);     (r (32:1))
                        dnnmem_layout_strided tile = {2, {4, 4}, {8, 1}};
                        dnnmem_layout_compose(&cm, &tile, &r);  (r (4:1, 4:4))
                        (tile (4:3), every third position, lands on addresses
                        0, 12, 24, 5: DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE)
                    Where the 2x4 tiles of a row-major 4x8 start (the
                    complement), and cm's address -> position map:
                        dnnmem_layout_strided tile24 = {2, {2, 4}, {8, 1}};
                        dnnmem_layout_complement(&tile24, 32, &r);
                        (r (2:16, 2:4))
                        dnnmem_layout_right_inverse(&cm, &r);
                        (r (8:1, 4:8): cm(r(x)) == x for x in [0, 32))
                    Splitting cm's rows in halves is a view; flattening a
                    column-major tensor needs a copy (as in NumPy):
                        int64_t halves[3] = {4, 2, 4}, flat[1] = {32};
                        dnnmem_layout_reshape_view(&cm, 3, halves, &r);
                        (r (4:1, 2:16, 4:4))
                        dnnmem_layout_reshape_view(&cm, 1, flat, &r);
                        (DNNMEM_ERR_LAYOUT_NEEDS_COPY)
       Result.      dnnmem_layout (parse, finish, bind): the layout itself;
                    dnnmem_layout_result (measure): size, padded_size,
                    cosize, units, replicas, slots, padding_slots,
                    capacity, unused_slots, and per level its extent,
                    parts and share; dnnmem_layout_conversion (convert):
                    elements, copies, kept, local, moved, runs;
                    dnnmem_layout_run (runs): element, address, length.
       Errors.      parse and machine_parse return the byte position of
                    the offending text in *err_pos (may be NULL); finish
                    and bind name the factor in a dnnmem_error (index:
                    the factor, field EXTENT, STRIDE, LEVEL or LIMIT; its
                    byte: factors[index].position), strided_check the
                    mode: DNNMEM_ERR_PARSE, DNNMEM_ERR_LAYOUT_LIMIT,
                    _EXTENT, _STRIDE, _COLLISION, _PADDING, _UNKNOWN_LEVEL,
                    _MACHINE_EXTENT, _LEVEL_CONFLICT; queries
                    DNNMEM_ERR_LAYOUT_INDEX (outside the shape),
                    DNNMEM_ERR_LAYOUT_NEEDS_MACHINE (B@[LEVEL] unbound),
                    DNNMEM_ERR_OUTPUT_TOO_SMALL (print, runs),
                    DNNMEM_ERR_INVALID_ARGUMENT (convert: other shapes or
                    levels), DNNMEM_ERR_OVERFLOW; the algebra
                    DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE, _NEEDS_COPY, and on
                    a bad input strided_check's codes (reshape_view: a
                    shape of another size, DNNMEM_ERR_INVALID_ARGUMENT).
       Algorithm.   Parsing is one recursive-descent pass. finish validates,
                    resolves strides, and for the memory and each level (a
                    "space") sorts the factors of extent > 1 by stride and
                    requires them to NEST: each stride exceeds the largest
                    offset the smaller-stride factors reach. Nesting makes
                    the map injective (no two (element, copy) pairs share a
                    slot) and the inverse a greedy division per space (a
                    shift for power-of-two strides). Layouts injective only
                    by number theory (2:3 with 3:2 in one space) are rejected
                    like collisions. The batch forward map is an odometer
                    over the factors of extent > 1. Equality compares a normal
                    form (extent-1 factors dropped, adjacent factors of one
                    space merged when outer stride = inner extent * inner
                    stride, broadcasts as sorted merged sets), unique under
                    nesting. runs walks the memory digits of one unit. The
                    algebra works on coalesced modes in O(rank) passes.
       Complexity.  parse O(length + factors^2); finish, bind, equal
                    O(factors^2); forward, inverse, replica_offset
                    O(factors); forward_range amortised O(1) per element
                    plus the writes; inverse_batch O(factors) per slot; runs
                    O(positions the unit holds * axes); convert O(target
                    capacity * factors); algebra O(rank^2).
       Guarantees.  Exact integer arithmetic; every sum that could overflow
                    is checked (DNNMEM_ERR_OVERFLOW). Errors of parse, finish
                    and bind carry the byte position of the offending factor;
                    bind and finish leave the layout unchanged on error.
                    Every layout finish accepts prints to text that parses
                    back to a dnnmem_layout_equal layout (bound to the same
                    machine when it is bound): finish accepts only level
                    names the notation writes (DNNMEM_ERR_PARSE, or
                    DNNMEM_ERR_LAYOUT_LIMIT past 15 bytes), rejects a level
                    no factor uses, and DNNMEM_LAYOUT_IMPLICIT factors
                    outside a bound layout. A short print buffer or run list
                    gives DNNMEM_ERR_OUTPUT_TOO_SMALL with the needed length
                    or count (and a NUL-terminated prefix, or the first runs).
                    Compare layouts bound to the same machine (or both
                    unbound): B@[PE] equals "PE unused" only once a machine
                    says PE exists. Every algebra result given satisfies its
                    defining equation.
                    Conversions: every copy the target holds is kept,
                    local (its unit holds the element elsewhere) or moved
                    (another unit), read from the source's copy 0; a unit's
                    runs (element and address stepping by one) split at
                    kept copies and at a change of source unit or a
                    non-consecutive source address: DMA descriptors. The
                    layout plan (dnnmem layoutplan) prices a conversion
                    from these counts.
       Scratch.     None (every operation works in bounded stack space)
                    but dnnmem_layout_convert: the target's cosize runs.
                    dnnmem_layout is a fixed-size struct (about 3 KB) in
                    caller memory, copyable with memcpy, with at most
                    DNNMEM_LAYOUT_MAX_AXES axes, DNNMEM_LAYOUT_MAX_FACTORS
                    factors (data, broadcast and implicit), and
                    DNNMEM_LAYOUT_MAX_LEVELS levels of names up to 15 bytes;
                    printed text is shorter than DNNMEM_LAYOUT_TEXT_MAX.


   ==== 7. MAX FLOW AND MIN CUT (dnnmem_flow_*)
       Problem. A directed network with int64_t arc capacities, a source
       and a sink: a maximum flow, the net flow on every arc, and a minimum
       cut (the nodes on its source side). The network is the problem:
       built in caller memory, arcs added in pairs (u->v with capacity,
       v->u with reverse_capacity); parallel arcs and self-loops allowed.

       API.
         dnnmem_flow_scratch_size(num_nodes, max_arcs, &bytes)
         dnnmem_flow_init(&flow, num_nodes, max_arcs, scratch, bytes)
         dnnmem_flow_add_arc(&flow, from, to, capacity, reverse, &arc)
         dnnmem_flow_solve(&flow, source, sink, options, &result)
           options.algo: DNNMEM_FLOW_BK (default, "bk"),
           DNNMEM_FLOW_PUSH_RELABEL ("pr"); options.cut_only: nonzero
           when only the value and the cut are wanted (BK then leaves
           the arcs touching a terminal out of its adjacency, one
           capacity per node instead, minimises out every node with at
           most two neighbours first (exactly: chains and
           series-parallel parts, often a whole placement network), and
           writes no flows back; dnnmem_flow_arc_flow answers 0; the same
           cut); result.value.
         dnnmem_flow_arc_flow(&flow, arc), dnnmem_flow_source_side(&flow, v),
         dnnmem_flow_arc(&flow, arc, &from, &to, &cap, &reverse)
         dnnmem_flow_algo_name / dnnmem_flow_algo_parse

       Example (the tour's network, part 7: arcs 0->1 (3), 0->2 (2),
       1->2 (1), 1->3 (2), 2->3 (3); a is the first arc's id):
           dnnmem_flow_add_arc(&f, 0, 1, 3, 0, &a);   ... the other four ...
           dnnmem_flow_solve(&f, 0, 3, NULL, &res);
           (res.value == 5, dnnmem_flow_arc_flow(&f, a) == 3;
           dnnmem_flow_source_side(&f, 0) == 1, of node 1: 0: the arcs
           out of the source are the minimum cut)
           dnnmem_flow_arc(&f, a, &from, &to, &cap, &reverse);
           (from 0, to 1, cap 3, reverse 0: the arc as added, to export
           the network; arc 5: DNNMEM_ERR_ID_RANGE)

       Result. value (the maximum flow); per arc dnnmem_flow_arc_flow (net
       flow, negative when it runs backwards), per node
       dnnmem_flow_source_side (1: on the source side of the minimum cut).

       Errors. The solve's res.error names the terminal (SOURCE, SINK) or
       the arc whose capacity passes int64_t (CAPACITY); add_arc's errors
       are about its own arguments. DNNMEM_ERR_ID_RANGE (a node, terminal
       or arc id),
       DNNMEM_ERR_NEGATIVE (a capacity), DNNMEM_ERR_FLOW_FULL (more arcs
       than max_arcs), DNNMEM_ERR_OVERFLOW (the source's capacities, or
       capacity + reverse of an arc, past int64_t),
       DNNMEM_ERR_INVALID_ARGUMENT (source == sink, an algo out of range),
       DNNMEM_ERR_SCRATCH_TOO_SMALL (init).

       Algorithm. BK: Boykov and Kolmogorov, "An experimental comparison
       of min-cut/max-flow algorithms for energy minimization in vision",
       IEEE TPAMI 2004: two search trees grown from the terminals,
       augmentation, adoption of orphans, with the time-stamp/distance
       heuristic for parents; arcs touching a terminal become one terminal
       capacity per node. Push-relabel: Goldberg and Tarjan, "A new
       approach to the maximum-flow problem", JACM 1988, highest label
       first with global relabelling and the gap heuristic (Cherkassky and
       Goldberg, "On implementing the push-relabel method for the maximum
       flow problem", Algorithmica 1997), then a second phase returns the
       excess of the maximum preflow. Each solve first groups half-arcs by
       tail (CSR), merging parallel and opposite arcs, and when it merged
       any, afterwards splits the flow back per arc. A cut-only BK solve
       instead drops self-loops, keeps parallel arcs apart, and first
       minimises out, one at a time, every node with at most two
       neighbours (its cheaper side for each choice of theirs: terminal
       capacities on them, a constant and one arc between the two; a
       binary submodular cost minimised over one node stays one), so
       chains, trees and series-parallel parts never reach BK; each such
       node's side follows from its neighbours' after the cut, ties to the
       sink side, which gives the same minimal cut.

       Complexity. BK O(m n^2 |C|) worst case, near-linear on DAG-like and
       grid networks in practice; push-relabel O(n^2 sqrt(m)); both O(n +
       m) memory. The cut-only reduction: O(1) per node it removes, plus
       scans of the arc lists of nodes whose neighbours it removed.

       Guarantees. An exact maximum flow. The cut is the set reachable
       from the source in the residual network (the minimal minimum cut),
       the same for both algorithms. The capacities leaving the source must
       sum within int64_t (DNNMEM_ERR_OVERFLOW otherwise), which bounds
       every flow; capacity + reverse_capacity of an arc too. Solve may be
       called again (other algorithm or terminals): it restarts from the
       capacities. DNNMEM_ERR_FLOW_FULL past max_arcs.

       Scratch. dnnmem_flow_scratch_size, at most
       DNNMEM_FLOW_SCRATCH_BYTES(n, m) = 88 n + 68 m + 512 bytes; it must
       stay valid while the network is used.


   ==== 8. PLACEMENT (dnnmem_place_*)
       Problem. Run each op of a DAG on the CPU or on the accelerator so
       that the total time is least. Per op: cpu_time, acc_time
       (DNNMEM_PLACE_UNSUPPORTED: cannot run there), a pin
       (DNNMEM_PLACE_CPU / _ACC) or DNNMEM_PLACE_ANY, and xfer, the time to
       convert its output between the two formats. Total time = the chosen
       device's time of every op + xfer of a value once if some consumer
       is on the other device, or it is a graph output left on the
       accelerator (outputs end on the CPU). Model DNNMEM_PLACE_PER_EDGE
       charges xfer per consumer on the other device instead, as the
       onnx-mlir proposal's cost graph does. Times are integers (the tool
       uses nanoseconds) so the optimum is exact.

       API.
         dnnmem_place_solve_scratch_size(problem, options, &bytes)
         dnnmem_place_solve(problem, options, device, &result, scratch, bytes)
           options.model: PER_VALUE (default), PER_EDGE; options.algo: the
           max-flow algorithm (part 7). result: time, the baselines
           all_acc_time, greedy_time, all_cpu_time, cut, conversions,
           counts per device, parts, network size.
         dnnmem_place_network[_scratch_size](problem, options, &flow,
                                             &result, scratch, bytes)
                                             (.time: the constant)
         dnnmem_place_cost[_scratch_size](problem, options, device, &result,
                                          scratch, bytes)  (.time, .conversions)
         dnnmem_place_model_name / dnnmem_place_model_parse

       Example: the tour's part 8 (the chain 0 -> 1 -> 2; node 0 a graph
       input on the CPU only, 1 and 2 ten times faster on the accelerator,
       xfer 5 each: device {CPU, ACC, ACC}, res.time == 25, value 0
       converted once); examples/engine.c (an op the accelerator cannot
       run in the middle: 3300 ns against 3800 for onnx-mlir's default).
       The price of any assignment (yours, or a baseline's), the same p:
           uint8_t cpu[3] = {DNNMEM_PLACE_CPU, DNNMEM_PLACE_CPU, DNNMEM_PLACE_CPU};
           dnnmem_place_cost_scratch_size(&p, NULL, &bytes);
           dnnmem_place_cost(&p, NULL, cpu, &res, scratch, bytes);
           (res.time == 200; cpu[0] = DNNMEM_PLACE_ACC: DNNMEM_ERR_INFEASIBLE,
           res.error.index == 0, node 0 runs on the CPU only)
       The network the solve cuts, to cut it with a max-flow solver of
       your own (export it with dnnmem_flow_arc), the same p:
           dnnmem_flow f;  dnnmem_flow_result cut;
           dnnmem_place_network_scratch_size(&p, NULL, &bytes);
           dnnmem_place_network(&p, NULL, &f, &res, scratch, bytes);
           (res.time == 25, the constant: op 1's cheaper side 10 + 5, op
           2's 10; res.flow_nodes == 4: CPU, accelerator, ops 1 and 2;
           res.flow_arcs == 3: 1 -> acc 85, 2 -> acc 90, 1 <-> 2 xfer 5)
           dnnmem_flow_solve(&f, 0, 1, NULL, &cut);
           (cut.value == 0: the optimum is 25 + 0; network nodes 2 and 3
           on the sink side: both ops on the accelerator)
       A constraint of your own is a pin in p.device, not an arc: device
       {ANY, ANY, CPU} gives device {CPU, ACC, CPU}, res.time == 120.

       Result. time (the optimum), the baselines all_acc_time (every op
       the accelerator supports on it), greedy_time (each op on its faster
       device), all_cpu_time; cut (the min cut's value), conversions,
       num_cpu, num_acc, num_free, num_parts, flow_nodes, flow_arcs,
       error.

       Errors. res.error names the node (TIME, SIZE for xfer, PIN, INPUT;
       a cycle: a node on it; place_cost: the node on a wrong device).
       DNNMEM_ERR_NEGATIVE (a time or xfer below 0 other than
       UNSUPPORTED), DNNMEM_ERR_PLACE_UNSUPPORTED (an op pinned where it
       cannot run, or supported nowhere), DNNMEM_ERR_CYCLE,
       DNNMEM_ERR_ID_RANGE / _INVALID_ARGUMENT (a bad graph or device
       code), DNNMEM_ERR_OVERFLOW (the sum of all finite times plus twice
       the xfers past int64_t), DNNMEM_ERR_SCRATCH_TOO_SMALL.

       Algorithm. An s-t minimum cut, source = CPU, sink = accelerator
       (Stone, "Multiprocessor scheduling with the aid of network flow
       algorithms", IEEE TSE 1977; applied to DNN graphs in onnx-mlir by
       Negishi, Imai, Le, Kawachiya, IBM Research Tokyo, "Code
       optimization for AI chips in a deep-learning model compiler", in
       Japanese). Pinned ops, and ops only one device
       supports, are merged into the terminals, which splits the graph into
       independent parts. Each free op gets one terminal arc with the
       difference of its two costs; a value with one free consumer becomes
       an arc pair; a value with several gets one auxiliary node per
       direction (u -> a with xfer, a -> c unbounded for each consumer c),
       which charges it once however many consumers are across. Every cut
       is an assignment with total = constant + cut, so the minimum cut is
       the optimum. Baselines by the same cost function: every op the
       accelerator supports on it (onnx-mlir's default), each op on its
       faster device, every op on the CPU where possible.

       Complexity. One max flow on at most 3V + 2 nodes and 3V + 2E arcs;
       the cost O(V + E).

       Guarantees. The optimum under the model, exactly; dnnmem_place_cost
       recounts any assignment.

       Scratch. dnnmem_place_solve_scratch_size (the network's is the
       same), at most DNNMEM_PLACE_SCRATCH_BYTES(V, E) = 528 V + 304 E +
       2048 bytes; the cost 4 bytes per op.

   ==== 9. LABELING (dnnmem_label_*)
       Problem. Give every node v of a graph one of k labels (devices, data
       layouts) so that the total cost is least: node_cost[v * k + l] for
       node v on label l (DNNMEM_LABEL_UNSUPPORTED: not allowed), pins
       (pin[v]: the label v must take) and, for every value u, a conversion
       from its label a to each other label b that a consumer of u (or its
       output_label) has: once per (value, destination label), however many
       consumers read it there; reading it where it was made is free. The
       conversion is a general per-value k x k matrix (convert[(u * k + a) *
       k + b]) or size[u] * rate[a * k + b] + latency[a * k + b]. Placement
       over k devices and the layout choice per op are such problems; part
       8's CPU/accelerator placement is k = 2. Costs are int64_t (the tool
       uses nanoseconds), so the answers are exact. The graph may have
       cycles and self-loops (the cost does not need an order).

       API.
         dnnmem_label_solve_scratch_size(problem, options, &bytes)
         dnnmem_label_solve(problem, options, label, &result, scratch, bytes)
           options: algo (auto, exact, expansion), flow (the max-flow
           algorithm), node_limit, max_cycles, stop / stop_user,
           max_sweeps. result: cost, lower_bound, gap, optimal, algo, stop
           (none, proved, nodes, time), nodes, moves, improving_moves,
           cycles, approximated, num_free, initial_cost, flow_nodes,
           flow_arcs, sweeps, merged_bound, dual_bound.
         dnnmem_label_lower_bound[_scratch_size](problem, options, &result, ...)
         dnnmem_label_cost[_scratch_size](problem, label, &result, ...)
                            (result.lower_bound, result.cost)
         dnnmem_label_network[_scratch_size](problem, options, labels, alpha,
                                             &flow, node, &net, ...)
         dnnmem_label_algo_name / _parse, dnnmem_label_stop_name / _parse

       Example (the tour's chain 0 -> 1 -> 2 over cpu, gpu, npu; 0 runs on
       the cpu only, 2 not on the npu; a conversion costs 4 x 1 + 5):
           int64_t U = DNNMEM_LABEL_UNSUPPORTED;
           int64_t cost[3 * 3] = {0, U, U,  100, 20, 10,  100, 20, U};
           int64_t sizes[3] = {4, 4, 4}, rate[3 * 3] = {0, 1, 1, 1, 0, 1, 1, 1, 0},
                   latency[3 * 3] = {0, 5, 5, 5, 0, 5, 5, 5, 0};
           dnnmem_label_problem p = {&g, 3, cost, NULL, sizes, rate, latency,
                                     NULL, NULL};
           dnnmem_label_solve_scratch_size(&p, NULL, &bytes);
           dnnmem_label_solve(&p, NULL, label, &res, scratch, bytes);
           (label {0, 2, 1}: cpu, npu, gpu; res.cost == 0 + 10 + 9 + 20 + 9
           == 48 == res.lower_bound, res.gap == 0, res.optimal == 1)
       The cost of any labeling, the same p:
           int32_t all_cpu[3] = {0, 0, 0};
           dnnmem_label_cost_scratch_size(&p, &bytes);
           dnnmem_label_cost(&p, all_cpu, &res, scratch, bytes);
           (res.cost == 200; label {0, 2, 2}: an error, res.error.index
           == 2, node 2 cannot run on the npu)
       The bound alone, and one expansion move from all on the cpu
       (alpha = 2, the npu; each asks its scratch the same way):
           dnnmem_label_lower_bound(&p, NULL, &res, scratch, bytes);
           (res.lower_bound == 48, the solve's; res.cost 0)
           int32_t node[3];  dnnmem_flow f;  dnnmem_label_network_result net;
           dnnmem_label_network(&p, NULL, all_cpu, 2, &f, node, &net,
                                scratch, bytes);
           (node {0, 2, 0}: only op 1 may move; net.constant == 128 =
           op 0's 0 + op 2's 100 + op 1's cheaper side, 10 + 9 + 9 on the
           npu; net.approximated == 0; dnnmem_flow_solve(&f, 0, 1, NULL,
           &cut): cut.value == 0, node 2 on the sink side: op 1 moves, the
           labeling {0, 2, 0} costs 128 < 200; alpha 3: DNNMEM_ERR_ID_RANGE)

       Errors. res.error names the node (COST, PIN, OUTPUT, INPUT; label_cost:
       the node on a bad label). DNNMEM_ERR_NEGATIVE, DNNMEM_ERR_ID_RANGE,
       DNNMEM_ERR_LABEL_NONE_ALLOWED (a node with no allowed label),
       DNNMEM_ERR_OVERFLOW (every node's largest finite cost plus (k - 1)
       times its largest conversion must sum within int64_t),
       DNNMEM_ERR_INVALID_ARGUMENT, DNNMEM_ERR_TOO_MANY,
       DNNMEM_ERR_SCRATCH_TOO_SMALL.

       Algorithm. k <= 2: every node on label 0 where allowed, then one
       move to label 1 is the whole problem, an s-t minimum cut (Stone
       1977; part 8's construction): a value with several movable
       consumers gets an auxiliary node per direction, which charges its
       conversion once. k > 2: alpha-expansion (Boykov, Veksler and Zabih,
       "Fast approximate energy minimization via graph cuts", IEEE TPAMI
       2001) from the best labeling so far (at first every node on its
       cheapest label; then the dual's, when better): each move lets every
       node keep its label or take alpha, solved as one min cut on part
       7's engine; moves cycle over the labels until k in a row gain
       nothing (or max_cycles). The move's cost per value u (label a, or
       alpha when u moves): certain destinations (fixed consumers, the
       output) are unary costs of u; the movable consumers sharing a label
       b form a group "some member stays on b" (the member itself, or an
       auxiliary node that every member feeds with an unbounded arc), which
       pays keep = conv(a, b) while u stays and moved = conv(alpha, b) when u
       moves; "some movable consumer moves to alpha" (likewise) pays
       conv(a, alpha) while u stays. The term is graph-representable
       (submodular: Kolmogorov and Zabih, "What energy functions can be
       minimized via graph cuts?", IEEE TPAMI 2004) when moved >= keep:
       keep * Z + (moved - keep) * [u moves] * Z. When moved < keep it is
       not; it is replaced by moved * Z + (keep - moved) * [u stays], an
       upper bound equal to it at the current labeling (result.approximated
       counts them), so no move makes the true cost worse; every move's
       result is recounted exactly and taken only when it is cheaper.
       Uniform conversions (one cost per value for every pair) and k = 2
       never approximate.
       k > 2 runs in this order, each step only while a gap remains: the
       dual bound (below), which also reads a labeling off itself after
       every pass; alpha-expansion from the best labeling so far; the
       merged bound; branch and bound.
       Dual bound (a Lagrangian relaxation; its optimum is the LP
       relaxation over the local polytope of the once-per-value model).
       The cost is a sum of node terms theta_v(x_v) and one factor per
       value u over u and its distinct consumers C(u): F_u = sum of
       conv_u(x_u, b) over the labels b != x_u among the consumers' and
       the output label. Give each node a copy per factor it is in and
       relax "the copies agree" with multipliers m_{u,v}(l): for every
       labeling x, E(x) = sum_v [theta_v(x_v) + sum_u m_{u,v}(x_v)] + sum_u
       [F_u(x) - sum_v m_{u,v}(x_v)], so the sum of each bracket's own
       minimum is <= E(x) for every x: a valid bound for any multipliers
       (proof: each bracket at x is at least its minimum; sum). A factor's
       minimum is exact over its label sets T (x_u and the output in T):
       conversions sum_{b in T, b != x_u} conv(x_u, b) plus each consumer
       at its cheapest label of T; a T larger than the labels used costs
       no less (conversions >= 0), so the least over T is the least over
       labelings. A factor spanning more than DNNMEM_LABEL_FACTOR_BITS
       (10) labels is replaced by one that never exceeds it (each consumer
       pays conv(x_u, x_c) / |C(u)|, a label read by n_b <= |C(u)|
       consumers n_b / |C(u)| <= 1 times), still a bound. The multipliers
       are improved by block coordinate ascent (Globerson and Jaakkola's
       MPLP star update with the weights of sequential tree-reweighted
       passing, Kolmogorov's TRW-S, IEEE TPAMI 2006): factors in id order
       hand each factor's min-marginals to its consumers, then in reverse
       order to its value; no update lowers the bound, and on a graph
       where every value has at most one consumer (chains, in-trees) one
       forward pass is dynamic programming and the bound is the optimum.
       The passes run in floating point; the bound is evaluated in
       integers (multipliers rounded down to multiples of 1 / S, S a power
       of two up to 2^20 with the total cost times S within 2^58, every sum
       checked, a sum that would overflow gives no bound) and rounded up.
       Sweeps stop when the bound meets the answer, after three in a row
       each closing under 1% of the gap left (without an answer, as in
       dnnmem_label_lower_bound: gaining under 10^-5 of the bound), or at
       max_sweeps (DNNMEM_LABEL_DUAL_SWEEPS). The
       labeling read off after a forward pass: in reverse id order, each
       node's unary without its own factor's multiplier plus that factor
       exactly on its labelled consumers; after a backward pass, in id
       order, its cost plus its own factor's multiplier plus the
       conversions its labelled inputs newly pay.
       Merged bound: merging the labels into two sides (a node costs its
       cheapest label of a side, a conversion its cheapest pair across)
       maps every labeling to a two-label one that costs no more, so the
       two-label optimum, one min cut, is a lower bound; the best over
       every bipartition for k <= 6 (2^(k-1) - 1 cuts), over each label
       against the rest beyond, and at least the sum of every node's
       cheapest label. It ignores conversions between labels of the same
       side; the dual bound usually dominates it (make bench: every
       decomposed graph with three devices proven optimal by the dual
       alone). lower_bound is the larger. Exact: a depth-first branch and
       bound over the nodes with a choice, in id order, the expansion's
       label first, pruned by the partial cost (open nodes at their
       cheapest label, each value's conversions to the labels its assigned
       consumers have); algo exact runs it until proven or node_limit
       (default 10^6), auto when a gap remains and at most
       DNNMEM_LABEL_AUTO_EXACT_OPS (20) nodes have a choice.

       Complexity. One network: at most 2 + V + E nodes and 2V + 3E arcs,
       built in O(V + E + k) (O(k^2) per conversion for the bound's merged
       labels); a cycle k max flows; the merged bound 2^(k-1) - 1 (k <= 6)
       or k max flows; a dual sweep O(sum over values of k 2^L (d_u + L))
       with L <= DNNMEM_LABEL_FACTOR_BITS the labels a factor spans and
       d_u its consumers (O(k^2 d_u) relaxed), plus O((V + E) k) to
       evaluate and decode; the cost O(V + E + k). The branch and bound is
       exponential in the nodes with a choice, O(V + E + Vk) per node.

       Guarantees. Every labeling written is feasible and result.cost is
       recounted by dnnmem_label_cost's rule; lower_bound is proven (no
       labeling costs less), gap = cost - lower_bound, optimal when 0. k <=
       2, a finished branch and bound, or a bound that meets the answer:
       the optimum. Deterministic (ties: the lowest label).

       Scratch. dnnmem_label_solve_scratch_size (the bound's is the same,
       the network's a little less), at most DNNMEM_LABEL_SCRATCH_BYTES(V,
       E, k) = 320 V + 320 E + 64 k + 32 k (V + E) + 64 * 2^FACTOR_BITS +
       1024 bytes (one network, reused by every move, and the dual's
       multipliers: 8 k (2V + E) + V k); the cost 4 (V + E + k) bytes.

       Tool. place --devices A,B,.. (placement over k devices: time_<device>
       columns, --link costs) and layoutplan GRAPH --candidates F (an
       output TensorLayout per op: labels = F's named layouts of one tile,
       node costs = the op kind's factor times the graph's time, a value's
       conversion = its size in tiles times the tile's conversion priced
       by dnnmem_layout_convert from DMA runs and copies moved across and
       within units; a malformed line or layout in F exits 2 with
       F:LINE).



   HISTORY (one line per version; what changed, and why, is in the git log)
       0.10.0 a tour example per function; cuts by reduction; faster greedies
       0.9.0  exact backjumps on tilings; cut-only max flow; make mutate per case
       0.8.0  exact by tight cells (0.034x minimalloc); placement under 0.1.0's time
       0.7.0  errors name record and field; greedy-tflm; remat arena in budget
       0.6.1  exact minimising within ~1.25x of deciding; 32-bit tested
       0.6.0  pools with reuse and aliasing; exact at 0.09x minimalloc's time
       0.5.0  memory pools; in-place reuse; labeling bound; layout plan
       0.4.0  multi-pass, symbolic sizes; k-device labeling; remat curve
       0.3.0  exact planning that says why it stopped; fixes
       0.2.0  one API shape for every part (breaks 0.1)
       0.1.0  first release: plans, shared objects, covers, remat, layouts

   LICENSE
       MIT; see the end of the file.
*/

#ifndef DNNMEM_H_INCLUDED
#define DNNMEM_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define DNNMEM_VERSION_MAJOR 0
#define DNNMEM_VERSION_MINOR 10
#define DNNMEM_VERSION_PATCH 0
#define DNNMEM_VERSION_STRING "0.10.0"

#ifndef DNNMEM_DEF
#ifdef DNNMEM_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define DNNMEM_DEF static __attribute__((unused))
#else
#define DNNMEM_DEF static
#endif
#else
#define DNNMEM_DEF extern
#endif
#endif

/* Compile-time opt-outs: a part whose dependency is off drops out with it
   (covers, recompute and labeling need max flow; placement needs
   labeling); DNNMEM_ONLY_PLAN keeps parts 1-3 alone. */
#ifdef DNNMEM_ONLY_PLAN
#ifndef DNNMEM_NO_FLOW
#define DNNMEM_NO_FLOW
#endif
#ifndef DNNMEM_NO_LAYOUT
#define DNNMEM_NO_LAYOUT
#endif
#endif
#ifdef DNNMEM_NO_FLOW
#ifndef DNNMEM_NO_COVER
#define DNNMEM_NO_COVER
#endif
#ifndef DNNMEM_NO_REMAT
#define DNNMEM_NO_REMAT
#endif
#ifndef DNNMEM_NO_LABEL
#define DNNMEM_NO_LABEL
#endif
#endif
#if defined(DNNMEM_NO_LABEL) && !defined(DNNMEM_NO_PLACE)
#define DNNMEM_NO_PLACE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== 1. Common ========================================================== */

/* ---- results ---------------------------------------------------------- */

/* X(name, value, text): the one list every result code comes from. */
#define DNNMEM_RESULT_LIST(X) \
  X(DNNMEM_OK, 0, "ok") \
  /* 1. common: 0 .. -99 */ \
  X(DNNMEM_ERR_INVALID_ARGUMENT, -1, "invalid argument") \
  X(DNNMEM_ERR_SCRATCH_TOO_SMALL, -2, "scratch buffer too small") \
  X(DNNMEM_ERR_OUTPUT_TOO_SMALL, -3, "output array or buffer too small (the needed count is reported)") \
  X(DNNMEM_ERR_OVERFLOW, -4, "integer overflow") \
  X(DNNMEM_ERR_TOO_MANY, -5, "count exceeds the int32_t range") \
  X(DNNMEM_ERR_NEGATIVE, -6, "negative size, time, capacity or count") \
  X(DNNMEM_ERR_ID_RANGE, -7, "id out of range") \
  X(DNNMEM_ERR_PARSE, -8, "syntax error") \
  X(DNNMEM_ERR_INFEASIBLE, -9, "no solution satisfies the constraints") \
  X(DNNMEM_ERR_EMPTY_INTERVAL, -10, "interval with upper <= lower") \
  X(DNNMEM_ERR_ALIGNMENT, -11, "alignment is not a power of two") \
  X(DNNMEM_ERR_BAD_GAP, -12, "gap outside its lifetime, unsorted, window outside the buffer, or on a linked record") \
  X(DNNMEM_ERR_CYCLE, -13, "graph has a cycle") \
  X(DNNMEM_ERR_NOT_TOPOLOGICAL, -14, "graph is not numbered in topological order") \
  /* 2. plan: -200 .. -299 */ \
  X(DNNMEM_ERR_PLAN_FIXED_COLLISION, -200, "fixed offsets collide") \
  X(DNNMEM_ERR_PLAN_OVERLAP, -201, "two live buffers overlap in memory") \
  X(DNNMEM_ERR_PLAN_MISALIGNED, -202, "offset is not a multiple of its alignment") \
  X(DNNMEM_ERR_PLAN_FIXED_MISMATCH, -203, "plan moves a buffer with a fixed offset") \
  X(DNNMEM_ERR_PLAN_PASS_ORDER, -204, "a pass begins before an earlier pass (passes are planned in time order)") \
  X(DNNMEM_ERR_PLAN_SYMBOL_RANGE, -205, "symbol value outside its range [s_min, s_max], or s_max < s_min") \
  X(DNNMEM_ERR_PLAN_REUSE, -206, "reuse of a record that is still live after the step, begins no earlier, or is smaller") \
  X(DNNMEM_ERR_PLAN_ALIAS_OFFSET, -207, "aliased records at different offsets") \
  X(DNNMEM_ERR_PLAN_POOL_CAPACITY, -208, "a record fits none of the pools it may use (each capacity below it, or none listed)") \
  X(DNNMEM_ERR_PLAN_POOL_FORBIDDEN, -209, "a record is planned into a pool it may not use") \
  X(DNNMEM_ERR_PLAN_POOL_OVER_CAPACITY, -210, "a pool's arena exceeds its capacity") \
  /* 3. share: -300 .. */ \
  X(DNNMEM_ERR_SHARE_OVERLAP, -300, "two time-overlapping records share an object") \
  /* 5. remat: -500 .. */ \
  X(DNNMEM_ERR_REMAT_MISSING_NODE, -500, "sequence never computes some node") \
  X(DNNMEM_ERR_REMAT_INPUT_NOT_READY, -501, "sequence uses a value before computing it") \
  X(DNNMEM_ERR_REMAT_INPUT_REPEATED, -502, "sequence computes a graph input more than once") \
  X(DNNMEM_ERR_REMAT_STATE_LIMIT, -503, "exact group order exceeded its state limit") \
  /* 6. layout: -600 .. */ \
  X(DNNMEM_ERR_LAYOUT_LIMIT, -600, "layout exceeds the DNNMEM_LAYOUT_MAX_* limits or a name is too long") \
  X(DNNMEM_ERR_LAYOUT_EXTENT, -601, "layout extent must be at least 1") \
  X(DNNMEM_ERR_LAYOUT_STRIDE, -602, "missing or negative stride (a level used more than once needs a stride on every use)") \
  X(DNNMEM_ERR_LAYOUT_COLLISION, -603, "layout strides collide or interleave: two elements could share a slot") \
  X(DNNMEM_ERR_LAYOUT_PADDING, -604, "unpadded shape has the wrong rank or exceeds the layout's shape") \
  X(DNNMEM_ERR_LAYOUT_UNKNOWN_LEVEL, -605, "level not in the machine") \
  X(DNNMEM_ERR_LAYOUT_MACHINE_EXTENT, -606, "layout uses more units than the machine level has") \
  X(DNNMEM_ERR_LAYOUT_NEEDS_MACHINE, -607, "broadcast count unknown without a machine") \
  X(DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT, -608, "level named twice, or broadcast to all units of a level that also holds factors") \
  X(DNNMEM_ERR_LAYOUT_INDEX, -609, "index outside the layout's shape") \
  X(DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE, -610, "strided layouts not divisible: no strided result") \
  X(DNNMEM_ERR_LAYOUT_NEEDS_COPY, -611, "reshape is not a view: it needs a copy") \
  /* 7. flow: -700 .. */ \
  X(DNNMEM_ERR_FLOW_FULL, -700, "more arcs added than the flow network was sized for") \
  /* 8. place: -800 .. */ \
  X(DNNMEM_ERR_PLACE_UNSUPPORTED, -800, "op pinned to a device that cannot run it, or supported nowhere") \
  /* 9. label: -900 .. */ \
  X(DNNMEM_ERR_LABEL_NONE_ALLOWED, -900, "node with no allowed label (every cost unsupported, or pinned to an unsupported label)") \
  /* end of the result list */

typedef enum dnnmem_result {
#define DNNMEM__RESULT_ENUM(name, value, text) name = value,
  DNNMEM_RESULT_LIST(DNNMEM__RESULT_ENUM)
#undef DNNMEM__RESULT_ENUM
  DNNMEM__RESULT_MIN = -32767
} dnnmem_result;

DNNMEM_DEF const char *dnnmem_result_text(dnnmem_result result);
/* The sentence for a result code ("unknown result" for a value not in the
   list). Never NULL. */
DNNMEM_DEF const char *dnnmem_result_name(dnnmem_result result);
/* The code's name, "DNNMEM_ERR_CYCLE"; NULL for a value not in the list. */
DNNMEM_DEF dnnmem_result dnnmem_result_parse(const char *name, dnnmem_result *out);
/* The inverse of dnnmem_result_name; DNNMEM_ERR_PARSE for an unknown name. */

/* ---- errors: which record, which field --------------------------------- */

/* X(name, text): the inputs an error can name (dnnmem_error.field). */
#define DNNMEM_FIELD_LIST(X) \
  X(NONE, "none") X(PROBLEM, "problem") X(COUNT, "count") X(SIZE, "size") \
  X(LOWER, "lower") X(UPPER, "upper") X(ALIGNMENT, "alignment") X(OFFSET, "offset") \
  X(HINT, "hint") X(GAP, "gap") X(PASS, "pass") X(ALIAS, "alias") X(REUSE, "reuse") \
  X(INPUT, "input") X(TIME, "time") X(COST, "cost") X(PIN, "pin") X(POOL, "pool") X(OBJECT, "object") \
  X(SYMBOL, "symbol") X(SEQUENCE, "sequence") X(ARC, "arc") X(SOURCE, "source") \
  X(SINK, "sink") X(EXTENT, "extent") X(STRIDE, "stride") X(LEVEL, "level") \
  X(INDEX, "index") X(ALGO, "algo") X(BUDGET, "budget") X(CAPACITY, "capacity") \
  X(LIMIT, "limit") X(OPTIONS, "options") X(SCRATCH, "scratch") X(OUTPUT, "output") \
  X(MEMBER, "member") X(STACKING, "stacking")

typedef enum dnnmem_field {
#define DNNMEM__FIELD_ENUM(name, text) DNNMEM_FIELD_##name,
  DNNMEM_FIELD_LIST(DNNMEM__FIELD_ENUM)
#undef DNNMEM__FIELD_ENUM
  DNNMEM__FIELD_COUNT
} dnnmem_field;

typedef struct dnnmem_error {
  int32_t index;      /* the record, node, step, arc or factor; -1: none */
  dnnmem_field field; /* which of its fields, or which argument */
  int32_t other;      /* the second of a pair (two records that overlap or
                         collide, a reuse or alias target); -1: none */
} dnnmem_error;
/* Where an error is: every _result struct ends in one (written by the
   operation, {-1, NONE} on success), and every _check function takes one as
   its last argument (may be NULL). index names the culprit of an array
   (records, nodes, sequence steps, arcs, layout factors, a pool's record)
   or is -1 when the error is about an argument: field then names that
   argument (DNNMEM_FIELD_ALGO, _SCRATCH, _OUTPUT, ...). A cycle names a
   node on it; a pair names both (index < other where the order is free). */

DNNMEM_DEF const char *dnnmem_field_name(dnnmem_field field);
/* "size", "reuse", ...; NULL for a value out of range. */
DNNMEM_DEF dnnmem_result dnnmem_field_parse(const char *name, dnnmem_field *out);
/* The inverse of dnnmem_field_name; DNNMEM_ERR_PARSE for an unknown name. */

/* ---- intervals --------------------------------------------------------- */

/* dnnmem_interval.flags */
#define DNNMEM_INTERVAL_FIXED 1 /* fixed_offset is binding */
#define DNNMEM_INTERVAL_HINT 2  /* hint is a preferred offset (exact search
                                   orders hinted records first, by hint) */
#define DNNMEM_INTERVAL_ALIAS 4 /* must share the offset of record `alias` (a
                                   view: the two may overlap in time) */
#define DNNMEM_INTERVAL_REUSE 8 /* may take over the bytes of record `reuse`,
                                   which dies at the step producing this one */

typedef struct dnnmem_gap {
  int64_t lower, upper; /* idle time [lower, upper), inside the lifetime */
  int64_t window_lower; /* bytes [offset + window_lower, offset + window_upper) */
  int64_t window_upper; /* stay occupied; window_lower == window_upper: none */
} dnnmem_gap;
/* minimalloc's gaps: "L-U" (idle) or "L-U@WL:WU" (keeps a window). Gaps of
   one interval are sorted and do not overlap. Planners may ignore gaps (a
   plan that ignores them is still valid); the checker and exact search honour
   them. */

typedef struct dnnmem_interval {
  int64_t lower;        /* first step alive (inclusive) */
  int64_t upper;        /* first step dead (exclusive); upper > lower */
  int64_t size;         /* bytes, >= 0 */
  int64_t alignment;    /* 0 or 1: the plan's alignment; else a power of two:
                           the offset is a multiple of max(this, the plan's) */
  int64_t fixed_offset; /* with DNNMEM_INTERVAL_FIXED: where it must go */
  int64_t hint;         /* with DNNMEM_INTERVAL_HINT: preferred offset */
  const dnnmem_gap *gaps; /* num_gaps idle periods (may be NULL when 0) */
  int32_t num_gaps;
  int32_t flags;        /* DNNMEM_INTERVAL_* bits */
  int32_t pass;         /* multi-pass planning (dnnmem_plan_pass): the pass
                           that plans it, 1, 2, ...; 0 means 1. Ignored
                           elsewhere. */
  int32_t alias;        /* with DNNMEM_INTERVAL_ALIAS: the record (index)
                           whose offset this one must share */
  int32_t reuse;        /* with DNNMEM_INTERVAL_REUSE: the record (index)
                           whose bytes this one may overwrite in place */
} dnnmem_interval;
/* One tensor usage record. The TFLite paper's inclusive {first_op, last_op}
   is {lower = first_op, upper = last_op + 1}. Two records conflict when their
   lifetimes intersect (outside gaps) and their byte ranges intersect, unless
   they are linked: aliased records (the classes that ALIAS links join) share
   one offset and may overlap; a record B with REUSE of A may be put at A's
   offset (a planner's choice), and then B and A may overlap at the step
   B.lower, the one step both live. Rules (dnnmem_intervals_check): the
   linked id in range, not the record itself (ALIAS: DNNMEM_ERR_CYCLE),
   neither end of a link has gaps (DNNMEM_ERR_BAD_GAP); REUSE of A needs
   A.upper == B.lower + 1, A.lower < B.lower and B.size <= A.size
   (DNNMEM_ERR_PLAN_REUSE). The planning operations also need: ALIAS links
   without a cycle (DNNMEM_ERR_CYCLE), members of one class fixed at one
   offset (DNNMEM_ERR_PLAN_ALIAS_OFFSET), and each reuse between classes:
   A's class ends at B.lower + 1 and began before it, B's class begins at
   B.lower (DNNMEM_ERR_PLAN_REUSE: A's bytes are still in use). */

typedef struct dnnmem_intervals {
  const dnnmem_interval *records; /* count records (may be NULL when 0) */
  int32_t count;
  int64_t alignment; /* every offset a multiple of it; 0 or 1: none */
} dnnmem_intervals;
/* The input of planning, shared objects and chains: the records and the
   plan's alignment (shared objects and chains ignore it). */

DNNMEM_DEF dnnmem_result dnnmem_intervals_check(const dnnmem_intervals *problem, dnnmem_error *error);
/* Validates records without scratch in O(n + gaps) (links: the record
   rules of dnnmem_interval): count >= 0, sizes >= 0,
   upper > lower with upper - lower within int64_t, alignments (problem's
   and each record's; 0 means 1) powers of two,
   gaps sorted inside their lifetime with windows inside [0, size], fixed
   offsets >= 0 and aligned, and the sum of all aligned sizes (plus fixed
   offsets) within int64_t, so that every plan's arena is representable. */

DNNMEM_DEF int64_t dnnmem_interval_alignment(const dnnmem_interval *record,
                                             int64_t alignment);
/* The alignment a record's offset must satisfy: max(record's, global), at
   least 1. Assumes validated input. */

/* ---- graphs ------------------------------------------------------------ */

typedef struct dnnmem_graph {
  int32_t num_nodes;
  const int32_t *in_offsets; /* num_nodes + 1 entries, in_offsets[0] == 0 */
  const int32_t *in_ids;     /* in_offsets[num_nodes] input ids */
} dnnmem_graph;
/* Node v's inputs are in_ids[in_offsets[v] .. in_offsets[v + 1]); an id may
   repeat (x * x). Parts that need per-node data take separate arrays. */

DNNMEM_DEF dnnmem_result dnnmem_graph_check(const dnnmem_graph *graph, dnnmem_error *error);
/* O(V+E), no scratch: num_nodes >= 0, offsets start at 0 and never
   decrease, ids in range. Says nothing about cycles. */

DNNMEM_DEF int dnnmem_graph_is_topological(const dnnmem_graph *graph);
/* 1 if every input id is smaller than its node (implies acyclic); assumes
   dnnmem_graph_check passed. */

DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order_scratch_size(const dnnmem_graph *graph,
                                                              size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order(const dnnmem_graph *graph,
                                                 int32_t *order,
                                                 void *scratch,
                                                 size_t scratch_bytes,
                                                 dnnmem_error *error);
/* Kahn's algorithm, O(V+E): order[] receives every node once, inputs before
   consumers; sources in id order, then each node as soon as its last input
   is ordered (FIFO), so the order is deterministic. DNNMEM_ERR_CYCLE if the
   graph has a cycle (order[] is then partial; error.index: a node on it,
   field INPUT), dnnmem_graph_check's errors; error may be NULL. */

DNNMEM_DEF dnnmem_result dnnmem_graph_intervals(const dnnmem_graph *graph,
                                                const int64_t *sizes,
                                                const uint8_t *is_output,
                                                dnnmem_interval *records,
                                                dnnmem_error *error);
/* Lifetimes of a topologically numbered graph: record i = value i over
   [i, max(i, last consumer) + 1), to num_nodes when is_output[i] (is_output
   may be NULL), with size sizes[i]. Other fields zero. O(V+E), no scratch.
   Errors name the node (error may be NULL): DNNMEM_ERR_NOT_TOPOLOGICAL (a
   node with an input id >= its own, field INPUT), DNNMEM_ERR_NEGATIVE
   (SIZE), INVALID_ARGUMENT for a NULL sizes (SIZE) or records (OUTPUT),
   and dnnmem_graph_check's errors. */

/* ---- random numbers and stopping --------------------------------------- */

typedef struct dnnmem_rng {
  uint64_t state;
} dnnmem_rng;

DNNMEM_DEF void dnnmem_rng_seed(dnnmem_rng *rng, uint64_t seed);
DNNMEM_DEF uint64_t dnnmem_rng_next(dnnmem_rng *rng);
/* splitmix64: 64 uniformly distributed bits. */
DNNMEM_DEF uint32_t dnnmem_rng_below(dnnmem_rng *rng, uint32_t bound);
/* Uniform in [0, bound) without modulo bias; 0 when bound is 0. */
DNNMEM_DEF double dnnmem_rng_uniform(dnnmem_rng *rng);
/* Uniform in [0, 1) with 53 random bits. */

typedef int (*dnnmem_stop_fn)(void *user);
/* Returns nonzero when a long search should stop and return its best. */

typedef double (*dnnmem_progress_fn)(void *user);
/* Returns the fraction (0..1) of the caller's budget used so far. */



/* ==== 2. Interval planning (dnnmem_plan_*) =============================== */

typedef enum dnnmem_plan_algo {
  DNNMEM_PLAN_BEST = 0,       /* the heuristics in turn (then a short exact search) */
  DNNMEM_PLAN_NAIVE,          /* every record its own region */
  DNNMEM_PLAN_GREEDY_SIZE,    /* TFLite greedy by size */
  DNNMEM_PLAN_GREEDY_BREADTH, /* TFLite greedy by breadth */
  DNNMEM_PLAN_SORTED_HEIGHT,  /* LeapMind's old order, height placement */
  DNNMEM_PLAN_PATHCOVER,      /* LeapMind's path-cover order, height placement */
  DNNMEM_PLAN_BESTFIT,        /* strip-packing best fit on the skyline */
  DNNMEM_PLAN_GREEDY_TFLM,    /* TensorFlow Lite Micro's GreedyMemoryPlanner */
#ifndef DNNMEM_NO_EXACT
  DNNMEM_PLAN_EXACT,          /* branch and bound: minimum arena with proof */
#endif
  DNNMEM_PLAN_ALGO_COUNT
} dnnmem_plan_algo;

DNNMEM_DEF const char *dnnmem_plan_algo_name(dnnmem_plan_algo algo);
/* "best", "naive", "greedy-size", "greedy-breadth", "sorted-height",
   "pathcover", "bestfit", "greedy-tflm", "exact"; NULL for a value out of
   range. */

DNNMEM_DEF dnnmem_result dnnmem_plan_algo_parse(const char *name, dnnmem_plan_algo *out);
/* The inverse of dnnmem_plan_algo_name; DNNMEM_ERR_PARSE for an unknown name
   ("exact" too under DNNMEM_NO_EXACT). */

typedef struct dnnmem_plan_options {
  dnnmem_plan_algo algo; /* 0: DNNMEM_PLAN_BEST */
  int64_t node_limit;    /* exact search nodes; 0: exact unlimited, best
                            DNNMEM_PLAN_BEST_NODES (scaled down above 256
                            records, at least 8 per record) */
  int64_t capacity;      /* > 0: also ask "is there a plan within capacity?"
                            (exact: searched; others: answered when the plan
                            fits or the lower bound exceeds it) */
  dnnmem_stop_fn stop;   /* exact search: polled now and then; nonzero stops
                            it with its best plan (may be NULL) */
  void *stop_user;       /* passed to stop */
} dnnmem_plan_options;
/* Zeroed (or a NULL pointer): best, no capacity question. node_limit and
   stop only steer the exact search (ignored under DNNMEM_NO_EXACT). */

#ifndef DNNMEM_NO_EXACT
#define DNNMEM_PLAN_BEST_NODES 2000
/* best's exact-search nodes for up to 256 records; above, 2000 x 256 / n
   (a node costs O(n)), but at least 8 n (a path places n records). */
#define DNNMEM_PLAN_BEST_EXACT_MAX 4096
/* best runs no exact search above this many records. */
#endif

typedef enum dnnmem_plan_stop {
  DNNMEM_PLAN_STOP_NONE = 0,   /* no search ran: a heuristic's plan, not proven */
  DNNMEM_PLAN_STOP_PROVED,     /* the answer is proven: arena == lower_bound, or
                                  the capacity question answered (feasible 0/1) */
  DNNMEM_PLAN_STOP_NODES,      /* the search used its node limit (options or best's) */
  DNNMEM_PLAN_STOP_TIME,       /* options->stop returned nonzero (a time limit) */
  DNNMEM_PLAN_STOP_INCOMPLETE, /* the search asked every capacity it can decide
                                  without a proof: gaps (windows, or best's
                                  search that plans as if there were none) */
  DNNMEM_PLAN_STOP_COUNT
} dnnmem_plan_stop;

DNNMEM_DEF const char *dnnmem_plan_stop_name(dnnmem_plan_stop stop);
/* "none", "proved", "nodes", "time", "incomplete"; NULL out of range. */

DNNMEM_DEF dnnmem_result dnnmem_plan_stop_parse(const char *name, dnnmem_plan_stop *out);
/* The inverse of dnnmem_plan_stop_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_plan_result {
  int64_t arena;         /* max(offset + size); 0 for no records */
  int64_t lower_bound;   /* proven: dnnmem_plan_lower_bound, or higher when
                            an exact search proved more */
  int32_t optimal;       /* 1: arena == lower_bound (proved minimal) */
  dnnmem_plan_algo algo; /* the strategy whose plan was returned */
  int32_t feasible;      /* with options->capacity: 1 a plan fits (the one
                            returned), 0 proven impossible, -1 unknown;
                            without: 1 */
  int64_t nodes;         /* exact search nodes visited (0 for heuristics) */
  dnnmem_plan_stop stop; /* why planning ended: proved, or which limit */
  int32_t degraded;      /* 1: the scratch's undo log filled and deeper nodes
                            were undone by recounting (slower, same answers) */
  int32_t reused;        /* reuse links the plan uses (B at A's offset) */
  dnnmem_error error;    /* on failure: the record and field at fault */
} dnnmem_plan_result;

DNNMEM_DEF dnnmem_result dnnmem_plan_solve_scratch_size(const dnnmem_intervals *problem,
                                                        const dnnmem_plan_options *options,
                                                        size_t *out_bytes);
/* Scratch for dnnmem_plan_solve: O(n + gaps), about 740 bytes per record,
   plus the exact search's block: up to DNNMEM_PLAN_BEST_EXACT_MAX records
   whatever the algo (one size serves every algo there) but greedy-tflm,
   which alone takes about 450 bytes per record (an engine's planner
   inside its arena: nothing for the other strategies), about 1.9 KiB per
   record plus 1.9 MiB; above, only for exact, about 3.1 KiB per record
   plus 43 MiB.
   Reads problem->count and each record's num_gaps (not the rest, which
   the operation validates); records may be NULL to size records without
   gaps. options may be NULL. */

DNNMEM_DEF dnnmem_result dnnmem_plan_solve(const dnnmem_intervals *problem,
                                           const dnnmem_plan_options *options,
                                           int64_t *offsets, dnnmem_plan_result *result,
                                           void *scratch, size_t scratch_bytes);
/* Plans offsets[count] for problem's records with options->algo, every
   offset a multiple of dnnmem_interval_alignment(record, problem->alignment).
   Validates with dnnmem_intervals_check; DNNMEM_ERR_PLAN_FIXED_COLLISION
   when fixed records collide (result->error.index and .other: the pair);
   DNNMEM_ERR_INVALID_ARGUMENT for an algo out of range (field ALGO);
   DNNMEM_ERR_NEGATIVE for a negative node_limit (LIMIT) or capacity
   (CAPACITY); the link rules' CYCLE (a record on the cycle, ALIAS),
   PLAN_ALIAS_OFFSET and PLAN_REUSE (the record and its link's target).
   result may be NULL. Deterministic (a stop callback that reads a clock is
   the only source of run-to-run differences). offsets always receives a
   valid plan, also when a capacity question is answered "no" (then the
   plan exceeds the capacity). */

DNNMEM_DEF dnnmem_result dnnmem_plan_lower_bound_scratch_size(const dnnmem_intervals *problem,
                                                              size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_lower_bound(const dnnmem_intervals *problem,
                                                 dnnmem_plan_result *result, void *scratch,
                                                 size_t scratch_bytes);
/* result->lower_bound (result required; its other fields zero): the most
   bytes live at one time, with alignment rounding where it is provable,
   and at least every fixed record's offset + size: no plan is smaller.
   O(p log p), p = records + 2 gaps; scratch 64 bytes per piece. */

DNNMEM_DEF dnnmem_result dnnmem_plan_check_scratch_size(const dnnmem_intervals *problem,
                                                        size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_check(const dnnmem_intervals *problem,
                                           const int64_t *offsets, dnnmem_plan_result *result,
                                           void *scratch, size_t scratch_bytes);
/* Verifies a plan by recount: DNNMEM_OK and result->arena (result may be
   NULL; its other fields zero), or DNNMEM_ERR_PLAN_OVERLAP (two records
   share a byte while both live, gaps and windows honoured: error.index and
   error.other), DNNMEM_ERR_PLAN_MISALIGNED, DNNMEM_ERR_PLAN_FIXED_MISMATCH,
   DNNMEM_ERR_NEGATIVE, DNNMEM_ERR_OVERFLOW (error.index: the record, field
   OFFSET), DNNMEM_ERR_PLAN_ALIAS_OFFSET (the pair). O(p log p), p =
   records + 2 gaps. */

/* A static bound on dnnmem_plan_chains_scratch_size for count records. */
#define DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(count) (68 * (size_t)(count) + 256)

DNNMEM_DEF dnnmem_result dnnmem_plan_chains_scratch_size(const dnnmem_intervals *problem,
                                                         size_t *out_bytes);
typedef struct dnnmem_plan_chains_result {
  int32_t groups;     /* the number of groups: the most records alive at one
                         time (the minimum possible) */
  dnnmem_error error; /* on failure: the record and field at fault */
} dnnmem_plan_chains_result;

DNNMEM_DEF dnnmem_result dnnmem_plan_chains(const dnnmem_intervals *problem,
                                            int32_t *group_of, int32_t *order,
                                            dnnmem_plan_chains_result *result,
                                            void *scratch, size_t scratch_bytes);
/* Minimum grouping of lifetimes into chains of pairwise non-overlapping
   records (a record ends at upper, the next may begin there), O(n log n).
   Records are validated with dnnmem_intervals_check (alignment ignored,
   its errors named in result->error); gaps are ignored. Outputs (each may
   be NULL):
     group_of[count]  the group of each record; groups are numbered 0.. in
                      the order they are opened (by their first lower),
     order[count]     record ids group by group (group 0 first), each
                      group's chain in time order,
     result           groups.
   Deterministic; the manual gives the order and the rule that picks among
   the groups a record fits (closest size, then latest end, then oldest). */


/* ---- multi-pass planning ------------------------------------------------ */

DNNMEM_DEF dnnmem_result dnnmem_plan_pass_scratch_size(const dnnmem_intervals *problem,
                                                       const dnnmem_plan_options *options, int32_t pass,
                                                       size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_pass(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                          int32_t pass, int64_t *offsets, dnnmem_plan_result *result,
                                          void *scratch, size_t scratch_bytes);
/* Plans pass `pass` (>= 1) of a multi-pass plan: the records with
   record.pass == pass (0 counts as 1) get offsets[i], around the records of
   earlier passes, which stay at the offsets[i] given (they act as fixed
   records: DNNMEM_ERR_PLAN_FIXED_COLLISION if they collide, _MISALIGNED,
   _FIXED_MISMATCH against a record's own fixed offset). Records of later
   passes are not read beyond their pass field (their sizes may not be
   known yet) and their offsets[] are left alone. Passes 2, 3, ... are
   planned when their first record is produced, so their first steps
   (smallest lower) may not decrease with the pass number:
   DNNMEM_ERR_PLAN_PASS_ORDER. result is dnnmem_plan_solve's on the records
   of passes 1..pass (arena: the memory needed so far). Scratch and time are
   dnnmem_plan_solve's on those records, plus 100 bytes and O(log n) per
   record. */

/* ---- symbolic sizes ----------------------------------------------------- */

#define DNNMEM_PLAN_SYMBOLIC_MAX_TERMS 8   /* degree 7 */
#define DNNMEM_PLAN_SYMBOLIC_SAMPLES 64    /* S values a stacking is measured at */
#define DNNMEM_PLAN_SYMBOLIC_REFERENCES 8  /* reference plans tried */
/* Room for the edges of any stacking of count records (planar: < 3n). */
#define DNNMEM_PLAN_SYMBOLIC_EDGES(count) (3 * (int64_t)(count) + 6)

typedef struct dnnmem_plan_symbolic {
  const dnnmem_intervals *intervals; /* lifetimes and alignments; size fields
                                        ignored; no fixed offsets, no gaps */
  const int64_t *coefficients; /* count x terms, >= 0: record i's size at S is
                                  c[i*terms] + c[i*terms+1] S + ... */
  int32_t terms;               /* 1 .. DNNMEM_PLAN_SYMBOLIC_MAX_TERMS */
  int64_t s_min, s_max;        /* the range of S, 0 <= s_min <= s_max */
} dnnmem_plan_symbolic;
/* Sizes that grow with one symbolic dimension S (sequence length, batch). */

typedef struct dnnmem_plan_stacking {
  const int32_t *order;         /* count record ids, bottom-up */
  const int32_t *below_offsets; /* count + 1: the records right below order[p]
                                   are below_ids[below_offsets[p] ..
                                   below_offsets[p + 1]) */
  const int32_t *below_ids;
} dnnmem_plan_stacking;
/* A plan for every S: offset(order[p]) = the highest end, offset + size(S),
   of the records below it (0 if none), rounded up to its alignment. */

typedef struct dnnmem_plan_symbolic_result {
  int32_t edges;          /* below_ids used (or needed: OUTPUT_TOO_SMALL) */
  int32_t samples;        /* S values measured (every one of a short range) */
  int64_t reference;      /* the S whose plan the stacking comes from; -1,
                             -2, -3: blend 0, 1, 2 (see the manual) */
  double worst_ratio;     /* the most arena(S) / lower_bound(S) over the
                             samples (1 where both are 0) */
  int64_t worst_at;       /* the sample where it is reached */
  int64_t arena_min, lower_bound_min; /* at s_min */
  int64_t arena_max, lower_bound_max; /* at s_max */
  dnnmem_error error;     /* on failure: the record and field at fault */
} dnnmem_plan_symbolic_result;

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_records(const dnnmem_plan_symbolic *problem, int64_t s,
                                                      dnnmem_interval *records, dnnmem_error *error);
/* records[count]: the intervals with their sizes at s, validated as
   dnnmem_intervals_check does. DNNMEM_ERR_PLAN_SYMBOL_RANGE for s outside
   [s_min, s_max], DNNMEM_ERR_NEGATIVE for a negative coefficient,
   DNNMEM_ERR_OVERFLOW, DNNMEM_ERR_INVALID_ARGUMENT for fixed offsets or
   gaps. O(n x terms), no scratch. */

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_solve_scratch_size(const dnnmem_plan_symbolic *problem,
                                                                 const dnnmem_plan_options *options,
                                                                 size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_solve(const dnnmem_plan_symbolic *problem,
                                                    const dnnmem_plan_options *options, int32_t *order,
                                                    int32_t *below_offsets, int32_t *below_ids,
                                                    int32_t below_capacity, dnnmem_plan_symbolic_result *result,
                                                    void *scratch, size_t scratch_bytes);
/* Plans a stacking valid for every S in [s_min, s_max]: order[count],
   below_offsets[count + 1], below_ids[below_capacity] (at most
   DNNMEM_PLAN_SYMBOLIC_EDGES(count) are ever needed; fewer give
   DNNMEM_ERR_OUTPUT_TOO_SMALL with result->edges the count needed). Each
   reference plan is dnnmem_plan_solve's with options (capacity ignored).
   Validation as dnnmem_plan_symbolic_records at s_max. */

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_resolve(const dnnmem_plan_symbolic *problem,
                                                      const dnnmem_plan_stacking *stacking, int64_t s,
                                                      int64_t *offsets, dnnmem_plan_result *result);
/* offsets[count] at s, and result->arena (result may be NULL; its other
   fields zero), in O(n x terms + edges) without scratch: callable per
   request. Checks s (PLAN_SYMBOL_RANGE, field SYMBOL), the coefficients
   and overflow (the record, SIZE), and that the stacking is one (ids in
   range, every record once, each after the records below it:
   DNNMEM_ERR_INVALID_ARGUMENT, _ID_RANGE; error.index: the position in
   stacking->order, field STACKING). A stacking from
   dnnmem_plan_symbolic_solve gives a valid plan at every S of the range; a
   hand-made one is valid if every two records that meet in time are
   ordered by "below" (dnnmem_plan_check tells). offsets are written also
   on errors. */


/* ---- conflict sets ("why not") ------------------------------------------ */

typedef struct dnnmem_plan_conflict_result {
  int32_t count;         /* ids written to conflict (or needed: OUTPUT_TOO_SMALL) */
  int32_t minimal;       /* 1: proven minimal (every proper subset fits);
                            0: not proven (a decision ended unanswered) */
  int32_t feasible;      /* 1 the whole problem fits the capacity (count 0),
                            0 proven infeasible (a conflict is written),
                            -1 unknown (no set could be proven: count 0) */
  int32_t decisions;     /* capacity questions asked (dnnmem_plan_solve calls) */
  int64_t nodes;         /* exact search nodes over every decision */
  dnnmem_plan_stop stop; /* proved: every decision answered; else the first
                            limit that left one unanswered (nodes, time,
                            incomplete) */
  dnnmem_error error;    /* on failure: the record and field at fault */
} dnnmem_plan_conflict_result;

DNNMEM_DEF dnnmem_result dnnmem_plan_conflict_scratch_size(const dnnmem_intervals *problem,
                                                           const dnnmem_plan_options *options,
                                                           size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_conflict(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                              int32_t *conflict, int32_t conflict_capacity,
                                              dnnmem_plan_conflict_result *result, void *scratch,
                                              size_t scratch_bytes);
/* Why a capacity cannot be met: when no plan of problem fits within
   options->capacity (required, > 0), conflict[0 .. result->count) receives
   the ids (ascending) of a subset of records that alone cannot fit it
   either; result->minimal = 1 when every proper subset is proven to fit.
   Each question "does this subset fit?" is dnnmem_plan_solve with algo
   exact (best under DNNMEM_NO_EXACT) and the capacity, bounded by
   options->node_limit and options->stop (options->algo is ignored); a
   subset keeps its records as they are (fixed ones at their offsets).
   When the whole problem fits: result->feasible = 1, count 0. Errors: NULL
   options or capacity 0: DNNMEM_ERR_INVALID_ARGUMENT; negative capacity or
   node_limit: DNNMEM_ERR_NEGATIVE; dnnmem_plan_solve's for the problem;
   conflict_capacity too small: DNNMEM_ERR_OUTPUT_TOO_SMALL with
   result->count the count needed (the rest of result filled). Scratch:
   dnnmem_plan_solve's for the problem with algo exact plus about 113 bytes
   per record. */


/* ---- pools (several memories: SRAM + DRAM) ------------------------------ */

typedef struct dnnmem_pool {
  const char *name;  /* for messages only (may be NULL) */
  int64_t capacity;  /* bytes; 0: unbounded */
  int64_t alignment; /* 0 or 1: none; else a power of two: every offset in
                        this pool a multiple of max(this, the record's, the
                        problem's) */
  int64_t cost;      /* per byte, >= 0: fast memory cheap, slow memory dear */
} dnnmem_pool;
/* One memory a record may be planned into: its own arena from offset 0. */

typedef struct dnnmem_plan_pools {
  const dnnmem_intervals *intervals; /* the records and the global alignment */
  const dnnmem_pool *pools;          /* num_pools >= 1 */
  int32_t num_pools;
  const int32_t *allowed_offsets;    /* count + 1, or NULL: every record may use
                                        every pool, in index order */
  const int32_t *allowed_ids;        /* record i may use pools allowed_ids[
                                        allowed_offsets[i] .. allowed_offsets[i+1]),
                                        in preference order, each once */
} dnnmem_plan_pools;
/* A plan over several pools: each record gets a pool it may use and an
   offset in it; within one pool records that live at a common time never
   share a byte, and every pool's arena (max offset + size) stays within its
   capacity. Objective: the least total cost, the sum over records of size
   x its pool's cost; then (not proven) small arenas. */

typedef enum dnnmem_plan_pools_algo {
  DNNMEM_PLAN_POOLS_BEST = 0, /* improve, then (up to
                                 DNNMEM_PLAN_POOLS_BEST_EXACT_MAX records) a
                                 bounded exact search from its plan */
  DNNMEM_PLAN_POOLS_GREEDY,   /* TVM USMP's greedy by size with fallback to
                                 the next pool */
  DNNMEM_PLAN_POOLS_IMPROVE,  /* greedies in two orders, then moves to
                                 cheaper pools with per-pool re-planning */
#ifndef DNNMEM_NO_EXACT
  DNNMEM_PLAN_POOLS_EXACT,    /* branch and bound over the assignment: least
                                 cost, proven when it completes */
#endif
  DNNMEM_PLAN_POOLS_ALGO_COUNT
} dnnmem_plan_pools_algo;

DNNMEM_DEF const char *dnnmem_plan_pools_algo_name(dnnmem_plan_pools_algo algo);
/* "best", "greedy", "improve", "exact"; NULL for a value out of range. */
DNNMEM_DEF dnnmem_result dnnmem_plan_pools_algo_parse(const char *name, dnnmem_plan_pools_algo *out);
/* The inverse of dnnmem_plan_pools_algo_name; DNNMEM_ERR_PARSE for an unknown
   name ("exact" too under DNNMEM_NO_EXACT). */

#define DNNMEM_PLAN_POOLS_BEST_EXACT_MAX 256 /* best: exact search up to this many records */
#define DNNMEM_PLAN_POOLS_BEST_NODES 20000   /* best: its assignment nodes */
#define DNNMEM_PLAN_POOLS_PACK_NODES 20000   /* default nodes of one packing decision */

typedef struct dnnmem_plan_pools_options {
  dnnmem_plan_pools_algo algo; /* 0: DNNMEM_PLAN_POOLS_BEST */
  int64_t node_limit;      /* assignment nodes of the exact search; 0: exact
                              unlimited, best DNNMEM_PLAN_POOLS_BEST_NODES */
  int64_t pack_node_limit; /* nodes of each "does this set fit the pool?"
                              decision (dnnmem_plan_solve, exact); 0:
                              DNNMEM_PLAN_POOLS_PACK_NODES */
  dnnmem_stop_fn stop;     /* polled now and then; nonzero: return the best
                              plan found (may be NULL) */
  void *stop_user;
} dnnmem_plan_pools_options;
/* Zeroed (or a NULL pointer): best. */

typedef struct dnnmem_plan_pools_result {
  int64_t cost;          /* sum of size x the pool's cost */
  int64_t lower_bound;   /* proven: no plan costs less (the fractional bound,
                            or the cost when the exact search completed) */
  int32_t optimal;       /* 1: cost == lower_bound */
  int32_t feasible;      /* 1 a plan was found (the one written), 0 proven
                            impossible, -1 none found and none proven */
  dnnmem_plan_pools_algo algo; /* the stage whose assignment was returned */
  int64_t nodes;         /* exact search: assignment nodes */
  int32_t decisions;     /* packing questions asked to dnnmem_plan_solve */
  int32_t moves;         /* improve: records moved to a cheaper pool */
  int32_t reused;        /* reuse links the plan uses (B in A's pool at
                            A's offset) */
  dnnmem_plan_stop stop; /* none (heuristics only), proved, nodes, time,
                            incomplete (a packing left undecided, or gaps:
                            the search plans without them) */
  dnnmem_error error;    /* on failure: the record and field at fault */
} dnnmem_plan_pools_result;

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_solve_scratch_size(const dnnmem_plan_pools *problem,
                                                              const dnnmem_plan_pools_options *options,
                                                              size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_pools_solve(const dnnmem_plan_pools *problem,
                                                 const dnnmem_plan_pools_options *options, int32_t *pool_of,
                                                 int64_t *offsets, int64_t *arenas,
                                                 dnnmem_plan_pools_result *result, void *scratch,
                                                 size_t scratch_bytes);
/* Plans pool_of[count] (an index into pools) and offsets[count] (within that
   pool's arena); arenas[num_pools] (may be NULL) receives each pool's arena.
   Validation: dnnmem_intervals_check; num_pools >= 1
   (DNNMEM_ERR_INVALID_ARGUMENT), capacities, costs >= 0
   (DNNMEM_ERR_NEGATIVE), pool alignments powers of two
   (DNNMEM_ERR_ALIGNMENT), allowed lists (offsets non-decreasing from 0,
   ids in range: DNNMEM_ERR_ID_RANGE, no pool twice:
   DNNMEM_ERR_INVALID_ARGUMENT), the total sum of size x cost within int64_t
   (DNNMEM_ERR_OVERFLOW), and DNNMEM_ERR_PLAN_POOL_CAPACITY for a record
   that fits none of its pools alone (or has none). Gaps are honoured by
   the bound and the checker; the planners let a record occupy its whole
   lifetime (valid, maybe not least). A fixed offset binds in whichever
   pool the record goes. When no plan is found: DNNMEM_ERR_INFEASIBLE with
   result written (feasible 0: proven, -1: not found), outputs unspecified.
   Deterministic (a stop callback reading a clock aside). */

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_lower_bound_scratch_size(const dnnmem_plan_pools *problem,
                                                                    size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_pools_lower_bound(const dnnmem_plan_pools *problem,
                                                       dnnmem_plan_pools_result *result, void *scratch,
                                                       size_t scratch_bytes);
/* No plan costs less than result->lower_bound (result required; its other
   fields zero): every record's cheapest pool it fits
   alone, plus, summed over steps whose live records are disjoint (chosen
   best by a dynamic program), the least extra cost of splitting the bytes
   live at the step fractionally over the pools' capacities (the manual has
   the proof). DNNMEM_ERR_INFEASIBLE when the bytes of one step exceed every
   capacity together (no plan exists); the problem's validation otherwise.
   O(n log n + T P) for T distinct lowers and P pools. */

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_check_scratch_size(const dnnmem_plan_pools *problem,
                                                              size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_pools_check(const dnnmem_plan_pools *problem, const int32_t *pool_of,
                                                 const int64_t *offsets, int64_t *arenas,
                                                 dnnmem_plan_pools_result *result, void *scratch,
                                                 size_t scratch_bytes);
/* Verifies a plan by recount: a pool index out of range
   (DNNMEM_ERR_ID_RANGE), a record in a pool it may not use
   (DNNMEM_ERR_PLAN_POOL_FORBIDDEN), within each pool dnnmem_plan_check's
   rules with the pool's alignment (DNNMEM_ERR_PLAN_OVERLAP, _MISALIGNED,
   _FIXED_MISMATCH, DNNMEM_ERR_NEGATIVE), an arena over its pool's capacity
   (DNNMEM_ERR_PLAN_POOL_OVER_CAPACITY: error.index the record reaching
   highest, error.other the pool). result->cost and arenas[num_pools]
   (each may be NULL) on DNNMEM_OK; result->error names the offending
   record(s) otherwise. O(P + p log p), p = records + 2 gaps. */

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_conflict_scratch_size(const dnnmem_plan_pools *problem,
                                                                 const dnnmem_plan_pools_options *options,
                                                                 size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_plan_pools_conflict(const dnnmem_plan_pools *problem,
                                                    const dnnmem_plan_pools_options *options, int32_t *conflict,
                                                    int32_t conflict_capacity, dnnmem_plan_conflict_result *result,
                                                    void *scratch, size_t scratch_bytes);
/* Why no plan fits the pools: dnnmem_plan_conflict's answer for pools. When
   no assignment fits the capacities, conflict[0 .. result->count) receives
   the ids of records that alone cannot be planned into the pools either
   (same pools, each record its allowed list), result->minimal = 1 when
   every proper subset is proven to have a plan. Each question is
   dnnmem_plan_pools_solve with algo exact (best under DNNMEM_NO_EXACT),
   options' node limits and stop (options->algo ignored); proofs come from
   the bound (a step's bytes over every capacity) or a completed search
   (records with gaps: the bound only). result->feasible 1 when a plan
   exists (count 0). Errors: dnnmem_plan_pools_solve's for the problem;
   links: DNNMEM_ERR_INVALID_ARGUMENT (a subset would cut them);
   conflict_capacity too small: DNNMEM_ERR_OUTPUT_TOO_SMALL with
   result->count needed. Scratch: dnnmem_plan_pools_solve's plus about
   110 bytes per record and the allowed lists. */


/* ==== 3. Shared objects (dnnmem_share_*) ================================= */

typedef enum dnnmem_share_algo {
  DNNMEM_SHARE_BEST = 0,             /* the greedies in turn, smallest total */
  DNNMEM_SHARE_GREEDY_SIZE,          /* TFLite greedy by size */
  DNNMEM_SHARE_GREEDY_SIZE_IMPROVED, /* TFLite greedy by size improved */
  DNNMEM_SHARE_GREEDY_BREADTH,       /* TFLite greedy by breadth */
  DNNMEM_SHARE_GREEDY_ORDER,         /* TFLite greedy in order */
  DNNMEM_SHARE_ALGO_COUNT
} dnnmem_share_algo;

DNNMEM_DEF const char *dnnmem_share_algo_name(dnnmem_share_algo algo);
/* "best", "greedy-size", "greedy-size-improved", "greedy-breadth",
   "greedy-order"; NULL when out of range. */
DNNMEM_DEF dnnmem_result dnnmem_share_algo_parse(const char *name, dnnmem_share_algo *out);
/* The inverse of dnnmem_share_algo_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_share_options {
  dnnmem_share_algo algo; /* 0: DNNMEM_SHARE_BEST */
} dnnmem_share_options;
/* Zeroed (or a NULL pointer): best. */

typedef struct dnnmem_share_result {
  int32_t objects;        /* number of objects */
  int64_t total;          /* sum of object sizes */
  int64_t lower_bound;    /* sum of positional maximums */
  int32_t optimal;        /* total == lower_bound */
  dnnmem_share_algo algo; /* the strategy whose assignment was returned */
  dnnmem_error error;     /* on failure: the record and field at fault */
} dnnmem_share_result;

DNNMEM_DEF dnnmem_result dnnmem_share_solve_scratch_size(const dnnmem_intervals *problem,
                                                         const dnnmem_share_options *options,
                                                         size_t *out_bytes);
/* Scratch for dnnmem_share_solve: about 480 bytes per record. Reads only
   problem->count. options may be NULL. */

DNNMEM_DEF dnnmem_result dnnmem_share_solve(const dnnmem_intervals *problem,
                                            const dnnmem_share_options *options,
                                            int32_t *object_of, int64_t *object_sizes,
                                            dnnmem_share_result *result, void *scratch,
                                            size_t scratch_bytes);
/* Assigns object_of[count] (objects numbered 0..objects-1 by first use);
   object_sizes (count entries, may be NULL) receives each object's size.
   Alignment, fixed offsets and gaps do not apply (records occupy their
   whole lifetime; problem->alignment is ignored). result may be NULL.
   DNNMEM_ERR_INVALID_ARGUMENT for an algo out of range. */

DNNMEM_DEF dnnmem_result dnnmem_share_lower_bound_scratch_size(const dnnmem_intervals *problem,
                                                               size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_share_lower_bound(const dnnmem_intervals *problem,
                                                  dnnmem_share_result *result, void *scratch,
                                                  size_t scratch_bytes);
/* result->lower_bound (result required; its other fields zero), the sum of
   positional maximums: no assignment has a smaller total.
   O(n log n); scratch about 140 bytes per record. */

DNNMEM_DEF dnnmem_result dnnmem_share_check_scratch_size(const dnnmem_intervals *problem,
                                                         size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_share_check(const dnnmem_intervals *problem,
                                            const int32_t *object_of, dnnmem_share_result *result,
                                            void *scratch, size_t scratch_bytes);
/* Verifies an assignment by recount (ids in [0, count), no two
   time-overlapping records in one object): result->objects, the number of
   distinct objects, and result->total, the sum of their sizes (result may
   be NULL; its other fields zero). DNNMEM_ERR_SHARE_OVERLAP (error.index
   and error.other: two records of one object that meet) or
   DNNMEM_ERR_ID_RANGE (error.index: the record). O(n log n); scratch 8
   bytes per record. */



/* ==== 4. Path covers of graphs (dnnmem_cover_*) ========================== */

#ifndef DNNMEM_NO_COVER

typedef struct dnnmem_cover_options {
  int32_t transitive; /* vertices, nonzero: a path may skip vertices (the next
                         need only be reachable: chains of the order) */
} dnnmem_cover_options;
/* Zeroed (or a NULL pointer): paths along the graph's edges. */

typedef struct dnnmem_cover_result {
  int32_t paths;      /* paths of the cover (W for dnnmem_cover_edges) */
  int64_t path_nodes; /* their total length in vertices (a vertex counts once per
                         visit; dnnmem_cover_vertices: num_nodes) */
  dnnmem_error error; /* on failure: the node and field at fault (a cycle:
                         a node on it) */
} dnnmem_cover_result;

DNNMEM_DEF dnnmem_result dnnmem_cover_vertices_scratch_size(const dnnmem_graph *graph,
                                                            const dnnmem_cover_options *options,
                                                            size_t *out_bytes);
/* Scratch for dnnmem_cover_vertices: O(V + E). DNNMEM_ERR_TOO_MANY when the
   transitive variant's flow network (2V + 2 nodes, 3V + E arcs) exceeds
   the flow engine's int32_t range. */

DNNMEM_DEF dnnmem_result dnnmem_cover_vertices(const dnnmem_graph *graph,
                                               const dnnmem_cover_options *options,
                                               int32_t *path_of, int32_t *order,
                                               dnnmem_cover_result *result, void *scratch,
                                               size_t scratch_bytes);
/* Minimum vertex-disjoint path cover of a DAG (any numbering; edges run
   from an input to its consumer): every vertex on exactly one path, each
   next vertex of a path a consumer of the one before (options->transitive:
   reachable from it; the minimum chain cover, which equals the largest
   antichain by Dilworth). Outputs (each may be NULL):
     path_of[n]   the path of each vertex, paths numbered 0.. in the
                  topological order (dnnmem_graph_topo_order) of their first
                  vertex,
     order[n]     vertices path by path, each path from its first vertex,
     result       paths, path_nodes (= n).
   DNNMEM_ERR_CYCLE for a cyclic graph (result->error.index: a node on the
   cycle), DNNMEM_ERR_INVALID_ARGUMENT for an empty one (num_nodes == 0,
   field COUNT), dnnmem_graph_check's codes for bad CSR (the node whose
   inputs are bad, field INPUT). Repeated inputs are harmless.
   Deterministic. */

DNNMEM_DEF dnnmem_result dnnmem_cover_edges_scratch_size(const dnnmem_graph *graph,
                                                         const dnnmem_cover_options *options,
                                                         size_t *out_bytes);
/* Scratch for dnnmem_cover_edges: O(V + E). DNNMEM_ERR_TOO_MANY when the
   flow network (V + 2 nodes, V + E arcs) exceeds the engine's range. */

DNNMEM_DEF dnnmem_result dnnmem_cover_edges(const dnnmem_graph *graph,
                                            const dnnmem_cover_options *options,
                                            int64_t *edge_uses, int64_t *path_offsets,
                                            int32_t *path_nodes, int32_t path_nodes_capacity,
                                            dnnmem_cover_result *result, void *scratch,
                                            size_t scratch_bytes);
/* W, the minimum number of directed paths that together traverse every
   edge of a DAG (paths may share vertices and edges; vertices without
   edges need no path). A repeated input (x * x) is one edge.
   options->transitive must be 0. Outputs (each may be NULL):
     result             paths = W, path_nodes = the total length of the
                        paths in vertices (W + the uses of the distinct
                        edges),
     edge_uses[m]       for input edge k (in_ids[k] -> its consumer) how
                        many of the W paths traverse it (>= 1; a repeated
                        input reports its first copy's count),
     path_offsets[W+1]  (W <= m) path p is path_nodes[path_offsets[p] ..
     path_nodes[...]    path_offsets[p + 1]), vertices in path order; paths
                        start in topological order of their first vertex.
   DNNMEM_ERR_OUTPUT_TOO_SMALL when path_nodes is not NULL and
   path_nodes_capacity < result->path_nodes: result and edge_uses are
   written (call again with a larger array). Errors as
   dnnmem_cover_vertices. */

#endif /* DNNMEM_NO_COVER */

/* ==== 5. Recompute (dnnmem_remat_*) ====================================== */

#ifndef DNNMEM_NO_REMAT

/* ---- recompute: problem, simulator, bounds, solver ---------------------- */

#define DNNMEM_REMAT_MAX_GROUP 64 /* nodes in one exactly ordered group */

typedef struct dnnmem_remat_problem {
  const dnnmem_graph *graph; /* inputs as CSR; must be acyclic */
  const int64_t *sizes;      /* bytes per node, >= 0 */
  const int64_t *times;      /* compute time per node, >= 0 (the tool: ns) */
  const uint8_t *is_output;  /* nonzero: graph output (held to the end); may be NULL */
} dnnmem_remat_problem;
/* A training graph. Nodes without inputs are graph inputs: computed exactly
   once. The sum of all sizes must fit in int64_t. */

typedef enum dnnmem_remat_algo {
  DNNMEM_REMAT_ANNEAL = 0,  /* annealing over sequences (FastSA), drop-set
                               search and graph contraction */
  DNNMEM_REMAT_ROW_ORDER,   /* the topological (row) order, no recomputation */
  DNNMEM_REMAT_CHECKPOINT,  /* Chen et al.'s sqrt(n) checkpointing on the row order */
  DNNMEM_REMAT_ALGO_COUNT
} dnnmem_remat_algo;

DNNMEM_DEF const char *dnnmem_remat_algo_name(dnnmem_remat_algo algo);
/* "anneal", "row-order", "checkpoint"; NULL for a value out of range. */

DNNMEM_DEF dnnmem_result dnnmem_remat_algo_parse(const char *name, dnnmem_remat_algo *out);
/* The inverse of dnnmem_remat_algo_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_remat_options {
  dnnmem_remat_algo algo;   /* 0: DNNMEM_REMAT_ANNEAL */
  int64_t budget;           /* target peak in bytes; 0: none (anneal: as low as possible) */
  int64_t iterations;       /* anneal: moves in all; 0: 1000 * V + 500000 */
  int32_t reorder_only;     /* anneal, nonzero: no recomputation (best reordering) */
  int32_t no_contraction;   /* anneal, nonzero: the plain graph only */
  int32_t max_group_size;   /* contraction groups; 0: 32; at most DNNMEM_REMAT_MAX_GROUP */
  int32_t decompose_steps;  /* rounds of adding marks; 0: 6; at most 64 */
  int32_t bound_cuts;       /* dnnmem_remat_time_bound's candidate cuts; 0: 16 */
  double start_temperature; /* 0: 0.02 (relative to the base time) */
  double end_temperature;   /* 0: 1e-4 */
  dnnmem_stop_fn stop;      /* optional: polled every 256 moves */
  void *stop_user;
  dnnmem_progress_fn progress; /* optional: drives the schedule instead of */
  void *progress_user;         /* iterations (then give iterations large) */
  int32_t spacing;          /* dnnmem_remat_curve: a dnnmem_remat_spacing (0: even) */
  int32_t peak_only;        /* anneal with a budget, nonzero: the budget bounds the
                               peak only (no arena planned; result.arena -1) */
} dnnmem_remat_options;
/* Zero-initialised (or NULL) = defaults: annealing, no budget. With a
   budget, anneal's default bounds the planned arena (result.arena). */

typedef struct dnnmem_remat_result {
  int64_t peak;           /* maximum memory over the steps */
  int64_t time;           /* sum of times over the sequence */
  int32_t length;         /* steps (OUTPUT_TOO_SMALL: the capacity needed) */
  int32_t recomputations; /* length - num_nodes */
  int64_t moves;          /* annealing moves tried (anneal only) */
  int64_t accepted;       /* of which accepted */
  int64_t arena;          /* anneal with a budget (not peak_only): the arena of
                             the sequence planned with dnnmem_remat_arena_options
                             (>= peak); -1: not planned */
  dnnmem_error error;     /* on failure: the node, step or option at fault
                             (a cycle: a node on it; a sequence: the step) */
} dnnmem_remat_result;

DNNMEM_DEF dnnmem_result dnnmem_remat_solve_scratch_size(const dnnmem_remat_problem *problem,
                                                         const dnnmem_remat_options *options,
                                                         int32_t sequence_capacity,
                                                         size_t *out_bytes);
/* Scratch for dnnmem_remat_solve with these options (algo, max_group_size)
   and capacity. Anneal: about 1.8 KB per node for a capacity of 2 V, less
   with smaller groups; the baselines: O(V + E + capacity).
   DNNMEM_ERR_TOO_MANY (from the solve too) for anneal when the capacity
   passes 2^28 steps or V x 4 x max_group_size + E passes 2^31 - 1. */

DNNMEM_DEF dnnmem_result dnnmem_remat_solve(const dnnmem_remat_problem *problem,
                                            const dnnmem_remat_options *options,
                                            dnnmem_rng *rng, int32_t *sequence,
                                            int32_t sequence_capacity,
                                            dnnmem_remat_result *result, void *scratch,
                                            size_t scratch_bytes);
/* A sequence by options->algo into sequence[0 .. result->length). Anneal
   uses at most sequence_capacity steps (>= V; 2 V is plenty) and advances
   rng (required); the baselines ignore rng (may be NULL). With a budget,
   anneal bounds the arena: the sequence whose instances, planned by
   dnnmem_remat_plan with dnnmem_remat_arena_options, fit the budget
   (result->arena); options->peak_only bounds the peak instead, as the
   baselines do. DNNMEM_OK if there is no budget or the bounded quantity
   fits it, DNNMEM_ERR_INFEASIBLE if not (sequence and result are still
   written: the best found).
   DNNMEM_ERR_OUTPUT_TOO_SMALL when the sequence does not fit its capacity
   (result->length: the capacity needed; V for anneal). result is required
   (it holds the length). Errors for bad input: DNNMEM_ERR_CYCLE (error: a
   node on it), _NEGATIVE (the node, SIZE or TIME), _ID_RANGE (the node
   reading it, INPUT), _OVERFLOW (times * capacity), _INVALID_ARGUMENT (bad
   options: ALGO, BUDGET or OPTIONS). */

DNNMEM_DEF dnnmem_result dnnmem_remat_simulate_scratch_size(const dnnmem_remat_problem *problem,
                                                            const int32_t *sequence,
                                                            int32_t length, size_t *out_bytes);
/* Scratch for dnnmem_remat_simulate (sequence is not read; may be NULL). */

#define DNNMEM_REMAT_SIMULATE_SCRATCH_BYTES(num_nodes, length) \
  ((size_t)(num_nodes) * 4 + ((size_t)(length) + 1) * 12 + 64)
/* Enough scratch for dnnmem_remat_simulate (for static buffers). */

DNNMEM_DEF dnnmem_result dnnmem_remat_simulate(const dnnmem_remat_problem *problem,
                                               const int32_t *sequence, int32_t length,
                                               int64_t *profile, dnnmem_remat_result *result,
                                               void *scratch, size_t scratch_bytes);
/* Validates the problem and the sequence (DNNMEM_ERR_REMAT_MISSING_NODE:
   error.index the node; _INPUT_NOT_READY, _INPUT_REPEATED,
   DNNMEM_ERR_ID_RANGE: the step, field SEQUENCE) and computes, when
   not NULL, the memory at each of the length steps (profile) and the result
   (moves = accepted = 0). O(V + L + sum of in-degrees of the steps). */

typedef struct dnnmem_remat_bound_result {
  int64_t peak;       /* dnnmem_remat_lower_bound: no valid sequence's peak is lower */
  int64_t extra_time; /* dnnmem_remat_time_bound: no sequence within the budget
                         recomputes less (time - sum of all times) */
  int32_t cut;        /* the cut node that gave extra_time (-1: none, 0 extra) */
  dnnmem_error error; /* on failure: the node or option at fault */
} dnnmem_remat_bound_result;

DNNMEM_DEF dnnmem_result dnnmem_remat_lower_bound(const dnnmem_remat_problem *problem,
                                                  dnnmem_remat_bound_result *result);
/* result->peak (result required; the other fields zero, cut -1), a lower
   bound of every valid sequence's peak, no scratch:
   max(max over v of size(v) + sizes of its distinct inputs,
       sum of output sizes (all held at the last step)). */

DNNMEM_DEF dnnmem_result dnnmem_remat_time_bound_scratch_size(const dnnmem_remat_problem *problem,
                                                              const dnnmem_remat_options *options,
                                                              size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_remat_time_bound(const dnnmem_remat_problem *problem,
                                                 const dnnmem_remat_options *options,
                                                 dnnmem_remat_bound_result *result,
                                                 void *scratch, size_t scratch_bytes);
/* result->extra_time (result required; peak: dnnmem_remat_lower_bound's), a
   lower bound of the recomputation time (time - sum of all times) of
   every valid sequence whose peak fits options->budget; result->cut the
   cut node that gave it (-1: none, bound 0).
   options->bound_cuts candidate cuts (0: 16), the nodes whose steps hold
   the most memory in the row order. 0 when the row order fits or there
   is no budget (0). DNNMEM_ERR_INFEASIBLE (and INT64_MAX) for a budget below
   dnnmem_remat_lower_bound. About bound_cuts * 30 minimum cuts on 3 V + 2
   nodes and 9 V + 2 E arcs. */

DNNMEM_DEF dnnmem_result dnnmem_remat_group_order_scratch_size(const dnnmem_remat_problem *problem,
                                                               int32_t num_members,
                                                               int32_t max_states,
                                                               int32_t order_capacity,
                                                               size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_remat_group_order(const dnnmem_remat_problem *problem,
                                                  const int32_t *members, int32_t num_members,
                                                  int32_t max_states, int32_t *order,
                                                  int32_t order_capacity,
                                                  dnnmem_remat_result *result, void *scratch,
                                                  size_t scratch_bytes);
/* The exact minimum-peak order computing members[num_members - 1] (the
   target) from the other members (backward Dijkstra over held sets, see
   the manual): result->length steps in order[], result->peak (result
   required; its other fields zero). Inputs outside members are held
   outside and not counted; the target is held at the end. The order may
   compute a member twice. 1 <= num_members <= DNNMEM_REMAT_MAX_GROUP,
   distinct ids. The scratch size depends on max_states only (its query
   takes no members). DNNMEM_ERR_REMAT_STATE_LIMIT after max_states states
   (field LIMIT); DNNMEM_ERR_OUTPUT_TOO_SMALL when the order exceeds
   order_capacity (result->length: the length needed); a bad member:
   error.index its position in members[] (field MEMBER; a repeated one:
   other, the first), a self-loop: the node (INPUT). */

/* ---- recompute: the schedule's own arena -------------------------------- */

#define DNNMEM_REMAT_ARENA_WORK 8000000 /* exact search nodes x records per arena decision */
#define DNNMEM_REMAT_ARENA_MIN_NODES 1000

DNNMEM_DEF void dnnmem_remat_arena_options(int64_t budget, int32_t length,
                                           dnnmem_plan_options *out);
/* The plan options dnnmem_remat_solve plans a sequence of length steps
   with (pass them to dnnmem_remat_plan for the offsets of result.arena):
   the exact search (best under DNNMEM_NO_EXACT) asked whether the
   instances fit capacity = budget, with max(DNNMEM_REMAT_ARENA_MIN_NODES,
   DNNMEM_REMAT_ARENA_WORK / length) nodes (a node costs O(length)). */

typedef struct dnnmem_remat_plan_result {
  int64_t arena;   /* max(offset + size) over the instances; 0 for none */
  int64_t peak;    /* the sequence's peak (dnnmem_remat_simulate): the most
                      bytes held at one step, a lower bound of every arena */
  int64_t time;    /* the sequence's time */
  int32_t length;  /* instances planned (= steps) */
  int32_t optimal; /* 1: arena == plan.lower_bound (>= peak; equal to it
                      without alignment): no arena for these lifetimes is
                      smaller */
  dnnmem_plan_result plan; /* dnnmem_plan_solve's own result */
  dnnmem_error error;      /* on failure: the node or step at fault */
} dnnmem_remat_plan_result;

DNNMEM_DEF dnnmem_result dnnmem_remat_plan_scratch_size(const dnnmem_remat_problem *problem,
                                                        const dnnmem_plan_options *options,
                                                        const int32_t *sequence, int32_t length,
                                                        int64_t alignment, size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_remat_plan(const dnnmem_remat_problem *problem,
                                           const dnnmem_plan_options *options,
                                           const int32_t *sequence, int32_t length,
                                           int64_t alignment, dnnmem_interval *records,
                                           int64_t *offsets, dnnmem_remat_plan_result *result,
                                           void *scratch, size_t scratch_bytes);
/* The arena of a sequence: record j of records[length] is the instance
   computed at step j, held over [j, end + 1) where end is the last step
   whose use binds to it (j if none), length - 1 for the last instance of a
   graph output: exactly what dnnmem_remat_simulate counts, so the most
   bytes live at one step equals the sequence's peak. The records are
   planned by dnnmem_plan_solve (options passed through, NULL: best) with
   the plan's alignment (0 or 1: none) into offsets[length]. records is the
   caller's (length entries, required when length > 0); it receives the
   lifetimes once the sequence is validated, also when the plan's scratch
   then proves short (the size query reads only the length). The sequence is validated as by
   dnnmem_remat_simulate (its errors); dnnmem_plan_solve's errors pass
   through (DNNMEM_ERR_OVERFLOW when the instances' sizes sum past int64_t,
   DNNMEM_ERR_ALIGNMENT). result may be NULL. O(V + L + the steps'
   in-degrees) plus the plan's time; scratch: the simulator's plus
   dnnmem_plan_solve's for L records. */

/* ---- recompute: the memory / time trade-off curve ----------------------- */

typedef enum dnnmem_remat_spacing {
  DNNMEM_REMAT_SPACING_EVEN = 0,  /* budgets evenly spaced in bytes */
  DNNMEM_REMAT_SPACING_GEOMETRIC, /* budgets in a constant ratio */
  DNNMEM_REMAT_SPACING_COUNT
} dnnmem_remat_spacing;

DNNMEM_DEF const char *dnnmem_remat_spacing_name(dnnmem_remat_spacing spacing);
/* "even", "geometric"; NULL for a value out of range. */

DNNMEM_DEF dnnmem_result dnnmem_remat_spacing_parse(const char *name, dnnmem_remat_spacing *out);
/* The inverse of dnnmem_remat_spacing_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_remat_point {
  int64_t budget;           /* bytes: points[0] the row order's peak, the last
                               point dnnmem_remat_lower_bound, non-increasing */
  int64_t time;             /* the least time of the sequences found by any
                               point's run whose arena (peak_only: peak) fits
                               budget; -1: none */
  int64_t peak;             /* that sequence's peak (<= budget); -1: none */
  int64_t time_lower_bound; /* proven: no valid sequence with peak <= budget
                               takes less (the sum of all times plus the
                               largest dnnmem_remat_time_bound of this and
                               the larger budgets' points) */
  int64_t arena;            /* that sequence's planned arena (<= budget unless
                               peak_only; -1: none or not planned) */
  int64_t run_time;         /* this point's own run: its time, peak, arena */
  int64_t run_peak;
  int64_t run_arena;
  uint64_t seed;            /* the seed of this point's run */
  int32_t source;           /* the point whose run found time; -1: none */
} dnnmem_remat_point;

typedef struct dnnmem_remat_curve_result {
  int64_t base_peak;   /* the row order's peak and time (time: the sum of */
  int64_t base_time;   /* all node times) */
  int64_t lower_bound; /* dnnmem_remat_lower_bound */
  int32_t knee;        /* the knee point (manual), -1: none */
  int32_t points;      /* points written */
  int64_t moves;       /* annealing moves of all runs */
  dnnmem_error error;  /* on failure: the node or option at fault */
} dnnmem_remat_curve_result;

DNNMEM_DEF dnnmem_result dnnmem_remat_curve_scratch_size(const dnnmem_remat_problem *problem,
                                                         const dnnmem_remat_options *options,
                                                         int32_t sequence_capacity,
                                                         int32_t num_points, size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_remat_curve(const dnnmem_remat_problem *problem,
                                            const dnnmem_remat_options *options,
                                            dnnmem_rng *rng, int32_t sequence_capacity,
                                            dnnmem_remat_point *points, int32_t num_points,
                                            dnnmem_remat_curve_result *result, void *scratch,
                                            size_t scratch_bytes);
/* The memory / time trade-off: num_points (>= 1) budgets from the row
   order's peak down to dnnmem_remat_lower_bound, spaced by
   options->spacing; per point one dnnmem_remat_solve run (options with the
   point's budget; sequence_capacity as for solve) and
   dnnmem_remat_time_bound. Monotone by construction (the manual): more
   budget never shows more time, a higher bound, nor a smaller arena
   (points[k].arena <= points[k].budget unless peak_only). One value drawn from
   rng seeds the runs: point k's run uses dnnmem_rng_seed(seed + k)
   (points[k].seed). options->progress, when given, drives the whole
   curve: point k runs while it reports [k / N, (k + 1) / N) (N points);
   options->stop stops the current run and leaves the later ones their
   first candidate. Errors: those of solve and time_bound, and
   DNNMEM_ERR_INVALID_ARGUMENT for num_points < 1, a NULL points or result
   (required), a spacing out of range. Scratch: the solve's (for
   sequence_capacity) or the time bound's, whichever is larger, plus the
   sequence. */

#endif /* DNNMEM_NO_REMAT */

/* ==== 6. Layout arithmetic (dnnmem_layout_*) ============================= */

#ifndef DNNMEM_NO_LAYOUT

/* ---- layout arithmetic (TensorLayout) ------------------------------------ */

#define DNNMEM_LAYOUT_MAX_AXES 8
#define DNNMEM_LAYOUT_MAX_FACTORS 32 /* data + broadcast + implicit broadcast */
#define DNNMEM_LAYOUT_MAX_LEVELS 8
#define DNNMEM_LAYOUT_NAME_BYTES 16 /* level name up to 15 bytes + NUL */
#define DNNMEM_LAYOUT_TEXT_MAX 4096 /* bound on dnnmem_layout_print's length + 1 */

#define DNNMEM_LAYOUT_MEMORY (-1) /* dnnmem_layout_factor.level of a memory factor */
#define DNNMEM_LAYOUT_AUTO (-1)   /* dnnmem_layout_factor.stride: resolve by the rules */
#define DNNMEM_LAYOUT_ALL (-1)    /* forward map: a copy in every unit of this level */

/* dnnmem_layout_factor.flags */
#define DNNMEM_LAYOUT_ALL_UNITS 1 /* broadcast to every unit of the level (B@[PE]) */
#define DNNMEM_LAYOUT_IMPLICIT 2  /* added by dnnmem_layout_bind for a machine level the
                                     layout does not name; only in bound layouts; not printed */

typedef struct dnnmem_layout_factor {
  int64_t extent;   /* >= 1 (ignored with DNNMEM_LAYOUT_ALL_UNITS) */
  int64_t stride;   /* >= 0, or DNNMEM_LAYOUT_AUTO before dnnmem_layout_finish */
  int32_t level;    /* DNNMEM_LAYOUT_MEMORY or an index into level_names */
  int32_t axis;     /* set by dnnmem_layout_finish: logical axis, -1 for a broadcast */
  int32_t flags;    /* DNNMEM_LAYOUT_ALL_UNITS, DNNMEM_LAYOUT_IMPLICIT */
  int32_t position; /* byte offset in the parsed text (-1 when built in code) */
} dnnmem_layout_factor;
/* One factor. Data factors come first, grouped by axis, outer to inner;
   broadcast factors (axis -1) follow them. */

struct dnnmem__layout_step {
  int64_t stride, extent;
  int64_t place;      /* row-major place value in the position (0: broadcast) */
  int64_t axis_place; /* place value within its axis */
  int32_t axis;       /* -1 for a broadcast factor */
  int32_t shift;      /* log2(stride) when stride is a power of two, else -1 */
};
/* Private: the precomputed inverse steps embedded in dnnmem_layout. */

typedef struct dnnmem_layout {
  /* primary fields (filled by the parser, or by you before
     dnnmem_layout_finish) */
  int32_t num_axes;   /* 1 .. DNNMEM_LAYOUT_MAX_AXES */
  int32_t num_factors;
  int32_t num_levels; /* names in level_names[0 .. num_levels) */
  int32_t bound;      /* 1: level_extent holds a machine's extents */
  int32_t axis_first[DNNMEM_LAYOUT_MAX_AXES + 1]; /* axis a: factors [axis_first[a], axis_first[a+1]) */
  int64_t unpadded[DNNMEM_LAYOUT_MAX_AXES];       /* logical shape; 0 = the layout's shape */
  dnnmem_layout_factor factors[DNNMEM_LAYOUT_MAX_FACTORS];
  char level_names[DNNMEM_LAYOUT_MAX_LEVELS][DNNMEM_LAYOUT_NAME_BYTES];
  int64_t level_extent[DNNMEM_LAYOUT_MAX_LEVELS]; /* with bound: the machine's */
  /* derived by dnnmem_layout_finish (read them, do not write them) */
  int64_t shape[DNNMEM_LAYOUT_MAX_AXES]; /* padded shape: product of the axis's extents */
  int64_t size;        /* logical elements: product of unpadded */
  int64_t padded_size; /* positions: product of shape */
  int64_t cosize;      /* per-unit footprint: largest address + 1 */
  int64_t replicas;    /* copies of each element (0: unknown, needs a machine) */
  int64_t level_span[DNNMEM_LAYOUT_MAX_LEVELS];  /* largest unit coordinate + 1 */
  int64_t level_parts[DNNMEM_LAYOUT_MAX_LEVELS]; /* product of data extents on the level */
  int32_t level_all[DNNMEM_LAYOUT_MAX_LEVELS];   /* 1: broadcast to every unit */
  int32_t has_padding;
  int32_t num_active; /* data factors of extent > 1, for the odometer */
  int32_t active[DNNMEM_LAYOUT_MAX_FACTORS];
  int32_t space_first[DNNMEM_LAYOUT_MAX_LEVELS + 2]; /* steps of space s (0 memory, 1+level) */
  struct dnnmem__layout_step steps[DNNMEM_LAYOUT_MAX_FACTORS]; /* private */
} dnnmem_layout;
/* A parsed layout, entirely in caller memory. Copyable with memcpy. */

typedef struct dnnmem_layout_machine {
  int32_t num_levels; /* outermost first */
  char names[DNNMEM_LAYOUT_MAX_LEVELS][DNNMEM_LAYOUT_NAME_BYTES];
  int64_t extents[DNNMEM_LAYOUT_MAX_LEVELS]; /* units of the level inside one parent */
} dnnmem_layout_machine;
/* A machine description: MN-Core's board is L2B=16,L1B=8,MAB=16,PE=4. */

typedef enum dnnmem_layout_slot {
  DNNMEM_LAYOUT_SLOT_ELEMENT = 0, /* a logical element */
  DNNMEM_LAYOUT_SLOT_PAD = 1,     /* a padded position */
  DNNMEM_LAYOUT_SLOT_UNUSED = 2   /* nothing (a hole, or a unit without a copy) */
} dnnmem_layout_slot;
/* What one (units, address) slot holds: the answer of the inverse maps. */

typedef struct dnnmem_layout_result {
  int64_t size, padded_size, cosize;
  int64_t units;          /* local memories: product of the level extents (spans if unbound) */
  int64_t replicas;       /* copies of each position */
  int64_t slots;          /* occupied slots: padded_size * replicas */
  int64_t padding_slots;  /* (padded_size - size) * replicas */
  int64_t capacity;       /* units * cosize */
  int64_t unused_slots;   /* capacity - slots */
  int64_t level_extent[DNNMEM_LAYOUT_MAX_LEVELS]; /* units of each level */
  int64_t level_parts[DNNMEM_LAYOUT_MAX_LEVELS];  /* pieces along the level */
  int64_t level_share[DNNMEM_LAYOUT_MAX_LEVELS];  /* positions one unit holds
                                                     with the levels after it */
  dnnmem_error error;     /* {-1, NONE}: measuring fails only on its arguments */
} dnnmem_layout_result;
/* Sizes of a layout (dnnmem_layout_measure). */

typedef struct dnnmem_layout_run {
  int64_t element; /* row-major index in the unpadded logical tensor */
  int64_t address; /* local address of the first element */
  int64_t length;  /* elements at consecutive indices and addresses */
} dnnmem_layout_run;
/* One contiguous run of a unit's memory (a DMA descriptor). */

typedef struct dnnmem_layout_strided {
  int32_t rank; /* 0 .. DNNMEM_LAYOUT_MAX_FACTORS; rank 0 maps 0 -> 0 */
  int64_t shape[DNNMEM_LAYOUT_MAX_FACTORS];  /* >= 1, outer to inner */
  int64_t stride[DNNMEM_LAYOUT_MAX_FACTORS]; /* >= 0 */
} dnnmem_layout_strided;
/* A strided layout (A:a, B:b, ...), row-major: the last mode is fastest. */

DNNMEM_DEF dnnmem_result dnnmem_layout_parse(const char *text, size_t length,
                                             dnnmem_layout *out,
                                             int64_t *error_position);
/* Parses TensorLayout text (see the manual) into *out and finishes it.
   On error *error_position (may be NULL) gets the byte offset of the
   offending token or factor. O(length + factors^2). */

DNNMEM_DEF dnnmem_result dnnmem_layout_finish(dnnmem_layout *layout, dnnmem_error *error);
/* Validates the primary fields of a layout built in code (or re-finishes a
   parsed one), resolves DNNMEM_LAYOUT_AUTO strides and computes the derived
   fields. Unpadded entries 0 mean "no padding on this axis". Every level
   must be used by some factor (DNNMEM_ERR_INVALID_ARGUMENT) and named as
   the notation writes it, a letter then letters, digits or '_'
   (DNNMEM_ERR_PARSE; DNNMEM_ERR_LAYOUT_LIMIT without a NUL in 16 bytes);
   DNNMEM_LAYOUT_IMPLICIT factors only in a bound layout. So every layout
   it accepts prints to text that parses back to an equal layout (after
   binding to the same machine when bound). */

DNNMEM_DEF dnnmem_result dnnmem_layout_machine_parse(const char *text, size_t length,
                                                     dnnmem_layout_machine *out,
                                                     int64_t *error_position);
/* "L2B=16,L1B=8,MAB=16,PE=4": names and extents >= 1, outermost first. */

DNNMEM_DEF dnnmem_result dnnmem_layout_bind(dnnmem_layout *layout,
                                            const dnnmem_layout_machine *machine,
                                            dnnmem_error *error);
/* Validates the layout against the machine (every level known, every unit
   coordinate below the level's extent), orders its levels as the
   machine's, adds the unused machine levels as implicit broadcasts and
   gives B@[LEVEL] its count. The layout is unchanged on error. */

DNNMEM_DEF dnnmem_result dnnmem_layout_print(const dnnmem_layout *layout, char *buffer,
                                             int32_t capacity, int32_t *out_length);
/* Canonical text: "(10,7)/((3:7, 4_PE), (7:1); B@[MAB])". Memory strides
   always written, level strides when the level is used more than once or
   the stride is not 1, the prefix when some axis is padded. Parsing it
   gives the same layout. *out_length (may be NULL) gets the length without
   the NUL; DNNMEM_ERR_OUTPUT_TOO_SMALL if capacity <= length (then the
   buffer holds a truncated, NUL-terminated prefix and *out_length still
   the full length). The length is always below DNNMEM_LAYOUT_TEXT_MAX. */

DNNMEM_DEF int dnnmem_layout_equal(const dnnmem_layout *a, const dnnmem_layout *b);
/* 1 when both map every index the same way (same shapes, same units by level
   name, same addresses, same copies), else 0. O(factors^2). */

DNNMEM_DEF int32_t dnnmem_layout_level_index(const dnnmem_layout *layout, const char *name);
/* The index of a level by name, or -1. */

DNNMEM_DEF dnnmem_result dnnmem_layout_position(const dnnmem_layout *layout,
                                                const int64_t *index, int64_t *position);
DNNMEM_DEF dnnmem_result dnnmem_layout_index(const dnnmem_layout *layout, int64_t position,
                                             int64_t *index);
/* Row-major position in the (padded) shape <-> index[num_axes]. */

DNNMEM_DEF dnnmem_result dnnmem_layout_forward(const dnnmem_layout *layout,
                                               const int64_t *index, int64_t *units,
                                               int64_t *address, uint8_t *is_padding);
/* index[num_axes] (inside the padded shape) -> units[num_levels] (the
   coordinate of copy 0 at each level, DNNMEM_LAYOUT_ALL for a level
   broadcast to all units), *address, *is_padding (1 for a padded
   position). Outputs may be NULL. O(factors). */

DNNMEM_DEF dnnmem_result dnnmem_layout_forward_range(const dnnmem_layout *layout,
                                                     int64_t first, int64_t count,
                                                     int64_t *units, int64_t *addresses);
/* The batch forward map over positions [first, first + count):
   units[e * num_levels + l] and addresses[e] for element e (either array may
   be NULL). Odometer: amortised O(1) per element plus the writes. */

DNNMEM_DEF dnnmem_result dnnmem_layout_replica_offset(const dnnmem_layout *layout,
                                                      int64_t replica, int64_t *offsets);
/* Copy number replica (0 .. replicas-1, row-major over the broadcast factors)
   sits at units[l] + offsets[l] (a DNNMEM_LAYOUT_ALL unit read as 0).
   Needs known replicas (a bound layout when B@[LEVEL] is used). */

DNNMEM_DEF dnnmem_result dnnmem_layout_inverse(const dnnmem_layout *layout,
                                               const int64_t *units, int64_t address,
                                               int64_t *index, dnnmem_layout_slot *slot);
/* (units[num_levels], address) -> what the slot holds: SLOT_ELEMENT or
   SLOT_PAD with index[num_axes] (may be NULL), or SLOT_UNUSED.
   Coordinates outside the machine or negative are SLOT_UNUSED. O(factors). */

DNNMEM_DEF dnnmem_result dnnmem_layout_inverse_batch(const dnnmem_layout *layout,
                                                     int64_t count, const int64_t *units,
                                                     const int64_t *addresses,
                                                     int64_t *positions, uint8_t *slots);
/* Inverse map of count slots (units[e * num_levels + l], addresses[e]):
   slots[e] = what the slot holds (a dnnmem_layout_slot value) and
   positions[e] = the position held (padded ones too), -1 for
   DNNMEM_LAYOUT_SLOT_UNUSED. Either output may be NULL. */

DNNMEM_DEF dnnmem_result dnnmem_layout_measure(const dnnmem_layout *layout,
                                               dnnmem_layout_result *result);
/* Sizes; see dnnmem_layout_result. DNNMEM_ERR_LAYOUT_NEEDS_MACHINE when a
   B@[LEVEL] count is unknown (bind first); DNNMEM_ERR_OVERFLOW. */

DNNMEM_DEF dnnmem_result dnnmem_layout_runs(const dnnmem_layout *layout, const int64_t *units,
                                            dnnmem_layout_run *runs, int32_t capacity,
                                            int32_t *out_count);
/* The maximal contiguous runs held by the unit units[num_levels], in element
   order (padding excluded). *out_count = the number of runs; when it exceeds
   capacity the first capacity runs are written and the answer is
   DNNMEM_ERR_OUTPUT_TOO_SMALL (call with capacity 0 to count);
   DNNMEM_ERR_TOO_MANY past 2^31 - 1 runs. A unit holding no copy has 0
   runs. O(positions in the unit * axes). */

DNNMEM_DEF dnnmem_result dnnmem_layout_part(const dnnmem_layout *layout, int32_t level,
                                            dnnmem_layout_strided *out);
/* The factors of one space as a strided layout, in text order: level
   DNNMEM_LAYOUT_MEMORY for the memory part (what the algebra works on), or a
   level index for the unit part. Broadcast factors are not included. */

typedef struct dnnmem_layout_conversion {
  int64_t elements; /* logical elements of the tensor */
  int64_t copies;   /* element copies the target layout holds: elements * its replicas */
  int64_t kept;     /* copies already in place: a source copy on that unit, same address */
  int64_t local;    /* copies whose unit holds a source copy at another address */
  int64_t moved;    /* copies whose unit holds no source copy: they change unit */
  int64_t runs;     /* DMA runs writing the local and moved copies (see below) */
} dnnmem_layout_conversion;
/* What converting a tensor from one layout to another moves
   (dnnmem_layout_convert). */

DNNMEM_DEF dnnmem_result dnnmem_layout_convert_scratch_size(const dnnmem_layout *from,
                                                            const dnnmem_layout *to,
                                                            size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_layout_convert(const dnnmem_layout *from, const dnnmem_layout *to,
                                               dnnmem_layout_conversion *result, void *scratch,
                                               size_t scratch_bytes);
/* Converting one tensor from layout from to layout to (the same logical
   shape, the same levels in the same order: bound to one machine, or
   unbound with the same level names; to's replicas known). Every copy of
   every element in to is kept (a copy of it in from sits on that unit at
   that address), local (on that unit at another address) or moved (no
   copy on that unit: it changes unit, read from from's copy 0). Runs: for
   each unit of to, its maximal runs of consecutive elements at
   consecutive addresses (dnnmem_layout_runs), split wherever a copy is
   kept or the next one is read from another unit or a non-consecutive
   source address: one DMA descriptor each. O(capacity of to * factors);
   scratch: to's cosize runs (24 bytes each). DNNMEM_ERR_INVALID_ARGUMENT
   for different shapes or levels, DNNMEM_ERR_LAYOUT_NEEDS_MACHINE,
   DNNMEM_ERR_OVERFLOW. */

DNNMEM_DEF dnnmem_result dnnmem_layout_strided_check(const dnnmem_layout_strided *layout,
                                                     dnnmem_error *error);
/* rank in range, shapes >= 1, strides >= 0, size and cosize in int64_t;
   error (may be NULL): the mode at fault, field EXTENT or STRIDE (a rank
   out of range: index -1, field COUNT). */
DNNMEM_DEF int64_t dnnmem_layout_strided_size(const dnnmem_layout_strided *layout);
/* The product of the shape (assumes a checked layout). */
DNNMEM_DEF int64_t dnnmem_layout_strided_eval(const dnnmem_layout_strided *layout, int64_t x);
/* L(x), x >= 0, the outermost mode unbounded. Assumes a checked layout and
   no overflow (x < size is always safe). */

DNNMEM_DEF dnnmem_result dnnmem_layout_coalesce(const dnnmem_layout_strided *in,
                                                dnnmem_layout_strided *out);
DNNMEM_DEF dnnmem_result dnnmem_layout_compose(const dnnmem_layout_strided *a,
                                               const dnnmem_layout_strided *b,
                                               dnnmem_layout_strided *out);
DNNMEM_DEF dnnmem_result dnnmem_layout_complement(const dnnmem_layout_strided *a,
                                                  int64_t cosize_target,
                                                  dnnmem_layout_strided *out);
DNNMEM_DEF dnnmem_result dnnmem_layout_right_inverse(const dnnmem_layout_strided *a,
                                                     dnnmem_layout_strided *out);
DNNMEM_DEF dnnmem_result dnnmem_layout_reshape_view(const dnnmem_layout_strided *in, int32_t rank,
                                                    const int64_t *shape,
                                                    dnnmem_layout_strided *out);
/* The CuTe-style algebra on strided layouts (definitions in the manual).
   All O(rank^2), no scratch; *out may alias an input. */



#endif /* DNNMEM_NO_LAYOUT */

/* ==== 7. Max flow and min cut (dnnmem_flow_*) ============================ */

#ifndef DNNMEM_NO_FLOW

/* ---- max flow / min cut ------------------------------------------------- */

struct dnnmem__flow_input;
struct dnnmem__flow_half;
struct dnnmem__flow_bk_node;

typedef enum dnnmem_flow_algo {
  DNNMEM_FLOW_BK = 0,       /* Boykov-Kolmogorov (the default) */
  DNNMEM_FLOW_PUSH_RELABEL, /* highest-label push-relabel, global relabel + gap */
  DNNMEM_FLOW_ALGO_COUNT
} dnnmem_flow_algo;

DNNMEM_DEF const char *dnnmem_flow_algo_name(dnnmem_flow_algo algo);
/* "bk", "pr"; NULL for a value out of range. */

DNNMEM_DEF dnnmem_result dnnmem_flow_algo_parse(const char *name, dnnmem_flow_algo *out);
/* The inverse of dnnmem_flow_algo_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_flow_options {
  dnnmem_flow_algo algo; /* 0: DNNMEM_FLOW_BK */
  int32_t cut_only;      /* nonzero: the value and the minimum cut only
                            (faster with BK: terminal arcs summed per node,
                            nodes with at most two neighbours minimised
                            out first, no flows written back;
                            dnnmem_flow_arc_flow answers 0) */
} dnnmem_flow_options;
/* Zeroed (or a NULL pointer): Boykov-Kolmogorov, flows on every arc. */

typedef struct dnnmem_flow_result {
  int64_t value;      /* the maximum flow's value */
  dnnmem_error error; /* on failure: the argument (source, sink, algo) or,
                         for capacities out of int64_t, the arc at fault */
} dnnmem_flow_result;

typedef struct dnnmem_flow {
  int32_t num_nodes, max_arcs, num_arcs;
  int32_t source, sink; /* of the last successful solve; -1 before */
  int64_t value;        /* flow value of the last successful solve */
  /* private: arrays carved from the caller's scratch */
  struct dnnmem__flow_input *input;   /* arcs as added */
  struct dnnmem__flow_half *half;     /* half-arcs grouped by tail */
  int32_t *first, *mid, *arc_half;    /* CSR ranges; forward half of an arc */
  int32_t *arc_work;                  /* 2 per arc: position map, then flow */
  int32_t merged;                     /* parallel arcs or self-loops merged: flows in arc_work */
  int32_t cut_only;                   /* the last solve wrote no arc flows */
  struct dnnmem__flow_bk_node *bk;    /* BK per-node state */
  int32_t *queue, *queue2;            /* FIFOs, CSR fill cursors */
  int64_t *excess;                    /* push-relabel */
  int32_t *label, *current, *active_next, *active_head;
  int32_t *bucket_next, *bucket_prev, *bucket_head;
  uint8_t *source_side;
} dnnmem_flow;
/* A max-flow network with up to max_arcs arc pairs. Lives in caller memory;
   its arrays live in the scratch given to dnnmem_flow_init, which must
   stay valid while the network is used. Read num_nodes, num_arcs, value;
   the rest is private. */

#define DNNMEM_FLOW_SCRATCH_BYTES(num_nodes, max_arcs) \
  ((size_t)(num_nodes) * 88u + (size_t)(max_arcs) * 68u + 512u)
/* An upper bound of dnnmem_flow_scratch_size for static buffers. */

DNNMEM_DEF dnnmem_result dnnmem_flow_scratch_size(int32_t num_nodes, int32_t max_arcs,
                                                  size_t *out_bytes);
/* Scratch bytes for a network of num_nodes >= 2 nodes and max_arcs >= 0
   arc pairs (max_arcs <= INT32_MAX / 2 - 1). */

DNNMEM_DEF dnnmem_result dnnmem_flow_init(dnnmem_flow *flow, int32_t num_nodes, int32_t max_arcs,
                                          void *scratch, size_t scratch_bytes);
/* Makes an empty network (no arcs) in the scratch. */

DNNMEM_DEF dnnmem_result dnnmem_flow_add_arc(dnnmem_flow *flow, int32_t from, int32_t to,
                                             int64_t capacity, int64_t reverse_capacity,
                                             int32_t *out_arc);
/* Adds the arc from->to with `capacity` and to->from with
   `reverse_capacity` (both >= 0; their sum must fit in int64_t). Its id
   (0, 1, ... in order of addition) goes to *out_arc when not NULL.
   Parallel arcs and self-loops are allowed. DNNMEM_ERR_FLOW_FULL past
   max_arcs. O(1). */

DNNMEM_DEF dnnmem_result dnnmem_flow_solve(dnnmem_flow *flow, int32_t source, int32_t sink,
                                           const dnnmem_flow_options *options,
                                           dnnmem_flow_result *result);
/* Computes a maximum flow from source to sink (distinct ids) with
   options->algo, and the minimum cut; result (may be NULL) receives the
   flow value. DNNMEM_ERR_INVALID_ARGUMENT for an unknown algo.
   DNNMEM_ERR_OVERFLOW when the capacities leaving the source sum past
   INT64_MAX. Restarts from the capacities each time. */

DNNMEM_DEF int64_t dnnmem_flow_arc_flow(const dnnmem_flow *flow, int32_t arc);
/* Net flow from -> to on an added arc after a successful solve (negative
   when it runs to -> from); 0 for an unknown arc or before solving. */

DNNMEM_DEF dnnmem_result dnnmem_flow_arc(const dnnmem_flow *flow, int32_t arc, int32_t *out_from,
                                         int32_t *out_to, int64_t *out_capacity,
                                         int64_t *out_reverse_capacity);
/* The arc as added (to export a network, e.g. as DIMACS). Any output
   pointer may be NULL. DNNMEM_ERR_ID_RANGE for an unknown arc. */

DNNMEM_DEF int dnnmem_flow_source_side(const dnnmem_flow *flow, int32_t node);
/* 1 when node is on the source side of the minimum cut found by the last
   successful solve (reachable from the source in the residual network),
   else 0 (also for unknown nodes or before solving). */



#endif /* DNNMEM_NO_FLOW */

/* ==== 8. Placement (dnnmem_place_*) ====================================== */

#ifndef DNNMEM_NO_PLACE

/* ---- CPU/accelerator placement ----------------------------------------- */

#define DNNMEM_PLACE_ANY 0 /* device: free (the cut decides) */
#define DNNMEM_PLACE_CPU 1 /* device: pinned to / placed on the CPU */
#define DNNMEM_PLACE_ACC 2 /* device: pinned to / placed on the accelerator */
#define DNNMEM_PLACE_UNSUPPORTED (-1) /* cpu_time / acc_time: cannot run there */

typedef enum dnnmem_place_model {
  DNNMEM_PLACE_PER_VALUE = 0, /* default: a value is converted once */
  DNNMEM_PLACE_PER_EDGE,      /* onnx-mlir's cost graph: once per consumer pair */
  DNNMEM_PLACE_MODEL_COUNT
} dnnmem_place_model;

DNNMEM_DEF const char *dnnmem_place_model_name(dnnmem_place_model model);
/* "per-value", "per-edge"; NULL for a value out of range. */

DNNMEM_DEF dnnmem_result dnnmem_place_model_parse(const char *name, dnnmem_place_model *out);
/* The inverse of dnnmem_place_model_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_place_problem {
  const dnnmem_graph *graph;  /* DAG (any numbering); node v's inputs */
  const int64_t *cpu_time;    /* >= 0, or DNNMEM_PLACE_UNSUPPORTED */
  const int64_t *acc_time;    /* >= 0, or DNNMEM_PLACE_UNSUPPORTED */
  const int64_t *xfer;        /* >= 0: converting v's output once */
  const uint8_t *device;      /* DNNMEM_PLACE_ANY/CPU/ACC; NULL: all free */
  const uint8_t *is_output;   /* 1 for a graph output; NULL: none */
} dnnmem_place_problem;
/* Per-node arrays of graph->num_nodes entries. The sum over all nodes of
   the finite times plus twice xfer must fit in int64_t. */

typedef struct dnnmem_place_options {
  dnnmem_place_model model; /* 0: DNNMEM_PLACE_PER_VALUE */
  dnnmem_flow_algo algo;    /* 0: Boykov-Kolmogorov */
} dnnmem_place_options;
/* Zeroed (or a NULL pointer): once per value, Boykov-Kolmogorov. */

typedef struct dnnmem_place_result {
  int64_t time;         /* the optimum total time */
  int64_t all_acc_time; /* every op the accelerator supports on it */
  int64_t greedy_time;  /* each op on its faster device (ties: CPU) */
  int64_t all_cpu_time; /* every op the CPU supports on it */
  int64_t cut;          /* minimum cut value; time = constant + cut */
  int32_t conversions;  /* values converted in the optimum */
  int32_t num_cpu, num_acc; /* ops on each device in the optimum */
  int32_t num_free;     /* ops decided by the cut (neither pinned nor forced) */
  int32_t num_parts;    /* independent parts the free ops form */
  int32_t flow_nodes, flow_arcs; /* size of the network solved */
  dnnmem_error error;   /* on failure: the node and field at fault (a
                           cycle: a node on it) */
} dnnmem_place_result;

DNNMEM_DEF dnnmem_result dnnmem_place_solve_scratch_size(const dnnmem_place_problem *problem,
                                                         const dnnmem_place_options *options,
                                                         size_t *out_bytes);
/* Scratch for dnnmem_place_solve: O(V + E), reads the graph's counts only
   (the per-node arrays may still be NULL). */

#define DNNMEM_PLACE_SCRATCH_BYTES(num_nodes, num_edges) \
  ((size_t)(num_nodes) * 528u + (size_t)(num_edges) * 304u + 2048u)
/* An upper bound of the solve's and the network's scratch for a graph of
   num_nodes nodes and num_edges input entries (static buffers). */

DNNMEM_DEF dnnmem_result dnnmem_place_solve(const dnnmem_place_problem *problem,
                                            const dnnmem_place_options *options,
                                            uint8_t *device, dnnmem_place_result *result,
                                            void *scratch, size_t scratch_bytes);
/* The optimal placement: device[v] = DNNMEM_PLACE_CPU or _ACC for every
   node, *result (required) the optimum, the baselines and statistics.
   options may be NULL (defaults). Errors: DNNMEM_ERR_NEGATIVE (a time or
   xfer below 0 other than UNSUPPORTED), DNNMEM_ERR_PLACE_UNSUPPORTED,
   DNNMEM_ERR_CYCLE, DNNMEM_ERR_ID_RANGE / INVALID_ARGUMENT (bad graph or
   device code), DNNMEM_ERR_OVERFLOW; result->error names the node (TIME,
   SIZE for xfer, PIN, INPUT; a cycle: a node on it). */

DNNMEM_DEF dnnmem_result dnnmem_place_network_scratch_size(const dnnmem_place_problem *problem,
                                                           const dnnmem_place_options *options,
                                                           size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_place_network(const dnnmem_place_problem *problem,
                                              const dnnmem_place_options *options,
                                              dnnmem_flow *out_flow, dnnmem_place_result *result,
                                              void *scratch, size_t scratch_bytes);
/* Builds, without solving, the network dnnmem_place_solve cuts (its
   scratch is the solve's size): node 0 = CPU (source), 1 =
   accelerator (sink), 2.. the free ops in id order, then auxiliary nodes.
   result (required): time, the constant (a cut of value c is an
   assignment of time + c: optimum = time + minimum cut), num_free,
   flow_nodes, flow_arcs; its other fields zero; the solve's errors, named
   as there. Public so that the cut can be
   solved elsewhere: another max-flow solver (a GPU one, or one already in
   your runtime), the network read arc by arc with dnnmem_flow_arc. Room
   for arcs of your own is not promised (dnnmem_flow_add_arc may answer
   DNNMEM_ERR_FLOW_FULL): a constraint goes into the problem (a pin:
   problem->device).
   The scratch must outlive *out_flow. */

DNNMEM_DEF dnnmem_result dnnmem_place_cost_scratch_size(const dnnmem_place_problem *problem,
                                                        const dnnmem_place_options *options,
                                                        size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_place_cost(const dnnmem_place_problem *problem,
                                           const dnnmem_place_options *options,
                                           const uint8_t *device, dnnmem_place_result *result,
                                           void *scratch, size_t scratch_bytes);
/* result->time, the total time of any assignment device[v]
   (DNNMEM_PLACE_CPU/ACC per node) under options->model (options->algo is
   not used), and result->conversions (result required; its other fields
   zero); 4 bytes of scratch per node. DNNMEM_ERR_INFEASIBLE when it runs
   an op where it is unsupported or against its pin (error.index: the
   node). O(V + E); the graph need not be acyclic here. */


#endif /* DNNMEM_NO_PLACE */

/* ==== 9. Labeling (dnnmem_label_*) ======================================= */

#ifndef DNNMEM_NO_LABEL

/* ---- labeling: one label per node, costs per node and per converted value - */

#define DNNMEM_LABEL_UNSUPPORTED (-1) /* node_cost: the node cannot take this label */
#define DNNMEM_LABEL_FREE (-1)        /* pin / output_label: no constraint */
#define DNNMEM_LABEL_MAX_LABELS 256   /* num_labels is 1 .. this */
#define DNNMEM_LABEL_AUTO_EXACT_OPS 20 /* auto: branch and bound up to this many
                                          ops with a choice, when the bound
                                          does not meet the answer */
#define DNNMEM_LABEL_DUAL_SWEEPS 200   /* default options.max_sweeps */
#ifndef DNNMEM_LABEL_FACTOR_BITS
#define DNNMEM_LABEL_FACTOR_BITS 10    /* the dual bound minimises a value's factor
                                          exactly over up to this many labels */
#endif
#if DNNMEM_LABEL_FACTOR_BITS < 1 || DNNMEM_LABEL_FACTOR_BITS > 16
#error "dnnmem.h: DNNMEM_LABEL_FACTOR_BITS must be 1 .. 16"
#endif

typedef enum dnnmem_label_algo {
  DNNMEM_LABEL_AUTO = 0,  /* k <= 2: min cut; else expansion, then branch and
                             bound when at most DNNMEM_LABEL_AUTO_EXACT_OPS
                             ops have a choice and a gap remains */
  DNNMEM_LABEL_EXACT,     /* k <= 2: min cut; else expansion, then branch and
                             bound until proven or options.node_limit */
  DNNMEM_LABEL_EXPANSION, /* k <= 2: min cut; else alpha-expansion only */
  DNNMEM_LABEL_ALGO_COUNT
} dnnmem_label_algo;

DNNMEM_DEF const char *dnnmem_label_algo_name(dnnmem_label_algo algo);
/* "auto", "exact", "expansion"; NULL for a value out of range. */
DNNMEM_DEF dnnmem_result dnnmem_label_algo_parse(const char *name, dnnmem_label_algo *out);
/* The inverse of dnnmem_label_algo_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef enum dnnmem_label_stop {
  DNNMEM_LABEL_STOP_NONE = 0, /* expansion ended at a local optimum, not proven */
  DNNMEM_LABEL_STOP_PROVED,   /* cost == lower_bound (min cut, bound met, or the
                                 branch and bound finished) */
  DNNMEM_LABEL_STOP_NODES,    /* the branch and bound used options.node_limit */
  DNNMEM_LABEL_STOP_TIME,     /* options.stop returned nonzero */
  DNNMEM_LABEL_STOP_COUNT
} dnnmem_label_stop;

DNNMEM_DEF const char *dnnmem_label_stop_name(dnnmem_label_stop stop);
/* "none", "proved", "nodes", "time"; NULL for a value out of range. */
DNNMEM_DEF dnnmem_result dnnmem_label_stop_parse(const char *name, dnnmem_label_stop *out);
/* The inverse of dnnmem_label_stop_name; DNNMEM_ERR_PARSE for an unknown name. */

typedef struct dnnmem_label_problem {
  const dnnmem_graph *graph;     /* node v's inputs (any graph; cycles allowed) */
  int32_t num_labels;            /* k, 1 .. DNNMEM_LABEL_MAX_LABELS */
  const int64_t *node_cost;      /* [V * k]: node v on label l at [v * k + l];
                                    >= 0 or DNNMEM_LABEL_UNSUPPORTED */
  const int64_t *convert;        /* [V * k * k] or NULL: converting value u from
                                    label a to b costs [(u * k + a) * k + b] */
  const int64_t *convert_size;   /* [V] or NULL (1 each): without convert, */
  const int64_t *convert_rate;   /* [k * k] or NULL (0):   u from a to b costs */
  const int64_t *convert_latency; /* [k * k] or NULL (0):  size[u] * rate[a * k + b]
                                                            + latency[a * k + b] */
  const int32_t *pin;            /* [V] or NULL: DNNMEM_LABEL_FREE or the label v must take */
  const int32_t *output_label;   /* [V] or NULL: DNNMEM_LABEL_FREE, or the label
                                    value v must also be delivered on (a graph output) */
} dnnmem_label_problem;
/* Cost of a labeling x = sum of node_cost[v][x_v] + for every value u and
   every distinct label b != x_u among its consumers' labels (and its
   output_label), the conversion of u from x_u to b: once per (value,
   destination label), however many consumers read it there. Diagonal
   conversion entries are never charged. Every cost is >= 0; the sum over
   nodes of their largest finite cost plus (k - 1) times their largest
   conversion must fit in int64_t (DNNMEM_ERR_OVERFLOW). */

typedef struct dnnmem_label_options {
  dnnmem_label_algo algo;   /* 0: DNNMEM_LABEL_AUTO */
  dnnmem_flow_algo flow;    /* max-flow algorithm of every min cut; 0: BK */
  int64_t node_limit;       /* branch-and-bound nodes; 0: 1,000,000 */
  int32_t max_cycles;       /* expansion cycles over all labels; 0: until no
                               move improves */
  dnnmem_stop_fn stop;      /* NULL, or "stop now?" (checked between moves,
                               dual sweeps and every 1024 branch-and-bound
                               nodes) */
  void *stop_user;
  int32_t max_sweeps;       /* k > 2: dual ascent sweeps of the lower bound;
                               0: DNNMEM_LABEL_DUAL_SWEEPS (fewer when the
                               bound meets the answer or stalls) */
} dnnmem_label_options;
/* Zeroed (or a NULL pointer): auto, Boykov-Kolmogorov, the limits above. */

typedef struct dnnmem_label_result {
  int64_t cost;             /* the labeling's cost, recounted by dnnmem_label_cost's rules */
  int64_t lower_bound;      /* proven: no labeling costs less */
  int64_t gap;              /* cost - lower_bound (0: optimal) */
  int32_t optimal;          /* 1 when gap == 0 */
  dnnmem_label_algo algo;   /* the algorithm that ran (never AUTO) */
  dnnmem_label_stop stop;   /* why the search ended */
  int64_t nodes;            /* branch-and-bound nodes */
  int32_t moves;            /* min cuts solved by the expansion (k <= 2: 1) */
  int32_t improving_moves;  /* of those, the ones that lowered the cost */
  int32_t cycles;           /* expansion cycles over the labels */
  int32_t approximated;     /* non-submodular terms bounded from above in all moves */
  int32_t num_free;         /* nodes with more than one allowed label */
  int64_t initial_cost;     /* every node on its cheapest allowed label */
  int32_t flow_nodes, flow_arcs; /* the largest network solved */
  int32_t sweeps;           /* dual ascent sweeps of the bound (k > 2) */
  int64_t merged_bound;     /* the merged-label bound alone (k > 2) */
  int64_t dual_bound;       /* the Lagrangian dual bound alone (k > 2; 0: not run) */
  dnnmem_error error;       /* on failure: the node and field at fault */
} dnnmem_label_result;

DNNMEM_DEF dnnmem_result dnnmem_label_solve_scratch_size(const dnnmem_label_problem *problem,
                                                         const dnnmem_label_options *options,
                                                         size_t *out_bytes);
/* Scratch for dnnmem_label_solve: O(V + E + k), reads the graph and k only
   (the cost arrays may still be NULL). At most
   DNNMEM_LABEL_SCRATCH_BYTES(V, E, k). */

#define DNNMEM_LABEL_SCRATCH_BYTES(num_nodes, num_edges, num_labels)                     \
  ((size_t)(num_nodes) * 320u + (size_t)(num_edges) * 320u + (size_t)(num_labels) * 64u + \
   (size_t)(num_labels) * ((size_t)(num_nodes) + (size_t)(num_edges)) * 32u +              \
   ((size_t)64u << DNNMEM_LABEL_FACTOR_BITS) + 1024u)
/* An upper bound of the solve's, the bound's and the network's scratch
   (static buffers). */

DNNMEM_DEF dnnmem_result dnnmem_label_solve(const dnnmem_label_problem *problem,
                                            const dnnmem_label_options *options, int32_t *label,
                                            dnnmem_label_result *result, void *scratch,
                                            size_t scratch_bytes);
/* A labeling (label[v] in 0 .. k-1 for every node) with its recounted cost,
   a proven lower bound and the gap in *result (required). Errors:
   DNNMEM_ERR_NEGATIVE, DNNMEM_ERR_ID_RANGE (a pin or output label out of
   range, a bad graph), DNNMEM_ERR_LABEL_NONE_ALLOWED, DNNMEM_ERR_OVERFLOW,
   DNNMEM_ERR_INVALID_ARGUMENT (k out of range, missing arrays, options out
   of range), DNNMEM_ERR_TOO_MANY, DNNMEM_ERR_SCRATCH_TOO_SMALL. A stop
   (options.stop, node_limit) still writes the best labeling found. */

DNNMEM_DEF dnnmem_result dnnmem_label_lower_bound_scratch_size(const dnnmem_label_problem *problem,
                                                               const dnnmem_label_options *options,
                                                               size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_label_lower_bound(const dnnmem_label_problem *problem,
                                                  const dnnmem_label_options *options,
                                                  dnnmem_label_result *result, void *scratch,
                                                  size_t scratch_bytes);
/* result->lower_bound (result required), the lower bound dnnmem_label_solve
   reports (before any branch and bound): the larger of the dual bound
   (sweeps until it stalls or max_sweeps) and the merged-label bound (see
   the manual); its other fields zero. */

DNNMEM_DEF dnnmem_result dnnmem_label_cost_scratch_size(const dnnmem_label_problem *problem,
                                                        size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_label_cost(const dnnmem_label_problem *problem,
                                           const int32_t *label, dnnmem_label_result *result,
                                           void *scratch, size_t scratch_bytes);
/* result->cost (result required; its other fields zero), the cost of any
   labeling by the rule above, O(V + E + k): 4 (V + E + k) bytes of
   scratch. DNNMEM_ERR_ID_RANGE for a label outside 0 .. k-1,
   DNNMEM_ERR_INFEASIBLE for a node on an unsupported label or against its
   pin (error.index: the node). */

typedef struct dnnmem_label_network_result {
  int64_t constant;      /* the move's cost = constant + the cut */
  int32_t num_free;      /* nodes that may move: network nodes 2 .. 1 + num_free */
  int32_t approximated;  /* terms bounded from above (0: the cut is exact) */
  dnnmem_error error;    /* on failure: the node and field at fault */
} dnnmem_label_network_result;

DNNMEM_DEF dnnmem_result dnnmem_label_network_scratch_size(const dnnmem_label_problem *problem,
                                                           const dnnmem_label_options *options,
                                                           size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_label_network(const dnnmem_label_problem *problem,
                                              const dnnmem_label_options *options,
                                              const int32_t *labels, int32_t alpha,
                                              dnnmem_flow *out_flow, int32_t *out_node,
                                              dnnmem_label_network_result *result,
                                              void *scratch, size_t scratch_bytes);
/* Builds, without solving, the network of one expansion move from the
   feasible labeling labels[]: every node keeps its label (source side,
   node 0) or takes alpha (sink side, node 1). out_node[v] (may be NULL):
   0 for a node that must keep its label, 1 for one already on alpha,
   2 .. 1 + num_free for the movable nodes in id order; auxiliary nodes
   follow. For k = 2, labels all 0 where allowed and alpha = 1 it is the
   whole problem (placement's network). Every cut is a move whose cost is
   at most constant + cut, with equality when result->approximated is 0.
   Public so that a move can be solved elsewhere (another max-flow solver,
   the network read arc by arc with dnnmem_flow_arc); placement builds its
   network with it (k = 2). Room for arcs of your own is not promised
   (DNNMEM_ERR_FLOW_FULL): a constraint goes into the problem (pin,
   node_cost). The scratch must outlive *out_flow. */

#endif /* DNNMEM_NO_LABEL */

#ifdef __cplusplus
}
#endif
#endif /* DNNMEM_H_INCLUDED */

#ifdef DNNMEM_IMPLEMENTATION
#ifndef DNNMEM__IMPLEMENTATION_DONE
#define DNNMEM__IMPLEMENTATION_DONE

/* ---- implementation: contents ---------------------------------------------
   The parts follow the manual's numbers; `grep '==== N\.'` jumps to each.
     1. Common             results, checked arithmetic, exp and log, scratch
                           carving, sorts, intervals, graphs, rng
     2. Interval planning  exact search; time compression, skyline and
                           interval trees, the heuristics, bestfit, lower
                           bound and checker, the entry point; chains
     3. Shared objects     the greedy strategies, bound and checker
     4. Path covers        vertex-disjoint covers (Hopcroft-Karp, or one max
                           flow for the transitive variant), W by min flow
     5. Recompute          simulator, time bound, exact group orders,
                           baselines, annealer, drop-set search, contraction
     6. Layout arithmetic  parsing, printing and equality, maps, sizes and
                           runs, the strided algebra
     7. Max flow           arcs in CSR, Boykov-Kolmogorov, push-relabel
     8. Placement          network construction, evaluation, the solver
     9. Labeling           costs and views, the move's network, the bound,
                           branch and bound, the solver
   Private names start with dnnmem__ / DNNMEM__. */

#ifndef DNNMEM_ASSERT
#include <assert.h>
#define DNNMEM_ASSERT(x) assert(x)
#endif
#ifndef DNNMEM_MEMCPY
#include <string.h>
#define DNNMEM_MEMCPY(d, s, n) memcpy((d), (s), (n))
#endif
#ifndef DNNMEM_MEMSET
#include <string.h>
#define DNNMEM_MEMSET(d, v, n) memset((d), (v), (n))
#endif
#ifndef DNNMEM_EXP
/* Our own exp (only + - * / on doubles): the same bits with every libm. */
#define DNNMEM_EXP(x) dnnmem__exp(x)
#endif

/* Bit-identical floating point (the annealers' trajectories depend on it):
   no contraction of a * b + c into a fused multiply-add, whatever the
   build's -ffp-contract, restored at the end of the implementation. GCC
   contracts by default in its GNU modes (-ffp-contract=fast; off under
   -std=c99 / c++NN) and honours the optimize pragma even under fast; clang
   contracts within expressions by default (on, any -std) and honours
   FP_CONTRACT except under -ffp-contract=fast, which ignores every pragma
   (do not build the implementation's file with it); MSVC does not contract
   unless /fp:contract or /fp:fast. Contraction only happens on targets with
   FMA (aarch64, ppc64, s390x; x86-64 with -mfma or -march=haswell and
   later). -ffast-math also reassociates and assumes no NaN: refused. */
#if defined(__FAST_MATH__) && !defined(DNNMEM_ALLOW_FAST_MATH)
#error "dnnmem.h: the implementation needs IEEE arithmetic (deterministic annealing, NaN checks): build its file without -ffast-math, or define DNNMEM_ALLOW_FAST_MATH to accept differing runs"
#endif
/* x87 arithmetic (32-bit x86 without SSE2 math) rounds to 80 bits first,
   then to double: other bits than every other platform's. */
#include <float.h>
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 2 && !defined(DNNMEM_ALLOW_EXCESS_PRECISION)
#error "dnnmem.h: x87 excess precision (FLT_EVAL_METHOD 2) gives other results than other platforms: build the implementation with -msse2 -mfpmath=sse, or define DNNMEM_ALLOW_EXCESS_PRECISION to accept differing runs"
#endif
#if defined(__clang__)
#pragma float_control(push)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

/* Private helpers a build may leave unused are marked so -Wunused stays quiet. */
#if defined(__GNUC__) || defined(__clang__)
#define DNNMEM__UNUSED __attribute__((unused))
#else
#define DNNMEM__UNUSED
#endif

#define DNNMEM__I64_MAX INT64_MAX
#define DNNMEM__I64_MIN INT64_MIN
#define DNNMEM__I32_MAX INT32_MAX

#ifdef __cplusplus
extern "C" {
#endif

DNNMEM_DEF const char *dnnmem_result_text(dnnmem_result result) {
  switch (result) {
#define DNNMEM__RESULT_CASE(name, value, text) \
  case name:                                   \
    return text;
    DNNMEM_RESULT_LIST(DNNMEM__RESULT_CASE)
#undef DNNMEM__RESULT_CASE
    default:
      return "unknown result";
  }
}

DNNMEM_DEF const char *dnnmem_result_name(dnnmem_result result) {
  switch (result) {
#define DNNMEM__RESULT_CASE(name, value, text) \
  case name:                                   \
    return #name;
    DNNMEM_RESULT_LIST(DNNMEM__RESULT_CASE)
#undef DNNMEM__RESULT_CASE
    default:
      return NULL;
  }
}

static int dnnmem__streq(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

/* Every enum's names: a table of fixed-width strings (no pointers, so it is
   read-only data even in position-independent code). */
#define DNNMEM__NAME_BYTES 24

/* Every _parse function's rule, over its _name table: NULL arguments are
   invalid, an unknown name DNNMEM_ERR_PARSE, else its index in names[] to
   *index. */
static dnnmem_result dnnmem__name_parse(const char *name, const char (*names)[DNNMEM__NAME_BYTES], int count,
                                        int *index) {
  if (name == NULL || index == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (*index = 0; *index < count; ++*index)
    if (dnnmem__streq(name, names[*index])) return DNNMEM_OK;
  return DNNMEM_ERR_PARSE;
}

/* The _name and _parse of enum type T over its table of count names. */
#define DNNMEM__ENUM_NAMES(T, names, count)                                  \
  DNNMEM_DEF const char *T##_name(T value) {                                 \
    return (int)value >= 0 && (int)value < (int)(count) ? names[value] : NULL; \
  }                                                                          \
  DNNMEM_DEF dnnmem_result T##_parse(const char *name, T *out) {             \
    int i = 0;                                                               \
    dnnmem_result r = dnnmem__name_parse(name, names, (int)(count), out ? &i : NULL); \
    if (r == DNNMEM_OK) *out = (T)i;                                         \
    return r;                                                                \
  }

static const char dnnmem__field_names[DNNMEM__FIELD_COUNT][DNNMEM__NAME_BYTES] = {
#define DNNMEM__FIELD_TEXT(name, text) text,
    DNNMEM_FIELD_LIST(DNNMEM__FIELD_TEXT)
#undef DNNMEM__FIELD_TEXT
};
DNNMEM__ENUM_NAMES(dnnmem_field, dnnmem__field_names, DNNMEM__FIELD_COUNT)

/* Names the culprit (when error is not NULL) and returns code: every
   validation's one way to fail. */
static dnnmem_result dnnmem__fail(dnnmem_error *error, dnnmem_result code, int32_t index, dnnmem_field field) {
  if (error) error->index = index, error->field = field, error->other = -1;
  return code;
}

/* The same for a pair of records. */
static dnnmem_result dnnmem__fail2(dnnmem_error *error, dnnmem_result code, int32_t index, int32_t other,
                                   dnnmem_field field) {
  if (error) error->index = index, error->field = field, error->other = other;
  return code;
}

static void dnnmem__error_clear(dnnmem_error *error) {
  if (error) error->index = error->other = -1, error->field = DNNMEM_FIELD_NONE;
}

/* An operation's end: its error into *slot (the result's; NULL: none),
   {-1, NONE} on success; a failure that named nothing names the argument
   the code itself points at (scratch, an output). Returns code. */
static dnnmem_result dnnmem__report(dnnmem_error *slot, dnnmem_error *error, dnnmem_result code) {
  if (code == DNNMEM_OK) dnnmem__error_clear(error);
  else if (error->field == DNNMEM_FIELD_NONE && error->index < 0)
    error->field = code == DNNMEM_ERR_SCRATCH_TOO_SMALL ? DNNMEM_FIELD_SCRATCH
                 : code == DNNMEM_ERR_OUTPUT_TOO_SMALL  ? DNNMEM_FIELD_OUTPUT
                                                        : DNNMEM_FIELD_NONE;
  if (slot) *slot = *error;
  return code;
}

/* The codes in list order: dnnmem_result_parse searches their names. */
static const int16_t dnnmem__result_codes[] = {
#define DNNMEM__RESULT_CODE(name, value, text) value,
    DNNMEM_RESULT_LIST(DNNMEM__RESULT_CODE)
#undef DNNMEM__RESULT_CODE
};

DNNMEM_DEF dnnmem_result dnnmem_result_parse(const char *name, dnnmem_result *out) {
  size_t i;
  if (name == NULL || out == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (i = 0; i < sizeof(dnnmem__result_codes) / sizeof(dnnmem__result_codes[0]); i++)
    if (dnnmem__streq(name, dnnmem_result_name((dnnmem_result)dnnmem__result_codes[i]))) {
      *out = (dnnmem_result)dnnmem__result_codes[i];
      return DNNMEM_OK;
    }
  return DNNMEM_ERR_PARSE;
}

/* ==== 1. Common ========================================================== */

/* ---- checked integer arithmetic ---------------------------------------- */

/* Each returns 1 on overflow (and leaves *out unspecified). */
static DNNMEM__UNUSED int dnnmem__add_overflows(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > DNNMEM__I64_MAX - b) || (b < 0 && a < DNNMEM__I64_MIN - b))
    return 1;
  *out = a + b;
  return 0;
}

static DNNMEM__UNUSED int dnnmem__mul_overflows(int64_t a, int64_t b, int64_t *out) {
  if (a != 0 && b != 0) {
    if (a > 0 ? (b > 0 ? a > DNNMEM__I64_MAX / b : b < DNNMEM__I64_MIN / a)
              : (b > 0 ? a < DNNMEM__I64_MIN / b : a < DNNMEM__I64_MAX / b))
      return 1;
  }
  *out = a * b;
  return 0;
}

/* Rounds v >= 0 up to a multiple of the power of two a >= 1. */
static DNNMEM__UNUSED int dnnmem__align_up_overflows(int64_t v, int64_t a, int64_t *out) {
  if (v > DNNMEM__I64_MAX - (a - 1)) return 1;
  *out = (v + (a - 1)) & ~(a - 1);
  return 0;
}

/* The same where the caller knows v + a - 1 fits (validated totals). */
static DNNMEM__UNUSED int64_t dnnmem__align_up(int64_t v, int64_t a) { return (v + (a - 1)) & ~(a - 1); }

static DNNMEM__UNUSED int dnnmem__is_pow2(int64_t a) { return a > 0 && (a & (a - 1)) == 0; }

static DNNMEM__UNUSED int64_t dnnmem__max64(int64_t a, int64_t b) { return a > b ? a : b; }
static DNNMEM__UNUSED int64_t dnnmem__min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* ---- deterministic exp -------------------------------------------------- */

/* e^x: x = n ln2 + r with |r| <= ln2 / 2 (Cody-Waite split of ln2), a
   degree-13 Taylor polynomial for e^r (relative error below 2e-16), then
   2^n put into the exponent bits. Annealing decisions depend on it, so it
   must not vary with the C library. */
static DNNMEM__UNUSED double dnnmem__exp(double x) {
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  double r, p, scale;
  int64_t n;
  uint64_t bits;
  int i;
  if (x != x) return x;     /* NaN */
  if (x > 709.0) x = 709.0; /* saturate below DBL_MAX */
  if (x < -745.0) return 0.0;
  n = (int64_t)(x * 1.44269504088896338700 + (x >= 0 ? 0.5 : -0.5));
  r = (x - (double)n * ln2_hi) - (double)n * ln2_lo;
  p = 1.0;
  for (i = 13; i >= 1; i--) p = 1.0 + p * r / (double)i;
  if (n < -1022) { /* subnormal result: scale in two steps */
    p *= 2.2250738585072014e-308; /* 2^-1022 */
    n += 1022;
  }
  bits = (uint64_t)(n + 1023) << 52;
  DNNMEM_MEMCPY(&scale, &bits, sizeof(scale));
  return p * scale;
}

/* ---- deterministic log -------------------------------------------------- */

/* Natural logarithm from + - * / and the bit layout (no libm, the same bits
   everywhere), fdlibm's reduction: x = 2^k m with m in (sqrt(1/2), sqrt(2)],
   f = m - 1 (exact), s = f / (2 + f), and
     log(1 + f) = 2 atanh(s) = f - f^2/2 + s (f^2/2 + R),
     R = sum over i >= 1 of 2 s^(2i) / (2i + 1)
   (|s| <= 0.1716, s^2 <= 0.0295: 12 terms leave a relative tail below
   2^-70); k ln2 in two parts (ln2_hi has trailing zero bits, so k ln2_hi is
   exact). Within 1 ulp of the correctly rounded value on every positive
   double, subnormals included (scaled by 2^54 first; tests/test_common.c
   sweeps every binade against libm). NaN and +inf give themselves; x <= 0
   and -inf (no logarithm) the most negative double (finite, so callers'
   arithmetic stays finite). */
static DNNMEM__UNUSED double dnnmem__log(double x) {
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  const double two_54 = 18014398509481984.0, smallest_normal = 2.2250738585072014e-308;
  const double largest = 1.7976931348623157e308, sqrt2 = 1.41421356237309504880;
  const uint64_t mantissa = 0x000fffffffffffffull, exponent_of_one = 0x3ff0000000000000ull;
  uint64_t bits;
  int64_t k = 0;
  double m, f, s, z, sum = 0.0, half_f2;
  int i;
  if (x != x || x > largest) return x;
  if (x <= 0) return -largest;
  if (x < smallest_normal) { /* subnormal: make it normal */
    x *= two_54;
    k = -54;
  }
  DNNMEM_MEMCPY(&bits, &x, sizeof(bits));
  k += (int64_t)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & mantissa) | exponent_of_one; /* m in [1, 2) */
  DNNMEM_MEMCPY(&m, &bits, sizeof(m));
  if (m > sqrt2) {
    m *= 0.5;
    k++;
  }
  f = m - 1.0;
  if (k == 0 && f == 0) return 0.0;
  s = f / (2.0 + f);
  z = s * s;
  for (i = 12; i >= 1; i--) sum = z * (2.0 / (double)(2 * i + 1) + sum);
  half_f2 = 0.5 * f * f;
  return (double)k * ln2_hi - ((half_f2 - (s * (half_f2 + sum) + (double)k * ln2_lo)) - f);
}

/* ---- scratch carving ---------------------------------------------------- */

/* One carver serves both halves of "ask, then pass": with mem == NULL it
   only counts (assuming the worst misalignment of the caller's pointer);
   with memory it hands out 16-byte aligned blocks and records a shortfall.
   Every block is a multiple of 16 bytes, so only the start needs padding. */
#define DNNMEM__SCRATCH_ALIGN 16

typedef struct dnnmem__scratch {
  unsigned char *base;
  size_t used, cap;
  int overflow, short_of_space;
} dnnmem__scratch;

static DNNMEM__UNUSED void dnnmem__scratch_begin(dnnmem__scratch *s, void *mem, size_t bytes) {
  s->overflow = 0;
  s->short_of_space = 0;
  s->used = 0;
  if (mem == NULL) {
    s->base = NULL;
    s->used = DNNMEM__SCRATCH_ALIGN - 1;
    s->cap = (size_t)-1;
  } else {
    size_t pad = (size_t)((DNNMEM__SCRATCH_ALIGN -
                           ((uintptr_t)mem % DNNMEM__SCRATCH_ALIGN)) %
                          DNNMEM__SCRATCH_ALIGN);
    s->base = (unsigned char *)mem + pad;
    s->cap = bytes >= pad ? bytes - pad : 0;
    if (bytes < pad) s->short_of_space = 1;
  }
}

static DNNMEM__UNUSED void *dnnmem__scratch_take(dnnmem__scratch *s, size_t count, size_t elem) {
  size_t bytes;
  void *p;
  if (elem != 0 && count > ((size_t)-1 - DNNMEM__SCRATCH_ALIGN) / elem) {
    s->overflow = 1;
    return NULL;
  }
  bytes = (count * elem + (DNNMEM__SCRATCH_ALIGN - 1)) &
          ~(size_t)(DNNMEM__SCRATCH_ALIGN - 1);
  if (bytes > s->cap - s->used) {
    if (s->base == NULL) s->overflow = 1;
    else s->short_of_space = 1;
    return NULL;
  }
  p = s->base ? (void *)(s->base + s->used) : NULL;
  s->used += bytes;
  return p;
}

#define DNNMEM__TAKE(s, type, count) \
  ((type *)dnnmem__scratch_take((s), (size_t)(count), sizeof(type)))

/* Ends a carving: the size in sizing mode (out_bytes given), or whether the
   memory sufficed (out_bytes NULL). */
static DNNMEM__UNUSED dnnmem_result dnnmem__scratch_end(const dnnmem__scratch *s, size_t *out_bytes) {
  if (s->overflow) return DNNMEM_ERR_OVERFLOW;
  /* an operation (no out_bytes) handed a NULL buffer: short unless it needs nothing */
  if (s->base == NULL && out_bytes == NULL && s->used > DNNMEM__SCRATCH_ALIGN - 1)
    return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  if (s->short_of_space) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  if (out_bytes) *out_bytes = s->used;
  return DNNMEM_OK;
}

/* ---- deterministic stable sort ------------------------------------------ */

/* Sorts ids[0..n) by less(ctx, a, b) with a stable bottom-up merge sort,
   O(n log n); tmp holds n ids. Stability plus explicit keys make every
   order platform-independent. */
typedef int (*dnnmem__less_fn)(const void *ctx, int32_t a, int32_t b);

static DNNMEM__UNUSED void dnnmem__sort_ids(int32_t *ids, int32_t *tmp, int32_t n,
                             dnnmem__less_fn less, const void *ctx) {
  int32_t width, i, *src = ids, *dst = tmp;
  /* insertion-sort runs of 16 first: fewer passes, fast on small inputs */
  for (i = 0; i < n; i += 16) {
    int32_t end = n - i < 16 ? n : i + 16, j;
    for (j = i + 1; j < end; j++) {
      int32_t v = ids[j], k = j;
      while (k > i && less(ctx, v, ids[k - 1])) {
        ids[k] = ids[k - 1];
        k--;
      }
      ids[k] = v;
    }
  }
  for (width = 16; width < n; width = width > n / 2 ? n : width * 2) {
    for (i = 0; i < n; i = n - i <= 2 * (int64_t)width ? n : i + 2 * width) {
      int32_t mid = n - i < width ? n : i + width;
      int32_t end = n - i <= 2 * (int64_t)width ? n : i + 2 * width;
      int32_t a = i, b = mid, k = i;
      while (a < mid && b < end) dst[k++] = less(ctx, src[b], src[a]) ? src[b++] : src[a++];
      while (a < mid) dst[k++] = src[a++];
      while (b < end) dst[k++] = src[b++];
    }
    {
      int32_t *t = src;
      src = dst;
      dst = t;
    }
  }
  if (src != ids) DNNMEM_MEMCPY(ids, src, (size_t)n * sizeof(int32_t));
}

/* Stable insertion sort of ids[0..n) by key[id], ascending: short lists. */
static DNNMEM__UNUSED void dnnmem__insertion_sort(int32_t *ids, int32_t n, const int64_t *key) {
  int32_t i, j;
  for (i = 1; i < n; i++) {
    int32_t id = ids[i];
    for (j = i; j > 0 && key[ids[j - 1]] > key[id]; j--) ids[j] = ids[j - 1];
    ids[j] = id;
  }
}

/* Stable LSD radix sort of ids[0..n) by key[id] (8-bit digits of the key
   with its sign flipped; a pass whose digit is the same everywhere is
   skipped, so small keys take few passes). O(n) per pass; tmp holds n. */
static DNNMEM__UNUSED void dnnmem__radix_sort(int32_t *ids, int32_t *tmp, int32_t n, const int64_t *key) {
  int32_t count[256], i, *src = ids, *dst = tmp;
  int shift;
  if (n <= 32) { /* eight passes over 256 buckets cost more */
    dnnmem__insertion_sort(ids, n, key);
    return;
  }
  for (shift = 0; shift < 64; shift += 8) {
    int32_t sum = 0, d;
    for (d = 0; d < 256; d++) count[d] = 0;
    for (i = 0; i < n; i++) count[(((uint64_t)key[src[i]] ^ 0x8000000000000000ull) >> shift) & 255]++;
    if (n == 0 || count[(((uint64_t)key[src[0]] ^ 0x8000000000000000ull) >> shift) & 255] == n) continue;
    for (d = 0; d < 256; d++) {
      int32_t c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (i = 0; i < n; i++) dst[count[(((uint64_t)key[src[i]] ^ 0x8000000000000000ull) >> shift) & 255]++] = src[i];
    {
      int32_t *t = src;
      src = dst;
      dst = t;
    }
  }
  if (src != ids) DNNMEM_MEMCPY(ids, src, (size_t)n * sizeof(int32_t));
}

/* ---- binary heap ---------------------------------------------------------- */

/* A min-heap of (key, id) pairs, ties to the smaller id, in two arrays of
   the caller's capacity: key[0], id[0] is the top. */
typedef struct dnnmem__heap {
  int64_t *key;
  int32_t *id;
  int32_t count;
} dnnmem__heap;

static DNNMEM__UNUSED void dnnmem__heap_push(dnnmem__heap *h, int64_t key, int32_t id) {
  int32_t i = h->count++;
  while (i > 0) {
    int32_t parent = (i - 1) / 2;
    if (h->key[parent] < key || (h->key[parent] == key && h->id[parent] <= id)) break;
    h->key[i] = h->key[parent];
    h->id[i] = h->id[parent];
    i = parent;
  }
  h->key[i] = key;
  h->id[i] = id;
}

/* Removes the top (count > 0). */
static DNNMEM__UNUSED void dnnmem__heap_pop(dnnmem__heap *h) {
  int32_t n = --h->count, i = 0, c, id = h->id[n];
  int64_t key = h->key[n];
  while ((c = 2 * i + 1) < n) {
    if (c + 1 < n && (h->key[c + 1] < h->key[c] || (h->key[c + 1] == h->key[c] && h->id[c + 1] < h->id[c]))) c++;
    if (key < h->key[c] || (key == h->key[c] && id < h->id[c])) break;
    h->key[i] = h->key[c];
    h->id[i] = h->id[c];
    i = c;
  }
  h->key[i] = key;
  h->id[i] = id;
}

/* ---- intervals ---------------------------------------------------------- */

DNNMEM_DEF int64_t dnnmem_interval_alignment(const dnnmem_interval *record,
                                             int64_t alignment) {
  int64_t a = record->alignment > 1 ? record->alignment : 1;
  return alignment > a ? alignment : a;
}

/* One failure exit: the code and the field packed in one constant (one
   store per rule, not a call: the embedded planner's size). */
#define DNNMEM__BAD(code, field) ((int32_t)(field) * 65536 - (int32_t)(code))

static dnnmem_result dnnmem__intervals_check(const dnnmem_interval *records, int32_t count,
                                             int64_t alignment, dnnmem_error *e) {
  int64_t total = 0;
  int32_t i = -1, g, bad;
  if (count < 0) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  if (count > 0 && records == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (alignment < 0 || (alignment > 1 && !dnnmem__is_pow2(alignment)))
    return dnnmem__fail(e, DNNMEM_ERR_ALIGNMENT, -1, DNNMEM_FIELD_ALIGNMENT);
  for (i = 0; i < count; i++) {
    const dnnmem_interval *r = &records[i];
    int64_t a, aligned;
    if (r->size < 0) goto negative_size;
    bad = DNNMEM__BAD(DNNMEM_ERR_EMPTY_INTERVAL, DNNMEM_FIELD_UPPER);
    if (r->upper <= r->lower) goto fail;
    bad = DNNMEM__BAD(DNNMEM_ERR_OVERFLOW, DNNMEM_FIELD_UPPER);
    if (r->lower < 0 && r->upper > DNNMEM__I64_MAX + r->lower) goto fail; /* length */
    bad = DNNMEM__BAD(DNNMEM_ERR_ALIGNMENT, DNNMEM_FIELD_ALIGNMENT);
    if (r->alignment < 0 || (r->alignment > 1 && !dnnmem__is_pow2(r->alignment))) goto fail;
    a = dnnmem_interval_alignment(r, alignment);
    bad = DNNMEM__BAD(DNNMEM_ERR_OVERFLOW, DNNMEM_FIELD_SIZE);
    /* a whole alignment step per record bounds the padding any plan needs */
    if (dnnmem__align_up_overflows(r->size, a, &aligned) || dnnmem__add_overflows(total, aligned, &total) ||
        dnnmem__add_overflows(total, a - 1, &total))
      goto fail;
    if (r->flags & DNNMEM_INTERVAL_FIXED) {
      bad = DNNMEM__BAD(DNNMEM_ERR_NEGATIVE, DNNMEM_FIELD_OFFSET);
      if (r->fixed_offset < 0) goto fail;
      bad = DNNMEM__BAD(DNNMEM_ERR_PLAN_MISALIGNED, DNNMEM_FIELD_OFFSET);
      if (r->fixed_offset & (a - 1)) goto fail;
      bad = DNNMEM__BAD(DNNMEM_ERR_OVERFLOW, DNNMEM_FIELD_OFFSET);
      if (dnnmem__add_overflows(total, r->fixed_offset, &total)) goto fail;
    }
    bad = DNNMEM__BAD(DNNMEM_ERR_NEGATIVE, DNNMEM_FIELD_HINT);
    if (r->flags & DNNMEM_INTERVAL_HINT && r->hint < 0) goto fail;
    bad = DNNMEM__BAD(DNNMEM_ERR_NEGATIVE, DNNMEM_FIELD_PASS);
    if (r->pass < 0) goto fail;
#ifdef DNNMEM_NO_LINKS
    bad = DNNMEM__BAD(DNNMEM_ERR_INVALID_ARGUMENT, (r->flags & DNNMEM_INTERVAL_ALIAS) ? DNNMEM_FIELD_ALIAS
                                                                                      : DNNMEM_FIELD_REUSE);
    if (r->flags & (DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE)) goto fail;
#endif
    if (r->flags & DNNMEM_INTERVAL_ALIAS) {
      bad = DNNMEM__BAD(DNNMEM_ERR_ID_RANGE, DNNMEM_FIELD_ALIAS);
      if (r->alias < 0 || r->alias >= count) goto fail;
      bad = DNNMEM__BAD(DNNMEM_ERR_CYCLE, DNNMEM_FIELD_ALIAS);
      if (r->alias == i) goto fail;
      bad = DNNMEM__BAD(DNNMEM_ERR_BAD_GAP, DNNMEM_FIELD_ALIAS);
      if (r->num_gaps != 0 || records[r->alias].num_gaps != 0) goto fail;
    }
    if (r->flags & DNNMEM_INTERVAL_REUSE) {
      const dnnmem_interval *old;
      bad = DNNMEM__BAD(DNNMEM_ERR_ID_RANGE, DNNMEM_FIELD_REUSE);
      if (r->reuse < 0 || r->reuse >= count) goto fail;
      old = &records[r->reuse];
      bad = DNNMEM__BAD(DNNMEM_ERR_BAD_GAP, DNNMEM_FIELD_REUSE);
      if (r->num_gaps != 0 || old->num_gaps != 0) goto fail;
      bad = DNNMEM__BAD(DNNMEM_ERR_PLAN_REUSE, DNNMEM_FIELD_REUSE);
      if (old->upper != r->lower + 1 || old->lower >= r->lower || r->size > old->size) goto fail;
    }
    bad = DNNMEM__BAD(DNNMEM_ERR_INVALID_ARGUMENT, DNNMEM_FIELD_GAP);
    if (r->num_gaps < 0 || (r->num_gaps > 0 && r->gaps == NULL)) goto fail;
    bad = DNNMEM__BAD(DNNMEM_ERR_BAD_GAP, DNNMEM_FIELD_GAP);
    for (g = 0; g < r->num_gaps; g++) {
      const dnnmem_gap *gp = &r->gaps[g];
      if (gp->lower >= gp->upper || gp->lower < r->lower || gp->upper > r->upper ||
          (g > 0 && gp->lower < r->gaps[g - 1].upper) || gp->window_lower < 0 ||
          gp->window_lower > gp->window_upper || gp->window_upper > r->size)
        goto fail;
    }
  }
  return DNNMEM_OK;
negative_size:
  bad = DNNMEM__BAD(DNNMEM_ERR_NEGATIVE, DNNMEM_FIELD_SIZE);
fail:
  return dnnmem__fail(e, (dnnmem_result)-(bad % 65536), i, (dnnmem_field)(bad / 65536));
}

DNNMEM_DEF dnnmem_result dnnmem_intervals_check(const dnnmem_intervals *problem, dnnmem_error *error) {
  dnnmem__error_clear(error);
  if (problem == NULL) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  return dnnmem__intervals_check(problem->records, problem->count, problem->alignment, error);
}

/* ---- graphs ------------------------------------------------------------- */

DNNMEM_DEF dnnmem_result dnnmem_graph_check(const dnnmem_graph *graph, dnnmem_error *error) {
  int32_t v, k, n;
  dnnmem__error_clear(error);
  if (graph == NULL) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (graph->num_nodes < 0) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  n = graph->num_nodes;
  if (graph->in_offsets == NULL)
    return n == 0 ? DNNMEM_OK : dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_INPUT);
  if (graph->in_offsets[0] != 0) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, 0, DNNMEM_FIELD_INPUT);
  for (v = 0; v < n; v++)
    if (graph->in_offsets[v + 1] < graph->in_offsets[v])
      return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, v, DNNMEM_FIELD_INPUT);
  if (graph->in_offsets[n] > 0 && graph->in_ids == NULL)
    return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_INPUT);
  { /* every id in one flat scan (one unsigned compare each); the node only on a failure */
    uint32_t bad = 0;
    for (k = 0; k < graph->in_offsets[n]; k++) bad |= (uint32_t)((uint32_t)graph->in_ids[k] >= (uint32_t)n);
    if (!bad) return DNNMEM_OK;
  }
  for (v = 0; v < n; v++) /* the node whose input is out of range */
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      if (graph->in_ids[k] < 0 || graph->in_ids[k] >= n) return dnnmem__fail(error, DNNMEM_ERR_ID_RANGE, v, DNNMEM_FIELD_INPUT);
  return DNNMEM_OK;
}

DNNMEM_DEF int dnnmem_graph_is_topological(const dnnmem_graph *graph) {
  int32_t v, k;
  for (v = 0; v < graph->num_nodes; v++)
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      if (graph->in_ids[k] >= v) return 0;
  return 1;
}

/* Consumers CSR (out_offsets[n + 1], out_ids[m]) by counting, each list in
   consumer order. */
static DNNMEM__UNUSED void dnnmem__graph_consumers(const dnnmem_graph *g, int32_t *out_offsets,
                                    int32_t *out_ids) {
  int32_t n = g->num_nodes, m = n > 0 ? g->in_offsets[n] : 0, v, k; /* an empty graph may have no offsets */
  for (v = 0; v <= n; v++) out_offsets[v] = 0;
  for (k = 0; k < m; k++) out_offsets[g->in_ids[k] + 1]++;
  for (v = 0; v < n; v++) out_offsets[v + 1] += out_offsets[v];
  for (v = 0; v < n; v++)
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++)
      out_ids[out_offsets[g->in_ids[k]]++] = v;
  for (v = n; v > 0; v--) out_offsets[v] = out_offsets[v - 1];
  out_offsets[0] = 0;
}

typedef struct dnnmem__topo_work {
  int32_t *pending;     /* per node: inputs not yet ordered */
  int32_t *out_offsets; /* consumers CSR */
  int32_t *out_ids;
} dnnmem__topo_work;

static void dnnmem__topo_layout(dnnmem__scratch *s, int32_t num_nodes,
                                int32_t num_edges, dnnmem__topo_work *w) {
  w->pending = DNNMEM__TAKE(s, int32_t, num_nodes);
  w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)num_nodes + 1);
  w->out_ids = DNNMEM__TAKE(s, int32_t, num_edges);
}

/* The topological order's scratch from the counts alone (parts that size
   their scratch before their graph exists use it). */
static dnnmem_result dnnmem__topo_order_bytes(int32_t num_nodes, int32_t num_edges,
                                              size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__topo_work w;
  DNNMEM_ASSERT(num_nodes >= 0 && num_edges >= 0); /* every caller's graph or counts are checked */
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__topo_layout(&s, num_nodes, num_edges, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order_scratch_size(const dnnmem_graph *graph,
                                                              size_t *out_bytes) {
  dnnmem_result r = dnnmem_graph_check(graph, NULL);
  if (r != DNNMEM_OK) return r;
  return dnnmem__topo_order_bytes(graph->num_nodes,
                                  graph->num_nodes > 0 ? graph->in_offsets[graph->num_nodes] : 0,
                                  out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order(const dnnmem_graph *graph, int32_t *order, void *scratch,
                                                 size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__topo_work w;
  dnnmem_result r = dnnmem_graph_check(graph, e);
  int32_t n, m, v, k, head, tail;
  if (r != DNNMEM_OK) return r;
  n = graph->num_nodes;
  if (n > 0 && order == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  m = n > 0 ? graph->in_offsets[n] : 0;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__topo_layout(&s, n, m, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return dnnmem__fail(e, r, -1, DNNMEM_FIELD_SCRATCH);
  dnnmem__graph_consumers(graph, w.out_offsets, w.out_ids);
  for (v = 0; v < n; v++) w.pending[v] = graph->in_offsets[v + 1] - graph->in_offsets[v];
  /* Kahn with the FIFO kept in order[] itself */
  head = tail = 0;
  for (v = 0; v < n; v++)
    if (w.pending[v] == 0) order[tail++] = v;
  while (head < tail) {
    int32_t u = order[head++];
    for (k = w.out_offsets[u]; k < w.out_offsets[u + 1]; k++)
      if (--w.pending[w.out_ids[k]] == 0) order[tail++] = w.out_ids[k];
  }
  if (tail == n) return DNNMEM_OK;
  /* every node left has an input left: n steps back along them end on a cycle */
  v = 0;
  while (w.pending[v] == 0) v++;
  for (head = 0; head < n; head++)
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      if (w.pending[graph->in_ids[k]] > 0) {
        v = graph->in_ids[k];
        break;
      }
  return dnnmem__fail(e, DNNMEM_ERR_CYCLE, v, DNNMEM_FIELD_INPUT);
}

DNNMEM_DEF dnnmem_result dnnmem_graph_intervals(const dnnmem_graph *graph,
                                                const int64_t *sizes,
                                                const uint8_t *is_output,
                                                dnnmem_interval *records, dnnmem_error *error) {
  dnnmem_result r = dnnmem_graph_check(graph, error);
  int32_t v, k, n;
  if (r != DNNMEM_OK) return r;
  n = graph->num_nodes;
  if (n > 0 && sizes == NULL) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_SIZE);
  if (n > 0 && records == NULL) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  for (v = 0; v < n; v++) {
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      if (graph->in_ids[k] >= v) return dnnmem__fail(error, DNNMEM_ERR_NOT_TOPOLOGICAL, v, DNNMEM_FIELD_INPUT);
    if (sizes[v] < 0) return dnnmem__fail(error, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_SIZE);
  }
  for (v = 0; v < n; v++) {
    DNNMEM_MEMSET(&records[v], 0, sizeof(records[v]));
    records[v].lower = v;
    records[v].upper = (is_output && is_output[v]) ? n : (int64_t)v + 1;
    records[v].size = sizes[v];
  }
  for (v = 0; v < n; v++)
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      records[graph->in_ids[k]].upper = dnnmem__max64(records[graph->in_ids[k]].upper, (int64_t)v + 1);
  return DNNMEM_OK;
}

/* ---- random numbers ----------------------------------------------------- */

DNNMEM_DEF void dnnmem_rng_seed(dnnmem_rng *rng, uint64_t seed) { rng->state = seed; }

DNNMEM_DEF uint64_t dnnmem_rng_next(dnnmem_rng *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

DNNMEM_DEF uint32_t dnnmem_rng_below(dnnmem_rng *rng, uint32_t bound) {
  uint32_t threshold, x;
  if (bound == 0) return 0;
  threshold = (uint32_t)(0u - bound) % bound; /* 2^32 mod bound */
  do {
    x = (uint32_t)(dnnmem_rng_next(rng) >> 32);
  } while (x < threshold);
  return x % bound;
}

DNNMEM_DEF double dnnmem_rng_uniform(dnnmem_rng *rng) {
  return (double)(dnnmem_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}



/* ==== 2. Interval planning (dnnmem_plan_*) =============================== */

/* Contents: tuning constants; time compression, skyline and interval
   trees; the heuristics; bestfit; lower bound and checker; the exact search
   (absent under DNNMEM_NO_EXACT); dnnmem_plan_solve; dnnmem_plan_chains. */

/* ---- tuning constants ---------------------------------------------------- */

/* best's exact search: DNNMEM_PLAN_BEST_NODES nodes up to this many records,
   proportionally fewer above (a node costs O(n)). */
#define DNNMEM__PLAN_BEST_FULL_RECORDS 256
/* ... and at least this many nodes per record: one path through the
   search places every record, so a budget below n cannot even finish the
   first run at the bound (a 1,536-record training graph got 333 nodes and
   stopped 0.7% above a bound that about 1.2 n nodes reach). */
#define DNNMEM__PLAN_BEST_NODES_PER_RECORD 8
/* Undo-log entries per record (or gap) and extra: best's lean block (the
   hardest minimalloc searches peak below 30 per record) and exact's own. */
#define DNNMEM__PLAN_LOG_LEAN_PER_RECORD 32
#define DNNMEM__PLAN_LOG_LEAN_EXTRA ((int64_t)1 << 16)
#define DNNMEM__PLAN_LOG_PER_RECORD 64
#define DNNMEM__PLAN_LOG_EXTRA ((int64_t)1 << 20)
/* The exact search's candidate lists (a stack along the path; a frame
   without room scans instead): entries per record and extra, lean and
   full (never more than n (n + 1) / 2 + 1). */
#define DNNMEM__PLAN_CAND_LEAN_PER_RECORD 16
#define DNNMEM__PLAN_CAND_LEAN_EXTRA ((int64_t)1 << 12)
#define DNNMEM__PLAN_CAND_PER_RECORD 64
#define DNNMEM__PLAN_CAND_EXTRA ((int64_t)1 << 16)
/* A frame picks its first this many candidates by a pass over its list,
   then sorts the rest. */
#define DNNMEM__PLAN_CAND_SELECT 4
/* Failed-state table: 64 slots per record, a power of two within [1024,
   max]; a lookup probes 4 neighbouring slots (a full run replaces its first). */
#define DNNMEM__PLAN_MEMO_MIN 1024
#define DNNMEM__PLAN_MEMO_PER_RECORD 64
#define DNNMEM__PLAN_MEMO_LEAN_MAX ((size_t)1 << 14)
#define DNNMEM__PLAN_MEMO_MAX ((size_t)1 << 18)
#define DNNMEM__PLAN_MEMO_PROBES 4
/* The failed records the memo's entries name (a ring: an entry whose
   records were overwritten names the records of its sections instead):
   entries per record, lean and full, and at most. */
#define DNNMEM__PLAN_MEMO_Z_LEAN_PER_RECORD 16
#define DNNMEM__PLAN_MEMO_Z_PER_RECORD 128
#define DNNMEM__PLAN_MEMO_Z_MAX ((int64_t)1 << 20)
/* The gap rule sorts the placed neighbours of a record by insertion in
   runs of this many, then by merging. */
#define DNNMEM__PLAN_FOUND_RUN 16
/* The gap rule's time tree has a leaf per 2^this time segments (6 measured
   best, 5-7 within 10%, on 100k high-overlap and realistic records), one
   less per halving of the segments below the record count (dense time
   lines: a leaf's records are scanned, and mostly meet at finer leaves). */
#ifndef DNNMEM__PLAN_GAP_SHIFT
#define DNNMEM__PLAN_GAP_SHIFT 6
#endif
/* options->stop is polled every this many nodes (a power of two). */
#define DNNMEM__PLAN_STOP_POLL 1024
/* Restart orders scale their keys by a factor in 64ths: 64 for the plain
   orders, [40, 88) = [0.6, 1.4) for the randomised ones. */
#define DNNMEM__PLAN_NOISE_ONE 64
#define DNNMEM__PLAN_NOISE_LOW 40
#define DNNMEM__PLAN_NOISE_SPAN 48
/* A restart's first node limit is 2m + 16 (m records to place), doubled
   every round of the round robin: a few thousand nodes settle most runs. */
#define DNNMEM__PLAN_RUN_NODES_PER_RECORD 2
#define DNNMEM__PLAN_RUN_NODES_EXTRA 16
/* Re-ranking a part of c records lists its rank values by marks over all
   m ranks when c x this >= m (O(m)), else by sorting (O(c log c)). */
#define DNNMEM__PLAN_RANK_MARKS 8
/* Minimising: the question at the bound gets this percentage of the
   nodes, a probe between the bound and the best plan the rest (80: at
   most 1.25x the decision at the bound; 75 measured up to 1.5x on
   250-buffer tilings, a minimum above the bound no faster); a probe
   moves up after 4m + 64 nodes unanswered, the quota doubling at every
   move. */
#define DNNMEM__PLAN_LOW_SHARE 80
/* ... of the work and of the nodes both: in work a placed node counts
   this many refused ones (a refusal costs O(1) and a section count per
   offset, a placement the bounds, sweep and undo). */
#define DNNMEM__PLAN_PLACE_WORK 8
#define DNNMEM__PLAN_PROBE_NODES_PER_RECORD 4
#define DNNMEM__PLAN_PROBE_NODES_EXTRA 64

/* ---- shared machinery: time compression, skyline tree, interval tree ---- */


/* Sorts vals[0..m) into unique ascending coords; returns their count.
   ids and tmp hold m ids. O(m log m). */
static int32_t dnnmem__compress(const int64_t *vals, int32_t m, int32_t *ids, int32_t *tmp,
                                int64_t *coords) {
  int32_t i, count = 0;
  for (i = 0; i < m; i++) ids[i] = i;
  dnnmem__radix_sort(ids, tmp, m, vals);
  for (i = 0; i < m; i++)
    if (count == 0 || coords[count - 1] != vals[ids[i]]) coords[count++] = vals[ids[i]];
  return count;
}

/* Index of v in coords[0..count) (v must be present). O(log count). */
static int32_t dnnmem__coord_index(const int64_t *coords, int32_t count, int64_t v) {
  int32_t lo = 0, hi = count - 1;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (coords[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Node count of a perfect binary tree over `leaves` leaves (the sizes
   the planners' and the checker's scratch have always been carved by). */
static size_t dnnmem__sky_nodes(int32_t leaves) { /* leaves <= 2^30 */
  size_t p = 1;
  while ((int64_t)p < (int64_t)leaves) p *= 2;
  return 2 * p;
}

/* The skyline of place_on_top and of the checker: flat steps over time
   segments, a step starting at each set bit of a 64-ary bit tree (level 0:
   a bit per segment; a bit of level k + 1: word k nonzero), h[t] the
   height of the step starting at t. Both only ever raise a range to at
   least its maximum (the checker stops at the first overlap), so a raise
   is an assignment: it removes the steps inside the range, each made
   by an earlier raise (at most two per raise), so a query and its raise
   cost O(log T / 6) plus amortised O(1) steps; the lazy segment tree's
   O(log T) nodes per operation were most of pathcover's time. */
typedef struct dnnmem__steps {
  int64_t *h;
  uint64_t *bits;
  int32_t segments, levels;
  size_t base[8]; /* level k's words: bits + [base[k], base[k + 1]) */
} dnnmem__steps;

static void dnnmem__steps_reset(dnnmem__steps *s, int32_t segments) {
  size_t width = segments > 0 ? (size_t)segments : 1, words = 0;
  int32_t k = 0, t;
  s->segments = segments;
  do {
    s->base[k++] = words;
    width = (width + 63) / 64;
    words += width;
  } while (width > 1);
  s->levels = k;
  s->base[k] = words;
  DNNMEM_MEMSET(s->bits, 0, words * sizeof(uint64_t));
  for (t = 0; t < k; t++) s->bits[s->base[t]] = 1; /* one step at 0, height 0 */
  s->h[0] = 0;
}

static void dnnmem__steps_set(dnnmem__steps *s, int32_t t) {
  int32_t k;
  size_t i = (size_t)t;
  for (k = 0; k < s->levels; k++, i >>= 6) {
    uint64_t *w = s->bits + s->base[k] + (i >> 6), was = *w;
    *w = was | (uint64_t)1 << (i & 63);
    if (was) return;
  }
}

static void dnnmem__steps_clear(dnnmem__steps *s, int32_t t) {
  int32_t k;
  size_t i = (size_t)t;
  for (k = 0; k < s->levels; k++, i >>= 6) {
    uint64_t *w = s->bits + s->base[k] + (i >> 6);
    *w &= ~((uint64_t)1 << (i & 63));
    if (*w) return;
  }
}

/* The lowest set bit of w (w != 0). */
static int32_t dnnmem__ctz64(uint64_t w) {
#if defined(__GNUC__) || defined(__clang__)
  return (int32_t)__builtin_ctzll(w);
#else
  int32_t c = 0;
  while (!(w & 1)) w >>= 1, c++;
  return c;
#endif
}

/* The highest set bit of w (w != 0). */
static int32_t dnnmem__clz_top64(uint64_t w) {
#if defined(__GNUC__) || defined(__clang__)
  return 63 - (int32_t)__builtin_clzll(w);
#else
  int32_t c = 63;
  while (!(w >> c)) c--;
  return c;
#endif
}

/* The first step starting at or after t, or segments when none. */
static int32_t dnnmem__steps_next(const dnnmem__steps *s, int32_t t) {
  int32_t k = 0;
  size_t i = (size_t)t;
  uint64_t w;
  if (t >= s->segments) return s->segments;
  for (;;) { /* up while the rest of i's word is empty */
    w = s->bits[s->base[k] + (i >> 6)] & (~(uint64_t)0 << (i & 63));
    if (w) break;
    i = (i >> 6) + 1; /* the next word: a bit of level k + 1 */
    if (++k == s->levels || i >= s->base[k] - s->base[k - 1]) return s->segments;
  }
  for (;;) { /* down along the lowest set bits */
    i = (i & ~(size_t)63) | (size_t)dnnmem__ctz64(w);
    if (k == 0) return (int32_t)i;
    k--;
    w = s->bits[s->base[k] + i];
    i <<= 6;
  }
}

/* The step holding segment t: the last step starting at or before t (one
   starts at 0). */
static int32_t dnnmem__steps_prev(const dnnmem__steps *s, int32_t t) {
  int32_t k = 0;
  size_t i = (size_t)t;
  uint64_t w;
  for (;;) { /* up while i's word has nothing at or below i */
    w = s->bits[s->base[k] + (i >> 6)] & (~(uint64_t)0 >> (63 - (i & 63)));
    if (w) break;
    k++;
    i = (i >> 6) - 1; /* word 0 holds bit 0 at every level: never below 0 */
  }
  for (;;) { /* down along the highest set bits */
    i = (i & ~(size_t)63) | (size_t)dnnmem__clz_top64(w);
    if (k == 0) return (int32_t)i;
    k--;
    w = s->bits[s->base[k] + i];
    i <<= 6;
  }
}

/* The highest step over segments [l, r) (l < r). */
static int64_t dnnmem__steps_top(dnnmem__steps *s, int32_t l, int32_t r) {
  int32_t t = dnnmem__steps_prev(s, l);
  int64_t top = s->h[t];
  for (t = dnnmem__steps_next(s, l + 1); t < r; t = dnnmem__steps_next(s, t + 1))
    if (s->h[t] > top) top = s->h[t];
  return top;
}

/* [l, r) raised to v, at least its highest step: one step [l, r), the
   steps inside removed; the segments from r on keep their heights. */
static void dnnmem__steps_raise(dnnmem__steps *s, int32_t l, int32_t r, int64_t v) {
  int32_t t, after = r < s->segments ? dnnmem__steps_prev(s, r) : -1;
  if (after >= 0 && after != r) { /* the step running past r keeps its height there */
    s->h[r] = s->h[after];
    dnnmem__steps_set(s, r);
  }
  for (t = dnnmem__steps_next(s, l + 1); t < r; t = dnnmem__steps_next(s, t + 1)) dnnmem__steps_clear(s, t);
  s->h[l] = v;
  dnnmem__steps_set(s, l);
}

/* ---- the planner's working state ---------------------------------------- */

/* A placed record in the gap rule's time tree: its bytes and lifetime
   (segment indices). */
typedef struct dnnmem__gap_entry {
  int64_t off, end;
  int32_t lo, hi;
  int32_t seg; /* an entry starting a segment: its length; else 0 */
} dnnmem__gap_entry;

typedef struct dnnmem__planner {
  const dnnmem_interval *rec;
  int32_t n, segments, num_fixed;
  int64_t align;
  int64_t *off;       /* the plan being built; -1: not placed yet */
  int64_t *coords;    /* segments + 1 distinct times */
  int32_t *lo, *hi;   /* lifetimes as segment indices */
  int32_t *order;     /* placement order */
  int32_t *ids, *tmp; /* 2n ids for sorting */
  int64_t *vals;      /* 2n values for compression */
  int32_t *by_lower;  /* interval tree: records by lower */
  int64_t *maxup;     /* interval tree: max upper per implicit subtree */
  int32_t *tree_pos;  /* interval tree: each record's position in by_lower */
  int64_t *tree_lower, *tree_upper; /* interval tree: lifetimes by position */
  int tree_takes_placed; /* 1: the tree holds every placed record */
  int32_t *found;     /* interval tree query results */
  int32_t found_count;
  int64_t *found_key, *found_key2; /* their offsets while sorting */
  /* the gap rule: placed records by time node, by offset in each node */
  dnnmem__gap_entry *gap_ent, *gap_run; /* n each, grouped by node */
  int32_t *gap_node;                    /* each record's node */
  int32_t *gap_start, *gap_count, *gap_runs, *gap_zeros;
  int64_t *gap_span;                   /* per node: its subtree's records' lowest offset, highest end (-1: none) */
  uint32_t *gap_anc;                    /* per node: bit d set when ancestor v >> d holds records */
  int32_t *gap_ext;                     /* 4 per node: min lo, max lo, min hi, max hi */
  int32_t gap_leaves, gap_cur; /* P leaves (0: no tree); free intervals */
  int64_t *gap_fa, *gap_fb, *gap_ta, *gap_tb; /* the free intervals, the buffer a cut writes (n each:
                                                 found_key, found_key2 and a second pair, swapped by cuts) */
  int64_t gap_need;             /* the record's size: shorter free intervals may go */
  int32_t gap_shift;            /* a leaf holds 2^gap_shift segments */
  int gap_tree, gap_zero;       /* laid out; a zero-size record met */
  int itree_all;                /* the interval tree holds every placed record */
  dnnmem__steps steps;          /* place_on_top's skyline */
  /* greedy-breadth */
  int64_t *breadth;
  int32_t *rank_tree; /* 2 * segments: the widest step of ranges of steps */
  int32_t *widest;    /* each record's widest step */
  /* bestfit */
  int32_t *run_end, *run_prev, *run_next, *skip;
  int64_t *run_h;
  dnnmem__heap heap; /* runs by (height, start) */
  /* pathcover */
  void *cover_scratch;
  size_t cover_bytes;
} dnnmem__planner;

/* The gap rule's time tree: 2P nodes, P blocks of 2^DNNMEM__PLAN_GAP_SHIFT
   for <= 2n - 1 segments (a finer leaf only where segments x 2^(shift - S)
   < n: as few blocks). */
static void dnnmem__gap_layout(dnnmem__scratch *s, int32_t n, dnnmem__planner *p) {
  size_t n2 = 2 * (size_t)n, gap_nodes;
  gap_nodes = dnnmem__sky_nodes((int32_t)((n2 + ((size_t)1 << DNNMEM__PLAN_GAP_SHIFT) - 1) >>
                                          DNNMEM__PLAN_GAP_SHIFT));
  p->gap_ent = DNNMEM__TAKE(s, dnnmem__gap_entry, n);
  p->gap_run = DNNMEM__TAKE(s, dnnmem__gap_entry, n);
  p->gap_node = DNNMEM__TAKE(s, int32_t, n);
  p->gap_start = DNNMEM__TAKE(s, int32_t, gap_nodes + 1);
  p->gap_count = DNNMEM__TAKE(s, int32_t, gap_nodes);
  p->gap_runs = DNNMEM__TAKE(s, int32_t, gap_nodes);
  p->gap_zeros = DNNMEM__TAKE(s, int32_t, gap_nodes);
  p->gap_span = DNNMEM__TAKE(s, int64_t, 2 * gap_nodes);
  p->gap_anc = DNNMEM__TAKE(s, uint32_t, gap_nodes);
  p->gap_ext = DNNMEM__TAKE(s, int32_t, 4 * gap_nodes);
  p->gap_ta = DNNMEM__TAKE(s, int64_t, 2 * (size_t)n);
  p->gap_tb = p->gap_ta ? p->gap_ta + n : NULL; /* NULL while sizing: no arithmetic on it */
  p->gap_fa = p->found_key; /* carved before */
  p->gap_fb = p->found_key2;
}

/* full: everything the heuristics use (2: with the gap rule's time tree;
   3: only what greedy-tflm uses, for embedded engines); else only
   time compression, the orders and the interval tree (shared objects'
   bound). */
static void dnnmem__planner_layout(dnnmem__scratch *s, int32_t n, int full, dnnmem__planner *p) {
  size_t n2 = 2 * (size_t)n, nodes = dnnmem__sky_nodes(n2 > 0 ? (int32_t)n2 : 1);
  size_t heap_cap = 5 * (size_t)n + 4; /* pushes: 1 + 3 per placement + 1 per raise, raises <= 1 + 2n */
  dnnmem_intervals chains;
  p->gap_tree = full >= 2;
  p->gap_leaves = 0;
  p->off = DNNMEM__TAKE(s, int64_t, n);
  p->coords = DNNMEM__TAKE(s, int64_t, n2);
  p->lo = DNNMEM__TAKE(s, int32_t, n);
  p->hi = DNNMEM__TAKE(s, int32_t, n);
  p->order = DNNMEM__TAKE(s, int32_t, n);
  p->ids = DNNMEM__TAKE(s, int32_t, n2);
  p->tmp = DNNMEM__TAKE(s, int32_t, n2);
  p->vals = DNNMEM__TAKE(s, int64_t, n2);
  p->by_lower = DNNMEM__TAKE(s, int32_t, n);
  p->maxup = DNNMEM__TAKE(s, int64_t, n);
  p->tree_pos = DNNMEM__TAKE(s, int32_t, n);
  p->tree_lower = DNNMEM__TAKE(s, int64_t, n);
  p->tree_upper = DNNMEM__TAKE(s, int64_t, n);
  p->found = DNNMEM__TAKE(s, int32_t, n);
  if (!full) return;
  p->found_key = DNNMEM__TAKE(s, int64_t, n);
  p->found_key2 = DNNMEM__TAKE(s, int64_t, n);
  p->steps.h = NULL;
  if (full == 3) { /* greedy-tflm alone */
    dnnmem__gap_layout(s, n, p);
    return;
  }
  p->steps.h = DNNMEM__TAKE(s, int64_t, nodes);
  p->steps.bits = DNNMEM__TAKE(s, uint64_t, nodes); /* T / 63 + 6 words at most */
  p->breadth = DNNMEM__TAKE(s, int64_t, n2);
  p->rank_tree = DNNMEM__TAKE(s, int32_t, 2 * n2);
  p->widest = DNNMEM__TAKE(s, int32_t, n);
  p->run_end = DNNMEM__TAKE(s, int32_t, n2);
  p->run_prev = DNNMEM__TAKE(s, int32_t, n2);
  p->run_next = DNNMEM__TAKE(s, int32_t, n2);
  p->run_h = DNNMEM__TAKE(s, int64_t, n2);
  p->skip = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  p->heap.key = DNNMEM__TAKE(s, int64_t, heap_cap);
  p->heap.id = DNNMEM__TAKE(s, int32_t, heap_cap);
  p->cover_bytes = 0;
  chains.records = NULL; /* the size depends on the count only */
  chains.count = n;
  chains.alignment = 0;
  if (dnnmem_plan_chains_scratch_size(&chains, &p->cover_bytes) != DNNMEM_OK) s->overflow = 1;
  p->cover_scratch = DNNMEM__TAKE(s, unsigned char, p->cover_bytes);
  if (full < 2) return;
  dnnmem__gap_layout(s, n, p);
}

/* Orders: each a "less" over record ids with explicit tie-breaks (id last,
   through the sort's stability). */
static int dnnmem__less_by_lower(const void *ctx, int32_t a, int32_t b) {
  const dnnmem_interval *r = (const dnnmem_interval *)ctx;
  return r[a].lower < r[b].lower || (r[a].lower == r[b].lower && r[a].upper < r[b].upper);
}
static int dnnmem__less_by_size_desc(const void *ctx, int32_t a, int32_t b) {
  const dnnmem_interval *r = (const dnnmem_interval *)ctx;
  return r[a].size > r[b].size;
}

/* Interval tree of the records that matter to the current strategy (the
   placed ones for the gap rule, the fixed ones for the others): records
   sorted by lower form an implicit balanced tree (the root of [lo, hi) is
   its middle) keeping the largest upper of the inserted records of each
   subtree, so a query visits only subtrees holding a record that meets it:
   O(log n) per insertion, O((1 + k) log n) per query. */
static int dnnmem__itree_holds(const dnnmem__planner *p, int32_t r) {
  return p->off[r] >= 0 && (p->tree_takes_placed || (p->rec[r].flags & DNNMEM_INTERVAL_FIXED));
}

static void dnnmem__itree_insert(dnnmem__planner *p, int32_t r) {
  int32_t lo = 0, hi = p->n, pos = p->tree_pos[r];
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (p->maxup[mid] < p->rec[r].upper) p->maxup[mid] = p->rec[r].upper;
    if (pos == mid) return;
    if (pos < mid) hi = mid;
    else lo = mid + 1;
  }
}

/* Appends to p->found the records in the tree that meet [l, u). */
static void dnnmem__itree_query(dnnmem__planner *p, int32_t lo, int32_t hi, int64_t l, int64_t u) {
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2, r;
    if (p->maxup[mid] <= l) return;
    dnnmem__itree_query(p, lo, mid, l, u);
    if (p->tree_lower[mid] >= u) return;
    r = p->by_lower[mid];
    if (p->tree_upper[mid] > l && dnnmem__itree_holds(p, r)) p->found[p->found_count++] = r;
    lo = mid + 1; /* the right subtree, iteratively */
  }
}

/* The records in the tree meeting record r in time, by offset (ties in
   the order found): a stable sort with the offsets beside the ids,
   insertion sort on runs of DNNMEM__PLAN_FOUND_RUN, then merges (the gap
   rule's hot spot: no comparison callback). */
static void dnnmem__neighbours(dnnmem__planner *p, int32_t r) {
  int32_t n, i, j, width, *id = p->found, *id2 = p->tmp, *ti;
  int64_t *k = p->found_key, *k2 = p->found_key2, *tk;
  p->found_count = 0;
  dnnmem__itree_query(p, 0, p->n, p->rec[r].lower, p->rec[r].upper);
  n = p->found_count;
  for (i = 0; i < n; i++) k[i] = p->off[id[i]];
  for (i = 0; i < n; i += DNNMEM__PLAN_FOUND_RUN) {
    int32_t end = i + DNNMEM__PLAN_FOUND_RUN < n ? i + DNNMEM__PLAN_FOUND_RUN : n, a;
    for (a = i + 1; a < end; a++) {
      int64_t kv = k[a];
      int32_t iv = id[a];
      for (j = a; j > i && k[j - 1] > kv; j--) {
        k[j] = k[j - 1];
        id[j] = id[j - 1];
      }
      k[j] = kv;
      id[j] = iv;
    }
  }
  for (width = DNNMEM__PLAN_FOUND_RUN; width < n; width *= 2) {
    for (i = 0; i < n; i += 2 * width) {
      int32_t mid = i + width < n ? i + width : n, end = i + 2 * width < n ? i + 2 * width : n;
      int32_t a = i, b = mid, o = i;
      while (a < mid && b < end) {
        if (k[b] < k[a]) k2[o] = k[b], id2[o++] = id[b++];
        else k2[o] = k[a], id2[o++] = id[a++];
      }
      for (; a < mid; a++) k2[o] = k[a], id2[o++] = id[a];
      for (; b < end; b++) k2[o] = k[b], id2[o++] = id[b];
    }
    tk = k, k = k2, k2 = tk;
    ti = id, id = id2, id2 = ti;
  }
  if (id != p->found) DNNMEM_MEMCPY(p->found, id, (size_t)n * sizeof(int32_t));
}

/* The lowest aligned offset >= start where r touches no fixed record. */
static int64_t dnnmem__avoid_fixed(dnnmem__planner *p, int32_t r, int64_t start) {
  int64_t a = dnnmem_interval_alignment(&p->rec[r], p->align), size = p->rec[r].size;
  int32_t k;
  if (p->num_fixed == 0 || size == 0) return start;
  dnnmem__neighbours(p, r); /* only fixed records are in the tree */
  for (k = 0; k < p->found_count; k++) {
    int32_t f = p->found[k];
    int64_t end = p->off[f] + p->rec[f].size;
    if (p->rec[f].size > 0 && start < end && p->off[f] < start + size)
      start = dnnmem__align_up(end, a);
  }
  return start;
}

/* The gap rule's time tree: a perfect binary tree over P leaves, each of
   2^gap_shift time segments (node 1 the root, node P + b block b). Each record belongs to the deepest node whose range holds its
   lifetime, so the records meeting record r in time are some of r's
   node's, of its ancestors' and of its descendants' (those whose range
   meets r's lifetime); no other node's. A node keeps its placed records
   by offset and their bytes merged into runs (sorted disjoint intervals),
   both arrays in place, sized by a count beforehand; gap_ext bounds its
   records' lifetimes, gap_sub marks a subtree holding placed records,
   gap_anc a node's ancestors holding some (a query visits only those). A node
   whose records all meet r takes off its runs, one that only some meet
   its records one by one. */
static void dnnmem__gap_tree_reset(dnnmem__planner *p) {
  int32_t P = 1, i, v, S = DNNMEM__PLAN_GAP_SHIFT;
  while (S > 0 && ((int64_t)p->segments << (DNNMEM__PLAN_GAP_SHIFT - S)) < p->n) S--; /* dense: finer leaves */
  while (((int64_t)P << S) < p->segments) P *= 2;
  p->gap_leaves = P;
  p->gap_shift = S;
  for (v = 0; v <= 2 * P; v++) p->gap_start[v] = 0;
  for (i = 0; i < p->n; i++) {
    int32_t x = P + (p->lo[i] >> S), y = P + ((p->hi[i] - 1) >> S);
    while (x != y) x >>= 1, y >>= 1;
    p->gap_node[i] = x;
    p->gap_start[x + 1]++;
  }
  for (v = 1; v <= 2 * P; v++) p->gap_start[v] += p->gap_start[v - 1];
  for (v = 0; v < 2 * P; v++) {
    p->gap_count[v] = p->gap_runs[v] = p->gap_zeros[v] = 0;
    p->gap_span[2 * v] = DNNMEM__I64_MAX;
    p->gap_span[2 * v + 1] = -1;
    p->gap_anc[v] = 0;
    p->gap_ext[4 * v] = p->gap_ext[4 * v + 2] = DNNMEM__I32_MAX;
    p->gap_ext[4 * v + 1] = p->gap_ext[4 * v + 3] = -1;
  }
}

/* Whether entry j continues entry j - 1's segment: a node's entries by
   offset fall into segments, each contiguous in bytes with lower rising
   and upper falling (records stacked as a network saves activations:
   the earliest made freed last), so the records of a segment meeting any
   time span are a prefix of it. */
static int dnnmem__gap_link(const dnnmem__gap_entry *e, int32_t j) {
  return e[j].off == e[j - 1].end && e[j].lo >= e[j - 1].lo && e[j].hi <= e[j - 1].hi;
}

/* Adds placed record r to its node: its entry after the ones at its
   offset (the segments around it recounted), its bytes into the runs. */
static void dnnmem__gap_insert(dnnmem__planner *p, int32_t r) {
  int32_t v = p->gap_node[r], base = p->gap_start[v], a = base, b = a + p->gap_count[v], k, j;
  int32_t *ext = p->gap_ext + 4 * v;
  dnnmem__gap_entry *e = p->gap_ent, x;
  x.off = p->off[r];
  x.end = p->off[r] + p->rec[r].size;
  x.lo = p->lo[r];
  x.hi = p->hi[r];
  x.seg = 0;
  for (k = b; a < k;) { /* the first entry above x.off */
    int32_t mid = a + (k - a) / 2;
    if (e[mid].off <= x.off) a = mid + 1;
    else k = mid;
  }
  for (k = b; k > a; k--) e[k] = e[k - 1];
  e[a] = x;
  /* an inner node's segments (a leaf's are not used) from the one holding
     a - 1 to the end of the one that held the entry now at a + 1 are
     recounted; those after keep theirs */
  if (v < p->gap_leaves) {
    if ((j = a) > base)
      for (j--; e[j].seg == 0; j--) continue; /* a node's first entry starts one */
    k = a + 1 > b ? a + 1 : e[a + 1].seg > 0 ? a + 1 + e[a + 1].seg : j + e[j].seg + 1;
    for (b = j++; j <= k; j++)
      if (j == k || !dnnmem__gap_link(e, j)) {
        e[b].seg = j - b;
        b = j;
      } else {
        e[j].seg = 0;
      }
    /* the recount ends where a segment (or the node) does */
    DNNMEM_ASSERT(k > base + p->gap_count[v] || e[k].seg > 0);
  }
  if (p->gap_count[v]++ == 0) /* v's first record: its descendants learn (once per node) */
    for (k = 1, j = 2 * v; j < 2 * p->gap_leaves; k++, j *= 2)
      for (a = 0; a < (int32_t)1 << k; a++) p->gap_anc[j + a] |= (uint32_t)1 << k;
  if (x.lo < ext[0]) ext[0] = x.lo;
  if (x.lo > ext[1]) ext[1] = x.lo;
  if (x.hi < ext[2]) ext[2] = x.hi;
  if (x.hi > ext[3]) ext[3] = x.hi;
  { /* the subtrees' spans (a zero size: never skipped) */
    int64_t lo = x.end == x.off ? 0 : x.off, hi = x.end == x.off ? DNNMEM__I64_MAX : x.end;
    for (k = v; k >= 1 && (p->gap_span[2 * k] > lo || p->gap_span[2 * k + 1] < hi); k >>= 1) {
      if (p->gap_span[2 * k] > lo) p->gap_span[2 * k] = lo;
      if (p->gap_span[2 * k + 1] < hi) p->gap_span[2 * k + 1] = hi;
    }
  }
  if (x.end == x.off) {
    p->gap_zeros[v]++;
    return;
  }
  e = p->gap_run + base;
  b = p->gap_runs[v];
  for (a = 0, k = b; a < k;) { /* the first run reaching x.off */
    int32_t mid = a + (k - a) / 2;
    if (e[mid].end < x.off) a = mid + 1;
    else k = mid;
  }
  for (j = a; j < b && e[j].off <= x.end; j++) { /* the runs x meets or touches merge into it */
    if (e[j].off < x.off) x.off = e[j].off;
    if (e[j].end > x.end) x.end = e[j].end;
  }
  if (j == a) {
    for (k = b; k > a; k--) e[k] = e[k - 1];
    b++;
  } else if (j > a + 1) {
    for (k = j; k < b; k++) e[k - (j - a - 1)] = e[k];
    b -= j - a - 1;
  }
  e[a] = x;
  p->gap_runs[v] = b;
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define DNNMEM__GAP_INLINE __inline__ __attribute__((always_inline))
#else
#define DNNMEM__GAP_INLINE
#endif

/* The free intervals [fa[k], fb[k]) (sorted, disjoint, the last
   unbounded; gap_cur of them) are cut by one node's pieces at a time, the
   pieces by offset (they may overlap): one merge into the other buffer.
   An interval shorter than need (the record's size: it can never hold the
   record, and cuts only shrink it) is dropped as it is passed. [a, b) is
   what is left of interval i; out intervals written. */
typedef struct dnnmem__gap_cut {
  const int64_t *fa, *fb;
  int64_t *ta, *tb, a, b, need;
  int32_t i, out, cut;
} dnnmem__gap_cut;

static DNNMEM__GAP_INLINE void dnnmem__gap_cut_begin(const dnnmem__planner *p, dnnmem__gap_cut *k) {
  k->fa = p->gap_fa;
  k->fb = p->gap_fb;
  k->ta = p->gap_ta;
  k->tb = p->gap_tb;
  k->need = p->gap_need;
  k->a = k->fa[0];
  k->b = k->fb[0];
  k->i = k->out = k->cut = 0;
}

/* [o, x) (o < x, o at or above the previous piece's) off the intervals. */
static DNNMEM__GAP_INLINE void dnnmem__gap_cut_piece(dnnmem__gap_cut *k, int64_t o, int64_t x) {
  while (k->b <= o) { /* passed: kept when it can hold the record */
    if (k->b - k->a >= k->need) k->ta[k->out] = k->a, k->tb[k->out++] = k->b;
    k->a = k->fa[++k->i];
    k->b = k->fb[k->i];
  }
  if (k->a >= x) return; /* taken already */
  k->cut = 1;
  if (k->a < o && o - k->a >= k->need) k->ta[k->out] = k->a, k->tb[k->out++] = o;
  while (k->b <= x) { /* covered whole (never the unbounded last) */
    k->a = k->fa[++k->i];
    k->b = k->fb[k->i];
  }
  if (k->a < x) k->a = x;
}

/* The rest passed over, the buffers swapped (when a piece cut anything). */
static DNNMEM__GAP_INLINE void dnnmem__gap_cut_end(dnnmem__planner *p, dnnmem__gap_cut *k) {
  int32_t i, c = p->gap_cur;
  int64_t *t;
  if (!k->cut) return;
  if (k->b - k->a >= k->need || k->b == DNNMEM__I64_MAX) k->ta[k->out] = k->a, k->tb[k->out++] = k->b;
  for (i = k->i + 1; i < c; i++) k->ta[k->out] = k->fa[i], k->tb[k->out++] = k->fb[i];
  p->gap_cur = k->out;
  t = p->gap_fa, p->gap_fa = p->gap_ta, p->gap_ta = t;
  t = p->gap_fb, p->gap_fb = p->gap_tb, p->gap_tb = t;
}

/* Whether bytes [lo, hi) are all taken already (lo < hi). */
static int dnnmem__gap_taken(const dnnmem__planner *p, int64_t lo, int64_t hi) {
  const int64_t *fa = p->gap_fa, *fb = p->gap_fb;
  int32_t i;
  for (i = 0; fb[i] <= lo; i++) continue;
  return fa[i] >= hi;
}

/* Whether a record of node u meets segments [L, H) (the bounds of an
   empty node meet nothing). */
#define DNNMEM__GAP_MEETS(p, u, L, H) ((p)->gap_ext[4 * (u)] < (H) && (p)->gap_ext[4 * (u) + 3] > (L))

/* Node u's records meeting segments [L, H) off the free intervals: its
   runs when all of them meet it, else its records one by one (by offset). */
static void dnnmem__gap_cut_node(dnnmem__planner *p, int32_t u, int32_t L, int32_t H) {
  const int32_t *ext = p->gap_ext + 4 * u;
  const dnnmem__gap_entry *e, *last;
  dnnmem__gap_cut k;
  dnnmem__gap_cut_begin(p, &k);
  if (ext[1] < H && ext[2] > L) { /* all of them */
    if (p->gap_zeros[u] > 0) p->gap_zero = 1;
    e = p->gap_run + p->gap_start[u];
    for (last = e + p->gap_runs[u]; e < last; e++) dnnmem__gap_cut_piece(&k, e->off, e->end);
  } else {
    e = p->gap_ent + p->gap_start[u];
    last = e + p->gap_count[u];
    if (p->gap_zeros[u] == 0) {
      int32_t len, lo, hi, mid;
      if (u < p->gap_leaves) { /* by segments: a prefix of each meets (binary search) */
        for (; e < last; e += len) {
          len = e->seg;
          if (e->lo >= H || e->hi <= L) continue;
          lo = len;
          if (e[len - 1].lo >= H || e[len - 1].hi <= L) /* not all of it */
            for (lo = 1, hi = len - 1; lo < hi;) {
              mid = lo + (hi - lo) / 2;
              if (e[mid].lo < H && e[mid].hi > L) lo = mid + 1;
              else hi = mid;
            }
          dnnmem__gap_cut_piece(&k, e->off, e[lo - 1].end);
        }
      } else { /* a leaf's short records meet at random: listed without branches, then cut */
        int32_t *sel = p->found, m = 0, j;
        for (j = 0; e + j < last; j++) {
          sel[m] = j;
          m += (e[j].lo < H) & (e[j].hi > L);
        }
        for (j = 0; j < m; j++) dnnmem__gap_cut_piece(&k, e[sel[j]].off, e[sel[j]].end);
      }
    } else {
      for (; e < last; e++) {
        if (e->lo >= H || e->hi <= L) continue;
        if (e->off == e->end) p->gap_zero = 1;
        else dnnmem__gap_cut_piece(&k, e->off, e->end);
      }
    }
  }
  dnnmem__gap_cut_end(p, &k);
}

/* Node u (blocks [ul, uh)) and its subtree, for segments [L, H). */
static void dnnmem__gap_cut_below(dnnmem__planner *p, int32_t u, int32_t ul, int32_t uh, int32_t L, int32_t H) {
  while (((int64_t)uh << p->gap_shift) > L && ((int64_t)ul << p->gap_shift) < H &&
         p->gap_span[2 * u + 1] >= 0 && !dnnmem__gap_taken(p, p->gap_span[2 * u], p->gap_span[2 * u + 1])) {
    int32_t mid = ul + (uh - ul) / 2;
    if (DNNMEM__GAP_MEETS(p, u, L, H)) dnnmem__gap_cut_node(p, u, L, H);
    if (u >= p->gap_leaves) return;
    dnnmem__gap_cut_below(p, 2 * u, ul, mid, L, H);
    u = 2 * u + 1, ul = mid; /* the right child, iteratively */
  }
}

/* The free intervals of the bytes of the placed records meeting segments
   [L, H) (within node v's range) into gap_fa / gap_fb (gap_cur of them,
   the last from their top up; those shorter than need dropped); 0 when a
   zero-size record meets them. */
static int dnnmem__gap_free_span(dnnmem__planner *p, int32_t v, int32_t L, int32_t H, int64_t need) {
  int32_t u, ul, uh, mid;
  int32_t level = dnnmem__clz_top64((uint64_t)v), height = dnnmem__clz_top64((uint64_t)p->gap_leaves) - level;
  uint32_t anc = p->gap_anc[v];
  p->gap_fa[0] = 0; /* in whichever buffer the last query ended */
  p->gap_fb[0] = DNNMEM__I64_MAX;
  p->gap_cur = 1;
  p->gap_need = need;
  p->gap_zero = 0;
  for (; anc; anc &= anc - 1) { /* the ancestors holding records (any order: the free set is the same) */
    u = v >> dnnmem__ctz64(anc);
    if (DNNMEM__GAP_MEETS(p, u, L, H)) dnnmem__gap_cut_node(p, u, L, H);
  }
  if (DNNMEM__GAP_MEETS(p, v, L, H)) dnnmem__gap_cut_node(p, v, L, H);
  if (v < p->gap_leaves) {
    ul = (v - ((int32_t)1 << level)) << height;
    uh = ul + ((int32_t)1 << height);
    mid = ul + (uh - ul) / 2;
    dnnmem__gap_cut_below(p, 2 * v, ul, mid, L, H);
    dnnmem__gap_cut_below(p, 2 * v + 1, mid, uh, L, H);
  }
  return !p->gap_zero;
}

/* Those meeting record r (shorter than r dropped). */
static int dnnmem__gap_free(dnnmem__planner *p, int32_t r) {
  return dnnmem__gap_free_span(p, p->gap_node[r], p->lo[r], p->hi[r], p->rec[r].size);
}

/* Of free intervals [fa[k], fb[k]) (the last unbounded), the smallest
   that holds a record of this size and alignment (the lowest of equal
   ones), else the top's offset. */
static int64_t dnnmem__gap_best(const int64_t *fa, const int64_t *fb, int32_t count, int64_t a, int64_t size) {
  int64_t best = -1, best_gap = DNNMEM__I64_MAX, cand;
  int32_t k;
  for (k = 0; k + 1 < count; k++) {
    cand = dnnmem__align_up(fa[k], a);
    if (cand + size <= fb[k] && fb[k] - fa[k] < best_gap) {
      best_gap = fb[k] - fa[k];
      best = cand;
    }
  }
  return best >= 0 ? best : dnnmem__align_up(fa[count - 1], a);
}

/* TFLite's rule: the smallest gap between placed neighbours that fits
   (the lowest of equal ones), else above them all. A gap is a free
   interval of the neighbours' bytes (the time tree's), bounded above;
   with a zero-size record (r or a neighbour) the neighbours are scanned by
   offset instead, as the rule reads (a zero-size neighbour at x leaves no
   gap below x in its free interval), from the interval tree, which then
   takes every placed record. */
/* Puts the placed records the interval tree has not seen into it: the gap
   rules fill it only when they fall back to the walk over neighbours. */
static void dnnmem__itree_fill(dnnmem__planner *p) {
  int32_t k;
  if (p->itree_all) return;
  for (k = 0; k < p->n; k++)
    if (p->off[k] >= 0 && !(p->rec[k].flags & DNNMEM_INTERVAL_FIXED)) dnnmem__itree_insert(p, k);
  p->itree_all = 1;
}

static void dnnmem__place_in_gap(dnnmem__planner *p, int32_t r) {
  int64_t a = dnnmem_interval_alignment(&p->rec[r], p->align), size = p->rec[r].size;
  int64_t prev_end = 0, best = -1, best_gap = DNNMEM__I64_MAX, cand;
  int32_t k;
  if (p->gap_leaves > 0 && size > 0 && dnnmem__gap_free(p, r)) {
    best = dnnmem__gap_best(p->gap_fa, p->gap_fb, p->gap_cur, a, size);
  } else {
    dnnmem__itree_fill(p);
    dnnmem__neighbours(p, r);
    for (k = 0; k < p->found_count; k++) {
      int32_t q = p->found[k];
      cand = dnnmem__align_up(prev_end, a);
      if (p->rec[q].size > 0 && cand + size <= p->off[q] && p->off[q] - prev_end < best_gap) {
        best_gap = p->off[q] - prev_end;
        best = cand;
      }
      if (p->off[q] + p->rec[q].size > prev_end) prev_end = p->off[q] + p->rec[q].size;
    }
    if (best < 0) best = dnnmem__align_up(prev_end, a);
  }
  p->off[r] = best;
  if (p->itree_all) dnnmem__itree_insert(p, r);
  if (p->gap_leaves > 0) dnnmem__gap_insert(p, r);
}

/* LeapMind's rule: on top of everything placed over the lifetime. */
static void dnnmem__place_on_top(dnnmem__planner *p, int32_t r) {
  int64_t a = dnnmem_interval_alignment(&p->rec[r], p->align), start;
  start = dnnmem__align_up(dnnmem__steps_top(&p->steps, p->lo[r], p->hi[r]), a);
  start = dnnmem__avoid_fixed(p, r, start);
  p->off[r] = start;
  dnnmem__steps_raise(&p->steps, p->lo[r], p->hi[r], start + p->rec[r].size);
}

/* Fixed records placed (and in the interval tree), everything else not;
   takes_placed: the strategy's placements join the tree too. */
static void dnnmem__plan_reset(dnnmem__planner *p, int takes_placed) {
  int32_t i;
  p->tree_takes_placed = takes_placed;
  for (i = 0; i < p->n; i++) {
    p->maxup[i] = DNNMEM__I64_MIN;
    p->off[i] = (p->rec[i].flags & DNNMEM_INTERVAL_FIXED) ? p->rec[i].fixed_offset : -1;
  }
  for (i = 0; i < p->n; i++)
    if (p->off[i] >= 0) dnnmem__itree_insert(p, i);
  if (p->steps.h) dnnmem__steps_reset(&p->steps, p->segments);
}

static void dnnmem__plan_naive(dnnmem__planner *p) {
  int64_t top = 0;
  int32_t i;
  for (i = 0; i < p->n; i++)
    if (p->off[i] >= 0) top = dnnmem__max64(top, p->off[i] + p->rec[i].size);
  for (i = 0; i < p->n; i++) {
    if (p->off[i] >= 0) continue;
    p->off[i] = dnnmem__align_up(top, dnnmem_interval_alignment(&p->rec[i], p->align));
    top = p->off[i] + p->rec[i].size;
  }
}

/* The free records by size, descending (then id): one radix pass. */
static int32_t dnnmem__free_by_size(dnnmem__planner *p) {
  int32_t i, m = 0;
  for (i = 0; i < p->n; i++) {
    p->vals[i] = -p->rec[i].size;
    if (!(p->rec[i].flags & DNNMEM_INTERVAL_FIXED)) p->order[m++] = i;
  }
  dnnmem__radix_sort(p->order, p->tmp, m, p->vals);
  return m;
}

/* The placement orders visit records at random, and a placement's first
   reads (its record, lifetime, node) would miss the cache one after the
   other: the loops fetch them this many placements ahead (and, half as
   far ahead, the first entries of the node), so the misses overlap the
   work. Macros: a function of prefetches alone is pure to the compiler,
   and its calls would go. */
#define DNNMEM__PLAN_AHEAD 8
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define DNNMEM__PREFETCH(addr) __builtin_prefetch(addr)
#define DNNMEM__PLAN_FETCH(p, r)      \
  do {                                \
    DNNMEM__PREFETCH(&(p)->rec[r]);   \
    DNNMEM__PREFETCH(&(p)->lo[r]);    \
    DNNMEM__PREFETCH(&(p)->hi[r]);    \
    DNNMEM__PREFETCH(&(p)->off[r]);   \
  } while (0)
#define DNNMEM__GAP_AHEAD(p, i, m)                                              \
  do {                                                                          \
    if ((i) + DNNMEM__PLAN_AHEAD < (m)) {                                       \
      DNNMEM__PLAN_FETCH(p, (p)->order[(i) + DNNMEM__PLAN_AHEAD]);              \
      DNNMEM__PREFETCH(&(p)->gap_node[(p)->order[(i) + DNNMEM__PLAN_AHEAD]]);   \
    }                                                                           \
    if ((p)->gap_leaves > 0 && (i) + DNNMEM__PLAN_AHEAD / 2 < (m)) {            \
      int32_t at_ = (p)->gap_start[(p)->gap_node[(p)->order[(i) + DNNMEM__PLAN_AHEAD / 2]]]; \
      DNNMEM__PREFETCH(&(p)->gap_ent[at_]);                                     \
      DNNMEM__PREFETCH(&(p)->gap_ent[at_ + 2]);                                 \
      DNNMEM__PREFETCH(&(p)->gap_run[at_]);                                     \
    }                                                                           \
  } while (0)
#else /* no prefetch: nothing to fetch ahead (nor in builds for size) */
#define DNNMEM__PLAN_FETCH(p, r) ((void)0)
#define DNNMEM__GAP_AHEAD(p, i, m) ((void)0)
#endif

/* The gap rule's time tree with the fixed records (when laid out). */
static void dnnmem__gap_begin(dnnmem__planner *p) {
  int32_t i;
  p->gap_leaves = 0;
  p->itree_all = !p->gap_tree; /* the fixed records are in */
  if (!p->gap_tree) return;
  dnnmem__gap_tree_reset(p);
  for (i = 0; i < p->n; i++)
    if (p->off[i] >= 0) dnnmem__gap_insert(p, i);
}

/* Greedy-breadth's gap rule by a sweep (without zero sizes): a step c and
   F, the free intervals of the placed records alive at c (disjoint in
   bytes: they share a step). Record r at a step t of its lifetime [L, H)
   meets every record alive at t, and the others it meets end in (L, t]
   or start in (t, H): with few of those, r's free intervals are F's at t
   that can hold r, cut by them (the time tree's intervals, the same
   plan). Placed records are marked by their ends and starts (bits over 2T
   positions: ends at hi - 1, starts at T + lo; a list per segment), so
   moving c to t frees the bytes of those that die between and cuts those
   born between, and r's few others are found the same way. t is r's
   widest step: a group's members share it, and in training graphs all
   but about one neighbour is alive there (the wider steps' groups come
   first). Over DNNMEM__PLAN_SWEEP_MAX records or words of bits: the time
   tree's query (and F from one at t). Lists and F in bestfit's arrays
   (unused here). Builds for size leave it out (2.5 KB of code at -Os; the
   time tree gives the same plans). Not for greedy-size: its order runs
   over all of time once per size, and moving c costs as much as the
   tree's queries it saves. */
#if !defined(__OPTIMIZE_SIZE__)
#define DNNMEM__PLAN_SWEEP 1
#define DNNMEM__PLAN_SWEEP_MAX 32

typedef struct dnnmem__sweep {
  uint64_t *bits;
  int64_t *fa, *fb; /* F: at most n + 1 (n - 1 placed, each splits one) */
  int32_t nf, c, got[DNNMEM__PLAN_SWEEP_MAX];
} dnnmem__sweep;

static void dnnmem__sweep_mark(dnnmem__planner *p, dnnmem__sweep *w, int32_t r) {
  int32_t *end_head = p->run_end, *start_head = p->run_prev, *end_next = p->run_next, *start_next = p->skip;
  int32_t e = p->hi[r] - 1, s = p->segments + p->lo[r];
  end_next[r] = end_head[p->hi[r]];
  end_head[p->hi[r]] = r;
  start_next[r] = start_head[p->lo[r]];
  start_head[p->lo[r]] = r;
  w->bits[e >> 6] |= (uint64_t)1 << (e & 63);
  w->bits[s >> 6] |= (uint64_t)1 << (s & 63);
}

/* Appends to got (count *c) the placed records marked at positions
   [from, to) (ends or starts: below T or not); 0 past
   DNNMEM__PLAN_SWEEP_MAX records or words. */
static DNNMEM__GAP_INLINE int dnnmem__sweep_collect(const dnnmem__planner *p, dnnmem__sweep *w, int32_t from,
                                                    int32_t to, int32_t *c) {
  int32_t i, T = p->segments, q;
  int starts = from >= T;
  const int32_t *head = starts ? p->run_prev : p->run_end, *next = starts ? p->skip : p->run_next;
  if (from >= to) return 1;
  if (((to - 1) >> 6) - (from >> 6) >= DNNMEM__PLAN_SWEEP_MAX) return 0;
  for (i = from >> 6; i <= (to - 1) >> 6; i++) {
    uint64_t word = w->bits[i];
    if (i == from >> 6) word &= ~(uint64_t)0 << (from & 63);
    if (i == (to - 1) >> 6) word &= ~(uint64_t)0 >> (63 - ((to - 1) & 63));
    for (; word; word &= word - 1) {
      int32_t b = 64 * i + dnnmem__ctz64(word);
      for (q = head[starts ? b - T : b + 1]; q >= 0; q = next[q]) {
        if (*c == DNNMEM__PLAN_SWEEP_MAX) return 0;
        w->got[(*c)++] = q;
      }
    }
  }
  return 1;
}

/* F's first interval starting above o. */
static DNNMEM__GAP_INLINE int32_t dnnmem__sweep_find(const dnnmem__sweep *w, int64_t o) {
  int32_t a = 0, b = w->nf;
  while (a < b) {
    int32_t mid = a + (b - a) / 2;
    if (w->fa[mid] <= o) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* Placed record q's bytes off F (cut) or back into it (q alive at c). */
static DNNMEM__GAP_INLINE void dnnmem__sweep_flip(dnnmem__planner *p, dnnmem__sweep *w, int32_t q, int cut) {
  int64_t o = p->off[q], e = o + p->rec[q].size, *fa = w->fa, *fb = w->fb;
  int32_t j = dnnmem__sweep_find(w, o), k;
  if (cut) { /* within interval j - 1 */
    j--;
    if (fa[j] < o && e < fb[j]) { /* split in two */
      for (k = w->nf++; k > j + 1; k--) fa[k] = fa[k - 1], fb[k] = fb[k - 1];
      fa[j + 1] = e;
      fb[j + 1] = fb[j];
      fb[j] = o;
    } else if (fa[j] < o) {
      fb[j] = o;
    } else if (e < fb[j]) {
      fa[j] = e;
    } else { /* filled whole */
      for (w->nf--; j < w->nf; j++) fa[j] = fa[j + 1], fb[j] = fb[j + 1];
    }
  } else if (j > 0 && fb[j - 1] == o) { /* between intervals j - 1 and j (the last is unbounded) */
    if (fa[j] == e) {
      fb[j - 1] = fb[j];
      for (w->nf--; j < w->nf; j++) fa[j] = fa[j + 1], fb[j] = fb[j + 1];
    } else {
      fb[j - 1] = e;
    }
  } else if (fa[j] == e) {
    fa[j] = o;
  } else {
    for (k = w->nf++; k > j; k--) fa[k] = fa[k - 1], fb[k] = fb[k - 1];
    fa[j] = o;
    fb[j] = e;
  }
}

/* Moves c to t: frees the bytes of the records alive at c, not at t, then
   cuts those alive at t, not at c (all marked between); 0 when too far. */
static int dnnmem__sweep_move(dnnmem__planner *p, dnnmem__sweep *w, int32_t t) {
  int32_t c = w->c, T = p->segments, lo = c < t ? c : t, hi = c < t ? t : c, n = 0, pass, j;
  if (!dnnmem__sweep_collect(p, w, lo, hi, &n) ||
      !dnnmem__sweep_collect(p, w, T + lo + 1, T + hi + 1, &n))
    return 0;
  for (pass = 0; pass < 2; pass++)
    for (j = 0; j < n; j++) {
      int32_t q = w->got[j], was = p->lo[q] <= c && p->hi[q] > c, is = p->lo[q] <= t && p->hi[q] > t;
      if (was != is && is == pass) dnnmem__sweep_flip(p, w, q, pass);
    }
  w->c = t;
  return 1;
}

/* r's free intervals at its step c: F's that can hold r, cut by the
   placed records ending in (L, c] or starting in (c, H) (by offset:
   insertion sort), into gap_fa / gap_fb; 2 when there are none (F's
   serve), 0 when there are too many. */
static int dnnmem__sweep_free(dnnmem__planner *p, dnnmem__sweep *w, int32_t r) {
  int64_t o[DNNMEM__PLAN_SWEEP_MAX], x[DNNMEM__PLAN_SWEEP_MAX], size = p->rec[r].size;
  int32_t T = p->segments, n = 0, i, j;
  dnnmem__gap_cut k;
  if (!dnnmem__sweep_collect(p, w, p->lo[r], w->c, &n) ||
      !dnnmem__sweep_collect(p, w, T + w->c + 1, T + p->hi[r], &n))
    return 0;
  if (n == 0) return 2;
  for (i = 0; i < n; i++) {
    int64_t qo = p->off[w->got[i]];
    for (j = i; j > 0 && o[j - 1] > qo; j--) o[j] = o[j - 1], x[j] = x[j - 1];
    o[j] = qo;
    x[j] = qo + p->rec[w->got[i]].size;
  }
  for (j = 0, p->gap_cur = 0; j < w->nf; j++) /* F's intervals that can hold r (the last: unbounded) */
    if (w->fb[j] - w->fa[j] >= size || j == w->nf - 1) {
      p->gap_fa[p->gap_cur] = w->fa[j];
      p->gap_fb[p->gap_cur++] = w->fb[j];
    }
  p->gap_need = size;
  dnnmem__gap_cut_begin(p, &k);
  for (j = 0; j < n; j++) dnnmem__gap_cut_piece(&k, o[j], x[j]);
  dnnmem__gap_cut_end(p, &k);
  return 1;
}

/* F at t from the time tree (the query's free intervals, nothing dropped). */
static void dnnmem__sweep_at(dnnmem__planner *p, dnnmem__sweep *w, int32_t t) {
  dnnmem__gap_free_span(p, p->gap_leaves + (t >> p->gap_shift), t, t + 1, 0);
  w->nf = p->gap_cur;
  DNNMEM_MEMCPY(w->fa, p->gap_fa, (size_t)w->nf * sizeof(int64_t));
  DNNMEM_MEMCPY(w->fb, p->gap_fb, (size_t)w->nf * sizeof(int64_t));
  w->c = t;
}
#endif

/* Greedy-breadth's m records in order by the gap rule: by the sweep
   where it can (no zero sizes), else record by record by the time tree. */
static void dnnmem__breadth_place(dnnmem__planner *p, int32_t m) {
#ifdef DNNMEM__PLAN_SWEEP
  dnnmem__sweep w;
  int32_t T = p->segments, k;
#endif
  int32_t i;
  dnnmem__gap_begin(p);
  for (i = 0; i < p->n && p->rec[i].size > 0; i++) continue;
#ifdef DNNMEM__PLAN_SWEEP
  if (p->gap_leaves == 0 || i < p->n) /* a zero size: the walk over neighbours, record by record */
#endif
  {
    for (i = 0; i < m; i++) {
      DNNMEM__GAP_AHEAD(p, i, m);
      dnnmem__place_in_gap(p, p->order[i]);
    }
    return;
  }
#ifdef DNNMEM__PLAN_SWEEP
  w.bits = p->steps.bits; /* 4n words at least */
  w.fa = p->run_h;
  w.fb = p->heap.key;
  w.c = -1;
  w.nf = 0;
  DNNMEM_MEMSET(w.bits, 0, (size_t)(2 * T / 64 + 1) * sizeof(uint64_t));
  for (i = 0; i <= T; i++) p->run_end[i] = p->run_prev[i] = -1;
  for (i = 0; i < p->n; i++)
    if (p->off[i] >= 0) dnnmem__sweep_mark(p, &w, i);
  for (i = 0; i < m; i++) {
    int32_t r = p->order[i], t = p->widest[r];
    DNNMEM__GAP_AHEAD(p, i, m);
    if (t != w.c && (w.c < 0 || !dnnmem__sweep_move(p, &w, t))) dnnmem__sweep_at(p, &w, t);
    if ((k = dnnmem__sweep_free(p, &w, r)) != 0) {
      int64_t a = dnnmem_interval_alignment(&p->rec[r], p->align), size = p->rec[r].size;
      p->off[r] = k == 2 ? dnnmem__gap_best(w.fa, w.fb, w.nf, a, size)
                         : dnnmem__gap_best(p->gap_fa, p->gap_fb, p->gap_cur, a, size);
      dnnmem__gap_insert(p, r);
    } else {
      dnnmem__place_in_gap(p, r);
    }
    dnnmem__sweep_mark(p, &w, r);
    dnnmem__sweep_flip(p, &w, r, 1); /* r is alive at c, its widest step */
  }
#endif
}

static void dnnmem__plan_greedy_size(dnnmem__planner *p) {
  int32_t i, m = dnnmem__free_by_size(p);
  dnnmem__gap_begin(p);
  for (i = 0; i < m; i++) {
    DNNMEM__GAP_AHEAD(p, i, m);
    dnnmem__place_in_gap(p, p->order[i]);
  }
}

static void dnnmem__plan_sorted_height(dnnmem__planner *p) {
  int32_t i, m = dnnmem__free_by_size(p);
  for (i = 0; i < p->n; i++) p->vals[i] = p->rec[i].lower - p->rec[i].upper; /* length, descending */
  dnnmem__radix_sort(p->order, p->tmp, m, p->vals);
  for (i = 0; i < m; i++) {
    if (i + DNNMEM__PLAN_AHEAD < m) DNNMEM__PLAN_FETCH(p, p->order[i + DNNMEM__PLAN_AHEAD]);
    dnnmem__place_on_top(p, p->order[i]);
  }
}

static dnnmem_result dnnmem__plan_pathcover(dnnmem__planner *p) {
  int32_t i;
  dnnmem_intervals chains;
  dnnmem_result r;
  chains.records = p->rec;
  chains.count = p->n;
  chains.alignment = 0;
  r = dnnmem_plan_chains(&chains, NULL, p->order, NULL, p->cover_scratch, p->cover_bytes);
  if (r != DNNMEM_OK) return r;
  for (i = 0; i < p->n; i++) {
    if (i + DNNMEM__PLAN_AHEAD < p->n) DNNMEM__PLAN_FETCH(p, p->order[i + DNNMEM__PLAN_AHEAD]);
    if (p->off[p->order[i]] < 0) dnnmem__place_on_top(p, p->order[i]);
  }
  return DNNMEM_OK;
}

/* Greedy by breadth: each record belongs to the widest step of its
   lifetime (ties: the earliest); records by (that step, widest first,
   then size descending) then take the smallest fitting gap. */
typedef struct dnnmem__breadth_ctx {
  const dnnmem_interval *rec;
  const int32_t *widest;
  const int64_t *breadth;
} dnnmem__breadth_ctx;

/* The one of steps a, b that comes first: the wider, or as wide the earlier. */
static int32_t dnnmem__wider(const int64_t *breadth, int32_t a, int32_t b) {
  return breadth[a] > breadth[b] || (breadth[a] == breadth[b] && a < b) ? a : b;
}

static int dnnmem__less_by_breadth(const void *ctx, int32_t a, int32_t b) {
  const dnnmem__breadth_ctx *c = (const dnnmem__breadth_ctx *)ctx;
  int32_t x = c->widest[a], y = c->widest[b];
  return x != y ? dnnmem__wider(c->breadth, x, y) == x : c->rec[a].size > c->rec[b].size;
}

static void dnnmem__step_breadths(dnnmem__planner *p) {
  int32_t i, t;
  for (t = 0; t < p->segments; t++) p->breadth[t] = 0;
  for (i = 0; i < p->n; i++) {
    p->breadth[p->lo[i]] += p->rec[i].size;
    if (p->hi[i] < p->segments) p->breadth[p->hi[i]] -= p->rec[i].size;
  }
  for (t = 1; t < p->segments; t++) p->breadth[t] += p->breadth[t - 1];
}

/* Gives every record the widest step of its lifetime (a range tree of
   steps by dnnmem__wider; no sort of the steps). */
static void dnnmem__widest_steps(dnnmem__planner *p) {
  int32_t T = p->segments, t, i, *tree = p->rank_tree;
  const int64_t *b = p->breadth;
  dnnmem__step_breadths(p);
  for (t = 0; t < T; t++) tree[T + t] = t; /* leaves at T + step */
  for (t = T - 1; t >= 1; t--) tree[t] = dnnmem__wider(b, tree[2 * t], tree[2 * t + 1]);
  for (i = 0; i < p->n; i++) {
    int32_t l = p->lo[i] + T, r = p->hi[i] + T, best = tree[l];
    while (l < r) {
      if (l & 1) best = dnnmem__wider(b, tree[l++], best);
      if (r & 1) best = dnnmem__wider(b, tree[--r], best);
      l /= 2;
      r /= 2;
    }
    p->widest[i] = best;
  }
}

/* The order of the widest steps' groups, local in time: the steps form a
   tree (a Cartesian tree: the root the widest step, left of it the tree
   of the steps before, right the tree of those after), each record the
   group of its widest step, and of two records that meet in time one's
   group is the other's or an ancestor of it (the tree's ranges nest, and
   each holds its widest step's records), the wider. So groups in the
   tree's preorder place every pair that meets in the rule's order
   (records that do not meet see nothing of each other): the same plan,
   with the records of one span of time placed together instead of
   scattered over the time line (at 1M records the rank order's misses
   doubled greedy-breadth's time). A step's range [after the previous
   wider step, the next wider step) gives its place in preorder: by start,
   then the longer first. */
static void dnnmem__plan_greedy_breadth(dnnmem__planner *p) {
  int32_t i, m, t, top = 0, T = p->segments;
  int32_t *start = p->ids, *end = p->rank_tree + T, *stack = p->rank_tree; /* the range tree is done with */
  dnnmem__widest_steps(p);
  for (t = 0; t < T; t++) { /* the ranges by a stack of steps, each wider than the next */
    while (top > 0 && dnnmem__wider(p->breadth, t, stack[top - 1]) == t) end[stack[--top]] = t;
    start[t] = top > 0 ? stack[top - 1] + 1 : 0;
    stack[top++] = t;
  }
  while (top > 0) end[stack[--top]] = T;
  m = dnnmem__free_by_size(p); /* then by group, stable: (group, size descending, id) */
  for (i = 0; i < m; i++) {
    int32_t r = p->order[i], w = p->widest[r];
    p->vals[r] = (int64_t)start[w] * ((int64_t)T + 1) + (T - end[w]);
  }
  dnnmem__radix_sort(p->order, p->tmp, m, p->vals);
  dnnmem__breadth_place(p, m);
}

/* TensorFlow Lite Micro's GreedyMemoryPlanner (greedy_memory_planner.cc):
   its walk over the placed records meeting r, by offset, keeps the highest
   end so far and stops at the first record whose offset leaves room below
   it: the lowest free interval that fits, else above them all. The time
   tree's free intervals give that directly; with a zero size in play (a
   zero-size record at x ends a free interval at x in its walk) the walk
   itself, from the interval tree. */
static void dnnmem__place_lowest(dnnmem__planner *p, int32_t r) {
  int64_t a = dnnmem_interval_alignment(&p->rec[r], p->align), size = p->rec[r].size, top = 0, cand;
  int32_t k;
  if (p->gap_leaves > 0 && size > 0 && dnnmem__gap_free(p, r)) {
    for (k = 0; k + 1 < p->gap_cur; k++)
      if ((cand = dnnmem__align_up(p->gap_fa[k], a)) + size <= p->gap_fb[k]) break;
    top = p->gap_fa[k];
  } else {
    dnnmem__itree_fill(p);
    dnnmem__neighbours(p, r);
    for (k = 0; k < p->found_count; k++) {
      int32_t q = p->found[k];
      if (dnnmem__align_up(top, a) + size <= p->off[q]) break;
      top = dnnmem__max64(top, p->off[q] + p->rec[q].size);
    }
  }
  p->off[r] = dnnmem__align_up(top, a);
  if (p->itree_all) dnnmem__itree_insert(p, r);
  if (p->gap_leaves > 0) dnnmem__gap_insert(p, r);
}

/* Its order: fixed (offline-planned) records first, where they are; the
   others by size, descending, ties the record added last first (its
   bubble sort runs over the records stacked from the tail). */
static void dnnmem__plan_greedy_tflm(dnnmem__planner *p) {
  int32_t i, m = 0;
  for (i = p->n - 1; i >= 0; i--) {
    p->vals[i] = -p->rec[i].size;
    if (!(p->rec[i].flags & DNNMEM_INTERVAL_FIXED)) p->order[m++] = i;
  }
  dnnmem__radix_sort(p->order, p->tmp, m, p->vals);
  dnnmem__gap_begin(p);
  for (i = 0; i < m; i++) {
    DNNMEM__GAP_AHEAD(p, i, m);
    dnnmem__place_lowest(p, p->order[i]);
  }
}

/* ---- bestfit: skyline of runs (maximal time ranges of equal height) ---- */

static void dnnmem__heap_push_run(dnnmem__planner *p, int32_t start) {
  dnnmem__heap_push(&p->heap, p->run_h[start], start);
}

/* Run starts carry run_end >= 0; other segments -1. */
static void dnnmem__run_set(dnnmem__planner *p, int32_t start, int32_t end, int64_t h,
                            int32_t prev, int32_t next) {
  p->run_end[start] = end;
  p->run_h[start] = h;
  p->run_prev[start] = prev;
  p->run_next[start] = next;
  if (prev >= 0) p->run_next[prev] = start;
  if (next >= 0) p->run_prev[next] = start;
}

/* Merges run s with its neighbours of equal height; returns the start of
   the merged run. */
static int32_t dnnmem__run_merge(dnnmem__planner *p, int32_t s) {
  int32_t next = p->run_next[s], prev = p->run_prev[s];
  if (next >= 0 && p->run_h[next] == p->run_h[s]) {
    p->run_end[s] = p->run_end[next];
    p->run_end[next] = -1;
    p->run_next[s] = p->run_next[next];
    if (p->run_next[s] >= 0) p->run_prev[p->run_next[s]] = s;
  }
  if (prev >= 0 && p->run_h[prev] == p->run_h[s]) {
    p->run_end[prev] = p->run_end[s];
    p->run_end[s] = -1;
    p->run_next[prev] = p->run_next[s];
    if (p->run_next[prev] >= 0) p->run_prev[p->run_next[prev]] = prev;
    s = prev;
  }
  return s;
}

static int32_t dnnmem__skip_find(int32_t *skip, int32_t i) {
  int32_t root = i;
  while (skip[root] != root) root = skip[root];
  while (skip[i] != root) {
    int32_t next = skip[i];
    skip[i] = root;
    i = next;
  }
  return root;
}

static void dnnmem__plan_bestfit(dnnmem__planner *p) {
  int32_t n = p->n, i, left = 0;
  /* skip[k]: the first position >= k in by_lower (the interval tree's
     order) whose record is unplaced; path-compressed */
  for (i = 0; i <= n; i++) {
    p->skip[i] = (i < n && p->off[p->by_lower[i]] >= 0) ? i + 1 : i;
    left += i < n && p->off[i] < 0;
  }
  for (i = 0; i < p->segments; i++) p->run_end[i] = -1;
  dnnmem__run_set(p, 0, p->segments, 0, -1, -1);
  p->heap.count = 0;
  dnnmem__heap_push_run(p, 0);
  while (left > 0) {
    int32_t s = p->heap.id[0], e, k, pick = -1, pick_pos = -1, lo_pos, hi_pos;
    int64_t h = p->heap.key[0];
    dnnmem__heap_pop(&p->heap);
    if (p->run_end[s] < 0 || p->run_h[s] != h) continue; /* stale entry */
    e = p->run_end[s];
    /* the best unplaced record whose lifetime lies inside [s, e) */
    lo_pos = 0;
    hi_pos = n;
    while (lo_pos < hi_pos) {
      int32_t mid = lo_pos + (hi_pos - lo_pos) / 2;
      if (p->lo[p->by_lower[mid]] < s) lo_pos = mid + 1;
      else hi_pos = mid;
    }
    for (k = dnnmem__skip_find(p->skip, lo_pos); k < n && p->lo[p->by_lower[k]] < e;
         k = dnnmem__skip_find(p->skip, k + 1)) {
      int32_t r = p->by_lower[k];
      int64_t lr, lp;
      if (p->hi[r] > e) continue;
      if (pick >= 0) {
        lr = p->rec[r].upper - p->rec[r].lower;
        lp = p->rec[pick].upper - p->rec[pick].lower;
        if (lr < lp || (lr == lp && (p->rec[r].size < p->rec[pick].size ||
                                     (p->rec[r].size == p->rec[pick].size && r > pick))))
          continue;
      }
      pick = r;
      pick_pos = k;
    }
    if (pick >= 0) {
      int64_t a = dnnmem_interval_alignment(&p->rec[pick], p->align), start;
      int32_t lo = p->lo[pick], hi = p->hi[pick], before = p->run_prev[s], next = p->run_next[s];
      start = dnnmem__align_up(h, a);
      start = dnnmem__avoid_fixed(p, pick, start);
      p->off[pick] = start;
      p->skip[pick_pos] = pick_pos + 1;
      left--;
      if (p->rec[pick].size > 0) { /* [s,e) becomes [s,lo) h, [lo,hi) top, [hi,e) h */
        if (lo > s) {
          dnnmem__run_set(p, s, lo, h, before, -1);
          before = s;
          dnnmem__heap_push_run(p, s);
        }
        dnnmem__run_set(p, lo, hi, start + p->rec[pick].size, before, -1);
        if (hi < e) {
          dnnmem__run_set(p, hi, e, h, lo, next);
          dnnmem__heap_push_run(p, hi);
        } else {
          p->run_next[lo] = next;
          if (next >= 0) p->run_prev[next] = lo;
        }
        dnnmem__heap_push_run(p, dnnmem__run_merge(p, lo));
      } else {
        dnnmem__heap_push_run(p, s);
      }
    } else { /* nothing fits: raise the run to its lower neighbour */
      int32_t before = p->run_prev[s], next = p->run_next[s];
      DNNMEM_ASSERT(before >= 0 || next >= 0); /* the whole axis fits anything */
      if (before < 0) p->run_h[s] = p->run_h[next];
      else if (next < 0) p->run_h[s] = p->run_h[before];
      else p->run_h[s] = dnnmem__min64(p->run_h[before], p->run_h[next]);
      dnnmem__heap_push_run(p, dnnmem__run_merge(p, s));
    }
  }
}

/* ---- pieces, lower bound and checker ------------------------------------ */

/* A record with g gaps is at most 1 + 2g pieces (busy stretches and kept
   windows). */
static dnnmem_result dnnmem__count_pieces(const dnnmem_interval *records, int32_t count,
                                          int32_t *out_pieces) {
  int64_t total = 0;
  int32_t i;
  if (count < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (i = 0; records && i < count; i++) { /* NULL records: sizing records without gaps */
    if (records[i].num_gaps < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
    total += 1 + 2 * (int64_t)records[i].num_gaps;
    if (total > DNNMEM__I32_MAX / 2) return DNNMEM_ERR_TOO_MANY;
  }
  if (records == NULL) total = count;
  *out_pieces = (int32_t)total;
  return DNNMEM_OK;
}

typedef struct dnnmem__bound_work {
  int64_t *time, *delta, *delta_aligned;
  int32_t *ids, *tmp;
} dnnmem__bound_work;

static void dnnmem__bound_layout(dnnmem__scratch *s, int32_t pieces, dnnmem__bound_work *w) {
  size_t events = 2 * (size_t)pieces;
  w->time = DNNMEM__TAKE(s, int64_t, events);
  w->delta = DNNMEM__TAKE(s, int64_t, events);
  w->delta_aligned = DNNMEM__TAKE(s, int64_t, events);
  w->ids = DNNMEM__TAKE(s, int32_t, events);
  w->tmp = DNNMEM__TAKE(s, int32_t, events);
}


/* Validated records. Two sweeps in one: live bytes, and live bytes rounded
   to the smallest alignment in use less the largest rounding (the topmost
   record needs none); the larger is a lower bound. Gaps: a window counts,
   the rest of the record does not, and no rounding is claimed. saves
   (in-place reuse) subtract save_bytes[k] at the one step save_time[k]
   (no rounding either); the work holds 2 (pieces + saves) events. */
static int64_t dnnmem__bound_run(const dnnmem_interval *records, int32_t count, int64_t align,
                                 const int64_t *save_time, const int64_t *save_bytes, int32_t saves,
                                 dnnmem__bound_work *w) {
  int64_t g = DNNMEM__I64_MAX, slack = 0, cur = 0, cur_aligned = 0, best = 0, best_aligned = 0;
  int32_t i, j, e = 0, any_gaps = saves > 0;
  for (i = 0; i < count; i++) {
    g = dnnmem__min64(g, dnnmem_interval_alignment(&records[i], align));
    any_gaps |= records[i].num_gaps > 0;
  }
  if (any_gaps) g = 1;
  for (i = 0; i < saves; i++) {
    w->time[e] = save_time[i], w->delta[e] = -save_bytes[i], w->delta_aligned[e++] = -save_bytes[i];
    w->time[e] = save_time[i] + 1, w->delta[e] = save_bytes[i], w->delta_aligned[e++] = save_bytes[i];
  }
  for (i = 0; i < count; i++) {
    const dnnmem_interval *r = &records[i];
    int64_t rounded;
    rounded = dnnmem__align_up(r->size, g);
    slack = dnnmem__max64(slack, rounded - r->size);
    w->time[e] = r->lower, w->delta[e] = r->size, w->delta_aligned[e++] = rounded;
    w->time[e] = r->upper, w->delta[e] = -r->size, w->delta_aligned[e++] = -rounded;
    for (j = 0; j < r->num_gaps; j++) {
      int64_t idle = r->size - (r->gaps[j].window_upper - r->gaps[j].window_lower);
      w->time[e] = r->gaps[j].lower, w->delta[e] = -idle, w->delta_aligned[e++] = -idle;
      w->time[e] = r->gaps[j].upper, w->delta[e] = idle, w->delta_aligned[e++] = idle;
    }
  }
  for (i = 0; i < e; i++) w->ids[i] = i;
  dnnmem__radix_sort(w->ids, w->tmp, e, w->delta); /* ends before starts at one time */
  dnnmem__radix_sort(w->ids, w->tmp, e, w->time);
  for (i = 0; i < e; i++) {
    cur += w->delta[w->ids[i]];
    cur_aligned += w->delta_aligned[w->ids[i]];
    if (i + 1 == e || w->time[w->ids[i + 1]] != w->time[w->ids[i]]) {
      best = dnnmem__max64(best, cur);
      best_aligned = dnnmem__max64(best_aligned, cur_aligned);
    }
  }
  best = dnnmem__max64(best, best_aligned - slack);
  for (i = 0; i < count; i++)
    if (records[i].flags & DNNMEM_INTERVAL_FIXED)
      best = dnnmem__max64(best, records[i].fixed_offset + records[i].size);
  return best;
}

typedef struct dnnmem__check_work {
  int32_t *piece_rec, *seg_lo, *seg_hi, *ids, *tmp;
  int64_t *t_lo, *t_hi, *b_lo, *b_hi, *vals, *coords;
  dnnmem__steps steps;
} dnnmem__check_work;

static void dnnmem__check_layout(dnnmem__scratch *s, int32_t pieces, dnnmem__check_work *w) {
  size_t p2 = 2 * (size_t)pieces, nodes = dnnmem__sky_nodes(pieces > 0 ? 2 * pieces : 1);
  w->piece_rec = DNNMEM__TAKE(s, int32_t, pieces);
  w->seg_lo = DNNMEM__TAKE(s, int32_t, pieces);
  w->seg_hi = DNNMEM__TAKE(s, int32_t, pieces);
  w->ids = DNNMEM__TAKE(s, int32_t, p2);
  w->tmp = DNNMEM__TAKE(s, int32_t, p2);
  w->t_lo = DNNMEM__TAKE(s, int64_t, pieces);
  w->t_hi = DNNMEM__TAKE(s, int64_t, pieces);
  w->b_lo = DNNMEM__TAKE(s, int64_t, pieces);
  w->b_hi = DNNMEM__TAKE(s, int64_t, pieces);
  w->vals = DNNMEM__TAKE(s, int64_t, p2);
  w->coords = DNNMEM__TAKE(s, int64_t, p2);
  w->steps.h = DNNMEM__TAKE(s, int64_t, nodes);
  w->steps.bits = DNNMEM__TAKE(s, uint64_t, nodes);
}

static void dnnmem__add_piece(dnnmem__check_work *w, int32_t *np, int32_t rec, int64_t t_lo,
                              int64_t t_hi, int64_t b_lo, int64_t b_hi) {
  if (t_lo >= t_hi || b_lo >= b_hi) return; /* occupies nothing */
  w->piece_rec[*np] = rec;
  w->t_lo[*np] = t_lo;
  w->t_hi[*np] = t_hi;
  w->b_lo[*np] = b_lo;
  w->b_hi[*np] = b_hi;
  ++*np;
}

static int dnnmem__less_piece(const void *ctx, int32_t a, int32_t b) {
  const dnnmem__check_work *w = (const dnnmem__check_work *)ctx;
  return w->b_lo[a] < w->b_lo[b];
}

/* Overlap test of validated records at validated offsets (only the fixed
   ones when only_fixed). Returns 1 and the pair on a conflict. */
static int dnnmem__find_overlap(const dnnmem_interval *records, int32_t count,
                                const int64_t *offsets, int only_fixed, dnnmem__check_work *w,
                                int32_t *pair) {
  int32_t i, j, np = 0, segs, k;
  for (i = 0; i < count; i++) {
    const dnnmem_interval *r = &records[i];
    int64_t o = offsets[i], t = r->lower;
    if (only_fixed && !(r->flags & DNNMEM_INTERVAL_FIXED)) continue;
    for (j = 0; j < r->num_gaps; j++) {
      dnnmem__add_piece(w, &np, i, t, r->gaps[j].lower, o, o + r->size);
      dnnmem__add_piece(w, &np, i, r->gaps[j].lower, r->gaps[j].upper, o + r->gaps[j].window_lower,
                        o + r->gaps[j].window_upper);
      t = r->gaps[j].upper;
    }
    dnnmem__add_piece(w, &np, i, t, r->upper, o, o + r->size);
  }
  for (i = 0; i < np; i++) {
    w->vals[2 * i] = w->t_lo[i];
    w->vals[2 * i + 1] = w->t_hi[i];
  }
  segs = dnnmem__compress(w->vals, 2 * np, w->ids, w->tmp, w->coords);
  for (i = 0; i < np; i++) {
    w->seg_lo[i] = dnnmem__coord_index(w->coords, segs, w->t_lo[i]);
    w->seg_hi[i] = dnnmem__coord_index(w->coords, segs, w->t_hi[i]);
    w->ids[i] = i;
  }
  dnnmem__sort_ids(w->ids, w->tmp, np, dnnmem__less_piece, w);
  dnnmem__steps_reset(&w->steps, segs > 1 ? segs - 1 : 1);
  for (k = 0; k < np; k++) {
    int32_t q = w->ids[k];
    if (dnnmem__steps_top(&w->steps, w->seg_lo[q], w->seg_hi[q]) > w->b_lo[q]) {
      for (j = 0; j < k; j++) { /* name the partner: once, O(p) */
        int32_t o = w->ids[j];
        if (w->t_lo[o] < w->t_hi[q] && w->t_lo[q] < w->t_hi[o] && w->b_hi[o] > w->b_lo[q]) break;
      }
      pair[0] = w->piece_rec[q];
      pair[1] = j < k ? w->piece_rec[w->ids[j]] : -1;
      if (pair[1] >= 0 && pair[1] < pair[0]) {
        int32_t t = pair[0];
        pair[0] = pair[1];
        pair[1] = t;
      }
      return 1;
    }
    dnnmem__steps_raise(&w->steps, w->seg_lo[q], w->seg_hi[q], w->b_hi[q]); /* b_hi > b_lo >= the top */
  }
  return 0;
}

#ifndef DNNMEM_NO_EXACT

/* ---- exact interval planning --------------------------------------------- */

#if defined(__GNUC__) || defined(__clang__)
#define DNNMEM__EXACT_INLINE __inline__ __attribute__((always_inline))
#else
#define DNNMEM__EXACT_INLINE
#endif

typedef struct dnnmem__exact_frame {
  int64_t bound_offset;    /* canonical order: (offset, rank) must exceed */
  int64_t last_offset;     /* the last candidate tried here */
  int64_t min_height;      /* dominance: candidates must start below it */
  int64_t log_mark;
  int32_t bound_rank, last_rank;
  int32_t part_lo, part_hi; /* section range of the part being solved */
  int32_t creator;         /* frame to return to when this part fails */
  int32_t placed;          /* record placed here, -1 none */
  int32_t pushed, popped;  /* pending-part operations done after placing */
  int32_t done;            /* no other candidate can succeed here */
  int32_t unlogged;        /* the log was full: undo recounts lowest offsets */
  uint64_t state;          /* hash of the part's state at entry */
  /* dnnmem__exact_doomed's sections of the part whose bytes left exceed
     capacity - crit_offset: the first and last (-1: none); the most bytes
     left in a section of the part (crit_offset -1: not yet counted) */
  int64_t crit_offset, max_rem;
  int32_t crit_lo, crit_hi;
  /* its candidates by (lowest offset, rank), listed at its first choice:
     w->cand[cand_base .. cand_end), the next at cand_next; cand_end -1:
     not listed yet, -2: no room (each choice scans the part) */
  int32_t cand_base, cand_next, cand_end, cand_sorted;
  /* the tight cell the frame branches on (dnnmem__exact_cell): its
     section, -1 none (canonical order), -2 not chosen yet; its offset */
  int32_t cell, tight; /* tight 0: no tight section at entry (else unknown) */
  int64_t cell_offset, level; /* level: no record of the part ends below it */
  /* backjumping (dnnmem__exact_culprit): the records its failed children
     could not place, each above a height, w->zlist / zbound[zbase ..
     zend) (zend -1: not told) */
  int32_t zbase, zend;
} dnnmem__exact_frame;

typedef struct dnnmem__exact_part {
  int64_t bound_offset;
  int32_t bound_rank, lo, hi, creator;
} dnnmem__exact_part;

/* A suspended search: the path from the root to the frame it stopped at
   (per frame the record placed, -1 at the last, the frame's last
   candidate and its done flag), replayed to resume it. */
typedef struct dnnmem__exact_step_rec {
  int64_t last_offset;
  int32_t last_rank, placed, done;
} dnnmem__exact_step_rec;

typedef struct dnnmem__exact_slot {
  dnnmem__exact_step_rec *path;
  int32_t depth;  /* frames on the path; -1: nothing suspended */
  uint32_t run_id;
  int64_t spent;  /* nodes searched so far (replays not counted) */
} dnnmem__exact_slot;

/* The static orders (dnnmem__exact_order_keys) and the resumable
   searches: one per static order for each of two questions asked side
   by side (minimising). */
#define DNNMEM__EXACT_ORDERS 4
#define DNNMEM__EXACT_SLOTS (2 * DNNMEM__EXACT_ORDERS)

typedef struct dnnmem__exact {
  const dnnmem_interval *rec;
  int32_t n, m, sections, num_fixed, has_windows;
  int64_t capacity, nodes, node_limit, granularity;
  int64_t refused; /* nodes refused by dnnmem__exact_doomed (cheap) */
  dnnmem_stop_fn stop;
  void *stop_user;
  int stopped, degraded, logging; /* logging 0: a dive that never backtracks;
                                     degraded: the log filled at least once */
  int32_t dirty_lo, dirty_hi; /* sections where a release rose at this node */
  int64_t min_size1, min_size2; /* the two smallest unplaced sizes of the part */
  int32_t min_size1_of;         /* and the record of the smallest */
  /* the last failed placement: the section (-1 none) and least release of
     the records that no longer fit there, or the record (-1 none); its
     records in w->zlist up to fail_z (-1: not told; their culprit is the
     frame that placed: see dnnmem__exact_descend) */
  int32_t fail_sec, fail_rec, fail_z;
  int64_t fail_rel;
  int backjump;       /* failures name their records (else: back to the creator) */
  int64_t backjumps;  /* failures that went back past the frame before */
  /* per record */
  int64_t *size, *align, *offset, *lowest, *release;
  int32_t *seg_first, *seg_count, *span_lo, *span_hi, *rank;
  int32_t *open, *open0; /* unplaced records each record conflicts with */
  int32_t *raiser;       /* the frame that raised lowest to its value, -1 none */
  uint8_t *placed;
  /* per segment (busy stretch or kept window) */
  int32_t *seg_lo, *seg_hi, *seg_owner, *seg_order, *seg_start, *seg_reach;
  int64_t *seg_wl, *seg_wu;
  /* the sweep's live items, by release: start offset, bytes, last section */
  int64_t *item_release, *item_bytes;
  int32_t *item_end, *item_dying; /* item_dying: per section, zero between sweeps */
  int32_t *cell_count; /* per section, zero between uses (dnnmem__exact_cell) */
  int64_t *cell_floor; /* per section: the least lowest offset of a record busy there */
  /* sections */
  int64_t *times, *rem, *rem0, *total;
  int32_t *cut, *cut0, *start_index;
  /* search records sorted by first section; fixed records */
  int32_t *search, *fixed;
  /* the frames' candidate lists, a stack along the path */
  int32_t *cand;
  int64_t cand_cap;
  /* the frames' failed records (backjumping), a stack along the path;
     zmark: per record, the stamp of the list it was last seen in, zpos
     where */
  int32_t *zlist, *zpos;
  int64_t *zbound;
  int64_t zcap;
  uint32_t *zmark;
  uint32_t zstamp;
  /* undo log: id >= 0: lowest[id] (and raiser[id] in log_who; log_prev:
     the record's entry before, lastlog[id] its last, -1 none); -1 - r:
     rank[r] */
  int32_t *log_id, *log_who, *log_prev, *lastlog;
  int64_t *log_old;
  int64_t log_cap, log_top;
  dnnmem__exact_frame *frames;
  dnnmem__exact_part *pending, *parts;
  int32_t pending_top;
  /* sorting */
  int32_t *ids, *tmp, *tmp2;
  int64_t *keys, *order_keys;
  int32_t order_kind;
  uint64_t order_seed;
  int64_t *noise; /* per record: the current restart's key factor */
  /* failed part states (transposition table): 64-bit hash, run stamp */
  uint64_t *memo_key;
  uint32_t *memo_run;
  int32_t *memo_lo, *memo_hi;
  int64_t *memo_b;
  /* and its failed records: mz_rec / mz_b[memo_zat % mz_cap ..] (a ring
     written up to mz_top), memo_zlen of them (-1: not kept) */
  int64_t *memo_zat, *mz_b, mz_cap, mz_top;
  int32_t *memo_zlen, *mz_rec;
  uint32_t run_id, run_count, memo_mask; /* the search's stamp, the last stamp given */
  dnnmem__exact_slot slots[DNNMEM__EXACT_SLOTS];
} dnnmem__exact;

/* Sizing depends only on n and the number of gaps, so scratch_size needs no
   memory of its own. */
static void dnnmem__exact_layout(dnnmem__scratch *s, int32_t n, int64_t gaps, int lean,
                                 dnnmem__exact *w) {
  size_t nn = (size_t)n, events = 2 * nn + 2 * (size_t)gaps + 2, segs = nn + 2 * (size_t)gaps + 1;
  /* the log never holds more than n entries per placement and rerank */
  int64_t cap1 = (int64_t)n * ((int64_t)n + (int64_t)events) + 16;
  int64_t cap2 = lean ? DNNMEM__PLAN_LOG_LEAN_PER_RECORD * ((int64_t)n + gaps) + DNNMEM__PLAN_LOG_LEAN_EXTRA
                      : DNNMEM__PLAN_LOG_PER_RECORD * ((int64_t)n + gaps) + DNNMEM__PLAN_LOG_EXTRA;
  size_t memo = DNNMEM__PLAN_MEMO_MIN, memo_max = lean ? DNNMEM__PLAN_MEMO_LEAN_MAX : DNNMEM__PLAN_MEMO_MAX;
  w->log_cap = cap1 < cap2 ? cap1 : cap2;
  if (w->log_cap > DNNMEM__I32_MAX) w->log_cap = DNNMEM__I32_MAX; /* int32_t entry links */
  /* candidate lists: all of them along a path fit in n (n + 1) / 2 */
  cap1 = (int64_t)n * ((int64_t)n + 1) / 2 + 1;
  cap2 = lean ? DNNMEM__PLAN_CAND_LEAN_PER_RECORD * (int64_t)n + DNNMEM__PLAN_CAND_LEAN_EXTRA
              : DNNMEM__PLAN_CAND_PER_RECORD * (int64_t)n + DNNMEM__PLAN_CAND_EXTRA;
  w->cand_cap = cap1 < cap2 ? cap1 : cap2;
  w->cand = DNNMEM__TAKE(s, int32_t, (size_t)w->cand_cap);
  w->zcap = cap1 = (int64_t)n * ((int64_t)n + 2) + 1; /* a record once per frame's list */
  if (cap2 < w->zcap) w->zcap = cap2;
  w->zlist = DNNMEM__TAKE(s, int32_t, (size_t)w->zcap);
  w->zmark = DNNMEM__TAKE(s, uint32_t, nn);
  w->zpos = DNNMEM__TAKE(s, int32_t, nn);
  w->zbound = DNNMEM__TAKE(s, int64_t, (size_t)w->zcap);
  w->lastlog = DNNMEM__TAKE(s, int32_t, nn);
  w->log_prev = DNNMEM__TAKE(s, int32_t, (size_t)w->log_cap);
  while (memo < DNNMEM__PLAN_MEMO_PER_RECORD * nn && memo < memo_max) memo *= 2;
  w->memo_mask = (uint32_t)(memo - 1);
  w->memo_key = DNNMEM__TAKE(s, uint64_t, memo);
  w->memo_run = DNNMEM__TAKE(s, uint32_t, memo);
  w->memo_lo = DNNMEM__TAKE(s, int32_t, memo);
  w->memo_hi = DNNMEM__TAKE(s, int32_t, memo);
  w->memo_b = DNNMEM__TAKE(s, int64_t, memo);
  w->mz_cap = (lean ? DNNMEM__PLAN_MEMO_Z_LEAN_PER_RECORD : DNNMEM__PLAN_MEMO_Z_PER_RECORD) * (int64_t)n;
  if (w->mz_cap > DNNMEM__PLAN_MEMO_Z_MAX) w->mz_cap = DNNMEM__PLAN_MEMO_Z_MAX;
  w->memo_zat = DNNMEM__TAKE(s, int64_t, w->mz_cap > 0 ? memo : 0);
  w->memo_zlen = DNNMEM__TAKE(s, int32_t, w->mz_cap > 0 ? memo : 0);
  w->mz_rec = DNNMEM__TAKE(s, int32_t, (size_t)w->mz_cap);
  w->mz_b = DNNMEM__TAKE(s, int64_t, (size_t)w->mz_cap);
  w->size = DNNMEM__TAKE(s, int64_t, nn);
  w->align = DNNMEM__TAKE(s, int64_t, nn);
  w->offset = DNNMEM__TAKE(s, int64_t, nn);
  w->lowest = DNNMEM__TAKE(s, int64_t, nn);
  w->release = DNNMEM__TAKE(s, int64_t, nn);
  w->noise = DNNMEM__TAKE(s, int64_t, nn);
  w->seg_first = DNNMEM__TAKE(s, int32_t, nn);
  w->seg_count = DNNMEM__TAKE(s, int32_t, nn);
  w->span_lo = DNNMEM__TAKE(s, int32_t, nn);
  w->span_hi = DNNMEM__TAKE(s, int32_t, nn);
  w->rank = DNNMEM__TAKE(s, int32_t, nn);
  w->open = DNNMEM__TAKE(s, int32_t, nn);
  w->open0 = DNNMEM__TAKE(s, int32_t, nn);
  w->raiser = DNNMEM__TAKE(s, int32_t, nn);
  w->placed = DNNMEM__TAKE(s, uint8_t, nn);
  w->seg_lo = DNNMEM__TAKE(s, int32_t, segs);
  w->seg_hi = DNNMEM__TAKE(s, int32_t, segs);
  w->seg_wl = DNNMEM__TAKE(s, int64_t, segs);
  w->seg_wu = DNNMEM__TAKE(s, int64_t, segs);
  w->seg_owner = DNNMEM__TAKE(s, int32_t, segs);
  w->seg_order = DNNMEM__TAKE(s, int32_t, segs);
  w->seg_start = DNNMEM__TAKE(s, int32_t, events);
  w->seg_reach = DNNMEM__TAKE(s, int32_t, events);
  w->item_release = DNNMEM__TAKE(s, int64_t, segs);
  w->item_bytes = DNNMEM__TAKE(s, int64_t, segs);
  w->item_end = DNNMEM__TAKE(s, int32_t, segs);
  w->item_dying = DNNMEM__TAKE(s, int32_t, events);
  w->cell_count = DNNMEM__TAKE(s, int32_t, events);
  w->cell_floor = DNNMEM__TAKE(s, int64_t, events);
  w->times = DNNMEM__TAKE(s, int64_t, events);
  w->rem = DNNMEM__TAKE(s, int64_t, events);
  w->rem0 = DNNMEM__TAKE(s, int64_t, events);
  w->total = DNNMEM__TAKE(s, int64_t, events);
  w->cut = DNNMEM__TAKE(s, int32_t, events);
  w->cut0 = DNNMEM__TAKE(s, int32_t, events);
  w->start_index = DNNMEM__TAKE(s, int32_t, events);
  w->search = DNNMEM__TAKE(s, int32_t, nn);
  w->fixed = DNNMEM__TAKE(s, int32_t, nn);
  w->log_id = DNNMEM__TAKE(s, int32_t, (size_t)w->log_cap);
  w->log_who = DNNMEM__TAKE(s, int32_t, (size_t)w->log_cap);
  w->log_old = DNNMEM__TAKE(s, int64_t, (size_t)w->log_cap);
  w->frames = DNNMEM__TAKE(s, dnnmem__exact_frame, nn + 1);
  w->pending = DNNMEM__TAKE(s, dnnmem__exact_part, events);
  w->parts = DNNMEM__TAKE(s, dnnmem__exact_part, events);
  w->ids = DNNMEM__TAKE(s, int32_t, events);
  w->tmp = DNNMEM__TAKE(s, int32_t, events);
  w->tmp2 = DNNMEM__TAKE(s, int32_t, events);
  w->keys = DNNMEM__TAKE(s, int64_t, events);
  w->order_keys = DNNMEM__TAKE(s, int64_t, 8 * nn);
  {
    int32_t k;
    for (k = 0; k < DNNMEM__EXACT_SLOTS; k++) {
      w->slots[k].path = DNNMEM__TAKE(s, dnnmem__exact_step_rec, nn + 1);
      w->slots[k].depth = -1;
    }
  }
}

static dnnmem_result dnnmem__exact_count_gaps(const dnnmem_interval *records, int32_t count,
                                              int64_t *out_gaps) {
  int64_t gaps = 0;
  int32_t i;
  /* the callers validated the records (dnnmem__count_pieces) */
  DNNMEM_ASSERT(count >= 0 && (count == 0 || records != NULL));
  for (i = 0; i < count; i++) {
    DNNMEM_ASSERT(records[i].num_gaps >= 0);
    gaps += records[i].num_gaps;
    if ((int64_t)count + 2 * gaps + 2 > DNNMEM__I32_MAX / 2) return DNNMEM_ERR_TOO_MANY;
  }
  *out_gaps = gaps;
  return DNNMEM_OK;
}

/* lean: a smaller undo log and memo (32 entries per record: searches on
   minimalloc's hardest instances peak below that). */
static DNNMEM__UNUSED dnnmem_result dnnmem__exact_scratch_size(int32_t count, int64_t gaps, int lean,
                                                               size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__exact w;
  if ((int64_t)count + 2 * gaps + 2 > DNNMEM__I32_MAX / 2) return DNNMEM_ERR_TOO_MANY;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__exact_layout(&s, count, gaps, lean, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

static int dnnmem__exact_less_key(const void *ctx, int32_t a, int32_t b) {
  const int64_t *k = (const int64_t *)ctx;
  return k[a] < k[b];
}

static int32_t dnnmem__exact_section_of(const dnnmem__exact *w, int64_t t) {
  int32_t lo = 0, hi = w->sections; /* times[0..sections]: last index with times[i] <= t */
  while (lo < hi) {
    int32_t mid = lo + (hi - lo + 1) / 2;
    if (w->times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static void dnnmem__exact_add_seg(dnnmem__exact *w, int32_t *ns, int32_t rec, int64_t t_lo,
                                  int64_t t_hi, int64_t wl, int64_t wu) {
  if (t_lo >= t_hi || wl >= wu) return;
  w->seg_lo[*ns] = dnnmem__exact_section_of(w, t_lo);
  w->seg_hi[*ns] = dnnmem__exact_section_of(w, t_hi);
  w->seg_wl[*ns] = wl;
  w->seg_wu[*ns] = wu;
  w->seg_owner[*ns] = rec;
  w->seg_count[rec]++;
  ++*ns;
}

/* Whether record `above` must sit at least *out bytes above record `below`
   (1) or the two never occupy bytes at the same time (0). Without windows
   *out is below's size; with windows it keeps every window of `above` over
   every window of `below` (conservative). */
static DNNMEM__EXACT_INLINE int dnnmem__exact_conflict(const dnnmem__exact *w, int32_t below, int32_t above,
                                  int64_t *out) {
  int32_t a = w->seg_first[below], ae = a + w->seg_count[below];
  int32_t b = w->seg_first[above], be = b + w->seg_count[above];
  int found = 0;
  int64_t need = 0;
  if (w->span_hi[below] <= w->span_lo[above] || w->span_hi[above] <= w->span_lo[below]) return 0;
  if (ae - a == 1 && be - b == 1) { /* one busy stretch each (no gaps, mostly) */
    if (w->seg_hi[a] <= w->seg_lo[b] || w->seg_hi[b] <= w->seg_lo[a]) return 0;
    *out = w->seg_wu[a] - w->seg_wl[b];
    return 1;
  }
  while (a < ae && b < be) {
    if (w->seg_hi[a] <= w->seg_lo[b]) a++;
    else if (w->seg_hi[b] <= w->seg_lo[a]) b++;
    else {
      int64_t d = w->seg_wu[a] - w->seg_wl[b];
      if (!found || d > need) need = d;
      found = 1;
      if (w->seg_hi[a] < w->seg_hi[b]) a++;
      else b++;
    }
  }
  *out = need;
  return found;
}

/* The lowest aligned offset >= x for record k that clears every fixed
   record it conflicts with. Terminates: x only grows, and past the highest
   fixed record nothing moves it. */
static int64_t dnnmem__exact_clear_fixed(const dnnmem__exact *w, int32_t k, int64_t x) {
  int32_t f, moved = 1;
  if (x > w->capacity) return w->capacity; /* out of reach anyway (and no overflow) */
  x = (x + w->align[k] - 1) & ~(w->align[k] - 1);
  while (moved && w->num_fixed > 0) {
    moved = 0;
    for (f = 0; f < w->num_fixed; f++) {
      int32_t r = w->fixed[f];
      int64_t up, down, fo = w->offset[r];
      if (!dnnmem__exact_conflict(w, r, k, &up)) continue;
      dnnmem__exact_conflict(w, k, r, &down);
      if (x < fo + up && x + down > fo) {
        if (fo + up > w->capacity) return w->capacity;
        x = (fo + up + w->align[k] - 1) & ~(w->align[k] - 1);
        moved = 1;
      }
    }
  }
  return x;
}

static int64_t dnnmem__exact_gcd(int64_t a, int64_t b) {
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Whether record r's gaps are planned (best plans unfixed records as if
   they had none: still a valid plan). */
static int32_t dnnmem__exact_gaps_of(const dnnmem_interval *r, int ignore_gaps) {
  return ignore_gaps && !(r->flags & DNNMEM_INTERVAL_FIXED) ? 0 : r->num_gaps;
}

/* Sections: the distinct times (lifetime ends and planned gap ends)
   sorted into times[0..sections]; per-section sums zeroed. */
static void dnnmem__exact_sections(dnnmem__exact *w, int ignore_gaps) {
  int32_t i, j, e = 0, distinct = 0, s;
  for (i = 0; i < w->n; i++) {
    const dnnmem_interval *r = &w->rec[i];
    w->keys[e++] = r->lower;
    w->keys[e++] = r->upper;
    for (j = 0; j < dnnmem__exact_gaps_of(r, ignore_gaps); j++) {
      w->keys[e++] = r->gaps[j].lower;
      w->keys[e++] = r->gaps[j].upper;
    }
  }
  for (i = 0; i < e; i++) w->ids[i] = i;
  dnnmem__sort_ids(w->ids, w->tmp, e, dnnmem__exact_less_key, w->keys);
  for (i = 0; i < e; i++)
    if (distinct == 0 || w->times[distinct - 1] != w->keys[w->ids[i]])
      w->times[distinct++] = w->keys[w->ids[i]];
  w->sections = distinct > 1 ? distinct - 1 : 0;
  for (s = 0; s <= w->sections; s++) {
    w->rem0[s] = 0;
    w->total[s] = 0;
    w->cut0[s] = 0;
  }
}

/* Record i's segments (busy stretches and kept windows), its static state
   and its share of the per-section differences; *g gathers the gcd of the
   sizes, alignments, windows and fixed offsets, *bound the fixed tops. */
static void dnnmem__exact_add_record(dnnmem__exact *w, int32_t i, int64_t alignment, int ignore_gaps,
                                     int32_t *ns, int64_t *g, int64_t *bound) {
  const dnnmem_interval *r = &w->rec[i];
  int64_t t = r->lower;
  int32_t j;
  w->size[i] = r->size;
  w->align[i] = dnnmem_interval_alignment(r, alignment);
  w->seg_first[i] = *ns;
  w->seg_count[i] = 0;
  w->placed[i] = 0;
  w->rank[i] = i;
  w->span_lo[i] = dnnmem__exact_section_of(w, r->lower);
  w->span_hi[i] = dnnmem__exact_section_of(w, r->upper);
  if (r->size > 0) {
    for (j = 0; j < dnnmem__exact_gaps_of(r, ignore_gaps); j++) {
      const dnnmem_gap *gp = &r->gaps[j];
      dnnmem__exact_add_seg(w, ns, i, t, gp->lower, 0, r->size);
      dnnmem__exact_add_seg(w, ns, i, gp->lower, gp->upper, gp->window_lower, gp->window_upper);
      if (gp->window_upper > gp->window_lower) {
        w->has_windows = 1;
        *g = dnnmem__exact_gcd(dnnmem__exact_gcd(*g, gp->window_lower), gp->window_upper);
      }
      t = gp->upper;
    }
    dnnmem__exact_add_seg(w, ns, i, t, r->upper, 0, r->size);
    *g = dnnmem__exact_gcd(*g, r->size);
    if (w->align[i] > 1) *g = dnnmem__exact_gcd(*g, w->align[i]);
  }
  if (r->flags & DNNMEM_INTERVAL_FIXED) {
    w->offset[i] = r->fixed_offset;
    w->placed[i] = 1;
    w->fixed[w->num_fixed++] = i;
    *g = dnnmem__exact_gcd(*g, r->fixed_offset);
    *bound = dnnmem__max64(*bound, r->fixed_offset + r->size);
  } else if (r->size == 0) {
    w->offset[i] = 0; /* occupies nothing */
    w->placed[i] = 1;
  } else {
    w->offset[i] = -1;
    w->search[w->m++] = i;
    w->cut0[w->span_lo[i]]++;
    w->cut0[w->span_hi[i] - 1]--;
  }
  for (j = w->seg_first[i]; j < *ns; j++) {
    int64_t occ = w->seg_wu[j] - w->seg_wl[j];
    w->total[w->seg_lo[j]] += occ;
    w->total[w->seg_hi[j]] -= occ;
    if (!(r->flags & DNNMEM_INTERVAL_FIXED)) {
      w->rem0[w->seg_lo[j]] += occ;
      w->rem0[w->seg_hi[j]] -= occ;
    }
  }
}

/* Stable sort of items[0..count) by keys[0..count) (the key of each
   position), through ids and tmp. */
static void dnnmem__exact_sort_items(dnnmem__exact *w, int32_t *items, int32_t count) {
  int32_t i;
  for (i = 0; i < count; i++) w->ids[i] = i;
  dnnmem__sort_ids(w->ids, w->tmp, count, dnnmem__exact_less_key, w->keys);
  for (i = 0; i < count; i++) w->tmp[i] = items[w->ids[i]];
  for (i = 0; i < count; i++) items[i] = w->tmp[i];
}

/* The search records by first section and their conflict counts (pairs by
   a sweep over first sections, O(m + pairs)); their segments by first
   section for the section sweep. */
static void dnnmem__exact_index(dnnmem__exact *w) {
  int32_t i, j, s, nseg = 0;
  for (i = 0; i < w->m; i++) w->keys[i] = w->span_lo[w->search[i]];
  dnnmem__exact_sort_items(w, w->search, w->m);
  for (s = 0, j = 0; s <= w->sections; s++) {
    while (j < w->m && w->span_lo[w->search[j]] < s) j++;
    w->start_index[s] = j;
  }
  for (i = 0; i < w->m; i++) w->open0[w->search[i]] = 0;
  for (i = 0; i < w->m; i++) {
    int32_t a = w->search[i], b, c;
    int64_t need;
    for (c = i + 1; c < w->m && w->span_lo[b = w->search[c]] < w->span_hi[a]; c++)
      if (dnnmem__exact_conflict(w, a, b, &need)) {
        w->open0[a]++;
        w->open0[b]++;
      }
  }
  for (i = 0; i < w->m; i++) { /* ids/tmp are events long: >= these segments */
    int32_t r = w->search[i];
    for (j = w->seg_first[r]; j < w->seg_first[r] + w->seg_count[r]; j++) {
      w->keys[nseg] = w->seg_lo[j];
      w->seg_order[nseg++] = j;
    }
  }
  dnnmem__exact_sort_items(w, w->seg_order, nseg);
  for (s = 0, j = 0; s <= w->sections; s++) {
    while (j < nseg && w->seg_lo[w->seg_order[j]] < s) j++;
    w->seg_start[s] = j;
  }
  for (s = 0, j = 0; s <= w->sections; s++) { /* every item before it has ended by s */
    while (j < nseg && w->seg_hi[w->seg_order[j]] <= s) j++;
    w->seg_reach[s] = j;
  }
}

/* Builds sections, segments and the static counts. Returns the load bound
   (max bytes occupied at one time, and every fixed record's top). */
static int64_t dnnmem__exact_setup(dnnmem__exact *w, const dnnmem_interval *records,
                                   int32_t count, int64_t alignment, int ignore_gaps) {
  int32_t i, ns = 0, s;
  int64_t bound = 0, g = 0;
  w->rec = records;
  w->n = count;
  w->m = 0;
  w->num_fixed = 0;
  w->has_windows = 0;
  dnnmem__exact_sections(w, ignore_gaps);
  for (i = 0; i < count; i++) dnnmem__exact_add_record(w, i, alignment, ignore_gaps, &ns, &g, &bound);
  for (s = 0; s < w->sections; s++) { /* prefix sums: per-section totals and crossings */
    if (s > 0) {
      w->total[s] += w->total[s - 1];
      w->rem0[s] += w->rem0[s - 1];
      w->cut0[s] += w->cut0[s - 1];
    }
    bound = dnnmem__max64(bound, w->total[s]);
  }
  dnnmem__exact_index(w);
  w->granularity = g > 0 ? g : 1;
  return bound;
}

/* Static orders for ranks (ties in the canonical order): section total,
   lifetime and area, all descending, in three priorities; hints first. */
typedef struct dnnmem__exact_order_ctx {
  const dnnmem__exact *w;
  const int64_t *keys; /* 3 per record */
} dnnmem__exact_order_ctx;

static int dnnmem__exact_less_order(const void *ctx, int32_t a, int32_t b) {
  const int64_t *k = ((const dnnmem__exact_order_ctx *)ctx)->keys;
  int32_t t;
  for (t = 0; t < 4; t++)
    if (k[4 * a + t] != k[4 * b + t]) return k[4 * a + t] < k[4 * b + t];
  return a < b;
}

/* The static orders: three keys each, all descending: T the largest
   section total the record lives in, W its lifetime, A its area, Z its
   size. Order 0 puts records with hints first (by hint), then TWA. */
static const char dnnmem__exact_order_keys[DNNMEM__EXACT_ORDERS][4] = {"TWA", "TWA", "WAT", "TAW"};

/* A key scaled by a restart's noise factor (DNNMEM__PLAN_NOISE_ONE =
   none), saturating. */
static int64_t dnnmem__exact_scale(int64_t q, int64_t factor) {
  if (q > DNNMEM__I64_MAX / (2 * DNNMEM__PLAN_NOISE_ONE)) return q / DNNMEM__PLAN_NOISE_ONE * factor;
  return q * factor / DNNMEM__PLAN_NOISE_ONE;
}

static void dnnmem__exact_set_order(dnnmem__exact *w, int32_t kind, uint64_t seed, int64_t *keys) {
  /* keys: 4 per search position; the ids array holds positions. A nonzero
     seed scales every record's keys by a random factor in [0.6, 1.4): a
     different but still sensible order for each restart. */
  dnnmem__exact_order_ctx ctx;
  dnnmem_rng rng;
  int32_t i, p, t;
  dnnmem_rng_seed(&rng, seed);
  for (p = 0; p < w->m; p++)
    w->noise[w->search[p]] = seed ? DNNMEM__PLAN_NOISE_LOW + (int64_t)dnnmem_rng_below(&rng, DNNMEM__PLAN_NOISE_SPAN)
                                  : DNNMEM__PLAN_NOISE_ONE;
  for (p = 0; p < w->m; p++) {
    int32_t r = w->search[p], j;
    const dnnmem_interval *rec = &w->rec[r];
    int64_t sect = 0, width = rec->upper - rec->lower, area;
    int64_t hinted = (rec->flags & DNNMEM_INTERVAL_HINT) ? rec->hint : DNNMEM__I64_MAX;
    for (j = w->span_lo[r]; j < w->span_hi[r]; j++) sect = dnnmem__max64(sect, w->total[j]);
    if (dnnmem__mul_overflows(rec->size, width, &area)) area = DNNMEM__I64_MAX;
    keys[4 * p] = kind == 0 ? hinted : 0;
    for (t = 0; t < 3; t++) {
      char c = dnnmem__exact_order_keys[kind][t];
      keys[4 * p + 1 + t] = -dnnmem__exact_scale(c == 'T' ? sect : c == 'W' ? width : c == 'A' ? area : rec->size,
                                                 w->noise[r]);
    }
  }
  for (p = 0; p < w->m; p++) w->ids[p] = p;
  ctx.w = w;
  ctx.keys = keys;
  dnnmem__sort_ids(w->ids, w->tmp, w->m, dnnmem__exact_less_order, &ctx);
  for (i = 0; i < w->m; i++) w->rank[w->search[w->ids[i]]] = i;
  w->order_kind = kind;
  w->order_seed = seed;
}

static int dnnmem__exact_part_nonempty(const dnnmem__exact *w, int32_t lo, int32_t hi) {
  int32_t p;
  for (p = w->start_index[lo]; p < w->start_index[hi]; p++)
    if (!w->placed[w->search[p]]) return 1;
  return 0;
}

/* splitmix64's finaliser: a well-mixed 64-bit hash of x */
static uint64_t dnnmem__exact_mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The memo holds states of parts proven to have no completion (no
   completion that can not be lowered, the one every bound and dominance
   keeps) at a capacity. A state is the capacity, the part's range, its
   canonical bound and the lowest offset of each unplaced record, with
   which of those at the bound offset the bound lets stay there:
   everything the completions depend on, and nothing of the order that
   proved it (a record below the bound offset ends above it, whatever its
   rank). So a failure learned by one run prunes every later run at that
   capacity: restarts keep what they learned (nogoods). With windows the
   ranks are part of the state (and each run keeps its own). Keys are
   64-bit hashes (a false match has probability about 2^-64 per probe);
   stamp 0 marks an empty slot. Each entry keeps its failure's records
   and heights (see dnnmem__exact_culprit): the same state fails on the
   same records, so a hit jumps as far as the failure did. When the ring
   no longer holds them, the sections they live in and the greatest height
   they had to reach stand in (memo_lo -1: not told).
   Returns the slot holding key, -1 none. */
static int32_t dnnmem__exact_memo_find(const dnnmem__exact *w, uint64_t key) {
  uint32_t i = (uint32_t)key & w->memo_mask, t;
  for (t = 0; t < DNNMEM__PLAN_MEMO_PROBES; t++, i = (i + 1) & w->memo_mask)
    if (w->memo_run[i] != 0 && w->memo_key[i] == key) return (int32_t)i;
  return -1;
}

/* Whether stamp r, not the current search's (its caller skips those),
   belongs to a suspended search that may still look it up. */
static int dnnmem__exact_live(const dnnmem__exact *w, uint32_t r) {
  int32_t k;
  DNNMEM_ASSERT(r != w->run_id);
  for (k = 0; k < DNNMEM__EXACT_SLOTS; k++)
    if (w->slots[k].depth >= 0 && w->slots[k].run_id == r) return 1;
  return 0;
}

static void dnnmem__exact_z_hull(const dnnmem__exact *w, int32_t from, int32_t to, int32_t *lo, int32_t *hi,
                                 int64_t *b);

/* Into the first of the probed slots that no live search holds, else the
   first another search holds, else the first; with the failed records
   zlist[from .. to) (from -1: not told). */
static void dnnmem__exact_memo_add(dnnmem__exact *w, uint64_t key, int32_t from, int32_t to) {
  uint32_t i = (uint32_t)key & w->memo_mask, t, other = DNNMEM__PLAN_MEMO_PROBES;
  int32_t lo = -1, hi = -1, p;
  int64_t b = 0;
  for (t = 0; t < DNNMEM__PLAN_MEMO_PROBES; t++, i = (i + 1) & w->memo_mask) {
    if (w->memo_run[i] != 0 && w->memo_key[i] == key) break; /* known: now this run's */
    if (w->memo_run[i] == w->run_id) continue;
    if (!dnnmem__exact_live(w, w->memo_run[i])) break;
    if (other == DNNMEM__PLAN_MEMO_PROBES) other = t;
  }
  if (t == DNNMEM__PLAN_MEMO_PROBES)
    i = ((uint32_t)key + (other == DNNMEM__PLAN_MEMO_PROBES ? 0 : other)) & w->memo_mask;
  if (from >= 0) dnnmem__exact_z_hull(w, from, to, &lo, &hi, &b);
  w->memo_key[i] = key;
  w->memo_run[i] = w->run_id;
  w->memo_lo[i] = lo;
  w->memo_hi[i] = hi;
  w->memo_b[i] = b;
  if (w->mz_cap == 0) return;
  w->memo_zlen[i] = -1;
  if (from >= 0 && to - from <= w->mz_cap) {
    w->memo_zat[i] = w->mz_top;
    w->memo_zlen[i] = to - from;
    for (p = from; p < to; p++, w->mz_top++) {
      w->mz_rec[w->mz_top % w->mz_cap] = w->zlist[p];
      w->mz_b[w->mz_top % w->mz_cap] = w->zbound[p];
    }
  }
}

/* Frame f's list (empty): memo slot i's failed records when the ring
   still holds them, else the unplaced records of the part living in its
   sections. Returns its end, -1 when out of room. */
static int32_t dnnmem__exact_z_span(dnnmem__exact *w, const dnnmem__exact_frame *f, int32_t lo, int32_t hi,
                                    int64_t b);
static int32_t dnnmem__exact_z_memo(dnnmem__exact *w, const dnnmem__exact_frame *f, int32_t i) {
  int32_t c, end = f->zbase;
  int64_t at = w->mz_cap > 0 ? w->memo_zat[i] : 0;
  if (w->mz_cap == 0 || w->memo_zlen[i] < 0 || at < w->mz_top - w->mz_cap)
    return dnnmem__exact_z_span(w, f, w->memo_lo[i], w->memo_hi[i], w->memo_b[i]);
  if ((int64_t)end + w->memo_zlen[i] > w->zcap) return -1;
  for (c = 0; c < w->memo_zlen[i]; c++, at++) {
    w->zlist[end] = w->mz_rec[at % w->mz_cap];
    w->zbound[end++] = w->mz_b[at % w->mz_cap];
  }
  return end;
}

/* Backjumping (Prosser's conflict-directed backjumping, 1993). In a frame
   that branches on a cell with the bound unset (every record allowed: a
   tiling, or what is left of one), a failure names records Z that cannot
   all be placed at or above given heights (each at most the record's
   lowest offset): the records of a section over capacity (those released
   at or above the stack that overflowed, at that release), a record
   lifted past it, the records of a cell without covers (covers at the
   cell, the others one above). That depends on no placement but the
   shallowest ones that raised each record that high
   (dnnmem__exact_raised), so every frame deeper than the deepest of them
   fails too, whichever child it tried (a record placed since is only left
   out of Z, which can only help): the search jumps back to that frame. A
   cell frame fails on its cell's records and its children's failed
   records (a completion places one of the covers at the cell, and the
   records that cover lifts lie at or above the cell: safety); a remembered
   state on the records living where the failure that taught it found its
   records. A frame whose failure follows the canonical order (no cell, or
   a bound), or whose list has no room, names none (zend -1) and goes back
   to its creator, as before. Lists are kept in w->zlist along the path: a
   frame's grows only while it is the deepest. */
static uint32_t dnnmem__exact_z_stamp(dnnmem__exact *w) {
  if (++w->zstamp == 0) {
    DNNMEM_MEMSET(w->zmark, 0, (size_t)w->n * sizeof(uint32_t));
    w->zstamp = 1;
  }
  return w->zstamp;
}

/* Frame f's list (empty): the unplaced records of its part living in
   sections [lo, hi), each above min(its lowest offset, b) (no record of
   the failure had to reach more). Returns its end, -1 when out of room. */
static int32_t dnnmem__exact_z_span(dnnmem__exact *w, const dnnmem__exact_frame *f, int32_t lo, int32_t hi,
                                    int64_t b) {
  int32_t p, end = f->zbase;
  for (p = w->start_index[f->part_lo]; p < w->start_index[hi < f->part_hi ? hi : f->part_hi]; p++) {
    int32_t k = w->search[p];
    if (w->placed[k] || w->span_hi[k] <= lo) continue;
    if (end >= w->zcap) return -1;
    w->zbound[end] = w->lowest[k] < b ? w->lowest[k] : b;
    w->zlist[end++] = k;
  }
  return end;
}

/* The sections the records of zlist[from .. to) live in, into *lo, *hi,
   and the greatest height they must reach, into *b. */
static void dnnmem__exact_z_hull(const dnnmem__exact *w, int32_t from, int32_t to, int32_t *lo, int32_t *hi,
                                 int64_t *b) {
  int32_t p;
  *lo = DNNMEM__I32_MAX;
  *hi = 0;
  *b = 0;
  for (p = from; p < to; p++) {
    int32_t k = w->zlist[p];
    if (w->span_lo[k] < *lo) *lo = w->span_lo[k];
    if (w->span_hi[k] > *hi) *hi = w->span_hi[k];
    if (w->zbound[p] > *b) *b = w->zbound[p];
  }
}

static void dnnmem__exact_enter(dnnmem__exact *w, int32_t d, const dnnmem__exact_part *part) {
  dnnmem__exact_frame *f = &w->frames[d];
  int64_t h = DNNMEM__I64_MAX;
  int32_t p;
  f->bound_offset = part->bound_offset;
  f->bound_rank = part->bound_rank;
  f->part_lo = part->lo;
  f->part_hi = part->hi;
  f->creator = part->creator;
  f->last_offset = part->bound_offset;
  f->last_rank = part->bound_rank;
  f->placed = -1;
  f->pushed = f->popped = 0;
  f->done = 0;
  f->crit_offset = -1;
  f->cand_base = d == 0 ? 0 : w->frames[d - 1].cand_end >= 0 ? w->frames[d - 1].cand_end : w->frames[d - 1].cand_base;
  f->cand_end = -1;
  f->cell = -2;
  f->tight = 1;
  f->zbase = d == 0 ? 0 : w->frames[d - 1].zend >= 0 ? w->frames[d - 1].zend : w->frames[d - 1].zbase;
  f->zend = w->backjump ? f->zbase : -1;
  uint64_t state = dnnmem__exact_mix(((uint64_t)(uint32_t)part->lo << 32) ^ (uint32_t)part->hi) +
                   dnnmem__exact_mix((uint64_t)part->bound_offset ^ 0x5bd1e995u) +
                   dnnmem__exact_mix((uint64_t)w->capacity ^ ((uint64_t)w->has_windows * w->run_id << 40));
  for (p = w->start_index[part->lo]; p < w->start_index[part->hi]; p++) {
    int32_t k = w->search[p];
    uint64_t tie;
    if (w->placed[k]) continue;
    h = dnnmem__min64(h, w->lowest[k] + w->size[k]);
    /* ranks matter only for ties at the bound (any rank with windows) */
    tie = w->has_windows ? (uint64_t)(uint32_t)w->rank[k] + 2
          : (uint64_t)(w->lowest[k] == part->bound_offset && w->rank[k] > part->bound_rank);
    state += dnnmem__exact_mix((((uint64_t)(uint32_t)k << 40) ^ (uint64_t)w->lowest[k]) +
                               dnnmem__exact_mix(tie));
  }
  f->min_height = h;
  f->state = state;
  if (w->logging && (p = dnnmem__exact_memo_find(w, state)) >= 0) { /* a dive cannot back up */
    f->done = 1; /* failed before, on the records living in [lo, hi) */
    f->zend = part->bound_offset < 0 && w->memo_lo[p] >= 0 && w->backjump && !w->degraded
                  ? dnnmem__exact_z_memo(w, f, p)
                  : -1;
  }
}

/* Whether record k is busy in section s (one of its busy stretches). */
static int dnnmem__exact_covers(const dnnmem__exact *w, int32_t k, int32_t s) {
  int32_t q;
  for (q = w->seg_first[k]; q < w->seg_first[k] + w->seg_count[k]; q++)
    if (w->seg_lo[q] <= s && s < w->seg_hi[q]) return 1;
  return 0;
}

/* Whether the frame's bound lets record k sit at its lowest offset. */
static int dnnmem__exact_allowed(const dnnmem__exact *w, const dnnmem__exact_frame *f, int32_t k) {
  return w->lowest[k] > f->bound_offset || (w->lowest[k] == f->bound_offset && w->rank[k] > f->bound_rank);
}

/* A tight cell to branch on. Let L be the least lowest offset of the
   part's records that the frame's bound allows: no record of the part ends
   below L (one the bound refuses must be lifted by a record placed at L or
   above). In a section s let h be the least lowest offset of the records
   busy there (the floor). When the unplaced bytes of s fill all of
   [h, capacity) (rem[s] == capacity - h; more fails), no byte of s may be
   wasted, so in every completion the byte at (s, h) is covered by a record
   placed at h: one busy in s whose lowest offset is h and that the bound
   allows (a cover). Placing a cover early is safe when no record busy in
   a section of its stretch could end below h (every such section's floor
   is h): then the records it lifts lie above it in every completion. A
   cell all of whose covers are safe is a branching: the frame's children
   are its covers, each at h with the frame's bound kept (a cover need not
   be the next in canonical order; two covers meet in s, so the children
   are disjoint), the cell with the fewest covers chosen (none: the frame
   fails; one: forced), as Knuth's dancing links take the column with the
   fewest rows. At the lowest level every cell is safe. A part without
   slack (every section with unplaced records tight: a tiling, or what is
   left of one) is searched by cells alone; where sections keep slack the
   canonical order prunes more (cells there took up to 140x the nodes on
   minimalloc's set), so only a forced cell (one cover, or none: the
   frame fails) is taken there. Chosen from the frame's entry state (a
   replay chooses the same). No windows (their records may share bytes).
   O(sections + busy sections of the part's records). */
static void dnnmem__exact_cell(dnnmem__exact *w, dnnmem__exact_frame *f) {
  int32_t p, q, s, best = -1, fewest = 0, slack = 0, d = (int32_t)(f - w->frames), zend = f->zend;
  const int32_t unsafe = -1;
  int64_t o = DNNMEM__I64_MAX;
  f->cell = -1;
  f->zend = -1; /* failures that follow the canonical order: no backjumps */
  if (w->has_windows) return;
  if (d > 0 && w->frames[d - 1].tight == 0 && w->frames[d - 1].placed >= 0 &&
      w->frames[d - 1].part_lo <= f->part_lo && f->part_hi <= w->frames[d - 1].part_hi) {
    /* the parent's part had no tight section: floors and bytes left moved
       only where its placement lifted records or took bytes (its dirty
       range and stretch), so a tight section can only be there */
    int32_t j = w->frames[d - 1].placed, any = 0;
    int32_t lo = (int32_t)dnnmem__max64(f->part_lo, dnnmem__min64(w->dirty_lo, w->span_lo[j]));
    int32_t hi = (int32_t)dnnmem__min64(f->part_hi, dnnmem__max64(w->dirty_hi, w->span_hi[j]));
    for (s = lo; s < hi; s++) w->cell_floor[s] = DNNMEM__I64_MAX;
    for (p = w->start_index[f->part_lo]; p < w->start_index[hi]; p++) {
      int32_t k = w->search[p];
      if (w->placed[k] || w->span_hi[k] <= lo) continue;
      for (q = w->seg_first[k]; q < w->seg_first[k] + w->seg_count[k]; q++)
        for (s = w->seg_lo[q] > lo ? w->seg_lo[q] : lo; s < w->seg_hi[q] && s < hi; s++)
          if (w->lowest[k] < w->cell_floor[s]) w->cell_floor[s] = w->lowest[k];
    }
    for (s = lo; s < hi && !any; s++)
      any = w->cell_floor[s] != DNNMEM__I64_MAX && w->rem[s] == w->capacity - w->cell_floor[s];
    if (!any) {
      f->tight = 0;
      return;
    }
  }
  for (s = f->part_lo; s < f->part_hi; s++) w->cell_floor[s] = DNNMEM__I64_MAX;
  for (p = w->start_index[f->part_lo]; p < w->start_index[f->part_hi]; p++) {
    int32_t k = w->search[p];
    if (w->placed[k]) continue;
    if (dnnmem__exact_allowed(w, f, k) && w->lowest[k] < o) o = w->lowest[k];
    for (q = w->seg_first[k]; q < w->seg_first[k] + w->seg_count[k]; q++)
      for (s = w->seg_lo[q]; s < w->seg_hi[q]; s++)
        if (w->lowest[k] < w->cell_floor[s]) w->cell_floor[s] = w->lowest[k];
  }
  f->level = o;
  if (o >= w->capacity) return;
  f->tight = 0; /* until a tight section is seen */
  /* covers counted per tight cell; a cell with an unsafe cover is marked */
  for (p = w->start_index[f->part_lo]; p < w->start_index[f->part_hi]; p++) {
    int32_t k = w->search[p], safe = 1;
    int64_t h = w->lowest[k];
    if (w->placed[k] || !dnnmem__exact_allowed(w, f, k)) continue;
    for (q = w->seg_first[k]; q < w->seg_first[k] + w->seg_count[k] && safe; q++)
      for (s = w->seg_lo[q]; s < w->seg_hi[q] && safe; s++) safe = w->cell_floor[s] == h;
    for (q = w->seg_first[k]; q < w->seg_first[k] + w->seg_count[k]; q++)
      for (s = w->seg_lo[q]; s < w->seg_hi[q]; s++)
        if (w->cell_floor[s] == h && w->rem[s] == w->capacity - h)
          w->cell_count[s] = !safe || w->cell_count[s] == unsafe ? unsafe
                             : w->cell_count[s] + (w->size[k] <= w->capacity - h);
  }
  /* the fewest covers (ties: the lowest floor, then the first section;
     a restart with noise draws among them, so that its search differs from
     the others' in the cells as well); a tight section without covers
     fails the frame at once */
  for (s = f->part_lo; s < f->part_hi; s++) {
    int32_t c = w->cell_count[s];
    int64_t h = w->cell_floor[s];
    w->cell_count[s] = 0;
    if (h != DNNMEM__I64_MAX && w->rem[s] != w->capacity - h) slack = 1;
    if (h == DNNMEM__I64_MAX || w->rem[s] != w->capacity - h) continue;
    f->tight = 1;
    if (c == unsafe) continue;
    if (best < 0 || c < fewest ||
        (c == fewest && (w->order_seed ? dnnmem__exact_mix((uint64_t)s ^ w->order_seed) <
                                             dnnmem__exact_mix((uint64_t)best ^ w->order_seed)
                                       : h < f->cell_offset))) {
      best = s;
      fewest = c;
      f->cell_offset = h;
    }
  }
  if (!slack || fewest <= 1) f->cell = best;
  if (f->cell >= 0 && f->bound_offset < 0) f->zend = zend;
}

/* The untried candidate with the smallest (lowest offset, rank) above the
   frame's last one, below the dominance height, within capacity, covering
   the frame's cell when it has one: a scan of the part. */
static int32_t dnnmem__exact_scan(const dnnmem__exact *w, const dnnmem__exact_frame *f) {
  int32_t p, best = -1;
  int64_t bo = 0;
  int32_t br = 0;
  for (p = w->start_index[f->part_lo]; p < w->start_index[f->part_hi]; p++) {
    int32_t k = w->search[p];
    int64_t o;
    if (w->placed[k]) continue;
    o = w->lowest[k];
    if (o < f->last_offset || (o == f->last_offset && w->rank[k] <= f->last_rank)) continue;
    if ((f->cell < 0 && o >= f->min_height) || o + w->size[k] > w->capacity) continue;
    if (f->cell >= 0 && (o != f->cell_offset || !dnnmem__exact_covers(w, k, f->cell))) continue;
    if (best < 0 || o < bo || (o == bo && w->rank[k] < br)) {
      best = k;
      bo = o;
      br = w->rank[k];
    }
  }
  return best;
}

static int dnnmem__exact_less_cand(const void *ctx, int32_t a, int32_t b) {
  const dnnmem__exact *w = (const dnnmem__exact *)ctx;
  return w->lowest[a] < w->lowest[b] || (w->lowest[a] == w->lowest[b] && w->rank[a] < w->rank[b]);
}

/* The frame's next candidate, as dnnmem__exact_scan: while the frame is
   the deepest, its part's lowest offsets and ranks stay as they were at
   its entry (what deeper frames change they undo), so its first choice
   lists its candidates, and each choice takes the least of the list's
   rest (the first few by a pass over it, then the rest sorted once). */
static int32_t dnnmem__exact_next(dnnmem__exact *w, dnnmem__exact_frame *f) {
  if (f->cell == -2) dnnmem__exact_cell(w, f);
  if (f->cand_end == -1) {
    int32_t p, c = f->cand_base;
    if ((int64_t)f->cand_base + w->start_index[f->part_hi] - w->start_index[f->part_lo] > w->cand_cap) {
      f->cand_end = -2;
    } else {
      /* dnnmem__exact_scan's filter, written out: a shared predicate
         measured 15% slower on minimalloc's H */
      for (p = w->start_index[f->part_lo]; p < w->start_index[f->part_hi]; p++) {
        int32_t k = w->search[p];
        int64_t o;
        if (w->placed[k]) continue;
        o = w->lowest[k];
        if (o < f->last_offset || (o == f->last_offset && w->rank[k] <= f->last_rank)) continue;
        if ((f->cell < 0 && o >= f->min_height) || o + w->size[k] > w->capacity) continue;
        if (f->cell >= 0 && (o != f->cell_offset || !dnnmem__exact_covers(w, k, f->cell))) continue;
        w->cand[c++] = k;
      }
      f->cand_next = f->cand_base;
      f->cand_end = c;
      f->cand_sorted = 0;
    }
  }
  if (f->cand_end == -2) return dnnmem__exact_scan(w, f);
  if (f->cand_next >= f->cand_end) return -1;
  if (!f->cand_sorted) {
    int32_t *rest = w->cand + f->cand_next, c = f->cand_end - f->cand_next;
    if (f->cand_next - f->cand_base >= DNNMEM__PLAN_CAND_SELECT) { /* many tried: sort the rest */
      dnnmem__sort_ids(rest, w->tmp, c, dnnmem__exact_less_cand, w);
      f->cand_sorted = 1;
    } else { /* most frames try few: the least of the rest to the front */
      int32_t i, best = 0, k;
      for (i = 1; i < c; i++) {
        k = rest[i];
        if (w->lowest[k] < w->lowest[rest[best]] ||
            (w->lowest[k] == w->lowest[rest[best]] && w->rank[k] < w->rank[rest[best]]))
          best = i;
      }
      k = rest[best];
      rest[best] = rest[0];
      rest[0] = k;
    }
  }
  return w->cand[f->cand_next++];
}

/* Whether placing candidate j of frame d at its lowest offset o fails the
   first test of dnnmem__exact_sweep (some section of the part would keep
   more than capacity - o bytes of unplaced records), told without placing
   it: every such section must lie in j's busy stretch, and the most bytes
   left there less j's must fit. *fits tells that the test passes when j
   is not doomed (always for one busy stretch; with more, only the first
   condition is checked here). The part's bytes left do not change while
   the frame tries its candidates, and candidates come by rising offset:
   the sections are counted once per offset. */
static int dnnmem__exact_doomed(const dnnmem__exact *w, dnnmem__exact_frame *f, int32_t j, int *fits) {
  int64_t o = f->cell >= 0 ? f->level : w->lowest[j], room = w->capacity - o; /* nothing ends below o */
  int32_t q = w->seg_first[j];
  if (f->crit_offset != o) {
    int32_t s, lo = -1, hi = -1;
    int64_t most = 0;
    for (s = f->part_lo; s < f->part_hi; s++) {
      if (w->rem[s] > most) most = w->rem[s];
      if (w->rem[s] > room) {
        if (lo < 0) lo = s;
        hi = s;
      }
    }
    f->crit_offset = o;
    f->crit_lo = lo;
    f->crit_hi = hi;
    f->max_rem = most;
  }
  *fits = 1;
  if (f->crit_lo < 0) return 0;
  if (f->crit_lo < w->span_lo[j] || f->crit_hi >= w->span_hi[j]) return 1;
  if (w->seg_count[j] != 1) { /* stretches and windows: not told here */
    *fits = 0;
    return 0;
  }
  return f->crit_lo < w->seg_lo[q] || f->crit_hi >= w->seg_hi[q] || f->max_rem - (w->seg_wu[q] - w->seg_wl[q]) > room;
}

/* Records an old value; 0 when the log is full (the caller then goes on
   without it: see dnnmem__exact_recount). */
static int dnnmem__exact_log(dnnmem__exact *w, int32_t id, int64_t old) {
  if (w->log_top >= w->log_cap) {
    w->degraded = 1;
    return 0;
  }
  w->log_id[w->log_top] = id;
  w->log_who[w->log_top] = id >= 0 ? w->raiser[id] : 0;
  if (id >= 0) {
    w->log_prev[w->log_top] = w->lastlog[id];
    w->lastlog[id] = (int32_t)w->log_top;
  }
  w->log_old[w->log_top++] = old;
  return 1;
}

/* Section bound with release offsets: in section s every unplaced record
   starts no lower than max(its lowest offset, o), so stacking them in that
   order is the least height they can reach (one machine, release times);
   that height must fit. A sweep over the part with the live items kept
   sorted by release: O(items + sections x live). */
static int dnnmem__exact_sweep(dnnmem__exact *w, int32_t lo, int32_t hi, int64_t o, int32_t dlo,
                               int32_t dhi, int fits) {
  int32_t s, p = w->seg_start[lo], live = 0, dead = 0, i, k;
  int ok = 1;
  /* The height is max(o + rem, N), N the best stack of the releases above
     o. Outside [dlo, dhi) no release rose since the last check, which this
     section passed at a lower o, so N can only have fallen there. Items
     released at o need no place in the sorted list: o + rem covers them. */
  for (s = fits ? hi : lo; s < hi; s++) /* fits: dnnmem__exact_doomed checked it */
    if (w->rem[s] > w->capacity - o) {
      w->fail_sec = s;
      w->fail_rel = o; /* every record there sits at o or above */
      return 0;
    }
  if (dlo < lo) dlo = lo;
  if (dhi > hi) dhi = hi;
  if (dlo < dhi && w->seg_reach[dlo] > p) p = w->seg_reach[dlo];
  for (s = dlo; s < dhi && ok; s++) {
    int64_t sum = 0, room = w->capacity - w->rem[s];
    /* items that ended stay in the list, skipped, until they are half of
       it (item_dying counts them by their end): a pass per ending item
       was most of a long part's time */
    dead += w->item_dying[s];
    w->item_dying[s] = 0;
    if (2 * dead > live) {
      for (i = 0, k = 0; i < live; i++)
        if (w->item_end[i] > s) {
          w->item_release[k] = w->item_release[i];
          w->item_bytes[k] = w->item_bytes[i];
          w->item_end[k++] = w->item_end[i];
        }
      live = k;
      dead = 0;
    }
    for (; p < w->seg_start[s + 1]; p++) {
      int32_t q = w->seg_order[p], r = w->seg_owner[q];
      int64_t rel;
      if (w->placed[r] || w->seg_hi[q] <= s) continue;
      rel = w->release[r] + w->seg_wl[q];
      if (rel <= o) continue; /* at o: covered by o + rem above */
      for (i = live; i > 0 && w->item_release[i - 1] > rel; i--) {
        w->item_release[i] = w->item_release[i - 1];
        w->item_bytes[i] = w->item_bytes[i - 1];
        w->item_end[i] = w->item_end[i - 1];
      }
      w->item_release[i] = rel;
      w->item_bytes[i] = w->seg_wu[q] - w->seg_wl[q];
      w->item_end[i] = w->seg_hi[q];
      w->item_dying[w->seg_hi[q]]++;
      live++;
    }
    /* from the highest release down; below a release r every term is at
       most r + rem, so stop once that fits */
    for (i = live - 1; i >= 0 && w->item_release[i] > room; i--) {
      if (w->item_end[i] <= s) continue; /* ended */
      sum += w->item_bytes[i];
      if (w->item_release[i] > w->capacity - sum) {
        ok = 0;
        w->fail_sec = s; /* the records released at or above this one */
        w->fail_rel = w->item_release[i];
        break;
      }
    }
  }
  for (i = 0; i < live; i++) w->item_dying[w->item_end[i]] = 0; /* all zero again */
  return ok;
}

/* Places record j of frame d at its lowest offset and updates the state.
   Returns 1 when the section bound and every record still fit. The state
   is changed even on failure; dnnmem__exact_undo restores it. */
static int dnnmem__exact_place(dnnmem__exact *w, int32_t d, int32_t j) {
  dnnmem__exact_frame *f = &w->frames[d];
  int64_t o = w->lowest[j], need;
  int32_t p, q, s, ok = 1, hat = 0, end;
  f->placed = j;
  f->log_mark = w->log_top;
  f->unlogged = 0;
  w->dirty_lo = DNNMEM__I32_MAX;
  w->dirty_hi = -1;
  w->offset[j] = o;
  w->placed[j] = 1;
  w->min_size1 = w->min_size2 = DNNMEM__I64_MAX;
  w->min_size1_of = -1;
  /* every unplaced record of the part for the two smallest sizes (for
     dnnmem__exact_check); those that begin before j ends may meet it */
  end = w->start_index[w->span_hi[j]];
  for (p = w->start_index[f->part_lo]; p < w->start_index[f->part_hi]; p++) {
    int32_t k = w->search[p];
    int64_t x;
    if (w->placed[k]) continue;
    if (w->size[k] < w->min_size1) {
      w->min_size2 = w->min_size1;
      w->min_size1 = w->size[k];
      w->min_size1_of = k;
    } else if (w->size[k] < w->min_size2) {
      w->min_size2 = w->size[k];
    }
    if (p >= end || !dnnmem__exact_conflict(w, j, k, &need)) continue;
    hat = 1;
    w->open[k]--;
    x = o + need;
    if (x <= w->lowest[k]) continue;
    x = dnnmem__exact_clear_fixed(w, k, x);
    if (w->logging && !f->unlogged && !dnnmem__exact_log(w, k, w->lowest[k])) f->unlogged = 1;
    w->lowest[k] = x;
    w->raiser[k] = d;
    if (w->span_lo[k] < w->dirty_lo) w->dirty_lo = w->span_lo[k];
    if (w->span_hi[k] > w->dirty_hi) w->dirty_hi = w->span_hi[k];
    if (x > w->capacity - w->size[k] && ok) {
      ok = 0;
      w->fail_rec = k; /* k alone no longer fits */
    }
  }
  for (q = w->seg_first[j]; q < w->seg_first[j] + w->seg_count[j]; q++)
    for (s = w->seg_lo[q]; s < w->seg_hi[q]; s++) w->rem[s] -= w->seg_wu[q] - w->seg_wl[q];
  for (s = w->span_lo[j]; s + 1 < w->span_hi[j]; s++) w->cut[s]--;
  /* Nothing unplaced can ever sit on j (it has no "hat"): j stays at this
     offset in every completion, and any sibling placed first would leave j
     below the canonical bound forever. If j fails here, the frame fails. */
  if (!hat) f->done = 1;
  DNNMEM_ASSERT(hat == (w->open[j] > 0)); /* dnnmem__exact_doomed's hat test */
  return ok;
}

/* The bounds after placing j at o in frame d's part. A record that can no
   longer be placed where it stands (its lowest offset is below o, or equal
   to o with a smaller rank while ranks are kept) waits for a conflicting
   record to lift it: to at least o + that record's size, so o + the
   smallest other unplaced size is a bound; with no conflicting record left
   it can never be placed (the two smallest sizes come from
   dnnmem__exact_place's scan). Then the section sweep. */
static int dnnmem__exact_check(dnnmem__exact *w, int32_t d, int32_t j, int ranks_kept, int fits) {
  const dnnmem__exact_frame *f = &w->frames[d];
  int64_t o = f->cell >= 0 ? f->level : w->offset[j], min1 = w->min_size1, min2 = w->min_size2, top = 0;
  int32_t p, who = w->min_size1_of;
  /* records at o with a rank above this may still sit there: j's (the
     canonical order), or the frame's bound's when j covers its cell */
  int32_t above = f->cell < 0 ? w->rank[j] : f->bound_offset == o ? f->bound_rank : -1;
  for (p = w->start_index[f->part_lo]; p < w->start_index[f->part_hi]; p++) {
    int32_t k = w->search[p];
    int64_t lift;
    if (w->placed[k]) continue;
    w->release[k] = w->lowest[k];
    if (w->release[k] > top) top = w->release[k];
    if (w->lowest[k] > o || (w->lowest[k] == o && (!ranks_kept || w->rank[k] > above))) continue;
    if (w->open[k] == 0) return 0;
    lift = w->has_windows ? 0 : k == who ? min2 : min1;
    if (lift > w->capacity - o - w->size[k]) return 0;
    if (o + lift > w->release[k]) w->release[k] = o + lift;
    if (w->release[k] > top) top = w->release[k];
    if (w->span_lo[k] < w->dirty_lo) w->dirty_lo = w->span_lo[k];
    if (w->span_hi[k] > w->dirty_hi) w->dirty_hi = w->span_hi[k];
  }
  /* a stack in a section starts at a release and holds at most the
     section's bytes left: with the highest release and the most bytes
     left (f->max_rem, counted before j took its bytes) within capacity,
     every stack fits (no windows: a stretch's release is its record's) */
  if (fits && !w->has_windows && f->crit_offset >= 0 && top <= w->capacity - f->max_rem) return 1;
  return dnnmem__exact_sweep(w, f->part_lo, f->part_hi, o, w->dirty_lo, w->dirty_hi, fits);
}

/* Record k's lowest offset recounted from the placed records: what the
   placements raised it to, step by step (clearing the fixed records is
   monotone, so clearing the highest requirement once gives the same), in
   O(m). The undo of a placement the full log could not record. */
static int64_t dnnmem__exact_recount(const dnnmem__exact *w, int32_t k) {
  int32_t p, end = w->start_index[w->span_hi[k]];
  int64_t x = 0, need;
  for (p = 0; p < end; p++) {
    int32_t j = w->search[p];
    if (w->placed[j] && w->span_hi[j] > w->span_lo[k] && dnnmem__exact_conflict(w, j, k, &need))
      x = dnnmem__max64(x, w->offset[j] + need);
  }
  return dnnmem__exact_clear_fixed(w, k, x);
}

/* Undoes frame d's placement (and the pending-part operations after it). */
static void dnnmem__exact_undo(dnnmem__exact *w, int32_t d) {
  dnnmem__exact_frame *f = &w->frames[d];
  int32_t j = f->placed, q, s;
  DNNMEM_ASSERT(j >= 0); /* undone: a failed placement, or a frame with a child on the path */
  if (f->popped) {
    dnnmem__exact_frame *g = &w->frames[d + 1];
    dnnmem__exact_part *e = &w->pending[w->pending_top++];
    e->bound_offset = g->bound_offset;
    e->bound_rank = g->bound_rank;
    e->lo = g->part_lo;
    e->hi = g->part_hi;
    e->creator = g->creator;
  }
  w->pending_top -= f->pushed;
  f->pushed = f->popped = 0;
  { /* records that meet j begin before j ends: the part's prefix */
    int32_t p, end = w->start_index[w->span_hi[j]];
    int64_t need;
    for (p = w->start_index[f->part_lo]; p < end; p++) {
      int32_t k = w->search[p];
      if (k != j && !w->placed[k] && dnnmem__exact_conflict(w, j, k, &need)) w->open[k]++;
    }
  }
  for (q = w->seg_first[j]; q < w->seg_first[j] + w->seg_count[j]; q++)
    for (s = w->seg_lo[q]; s < w->seg_hi[q]; s++) w->rem[s] += w->seg_wu[q] - w->seg_wl[q];
  for (s = w->span_lo[j]; s + 1 < w->span_hi[j]; s++) w->cut[s]++;
  while (w->log_top > f->log_mark) {
    int32_t id = w->log_id[--w->log_top];
    if (id >= 0) {
      w->lowest[id] = w->log_old[w->log_top];
      w->raiser[id] = w->log_who[w->log_top];
      w->lastlog[id] = w->log_prev[w->log_top];
    } else {
      w->rank[-1 - id] = (int32_t)w->log_old[w->log_top];
    }
  }
  w->placed[j] = 0;
  w->offset[j] = -1;
  f->placed = -1;
  if (f->unlogged) {
    int32_t p, end = w->start_index[w->span_hi[j]];
    int64_t need;
    for (p = w->start_index[f->part_lo]; p < end; p++) {
      int32_t k = w->search[p];
      if (!w->placed[k] && dnnmem__exact_conflict(w, j, k, &need)) w->lowest[k] = dnnmem__exact_recount(w, k);
    }
    f->unlogged = 0;
  }
}

/* A part split off by decomposition is re-ranked by its own remaining
   load (as minimalloc re-sorts each sub-partition): the records in the most
   loaded remaining sections first. The part keeps the rank values it had,
   in a new order; the old ranks go to the undo log. Any order keeps the
   search complete (ties only break canonical order within the part), so
   when the log has no room for c entries the part keeps its ranks (0). */
static int dnnmem__exact_rerank(dnnmem__exact *w, int32_t lo, int32_t hi) {
  dnnmem__exact_order_ctx ctx;
  int32_t p, c = 0, i;
  for (p = w->start_index[lo]; p < w->start_index[hi]; p++) {
    int32_t r = w->search[p], q, t;
    int64_t sect = 0;
    if (w->placed[r]) continue;
    for (q = w->seg_first[r]; q < w->seg_first[r] + w->seg_count[r]; q++)
      for (t = w->seg_lo[q]; t < w->seg_hi[q]; t++) sect = dnnmem__max64(sect, w->rem[t]);
    for (t = 0; t < 4; t++) w->order_keys[4 * c + t] = w->order_keys[4 * (w->m + p) + t];
    for (t = 0; t < 3; t++)
      if (dnnmem__exact_order_keys[w->order_kind][t] == 'T')
        w->order_keys[4 * c + 1 + t] = -dnnmem__exact_scale(sect, w->noise[r]);
    w->ids[c] = c;
    w->keys[c] = r; /* record of slot c */
    c++;
  }
  if (c < 2) return 1;
  if (w->log_cap - w->log_top < c) {
    w->degraded = 1;
    return 0;
  }
  ctx.w = w;
  ctx.keys = w->order_keys;
  dnnmem__sort_ids(w->ids, w->tmp, c, dnnmem__exact_less_order, &ctx);
  /* the rank values in use, ascending (ranks are unique, 0 .. m-1): by
     marks over the ranks when the part is a large share of them, else
     sorted */
  if ((int64_t)c * DNNMEM__PLAN_RANK_MARKS >= w->m) {
    int32_t k = 0;
    for (i = 0; i < w->m; i++) w->tmp2[i] = 0;
    for (i = 0; i < c; i++) w->tmp2[w->rank[w->keys[i]]] = 1;
    for (i = 0; i < w->m; i++)
      if (w->tmp2[i]) w->item_end[k++] = i;
  } else {
    for (i = 0; i < c; i++) {
      w->item_release[i] = w->rank[w->keys[i]];
      w->item_end[i] = i;
    }
    dnnmem__sort_ids(w->item_end, w->tmp2, c, dnnmem__exact_less_key, w->item_release);
    for (i = 0; i < c; i++) w->item_end[i] = (int32_t)w->item_release[w->item_end[i]];
  }
  for (i = 0; i < c; i++) {
    int32_t r = (int32_t)w->keys[w->ids[i]];
    if (w->rank[r] == w->item_end[i]) continue;
    dnnmem__exact_log(w, -1 - r, w->rank[r]); /* room checked above */
    w->rank[r] = w->item_end[i];
  }
  return 1;
}

enum { DNNMEM__EXACT_FOUND = 1, DNNMEM__EXACT_EXHAUSTED = 0, DNNMEM__EXACT_ABORTED = -1 };

/* Resets the search state for a new run and queues the parts that are
   independent from the start (part 0 in w->parts[0], the rest pending).
   Returns the number of parts, or -1 when the section bound already fails. */
static int32_t dnnmem__exact_restart(dnnmem__exact *w) {
  int32_t i, s, nparts = 0, prev = 0;
  for (i = 0; i < w->m; i++) {
    int32_t k = w->search[i];
    w->placed[k] = 0;
    w->offset[k] = -1;
    w->lowest[k] = dnnmem__exact_clear_fixed(w, k, 0);
    w->raiser[k] = -1;
    w->lastlog[k] = -1;
    w->open[k] = w->open0[k];
  }
  for (s = 0; s < w->sections; s++) {
    w->rem[s] = w->rem0[s];
    w->cut[s] = w->cut0[s];
  }
  w->log_top = 0;
  w->pending_top = 0;
  /* every later sweep looks only where releases rose: check all once */
  for (i = 0; i < w->m; i++) w->release[w->search[i]] = w->lowest[w->search[i]];
  if (w->sections > 0 && !dnnmem__exact_sweep(w, 0, w->sections, 0, 0, w->sections, 0)) return -1;
  for (s = 0; s < w->sections; s++) {
    if (s + 1 < w->sections && w->cut[s] > 0) continue;
    if (dnnmem__exact_part_nonempty(w, prev, s + 1)) {
      dnnmem__exact_part *pt = &w->parts[nparts++];
      pt->lo = prev;
      pt->hi = s + 1;
      pt->bound_offset = -1;
      pt->bound_rank = -1;
      pt->creator = -1;
    }
    prev = s + 1;
  }
  for (i = nparts - 1; i >= 1; i--) w->pending[w->pending_top++] = w->parts[i];
  return nparts;
}

/* After placing j in frame d: the parts of d's part that no unplaced
   record crosses any more, into w->parts (bounded by j's placement);
   when it split, each part is re-ranked by its own load (while the undo
   log has room). Returns the number of parts; *reranked says whether
   ranks changed. */
static int32_t dnnmem__exact_split(dnnmem__exact *w, int32_t d, int32_t j, int *reranked) {
  const dnnmem__exact_frame *f = &w->frames[d];
  int32_t b, i, count = 0, prev = f->part_lo;
  *reranked = 0;
  for (b = w->span_lo[j]; b + 1 < w->span_hi[j]; b++) {
    if (w->cut[b] != 0) continue;
    if (dnnmem__exact_part_nonempty(w, prev, b + 1)) {
      w->parts[count].lo = prev;
      w->parts[count++].hi = b + 1;
    }
    prev = b + 1;
  }
  if (dnnmem__exact_part_nonempty(w, prev, f->part_hi)) {
    w->parts[count].lo = prev;
    w->parts[count++].hi = f->part_hi;
  }
  for (i = 0; i < count; i++) { /* a cell's child keeps the frame's bound */
    w->parts[i].bound_offset = f->cell >= 0 ? f->bound_offset : w->offset[j];
    w->parts[i].bound_rank = f->cell >= 0 ? f->bound_rank : w->rank[j];
    w->parts[i].creator = d;
  }
  if (w->logging &&
      (count > 1 || (count == 1 && (w->parts[0].lo != f->part_lo || w->parts[0].hi != f->part_hi)))) {
    for (i = 0; i < count; i++) {
      if (!dnnmem__exact_rerank(w, w->parts[i].lo, w->parts[i].hi)) continue;
      w->parts[i].bound_rank = -1; /* new ranks: any rank at the bound offset */
      *reranked = 1;
    }
  }
  return count;
}

/* A new stamp for the failed states of a new search. When the stamps
   wrap, every failed state and every suspended search is forgotten (a
   stamp must never name two searches). */
static uint32_t dnnmem__exact_new_stamp(dnnmem__exact *w) {
  int32_t i;
  if (++w->run_count == 0) {
    for (i = 0; i <= (int32_t)w->memo_mask; i++) w->memo_run[i] = 0;
    for (i = 0; i < DNNMEM__EXACT_SLOTS; i++) w->slots[i].depth = -1;
    w->run_count = 1;
  }
  return w->run_count;
}

/* Adds to the list zlist[from .. end) the unplaced records of frame f's
   part busy in section s (with a release >= rel when rel >= 0), each above
   min(its lowest offset, b): all the failure needs (a record listed keeps
   the higher of its two heights). Returns its new end, -1 when out of
   room. */
static int32_t dnnmem__exact_z_busy(dnnmem__exact *w, const dnnmem__exact_frame *f, int32_t s, int64_t rel,
                                    int64_t b, int32_t from, int32_t end) {
  uint32_t stamp = dnnmem__exact_z_stamp(w);
  int32_t p;
  for (p = from; p < end; p++) {
    w->zmark[w->zlist[p]] = stamp;
    w->zpos[w->zlist[p]] = p;
  }
  for (p = w->start_index[f->part_lo]; p < w->start_index[s + 1]; p++) {
    int32_t k = w->search[p];
    int64_t h = w->lowest[k] < b ? w->lowest[k] : b;
    if (w->placed[k] || w->span_hi[k] <= s || (rel >= 0 && w->release[k] < rel) || !dnnmem__exact_covers(w, k, s))
      continue;
    if (w->zmark[k] == stamp) {
      if (h > w->zbound[w->zpos[k]]) w->zbound[w->zpos[k]] = h;
      continue;
    }
    if (end >= w->zcap) return -1;
    w->zbound[end] = h;
    w->zlist[end++] = k;
  }
  return end;
}

/* The shallowest frame whose placement raised record k's lowest offset
   to b or above (the undo log keeps each record's earlier values), -1
   none: it was there from the start. */
static int32_t dnnmem__exact_raised(const dnnmem__exact *w, int32_t k, int64_t b) {
  int32_t r = w->raiser[k], e = w->lastlog[k];
  while (e >= 0 && w->log_old[e] >= b) {
    r = w->log_who[e];
    e = w->log_prev[e];
  }
  return r;
}

/* The deepest frame that raised a record of zlist[from .. to) to its
   height, -1 none (the failure holds at the root). */
static int32_t dnnmem__exact_culprit(const dnnmem__exact *w, int32_t from, int32_t to) {
  int32_t p, c = -1, r;
  for (p = from; p < to; p++)
    if ((r = dnnmem__exact_raised(w, w->zlist[p], w->zbound[p])) > c) c = r;
  return c;
}

/* Adds zlist[from .. to) (from -1: not told), failed below frame d, to
   frame d's list, the deepest: a height that d's child raised a record to
   becomes d's cell offset (the child lifted it there from at least that:
   safety); a record named twice keeps the higher. The source lies at or
   above the list's end, so the copy runs downwards in place. */
static void dnnmem__exact_z_merge(dnnmem__exact *w, int32_t d, int32_t from, int32_t to) {
  dnnmem__exact_frame *g = &w->frames[d];
  uint32_t stamp;
  int32_t p;
  if (g->zend < 0) return;
  if (from < 0) {
    g->zend = -1;
    return;
  }
  DNNMEM_ASSERT(g->zend <= from && g->cell >= 0);
  stamp = dnnmem__exact_z_stamp(w);
  for (p = g->zbase; p < g->zend; p++) {
    w->zmark[w->zlist[p]] = stamp;
    w->zpos[w->zlist[p]] = p;
  }
  for (p = from; p < to; p++) {
    int32_t k = w->zlist[p];
    int64_t b = w->zbound[p] > w->lowest[k] ? g->cell_offset : w->zbound[p];
    if (w->zmark[k] == stamp) {
      if (b > w->zbound[w->zpos[k]]) w->zbound[w->zpos[k]] = b;
      continue;
    }
    w->zmark[k] = stamp;
    w->zpos[k] = g->zend;
    w->zbound[g->zend] = b;
    w->zlist[g->zend++] = k;
  }
}

/* Places j in frame d (its next candidate) and enters the frame below:
   1 entered, 2 every part is placed (the plan is in w->offset), 0 the
   placement failed (undone; with logging off nothing is undone). */
static int dnnmem__exact_descend(dnnmem__exact *w, int32_t d, int32_t j, int fits) {
  dnnmem__exact_frame *f = &w->frames[d];
  int32_t i, count;
  int reranked;
  if (f->cell == -2) dnnmem__exact_cell(w, f); /* a replay: as dnnmem__exact_next chose */
  f->last_offset = w->lowest[j];
  f->last_rank = w->rank[j];
  w->nodes++;
  w->fail_rec = -1;
  w->fail_z = -1;
  if (!dnnmem__exact_place(w, d, j)) {
    DNNMEM_ASSERT(w->fail_rec >= 0); /* a placement fails only by lifting a record past capacity */
    if (f->zend >= 0 && f->zend < w->zcap) { /* j lifted it */
      w->zlist[f->zend] = w->fail_rec;
      w->zbound[f->zend] = w->capacity - w->size[w->fail_rec] + 1;
      w->fail_z = f->zend + 1;
    }
    if (w->logging) dnnmem__exact_undo(w, d);
    return 0;
  }
  count = dnnmem__exact_split(w, d, j, &reranked);
  w->fail_sec = -1;
  if (!dnnmem__exact_check(w, d, j, !reranked, fits)) {
    /* in a frame with a list (a cell, the bound unset: its level is the
       least lowest offset of the part) no record waits below the level,
       so the check fails only in its sweep, which names the section */
    DNNMEM_ASSERT(f->zend < 0 || w->fail_sec >= 0);
    if (f->zend >= 0 && !w->degraded)
      w->fail_z = dnnmem__exact_z_busy(w, f, w->fail_sec, w->fail_rel, w->fail_rel, f->zend, f->zend);
    /* j is the culprit (no backjump from here): releases are lowest
       offsets there (no record waits); had every record of the failed
       stack (section fail_sec, releases from fail_rel) stood that high
       before j, the last frame that raised a record busy there (or the
       restart) swept it with at least these bytes left (they only fall
       along the path) and failed */
    DNNMEM_ASSERT(w->fail_z < 0 || dnnmem__exact_culprit(w, f->zend, w->fail_z) == d);
    if (w->logging) dnnmem__exact_undo(w, d);
    return 0;
  }
  if (count == 0) { /* this part is done: the next pending one */
    dnnmem__exact_part next;
    if (w->pending_top == 0) return 2;
    next = w->pending[--w->pending_top];
    f->popped = 1;
    dnnmem__exact_enter(w, d + 1, &next);
  } else {
    for (i = count - 1; i >= 1; i--) w->pending[w->pending_top++] = w->parts[i];
    f->pushed = count - 1;
    dnnmem__exact_enter(w, d + 1, &w->parts[0]);
  }
  return 1;
}

/* Keeps the path to frame d in slot (the search stops there). */
static void dnnmem__exact_suspend(dnnmem__exact *w, dnnmem__exact_slot *slot, int32_t d) {
  int32_t e;
  for (e = 0; e <= d; e++) {
    const dnnmem__exact_frame *f = &w->frames[e];
    dnnmem__exact_step_rec *r = &slot->path[e];
    r->last_offset = f->last_offset;
    r->last_rank = f->last_rank;
    r->placed = e < d ? f->placed : -1;
    r->done = f->done;
  }
  slot->depth = d;
  slot->run_id = w->run_id;
}

/* Replays slot's path after a restart: the same placements give the same
   state (the search is deterministic; failed states only prune subtrees
   without a plan). Returns the depth reached, -1 when a placement did not
   replay (not expected: the caller then starts afresh). */
static int32_t dnnmem__exact_replay(dnnmem__exact *w, const dnnmem__exact_slot *slot) {
  int32_t d;
  for (d = 0; d < slot->depth; d++)
    if (dnnmem__exact_descend(w, d, slot->path[d].placed, 0) != 1) return -1;
  for (d = 0; d <= slot->depth; d++) {
    w->frames[d].last_offset = slot->path[d].last_offset;
    w->frames[d].last_rank = slot->path[d].last_rank;
    w->frames[d].done = slot->path[d].done;
    w->frames[d].zend = -1; /* what its tried children named is not kept */
  }
  return slot->depth;
}

/* One depth-first search for a plan within w->capacity with the current
   ranks, at most `limit` nodes: a new search, or slot's suspended one
   resumed (slot NULL: new, not kept). FOUND leaves the plan in w->offset;
   ABORTED keeps the search in slot. */
static int dnnmem__exact_run(dnnmem__exact *w, int64_t limit, dnnmem__exact_slot *slot) {
  int32_t d = 0, nparts = dnnmem__exact_restart(w);
  int64_t nodes = 0;
  int out = DNNMEM__EXACT_EXHAUSTED;
  if (nparts < 0) return DNNMEM__EXACT_EXHAUSTED;
  if (nparts == 0) return DNNMEM__EXACT_FOUND;
  /* a replay's placements count as nodes: one that would pass the node
     limit ends the search there */
  if (slot && slot->depth >= 0 && slot->depth > w->node_limit - w->nodes) {
    w->nodes = w->node_limit;
    return DNNMEM__EXACT_ABORTED;
  }
  w->run_id = slot && slot->depth >= 0 ? slot->run_id : dnnmem__exact_new_stamp(w);
  dnnmem__exact_enter(w, 0, &w->parts[0]);
  if (slot && slot->depth >= 0 && (d = dnnmem__exact_replay(w, slot)) < 0) {
    slot->depth = -1; /* start afresh */
    slot->spent = 0;
    return dnnmem__exact_run(w, limit, slot);
  }
  if (slot && slot->depth < 0) slot->spent = 0;
  for (;;) {
    dnnmem__exact_frame *f = &w->frames[d];
    int32_t j;
    int res, fits;
    if (nodes >= limit || w->nodes >= w->node_limit ||
        (w->stop && (w->nodes & (DNNMEM__PLAN_STOP_POLL - 1)) == 0 && (w->stopped = w->stop(w->stop_user) != 0))) {
      if (slot) dnnmem__exact_suspend(w, slot, d);
      return DNNMEM__EXACT_ABORTED;
    }
    j = f->done ? -1 : dnnmem__exact_next(w, f);
    if (j < 0) { /* the part fails: back to the frame that created it */
      int32_t t = f->creator, e, to = -1;
      if (!w->logging && t >= 0) return DNNMEM__EXACT_ABORTED; /* a dive: nothing to undo with */
      if (f->zend >= 0 && !w->degraded) /* the cell's records too (not at a remembered state) */
        to = f->cell >= 0 ? dnnmem__exact_z_busy(w, f, f->cell, -1, f->cell_offset + 1, f->zbase, f->zend) : f->zend;
      if (to >= 0) { /* or further back */
        t = dnnmem__exact_culprit(w, f->zbase, to);
        DNNMEM_ASSERT(t <= f->creator);
        w->backjumps += t < f->creator;
      }
      dnnmem__exact_memo_add(w, f->state, to >= 0 ? f->zbase : -1, to);
      if (t < 0) break; /* the root part: exhausted */
      for (e = d - 1; e >= t; e--) dnnmem__exact_undo(w, e);
      dnnmem__exact_z_merge(w, t, to >= 0 ? f->zbase : -1, to);
      d = t;
      continue;
    }
    nodes++;
    if (slot) slot->spent++;
    if (dnnmem__exact_doomed(w, f, j, &fits)) { /* as if placed and undone */
      f->last_offset = w->lowest[j];
      f->last_rank = w->rank[j];
      w->nodes++;
      w->refused++;
      if (w->open[j] == 0) f->done = 1; /* no hat: see dnnmem__exact_place */
      if (!w->logging) return DNNMEM__EXACT_ABORTED;
      /* never in a frame with a list: a section over capacity - level
         holds records at the level or above only (the bound is unset),
         which the last frame that raised one of them (or the restart)
         found over capacity already */
      DNNMEM_ASSERT(f->zend < 0);
      continue;
    }
    res = dnnmem__exact_descend(w, d, j, fits);
    if (res == 2) {
      out = DNNMEM__EXACT_FOUND;
      break;
    }
    if (res == 1) {
      d++;
    } else if (!w->logging) {
      return DNNMEM__EXACT_ABORTED;
    } else {
      dnnmem__exact_z_merge(w, d, w->fail_z >= 0 ? f->zend : -1, w->fail_z);
    }
  }
  if (slot) slot->depth = -1; /* answered: nothing to resume */
  return out;
}

/* Feasibility within capacity: every order in turn with doubling node
   limits (minimalloc's round robin), at most `budget` nodes in all. */
static int64_t dnnmem__exact_luby(int64_t i) { /* 1 1 2 1 1 2 4 1 1 2 ... (i >= 1) */
  for (;;) {
    int64_t k = 1;
    while (((int64_t)1 << k) - 1 < i) k++;
    if (((int64_t)1 << k) - 1 == i) return (int64_t)1 << (k - 1);
    i -= ((int64_t)1 << (k - 1)) - 1;
  }
}

/* A capacity question in progress: minimalloc's round robin over the
   plain orders with doubling node limits (it eventually exhausts the tree:
   proofs), and short runs with random key noise and Luby's limits
   (searches here are heavy-tailed: a lucky order often succeeds within a
   few thousand nodes), the two sharing the nodes equally. One step is one
   whole run, so a question asked step by step, between steps of others,
   does exactly the work of the question asked alone. */
typedef struct dnnmem__exact_portfolio {
  int64_t capacity, nodes; /* nodes: spent on this question */
  int64_t plain_nodes, noisy_nodes, plain_runs, noisy_runs;
  int32_t slot0; /* its plain orders' searches: w->slots[slot0 + kind] */
} dnnmem__exact_portfolio;

/* Asks a new question in pf; which (0 or 1) tells two questions asked
   side by side apart (each keeps its own suspended searches). */
static void dnnmem__exact_ask(dnnmem__exact *w, dnnmem__exact_portfolio *pf, int32_t which, int64_t capacity) {
  int32_t k;
  pf->capacity = capacity;
  pf->nodes = pf->plain_nodes = pf->noisy_nodes = pf->plain_runs = pf->noisy_runs = 0;
  pf->slot0 = which * DNNMEM__EXACT_ORDERS;
  for (k = 0; k < DNNMEM__EXACT_ORDERS; k++) {
    w->slots[pf->slot0 + k].depth = -1;
    w->slots[pf->slot0 + k].spent = 0;
  }
}

/* The question's next run: FOUND (the plan in w->offset), EXHAUSTED
   (none within the capacity), ABORTED (the run's limit, the node limit or
   stop; w->stopped tells stop). */
static int dnnmem__exact_step(dnnmem__exact *w, dnnmem__exact_portfolio *pf) {
  int64_t base = DNNMEM__PLAN_RUN_NODES_PER_RECORD * (int64_t)w->m + DNNMEM__PLAN_RUN_NODES_EXTRA, limit;
  int64_t before = w->nodes;
  int32_t first = 1, k, orders, kind;
  uint64_t seed;
  int res;
  dnnmem__exact_slot *slot = NULL;
  for (k = 0; k < w->m; k++)
    if (w->rec[w->search[k]].flags & DNNMEM_INTERVAL_HINT) first = 0;
  orders = DNNMEM__EXACT_ORDERS - first;
  if (pf->noisy_nodes < pf->plain_nodes) {
    int64_t luby = dnnmem__exact_luby(pf->noisy_runs + 1);
    kind = first + (int32_t)(pf->noisy_runs % orders);
    seed = (uint64_t)(pf->noisy_runs + 1) * 0x9E3779B97F4A7C15ull;
    limit = luby > DNNMEM__I64_MAX / base ? DNNMEM__I64_MAX : base * luby;
  } else {
    int64_t round = pf->plain_runs / orders;
    kind = first + (int32_t)(pf->plain_runs % orders);
    seed = 0;
    limit = round >= 62 || base > (DNNMEM__I64_MAX >> round) ? DNNMEM__I64_MAX : base << round;
    slot = &w->slots[pf->slot0 + kind]; /* resumed: on to the round's limit */
    limit -= slot->spent;
  }
  w->capacity = pf->capacity;
  if (w->order_kind != kind || w->order_seed != seed)
    dnnmem__exact_set_order(w, kind, seed, w->order_keys + 4 * (size_t)w->m);
  res = dnnmem__exact_run(w, limit, slot);
  if (seed) {
    pf->noisy_nodes += w->nodes - before;
    pf->noisy_runs++;
  } else {
    pf->plain_nodes += w->nodes - before;
    pf->plain_runs++;
  }
  pf->nodes += w->nodes - before;
  return res;
}

/* Whether the search may go on (the node limit and stop not reached). */
static int dnnmem__exact_going(const dnnmem__exact *w) { return !w->stopped && w->nodes < w->node_limit; }

/* Feasibility within capacity: the question's steps until it is answered
   or the node limit or stop ends it. */
static int dnnmem__exact_feasible(dnnmem__exact *w, int64_t capacity) {
  dnnmem__exact_portfolio pf;
  dnnmem__exact_ask(w, &pf, 0, capacity);
  while (dnnmem__exact_going(w)) {
    int res = dnnmem__exact_step(w, &pf);
    if (res != DNNMEM__EXACT_ABORTED) return res;
  }
  return DNNMEM__EXACT_ABORTED;
}

typedef struct dnnmem__exact_params {
  int64_t capacity;            /* > 0: feasibility question; 0: minimise */
  int64_t node_limit;          /* 0: unlimited */
  dnnmem_stop_fn stop;
  void *stop_user;
  const int64_t *warm_offsets; /* a valid plan to start from, or NULL */
  int64_t lower_bound;         /* a known valid lower bound, or 0 */
  int lean;                    /* the scratch was sized lean */
  int ignore_gaps;             /* plan as if unfixed records had no gaps (valid) */
  int64_t log_limit;           /* > 0: at most this many undo-log, candidate-list and
                                  failed-record entries (tests: a full log, frames
                                  that scan, lists without room) */
  int no_backjumps;            /* tests: every failure goes back to its creator */
} dnnmem__exact_params;

typedef struct dnnmem__exact_outcome {
  int64_t arena;       /* of the plan in offsets[]; -1 when none was written */
  int64_t lower_bound; /* proven */
  int64_t nodes;
  int32_t optimal;     /* arena == lower_bound */
  int32_t feasible;    /* capacity question: 1 yes, 0 proven no, -1 unknown */
  dnnmem_plan_stop stop;
  int32_t degraded;    /* the undo log filled (deeper nodes recounted) */
  int64_t backjumps;   /* failures that went back past the frame before */
} dnnmem__exact_outcome;

/* The arena of a plan of the search's records. */
static int64_t dnnmem__exact_arena(const dnnmem__exact *w, const int64_t *offsets) {
  int32_t i;
  int64_t a = 0;
  for (i = 0; i < w->n; i++) a = dnnmem__max64(a, offsets[i] + w->size[i]);
  return a;
}

/* The search's plan into offsets, its arena into *arena. */
static void dnnmem__exact_keep(dnnmem__exact *w, int64_t *offsets, int64_t *arena) {
  DNNMEM_MEMCPY(offsets, w->offset, (size_t)w->n * sizeof(int64_t));
  *arena = dnnmem__exact_arena(w, offsets);
}

/* Rounds v up to a multiple of g (v >= 0, no overflow for validated input). */
static int64_t dnnmem__exact_round_up(int64_t v, int64_t g) { return (v + g - 1) / g * g; }

/* The capacity question: one feasibility search within the capacity
   (capped at big, a capacity no plan exceeds), unlimited but for the node
   limit and stop. */
static void dnnmem__exact_answer(dnnmem__exact *w, int64_t capacity, int64_t bound, int64_t big,
                                 int64_t lb, int64_t *offsets, dnnmem__exact_outcome *out) {
  int res;
  if (capacity < bound) {
    out->feasible = 0;
    return;
  }
  res = dnnmem__exact_feasible(w, dnnmem__min64(capacity, big));
  if (res == DNNMEM__EXACT_FOUND) {
    dnnmem__exact_keep(w, offsets, &out->arena);
    out->feasible = 1;
    out->optimal = out->arena == lb;
  } else if (res == DNNMEM__EXACT_EXHAUSTED && !w->has_windows) {
    out->feasible = 0;
  }
}

/* The search's greedy dive (one pass, no backtracking, O(m) nodes, not
   stopped by the limits): its plan replaces the best one
   (*ub, offsets; *ub < 0: none yet) when smaller. Returns 0 when no plan
   was found (not expected). */
static int dnnmem__exact_dive(dnnmem__exact *w, int64_t big, int64_t *offsets, int64_t *ub) {
  int64_t node_limit = w->node_limit;
  dnnmem_stop_fn stop = w->stop;
  int res;
  dnnmem__exact_set_order(w, 1, 0, w->order_keys + 4 * (size_t)w->m);
  w->capacity = big;
  w->stop = NULL;
  w->node_limit = DNNMEM__I64_MAX;
  w->logging = 0;
  res = dnnmem__exact_run(w, DNNMEM__I64_MAX, NULL);
  w->logging = 1;
  if (res != DNNMEM__EXACT_FOUND) /* not expected; a logged search cannot lose the plan */
    res = dnnmem__exact_run(w, DNNMEM__I64_MAX, NULL);
  w->stop = stop;
  w->node_limit = node_limit;
  if (res != DNNMEM__EXACT_FOUND) return 0;
  if (*ub < 0 || dnnmem__exact_arena(w, w->offset) < *ub) dnnmem__exact_keep(w, offsets, ub);
  return 1;
}

/* Minimising between the proven bound *lb and the best plan's arena *ub
   (capacities step by g; with windows an exhausted search proves
   nothing, so only `low`, the lowest capacity still worth asking, rises).
   Two questions go on side by side, one run at a time: "a plan within
   low?" (found: optimal; exhausted: the bound rises), which gets
   DNNMEM__PLAN_LOW_SHARE of the nodes, so on an instance whose optimum is
   its bound minimising costs at most 1 / share times the decision there
   (plus a run); and a probe `dist` below ub (found: ub falls and the next
   probe reaches twice as far below it; exhausted: low rises past it),
   moved halfway up to ub whenever it spends its quota unanswered, the
   quota doubling each move. Unless dived, the probe side's first turn is
   the greedy dive (its work counted in the probe's share): an answer at
   the bound in the first runs costs no dive at all. */
/* Whether a run of one node refutes capacity c (a proof: the root's
   bounds, or no record placeable). It counts as a node at least, so the
   node limit bounds any loop of such questions. */
static int dnnmem__exact_refuted(dnnmem__exact *w, int64_t c) {
  int64_t before = w->nodes;
  int res;
  w->capacity = c;
  res = dnnmem__exact_run(w, 1, NULL);
  if (w->nodes == before) w->nodes++;
  return res == DNNMEM__EXACT_EXHAUSTED;
}

/* low is refuted: the capacity above the last one a one-node run refutes
   (galloping, then bisection, on the grid g below ub): the capacities
   refuted that way are (nearly always) the ones below a threshold, as
   more capacity only relaxes the root. A long climb of refuted questions
   one grid step at a time (a bound far above the load bound, fine grid)
   took minutes; this takes O(log) runs. */
static int64_t dnnmem__exact_climb(dnnmem__exact *w, int64_t low, int64_t ub, int64_t g) {
  int64_t step = g, hi = ub;
  while (dnnmem__exact_going(w)) {
    int64_t c = step > ub - low ? ub : low + step;
    if (c >= ub) break;
    if (!dnnmem__exact_refuted(w, c)) {
      hi = c;
      break;
    }
    low = c;
    step = step > DNNMEM__I64_MAX / 4 ? step : 2 * step;
  }
  while (hi - low > g && dnnmem__exact_going(w)) {
    int64_t mid = low + (hi - low) / 2 / g * g;
    if (dnnmem__exact_refuted(w, mid)) low = mid;
    else hi = mid;
  }
  return low + g;
}

/* The search's work so far in units of a refused node: a placed node
   costs about DNNMEM__PLAN_PLACE_WORK of them. The question at the bound
   gets its share of the work (so of time) and of the nodes (so of node
   budgets) both: it runs whenever either falls short. */
static int64_t dnnmem__exact_work(const dnnmem__exact *w) {
  return DNNMEM__PLAN_PLACE_WORK * (w->nodes - w->refused) + w->refused;
}

static void dnnmem__exact_narrow(dnnmem__exact *w, int64_t g, int64_t big, int dived, int64_t *lb,
                                 int64_t *ub, int64_t *offsets) {
  int64_t low = *lb, quota0 = DNNMEM__PLAN_PROBE_NODES_PER_RECORD * (int64_t)w->m + DNNMEM__PLAN_PROBE_NODES_EXTRA;
  int64_t quota = quota0, low_work = 0, probe_work = 0, low_nodes = 0, probe_nodes = 0;
  int64_t dist = (*ub - low) / 2 / g * g;
  int complete = !w->has_windows, probing = 0;
  dnnmem__exact_portfolio at_low, probe;
  dnnmem__exact_ask(w, &at_low, 0, low);
  while (low < *ub && dnnmem__exact_going(w)) {
    int res, share_low = DNNMEM__PLAN_LOW_SHARE;
    if (!probing && *ub - low > g) { /* a probe between: dist below ub, on the grid */
      int64_t c;
      if (dist < g) dist = g;
      c = *ub - dist < low + g ? low + g : low + (*ub - dist - low) / g * g;
      dnnmem__exact_ask(w, &probe, 1, c);
      probing = 1;
    }
    if (!probing || low_work * (100 - share_low) <= probe_work * share_low ||
        low_nodes * (100 - share_low) <= probe_nodes * share_low) {
      int64_t before = w->nodes, work = dnnmem__exact_work(w);
      res = dnnmem__exact_step(w, &at_low);
      if (w->nodes == before) w->nodes++; /* every question costs a node */
      low_work += dnnmem__exact_work(w) - work;
      low_nodes += w->nodes - before;
      if (res == DNNMEM__EXACT_FOUND) {
        dnnmem__exact_keep(w, offsets, ub);
        break;
      }
      if (res == DNNMEM__EXACT_EXHAUSTED) {
        /* refuted at once: skip the run of capacities refuted the same way */
        low = w->nodes - before <= 1 ? dnnmem__exact_climb(w, low, *ub, g) : low + g;
        if (complete) *lb = low;
        dnnmem__exact_ask(w, &at_low, 0, low);
        if (probing && probe.capacity <= low) probing = 0;
      }
      continue;
    }
    {
      int64_t before = w->nodes, work = dnnmem__exact_work(w);
      int64_t refused = w->refused;
      res = DNNMEM__EXACT_ABORTED;
      if (!dived) dnnmem__exact_dive(w, big, offsets, ub);
      else res = dnnmem__exact_step(w, &probe);
      if (w->nodes == before) w->nodes++;
      probe_work += dnnmem__exact_work(w) - work;
      probe_nodes += w->nodes - before;
      if (!dived) w->nodes = before, w->refused = refused; /* the dive is outside the node limit */
    }
    if (!dived) { /* the probe's question again, below the dive's plan */
      dived = 1;
      dist = (*ub - low) / 2 / g * g;
      probing = 0;
    } else if (res == DNNMEM__EXACT_FOUND) {
      int64_t was = *ub;
      dnnmem__exact_keep(w, offsets, ub);
      if (was - probe.capacity <= DNNMEM__I64_MAX / 2) dist = 2 * (was - probe.capacity);
      probing = 0;
    } else if (res == DNNMEM__EXACT_EXHAUSTED) {
      if (complete) *lb = probe.capacity + g;
      low = probe.capacity + g;
      dnnmem__exact_ask(w, &at_low, 0, low);
      dist = (*ub - low) / 2 / g * g;
      probing = 0;
    } else if (probe.nodes >= quota && probe.capacity + g < *ub) {
      dist = (*ub - probe.capacity) / 2 / g * g;
      probing = 0;
      quota = quota > DNNMEM__I64_MAX / 2 ? quota : 2 * quota;
    }
  }
}

/* The exact planner over a validated problem whose fixed records do not
   collide: minimises the arena (params->capacity == 0) or answers the
   capacity question. offsets receives the best plan (minimising: always;
   capacity: when feasible). */
static dnnmem_result dnnmem__exact_solve(const dnnmem_interval *records, int32_t count,
                                         int64_t alignment, const dnnmem__exact_params *params,
                                         int64_t *offsets, dnnmem__exact_outcome *out,
                                         void *scratch, size_t scratch_bytes) {
  dnnmem__scratch sc;
  dnnmem__exact w;
  int64_t gaps, bound, big = 0, g, lb, ub;
  int32_t i;
  dnnmem_result r;
  if ((r = dnnmem__exact_count_gaps(records, count, &gaps)) != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&sc, scratch, scratch_bytes);
  dnnmem__exact_layout(&sc, count, gaps, params->lean, &w);
  if ((r = dnnmem__scratch_end(&sc, NULL)) != DNNMEM_OK) return r;
  DNNMEM_MEMSET(w.item_dying, 0, (2 * (size_t)count + 2 * (size_t)gaps + 2) * sizeof(int32_t));
  DNNMEM_MEMSET(w.cell_count, 0, (2 * (size_t)count + 2 * (size_t)gaps + 2) * sizeof(int32_t));
  if (params->log_limit > 0 && params->log_limit < w.log_cap) w.log_cap = params->log_limit;
  if (params->log_limit > 0 && params->log_limit < w.cand_cap) w.cand_cap = params->log_limit;
  if (params->log_limit > 0 && params->log_limit < w.zcap) w.zcap = params->log_limit;
  bound = dnnmem__exact_setup(&w, records, count, alignment, params->ignore_gaps);
  w.nodes = w.refused = w.backjumps = 0;
  w.backjump = !params->no_backjumps;
  w.zstamp = 0;
  w.mz_top = 0;
  DNNMEM_MEMSET(w.zmark, 0, (size_t)count * sizeof(uint32_t));
  w.node_limit = params->node_limit > 0 ? params->node_limit : DNNMEM__I64_MAX;
  w.stop = params->stop;
  w.stop_user = params->stop_user;
  w.stopped = w.degraded = 0;
  w.logging = 1;
  w.order_kind = -1;
  w.run_id = w.run_count = 0;
  for (i = 0; i <= (int32_t)w.memo_mask; i++) w.memo_run[i] = 0;
  out->optimal = 0;
  out->feasible = -1;
  out->arena = -1;
  /* canonical plans have arenas that are multiples of g (not with windows) */
  g = w.has_windows ? 1 : w.granularity;
  lb = dnnmem__exact_round_up(dnnmem__max64(bound, params->lower_bound), g);
  out->lower_bound = lb;
  for (i = 0; i < count; i++) { /* a capacity no plan of the search exceeds: */
    big += (w.size[i] + w.align[i] - 1) / w.align[i] * w.align[i] + w.align[i] - 1;
    if (records[i].flags & DNNMEM_INTERVAL_FIXED) big += records[i].fixed_offset;
  } /* the sum dnnmem_intervals_check bounded */
  big = dnnmem__max64(big, bound);
  if (params->capacity > 0) {
    dnnmem__exact_answer(&w, params->capacity, bound, big, lb, offsets, out);
  } else {
    if (params->warm_offsets) {
      DNNMEM_MEMCPY(offsets, params->warm_offsets, (size_t)count * sizeof(int64_t));
      ub = dnnmem__exact_arena(&w, offsets);
    } else {
      ub = -1;
      if (!dnnmem__exact_dive(&w, big, offsets, &ub)) return DNNMEM_ERR_INFEASIBLE;
      w.nodes = w.refused = 0; /* the dive is outside the node limit */
    }
    dnnmem__exact_narrow(&w, g, big, params->warm_offsets == NULL, &lb, &ub, offsets);
    out->arena = ub;
    out->lower_bound = dnnmem__min64(lb, ub);
    out->optimal = lb >= ub;
    out->feasible = 1;
  }
  out->nodes = w.nodes;
  out->degraded = w.degraded;
  out->backjumps = w.backjumps;
  /* why it ended: the question settled, else the limit that ended it
     (stop first: a callback that fired also ends a search at its node
     limit), else every capacity was asked without a proof (windows) */
  if (params->capacity > 0 ? out->feasible != -1 : out->optimal) out->stop = DNNMEM_PLAN_STOP_PROVED;
  else if (w.stopped) out->stop = DNNMEM_PLAN_STOP_TIME;
  else if (w.nodes >= w.node_limit) out->stop = DNNMEM_PLAN_STOP_NODES;
  else out->stop = DNNMEM_PLAN_STOP_INCOMPLETE;
  return DNNMEM_OK;
}

#endif /* DNNMEM_NO_EXACT */

/* ---- the planner's entry points ----------------------------------------- */

static const char dnnmem__plan_names[DNNMEM_PLAN_ALGO_COUNT][DNNMEM__NAME_BYTES] = {
    "best", "naive", "greedy-size", "greedy-breadth", "sorted-height", "pathcover", "bestfit", "greedy-tflm",
#ifndef DNNMEM_NO_EXACT
    "exact"
#endif
};

DNNMEM__ENUM_NAMES(dnnmem_plan_algo, dnnmem__plan_names, DNNMEM_PLAN_ALGO_COUNT)

static const char dnnmem__plan_stop_names[DNNMEM_PLAN_STOP_COUNT][DNNMEM__NAME_BYTES] = {"none", "proved", "nodes", "time",
                                                                             "incomplete"};

DNNMEM__ENUM_NAMES(dnnmem_plan_stop, dnnmem__plan_stop_names, DNNMEM_PLAN_STOP_COUNT)

/* What an operation carves (bits). */
enum { DNNMEM__PLAN_BOUND = 1, DNNMEM__PLAN_CHECK = 2, DNNMEM__PLAN_SOLVE = 7 };

typedef struct dnnmem__plan_work {
  dnnmem__planner planner;
  dnnmem__bound_work bound;
  dnnmem__check_work check;
  int32_t pieces;        /* records + 2 gaps */
  unsigned char *exact;  /* the exact search's own scratch block */
  size_t exact_bytes;
  int exact_mode;        /* the block: 0 none, 1 lean (best), 2 full (exact) */
} dnnmem__plan_work;

/* The one layout of every plan operation: the size (out_bytes given) or
   the carving of scratch. Solving carves, besides the planner, bound and
   checker, the exact search's block: lean up to DNNMEM_PLAN_BEST_EXACT_MAX
   records whatever the algo (one size serves every algo there) but
   greedy-tflm (lean: its own arrays only), full for
   exact above, none otherwise. */
static dnnmem_result dnnmem__plan_carve_counts(int32_t count, int32_t pieces, dnnmem_plan_algo algo,
                                               int what, dnnmem__plan_work *w, void *scratch,
                                               size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  w->pieces = pieces;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  if (what & DNNMEM__PLAN_BOUND) dnnmem__bound_layout(&s, w->pieces, &w->bound);
  if (what & DNNMEM__PLAN_CHECK) dnnmem__check_layout(&s, w->pieces, &w->check);
  w->exact_mode = 0;
  w->exact_bytes = 0;
  if (what == DNNMEM__PLAN_SOLVE) {
    dnnmem__planner_layout(&s, count, algo == DNNMEM_PLAN_GREEDY_TFLM ? 3 : 2, &w->planner);
#ifndef DNNMEM_NO_EXACT
    if (algo == DNNMEM_PLAN_GREEDY_TFLM) w->exact_mode = 0; /* lean: an engine's planner */
    else if (count > 0 && count <= DNNMEM_PLAN_BEST_EXACT_MAX) w->exact_mode = 1;
    else if (count > 0 && algo == DNNMEM_PLAN_EXACT) w->exact_mode = 2;
    if (w->exact_mode &&
        dnnmem__exact_scratch_size(count, (pieces - count) / 2, w->exact_mode == 1, &w->exact_bytes) != DNNMEM_OK)
      s.overflow = 1;
#else
    (void)algo;
#endif
    w->exact = DNNMEM__TAKE(&s, unsigned char, w->exact_bytes);
  }
  return dnnmem__scratch_end(&s, out_bytes);
}

static dnnmem_result dnnmem__plan_carve(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        int what, dnnmem__plan_work *w, void *scratch,
                                        size_t scratch_bytes, size_t *out_bytes) {
  dnnmem_result r;
  int32_t pieces;
  if (problem == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__count_pieces(problem->records, problem->count, &pieces)) != DNNMEM_OK) return r;
  return dnnmem__plan_carve_counts(problem->count, pieces, options ? options->algo : DNNMEM_PLAN_BEST, what, w,
                                   scratch, scratch_bytes, out_bytes);
}

/* The options every planning operation shares: algo, limits. */
static dnnmem_result dnnmem__plan_options_check(const dnnmem_plan_options *options, dnnmem_error *e) {
  dnnmem_plan_algo algo = options ? options->algo : DNNMEM_PLAN_BEST;
  if ((int)algo < 0 || algo >= DNNMEM_PLAN_ALGO_COUNT)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_ALGO);
  if (options && options->node_limit < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, -1, DNNMEM_FIELD_LIMIT);
  if (options && options->capacity < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, -1, DNNMEM_FIELD_CAPACITY);
  return DNNMEM_OK;
}

/* Validates the problem and carves the scratch of an operation. */
static dnnmem_result dnnmem__plan_begin(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        int what, dnnmem__plan_work *w, void *scratch,
                                        size_t scratch_bytes, dnnmem_error *e) {
  dnnmem_result r = dnnmem_intervals_check(problem, e);
  if (r != DNNMEM_OK) return r;
  return dnnmem__plan_carve(problem, options, what, w, scratch, scratch_bytes, NULL);
}

static dnnmem_result dnnmem__plan_lower_bound_scratch_size_core(const dnnmem_intervals *problem,
                                                              size_t *out_bytes) {
  dnnmem__plan_work w;
  DNNMEM_ASSERT(out_bytes != NULL); /* the only caller, the public size, checked it */
  return dnnmem__plan_carve(problem, NULL, DNNMEM__PLAN_BOUND, &w, NULL, 0, out_bytes);
}

static dnnmem_result dnnmem__plan_lower_bound_core(const dnnmem_intervals *problem,
                                                 int64_t *out_bound, void *scratch,
                                                 size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__plan_work w;
  dnnmem_result r;
  r = dnnmem__plan_begin(problem, NULL, DNNMEM__PLAN_BOUND, &w, scratch, scratch_bytes, e);
  if (r == DNNMEM_OK) *out_bound = dnnmem__bound_run(problem->records, problem->count, problem->alignment, NULL, NULL, 0, &w.bound);
  return r;
}

static dnnmem_result dnnmem__plan_check_scratch_size_core(const dnnmem_intervals *problem,
                                                        size_t *out_bytes) {
  dnnmem__plan_work w;
  DNNMEM_ASSERT(out_bytes != NULL); /* the only caller, the public size, checked it */
  return dnnmem__plan_carve(problem, NULL, DNNMEM__PLAN_CHECK, &w, NULL, 0, out_bytes);
}

/* Each offset of a plan on its own: >= 0, aligned, fixed kept, its end
   representable; the arena. e names an offending record. */
static dnnmem_result dnnmem__check_records(const dnnmem_intervals *problem, const int64_t *offsets,
                                           int64_t *out_arena, dnnmem_error *e) {
  int64_t arena = 0;
  int32_t i;
  dnnmem_result r = DNNMEM_OK;
  for (i = 0; i < problem->count; i++) {
    const dnnmem_interval *rec = &problem->records[i];
    int64_t end = 0;
    if (offsets[i] < 0) r = DNNMEM_ERR_NEGATIVE;
    else if (offsets[i] & (dnnmem_interval_alignment(rec, problem->alignment) - 1)) r = DNNMEM_ERR_PLAN_MISALIGNED;
    else if ((rec->flags & DNNMEM_INTERVAL_FIXED) && offsets[i] != rec->fixed_offset)
      r = DNNMEM_ERR_PLAN_FIXED_MISMATCH;
    else if (dnnmem__add_overflows(offsets[i], rec->size, &end)) r = DNNMEM_ERR_OVERFLOW;
    if (r != DNNMEM_OK) return dnnmem__fail(e, r, i, DNNMEM_FIELD_OFFSET);
    arena = dnnmem__max64(arena, end);
  }
  *out_arena = arena;
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__plan_check_core(const dnnmem_intervals *problem,
                                           const int64_t *offsets, int64_t *out_arena,
                                           void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__plan_work w;
  int32_t pair[2];
  dnnmem_result r;
  r = dnnmem__plan_begin(problem, NULL, DNNMEM__PLAN_CHECK, &w, scratch, scratch_bytes, e);
  if (r != DNNMEM_OK) return r;
  if (problem->count > 0 && offsets == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OFFSET);
  if ((r = dnnmem__check_records(problem, offsets, out_arena, e)) != DNNMEM_OK) return r;
  if (dnnmem__find_overlap(problem->records, problem->count, offsets, 0, &w.check, pair))
    return dnnmem__fail2(e, DNNMEM_ERR_PLAN_OVERLAP, pair[0], pair[1], DNNMEM_FIELD_OFFSET);
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__plan_solve_scratch_size_core(const dnnmem_intervals *problem,
                                                        const dnnmem_plan_options *options,
                                                        size_t *out_bytes) {
  dnnmem__plan_work w;
  DNNMEM_ASSERT(out_bytes != NULL); /* the only caller, the public size, checked it */
  return dnnmem__plan_carve(problem, options, DNNMEM__PLAN_SOLVE, &w, NULL, 0, out_bytes);
}

static void dnnmem__planner_setup(dnnmem__planner *p, const dnnmem_interval *records,
                                  int32_t count, int64_t align) {
  int32_t i, distinct;
  p->rec = records;
  p->n = count;
  p->align = align;
  p->num_fixed = 0;
  for (i = 0; i < count; i++) {
    p->vals[2 * i] = records[i].lower;
    p->vals[2 * i + 1] = records[i].upper;
    p->num_fixed += (records[i].flags & DNNMEM_INTERVAL_FIXED) != 0;
  }
  distinct = dnnmem__compress(p->vals, 2 * count, p->ids, p->tmp, p->coords);
  p->segments = distinct - 1;
  for (i = 0; i < count; i++) {
    p->lo[i] = dnnmem__coord_index(p->coords, distinct, records[i].lower);
    p->hi[i] = dnnmem__coord_index(p->coords, distinct, records[i].upper);
    p->by_lower[i] = i;
    p->vals[i] = records[i].upper;
    p->vals[count + i] = records[i].lower;
  }
  /* by (lower, upper): two stable passes */
  dnnmem__radix_sort(p->by_lower, p->tmp, count, p->vals);
  dnnmem__radix_sort(p->by_lower, p->tmp, count, p->vals + count);
  for (i = 0; i < count; i++) {
    p->tree_pos[p->by_lower[i]] = i;
    p->tree_lower[i] = records[p->by_lower[i]].lower;
    p->tree_upper[i] = records[p->by_lower[i]].upper;
  }
}

static dnnmem_result dnnmem__plan_run(dnnmem__planner *p, dnnmem_plan_algo algo) {
  dnnmem__plan_reset(p, algo == DNNMEM_PLAN_GREEDY_SIZE || algo == DNNMEM_PLAN_GREEDY_BREADTH ||
                            algo == DNNMEM_PLAN_GREEDY_TFLM);
  switch (algo) {
    case DNNMEM_PLAN_NAIVE: dnnmem__plan_naive(p); break;
    case DNNMEM_PLAN_GREEDY_SIZE: dnnmem__plan_greedy_size(p); break;
    case DNNMEM_PLAN_GREEDY_BREADTH: dnnmem__plan_greedy_breadth(p); break;
    case DNNMEM_PLAN_SORTED_HEIGHT: dnnmem__plan_sorted_height(p); break;
    case DNNMEM_PLAN_PATHCOVER: return dnnmem__plan_pathcover(p);
    case DNNMEM_PLAN_BESTFIT: dnnmem__plan_bestfit(p); break;
    case DNNMEM_PLAN_GREEDY_TFLM: dnnmem__plan_greedy_tflm(p); break;
    default: return DNNMEM_ERR_INVALID_ARGUMENT;
  }
  return DNNMEM_OK;
}

/* The heuristic algo, or for best and exact every heuristic in turn (the
   O(n log n) ones first: often one meets the bound and ends it); the
   smallest arena's plan goes to offsets (ties: the earlier strategy). */
static dnnmem_result dnnmem__plan_heuristics(dnnmem__planner *p, dnnmem_plan_algo algo,
                                             int64_t *offsets, dnnmem_plan_result *res) {
  static const dnnmem_plan_algo candidates[] = {DNNMEM_PLAN_PATHCOVER, DNNMEM_PLAN_SORTED_HEIGHT,
                                                DNNMEM_PLAN_GREEDY_SIZE, DNNMEM_PLAN_GREEDY_BREADTH,
                                                DNNMEM_PLAN_BESTFIT, DNNMEM_PLAN_GREEDY_TFLM};
  const dnnmem_plan_algo *list = candidates;
  int32_t k, count = (int32_t)(sizeof(candidates) / sizeof(candidates[0])), i;
  dnnmem_result r;
  if (algo >= DNNMEM_PLAN_NAIVE && algo <= DNNMEM_PLAN_GREEDY_TFLM) list = &algo, count = 1;
  res->arena = DNNMEM__I64_MAX;
  /* k == 0 always runs: a bound of INT64_MAX (one record of that size)
     must still get its offsets written. */
  for (k = 0; k < count && (k == 0 || res->arena > res->lower_bound); k++) {
    int64_t arena = 0;
    if ((r = dnnmem__plan_run(p, list[k])) != DNNMEM_OK) return r;
    for (i = 0; i < p->n; i++) arena = dnnmem__max64(arena, p->off[i] + p->rec[i].size);
    if (k == 0 || arena < res->arena) {
      res->arena = arena;
      res->algo = list[k];
      DNNMEM_MEMCPY(offsets, p->off, (size_t)p->n * sizeof(int64_t));
    }
  }
  return DNNMEM_OK;
}

#ifndef DNNMEM_NO_EXACT
/* The exact search, warm-started from the plan in offsets[]: for exact
   (minimising, or the capacity question when the plan does not answer
   it), and for best below DNNMEM_PLAN_BEST_EXACT_MAX records with a short
   budget, ignoring gaps like the heuristics. The planner's p->off is
   the search's output; offsets[] is replaced only by a better plan (or one
   that fits the capacity). */
static dnnmem_result dnnmem__plan_exact(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        dnnmem__plan_work *w, int64_t *offsets, dnnmem_plan_result *res) {
  int32_t count = problem->count;
  int64_t capacity = options ? options->capacity : 0;
  dnnmem_plan_algo algo = options ? options->algo : DNNMEM_PLAN_BEST;
  int exact = algo == DNNMEM_PLAN_EXACT;
  dnnmem__exact_params ep;
  dnnmem__exact_outcome eo;
  dnnmem_result r;
  if (exact) res->algo = DNNMEM_PLAN_EXACT;
  if (exact ? (capacity > 0 ? res->feasible != -1 : res->arena <= res->lower_bound)
            : (algo != DNNMEM_PLAN_BEST || w->exact_mode == 0 || res->arena <= res->lower_bound))
    return DNNMEM_OK;
  DNNMEM_MEMSET(&ep, 0, sizeof(ep));
  ep.node_limit = options ? options->node_limit : 0;
  if (!exact && ep.node_limit == 0)
    ep.node_limit = dnnmem__max64((int64_t)DNNMEM_PLAN_BEST_NODES * DNNMEM__PLAN_BEST_FULL_RECORDS /
                                      (count > DNNMEM__PLAN_BEST_FULL_RECORDS ? count : DNNMEM__PLAN_BEST_FULL_RECORDS),
                                  (int64_t)DNNMEM__PLAN_BEST_NODES_PER_RECORD * count);
  ep.stop = options ? options->stop : NULL;
  ep.stop_user = options ? options->stop_user : NULL;
  ep.lower_bound = res->lower_bound;
  ep.lean = w->exact_mode == 1;
  ep.ignore_gaps = !exact;
  ep.capacity = exact ? capacity : 0;
  ep.warm_offsets = offsets;
  r = dnnmem__exact_solve(problem->records, count, problem->alignment, &ep, w->planner.off, &eo, w->exact,
                          w->exact_bytes);
  if (r != DNNMEM_OK) return r;
  res->nodes = eo.nodes;
  res->stop = eo.stop;
  res->degraded |= eo.degraded;
  /* a bound proved with gaps ignored says nothing about the gaps' problem */
  if (eo.lower_bound > res->lower_bound && !(ep.ignore_gaps && w->pieces > count))
    res->lower_bound = eo.lower_bound;
  if (eo.arena >= 0 && eo.arena < res->arena) {
    DNNMEM_MEMCPY(offsets, w->planner.off, (size_t)count * sizeof(int64_t));
    res->arena = eo.arena;
    res->algo = DNNMEM_PLAN_EXACT;
  }
  if (ep.capacity > 0) {
    res->feasible = eo.feasible;
    if (res->feasible == 0 && res->lower_bound <= capacity) res->lower_bound = capacity + 1; /* proven */
  }
  return DNNMEM_OK;
}
#endif

static dnnmem_result dnnmem__plan_solve_core(const dnnmem_intervals *problem,
                                           const dnnmem_plan_options *options,
                                           int64_t *offsets, dnnmem_plan_result *result,
                                           void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__plan_work w;
  dnnmem_plan_result res;
  dnnmem_plan_algo algo = options ? options->algo : DNNMEM_PLAN_BEST;
  int64_t capacity = options ? options->capacity : 0;
  int32_t count, i, pair[2];
  dnnmem_result r;
  if ((r = dnnmem__plan_options_check(options, e)) != DNNMEM_OK) return r;
  if ((r = dnnmem__plan_begin(problem, options, DNNMEM__PLAN_SOLVE, &w, scratch, scratch_bytes, e)) != DNNMEM_OK)
    return r;
  count = problem->count;
  if (count > 0 && offsets == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  res.lower_bound = dnnmem__bound_run(problem->records, count, problem->alignment, NULL, NULL, 0, &w.bound);
  res.arena = 0;
  res.algo = algo == DNNMEM_PLAN_BEST ? DNNMEM_PLAN_GREEDY_SIZE : algo;
  res.feasible = 1;
  res.nodes = 0;
  res.stop = DNNMEM_PLAN_STOP_NONE;
  res.degraded = 0;
  res.reused = 0;
  if (count > 0) {
    for (i = 0; i < count; i++) w.planner.off[i] = problem->records[i].fixed_offset;
    if (dnnmem__find_overlap(problem->records, count, w.planner.off, 1, &w.check, pair))
      return dnnmem__fail2(e, DNNMEM_ERR_PLAN_FIXED_COLLISION, pair[0], pair[1], DNNMEM_FIELD_OFFSET);
    dnnmem__planner_setup(&w.planner, problem->records, count, problem->alignment);
    if ((r = dnnmem__plan_heuristics(&w.planner, algo, offsets, &res)) != DNNMEM_OK) return r;
    if (capacity > 0) res.feasible = res.arena <= capacity ? 1 : res.lower_bound > capacity ? 0 : -1;
#ifndef DNNMEM_NO_EXACT
    if (algo == DNNMEM_PLAN_EXACT && w.pieces > count) {
      /* With gaps the exact search's model is conservative and can miss
         plans that best's search (gaps ignored, complete for its model)
         finds: start from best's plan, so exact is never worse than best. */
      dnnmem_plan_options best;
      DNNMEM_MEMSET(&best, 0, sizeof(best));
      best.algo = DNNMEM_PLAN_BEST;
      best.stop = options->stop;
      best.stop_user = options->stop_user;
      if ((r = dnnmem__plan_exact(problem, &best, &w, offsets, &res)) != DNNMEM_OK) return r;
    }
    if ((r = dnnmem__plan_exact(problem, options, &w, offsets, &res)) != DNNMEM_OK) return r;
    if (capacity > 0 && algo != DNNMEM_PLAN_EXACT)
      res.feasible = res.arena <= capacity ? 1 : res.lower_bound > capacity ? 0 : -1;
#endif
  }
  res.optimal = res.arena == res.lower_bound;
  /* proven answers say so whoever found them; a search's proof that did
     not carry over (best's search ignores gaps) proved nothing here */
  if (res.optimal || (capacity > 0 && res.feasible != -1)) res.stop = DNNMEM_PLAN_STOP_PROVED;
  else if (res.stop == DNNMEM_PLAN_STOP_PROVED) res.stop = DNNMEM_PLAN_STOP_INCOMPLETE;
  if (result) *result = res;
  return DNNMEM_OK;
}

/* ---- in-place reuse and aliasing ---------------------------------------- */

/* Linked records are planned as tied groups: the alias classes (records the
   ALIAS links join), chained by the reuse links a plan uses. A group is one
   merged record: the group's time span, its tallest member's size, and a
   gap with the window [0, h) wherever the group is only h tall (or a hole:
   no member alive), painted tallest member first. So every planner, the
   bound and the checker see an ordinary problem, and a plan of the merged
   records is a plan of the records with every group at one offset. */

static int32_t dnnmem__linked_count(const dnnmem_interval *records, int32_t count) {
  int32_t i, flagged = 0;
  for (i = 0; records && i < count; i++)
    flagged += (records[i].flags & (DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE)) != 0;
  /* a link has two ends: at most twice the flagged records are linked */
  return flagged > count / 2 ? count : 2 * flagged;
}

typedef struct dnnmem__ties {
  const dnnmem_interval *rec;
  int32_t n, classes, groups, links, chosen;
  int32_t *cls;             /* record -> alias class, numbered by first member */
  int64_t *cls_lo, *cls_hi; /* a class's time span */
  int64_t *cls_h;           /* its height at its first step */
  int32_t *cls_fixed;       /* a fixed member of the class, or -1 */
  int32_t *succ, *pred;     /* per class: the class tied after / before, or -1 */
  int32_t *uf, *fix;        /* classes: union-find of the chosen ties, and
                               a fixed member of each root's chain or -1 */
  int32_t *link;            /* links records B with a usable REUSE */
  int32_t *group;           /* record -> merged record */
  int32_t *rep;             /* merged record -> its first member */
  int32_t *order, *tmp;     /* n (ids), 2n (sort space) */
  int32_t *ev, *skip, *start; /* 2n, 2n, n + 1 */
  int64_t *key, *times, *height; /* 2n each */
  dnnmem_interval *merged;  /* n */
  dnnmem_gap *gaps;         /* 2n */
  int64_t *merged_off;      /* n */
  int64_t *save_time, *save_bytes, *best_a, *best_b; /* n each */
  const uint64_t *cls_mask; /* NULL, or per class the pools (bit q % 64) all
                               its members may use: ties need a common one */
  uint64_t *mask;           /* per chain root while choosing (with cls_mask) */
  int32_t *who;             /* NULL, or 2n: the member painted on each segment */
} dnnmem__ties;

static void dnnmem__ties_layout(dnnmem__scratch *s, int32_t n, dnnmem__ties *t) {
  size_t n2 = 2 * (size_t)n;
  t->n = n;
  t->cls = DNNMEM__TAKE(s, int32_t, n);
  t->cls_lo = DNNMEM__TAKE(s, int64_t, n);
  t->cls_hi = DNNMEM__TAKE(s, int64_t, n);
  t->cls_h = DNNMEM__TAKE(s, int64_t, n);
  t->cls_fixed = DNNMEM__TAKE(s, int32_t, n);
  t->succ = DNNMEM__TAKE(s, int32_t, n);
  t->pred = DNNMEM__TAKE(s, int32_t, n);
  t->uf = DNNMEM__TAKE(s, int32_t, n);
  t->fix = DNNMEM__TAKE(s, int32_t, n);
  t->link = DNNMEM__TAKE(s, int32_t, n);
  t->group = DNNMEM__TAKE(s, int32_t, n);
  t->rep = DNNMEM__TAKE(s, int32_t, n);
  t->order = DNNMEM__TAKE(s, int32_t, n);
  t->tmp = DNNMEM__TAKE(s, int32_t, n2);
  t->ev = DNNMEM__TAKE(s, int32_t, n2);
  t->skip = DNNMEM__TAKE(s, int32_t, n2);
  t->start = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  t->key = DNNMEM__TAKE(s, int64_t, n2);
  t->times = DNNMEM__TAKE(s, int64_t, n2);
  t->height = DNNMEM__TAKE(s, int64_t, n2);
  t->merged = DNNMEM__TAKE(s, dnnmem_interval, n);
  t->gaps = DNNMEM__TAKE(s, dnnmem_gap, n2);
  t->merged_off = DNNMEM__TAKE(s, int64_t, n);
  t->save_time = DNNMEM__TAKE(s, int64_t, n);
  t->save_bytes = DNNMEM__TAKE(s, int64_t, n);
  t->best_a = DNNMEM__TAKE(s, int64_t, n);
  t->best_b = DNNMEM__TAKE(s, int64_t, n);
  t->cls_mask = NULL;
  t->mask = NULL;
  t->who = NULL;
}

/* Pieces of the merged problem: a linked record becomes at most 2 gaps of
   its group (each group's segments number below twice its members), each
   2 pieces. */
static int32_t dnnmem__ties_pieces(int32_t pieces, int32_t linked) {
  int64_t p = (int64_t)pieces + 4 * (int64_t)linked;
  return p > DNNMEM__I32_MAX / 4 ? -1 : (int32_t)p;
}

/* Validated records. Alias classes (walking each ALIAS chain once: a walk
   that meets itself is a cycle), their spans and fixed members, and the
   usable reuse links (the group rule); O(n). */
static dnnmem_result dnnmem__ties_prepare(dnnmem__ties *t, const dnnmem_interval *rec, dnnmem_error *e) {
  int32_t n = t->n, i, j, k;
  t->rec = rec;
  for (i = 0; i < n; i++) t->cls[i] = -1, t->group[i] = -1;
  for (i = 0; i < n; i++) { /* cls[] first holds each record's root */
    int32_t root, last = i;
    if (t->cls[i] >= 0) continue;
    for (j = i; (rec[j].flags & DNNMEM_INTERVAL_ALIAS) && t->cls[j] == -1; last = j, j = rec[j].alias)
      t->cls[j] = -2 - i;
    if (t->cls[j] == -2 - i) /* the record whose link closes the cycle */
      return dnnmem__fail(e, DNNMEM_ERR_CYCLE, last, DNNMEM_FIELD_ALIAS);
    root = t->cls[j] >= 0 ? t->cls[j] : j;
    for (k = i; t->cls[k] == -2 - i; k = rec[k].alias) t->cls[k] = root;
    t->cls[j] = root;
  }
  t->classes = 0;
  for (i = 0; i < n; i++)
    if (t->group[t->cls[i]] == -1) t->group[t->cls[i]] = t->classes++;
  for (i = 0; i < n; i++) t->cls[i] = t->group[t->cls[i]];
  for (k = 0; k < t->classes; k++) t->cls_lo[k] = DNNMEM__I64_MAX, t->cls_hi[k] = DNNMEM__I64_MIN, t->cls_fixed[k] = -1;
  for (i = 0; i < n; i++) {
    int32_t c = t->cls[i], f = t->cls_fixed[c];
    t->cls_lo[c] = dnnmem__min64(t->cls_lo[c], rec[i].lower);
    t->cls_hi[c] = dnnmem__max64(t->cls_hi[c], rec[i].upper);
    if (!(rec[i].flags & DNNMEM_INTERVAL_FIXED)) continue;
    if (f >= 0 && rec[f].fixed_offset != rec[i].fixed_offset)
      return dnnmem__fail2(e, DNNMEM_ERR_PLAN_ALIAS_OFFSET, i, f, DNNMEM_FIELD_OFFSET);
    if (f < 0) t->cls_fixed[c] = i;
  }
  for (k = 0; k < t->classes; k++) t->cls_h[k] = 0;
  for (i = 0; i < n; i++)
    if (rec[i].lower == t->cls_lo[t->cls[i]]) t->cls_h[t->cls[i]] = dnnmem__max64(t->cls_h[t->cls[i]], rec[i].size);
  t->links = 0;
  for (i = 0; i < n; i++) {
    int32_t a, b;
    int64_t step = rec[i].lower;
    if (!(rec[i].flags & DNNMEM_INTERVAL_REUSE)) continue;
    a = t->cls[rec[i].reuse], b = t->cls[i];
    if (a == b || t->cls_hi[a] != step + 1 || t->cls_lo[a] >= step || t->cls_lo[b] != step)
      return dnnmem__fail2(e, DNNMEM_ERR_PLAN_REUSE, i, rec[i].reuse, DNNMEM_FIELD_REUSE);
    t->link[t->links++] = i;
  }
  return DNNMEM_OK;
}

static int32_t dnnmem__ties_find(int32_t *uf, int32_t x) {
  while (uf[x] != x) { /* path halving */
    uf[x] = uf[uf[x]];
    x = uf[x];
  }
  return x;
}

enum { DNNMEM__TIES_ALL, DNNMEM__TIES_EQUAL, DNNMEM__TIES_NONE, DNNMEM__TIES_USED, DNNMEM__TIES_UNION };

/* Chooses the reuse links to tie: each class at most one tie before and one
   after it (a second overwrite of the same bytes would overlap the first),
   one fixed offset per chain. ALL: every link; EQUAL: links between records
   of equal size (a tie of unequal ones leaves a window the heuristics
   cannot use); NONE; USED: the links a plan uses (B at A's offset); UNION:
   every link, none of the rules (the classes that may share bytes at all).
   With cls_mask, a tie also needs a pool both chains may use. Links
   go tallest B class first (at its first step, where the tie saves: a B
   class of height 0 there needs no tie, and two taller ones at one offset
   overlap anyway), then in id order. Returns the links chosen. */
static int32_t dnnmem__ties_select(dnnmem__ties *t, int variant, const int64_t *offsets) {
  const dnnmem_interval *rec = t->rec;
  int32_t k, chosen = 0;
  for (k = 0; k < t->classes; k++) t->succ[k] = t->pred[k] = -1, t->uf[k] = k, t->fix[k] = t->cls_fixed[k];
  if (t->cls_mask)
    for (k = 0; k < t->classes; k++) t->mask[k] = t->cls_mask[k];
  /* key[] is indexed by position in link[]: sort positions */
  for (k = 0; k < t->links; k++) t->key[k] = -t->cls_h[t->cls[t->link[k]]], t->tmp[t->n + k] = k;
  dnnmem__radix_sort(t->tmp + t->n, t->tmp, t->links, t->key);
  for (k = 0; k < t->links; k++) {
    int32_t b = t->link[t->tmp[t->n + k]], a = rec[b].reuse, ca = t->cls[a], cb = t->cls[b], ra, rb;
    int32_t fa, fb;
    if (variant == DNNMEM__TIES_NONE) break;
    if (variant == DNNMEM__TIES_EQUAL && rec[a].size != rec[b].size) continue;
    if (variant == DNNMEM__TIES_USED && offsets[a] != offsets[b]) continue;
    ra = dnnmem__ties_find(t->uf, ca), rb = dnnmem__ties_find(t->uf, cb);
    if (variant != DNNMEM__TIES_UNION) {
      if (t->succ[ca] >= 0 || t->pred[cb] >= 0 || ra == rb) continue;
      fa = t->fix[ra], fb = t->fix[rb];
      if (fa >= 0 && fb >= 0 && rec[fa].fixed_offset != rec[fb].fixed_offset) continue;
      if (t->cls_mask && !(t->mask[ra] & t->mask[rb])) continue;
      t->succ[ca] = cb, t->pred[cb] = ca;
    } else if (ra == rb) {
      continue;
    } else {
      fa = fb = -1;
    }
    if (t->cls_mask) t->mask[ra] = t->mask[rb] = t->mask[ra] & t->mask[rb];
    if (ra < rb) t->uf[rb] = ra, t->fix[ra] = fa >= 0 ? fa : fb;
    else t->uf[ra] = rb, t->fix[rb] = fb >= 0 ? fb : fa;
    chosen++;
  }
  t->chosen = chosen;
  return chosen;
}

static int32_t dnnmem__ties_skip(int32_t *skip, int32_t x) {
  while (skip[x] != x) {
    skip[x] = skip[skip[x]];
    x = skip[x];
  }
  return x;
}

/* Groups of the chosen ties and their merged records: events (member,
   end) sorted by time then group; each group's distinct times; members
   painted tallest first over the unpainted segments they cover (skip
   pointers), so O(n log n) with the sorts. Returns the merged count. */
static int32_t dnnmem__ties_merge(dnnmem__ties *t) {
  const dnnmem_interval *rec = t->rec;
  int32_t n = t->n, i, k, g = -1, e, m = 0, ng = 0;
  for (k = 0; k < t->classes; k++) t->tmp[k] = -1;
  t->groups = 0;
  for (i = 0; i < n; i++) {
    int32_t root = dnnmem__ties_find(t->uf, t->cls[i]);
    if (t->tmp[root] == -1) t->rep[t->groups] = i, t->tmp[root] = t->groups++;
    t->group[i] = t->tmp[root];
  }
  for (e = 0; e < 2 * n; e++) {
    t->ev[e] = e;
    t->times[e] = (e & 1) ? rec[e >> 1].upper : rec[e >> 1].lower;
    t->key[e] = t->group[e >> 1];
  }
  dnnmem__radix_sort(t->ev, t->tmp, 2 * n, t->times);
  dnnmem__radix_sort(t->ev, t->tmp, 2 * n, t->key);
  /* distinct times per group, in place: start[g] .. start[g + 1] */
  for (e = 0; e < 2 * n; e++) {
    int32_t gi = t->group[t->ev[e] >> 1];
    int64_t tm = (t->ev[e] & 1) ? rec[t->ev[e] >> 1].upper : rec[t->ev[e] >> 1].lower;
    if (m == 0 || gi != g || tm != t->height[m - 1]) {
      if (m == 0 || gi != g) t->start[gi] = m;
      g = gi;
      t->height[m++] = tm; /* height[] holds the times until they are copied */
    }
  }
  t->start[t->groups] = m;
  for (k = 0; k < m; k++) t->times[k] = t->height[k], t->height[k] = -1, t->skip[k] = k;
  if (t->who)
    for (k = 0; k < m; k++) t->who[k] = -1;
  /* members by size, descending, then by group (stable: ids ascending) */
  for (i = 0; i < n; i++) t->order[i] = i, t->key[i] = -rec[i].size;
  dnnmem__radix_sort(t->order, t->tmp, n, t->key);
  for (i = 0; i < n; i++) {
    int32_t r = t->order[i], gi = t->group[r], lo = t->start[gi], hi = t->start[gi + 1] - 1, a, b, x;
    /* binary search of the member's ends in its group's times */
    for (a = lo, b = hi; a < b;) {
      x = a + (b - a) / 2;
      if (t->times[x] < rec[r].lower) a = x + 1; else b = x;
    }
    lo = a;
    for (b = t->start[gi + 1] - 1; a < b;) {
      x = a + (b - a) / 2;
      if (t->times[x] < rec[r].upper) a = x + 1; else b = x;
    }
    hi = a;
    for (x = dnnmem__ties_skip(t->skip, lo); x < hi; x = dnnmem__ties_skip(t->skip, x)) {
      t->height[x] = rec[r].size;
      if (t->who) t->who[x] = r;
      t->skip[x] = x + 1;
    }
  }
  for (g = 0; g < t->groups; g++) {
    dnnmem_interval *mr = &t->merged[g];
    int32_t lo = t->start[g], hi = t->start[g + 1] - 1, first = t->rep[g], x;
    int64_t h = 0;
    *mr = rec[first];
    mr->flags &= ~(DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE | DNNMEM_INTERVAL_FIXED | DNNMEM_INTERVAL_HINT);
    mr->alias = mr->reuse = 0;
    if (hi - lo == 1 && t->height[lo] == rec[first].size) {
      /* one member, or members over one span: the record as it is */
      mr->flags |= rec[first].flags & (DNNMEM_INTERVAL_FIXED | DNNMEM_INTERVAL_HINT);
    } else {
      mr->lower = t->times[lo];
      mr->upper = t->times[hi];
      for (x = lo; x < hi; x++) h = dnnmem__max64(h, t->height[x]);
      mr->size = h;
      mr->gaps = t->gaps + ng;
      mr->num_gaps = 0;
      for (x = lo; x < hi; x++) {
        int64_t hx = t->height[x] > 0 ? t->height[x] : 0;
        if (t->height[x] == h) continue;
        if (mr->num_gaps > 0 && t->gaps[ng - 1].upper == t->times[x] && t->gaps[ng - 1].window_upper == hx) {
          t->gaps[ng - 1].upper = t->times[x + 1];
          continue;
        }
        t->gaps[ng].lower = t->times[x];
        t->gaps[ng].upper = t->times[x + 1];
        t->gaps[ng].window_lower = 0;
        t->gaps[ng].window_upper = hx;
        ng++, mr->num_gaps++;
      }
      if (mr->num_gaps == 0) mr->gaps = NULL;
    }
  }
  /* the strictest alignment, a fixed member's offset (the first member's
     too: a group of several spans starts without flags), the first hint */
  for (i = 0; i < n; i++) {
    dnnmem_interval *mr = &t->merged[t->group[i]];
    if (rec[i].alignment > mr->alignment) mr->alignment = rec[i].alignment;
    if ((rec[i].flags & DNNMEM_INTERVAL_FIXED) && !(mr->flags & DNNMEM_INTERVAL_FIXED))
      mr->flags |= DNNMEM_INTERVAL_FIXED, mr->fixed_offset = rec[i].fixed_offset;
    if ((rec[i].flags & DNNMEM_INTERVAL_HINT) && !(mr->flags & DNNMEM_INTERVAL_HINT))
      mr->flags |= DNNMEM_INTERVAL_HINT, mr->hint = rec[i].hint;
  }
  return t->groups;
}

/* The scratch of an operation on linked records: the ties, then the core
   operation's scratch for the merged problem (at most n records and
   dnnmem__ties_pieces pieces; the bound adds a save per link; a solve
   above DNNMEM_PLAN_BEST_EXACT_MAX records also the exact search's block
   for a merged problem at or below it). */
static dnnmem_result dnnmem__ties_carve(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        int what, dnnmem__ties *t, unsigned char **core, size_t *core_bytes,
                                        void *scratch, size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__plan_work w;
  dnnmem_plan_algo algo = options ? options->algo : DNNMEM_PLAN_BEST;
  int32_t pieces, n = problem->count, mp;
  size_t cb = 0, cb2 = 0;
  dnnmem_result r;
  if ((r = dnnmem__count_pieces(problem->records, n, &pieces)) != DNNMEM_OK) return r;
  mp = dnnmem__ties_pieces(pieces, dnnmem__linked_count(problem->records, n));
  if (mp < 0) return DNNMEM_ERR_TOO_MANY;
  if (what == DNNMEM__PLAN_BOUND) mp += n;
  if ((r = dnnmem__plan_carve_counts(n, mp, algo, what, &w, NULL, 0, &cb)) != DNNMEM_OK) return r;
#ifndef DNNMEM_NO_EXACT
  if (what == DNNMEM__PLAN_SOLVE && n > DNNMEM_PLAN_BEST_EXACT_MAX &&
      (r = dnnmem__plan_carve_counts(DNNMEM_PLAN_BEST_EXACT_MAX, mp, algo, what, &w, NULL, 0, &cb2)) != DNNMEM_OK)
    return r;
#endif
  if (cb2 > cb) cb = cb2;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  dnnmem__ties_layout(&s, n, t);
  *core = DNNMEM__TAKE(&s, unsigned char, cb);
  *core_bytes = cb;
  return dnnmem__scratch_end(&s, out_bytes);
}

/* Validates, carves and prepares an operation on linked records. */
static dnnmem_result dnnmem__ties_begin(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        int what, dnnmem__ties *t, unsigned char **core, size_t *core_bytes,
                                        void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem_result r = dnnmem_intervals_check(problem, e);
  if (r != DNNMEM_OK) return r;
  r = dnnmem__ties_carve(problem, options, what, t, core, core_bytes, scratch, scratch_bytes, NULL);
  if (r != DNNMEM_OK) return r;
  return dnnmem__ties_prepare(t, problem->records, e);
}

/* The height of merged record g at time tm (its tallest member alive then). */
static int64_t dnnmem__ties_height(const dnnmem__ties *t, int32_t g, int64_t tm) {
  int32_t a = t->start[g], b = t->start[g + 1] - 1, x;
  while (a + 1 < b) { /* the last segment starting at or before tm */
    x = a + (b - a) / 2;
    if (t->times[x] <= tm) a = x; else b = x;
  }
  return t->height[a] > 0 ? t->height[a] : 0;
}

/* The reuse-aware lower bound: the alias classes merged (their exact
   height over time), less at each step s the most that reuse can save
   there. A tie saves min(height of A's class, height of B's class) at s;
   a class overwrites or is overwritten at most once per step, so a step's
   saving is at most the sum, over the B classes beginning there, of each
   one's largest saving, and at most the same sum over the A classes
   ending there: the smaller of the two. */
static int64_t dnnmem__ties_bound(dnnmem__ties *t, int64_t alignment, unsigned char *core, size_t core_bytes) {
  const dnnmem_interval *rec = t->rec;
  dnnmem__plan_work w;
  int32_t k, j, saves = 0, pieces = 0, groups;
  dnnmem__ties_select(t, DNNMEM__TIES_NONE, NULL);
  groups = dnnmem__ties_merge(t);
  for (k = 0; k < groups; k++) t->best_a[k] = t->best_b[k] = 0;
  for (k = 0; k < t->links; k++) t->tmp[t->n + k] = k, t->key[k] = rec[t->link[k]].lower;
  dnnmem__radix_sort(t->tmp + t->n, t->tmp, t->links, t->key);
  for (k = 0; k < t->links; k = j) {
    int64_t step = rec[t->link[t->tmp[t->n + k]]].lower, sum_a = 0, sum_b = 0;
    for (j = k; j < t->links && rec[t->link[t->tmp[t->n + j]]].lower == step; j++) {
      int32_t b = t->link[t->tmp[t->n + j]], ga = t->group[rec[b].reuse], gb = t->group[b];
      int64_t save = dnnmem__min64(dnnmem__ties_height(t, ga, step), dnnmem__ties_height(t, gb, step));
      t->best_a[ga] = dnnmem__max64(t->best_a[ga], save);
      t->best_b[gb] = dnnmem__max64(t->best_b[gb], save);
    }
    for (j = k; j < t->links && rec[t->link[t->tmp[t->n + j]]].lower == step; j++) {
      int32_t b = t->link[t->tmp[t->n + j]], ga = t->group[rec[b].reuse], gb = t->group[b];
      sum_a += t->best_a[ga], sum_b += t->best_b[gb];
      t->best_a[ga] = t->best_b[gb] = 0;
    }
    if (dnnmem__min64(sum_a, sum_b) > 0) {
      t->save_time[saves] = step;
      t->save_bytes[saves++] = dnnmem__min64(sum_a, sum_b);
    }
  }
  (void)dnnmem__count_pieces(t->merged, groups, &pieces);
  (void)dnnmem__plan_carve_counts(groups, pieces + saves, DNNMEM_PLAN_BEST, DNNMEM__PLAN_BOUND, &w, core,
                                  core_bytes, NULL);
  return dnnmem__bound_run(t->merged, groups, alignment, t->save_time, t->save_bytes, saves, &w.bound);
}

static dnnmem_result dnnmem__ties_solve(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        dnnmem__ties *t, int64_t *offsets, dnnmem_plan_result *out,
                                        unsigned char *core, size_t core_bytes, dnnmem_error *e) {
  static const int variants[] = {DNNMEM__TIES_ALL, DNNMEM__TIES_EQUAL, DNNMEM__TIES_NONE};
  int64_t capacity = options ? options->capacity : 0, bound = dnnmem__ties_bound(t, problem->alignment, core, core_bytes);
  int32_t v, i, unequal = 0, stops[DNNMEM_PLAN_STOP_COUNT] = {0};
  dnnmem_plan_result best, res;
  dnnmem_result r;
  DNNMEM_MEMSET(&best, 0, sizeof(best));
  for (i = 0; i < t->links; i++) unequal |= t->rec[t->link[i]].size != t->rec[t->rec[t->link[i]].reuse].size;
  for (v = t->links > 0 ? 0 : 2; v < 3; v++) {
    dnnmem_intervals merged;
    int64_t nodes = best.nodes;
    if (variants[v] == DNNMEM__TIES_EQUAL && !unequal) continue; /* ALL's ties again */
    dnnmem__ties_select(t, variants[v], NULL);
    merged.records = t->merged;
    merged.count = dnnmem__ties_merge(t);
    merged.alignment = problem->alignment;
    r = dnnmem__plan_solve_core(&merged, options, t->merged_off, &res, core, core_bytes, e);
    if (r != DNNMEM_OK) { /* name the merged records' first members */
      if (e->index >= 0) e->index = t->rep[e->index];
      if (e->other >= 0) e->other = t->rep[e->other];
      return r;
    }
    stops[res.stop]++;
    if (v == (t->links > 0 ? 0 : 2) || res.arena < best.arena) {
      for (i = 0; i < t->n; i++) offsets[i] = t->merged_off[t->group[i]];
      best = res;
      best.reused = t->chosen;
    }
    best.nodes = nodes + res.nodes;
    best.degraded |= res.degraded;
  }
  if (t->links > 0) {
    /* the variants are some of the choices: only the bound proves */
    best.lower_bound = bound;
    if (capacity > 0) best.feasible = best.arena <= capacity ? 1 : bound > capacity ? 0 : -1;
    best.stop = stops[DNNMEM_PLAN_STOP_TIME]    ? DNNMEM_PLAN_STOP_TIME
              : stops[DNNMEM_PLAN_STOP_NODES]   ? DNNMEM_PLAN_STOP_NODES
              : stops[DNNMEM_PLAN_STOP_PROVED] + stops[DNNMEM_PLAN_STOP_INCOMPLETE] ? DNNMEM_PLAN_STOP_INCOMPLETE
                                                : DNNMEM_PLAN_STOP_NONE;
  } else if (bound > best.lower_bound) {
    best.lower_bound = bound; /* aliases only: the merged problem is the problem */
  }
  best.optimal = best.arena == best.lower_bound;
  if (best.optimal || (capacity > 0 && best.feasible != -1)) best.stop = DNNMEM_PLAN_STOP_PROVED;
  if (out) *out = best;
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__ties_check(const dnnmem_intervals *problem, dnnmem__ties *t, const int64_t *offsets,
                                        unsigned char *core, size_t core_bytes, dnnmem_error *e) {
  dnnmem__plan_work w;
  int32_t i, groups, pieces, pair[2];
  for (i = 0; i < t->n; i++) {
    const dnnmem_interval *rec = &problem->records[i];
    if ((rec->flags & DNNMEM_INTERVAL_ALIAS) && offsets[i] != offsets[rec->alias])
      return dnnmem__fail2(e, DNNMEM_ERR_PLAN_ALIAS_OFFSET, i < rec->alias ? i : rec->alias,
                           i < rec->alias ? rec->alias : i, DNNMEM_FIELD_OFFSET);
  }
  dnnmem__ties_select(t, DNNMEM__TIES_USED, offsets);
  groups = dnnmem__ties_merge(t);
  for (i = 0; i < t->n; i++) t->merged_off[t->group[i]] = offsets[i];
  (void)dnnmem__count_pieces(t->merged, groups, &pieces);
  (void)dnnmem__plan_carve_counts(groups, pieces, DNNMEM_PLAN_BEST, DNNMEM__PLAN_CHECK, &w, core, core_bytes, NULL);
  if (dnnmem__find_overlap(t->merged, groups, t->merged_off, 0, &w.check, pair)) {
    int32_t ga = pair[0], gb = pair[1], na = 0, nb = 0, j;
    pair[0] = t->rep[ga];
    if (gb >= 0) pair[1] = t->rep[gb];
    /* name two members that meet (else the groups' first members) */
    for (i = 0; gb >= 0 && i < t->n; i++) {
      if (t->group[i] == ga) t->order[na++] = i;
      else if (t->group[i] == gb) t->tmp[nb++] = i;
    }
    for (i = 0; gb >= 0 && i < na; i++)
      for (j = 0; j < nb; j++) {
        const dnnmem_interval *a = &problem->records[t->order[i]], *b = &problem->records[t->tmp[j]];
        if (a->lower < b->upper && b->lower < a->upper && a->num_gaps == 0 && b->num_gaps == 0 &&
            offsets[t->order[i]] < offsets[t->tmp[j]] + b->size && offsets[t->tmp[j]] < offsets[t->order[i]] + a->size) {
          pair[0] = t->order[i], pair[1] = t->tmp[j];
          i = na;
          break;
        }
      }
    if (pair[1] >= 0 && pair[1] < pair[0]) i = pair[0], pair[0] = pair[1], pair[1] = i;
    return dnnmem__fail2(e, DNNMEM_ERR_PLAN_OVERLAP, pair[0], pair[1], DNNMEM_FIELD_OFFSET);
  }
  return DNNMEM_OK;
}

static int dnnmem__has_links(const dnnmem_intervals *problem) {
#ifdef DNNMEM_NO_LINKS
  (void)problem; /* refused by the records' check: the tie code drops out */
  return 0;
#else
  return problem != NULL && problem->count > 0 && dnnmem__linked_count(problem->records, problem->count) > 0;
#endif
}

DNNMEM_DEF dnnmem_result dnnmem_plan_solve_scratch_size(const dnnmem_intervals *problem,
                                                        const dnnmem_plan_options *options,
                                                        size_t *out_bytes) {
  dnnmem__ties t;
  unsigned char *core;
  size_t core_bytes;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (!dnnmem__has_links(problem)) return dnnmem__plan_solve_scratch_size_core(problem, options, out_bytes);
  return dnnmem__ties_carve(problem, options, DNNMEM__PLAN_SOLVE, &t, &core, &core_bytes, NULL, 0, out_bytes);
}

static dnnmem_result dnnmem__plan_solve(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        int64_t *offsets, dnnmem_plan_result *result, void *scratch,
                                        size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__ties t;
  unsigned char *core;
  size_t core_bytes;
  dnnmem_result r;
  if (!dnnmem__has_links(problem))
    return dnnmem__plan_solve_core(problem, options, offsets, result, scratch, scratch_bytes, e);
  if ((r = dnnmem__plan_options_check(options, e)) != DNNMEM_OK) return r;
  r = dnnmem__ties_begin(problem, options, DNNMEM__PLAN_SOLVE, &t, &core, &core_bytes, scratch, scratch_bytes, e);
  if (r != DNNMEM_OK) return r;
  if (offsets == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  return dnnmem__ties_solve(problem, options, &t, offsets, result, core, core_bytes, e);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_solve(const dnnmem_intervals *problem,
                                           const dnnmem_plan_options *options,
                                           int64_t *offsets, dnnmem_plan_result *result,
                                           void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__plan_solve(problem, options, offsets, result, scratch, scratch_bytes, &e));
}

DNNMEM_DEF dnnmem_result dnnmem_plan_lower_bound_scratch_size(const dnnmem_intervals *problem,
                                                              size_t *out_bytes) {
  dnnmem__ties t;
  unsigned char *core;
  size_t core_bytes;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (!dnnmem__has_links(problem)) return dnnmem__plan_lower_bound_scratch_size_core(problem, out_bytes);
  return dnnmem__ties_carve(problem, NULL, DNNMEM__PLAN_BOUND, &t, &core, &core_bytes, NULL, 0, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_lower_bound(const dnnmem_intervals *problem,
                                                 dnnmem_plan_result *result, void *scratch,
                                                 size_t scratch_bytes) {
  dnnmem__ties t;
  unsigned char *core;
  size_t core_bytes;
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  dnnmem_result r;
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  if (!dnnmem__has_links(problem)) {
    r = dnnmem__plan_lower_bound_core(problem, &result->lower_bound, scratch, scratch_bytes, &e);
  } else {
    r = dnnmem__ties_begin(problem, NULL, DNNMEM__PLAN_BOUND, &t, &core, &core_bytes, scratch, scratch_bytes, &e);
    if (r == DNNMEM_OK) result->lower_bound = dnnmem__ties_bound(&t, problem->alignment, core, core_bytes);
  }
  return dnnmem__report(&result->error, &e, r);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_check_scratch_size(const dnnmem_intervals *problem,
                                                        size_t *out_bytes) {
  dnnmem__ties t;
  unsigned char *core;
  size_t core_bytes;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (!dnnmem__has_links(problem)) return dnnmem__plan_check_scratch_size_core(problem, out_bytes);
  return dnnmem__ties_carve(problem, NULL, DNNMEM__PLAN_CHECK, &t, &core, &core_bytes, NULL, 0, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_check(const dnnmem_intervals *problem,
                                           const int64_t *offsets, dnnmem_plan_result *result,
                                           void *scratch, size_t scratch_bytes) {
  dnnmem__ties t;
  unsigned char *core;
  size_t core_bytes;
  int64_t arena = 0;
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  dnnmem_result r;
  if (result) DNNMEM_MEMSET(result, 0, sizeof(*result));
  if (!dnnmem__has_links(problem)) {
    r = dnnmem__plan_check_core(problem, offsets, &arena, scratch, scratch_bytes, &e);
  } else {
    r = dnnmem__ties_begin(problem, NULL, DNNMEM__PLAN_CHECK, &t, &core, &core_bytes, scratch, scratch_bytes, &e);
    if (r == DNNMEM_OK && offsets == NULL) r = dnnmem__fail(&e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OFFSET);
    if (r == DNNMEM_OK) r = dnnmem__check_records(problem, offsets, &arena, &e);
    if (r == DNNMEM_OK) r = dnnmem__ties_check(problem, &t, offsets, core, core_bytes, &e);
  }
  if (result && r == DNNMEM_OK) result->arena = arena;
  return dnnmem__report(result ? &result->error : NULL, &e, r);
}

/* ---- path-cover grouping ------------------------------------------------ */

typedef struct dnnmem__chains_work {
  int32_t *ids;          /* record ids sorted by (lower, upper desc, size desc, id) */
  int32_t *group_of_pos; /* sort buffer; then per sorted position: size rank, then group */
  int32_t *size_rank;    /* per record: rank of its size among the distinct sizes */
  int32_t *group_size;   /* per group: members, then the output cursor */
  int32_t *group_rank;   /* per group: size rank of its last member */
  int32_t *busy;         /* the busy groups' heap ids (~group) */
  int32_t *rank_top;     /* per size rank: the free group on top of its stack, -1 */
  int32_t *below;        /* per free group: the next free group of the same rank */
  int32_t *fenwick;      /* free groups per size rank (Fenwick tree, 1-based) */
  int64_t *lowers;       /* radix sort keys, then per sorted position: lower, then the busy heap's keys */
  int64_t *uppers;       /* radix sort buffer, then per sorted position: upper */
  int64_t *group_end;    /* per group: upper of its last member */
  int64_t *rank_size;    /* per size rank: the size */
} dnnmem__chains_work;

static void dnnmem__chains_layout(dnnmem__scratch *s, int32_t count,
                                           dnnmem__chains_work *w) {
  w->ids = DNNMEM__TAKE(s, int32_t, count);
  w->group_of_pos = DNNMEM__TAKE(s, int32_t, count);
  w->size_rank = DNNMEM__TAKE(s, int32_t, count);
  w->group_size = DNNMEM__TAKE(s, int32_t, count);
  w->group_rank = DNNMEM__TAKE(s, int32_t, count);
  w->busy = DNNMEM__TAKE(s, int32_t, count);
  w->rank_top = DNNMEM__TAKE(s, int32_t, count);
  w->below = DNNMEM__TAKE(s, int32_t, count);
  w->fenwick = DNNMEM__TAKE(s, int32_t, (size_t)count + 1);
  w->lowers = DNNMEM__TAKE(s, int64_t, count);
  w->uppers = DNNMEM__TAKE(s, int64_t, count);
  w->group_end = DNNMEM__TAKE(s, int64_t, count);
  w->rank_size = DNNMEM__TAKE(s, int64_t, count);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_chains_scratch_size(const dnnmem_intervals *problem,
                                                         size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__chains_work w;
  int32_t count = problem ? problem->count : -1;
  if (count < 0 || out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__chains_layout(&s, count, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

static int dnnmem__chains_record_less(const void *ctx, int32_t a, int32_t b) {
  const dnnmem_interval *r = (const dnnmem_interval *)ctx;
  if (r[a].lower != r[b].lower) return r[a].lower < r[b].lower;
  if (r[a].upper != r[b].upper) return r[a].upper > r[b].upper;
  if (r[a].size != r[b].size) return r[a].size > r[b].size;
  return a < b;
}

/* Ranks the distinct sizes (size_rank), then sorts the record ids by
   dnnmem__chains_record_less: radix sorts (dnnmem__radix_sort) on size and
   on lower, then a merge sort of
   each run of equal lowers with the full order, O(r log r) per run of r.
   Leaves lowers[] and uppers[] in sorted order. Returns the number of
   distinct sizes. */
static int32_t dnnmem__chains_sort_records(const dnnmem_interval *records, int32_t count,
                                          dnnmem__chains_work *w) {
  int32_t i, j, ranks = 0;
  for (i = 0; i < count; i++) {
    w->ids[i] = i;
    w->lowers[i] = records[i].size; /* the key of record i */
  }
  dnnmem__radix_sort(w->ids, w->group_of_pos, count, w->lowers);
  for (i = 0; i < count; i++) {
    int64_t size = records[w->ids[i]].size;
    if (i > 0 && size != records[w->ids[i - 1]].size) ranks++;
    w->size_rank[w->ids[i]] = ranks;
    w->rank_size[ranks] = size;
  }
  for (i = 0; i < count; i++) {
    w->ids[i] = i;
    w->lowers[i] = records[i].lower;
  }
  dnnmem__radix_sort(w->ids, w->group_of_pos, count, w->lowers);
  for (i = 0; i < count; i++) w->lowers[i] = records[w->ids[i]].lower; /* by position now */
  for (i = 0; i < count; i = j) { /* ties on lower: the full order */
    for (j = i + 1; j < count && w->lowers[j] == w->lowers[i]; j++) {
    }
    if (j - i > 1)
      dnnmem__sort_ids(w->ids + i, w->group_of_pos, j - i, dnnmem__chains_record_less, records);
  }
  /* plain gathers: independent loads, so the memory system overlaps them */
  for (i = 0; i < count; i++) w->uppers[i] = records[w->ids[i]].upper;
  for (i = 0; i < count; i++) w->group_of_pos[i] = w->size_rank[w->ids[i]];
  return count > 0 ? ranks + 1 : 0;
}

/* Fenwick tree over size ranks 0..ranks-1 (stored 1-based). */
static void dnnmem__chains_fenwick_add(int32_t *tree, int32_t ranks, int32_t rank, int32_t delta) {
  for (rank++; rank <= ranks; rank += rank & -rank) tree[rank] += delta;
}

static int32_t dnnmem__chains_fenwick_prefix(const int32_t *tree, int32_t rank) { /* ranks <= rank */
  int32_t sum = 0;
  for (rank++; rank > 0; rank -= rank & -rank) sum += tree[rank];
  return sum;
}

static int32_t dnnmem__chains_fenwick_kth(const int32_t *tree, int32_t ranks, int32_t k) {
  int32_t pos = 0, step = 1; /* the rank holding the k-th free group (k >= 1) */
  while (step <= ranks / 2) step <<= 1;
  for (; step > 0; step >>= 1)
    if (pos + step <= ranks && tree[pos + step] < k) {
      pos += step;
      k -= tree[pos];
    }
  return pos; /* 0-based rank */
}

/* The free group for a record of size rank `rank`: the smallest size
   difference between the record and a group's last member, then the latest
   end, then the older group; -1 when none is free. Candidates are the tops
   of the nearest non-empty ranks at or below and above the record's. */
static int32_t dnnmem__chains_pick_group(const dnnmem__chains_work *w, int32_t ranks,
                                        int32_t free_count, int32_t rank) {
  int32_t at_or_below, low_rank = -1, high_rank = -1, low, high;
  int64_t d_low, d_high;
  if (free_count == 0) return -1;
  if (w->rank_top[rank] >= 0) return w->rank_top[rank]; /* same size: the latest end */
  at_or_below = dnnmem__chains_fenwick_prefix(w->fenwick, rank);
  if (at_or_below > 0) low_rank = dnnmem__chains_fenwick_kth(w->fenwick, ranks, at_or_below);
  if (at_or_below < free_count)
    high_rank = dnnmem__chains_fenwick_kth(w->fenwick, ranks, at_or_below + 1);
  if (low_rank < 0) return w->rank_top[high_rank];
  if (high_rank < 0) return w->rank_top[low_rank];
  low = w->rank_top[low_rank];
  high = w->rank_top[high_rank];
  d_low = w->rank_size[rank] - w->rank_size[low_rank]; /* sizes >= 0: no overflow */
  d_high = w->rank_size[high_rank] - w->rank_size[rank];
  if (d_low != d_high) return d_low < d_high ? low : high;
  if (w->group_end[low] != w->group_end[high]) return w->group_end[low] > w->group_end[high] ? low : high;
  return low < high ? low : high;
}

/* dnnmem_plan_chains: the number of groups, or an error named in e. */
static dnnmem_result dnnmem__plan_chains(const dnnmem_intervals *problem, int32_t *group_of, int32_t *order,
                                         int32_t *out_groups, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__chains_work w;
  dnnmem_result r;
  int32_t groups = 0, free_count = 0, ranks, k, g, sum;
  dnnmem__heap busy; /* busy groups by (end, ~group): equal ends pop the newer group first, so
                        the older one lands on top of its rank's stack */
  const dnnmem_interval *records = problem ? problem->records : NULL;
  int32_t count = problem ? problem->count : 0;
  if (problem == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  r = dnnmem__intervals_check(records, count, 0, e);
  if (r != DNNMEM_OK) return r;
  if (scratch == NULL) return DNNMEM_ERR_SCRATCH_TOO_SMALL; /* NULL would mean "size only" */
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__chains_layout(&s, count, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  ranks = dnnmem__chains_sort_records(records, count, &w);
  for (k = 0; k < ranks; k++) w.rank_top[k] = -1;
  for (k = 0; k <= ranks; k++) w.fenwick[k] = 0;
  /* the heap's keys overwrite lowers[]: position k is read before the
     push of step k, and the heap then holds at most k + 1 groups */
  busy.key = w.lowers;
  busy.id = w.busy;
  busy.count = 0;
  for (k = 0; k < count; k++) {
    int32_t rank = w.group_of_pos[k];
    int64_t lower = w.lowers[k];
    /* groups that have ended by now become free, in end order, each on top
       of its size rank's stack (so a stack's top ended latest) */
    while (busy.count > 0 && busy.key[0] <= lower) {
      int32_t done = ~busy.id[0], done_rank = w.group_rank[done];
      dnnmem__heap_pop(&busy);
      w.below[done] = w.rank_top[done_rank];
      w.rank_top[done_rank] = done;
      dnnmem__chains_fenwick_add(w.fenwick, ranks, done_rank, 1);
      free_count++;
    }
    g = dnnmem__chains_pick_group(&w, ranks, free_count, rank);
    if (g >= 0) {
      int32_t g_rank = w.group_rank[g];
      DNNMEM_ASSERT(w.rank_top[g_rank] == g);
      w.rank_top[g_rank] = w.below[g];
      dnnmem__chains_fenwick_add(w.fenwick, ranks, g_rank, -1);
      free_count--;
    } else {
      g = groups++;
      w.group_size[g] = 0;
    }
    w.group_of_pos[k] = g;
    w.group_size[g]++;
    w.group_rank[g] = rank;
    w.group_end[g] = w.uppers[k];
    dnnmem__heap_push(&busy, w.uppers[k], ~g);
  }
  /* a group's members are increasing sorted positions, i.e. its chain in
     time order: a counting sort by group writes order[] directly */
  for (g = 0, sum = 0; g < groups; g++) {
    int32_t c = w.group_size[g];
    w.group_size[g] = sum;
    sum += c;
  }
  for (k = 0; k < count; k++) {
    g = w.group_of_pos[k];
    if (group_of) group_of[w.ids[k]] = g;
    if (order) order[w.group_size[g]++] = w.ids[k];
  }
  *out_groups = groups;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_chains(const dnnmem_intervals *problem, int32_t *group_of, int32_t *order,
                                            dnnmem_plan_chains_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  int32_t groups = 0;
  dnnmem_result r = dnnmem__plan_chains(problem, group_of, order, &groups, scratch, scratch_bytes, &e);
  if (result) result->groups = r == DNNMEM_OK ? groups : 0;
  return dnnmem__report(result ? &result->error : NULL, &e, r);
}


/* ---- multi-pass planning ------------------------------------------------ */

static int32_t dnnmem__pass_of(const dnnmem_interval *r) { return r->pass > 1 ? r->pass : 1; }

/* How many records belong to passes 1..pass, and their pieces. Reads only
   pass fields and, of those records, num_gaps. */
static dnnmem_result dnnmem__pass_counts(const dnnmem_intervals *problem, int32_t pass, int32_t *out_count,
                                         int32_t *out_pieces, dnnmem_error *e) {
  int64_t pieces = 0;
  int32_t i, n = 0;
  if (problem == NULL || problem->count < 0 || (problem->count > 0 && problem->records == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (pass < 1) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PASS);
  for (i = 0; i < problem->count; i++) {
    const dnnmem_interval *r = &problem->records[i];
    if (r->pass < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, i, DNNMEM_FIELD_PASS);
    if (dnnmem__pass_of(r) > pass) continue;
    if (r->num_gaps < 0) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_GAP);
    n++;
    pieces += 1 + 2 * (int64_t)r->num_gaps;
    if (pieces > DNNMEM__I32_MAX / 2) return DNNMEM_ERR_TOO_MANY;
  }
  *out_count = n;
  *out_pieces = (int32_t)pieces;
  return DNNMEM_OK;
}

typedef struct dnnmem__pass_work {
  dnnmem_interval *records; /* passes 1..pass, the earlier ones fixed where they are */
  int64_t *offsets;         /* their plan (first: sort keys) */
  int32_t *ids, *order, *tmp; /* sub-problem index -> record id; sorting */
  void *plan;               /* dnnmem_plan_solve's scratch for the sub-problem */
  size_t plan_bytes;
} dnnmem__pass_work;

static dnnmem_result dnnmem__pass_carve(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                        int32_t pass, dnnmem__pass_work *w, void *scratch,
                                        size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__plan_work pw;
  dnnmem_result r;
  int32_t n, pieces;
  if ((r = dnnmem__pass_counts(problem, pass, &n, &pieces, NULL)) != DNNMEM_OK) return r;
  r = dnnmem__plan_carve_counts(n, pieces, options ? options->algo : DNNMEM_PLAN_BEST, DNNMEM__PLAN_SOLVE, &pw,
                                NULL, 0, &w->plan_bytes);
  if (r != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  w->records = DNNMEM__TAKE(&s, dnnmem_interval, n);
  w->offsets = DNNMEM__TAKE(&s, int64_t, n);
  w->ids = DNNMEM__TAKE(&s, int32_t, n);
  w->order = DNNMEM__TAKE(&s, int32_t, n);
  w->tmp = DNNMEM__TAKE(&s, int32_t, n);
  w->plan = DNNMEM__TAKE(&s, unsigned char, w->plan_bytes);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pass_scratch_size(const dnnmem_intervals *problem,
                                                       const dnnmem_plan_options *options, int32_t pass,
                                                       size_t *out_bytes) {
  dnnmem__pass_work w;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__pass_carve(problem, options, pass, &w, NULL, 0, out_bytes);
}

/* Passes 2.. are planned when their first record is produced: their first
   steps must follow the pass numbers. n records of w, pass >= 2 ones only. */
static dnnmem_result dnnmem__pass_order_check(dnnmem__pass_work *w, int32_t n, dnnmem_error *e) {
  int32_t i, m = 0, prev_pass = 0;
  int64_t prev_start = DNNMEM__I64_MIN;
  for (i = 0; i < n; i++)
    if (dnnmem__pass_of(&w->records[i]) >= 2) w->order[m++] = i;
  for (i = 0; i < n; i++) w->offsets[i] = w->records[i].lower;
  dnnmem__radix_sort(w->order, w->tmp, m, w->offsets);
  for (i = 0; i < n; i++) w->offsets[i] = dnnmem__pass_of(&w->records[i]);
  dnnmem__radix_sort(w->order, w->tmp, m, w->offsets); /* stable: by (pass, lower) */
  for (i = 0; i < m; i++) {
    const dnnmem_interval *r = &w->records[w->order[i]];
    if (dnnmem__pass_of(r) == prev_pass) continue;
    if (r->lower < prev_start) return dnnmem__fail(e, DNNMEM_ERR_PLAN_PASS_ORDER, w->ids[w->order[i]], DNNMEM_FIELD_PASS);
    prev_pass = dnnmem__pass_of(r);
    prev_start = r->lower;
  }
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__plan_pass(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                       int32_t pass, int64_t *offsets, dnnmem_plan_result *result,
                                       void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__pass_work w;
  dnnmem_intervals sub;
  int32_t i, n = 0;
  int32_t pieces;
  dnnmem_result r = dnnmem__pass_counts(problem, pass, &n, &pieces, e); /* a later pass is not read */
  if (r != DNNMEM_OK) return r;
  n = 0;
  if ((r = dnnmem__pass_carve(problem, options, pass, &w, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
  if (problem->count > 0 && offsets == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  if (dnnmem__has_links(problem)) /* not modelled */
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  for (i = 0; i < problem->count; i++) {
    const dnnmem_interval *rec = &problem->records[i];
    if (dnnmem__pass_of(rec) > pass) continue;
    w.ids[n] = i;
    w.records[n] = *rec;
    if (dnnmem__pass_of(rec) < pass) { /* placed by its own pass: it stays */
      if ((rec->flags & DNNMEM_INTERVAL_FIXED) && rec->fixed_offset != offsets[i])
        return dnnmem__fail(e, DNNMEM_ERR_PLAN_FIXED_MISMATCH, i, DNNMEM_FIELD_OFFSET);
      w.records[n].flags |= DNNMEM_INTERVAL_FIXED;
      w.records[n].fixed_offset = offsets[i];
    }
    n++;
  }
  if ((r = dnnmem__pass_order_check(&w, n, e)) != DNNMEM_OK) return r;
  sub.records = w.records;
  sub.count = n;
  sub.alignment = problem->alignment;
  if ((r = dnnmem__plan_solve(&sub, options, w.offsets, result, w.plan, w.plan_bytes, e)) != DNNMEM_OK) {
    if (e->index >= 0) e->index = w.ids[e->index]; /* the problem's records */
    if (e->other >= 0) e->other = w.ids[e->other];
    return r;
  }
  for (i = 0; i < n; i++)
    if (dnnmem__pass_of(&w.records[i]) == pass) offsets[w.ids[i]] = w.offsets[i];
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pass(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                          int32_t pass, int64_t *offsets, dnnmem_plan_result *result,
                                          void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__plan_pass(problem, options, pass, offsets, result, scratch, scratch_bytes, &e));
}

/* ---- symbolic sizes ----------------------------------------------------- */

/* The problem's own rules (not the records', which the caller checks at
   one S): terms, range, no fixed offsets and no gaps. */
static dnnmem_result dnnmem__symbolic_check(const dnnmem_plan_symbolic *problem, dnnmem_error *e) {
  const dnnmem_intervals *iv;
  int32_t i;
  if (problem == NULL || problem->intervals == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  iv = problem->intervals;
  if (iv->count < 0) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  if (iv->count > 0 && (iv->records == NULL || problem->coefficients == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, iv->records == NULL ? DNNMEM_FIELD_PROBLEM : DNNMEM_FIELD_SIZE);
  if (problem->terms < 1 || problem->terms > DNNMEM_PLAN_SYMBOLIC_MAX_TERMS)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_SYMBOL);
  if (problem->s_min < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, -1, DNNMEM_FIELD_SYMBOL);
  if (problem->s_max < problem->s_min) return dnnmem__fail(e, DNNMEM_ERR_PLAN_SYMBOL_RANGE, -1, DNNMEM_FIELD_SYMBOL);
  for (i = 0; i < iv->count; i++) {
    int32_t f = iv->records[i].flags;
    if (f & DNNMEM_INTERVAL_FIXED) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_OFFSET);
    if (f & DNNMEM_INTERVAL_ALIAS) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_ALIAS);
    if (f & DNNMEM_INTERVAL_REUSE) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_REUSE);
    if (iv->records[i].num_gaps != 0) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_GAP);
  }
  return DNNMEM_OK;
}

/* c[0] + c[1] s + ... by Horner's rule, s >= 0 and limit = INT64_MAX / s
   (one division per S, none per record). */
static dnnmem_result dnnmem__poly_at(const int64_t *c, int32_t terms, int64_t s, int64_t limit, int64_t *out) {
  int64_t v = 0;
  int32_t j;
  for (j = terms - 1; j >= 0; j--) {
    if (c[j] < 0) return DNNMEM_ERR_NEGATIVE;
    if (v > limit) return DNNMEM_ERR_OVERFLOW;
    v *= s;
    if (c[j] > DNNMEM__I64_MAX - v) return DNNMEM_ERR_OVERFLOW;
    v += c[j];
  }
  *out = v;
  return DNNMEM_OK;
}

static int64_t dnnmem__poly_limit(int64_t s) { return s > 0 ? DNNMEM__I64_MAX / s : DNNMEM__I64_MAX; }

static dnnmem_result dnnmem__symbolic_records(const dnnmem_plan_symbolic *problem, int64_t s,
                                              dnnmem_interval *records, dnnmem_error *e) {
  const dnnmem_intervals *iv;
  dnnmem_intervals at;
  int64_t limit = dnnmem__poly_limit(s);
  int32_t i;
  dnnmem_result r = dnnmem__symbolic_check(problem, e);
  if (r != DNNMEM_OK) return r;
  iv = problem->intervals;
  if (s < problem->s_min || s > problem->s_max) return dnnmem__fail(e, DNNMEM_ERR_PLAN_SYMBOL_RANGE, -1, DNNMEM_FIELD_SYMBOL);
  if (iv->count > 0 && records == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  for (i = 0; i < iv->count; i++) {
    records[i] = iv->records[i];
    r = dnnmem__poly_at(problem->coefficients + (size_t)i * (size_t)problem->terms, problem->terms, s, limit,
                        &records[i].size);
    if (r != DNNMEM_OK) return dnnmem__fail(e, r, i, DNNMEM_FIELD_SIZE);
  }
  at.records = records;
  at.count = iv->count;
  at.alignment = iv->alignment;
  return dnnmem_intervals_check(&at, e);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_records(const dnnmem_plan_symbolic *problem, int64_t s,
                                                      dnnmem_interval *records, dnnmem_error *error) {
  dnnmem__error_clear(error);
  return dnnmem__symbolic_records(problem, s, records, error);
}

/* dnnmem_plan_symbolic_resolve: the arena, or an error named in e. */
static dnnmem_result dnnmem__symbolic_resolve(const dnnmem_plan_symbolic *problem, const dnnmem_plan_stacking *stacking,
                                              int64_t s, int64_t *offsets, int64_t *out_arena, dnnmem_error *e) {
  const dnnmem_intervals *iv;
  int64_t limit = dnnmem__poly_limit(s), total = 0, arena = 0;
  int32_t n, p, terms;
  dnnmem_result r = dnnmem__symbolic_check(problem, e);
  if (r != DNNMEM_OK) return r;
  iv = problem->intervals;
  n = iv->count;
  terms = problem->terms;
  if (s < problem->s_min || s > problem->s_max)
    return dnnmem__fail(e, DNNMEM_ERR_PLAN_SYMBOL_RANGE, -1, DNNMEM_FIELD_SYMBOL);
  if (iv->alignment < 0 || (iv->alignment > 1 && !dnnmem__is_pow2(iv->alignment)))
    return dnnmem__fail(e, DNNMEM_ERR_ALIGNMENT, -1, DNNMEM_FIELD_ALIGNMENT);
  if (n > 0 && offsets == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  if (stacking == NULL || stacking->below_offsets == NULL || (n > 0 && stacking->order == NULL) ||
      stacking->below_offsets[0] != 0)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_STACKING);
  for (p = 0; p < n; p++) {
    offsets[p] = -1; /* unresolved; resolved records hold their top until the end */
    if (stacking->below_offsets[p + 1] < stacking->below_offsets[p])
      return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, p, DNNMEM_FIELD_STACKING);
  }
  if (stacking->below_offsets[n] > 0 && stacking->below_ids == NULL)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_STACKING);
  for (p = 0; p < n; p++) {
    int32_t rec = stacking->order[p], k;
    int64_t size, a, aligned, top = 0;
    if (rec < 0 || rec >= n) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, p, DNNMEM_FIELD_STACKING);
    if (offsets[rec] != -1) /* listed twice */
      return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, p, DNNMEM_FIELD_STACKING);
    if (iv->records[rec].alignment < 0 ||
        (iv->records[rec].alignment > 1 && !dnnmem__is_pow2(iv->records[rec].alignment)))
      return dnnmem__fail(e, DNNMEM_ERR_ALIGNMENT, rec, DNNMEM_FIELD_ALIGNMENT);
    r = dnnmem__poly_at(problem->coefficients + (size_t)rec * (size_t)terms, terms, s, limit, &size);
    if (r != DNNMEM_OK) return dnnmem__fail(e, r, rec, DNNMEM_FIELD_SIZE);
    a = dnnmem_interval_alignment(&iv->records[rec], iv->alignment);
    /* every top stays below the sum of aligned sizes, which must fit */
    if (dnnmem__align_up_overflows(size, a, &aligned) || dnnmem__add_overflows(total, aligned, &total) ||
        dnnmem__add_overflows(total, a - 1, &total))
      return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, rec, DNNMEM_FIELD_SIZE);
    for (k = stacking->below_offsets[p]; k < stacking->below_offsets[p + 1]; k++) {
      int32_t b = stacking->below_ids[k];
      if (b < 0 || b >= n) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, p, DNNMEM_FIELD_STACKING);
      if (offsets[b] < 0) /* not below: not resolved yet */
        return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, p, DNNMEM_FIELD_STACKING);
      if (offsets[b] > top) top = offsets[b];
    }
    offsets[rec] = dnnmem__align_up(top, a) + size;
    if (offsets[rec] > arena) arena = offsets[rec];
  }
  for (p = 0; p < n; p++) { /* tops to offsets (the sizes were checked above) */
    int32_t rec = stacking->order[p];
    int64_t size = 0;
    (void)dnnmem__poly_at(problem->coefficients + (size_t)rec * (size_t)terms, terms, s, limit, &size);
    offsets[rec] -= size;
  }
  *out_arena = arena;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_resolve(const dnnmem_plan_symbolic *problem,
                                                      const dnnmem_plan_stacking *stacking, int64_t s,
                                                      int64_t *offsets, dnnmem_plan_result *result) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  int64_t arena = 0;
  dnnmem_result r = dnnmem__symbolic_resolve(problem, stacking, s, offsets, &arena, &e);
  if (result) {
    DNNMEM_MEMSET(result, 0, sizeof(*result));
    result->arena = r == DNNMEM_OK ? arena : 0;
  }
  return dnnmem__report(result ? &result->error : NULL, &e, r);
}

typedef struct dnnmem__symbolic_work {
  dnnmem_interval *records;   /* the records at one S */
  int64_t *ref, *best_ref;    /* a candidate's plan at its reference S; the best's */
  int64_t *resolved;          /* offsets at a sample */
  int64_t *samples, *bounds;  /* the sample S values and the lower bound at each */
  int32_t *order, *below_offsets, *below_ids; /* a candidate's stacking */
  dnnmem__planner tree;       /* the interval tree that finds the records below */
  void *plan;                 /* dnnmem_plan_solve's and _lower_bound's scratch */
  size_t plan_bytes;
} dnnmem__symbolic_work;

static dnnmem_result dnnmem__symbolic_carve(const dnnmem_plan_symbolic *problem, const dnnmem_plan_options *options,
                                            dnnmem__symbolic_work *w, void *scratch, size_t scratch_bytes,
                                            size_t *out_bytes) {
  dnnmem__scratch s;
  size_t solve = 0, bound = 0;
  int32_t n;
  dnnmem_result r = dnnmem__symbolic_check(problem, NULL);
  if (r != DNNMEM_OK) return r;
  n = problem->intervals->count;
  if (n > (DNNMEM__I32_MAX - 16) / 3) return DNNMEM_ERR_TOO_MANY;
  if ((r = dnnmem_plan_solve_scratch_size(problem->intervals, options, &solve)) != DNNMEM_OK ||
      (r = dnnmem_plan_lower_bound_scratch_size(problem->intervals, &bound)) != DNNMEM_OK)
    return r;
  w->plan_bytes = solve > bound ? solve : bound;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  w->records = DNNMEM__TAKE(&s, dnnmem_interval, n);
  w->ref = DNNMEM__TAKE(&s, int64_t, n);
  w->best_ref = DNNMEM__TAKE(&s, int64_t, n);
  w->resolved = DNNMEM__TAKE(&s, int64_t, n);
  w->samples = DNNMEM__TAKE(&s, int64_t, DNNMEM_PLAN_SYMBOLIC_SAMPLES);
  w->bounds = DNNMEM__TAKE(&s, int64_t, DNNMEM_PLAN_SYMBOLIC_SAMPLES);
  w->order = DNNMEM__TAKE(&s, int32_t, n);
  w->below_offsets = DNNMEM__TAKE(&s, int32_t, (size_t)n + 1);
  w->below_ids = DNNMEM__TAKE(&s, int32_t, DNNMEM_PLAN_SYMBOLIC_EDGES(n));
  dnnmem__planner_layout(&s, n, 1, &w->tree);
  w->plan = DNNMEM__TAKE(&s, unsigned char, w->plan_bytes);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_solve_scratch_size(const dnnmem_plan_symbolic *problem,
                                                                 const dnnmem_plan_options *options,
                                                                 size_t *out_bytes) {
  dnnmem__symbolic_work w;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__symbolic_carve(problem, options, &w, NULL, 0, out_bytes);
}

/* The S values the ratio is measured at, ascending: every one of a short
   range, else lo, hi and a geometric series between (ratio q with q^(m-1)
   = hi / lo, by bisection with products only: the same values everywhere).
   Returns their count. */
static int32_t dnnmem__symbolic_samples(int64_t lo, int64_t hi, int64_t *out) {
  const int32_t m = DNNMEM_PLAN_SYMBOLIC_SAMPLES;
  double base, qlo = 1.0, qhi = 2.0, v;
  int32_t i, k, count = 0;
  if (hi - lo < m) {
    for (i = 0; lo + i <= hi; i++) out[i] = lo + i;
    return (int32_t)(hi - lo + 1);
  }
  out[count++] = lo;
  base = lo > 0 ? (double)lo : 1.0;
  for (;;) { /* qhi^(m - 2) >= hi / base */
    for (v = base, k = 0; k < m - 2 && v < (double)hi; k++) v *= qhi;
    if (v >= (double)hi) break;
    qhi *= 2.0;
  }
  for (i = 0; i < 64; i++) {
    double q = (qlo + qhi) / 2.0;
    for (v = base, k = 0; k < m - 2; k++) v *= q;
    if (v < (double)hi) qlo = q;
    else qhi = q;
  }
  if (lo == 0) out[count++] = 1;
  for (v = base, i = 0; count < m - 1 && i < m; i++) {
    int64_t x = (int64_t)(v + 0.5);
    v *= qlo;
    if (x > out[count - 1] && x < hi) out[count++] = x;
  }
  out[count++] = hi;
  return count;
}

/* The stacking of a plan: records bottom-up by (offset, id), each with the
   time-overlapping records under it that no other such record separates
   from it (b is left out when some c under it lies on b: the resolver's
   max reaches b through c). A subset of the plan's vertical visibility
   graph, which is planar: at most 3n edges. Zero-size records (zero at
   every S when the reference is positive) stand alone. Returns the edges. */
static int32_t dnnmem__symbolic_stack(dnnmem__symbolic_work *w, const int64_t *off) {
  dnnmem__planner *t = &w->tree;
  const dnnmem_interval *rec = w->records;
  int32_t n = t->n, i, pos, e = 0;
  for (i = 0; i < n; i++) {
    w->order[i] = i;
    t->off[i] = rec[i].size > 0 ? off[i] : -1; /* the tree reports placed records only */
    t->maxup[i] = DNNMEM__I64_MIN;
  }
  dnnmem__radix_sort(w->order, t->tmp, n, off);
  t->tree_takes_placed = 1;
  for (i = 0; i < n; i++)
    if (t->off[i] >= 0) dnnmem__itree_insert(t, i);
  for (pos = 0; pos < n; pos++) {
    int32_t r = w->order[pos], k, j, below = 0;
    w->below_offsets[pos] = e;
    if (rec[r].size == 0) continue;
    dnnmem__neighbours(t, r); /* by offset: the ones under r first */
    while (below < t->found_count && off[t->found[below]] < off[r]) below++;
    for (k = 0; k < below; k++) {
      int32_t b = t->found[k], separated = 0;
      for (j = k + 1; j < below && !separated; j++) {
        int32_t c = t->found[j];
        separated = off[c] >= off[b] + rec[b].size && rec[c].lower < rec[b].upper && rec[b].lower < rec[c].upper;
      }
      if (separated) continue;
      DNNMEM_ASSERT(e < DNNMEM_PLAN_SYMBOLIC_EDGES(n)); /* planar (above): never past */
      w->below_ids[e++] = b;
    }
  }
  w->below_offsets[n] = e;
  return e;
}

/* Sizes at s into w->records (validated by the caller at s_max: smaller S
   give smaller sizes). */
static void dnnmem__symbolic_at(const dnnmem_plan_symbolic *problem, dnnmem__symbolic_work *w, int64_t s) {
  dnnmem_result r = dnnmem__symbolic_records(problem, s, w->records, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  (void)r;
}

/* Blended sizes: each record's share of the lower bound, summed over a
   few samples (blend 0: both ends; 1: the ends and the geometric middle;
   2: every fourth sample and the ends), in units of 2^-30, so that one plan
   weighs every S of the blend alike. */
#define DNNMEM__SYMBOLIC_BLENDS 3
static void dnnmem__symbolic_blend(const dnnmem_plan_symbolic *problem, dnnmem__symbolic_work *w,
                                   int32_t samples, int32_t blend) {
  int32_t n = problem->intervals->count, i, k;
  for (i = 0; i < n; i++) w->ref[i] = 0;
  for (k = 0; k < samples; k++) {
    int use = k == 0 || k == samples - 1 || (blend == 1 && k == samples / 2) || (blend == 2 && k % 4 == 0);
    if (!use || w->bounds[k] == 0) continue;
    dnnmem__symbolic_at(problem, w, w->samples[k]);
    for (i = 0; i < n; i++) /* size <= bound: each share <= 2^30 */
      w->ref[i] += (int64_t)((double)w->records[i].size * 1073741824.0 / (double)w->bounds[k] + 0.5);
  }
  for (i = 0; i < n; i++) w->records[i].size = w->ref[i];
}

static dnnmem_result dnnmem__plan_symbolic_solve(const dnnmem_plan_symbolic *problem,
                                                 const dnnmem_plan_options *options, int32_t *order,
                                                 int32_t *below_offsets, int32_t *below_ids,
                                                 int32_t below_capacity, dnnmem_plan_symbolic_result *result,
                                                 void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__symbolic_work w;
  dnnmem_plan_symbolic_result res, best;
  dnnmem_plan_options po;
  dnnmem_plan_stacking st;
  dnnmem_intervals at;
  dnnmem_plan_result pr;
  int64_t refs[DNNMEM_PLAN_SYMBOLIC_REFERENCES];
  double best_sum = 0.0;
  int32_t n, i, c, num_refs = 0, samples, edges;
  dnnmem_result r = dnnmem__symbolic_check(problem, e);
  if (r != DNNMEM_OK) return r;
  if ((r = dnnmem__symbolic_carve(problem, options, &w, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
  if ((r = dnnmem__plan_options_check(options, e)) != DNNMEM_OK) return r;
  n = problem->intervals->count;
  if (n > 0 && (order == NULL || below_offsets == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  if (below_offsets == NULL || below_capacity < 0 || (below_capacity > 0 && below_ids == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  /* every S is checked at s_max: sizes never shrink as S grows */
  if ((r = dnnmem__symbolic_records(problem, problem->s_max, w.records, e)) != DNNMEM_OK) return r;
  dnnmem__planner_setup(&w.tree, w.records, n, problem->intervals->alignment); /* lifetimes only */
  if (options) po = *options;
  else DNNMEM_MEMSET(&po, 0, sizeof(po));
  po.capacity = 0;
  at.records = w.records;
  at.count = n;
  at.alignment = problem->intervals->alignment;
  samples = dnnmem__symbolic_samples(problem->s_min, problem->s_max, w.samples);
  for (i = 0; i < samples; i++) {
    dnnmem__symbolic_at(problem, &w, w.samples[i]);
    r = dnnmem__plan_lower_bound_core(&at, &w.bounds[i], w.plan, w.plan_bytes, NULL); /* no links */
    DNNMEM_ASSERT(r == DNNMEM_OK);
  }
  /* references: evenly spread over the samples, the largest first; a
     positive S (sizes that vanish there vanish everywhere) */
  for (c = 0; c < DNNMEM_PLAN_SYMBOLIC_REFERENCES; c++) {
    int32_t k = samples - 1 - (int32_t)((int64_t)c * (samples - 1) / (DNNMEM_PLAN_SYMBOLIC_REFERENCES - 1));
    int64_t v = w.samples[k] > 0 || problem->s_max == 0 ? w.samples[k] : w.samples[k + 1];
    if (num_refs == 0 || refs[num_refs - 1] != v) refs[num_refs++] = v;
  }
  DNNMEM_MEMSET(&best, 0, sizeof(best));
  best.worst_ratio = -1.0;
  st.order = w.order;
  st.below_offsets = w.below_offsets;
  st.below_ids = w.below_ids;
  for (c = 0; c < num_refs + DNNMEM__SYMBOLIC_BLENDS; c++) {
    double worst = 0.0, sum = 0.0;
    if (c < num_refs) dnnmem__symbolic_at(problem, &w, refs[c]);
    else dnnmem__symbolic_blend(problem, &w, samples, c - num_refs);
    if ((r = dnnmem_plan_solve(&at, &po, w.ref, &pr, w.plan, w.plan_bytes)) != DNNMEM_OK) return r;
    (void)dnnmem__symbolic_stack(&w, w.ref);
    DNNMEM_MEMSET(&res, 0, sizeof(res));
    for (i = 0; i < samples; i++) {
      int64_t arena;
      double ratio;
      r = dnnmem__symbolic_resolve(problem, &st, w.samples[i], w.resolved, &arena, NULL);
      DNNMEM_ASSERT(r == DNNMEM_OK);
      ratio = w.bounds[i] > 0 ? (double)arena / (double)w.bounds[i] : 1.0;
      sum += ratio;
      if (ratio > worst) worst = ratio, res.worst_at = w.samples[i];
      if (i == 0) res.arena_min = arena;
      if (i == samples - 1) res.arena_max = arena;
    }
    res.worst_ratio = worst;
    if (best.worst_ratio < 0 || worst < best.worst_ratio || (worst == best.worst_ratio && sum < best_sum)) {
      best = res;
      best.reference = c < num_refs ? refs[c] : -1 - (c - num_refs);
      best_sum = sum;
      DNNMEM_MEMCPY(w.best_ref, w.ref, (size_t)n * sizeof(int64_t));
    }
  }
  DNNMEM_ASSERT(best.worst_ratio >= 0); /* every stacking was measured (they are planar) */
  if (best.reference >= 0) dnnmem__symbolic_at(problem, &w, best.reference);
  else dnnmem__symbolic_blend(problem, &w, samples, -1 - (int32_t)best.reference);
  edges = dnnmem__symbolic_stack(&w, w.best_ref);
  best.edges = edges;
  best.samples = samples;
  best.lower_bound_min = w.bounds[0];
  best.lower_bound_max = w.bounds[samples - 1];
  if (result) *result = best;
  if (edges > below_capacity) return DNNMEM_ERR_OUTPUT_TOO_SMALL;
  if (n > 0) DNNMEM_MEMCPY(order, w.order, (size_t)n * sizeof(int32_t));
  DNNMEM_MEMCPY(below_offsets, w.below_offsets, ((size_t)n + 1) * sizeof(int32_t));
  if (edges > 0) DNNMEM_MEMCPY(below_ids, w.below_ids, (size_t)edges * sizeof(int32_t));
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_symbolic_solve(const dnnmem_plan_symbolic *problem,
                                                    const dnnmem_plan_options *options, int32_t *order,
                                                    int32_t *below_offsets, int32_t *below_ids,
                                                    int32_t below_capacity, dnnmem_plan_symbolic_result *result,
                                                    void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__plan_symbolic_solve(problem, options, order, below_offsets, below_ids, below_capacity, result, scratch, scratch_bytes, &e));
}

/* ---- conflict sets ("why not") ------------------------------------------ */

typedef struct dnnmem__conflict_work {
  const dnnmem_plan_pools *pools; /* the pools of a pools problem; NULL: one
                                     arena of capacity ask.capacity */
  dnnmem_interval *records; /* the subset being asked, ascending ids */
  int64_t *offsets;         /* its plan (the answer's, unused) */
  int32_t *pool_of;         /* pools: the subset's pools (unused) */
  int32_t *sub_offsets, *sub_ids; /* pools: the subset's allowed lists */
  int64_t *keys;            /* sort keys per record id */
  int32_t *set;             /* the candidate's ids in test order */
  int32_t *ids, *by_upper, *tmp; /* sorting */
  uint8_t *member;          /* per record id: 1 in the subset asked */
  void *plan;               /* the solve's (and the bound's) scratch */
  size_t plan_bytes;
  dnnmem_plan_options ask;  /* the options of every decision */
  dnnmem_plan_pools_options pools_ask;
} dnnmem__conflict_work;

/* The carving shared by both kinds (w->plan_bytes set; ids: the allowed
   lists' length, pools only). */
static dnnmem_result dnnmem__conflict_layout(dnnmem__conflict_work *w, int32_t n, int64_t ids, void *scratch,
                                             size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  w->records = DNNMEM__TAKE(&s, dnnmem_interval, n);
  w->offsets = DNNMEM__TAKE(&s, int64_t, n);
  if (w->pools) {
    w->pool_of = DNNMEM__TAKE(&s, int32_t, n);
    w->sub_offsets = DNNMEM__TAKE(&s, int32_t, (int64_t)n + 1);
    w->sub_ids = DNNMEM__TAKE(&s, int32_t, ids);
  }
  w->keys = DNNMEM__TAKE(&s, int64_t, n);
  w->set = DNNMEM__TAKE(&s, int32_t, n);
  w->ids = DNNMEM__TAKE(&s, int32_t, n);
  w->by_upper = DNNMEM__TAKE(&s, int32_t, n);
  w->tmp = DNNMEM__TAKE(&s, int32_t, n);
  w->member = DNNMEM__TAKE(&s, uint8_t, n);
  w->plan = DNNMEM__TAKE(&s, unsigned char, w->plan_bytes);
  return dnnmem__scratch_end(&s, out_bytes);
}

static dnnmem_result dnnmem__conflict_carve(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                            dnnmem__conflict_work *w, void *scratch, size_t scratch_bytes,
                                            size_t *out_bytes) {
  dnnmem_result r;
  size_t bound_bytes = 0;
  int32_t n;
  if (problem == NULL || options == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (options->capacity < 0 || options->node_limit < 0) return DNNMEM_ERR_NEGATIVE;
  if (options->capacity == 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  w->ask = *options;
#ifndef DNNMEM_NO_EXACT
  w->ask.algo = DNNMEM_PLAN_EXACT;
#else
  w->ask.algo = DNNMEM_PLAN_BEST;
#endif
  /* a subset has no more records and gaps than the problem: its scratch fits */
  if ((r = dnnmem_plan_solve_scratch_size(problem, &w->ask, &w->plan_bytes)) != DNNMEM_OK) return r;
  if ((r = dnnmem_plan_lower_bound_scratch_size(problem, &bound_bytes)) != DNNMEM_OK) return r;
  if (bound_bytes > w->plan_bytes) w->plan_bytes = bound_bytes;
  w->pools = NULL;
  n = problem->count;
  return dnnmem__conflict_layout(w, n, 0, scratch, scratch_bytes, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_conflict_scratch_size(const dnnmem_intervals *problem,
                                                           const dnnmem_plan_options *options,
                                                           size_t *out_bytes) {
  dnnmem__conflict_work w;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__conflict_carve(problem, options, &w, NULL, 0, out_bytes);
}

/* The subset of member records as a problem (ascending ids); with pools
   also *subp, the subset's pools problem (their allowed lists). */
static void dnnmem__conflict_subset(const dnnmem_intervals *problem, dnnmem__conflict_work *w,
                                    dnnmem_intervals *sub, dnnmem_plan_pools *subp) {
  const dnnmem_plan_pools *p = w->pools;
  int32_t i, m = 0, k = 0, j;
  if (p && p->allowed_offsets) w->sub_offsets[0] = 0;
  for (i = 0; i < problem->count; i++) {
    if (!w->member[i]) continue;
    w->records[m++] = problem->records[i];
    if (!p || !p->allowed_offsets) continue;
    for (j = p->allowed_offsets[i]; j < p->allowed_offsets[i + 1]; j++) w->sub_ids[k++] = p->allowed_ids[j];
    w->sub_offsets[m] = k;
  }
  sub->records = w->records;
  sub->count = m;
  sub->alignment = problem->alignment;
  if (!p) return;
  *subp = *p;
  subp->intervals = sub;
  if (p->allowed_offsets) subp->allowed_offsets = w->sub_offsets, subp->allowed_ids = w->sub_ids;
}

/* "Do the member records fit the capacity?": 1, 0 proven not, -1 unknown;
   the first decision left unanswered names result->stop. */
static dnnmem_result dnnmem__conflict_ask(const dnnmem_intervals *problem, dnnmem__conflict_work *w,
                                          dnnmem_plan_conflict_result *res, int32_t *feasible,
                                          dnnmem_plan_stop *stop) {
  dnnmem_intervals sub;
  dnnmem_plan_pools subp;
  dnnmem_plan_result pr;
  dnnmem_result r;
  dnnmem__conflict_subset(problem, w, &sub, &subp);
  if (w->pools) { /* the subset's pools plan: found, proven impossible, or neither */
    dnnmem_plan_pools_result qr;
    r = dnnmem_plan_pools_solve(&subp, &w->pools_ask, w->pool_of, w->offsets, NULL, &qr, w->plan, w->plan_bytes);
    if (r != DNNMEM_OK && r != DNNMEM_ERR_INFEASIBLE) return r;
    pr.nodes = qr.nodes, pr.feasible = qr.feasible, pr.stop = qr.stop;
    if (qr.feasible == 1) pr.stop = DNNMEM_PLAN_STOP_PROVED; /* a plan answers the question */
  } else {
    r = dnnmem_plan_solve(&sub, &w->ask, w->offsets, &pr, w->plan, w->plan_bytes);
    if (r != DNNMEM_OK) return r;
  }
  res->decisions++;
  res->nodes += pr.nodes;
  *feasible = pr.feasible;
  *stop = pr.stop;
  if (pr.feasible == -1 && res->stop == DNNMEM_PLAN_STOP_PROVED) res->stop = pr.stop;
  return DNNMEM_OK;
}

/* Whether the member records' lower bound exceeds the capacity (pools:
   proves that no plan exists). */
static dnnmem_result dnnmem__plan_pools_lower_bound(const dnnmem_plan_pools *problem, int64_t *out_bound,
                                                    void *scratch, size_t scratch_bytes, dnnmem_error *e);

static int dnnmem__conflict_bound_exceeds(const dnnmem_intervals *problem, dnnmem__conflict_work *w) {
  dnnmem_intervals sub;
  dnnmem_plan_pools subp;
  int64_t bound = 0;
  dnnmem__conflict_subset(problem, w, &sub, &subp);
  if (w->pools) return dnnmem__plan_pools_lower_bound(&subp, &bound, w->plan, w->plan_bytes, NULL) == DNNMEM_ERR_INFEASIBLE;
  if (dnnmem__plan_lower_bound_core(&sub, &bound, w->plan, w->plan_bytes, NULL) != DNNMEM_OK) return 0;
  return bound > w->ask.capacity;
}

/* The step (a lower) where the member records hold the most bytes (gaps
   ignored), and those bytes; -1 for no members. */
static int64_t dnnmem__conflict_peak(const dnnmem_intervals *problem, dnnmem__conflict_work *w, int64_t *at) {
  const dnnmem_interval *rec = problem->records;
  int32_t i, j = 0, k, m = 0;
  int64_t load = 0, best = -1;
  for (i = 0; i < problem->count; i++)
    if (w->member[i]) w->ids[m] = w->by_upper[m] = i, m++;
  for (i = 0; i < problem->count; i++) w->keys[i] = rec[i].lower;
  dnnmem__radix_sort(w->ids, w->tmp, m, w->keys);
  for (i = 0; i < problem->count; i++) w->keys[i] = rec[i].upper;
  dnnmem__radix_sort(w->by_upper, w->tmp, m, w->keys);
  *at = 0;
  for (k = 0; k < m; k++) {
    int64_t t = rec[w->ids[k]].lower;
    load += rec[w->ids[k]].size;
    if (k + 1 < m && rec[w->ids[k + 1]].lower == t) continue;
    for (; j < m && rec[w->by_upper[j]].upper <= t; j++) load -= rec[w->by_upper[j]].size;
    if (load > best) best = load, *at = t;
  }
  return best;
}

/* Members in test order: farthest in time from step t first, then the
   smallest, then by id (stable radix passes). Returns their count. */
static int32_t dnnmem__conflict_order(const dnnmem_intervals *problem, dnnmem__conflict_work *w, int64_t t) {
  const dnnmem_interval *rec = problem->records;
  int32_t i, m = 0;
  for (i = 0; i < problem->count; i++)
    if (w->member[i]) w->set[m++] = i;
  for (i = 0; i < problem->count; i++) w->keys[i] = rec[i].size;
  dnnmem__radix_sort(w->set, w->tmp, m, w->keys);
  for (i = 0; i < problem->count; i++) {
    uint64_t d = rec[i].lower > t ? (uint64_t)rec[i].lower - (uint64_t)t
                 : rec[i].upper <= t ? (uint64_t)t - (uint64_t)rec[i].upper + 1u : 0u;
    w->keys[i] = d > (uint64_t)DNNMEM__I64_MAX ? DNNMEM__I64_MIN + 1 : -(int64_t)d;
  }
  dnnmem__radix_sort(w->set, w->tmp, m, w->keys);
  return m;
}

/* The cheap start: the records live at the step of the most bytes, the
   largest first, as few as make the lower bound exceed the capacity
   (binary search on the prefix; the prefix found is verified). 1 when it
   is a conflict (then the members), else 0 (members unchanged). */
static int dnnmem__conflict_from_load(const dnnmem_intervals *problem, dnnmem__conflict_work *w) {
  const dnnmem_interval *rec = problem->records;
  int32_t i, k = 0, lo = 1, hi;
  int64_t t;
  if (dnnmem__conflict_peak(problem, w, &t) <= 0) return 0;
  for (i = 0; i < problem->count; i++)
    if (w->member[i] && rec[i].lower <= t && t < rec[i].upper) w->set[k++] = i;
  for (i = 0; i < problem->count; i++) w->keys[i] = -rec[i].size;
  dnnmem__radix_sort(w->set, w->tmp, k, w->keys);
  DNNMEM_MEMSET(w->member, 0, (size_t)problem->count);
  for (i = 0; i < k; i++) w->member[w->set[i]] = 1;
  if (!dnnmem__conflict_bound_exceeds(problem, w)) {
    DNNMEM_MEMSET(w->member, 1, (size_t)problem->count);
    return 0;
  }
  hi = k;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    DNNMEM_MEMSET(w->member, 0, (size_t)problem->count);
    for (i = 0; i < mid; i++) w->member[w->set[i]] = 1;
    if (dnnmem__conflict_bound_exceeds(problem, w)) hi = mid;
    else lo = mid + 1;
  }
  DNNMEM_MEMSET(w->member, 0, (size_t)problem->count);
  for (i = 0; i < hi; i++) w->member[w->set[i]] = 1;
  return 1;
}

/* The second start: the problem's time components (records linked by
   meeting in time) are independent; ask each alone, the one holding the
   peak first. 1 when one is proven infeasible (then the members), else 0
   (every record a member again). */
static dnnmem_result dnnmem__conflict_from_components(const dnnmem_intervals *problem, dnnmem__conflict_work *w,
                                                      dnnmem_plan_conflict_result *res, int *found) {
  const dnnmem_interval *rec = problem->records;
  int32_t i, k, first, m = problem->count, pass, f;
  int64_t t, end;
  dnnmem_plan_stop stop;
  dnnmem_result r;
  *found = 0;
  DNNMEM_MEMSET(w->member, 1, (size_t)m);
  dnnmem__conflict_peak(problem, w, &t); /* w->ids: every record by lower */
  DNNMEM_MEMCPY(w->set, w->ids, (size_t)m * sizeof(int32_t));
  for (pass = 0; pass < 2; pass++) /* pass 0: the peak's component; 1: the others */
    for (first = 0; first < m; first = k) {
      end = rec[w->set[first]].upper;
      for (k = first + 1; k < m && rec[w->set[k]].lower < end; k++) end = dnnmem__max64(end, rec[w->set[k]].upper);
      if (first == 0 && k == m) return DNNMEM_OK; /* one component: the whole problem, already asked */
      if ((rec[w->set[first]].lower <= t && t < end) != (pass == 0)) continue;
      DNNMEM_MEMSET(w->member, 0, (size_t)m);
      for (i = first; i < k; i++) w->member[w->set[i]] = 1;
      if ((r = dnnmem__conflict_ask(problem, w, res, &f, &stop)) != DNNMEM_OK) return r;
      if (f == 0) {
        *found = 1;
        return DNNMEM_OK;
      }
      if (stop == DNNMEM_PLAN_STOP_TIME) pass = 2, k = m; /* told to stop */
    }
  DNNMEM_MEMSET(w->member, 1, (size_t)m);
  return DNNMEM_OK;
}

/* The search of both kinds (w carved): the whole problem asked, a start,
   then the deletion filter. */
static dnnmem_result dnnmem__conflict_run(const dnnmem_intervals *problem, dnnmem__conflict_work *w,
                                          int32_t *conflict, int32_t conflict_capacity,
                                          dnnmem_plan_conflict_result *result) {
  dnnmem_plan_conflict_result res;
  dnnmem_plan_stop stop = DNNMEM_PLAN_STOP_PROVED;
  dnnmem_result r;
  int32_t i, n, f = -1, m, pos, block, single = -1;
  int64_t t, capacity;
  int found = 0, from_load = 0;
  if (conflict_capacity < 0 || (conflict == NULL && conflict_capacity > 0)) return DNNMEM_ERR_INVALID_ARGUMENT;
  n = problem->count;
  capacity = w->ask.capacity;
  DNNMEM_MEMSET(&res, 0, sizeof(res));
  res.feasible = -1;
  res.stop = DNNMEM_PLAN_STOP_PROVED;
  DNNMEM_MEMSET(w->member, 1, (size_t)n);
  if ((r = dnnmem__conflict_ask(problem, w, &res, &f, &stop)) != DNNMEM_OK) return r;
  if (f == 1) {
    res.feasible = 1;
    if (result) *result = res;
    return DNNMEM_OK;
  }
  /* one record alone: its top (size, or a fixed record's offset + size);
     pools refuse such a record before */
  for (i = 0; i < n && single < 0 && !w->pools; i++) {
    const dnnmem_interval *rec = &problem->records[i];
    if (rec->size > capacity || ((rec->flags & DNNMEM_INTERVAL_FIXED) && rec->fixed_offset > capacity - rec->size))
      single = i;
  }
  if (single >= 0) {
    DNNMEM_MEMSET(w->member, 0, (size_t)n);
    w->member[single] = 1;
    found = 1;
  } else if (dnnmem__conflict_from_load(problem, w)) {
    found = from_load = 1;
  } else {
    if ((r = dnnmem__conflict_from_components(problem, w, &res, &found)) != DNNMEM_OK) return r;
    if (!found && f == 0) found = 1; /* the whole problem */
  }
  if (!found) {
    if (result) *result = res;
    return DNNMEM_OK;
  }
  /* Deletion filter by blocks: drop a block while the rest stays proven
     infeasible (then try twice as many), else halve it; a single record
     whose removal makes the rest fit stays, proven needed. */
  res.feasible = 0;
  res.minimal = 1;
  dnnmem__conflict_peak(problem, w, &t);
  m = dnnmem__conflict_order(problem, w, t);
  block = from_load || m < 4 ? 1 : m / 2;
  for (pos = 0; pos < m && single < 0;) {
    if (block > m - pos) block = m - pos;
    for (i = pos; i < pos + block; i++) w->member[w->set[i]] = 0;
    if ((r = dnnmem__conflict_ask(problem, w, &res, &f, &stop)) != DNNMEM_OK) return r;
    if (f == 0) {
      pos += block;
      block = block <= (m - pos) / 2 ? 2 * block : m - pos;
      if (block < 1) block = 1;
      continue;
    }
    for (i = pos; i < pos + block; i++) w->member[w->set[i]] = 1;
    if (block > 1) {
      block /= 2;
      continue;
    }
    if (f == -1) res.minimal = 0;
    pos++;
    if (f == -1 && stop == DNNMEM_PLAN_STOP_TIME) break; /* told to stop: the rest stays untested */
  }
  if (pos < m && single < 0) res.minimal = 0;
  for (i = 0; i < n; i++) res.count += w->member[i];
  if (result) *result = res;
  if (res.count > conflict_capacity) return DNNMEM_ERR_OUTPUT_TOO_SMALL;
  for (i = 0, m = 0; i < n; i++)
    if (w->member[i]) conflict[m++] = i;
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__plan_conflict(const dnnmem_intervals *problem,
                                           const dnnmem_plan_options *options, int32_t *conflict,
                                           int32_t conflict_capacity, dnnmem_plan_conflict_result *result,
                                           void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__conflict_work w;
  dnnmem_result r;
  if ((r = dnnmem_intervals_check(problem, e)) != DNNMEM_OK) return r;
  if (dnnmem__has_links(problem)) /* subsets would cut links */
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if ((r = dnnmem__conflict_carve(problem, options, &w, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
  return dnnmem__conflict_run(problem, &w, conflict, conflict_capacity, result);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_conflict(const dnnmem_intervals *problem, const dnnmem_plan_options *options,
                                              int32_t *conflict, int32_t conflict_capacity,
                                              dnnmem_plan_conflict_result *result, void *scratch,
                                              size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__plan_conflict(problem, options, conflict, conflict_capacity, result, scratch, scratch_bytes, &e));
}


/* ---- pools (several memories: SRAM + DRAM) ------------------------------ */

static const char dnnmem__pools_algo_names[DNNMEM_PLAN_POOLS_ALGO_COUNT][DNNMEM__NAME_BYTES] = {"best", "greedy", "improve",
#ifndef DNNMEM_NO_EXACT
                                                                                  "exact"
#endif
};

DNNMEM__ENUM_NAMES(dnnmem_plan_pools_algo, dnnmem__pools_algo_names, DNNMEM_PLAN_POOLS_ALGO_COUNT)

#define DNNMEM__POOLS_INF DNNMEM__I64_MAX
/* improve's move re-plans plan at most this many x n records in all (each
   is dnnmem_plan_solve on a pool: bounded work on large graphs) */
#define DNNMEM__POOLS_REPLAN_WORK 16

/* Record i's allowed pools (in preference order); all = 0..P-1. */
static int32_t dnnmem__pools_allowed(const dnnmem_plan_pools *p, const int32_t *all, int32_t i, const int32_t **ids) {
  if (p->allowed_offsets == NULL) {
    *ids = all;
    return p->num_pools;
  }
  *ids = p->allowed_ids + p->allowed_offsets[i];
  return p->allowed_offsets[i + 1] - p->allowed_offsets[i];
}

/* The alignment of pool q's arena (the problem's and the pool's). */
static int64_t dnnmem__pools_alignment(const dnnmem_plan_pools *p, int32_t q) {
  int64_t a = p->intervals->alignment > 1 ? p->intervals->alignment : 1;
  return dnnmem__max64(a, p->pools[q].alignment);
}

/* Whether a record fits pool q alone (a fixed offset aligned and within). */
static int dnnmem__pools_fits_alone(const dnnmem_plan_pools *p, const dnnmem_interval *rec, int32_t q) {
  int64_t cap = p->pools[q].capacity, a = dnnmem_interval_alignment(rec, dnnmem__pools_alignment(p, q));
  if (rec->flags & DNNMEM_INTERVAL_FIXED)
    return rec->fixed_offset % a == 0 && (cap == 0 || rec->fixed_offset <= cap - rec->size);
  return cap == 0 || rec->size <= cap;
}

static int dnnmem__pools_usable(const dnnmem_plan_pools *p, int32_t r, int32_t q) {
  return dnnmem__pools_fits_alone(p, &p->intervals->records[r], q);
}

/* The problem's rules (dnnmem_plan_pools_solve's comment); require_fit: every
   record fits one of its pools alone. */
static dnnmem_result dnnmem__pools_validate(const dnnmem_plan_pools *p, int require_fit, dnnmem_error *e) {
  const dnnmem_interval *rec;
  dnnmem_result r;
  int32_t i, j, k, n, q;
  int64_t max_cost = 0, max_align = 1, total = 0, cost_total = 0, t;
  if (p == NULL || p->intervals == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (p->pools == NULL || p->num_pools < 1) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_POOL);
  if ((r = dnnmem_intervals_check(p->intervals, e)) != DNNMEM_OK) return r;
  for (q = 0; q < p->num_pools; q++) { /* a pool's fault: index -1, other the pool */
    const dnnmem_pool *pool = &p->pools[q];
    if (pool->capacity < 0) return dnnmem__fail2(e, DNNMEM_ERR_NEGATIVE, -1, q, DNNMEM_FIELD_CAPACITY);
    if (pool->cost < 0) return dnnmem__fail2(e, DNNMEM_ERR_NEGATIVE, -1, q, DNNMEM_FIELD_COST);
    if (pool->alignment < 0 || (pool->alignment > 1 && !dnnmem__is_pow2(pool->alignment)))
      return dnnmem__fail2(e, pool->alignment < 0 ? DNNMEM_ERR_NEGATIVE : DNNMEM_ERR_ALIGNMENT, -1, q,
                           DNNMEM_FIELD_ALIGNMENT);
    max_cost = dnnmem__max64(max_cost, pool->cost);
    max_align = dnnmem__max64(max_align, pool->alignment);
  }
  n = p->intervals->count;
  rec = p->intervals->records;
  if (p->allowed_offsets != NULL) {
    if (p->allowed_offsets[0] != 0) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, 0, DNNMEM_FIELD_POOL);
    for (i = 0; i < n; i++)
      if (p->allowed_offsets[i + 1] < p->allowed_offsets[i]) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_POOL);
    if (p->allowed_offsets[n] > 0 && p->allowed_ids == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_POOL);
    for (i = 0; i < n; i++)
      for (j = p->allowed_offsets[i]; j < p->allowed_offsets[i + 1]; j++) {
        q = p->allowed_ids[j];
        if (q < 0 || q >= p->num_pools) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, i, DNNMEM_FIELD_POOL);
        for (k = p->allowed_offsets[i]; k < j; k++)
          if (p->allowed_ids[k] == q) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i, DNNMEM_FIELD_POOL);
      }
  }
  /* every arena representable with the largest pool alignment; every cost too */
  for (i = 0; i < n; i++) {
    int64_t a = dnnmem_interval_alignment(&rec[i], dnnmem__max64(max_align, p->intervals->alignment));
    if (dnnmem__align_up_overflows(rec[i].size, a, &t) || dnnmem__add_overflows(total, t, &total) ||
        dnnmem__add_overflows(total, a - 1, &total) ||
        ((rec[i].flags & DNNMEM_INTERVAL_FIXED) && dnnmem__add_overflows(total, rec[i].fixed_offset, &total)) ||
        dnnmem__mul_overflows(rec[i].size, max_cost, &t) || dnnmem__add_overflows(cost_total, t, &cost_total))
      return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, i, DNNMEM_FIELD_SIZE);
  }
  if (require_fit) {
    int32_t all_dummy = 0;
    for (i = 0; i < n; i++) {
      const int32_t *ids;
      int32_t cnt, ok = 0;
      if (p->allowed_offsets == NULL) {
        for (q = 0; q < p->num_pools && !ok; q++) ok = dnnmem__pools_usable(p, i, q);
      } else {
        cnt = dnnmem__pools_allowed(p, &all_dummy, i, &ids);
        for (k = 0; k < cnt && !ok; k++) ok = dnnmem__pools_usable(p, i, ids[k]);
      }
      if (!ok) return dnnmem__fail(e, DNNMEM_ERR_PLAN_POOL_CAPACITY, i, DNNMEM_FIELD_SIZE);
    }
  }
  return DNNMEM_OK;
}

typedef struct dnnmem__pools_work {
  const dnnmem_plan_pools *p;
  const dnnmem_interval *rec;
  const int64_t *weight;  /* n: the bytes a record's cost counts (a tied
                             group's: its members' sizes); NULL: the sizes */
  int32_t n, P, K, T;
  int32_t *all;           /* P: 0 .. P-1 (the default allowed list) */
  int32_t *pool_by_cost;  /* P: by cost, then index */
  int32_t *class_of_pool; /* P: index of its cost among the distinct costs */
  int64_t *class_cost;    /* K distinct costs, ascending */
  int64_t *mcost;         /* n: the cheapest cost of a pool the record fits alone */
  int32_t *mclass;        /* n: its class */
  int32_t *klo, *khi;     /* n: the record's candidate steps [klo, khi) */
  int64_t *steps;         /* T distinct lowers, ascending */
  int32_t *prev;          /* T: steps before the first lower live at the step */
  int64_t *demand;        /* T x K: bytes live of unassigned records per class */
  int64_t *demand_node;   /* T x K: the same with each unassigned record in
                             the cheapest pool its bytes still fit (a node's) */
  int64_t *used;          /* T x P: bytes live of assigned records per pool */
  int64_t *residual;      /* P */
  int64_t *dp;            /* T + 1: prefix maxima of the chain sums */
  int64_t base;           /* assigned: size x cost; unassigned: size x mcost */
  /* plans */
  int32_t *pool_cur, *pool_best, *order, *choice, *ids, *tmp, *sub_map;
  int64_t *off_cur, *off_best, *off_save, *keys, *sub_off;
  dnnmem_interval *sub;
  void *plan;
  size_t plan_bytes;
  /* the search's state */
  dnnmem_plan_pools_options opt;
  dnnmem_plan_pools_result res;
  int64_t best_cost, best_arenas;
  int stopped;            /* options.stop said so */
  int64_t replan_budget;  /* improve: records its move re-plans may still plan */
  dnnmem_plan_stop pack_stop; /* the first packing left undecided (PROVED: none) */
} dnnmem__pools_work;

/* One layout for the bound (what == 0), the solve (1) and the check (2). */
static dnnmem_result dnnmem__pools_carve(const dnnmem_plan_pools *p, dnnmem__pools_work *w, int what, void *scratch,
                                         size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem_result r;
  int32_t n = p->intervals->count, P = p->num_pools, m = n > P ? n : P;
  int64_t tp;
  w->plan_bytes = 0;
  if (what == 1) {
    dnnmem_intervals sized;
    dnnmem_plan_options o;
    size_t b = 0;
    /* packings of pools: whole lifetimes, in-place ties the packer's choice */
    sized.records = dnnmem__has_links(p->intervals) ? p->intervals->records : NULL;
    sized.count = n;
    sized.alignment = p->intervals->alignment;
    DNNMEM_MEMSET(&o, 0, sizeof(o));
    if ((r = dnnmem_plan_solve_scratch_size(&sized, &o, &w->plan_bytes)) != DNNMEM_OK) return r;
#ifndef DNNMEM_NO_EXACT
    o.algo = DNNMEM_PLAN_EXACT;
    if ((r = dnnmem_plan_solve_scratch_size(&sized, &o, &b)) != DNNMEM_OK) return r;
    if (b > w->plan_bytes) w->plan_bytes = b;
#endif
    (void)b;
  } else if (what == 2) {
    if ((r = dnnmem_plan_check_scratch_size(p->intervals, &w->plan_bytes)) != DNNMEM_OK) return r;
  }
  if (dnnmem__mul_overflows((int64_t)n + 1, P, &tp)) return DNNMEM_ERR_OVERFLOW;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  w->all = DNNMEM__TAKE(&s, int32_t, P);
  w->ids = DNNMEM__TAKE(&s, int32_t, m);
  w->tmp = DNNMEM__TAKE(&s, int32_t, m);
  w->keys = DNNMEM__TAKE(&s, int64_t, m);
  if (what == 2) {
    w->sub = DNNMEM__TAKE(&s, dnnmem_interval, n);
    w->sub_off = DNNMEM__TAKE(&s, int64_t, n);
    w->sub_map = DNNMEM__TAKE(&s, int32_t, n);
  } else {
    w->pool_by_cost = DNNMEM__TAKE(&s, int32_t, P);
    w->class_of_pool = DNNMEM__TAKE(&s, int32_t, P);
    w->class_cost = DNNMEM__TAKE(&s, int64_t, P);
    w->residual = DNNMEM__TAKE(&s, int64_t, P);
    w->mcost = DNNMEM__TAKE(&s, int64_t, n);
    w->mclass = DNNMEM__TAKE(&s, int32_t, n);
    w->klo = DNNMEM__TAKE(&s, int32_t, n);
    w->khi = DNNMEM__TAKE(&s, int32_t, n);
    w->steps = DNNMEM__TAKE(&s, int64_t, n);
    w->prev = DNNMEM__TAKE(&s, int32_t, n);
    w->dp = DNNMEM__TAKE(&s, int64_t, (int64_t)n + 1);
    w->demand = DNNMEM__TAKE(&s, int64_t, tp); /* T x K and T x P, T <= n, K <= P */
    w->used = DNNMEM__TAKE(&s, int64_t, tp);
    w->demand_node = what == 1 ? DNNMEM__TAKE(&s, int64_t, tp) : NULL;
  }
  if (what == 1) {
    w->pool_cur = DNNMEM__TAKE(&s, int32_t, n);
    w->pool_best = DNNMEM__TAKE(&s, int32_t, n);
    w->order = DNNMEM__TAKE(&s, int32_t, n);
    w->choice = DNNMEM__TAKE(&s, int32_t, n);
    w->off_cur = DNNMEM__TAKE(&s, int64_t, n);
    w->off_best = DNNMEM__TAKE(&s, int64_t, n);
    w->off_save = DNNMEM__TAKE(&s, int64_t, n);
    w->sub = DNNMEM__TAKE(&s, dnnmem_interval, n);
    w->sub_off = DNNMEM__TAKE(&s, int64_t, n);
    w->sub_map = DNNMEM__TAKE(&s, int32_t, n);
  }
  w->plan = DNNMEM__TAKE(&s, unsigned char, w->plan_bytes);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* The first index of v[0..len) (ascending) that is >= x. */
static int32_t dnnmem__pools_lower_index(const int64_t *v, int32_t len, int64_t x) {
  int32_t lo = 0, hi = len;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (v[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Adds sign x the bytes record r holds at each of its candidate steps (its
   size; in a gap, the gap's window) to row[k * width + col] (the bound's
   demand or used table). */
static void dnnmem__pools_add_steps(dnnmem__pools_work *w, int32_t r, int64_t *table, int32_t width, int32_t col,
                                    int64_t sign) {
  const dnnmem_interval *rec = &w->rec[r];
  int32_t k, g = 0;
  for (k = w->klo[r]; k < w->khi[r]; k++) {
    int64_t t = w->steps[k];
    while (g < rec->num_gaps && rec->gaps[g].upper <= t) g++;
    if (g < rec->num_gaps && rec->gaps[g].lower <= t)
      table[(int64_t)k * width + col] += sign * (rec->gaps[g].window_upper - rec->gaps[g].window_lower);
    else
      table[(int64_t)k * width + col] += sign * rec->size;
  }
}

/* The bytes record i's cost counts. */
static int64_t dnnmem__pools_weight(const dnnmem__pools_work *w, int32_t i) {
  return w->weight ? w->weight[i] : w->rec[i].size;
}

/* Prepares the bound: pools by cost, classes, each record's cheapest pool,
   the candidate steps and their chain links, and the tables with nothing
   assigned. */
static void dnnmem__pools_prepare(dnnmem__pools_work *w, const dnnmem_plan_pools *p) {
  int32_t i, k, q, n = p->intervals->count, P = p->num_pools;
  const int32_t *ids;
  int64_t run_max;
  w->p = p;
  w->rec = p->intervals->records;
  w->n = n;
  w->P = P;
  for (q = 0; q < P; q++) w->all[q] = q, w->keys[q] = p->pools[q].cost;
  for (q = 0; q < P; q++) w->pool_by_cost[q] = q;
  dnnmem__radix_sort(w->pool_by_cost, w->tmp, P, w->keys);
  w->K = 0;
  for (k = 0; k < P; k++) {
    int64_t c = p->pools[w->pool_by_cost[k]].cost;
    if (w->K == 0 || w->class_cost[w->K - 1] != c) w->class_cost[w->K++] = c;
    w->class_of_pool[w->pool_by_cost[k]] = w->K - 1;
  }
  w->base = 0;
  for (i = 0; i < n; i++) {
    int32_t cnt = dnnmem__pools_allowed(p, w->all, i, &ids), best = -1;
    for (k = 0; k < cnt; k++)
      if (dnnmem__pools_usable(p, i, ids[k]) && (best < 0 || p->pools[ids[k]].cost < p->pools[best].cost))
        best = ids[k];
    if (best < 0) best = cnt > 0 ? ids[0] : 0; /* the checker's bound: not reached by solve */
    w->mcost[i] = p->pools[best].cost;
    w->mclass[i] = w->class_of_pool[best];
    w->base += dnnmem__pools_weight(w, i) * w->mcost[i];
  }
  /* candidate steps: the distinct lowers; the chain link of step t is the
     first lower of a record live at t (records by lower, prefix max of upper) */
  for (i = 0; i < n; i++) w->ids[i] = i, w->keys[i] = w->rec[i].lower;
  dnnmem__radix_sort(w->ids, w->tmp, n, w->keys);
  w->T = 0;
  for (i = 0; i < n; i++)
    if (w->T == 0 || w->steps[w->T - 1] != w->rec[w->ids[i]].lower) w->steps[w->T++] = w->rec[w->ids[i]].lower;
  run_max = DNNMEM__I64_MIN;
  for (i = 0; i < n; i++) { /* keys: prefix max of upper in lower order */
    run_max = dnnmem__max64(run_max, w->rec[w->ids[i]].upper);
    w->keys[i] = run_max;
  }
  for (k = 0; k < w->T; k++) {
    int32_t j = dnnmem__pools_lower_index(w->keys, n, w->steps[k] + 1); /* first prefix max > t */
    w->prev[k] = dnnmem__pools_lower_index(w->steps, w->T, w->rec[w->ids[j]].lower);
  }
  for (i = 0; i < n; i++) {
    w->klo[i] = dnnmem__pools_lower_index(w->steps, w->T, w->rec[i].lower);
    w->khi[i] = dnnmem__pools_lower_index(w->steps, w->T, w->rec[i].upper);
  }
  DNNMEM_MEMSET(w->demand, 0, (size_t)w->T * (size_t)w->K * sizeof(int64_t));
  DNNMEM_MEMSET(w->used, 0, (size_t)w->T * (size_t)P * sizeof(int64_t));
  for (i = 0; i < n; i++)
    if (w->rec[i].size > 0) dnnmem__pools_add_steps(w, i, w->demand, w->K, w->mclass[i], 1);
}

/* Assigns (sign 1) or unassigns (-1) record r to pool q in the tables. */
static DNNMEM__UNUSED void dnnmem__pools_assign(dnnmem__pools_work *w, int32_t r, int32_t q, int64_t sign) {
  if (w->rec[r].size == 0) return;
  dnnmem__pools_add_steps(w, r, w->demand, w->K, w->mclass[r], -sign);
  dnnmem__pools_add_steps(w, r, w->used, w->P, q, sign);
  w->base += sign * dnnmem__pools_weight(w, r) * (w->p->pools[q].cost - w->mcost[r]);
}

/* The bound of the current tables: base plus the largest sum of step
   extras over a chain of steps with disjoint live records; INF when some
   step's bytes exceed the capacities. */
static int64_t dnnmem__pools_bound_of(dnnmem__pools_work *w, const int64_t *demand_table, int64_t base) {
  const dnnmem_pool *pools = w->p->pools;
  int32_t k, c, q, j;
  w->dp[0] = 0;
  for (k = 0; k < w->T; k++) {
    int64_t extra = 0, chain;
    const int64_t *used = w->used + (int64_t)k * w->P, *demand = demand_table + (int64_t)k * w->K;
    for (q = 0; q < w->P; q++) {
      w->residual[q] = pools[q].capacity == 0 ? DNNMEM__POOLS_INF : pools[q].capacity - used[q];
      if (w->residual[q] < 0) return DNNMEM__POOLS_INF;
    }
    /* north-west corner: classes by cost up, pools by cost up (the cost
       matrix max(0, pool cost - class cost) is Monge: this fill is optimal) */
    for (c = 0, j = 0; c < w->K; c++) {
      int64_t d = demand[c];
      while (d > 0) {
        int32_t pool;
        int64_t take;
        if (j == w->P) return DNNMEM__POOLS_INF;
        pool = w->pool_by_cost[j];
        take = dnnmem__min64(d, w->residual[pool]);
        if (pools[pool].cost > w->class_cost[c]) extra += take * (pools[pool].cost - w->class_cost[c]);
        d -= take;
        if (w->residual[pool] != DNNMEM__POOLS_INF) w->residual[pool] -= take;
        if (w->residual[pool] == 0) j++;
      }
    }
    chain = extra + w->dp[w->prev[k]];
    w->dp[k + 1] = dnnmem__max64(w->dp[k], chain);
  }
  return base + w->dp[w->T];
}

static int64_t dnnmem__pools_bound(dnnmem__pools_work *w) { return dnnmem__pools_bound_of(w, w->demand, w->base); }

/* Whether record r's bytes fit pool q at each of its steps beside the
   assigned records (forward checking: else no packing can hold it). */
static DNNMEM__UNUSED int dnnmem__pools_fits(const dnnmem__pools_work *w, int32_t r, int32_t q) {
  const dnnmem_interval *rec = &w->rec[r];
  int64_t cap = w->p->pools[q].capacity;
  int32_t k, g = 0;
  if (cap == 0) return 1;
  for (k = w->klo[r]; k < w->khi[r]; k++) {
    int64_t t = w->steps[k];
    while (g < rec->num_gaps && rec->gaps[g].upper <= t) g++;
    if (g < rec->num_gaps && rec->gaps[g].lower <= t) continue;
    if (w->used[(int64_t)k * w->P + q] > cap - rec->size) return 0;
  }
  return 1;
}

/* A node's bound: each unassigned record (order[from .. m)) priced at the
   cheapest pool it may use whose room it still fits at every step (no
   plan below the node puts it anywhere cheaper), its bytes moved to that
   class; INF when one fits nowhere. */
static DNNMEM__UNUSED int64_t dnnmem__pools_node_bound(dnnmem__pools_work *w, int32_t from, int32_t m) {
  int64_t base = w->base;
  int32_t k, copied = 0;
  for (k = from; k < m; k++) {
    int32_t r = w->order[k], cnt, a, best = -1;
    const int32_t *ids;
    cnt = dnnmem__pools_allowed(w->p, w->all, r, &ids);
    for (a = 0; a < cnt; a++) {
      int32_t q = ids[a];
      if ((best < 0 || w->p->pools[q].cost < w->p->pools[best].cost) && dnnmem__pools_usable(w->p, r, q) &&
          dnnmem__pools_fits(w, r, q))
        best = q;
    }
    if (best < 0) return DNNMEM__POOLS_INF;
    if (w->p->pools[best].cost == w->mcost[r]) continue;
    if (!copied) {
      DNNMEM_MEMCPY(w->demand_node, w->demand, (size_t)w->T * (size_t)w->K * sizeof(int64_t));
      copied = 1;
    }
    base += dnnmem__pools_weight(w, r) * (w->p->pools[best].cost - w->mcost[r]);
    dnnmem__pools_add_steps(w, r, w->demand_node, w->K, w->mclass[r], -1);
    dnnmem__pools_add_steps(w, r, w->demand_node, w->K, w->class_of_pool[best], 1);
  }
  return dnnmem__pools_bound_of(w, copied ? w->demand_node : w->demand, base);
}

/* ---- pools: in-place reuse and aliasing ----------------------------------- */

/* Linked records across pools. A tied group (dnnmem__ties) is one buffer, so
   it goes to one pool that all its members may use; each record still costs
   its own size x its pool's cost (a tensor's bytes are read and written
   where it lives, whether or not it shares them): ties save room, not cost.
   solve plans each tie set of dnnmem_plan_solve (all, equal sizes, none;
   a tie also needs a pool both chains may use) as an ordinary problem of
   merged records whose cost counts their members' bytes, and keeps the
   cheapest plan (then the smallest arenas). */
typedef struct dnnmem__pools_tied {
  dnnmem__ties t;
  uint64_t *cls_mask;   /* classes: pools all members may use (bit q % 64) */
  int32_t *aoff, *aids; /* the merged problem's allowed lists (CSR) */
  int32_t *gpool, *pcount;
  int64_t *weight, *goff, *garena;
  unsigned char *core; /* the pools work of a problem of n records */
  size_t core_bytes;
} dnnmem__pools_tied;

static dnnmem_result dnnmem__pools_tied_carve(const dnnmem_plan_pools *p, int what, dnnmem__pools_tied *tt,
                                              void *scratch, size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__pools_work w;
  dnnmem_result r;
  int32_t n = p->intervals->count, P = p->num_pools;
  int64_t ids = (int64_t)n * P;
  size_t cb = 0;
  if (p->allowed_offsets != NULL) {
    if (p->allowed_offsets[n] < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
    ids = p->allowed_offsets[n];
  }
  if ((r = dnnmem__pools_carve(p, &w, what, NULL, 0, &cb)) != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  dnnmem__ties_layout(&s, n, &tt->t);
  if (what != 2) { /* the bound (its segments' members) and the merged problems */
    tt->t.who = DNNMEM__TAKE(&s, int32_t, 2 * (int64_t)n);
    tt->aoff = DNNMEM__TAKE(&s, int32_t, (int64_t)n + 1);
    tt->aids = DNNMEM__TAKE(&s, int32_t, ids);
    tt->pcount = DNNMEM__TAKE(&s, int32_t, P);
    tt->weight = DNNMEM__TAKE(&s, int64_t, n);
  }
  if (what == 1) {
    tt->cls_mask = DNNMEM__TAKE(&s, uint64_t, n);
    tt->t.mask = DNNMEM__TAKE(&s, uint64_t, n);
    tt->gpool = DNNMEM__TAKE(&s, int32_t, n);
    tt->goff = DNNMEM__TAKE(&s, int64_t, n);
    tt->garena = DNNMEM__TAKE(&s, int64_t, P);
  }
  tt->core = DNNMEM__TAKE(&s, unsigned char, cb);
  tt->core_bytes = cb;
  return dnnmem__scratch_end(&s, out_bytes);
}

/* The scratch of a pools operation (what: 0 bound, 1 solve, 2 check), with
   the ties' when the records carry links. */
static dnnmem_result dnnmem__pools_size(const dnnmem_plan_pools *problem, int what, size_t *out_bytes) {
  dnnmem__pools_work w;
  dnnmem__pools_tied tt;
  if (out_bytes == NULL || problem == NULL || problem->intervals == NULL || problem->num_pools < 1)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  if (problem->intervals->count < 0) return DNNMEM_ERR_NEGATIVE;
  if (dnnmem__has_links(problem->intervals)) return dnnmem__pools_tied_carve(problem, what, &tt, NULL, 0, out_bytes);
  return dnnmem__pools_carve(problem, &w, what, NULL, 0, out_bytes);
}

/* Validated problem: carves and checks the link rules
   (dnnmem__ties_prepare); a solve also gets each class's pools as a mask
   (bit q % 64), the tie sets' filter. */
static dnnmem_result dnnmem__pools_tied_begin(const dnnmem_plan_pools *p, int what, dnnmem__pools_tied *tt,
                                              dnnmem__pools_work *w, void *scratch, size_t scratch_bytes,
                                              dnnmem_error *e) {
  int32_t i, k, n = p->intervals->count;
  dnnmem_result r = dnnmem__pools_tied_carve(p, what, tt, scratch, scratch_bytes, NULL);
  if (r != DNNMEM_OK) return r;
  if ((r = dnnmem__ties_prepare(&tt->t, p->intervals->records, e)) != DNNMEM_OK) return r;
  if ((r = dnnmem__pools_carve(p, w, what, tt->core, tt->core_bytes, NULL)) != DNNMEM_OK) return r;
  w->weight = NULL;
  if (what != 1) return DNNMEM_OK;
  for (k = 0; k < tt->t.classes; k++) tt->cls_mask[k] = ~(uint64_t)0;
  for (i = 0; i < p->num_pools; i++) w->all[i] = i;
  for (i = 0; i < n; i++) {
    const int32_t *ids;
    int32_t cnt = dnnmem__pools_allowed(p, w->all, i, &ids);
    uint64_t m = 0;
    for (k = 0; k < cnt; k++) m |= (uint64_t)1 << (ids[k] & 63);
    tt->cls_mask[tt->t.cls[i]] &= m;
  }
  return DNNMEM_OK;
}

/* The bound with links (w carved, the ties prepared). A class sits in one
   pool that all its members may use and fit, so each member costs at least
   its size x the cheapest such pool's cost (the base). The classes that
   any plan may let share bytes (every alias and reuse link: UNION) merge
   into components; at a step, a component's tallest live member holds its
   bytes alone (no record of another component shares them), so the
   fractional assignment of those members at their own prices is a
   relaxation: the pools bound with each component's height at each step
   as its demand, priced as the member painted there. Chained steps have no
   record live at two of them, so their excesses come from different
   records. DNNMEM_ERR_PLAN_POOL_CAPACITY: a class has no such pool;
   *bound DNNMEM__POOLS_INF: no plan. */
static int dnnmem__pools_tied_problem(dnnmem__pools_tied *tt, const dnnmem_plan_pools *p, dnnmem__pools_work *w,
                                      int32_t groups, int keep_links, dnnmem_intervals *mi, dnnmem_plan_pools *mp);

static dnnmem_result dnnmem__pools_tied_bound(dnnmem__pools_work *w, dnnmem__pools_tied *tt,
                                              const dnnmem_plan_pools *p, int64_t *bound) {
  dnnmem__ties *t = &tt->t;
  int32_t i, g, x, k, groups, *cheapest = t->tmp;
  int64_t *members = t->save_bytes;
  dnnmem_intervals mi;
  dnnmem_plan_pools mp;
  dnnmem__pools_prepare(w, p);
  /* each class at the cheapest pool all its members may use that takes it
     as one record (its height, alignment, fixed offset) */
  dnnmem__ties_select(t, DNNMEM__TIES_NONE, NULL);
  groups = dnnmem__ties_merge(t);
  if (!dnnmem__pools_tied_problem(tt, p, w, groups, 0, &mi, &mp)) return DNNMEM_ERR_PLAN_POOL_CAPACITY;
  for (g = 0; g < groups; g++) {
    cheapest[g] = -1;
    for (k = tt->aoff[g]; k < tt->aoff[g + 1]; k++)
      if (dnnmem__pools_fits_alone(p, &t->merged[g], tt->aids[k]) &&
          (cheapest[g] < 0 || p->pools[tt->aids[k]].cost < p->pools[cheapest[g]].cost))
        cheapest[g] = tt->aids[k];
    if (cheapest[g] < 0) return DNNMEM_ERR_PLAN_POOL_CAPACITY;
  }
  for (i = 0; i < w->n; i++) {
    int32_t q = cheapest[t->group[i]];
    w->base += w->rec[i].size * (p->pools[q].cost - w->mcost[i]);
    w->mcost[i] = p->pools[q].cost;
    w->mclass[i] = w->class_of_pool[q];
  }
  /* the components, each step's demand at its tallest member's price */
  dnnmem__ties_select(t, DNNMEM__TIES_UNION, NULL);
  groups = dnnmem__ties_merge(t);
  for (g = 0; g < groups; g++) members[g] = 0;
  for (i = 0; i < w->n; i++) members[t->group[i]]++;
  DNNMEM_MEMSET(w->demand, 0, (size_t)w->T * (size_t)w->K * sizeof(int64_t));
  for (g = 0; g < groups; g++) {
    if (members[g] == 1) { /* the record as it is (gaps and all) */
      dnnmem__pools_add_steps(w, t->rep[g], w->demand, w->K, w->mclass[t->rep[g]], 1);
      continue;
    }
    for (x = t->start[g]; x < t->start[g + 1] - 1; x++) {
      int32_t hi = dnnmem__pools_lower_index(w->steps, w->T, t->times[x + 1]), who = t->who[x];
      if (who < 0) continue; /* no member alive */
      for (k = dnnmem__pools_lower_index(w->steps, w->T, t->times[x]); k < hi; k++)
        w->demand[(int64_t)k * w->K + w->mclass[who]] += t->height[x];
    }
  }
  *bound = dnnmem__pools_bound_of(w, w->demand, w->base);
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_lower_bound_scratch_size(const dnnmem_plan_pools *problem,
                                                                    size_t *out_bytes) {
  return dnnmem__pools_size(problem, 0, out_bytes);
}

static dnnmem_result dnnmem__plan_pools_lower_bound(const dnnmem_plan_pools *problem, int64_t *out_bound,
                                                    void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__pools_work w;
  dnnmem_result r;
  int64_t b;
  if ((r = dnnmem__pools_validate(problem, 1, e)) != DNNMEM_OK) return r;
  if (dnnmem__has_links(problem->intervals)) {
    dnnmem__pools_tied tt;
    if ((r = dnnmem__pools_tied_begin(problem, 0, &tt, &w, scratch, scratch_bytes, e)) != DNNMEM_OK) return r;
    if ((r = dnnmem__pools_tied_bound(&w, &tt, problem, &b)) != DNNMEM_OK) return r;
  } else {
    if ((r = dnnmem__pools_carve(problem, &w, 0, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
    w.weight = NULL;
    dnnmem__pools_prepare(&w, problem);
    b = dnnmem__pools_bound(&w);
  }
  if (b == DNNMEM__POOLS_INF) return DNNMEM_ERR_INFEASIBLE;
  *out_bound = b;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_lower_bound(const dnnmem_plan_pools *problem,
                                                       dnnmem_plan_pools_result *result, void *scratch,
                                                       size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  return dnnmem__report(&result->error, &e,
                        dnnmem__plan_pools_lower_bound(problem, &result->lower_bound, scratch, scratch_bytes, &e));
}

/* ---- pools: the checker --------------------------------------------------- */

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_check_scratch_size(const dnnmem_plan_pools *problem,
                                                              size_t *out_bytes) {
  return dnnmem__pools_size(problem, 2, out_bytes);
}

static dnnmem_result dnnmem__plan_pools_check(const dnnmem_plan_pools *problem, const int32_t *pool_of,
                                              const int64_t *offsets, int64_t *out_cost, int64_t *arenas,
                                              void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__pools_work w;
  dnnmem_result r;
  const dnnmem_interval *rec;
  int32_t i, k, n, first, last;
  int64_t cost = 0;
  if ((r = dnnmem__pools_validate(problem, 0, e)) != DNNMEM_OK) return r;
  if (dnnmem__has_links(problem->intervals)) {
    dnnmem__pools_tied tt;
    r = dnnmem__pools_tied_begin(problem, 2, &tt, &w, scratch, scratch_bytes, e);
  } else {
    r = dnnmem__pools_carve(problem, &w, 2, scratch, scratch_bytes, NULL);
  }
  if (r != DNNMEM_OK) return r;
  n = problem->intervals->count;
  rec = problem->intervals->records;
  if (n > 0 && (pool_of == NULL || offsets == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, pool_of == NULL ? DNNMEM_FIELD_POOL : DNNMEM_FIELD_OFFSET);
  for (i = 0; i < problem->num_pools; i++) w.all[i] = i;
  for (i = 0; i < n; i++) {
    const int32_t *ids;
    int32_t cnt, ok = 0;
    if (pool_of[i] < 0 || pool_of[i] >= problem->num_pools) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, i, DNNMEM_FIELD_POOL);
    cnt = dnnmem__pools_allowed(problem, w.all, i, &ids);
    for (k = 0; k < cnt && !ok; k++) ok = ids[k] == pool_of[i];
    if (!ok) return dnnmem__fail(e, DNNMEM_ERR_PLAN_POOL_FORBIDDEN, i, DNNMEM_FIELD_POOL);
    w.ids[i] = i;
    w.keys[i] = pool_of[i];
    cost += rec[i].size * problem->pools[pool_of[i]].cost; /* validated: within int64_t */
  }
  for (i = 0; i < n; i++) { /* a class in one pool (its offsets: the pool's check) */
    int32_t a = rec[i].alias;
    if ((rec[i].flags & DNNMEM_INTERVAL_ALIAS) && pool_of[a] != pool_of[i])
      return dnnmem__fail2(e, DNNMEM_ERR_PLAN_ALIAS_OFFSET, i < a ? i : a, i < a ? a : i, DNNMEM_FIELD_POOL);
  }
  dnnmem__radix_sort(w.ids, w.tmp, n, w.keys); /* by pool, then id */
  if (arenas)
    for (k = 0; k < problem->num_pools; k++) arenas[k] = 0;
  for (first = 0; first < n; first = last) {
    int32_t q = pool_of[w.ids[first]], m = 0, top = -1;
    dnnmem_intervals sub;
    dnnmem_plan_result pr;
    int64_t arena;
    for (last = first; last < n && pool_of[w.ids[last]] == q; last++) {
      w.sub[m] = rec[w.ids[last]];
      w.sub_off[m] = offsets[w.ids[last]];
      w.tmp[w.ids[last]] = m; /* the record's index in the pool's problem */
      w.sub_map[m++] = w.ids[last];
    }
    for (k = 0; k < m; k++) { /* links inside the pool; a reuse across pools is not used */
      if (w.sub[k].flags & DNNMEM_INTERVAL_ALIAS) w.sub[k].alias = w.tmp[w.sub[k].alias];
      if ((w.sub[k].flags & DNNMEM_INTERVAL_REUSE) && pool_of[w.sub[k].reuse] != q) w.sub[k].flags &= ~DNNMEM_INTERVAL_REUSE;
      else if (w.sub[k].flags & DNNMEM_INTERVAL_REUSE) w.sub[k].reuse = w.tmp[w.sub[k].reuse];
    }
    sub.records = w.sub;
    sub.count = m;
    sub.alignment = dnnmem__pools_alignment(problem, q);
    r = dnnmem_plan_check(&sub, w.sub_off, &pr, w.plan, w.plan_bytes);
    if (r != DNNMEM_OK) { /* the pool's records as the problem's */
      *e = pr.error;
      if (e->index >= 0) e->index = w.sub_map[e->index];
      if (e->other >= 0) e->other = w.sub_map[e->other];
      return r;
    }
    arena = pr.arena;
    if (problem->pools[q].capacity > 0 && arena > problem->pools[q].capacity) {
      for (k = 0; k < m; k++)
        if (top < 0 || w.sub_off[k] + w.sub[k].size > w.sub_off[top] + w.sub[top].size) top = k;
      return dnnmem__fail2(e, DNNMEM_ERR_PLAN_POOL_OVER_CAPACITY, w.sub_map[top], q, DNNMEM_FIELD_OFFSET);
    }
    if (arenas) arenas[q] = arena;
  }
  *out_cost = cost;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_check(const dnnmem_plan_pools *problem, const int32_t *pool_of,
                                                 const int64_t *offsets, int64_t *arenas,
                                                 dnnmem_plan_pools_result *result, void *scratch,
                                                 size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  int64_t cost = 0;
  dnnmem_result r = dnnmem__plan_pools_check(problem, pool_of, offsets, &cost, arenas, scratch, scratch_bytes, &e);
  if (result) DNNMEM_MEMSET(result, 0, sizeof(*result)), result->cost = r == DNNMEM_OK ? cost : 0;
  return dnnmem__report(result ? &result->error : NULL, &e, r);
}

/* ---- pools: placing, packing, improving ------------------------------------ */

/* Whether record r (REUSE of a) may take a's offset in pool q: a placed
   there, the offset aligned for r, within the capacity, and no other
   record placed in q meeting r there. */
static int dnnmem__pools_tie_fits(dnnmem__pools_work *w, int32_t r, int32_t a, int32_t q) {
  const dnnmem_interval *rec = w->rec, *me = &w->rec[r];
  int64_t o = w->off_cur[a], cap = w->p->pools[q].capacity;
  int32_t j;
  if (w->pool_cur[a] != q || o % dnnmem_interval_alignment(me, dnnmem__pools_alignment(w->p, q)) != 0 ||
      (cap > 0 && o > cap - me->size) || ((me->flags & DNNMEM_INTERVAL_FIXED) && me->fixed_offset != o))
    return 0;
  for (j = 0; j < w->n; j++)
    if (j != r && j != a && w->pool_cur[j] == q && rec[j].size > 0 && rec[j].lower < me->upper &&
        me->lower < rec[j].upper && w->off_cur[j] < o + me->size && o < w->off_cur[j] + rec[j].size)
      return 0;
  return 1;
}

/* Best fit of record r in pool q among the records placed there (pool_cur,
   off_cur; whole lifetimes): the offset of the record it may overwrite
   (REUSE) when that is free, else the smallest hole it fits, else on top;
   -1 when over the capacity (or a fixed record's place is taken). */
static int64_t dnnmem__pools_place(dnnmem__pools_work *w, int32_t r, int32_t q) {
  const dnnmem_interval *rec = w->rec, *me = &w->rec[r];
  int64_t a = dnnmem_interval_alignment(me, dnnmem__pools_alignment(w->p, q)), cap = w->p->pools[q].capacity;
  int64_t cur = 0, best = -1, best_hole = 0;
  int32_t j, m = 0;
  if (me->size == 0) return (me->flags & DNNMEM_INTERVAL_FIXED) ? me->fixed_offset : 0;
  if ((me->flags & DNNMEM_INTERVAL_REUSE) && dnnmem__pools_tie_fits(w, r, me->reuse, q)) return w->off_cur[me->reuse];
  for (j = 0; j < w->n; j++)
    if (j != r && w->pool_cur[j] == q && rec[j].size > 0 && rec[j].lower < me->upper && me->lower < rec[j].upper) {
      w->ids[m++] = j;
      w->keys[j] = w->off_cur[j];
    }
  dnnmem__radix_sort(w->ids, w->tmp, m, w->keys);
  if (me->flags & DNNMEM_INTERVAL_FIXED) {
    for (j = 0; j < m; j++) {
      int32_t o = w->ids[j];
      if (w->off_cur[o] < me->fixed_offset + me->size && me->fixed_offset < w->off_cur[o] + rec[o].size) return -1;
    }
    return me->fixed_offset;
  }
  for (j = 0; j < m; j++) {
    int32_t o = w->ids[j];
    int64_t start = dnnmem__align_up(cur, a);
    if (start + me->size <= w->off_cur[o] && (best < 0 || w->off_cur[o] - cur < best_hole))
      best = start, best_hole = w->off_cur[o] - cur;
    cur = dnnmem__max64(cur, w->off_cur[o] + rec[o].size);
  }
  if (best < 0) best = dnnmem__align_up(cur, a);
  if (cap > 0 && best > cap - me->size) return -1;
  return best;
}

/* Plans pool q's records (pool_cur; extra: one more record, -1 none) with
   dnnmem_plan_solve: algo, capacity (0: none), node limit. *feasible: 1
   the plan fits (written to off_cur, and extra joins q), 0 proven not,
   -1 unknown; *arena the plan's. */
static dnnmem_result dnnmem__pools_pack(dnnmem__pools_work *w, int32_t q, int32_t extra, dnnmem_plan_algo algo,
                                        int64_t capacity, int64_t node_limit, int32_t *feasible, int64_t *arena,
                                        dnnmem_plan_stop *stop) {
  dnnmem_intervals sub;
  dnnmem_plan_options o;
  dnnmem_plan_result pr;
  dnnmem_result r;
  int32_t i, m = 0;
  for (i = 0; i < w->n; i++)
    if (w->pool_cur[i] == q || i == extra) {
      w->sub[m] = w->rec[i];
      w->sub[m].gaps = NULL; /* whole lifetimes: valid with or without gaps */
      w->sub[m].num_gaps = 0;
      w->ids[i] = m; /* the record's index in the pool's problem */
      w->sub_map[m++] = i;
    }
  for (i = 0; i < m; i++) { /* a reuse inside the pool, renumbered (in-place ties are the packer's choice) */
    int32_t a = w->sub[i].reuse;
    if (!(w->sub[i].flags & DNNMEM_INTERVAL_REUSE)) continue;
    if (w->pool_cur[a] == q || a == extra) w->sub[i].reuse = w->ids[a];
    else w->sub[i].flags &= ~DNNMEM_INTERVAL_REUSE;
  }
  sub.records = w->sub;
  sub.count = m;
  sub.alignment = dnnmem__pools_alignment(w->p, q);
  DNNMEM_MEMSET(&o, 0, sizeof(o));
  o.algo = algo;
  o.capacity = capacity;
  o.node_limit = node_limit;
  o.stop = w->opt.stop;
  o.stop_user = w->opt.stop_user;
  *stop = DNNMEM_PLAN_STOP_PROVED;
  if (capacity > 0) w->res.decisions++;
  r = dnnmem_plan_solve(&sub, &o, w->sub_off, &pr, w->plan, w->plan_bytes);
  if (r == DNNMEM_ERR_PLAN_FIXED_COLLISION) { /* these fixed records cannot share the pool */
    *feasible = 0;
    return DNNMEM_OK;
  }
  if (r != DNNMEM_OK) return r;
  *feasible = capacity > 0 ? pr.feasible : 1;
  *arena = pr.arena;
  *stop = pr.stop;
  if (*feasible == 1) {
    for (i = 0; i < m; i++) w->off_cur[w->sub_map[i]] = w->sub_off[i];
    if (extra >= 0) w->pool_cur[extra] = q;
  }
  return DNNMEM_OK;
}

/* The arena of pool q in the current plan. */
static int64_t dnnmem__pools_arena(const dnnmem__pools_work *w, int32_t q) {
  int64_t arena = 0;
  int32_t i;
  for (i = 0; i < w->n; i++)
    if (w->pool_cur[i] == q) arena = dnnmem__max64(arena, w->off_cur[i] + w->rec[i].size);
  return arena;
}

/* Greedy: records fixed first, then by kind 0 (USMP: size descending) or 1
   (shortest lifetime first, then larger), ties by id; each into its first
   allowed pool with room (best fit). 1 when every record found a place. */
static int dnnmem__pools_greedy(dnnmem__pools_work *w, int kind) {
  int32_t i, k, n = w->n;
  for (i = 0; i < n; i++) w->order[i] = i, w->pool_cur[i] = -1;
  for (i = 0; i < n; i++) w->keys[i] = -w->rec[i].size;
  dnnmem__radix_sort(w->order, w->tmp, n, w->keys);
  if (kind == 1) {
    for (i = 0; i < n; i++) w->keys[i] = w->rec[i].upper - w->rec[i].lower;
    dnnmem__radix_sort(w->order, w->tmp, n, w->keys);
  }
  for (i = 0; i < n; i++) w->keys[i] = (w->rec[i].flags & DNNMEM_INTERVAL_FIXED) ? 0 : 1;
  dnnmem__radix_sort(w->order, w->tmp, n, w->keys);
  for (k = 0; k < n; k++) {
    int32_t r = w->order[k], cnt, j;
    const int32_t *ids;
    cnt = dnnmem__pools_allowed(w->p, w->all, r, &ids);
    for (j = 0; j < cnt; j++) {
      int64_t off;
      if (!dnnmem__pools_usable(w->p, r, ids[j])) continue;
      off = dnnmem__pools_place(w, r, ids[j]);
      if (off >= 0) {
        w->pool_cur[r] = ids[j];
        w->off_cur[r] = off;
        break;
      }
    }
    if (w->pool_cur[r] < 0) return 0;
  }
  return 1;
}

/* The bytes of pool q live over record r's lifetime at their highest, with
   r added (whole lifetimes): a plan of q with r needs at least this. */
static int64_t dnnmem__pools_load_with(dnnmem__pools_work *w, int32_t r, int32_t q) {
  const dnnmem_interval *rec = w->rec, *me = &w->rec[r];
  int32_t i, j, m = 0;
  int64_t most = 0;
  for (i = 0; i < w->n; i++)
    if (w->pool_cur[i] == q && rec[i].size > 0 && rec[i].lower < me->upper && me->lower < rec[i].upper)
      w->ids[m++] = i;
  for (i = -1; i < m; i++) { /* the load at r's lower and at every lower inside */
    int64_t t = i < 0 ? me->lower : rec[w->ids[i]].lower, load = me->size;
    if (t < me->lower) continue;
    for (j = -1; j < m; j++) {
      int32_t o = j < 0 ? r : w->ids[j];
      if (j >= 0 && rec[o].lower <= t && t < rec[o].upper) load += rec[o].size;
      /* a reuse between two of them at its step may save the smaller (at most) */
      if ((rec[o].flags & DNNMEM_INTERVAL_REUSE) && rec[o].lower == t &&
          (rec[o].reuse == r || w->pool_cur[rec[o].reuse] == q))
        load -= rec[o].size;
    }
    most = dnnmem__max64(most, load);
  }
  return most;
}

static int dnnmem__pools_should_stop(dnnmem__pools_work *w) {
  if (!w->stopped && w->opt.stop && w->opt.stop(w->opt.stop_user)) w->stopped = 1;
  return w->stopped;
}

/* Ours on top of a complete greedy plan: every bounded pool re-planned by
   dnnmem_plan_solve (best) when that is smaller; then passes over the
   records by the saving at stake (size x (its cost - its cheapest)), each
   moved into the cheapest allowed pool that takes it: a best-fit hole, or
   a re-plan of that pool with it (the load permitting). */
static dnnmem_result dnnmem__pools_improve(dnnmem__pools_work *w) {
  const dnnmem_pool *pools = w->p->pools;
  int32_t q, i, k, pass, moved = 1, f, candidates;
  int64_t arena;
  dnnmem_plan_stop stop;
  dnnmem_result r;
  w->replan_budget = DNNMEM__POOLS_REPLAN_WORK * (int64_t)w->n;
  for (q = 0; q < w->P; q++) {
    int64_t now = dnnmem__pools_arena(w, q);
    if (pools[q].capacity == 0 || now == 0) continue;
    /* keep the current offsets unless the re-plan is smaller */
    DNNMEM_MEMCPY(w->off_save, w->off_cur, (size_t)w->n * sizeof(int64_t));
    if ((r = dnnmem__pools_pack(w, q, -1, DNNMEM_PLAN_BEST, pools[q].capacity, 0, &f, &arena, &stop)) != DNNMEM_OK)
      return r;
    if (f != 1 || arena > now) DNNMEM_MEMCPY(w->off_cur, w->off_save, (size_t)w->n * sizeof(int64_t));
  }
  for (pass = 0; pass < 8 && moved && !dnnmem__pools_should_stop(w); pass++) {
    moved = 0;
    for (i = 0; i < w->n; i++) {
      w->order[i] = i;
      w->keys[i] = -(dnnmem__pools_weight(w, i) * (pools[w->pool_cur[i]].cost - w->mcost[i]));
    }
    dnnmem__radix_sort(w->order, w->tmp, w->n, w->keys);
    for (candidates = 0; candidates < w->n && w->keys[w->order[candidates]] < 0; candidates++) {
    }
    for (k = 0; k < candidates; k++) { /* (placing reuses keys) */
      int32_t rr = w->order[k], j, from = w->pool_cur[rr];
      if (dnnmem__pools_should_stop(w)) break;
      for (j = 0; j < w->P; j++) { /* cheaper pools, cheapest first */
        int32_t to = w->pool_by_cost[j], cnt, a, ok = 0;
        const int32_t *ids;
        int64_t off;
        if (pools[to].cost >= pools[from].cost) break;
        cnt = dnnmem__pools_allowed(w->p, w->all, rr, &ids);
        for (a = 0; a < cnt && !ok; a++) ok = ids[a] == to;
        if (!ok || !dnnmem__pools_usable(w->p, rr, to)) continue;
        if ((off = dnnmem__pools_place(w, rr, to)) >= 0) {
          w->pool_cur[rr] = to;
          w->off_cur[rr] = off;
        } else if (pools[to].capacity > 0 && !(w->rec[rr].flags & DNNMEM_INTERVAL_FIXED) && w->replan_budget > 0 &&
                   dnnmem__pools_load_with(w, rr, to) <= pools[to].capacity) {
          for (a = 0; a < w->n; a++) w->replan_budget -= w->pool_cur[a] == to;
          if ((r = dnnmem__pools_pack(w, to, rr, DNNMEM_PLAN_BEST, pools[to].capacity, 0, &f, &arena, &stop)) !=
              DNNMEM_OK)
            return r;
          if (f != 1) continue;
        } else {
          continue;
        }
        w->res.moves++;
        moved = 1;
        break;
      }
    }
  }
  return DNNMEM_OK;
}

/* Final arenas: each pool re-planned by best (within its capacity) when
   that is smaller. */
static dnnmem_result dnnmem__pools_shrink(dnnmem__pools_work *w) {
  int32_t q, f;
  int64_t arena;
  dnnmem_plan_stop stop;
  dnnmem_result r;
  for (q = 0; q < w->P; q++) {
    int64_t now = dnnmem__pools_arena(w, q);
    if (now == 0) continue;
    DNNMEM_MEMCPY(w->off_save, w->off_cur, (size_t)w->n * sizeof(int64_t));
    if ((r = dnnmem__pools_pack(w, q, -1, DNNMEM_PLAN_BEST, w->p->pools[q].capacity, 0, &f, &arena, &stop)) !=
        DNNMEM_OK)
      return r;
    if (f != 1 || arena > now) DNNMEM_MEMCPY(w->off_cur, w->off_save, (size_t)w->n * sizeof(int64_t));
  }
  return DNNMEM_OK;
}

/* The current plan's cost and summed arenas. */
static void dnnmem__pools_measure(const dnnmem__pools_work *w, int64_t *cost, int64_t *arenas) {
  int32_t i, q;
  *cost = 0;
  *arenas = 0;
  for (i = 0; i < w->n; i++) *cost += dnnmem__pools_weight(w, i) * w->p->pools[w->pool_cur[i]].cost;
  for (q = 0; q < w->P; q++) *arenas += dnnmem__pools_arena(w, q);
}

/* Keeps the current plan when it is the best so far (cost, then arenas). */
static void dnnmem__pools_offer(dnnmem__pools_work *w, dnnmem_plan_pools_algo algo) {
  int64_t cost, arenas;
  dnnmem__pools_measure(w, &cost, &arenas);
  if (w->best_cost >= 0 && (cost > w->best_cost || (cost == w->best_cost && arenas >= w->best_arenas))) return;
  w->best_cost = cost;
  w->best_arenas = arenas;
  w->res.algo = algo;
  DNNMEM_MEMCPY(w->pool_best, w->pool_cur, (size_t)w->n * sizeof(int32_t));
  DNNMEM_MEMCPY(w->off_best, w->off_cur, (size_t)w->n * sizeof(int64_t));
}

#ifndef DNNMEM_NO_EXACT
/* A full assignment (pool_cur): packs every bounded pool (best, then the
   exact search with pack_node_limit), then the unbounded ones; offers the
   plan. Undecided packings are remembered in pack_stop. */
static dnnmem_result dnnmem__pools_leaf(dnnmem__pools_work *w) {
  int32_t q, f, pass;
  int64_t arena, limit = w->opt.pack_node_limit > 0 ? w->opt.pack_node_limit : DNNMEM_PLAN_POOLS_PACK_NODES;
  dnnmem_plan_stop stop;
  dnnmem_result r;
  for (pass = 0; pass < 2; pass++)
    for (q = 0; q < w->P; q++) {
      int64_t cap = w->p->pools[q].capacity;
      if ((cap > 0) != (pass == 0)) continue;
      if ((r = dnnmem__pools_pack(w, q, -1, DNNMEM_PLAN_BEST, cap, 0, &f, &arena, &stop)) != DNNMEM_OK) return r;
      if (f == -1 && (r = dnnmem__pools_pack(w, q, -1, DNNMEM_PLAN_EXACT, cap, limit, &f, &arena, &stop)) !=
                         DNNMEM_OK)
        return r;
      if (f == -1 && w->pack_stop == DNNMEM_PLAN_STOP_PROVED) w->pack_stop = stop;
      if (f != 1) return DNNMEM_OK;
    }
  w->best_cost = -1; /* the search's leaves come cheaper than the incumbent */
  dnnmem__pools_offer(w, DNNMEM_PLAN_POOLS_EXACT);
  return DNNMEM_OK;
}

/* Branch and bound over the assignment: records by size descending, each
   pool it may use in preference order; a node is pruned when the bound
   (with the assigned records' bytes in their pools) reaches the best cost.
   *complete: 1 when the tree was exhausted. */
static dnnmem_result dnnmem__pools_search(dnnmem__pools_work *w, int64_t node_limit, int *complete) {
  int32_t i, m = 0, d = 0;
  int64_t bound;
  dnnmem_result r;
  *complete = 0;
  for (i = 0; i < w->n; i++) {
    w->pool_cur[i] = -1;
    if (w->rec[i].size > 0) {
      w->order[m++] = i;
    } else { /* nothing to decide: its first pool it fits */
      const int32_t *ids;
      int32_t cnt = dnnmem__pools_allowed(w->p, w->all, i, &ids), k;
      for (k = 0; k < cnt && w->pool_cur[i] < 0; k++)
        if (dnnmem__pools_usable(w->p, i, ids[k])) w->pool_cur[i] = ids[k];
    }
  }
  for (i = 0; i < m; i++) w->keys[w->order[i]] = -w->rec[w->order[i]].size;
  dnnmem__radix_sort(w->order, w->tmp, m, w->keys);
  if (m > 0) w->choice[0] = -1;
  while (d >= 0) {
    int32_t rr, cnt, j;
    const int32_t *ids;
    if (d == m) {
      if ((r = dnnmem__pools_leaf(w)) != DNNMEM_OK) return r;
      if (--d >= 0) dnnmem__pools_assign(w, w->order[d], w->pool_cur[w->order[d]], -1);
      continue;
    }
    rr = w->order[d];
    cnt = dnnmem__pools_allowed(w->p, w->all, rr, &ids);
    for (j = w->choice[d] + 1; j < cnt && !(dnnmem__pools_usable(w->p, rr, ids[j]) && dnnmem__pools_fits(w, rr, ids[j]));
         j++) {
    }
    if (j >= cnt) {
      w->pool_cur[rr] = -1;
      if (--d >= 0) dnnmem__pools_assign(w, w->order[d], w->pool_cur[w->order[d]], -1);
      continue;
    }
    w->choice[d] = j;
    w->pool_cur[rr] = ids[j];
    dnnmem__pools_assign(w, rr, ids[j], 1);
    w->res.nodes++;
    if ((node_limit > 0 && w->res.nodes >= node_limit) || ((w->res.nodes & 63) == 0 && dnnmem__pools_should_stop(w)))
      return DNNMEM_OK;
    bound = dnnmem__pools_node_bound(w, d + 1, m);
    if (w->best_cost < 0 ? bound != DNNMEM__POOLS_INF : bound < w->best_cost) {
      if (++d < m) w->choice[d] = -1;
    } else {
      dnnmem__pools_assign(w, rr, ids[j], -1);
    }
  }
  *complete = 1;
  return DNNMEM_OK;
}
#endif

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_solve_scratch_size(const dnnmem_plan_pools *problem,
                                                              const dnnmem_plan_pools_options *options,
                                                              size_t *out_bytes) {
  (void)options;
  return dnnmem__pools_size(problem, 1, out_bytes);
}

/* Solves a validated, carved problem (w->opt and w->weight set). */
static dnnmem_result dnnmem__pools_run(dnnmem__pools_work *w, const dnnmem_plan_pools *problem, int32_t *pool_of,
                                       int64_t *offsets, int64_t *arenas, dnnmem_plan_pools_result *result) {
  int64_t bound;
  int32_t i, q, n = problem->intervals->count, gaps = 0;
  int kind;
  dnnmem_result r;
  DNNMEM_MEMSET(&w->res, 0, sizeof(w->res));
  w->res.stop = DNNMEM_PLAN_STOP_NONE;
  w->res.feasible = -1;
  w->best_cost = -1;
  w->best_arenas = 0;
  w->stopped = 0;
  w->pack_stop = DNNMEM_PLAN_STOP_PROVED;
  dnnmem__pools_prepare(w, problem);
  for (i = 0; i < n; i++) gaps += problem->intervals->records[i].num_gaps > 0;
  (void)gaps; /* read by the exact search only */
  bound = dnnmem__pools_bound(w);
  if (bound == DNNMEM__POOLS_INF) {
    w->res.feasible = 0;
    w->res.stop = DNNMEM_PLAN_STOP_PROVED;
    if (result) *result = w->res;
    return DNNMEM_ERR_INFEASIBLE;
  }
  w->res.lower_bound = bound;
  /* the greedies (USMP's order; ours adds the shortest-lived first) */
  for (kind = 0; kind < (w->opt.algo == DNNMEM_PLAN_POOLS_GREEDY ? 1 : 2); kind++) {
    if (!dnnmem__pools_greedy(w, kind)) continue;
    if (w->opt.algo == DNNMEM_PLAN_POOLS_GREEDY) {
      dnnmem__pools_offer(w, DNNMEM_PLAN_POOLS_GREEDY);
      continue;
    }
    if ((r = dnnmem__pools_improve(w)) != DNNMEM_OK) return r;
    dnnmem__pools_offer(w, DNNMEM_PLAN_POOLS_IMPROVE);
  }
#ifndef DNNMEM_NO_EXACT
  if ((w->opt.algo == DNNMEM_PLAN_POOLS_EXACT ||
       (w->opt.algo == DNNMEM_PLAN_POOLS_BEST && n <= DNNMEM_PLAN_POOLS_BEST_EXACT_MAX)) &&
      w->best_cost != bound && !w->stopped) {
    int64_t limit = w->opt.node_limit;
    int complete;
    if (limit == 0 && w->opt.algo == DNNMEM_PLAN_POOLS_BEST) limit = DNNMEM_PLAN_POOLS_BEST_NODES;
    if ((r = dnnmem__pools_search(w, limit, &complete)) != DNNMEM_OK) return r;
    if (!complete) {
      w->res.stop = w->stopped ? DNNMEM_PLAN_STOP_TIME : DNNMEM_PLAN_STOP_NODES;
    } else if (w->pack_stop != DNNMEM_PLAN_STOP_PROVED) {
      w->res.stop = w->pack_stop;
    } else if (gaps) {
      w->res.stop = DNNMEM_PLAN_STOP_INCOMPLETE;
    } else {
      w->res.stop = DNNMEM_PLAN_STOP_PROVED;
      if (w->best_cost >= 0) w->res.lower_bound = w->best_cost;
      else w->res.feasible = 0;
    }
  }
#endif
  if (w->stopped) w->res.stop = DNNMEM_PLAN_STOP_TIME; /* (else none: the search was skipped) */
  if (w->best_cost >= 0 && w->best_cost == w->res.lower_bound) w->res.stop = DNNMEM_PLAN_STOP_PROVED;
  if (w->best_cost < 0) {
    if (result) *result = w->res;
    return DNNMEM_ERR_INFEASIBLE;
  }
  DNNMEM_MEMCPY(w->pool_cur, w->pool_best, (size_t)n * sizeof(int32_t));
  DNNMEM_MEMCPY(w->off_cur, w->off_best, (size_t)n * sizeof(int64_t));
  if (w->opt.algo != DNNMEM_PLAN_POOLS_GREEDY && (r = dnnmem__pools_shrink(w)) != DNNMEM_OK) return r;
  w->res.feasible = 1;
  w->res.cost = w->best_cost;
  w->res.optimal = w->best_cost == w->res.lower_bound;
  for (i = 0; i < n; i++) pool_of[i] = w->pool_cur[i], offsets[i] = w->off_cur[i];
  if (arenas)
    for (q = 0; q < w->P; q++) arenas[q] = dnnmem__pools_arena(w, q);
  if (result) *result = w->res;
  return DNNMEM_OK;
}

/* ---- pools: in-place reuse and aliasing: solving -------------------------- */

/* The merged problem of the chosen ties: each group's allowed pools are
   its first member's that every member may use (in that order), its
   weight its members' sizes; with keep_links (the classes alone), each
   reuse link between two classes that are single records in all but name
   (no windows, the rule's sizes) stays a REUSE link of the merged records:
   the placements and packings of a pool choose it. 0 when a group has no
   such pool. */
static int dnnmem__pools_tied_problem(dnnmem__pools_tied *tt, const dnnmem_plan_pools *p, dnnmem__pools_work *w,
                                      int32_t groups, int keep_links, dnnmem_intervals *mi, dnnmem_plan_pools *mp) {
  dnnmem__ties *t = &tt->t;
  int32_t i, g, k, n = p->intervals->count, cnt, len = 0;
  const int32_t *ids;
  /* members by group (stable), then per group a count per pool */
  for (i = 0; i < n; i++) t->order[i] = i, t->key[i] = t->group[i];
  dnnmem__radix_sort(t->order, t->tmp, n, t->key);
  for (g = 0; g < groups; g++) tt->weight[g] = 0;
  for (i = 0; i < n; i++) tt->weight[t->group[i]] += p->intervals->records[i].size;
  for (k = 0; k < p->num_pools; k++) tt->pcount[k] = 0;
  for (i = 0, g = 0; g < groups; g++) {
    int32_t first = i, m;
    for (; i < n && t->group[t->order[i]] == g; i++) {
      cnt = dnnmem__pools_allowed(p, w->all, t->order[i], &ids);
      for (k = 0; k < cnt; k++) tt->pcount[ids[k]]++;
    }
    m = i - first;
    tt->aoff[g] = len;
    cnt = dnnmem__pools_allowed(p, w->all, t->rep[g], &ids);
    for (k = 0; k < cnt; k++)
      if (tt->pcount[ids[k]] == m) tt->aids[len++] = ids[k];
    for (k = first; k < i; k++) { /* reset the counts */
      int32_t c2 = dnnmem__pools_allowed(p, w->all, t->order[k], &ids), j;
      for (j = 0; j < c2; j++) tt->pcount[ids[j]] = 0;
    }
    if (len == tt->aoff[g]) return 0;
  }
  tt->aoff[groups] = len;
  for (k = 0; keep_links && k < t->links; k++) {
    int32_t b = t->link[k], gb = t->group[b], ga = t->group[p->intervals->records[b].reuse];
    dnnmem_interval *mb = &t->merged[gb], *ma = &t->merged[ga];
    if ((mb->flags & DNNMEM_INTERVAL_REUSE) || mb->num_gaps || ma->num_gaps || mb->size > ma->size) continue;
    mb->flags |= DNNMEM_INTERVAL_REUSE; /* the class rule holds: A's class ends where B's begins */
    mb->reuse = ga;
  }
  mi->records = t->merged;
  mi->count = groups;
  mi->alignment = p->intervals->alignment;
  *mp = *p;
  mp->intervals = mi;
  mp->allowed_offsets = tt->aoff;
  mp->allowed_ids = tt->aids;
  return 1;
}

static dnnmem_result dnnmem__pools_tied_solve(const dnnmem_plan_pools *problem,
                                              const dnnmem_plan_pools_options *opt, int32_t *pool_of,
                                              int64_t *offsets, int64_t *arenas, dnnmem_plan_pools_result *result,
                                              void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  /* the tie sets: every link, equal sizes, the classes keeping their reuse links, none */
  static const int variants[] = {DNNMEM__TIES_ALL, DNNMEM__TIES_EQUAL, DNNMEM__TIES_NONE, DNNMEM__TIES_NONE};
  const dnnmem_interval *rec = problem->intervals->records;
  dnnmem__pools_tied tt;
  dnnmem__pools_work w;
  dnnmem_plan_pools_result best, res;
  int32_t i, v, q, n = problem->intervals->count, found = 0, unequal = 0;
  int32_t stops[DNNMEM_PLAN_STOP_COUNT] = {0};
  int64_t bound, best_arenas = 0;
  dnnmem_result r;
  if ((r = dnnmem__pools_tied_begin(problem, 1, &tt, &w, scratch, scratch_bytes, e)) != DNNMEM_OK) return r;
  DNNMEM_MEMSET(&best, 0, sizeof(best));
  best.feasible = -1;
  if ((r = dnnmem__pools_tied_bound(&w, &tt, problem, &bound)) != DNNMEM_OK) return r;
  if (bound == DNNMEM__POOLS_INF) {
    best.feasible = 0;
    best.stop = DNNMEM_PLAN_STOP_PROVED;
    if (result) *result = best;
    return DNNMEM_ERR_INFEASIBLE;
  }
  tt.t.cls_mask = tt.cls_mask;
  for (i = 0; i < tt.t.links; i++) unequal |= rec[tt.t.link[i]].size != rec[rec[tt.t.link[i]].reuse].size;
  for (v = tt.t.links > 0 ? 0 : 3; v < 4; v++) {
    dnnmem_intervals mi;
    dnnmem_plan_pools mp;
    int64_t sum = 0;
    if (variants[v] == DNNMEM__TIES_EQUAL && !unequal) continue; /* ALL's ties again */
    dnnmem__ties_select(&tt.t, variants[v], NULL);
    if (!dnnmem__pools_tied_problem(&tt, problem, &w, dnnmem__ties_merge(&tt.t), v == 2, &mi, &mp)) {
      if (variants[v] == DNNMEM__TIES_NONE) return dnnmem__fail(e, DNNMEM_ERR_PLAN_POOL_CAPACITY, -1, DNNMEM_FIELD_SIZE);
      continue;
    }
    r = dnnmem__pools_validate(&mp, 1, e); /* a group too tall for every pool it may use */
    if (r == DNNMEM_ERR_PLAN_POOL_CAPACITY && variants[v] != DNNMEM__TIES_NONE) continue;
    if (r != DNNMEM_OK) {
      if (e->index >= 0) e->index = tt.t.rep[e->index]; /* a group's first member */
      return r;
    }
    /* sized for the problem (n records, its links): covers the merged one */
    if ((r = dnnmem__pools_carve(problem, &w, 1, tt.core, tt.core_bytes, NULL)) != DNNMEM_OK) return r;
    w.opt = *opt;
    w.weight = tt.weight;
    r = dnnmem__pools_run(&w, &mp, tt.gpool, tt.goff, tt.garena, &res);
    best.nodes += res.nodes, best.decisions += res.decisions, best.moves += res.moves;
    stops[res.stop]++;
    if (r == DNNMEM_ERR_INFEASIBLE) continue;
    if (r != DNNMEM_OK) return r;
    for (q = 0; q < problem->num_pools; q++) sum += tt.garena[q];
    if (found && (res.cost > best.cost || (res.cost == best.cost && sum >= best_arenas))) continue;
    found = 1;
    best.cost = res.cost, best.algo = res.algo, best_arenas = sum;
    for (i = 0; i < n; i++) pool_of[i] = tt.gpool[tt.t.group[i]], offsets[i] = tt.goff[tt.t.group[i]];
    if (arenas)
      for (q = 0; q < problem->num_pools; q++) arenas[q] = tt.garena[q];
  }
  /* the tie sets are some of the choices: only the bound proves */
  best.lower_bound = bound;
  best.stop = stops[DNNMEM_PLAN_STOP_TIME]    ? DNNMEM_PLAN_STOP_TIME
            : stops[DNNMEM_PLAN_STOP_NODES]   ? DNNMEM_PLAN_STOP_NODES
            : stops[DNNMEM_PLAN_STOP_PROVED] + stops[DNNMEM_PLAN_STOP_INCOMPLETE] ? DNNMEM_PLAN_STOP_INCOMPLETE
                                              : DNNMEM_PLAN_STOP_NONE;
  if (!found) {
    if (result) *result = best;
    return DNNMEM_ERR_INFEASIBLE;
  }
  best.feasible = 1;
  best.optimal = best.cost == bound;
  if (best.optimal) best.stop = DNNMEM_PLAN_STOP_PROVED;
  for (i = 0; i < tt.t.links; i++) {
    int32_t b = tt.t.link[i], a = rec[b].reuse;
    best.reused += pool_of[a] == pool_of[b] && offsets[a] == offsets[b];
  }
  if (result) *result = best;
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__plan_pools_solve(const dnnmem_plan_pools *problem,
                                              const dnnmem_plan_pools_options *options, int32_t *pool_of,
                                              int64_t *offsets, int64_t *arenas,
                                              dnnmem_plan_pools_result *result, void *scratch,
                                              size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__pools_work w;
  dnnmem_result r;
  if ((r = dnnmem__pools_validate(problem, 1, e)) != DNNMEM_OK) return r;
  DNNMEM_MEMSET(&w.opt, 0, sizeof(w.opt));
  if (options) w.opt = *options;
  if ((int)w.opt.algo < 0 || w.opt.algo >= DNNMEM_PLAN_POOLS_ALGO_COUNT)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_ALGO);
  if (w.opt.node_limit < 0 || w.opt.pack_node_limit < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, -1, DNNMEM_FIELD_LIMIT);
  if (problem->intervals->count > 0 && (pool_of == NULL || offsets == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  if (dnnmem__has_links(problem->intervals))
    return dnnmem__pools_tied_solve(problem, &w.opt, pool_of, offsets, arenas, result, scratch, scratch_bytes, e);
  if ((r = dnnmem__pools_carve(problem, &w, 1, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
  w.weight = NULL;
  return dnnmem__pools_run(&w, problem, pool_of, offsets, arenas, result);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_solve(const dnnmem_plan_pools *problem,
                                                 const dnnmem_plan_pools_options *options, int32_t *pool_of,
                                                 int64_t *offsets, int64_t *arenas,
                                                 dnnmem_plan_pools_result *result, void *scratch,
                                                 size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__plan_pools_solve(problem, options, pool_of, offsets, arenas, result, scratch, scratch_bytes, &e));
}

/* ---- pools: why not ------------------------------------------------------- */

/* The pools kind: every decision dnnmem_plan_pools_solve (exact) on the
   subset with its allowed lists. */
static dnnmem_result dnnmem__pools_conflict_carve(const dnnmem_plan_pools *p, const dnnmem_plan_pools_options *options,
                                                  dnnmem__conflict_work *w, void *scratch, size_t scratch_bytes,
                                                  size_t *out_bytes) {
  dnnmem_result r;
  size_t bound_bytes = 0;
  int64_t ids = 0;
  int32_t n;
  if (p == NULL || p->intervals == NULL || p->num_pools < 1) return DNNMEM_ERR_INVALID_ARGUMENT;
  n = p->intervals->count;
  if (n < 0) return DNNMEM_ERR_NEGATIVE;
  DNNMEM_MEMSET(&w->pools_ask, 0, sizeof(w->pools_ask));
  if (options) w->pools_ask = *options;
  if (w->pools_ask.node_limit < 0 || w->pools_ask.pack_node_limit < 0) return DNNMEM_ERR_NEGATIVE;
#ifndef DNNMEM_NO_EXACT
  w->pools_ask.algo = DNNMEM_PLAN_POOLS_EXACT;
#else
  w->pools_ask.algo = DNNMEM_PLAN_POOLS_BEST;
#endif
  DNNMEM_MEMSET(&w->ask, 0, sizeof(w->ask));
  if ((r = dnnmem_plan_pools_solve_scratch_size(p, &w->pools_ask, &w->plan_bytes)) != DNNMEM_OK) return r;
  if ((r = dnnmem_plan_pools_lower_bound_scratch_size(p, &bound_bytes)) != DNNMEM_OK) return r;
  if (bound_bytes > w->plan_bytes) w->plan_bytes = bound_bytes;
  if (p->allowed_offsets) {
    if (p->allowed_offsets[n] < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
    ids = p->allowed_offsets[n];
  }
  w->pools = p;
  return dnnmem__conflict_layout(w, n, ids, scratch, scratch_bytes, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_conflict_scratch_size(const dnnmem_plan_pools *problem,
                                                                 const dnnmem_plan_pools_options *options,
                                                                 size_t *out_bytes) {
  dnnmem__conflict_work w;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__pools_conflict_carve(problem, options, &w, NULL, 0, out_bytes);
}

static dnnmem_result dnnmem__plan_pools_conflict(const dnnmem_plan_pools *problem,
                                                 const dnnmem_plan_pools_options *options, int32_t *conflict,
                                                 int32_t conflict_capacity,
                                                 dnnmem_plan_conflict_result *result, void *scratch,
                                                 size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__conflict_work w;
  dnnmem_result r;
  if ((r = dnnmem__pools_validate(problem, 1, e)) != DNNMEM_OK) return r;
  if (dnnmem__has_links(problem->intervals)) /* subsets would cut links */
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if ((r = dnnmem__pools_conflict_carve(problem, options, &w, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
  return dnnmem__conflict_run(problem->intervals, &w, conflict, conflict_capacity, result);
}

DNNMEM_DEF dnnmem_result dnnmem_plan_pools_conflict(const dnnmem_plan_pools *problem,
                                                    const dnnmem_plan_pools_options *options, int32_t *conflict,
                                                    int32_t conflict_capacity, dnnmem_plan_conflict_result *result,
                                                    void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__plan_pools_conflict(problem, options, conflict, conflict_capacity, result, scratch, scratch_bytes, &e));
}

/* ==== 3. Shared objects (dnnmem_share_*) ================================= */

/* ==== shared objects ===================================================== */

/* Range +1 over segments with the global maximum: counts of live records
   (max[node] already includes add[node]). */
typedef struct dnnmem__count_tree {
  int32_t *max, *add;
  int32_t span;
} dnnmem__count_tree;

static void dnnmem__count_add(dnnmem__count_tree *t, size_t node, int32_t nl, int32_t nr, int32_t l,
                              int32_t r) {
  int32_t mid;
  if (r <= nl || nr <= l) return;
  if (l <= nl && nr <= r) {
    t->max[node]++;
    t->add[node]++;
    return;
  }
  mid = nl + (nr - nl) / 2;
  dnnmem__count_add(t, 2 * node, nl, mid, l, r);
  dnnmem__count_add(t, 2 * node + 1, mid, nr, l, r);
  t->max[node] = t->add[node] + (t->max[2 * node] > t->max[2 * node + 1] ? t->max[2 * node] : t->max[2 * node + 1]);
}

typedef struct dnnmem__share_work {
  dnnmem__planner planner; /* time compression, orders, breadth ranks */
  int64_t *object_size, *positional_max, *best_dist;
  int32_t *object_head, *next_in_object, *object_of, *renumber, *best_object, *stage;
  int32_t *blocked_by; /* per object: the last record it was found to meet */
  dnnmem__count_tree counts;
  int32_t objects;
} dnnmem__share_work;

/* What an operation carves. */
enum { DNNMEM__SHARE_CHECK, DNNMEM__SHARE_BOUND, DNNMEM__SHARE_SOLVE };

/* The one layout of every shared-objects operation: the size (out_bytes
   given) or the carving of scratch. The check needs two id arrays; the
   bound the time compression, its order and the count tree; solving all. */
static dnnmem_result dnnmem__share_carve(const dnnmem_intervals *problem, int what, dnnmem__share_work *w,
                                         void *scratch, size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  int32_t n = problem ? problem->count : -1;
  size_t nodes;
  if (n < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (n > DNNMEM__I32_MAX / 2) return DNNMEM_ERR_TOO_MANY; /* 2n time points are int32 */
  nodes = dnnmem__sky_nodes(n > 0 ? 2 * n : 1);
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  if (what == DNNMEM__SHARE_CHECK) {
    w->planner.order = DNNMEM__TAKE(&s, int32_t, n);
    w->planner.tmp = DNNMEM__TAKE(&s, int32_t, n);
  } else {
    dnnmem__planner_layout(&s, n, what == DNNMEM__SHARE_SOLVE, &w->planner);
    w->positional_max = DNNMEM__TAKE(&s, int64_t, n);
    w->counts.max = DNNMEM__TAKE(&s, int32_t, nodes);
    w->counts.add = DNNMEM__TAKE(&s, int32_t, nodes);
  }
  if (what == DNNMEM__SHARE_SOLVE) {
    w->object_size = DNNMEM__TAKE(&s, int64_t, n);
    w->best_dist = DNNMEM__TAKE(&s, int64_t, n);
    w->object_head = DNNMEM__TAKE(&s, int32_t, n);
    w->next_in_object = DNNMEM__TAKE(&s, int32_t, n);
    w->object_of = DNNMEM__TAKE(&s, int32_t, n);
    w->renumber = DNNMEM__TAKE(&s, int32_t, n);
    w->best_object = DNNMEM__TAKE(&s, int32_t, n);
    w->stage = DNNMEM__TAKE(&s, int32_t, n);
    w->blocked_by = DNNMEM__TAKE(&s, int32_t, n);
  }
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_share_solve_scratch_size(const dnnmem_intervals *problem,
                                                         const dnnmem_share_options *options,
                                                         size_t *out_bytes) {
  dnnmem__share_work w;
  (void)options; /* every algo needs the same */
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__share_carve(problem, DNNMEM__SHARE_SOLVE, &w, NULL, 0, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_share_lower_bound_scratch_size(const dnnmem_intervals *problem,
                                                               size_t *out_bytes) {
  dnnmem__share_work w;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__share_carve(problem, DNNMEM__SHARE_BOUND, &w, NULL, 0, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_share_check_scratch_size(const dnnmem_intervals *problem,
                                                         size_t *out_bytes) {
  dnnmem__share_work w;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__share_carve(problem, DNNMEM__SHARE_CHECK, &w, NULL, 0, out_bytes);
}

static const char dnnmem__share_names[DNNMEM_SHARE_ALGO_COUNT][DNNMEM__NAME_BYTES] = {
    "best", "greedy-size", "greedy-size-improved", "greedy-breadth", "greedy-order"};

DNNMEM__ENUM_NAMES(dnnmem_share_algo, dnnmem__share_names, DNNMEM_SHARE_ALGO_COUNT)

/* Positional maximums: records by size, descending, counted into the live
   count of their segments; when the largest count first reaches k, the
   record just added is the k-th positional maximum. O(n log n). Returns
   how many there are (the maximum overlap). */
static int32_t dnnmem__positional_maximums(dnnmem__share_work *w) {
  dnnmem__planner *p = &w->planner;
  size_t nodes = dnnmem__sky_nodes(p->segments > 0 ? p->segments : 1);
  int32_t i, m = 0;
  DNNMEM_MEMSET(w->counts.max, 0, nodes * sizeof(int32_t));
  DNNMEM_MEMSET(w->counts.add, 0, nodes * sizeof(int32_t));
  w->counts.span = (int32_t)(nodes / 2);
  for (i = 0; i < p->n; i++) p->order[i] = i;
  dnnmem__sort_ids(p->order, p->tmp, p->n, dnnmem__less_by_size_desc, p->rec);
  for (i = 0; i < p->n; i++) {
    int32_t r = p->order[i];
    dnnmem__count_add(&w->counts, 1, 0, w->counts.span, p->lo[r], p->hi[r]);
    if (w->counts.max[1] > m) w->positional_max[m++] = p->rec[r].size;
  }
  return m;
}

/* Marks blocked_by[o] = r for every object holding a record that meets r
   (r's time neighbours, from the interval tree of all records):
   O((1 + k) log n). An object is free for r when it is not marked. */
static void dnnmem__mark_blocked(dnnmem__share_work *w, int32_t r) {
  dnnmem__planner *p = &w->planner;
  int32_t k;
  p->found_count = 0;
  dnnmem__itree_query(p, 0, p->n, p->rec[r].lower, p->rec[r].upper);
  for (k = 0; k < p->found_count; k++)
    if (w->object_of[p->found[k]] >= 0) w->blocked_by[w->object_of[p->found[k]]] = r;
}

static int dnnmem__object_free(dnnmem__share_work *w, int32_t o, int32_t r) {
  dnnmem__mark_blocked(w, r);
  return w->blocked_by[o] != r;
}

static void dnnmem__object_add(dnnmem__share_work *w, int32_t o, int32_t r) {
  if (o == w->objects) {
    w->objects++;
    w->object_head[o] = -1;
    w->object_size[o] = 0;
    w->blocked_by[o] = -1;
  }
  w->object_of[r] = o;
  w->next_in_object[r] = w->object_head[o];
  w->object_head[o] = r;
  if (w->planner.rec[r].size > w->object_size[o]) w->object_size[o] = w->planner.rec[r].size;
}

/* The smallest free object at least as large as r; else, when may_grow,
   the largest free one; else a new one. Ties: the lowest object id. */
static int32_t dnnmem__pick_object(dnnmem__share_work *w, int32_t r, int may_grow) {
  int64_t size = w->planner.rec[r].size;
  int32_t o, fit = -1, grow = -1;
  dnnmem__mark_blocked(w, r);
  for (o = 0; o < w->objects; o++) {
    if (w->blocked_by[o] == r) continue;
    if (w->object_size[o] >= size) {
      if (fit < 0 || w->object_size[o] < w->object_size[fit]) fit = o;
    } else if (grow < 0 || w->object_size[o] > w->object_size[grow]) {
      grow = o;
    }
  }
  return fit >= 0 ? fit : (may_grow && grow >= 0) ? grow : w->objects;
}

/* The time between two disjoint lifetimes (saturating: far apart is far). */
static int64_t dnnmem__time_gap(const dnnmem_interval *a, const dnnmem_interval *b) {
  int64_t lo = a->upper <= b->lower ? a->upper : b->upper, hi = a->upper <= b->lower ? b->lower : a->lower;
  return lo < 0 && hi > DNNMEM__I64_MAX + lo ? DNNMEM__I64_MAX : hi - lo;
}

/* The time between r and the nearest record of object o (o must be free). */
static int64_t dnnmem__object_distance(const dnnmem__share_work *w, int32_t o, int32_t r) {
  const dnnmem_interval *rec = w->planner.rec;
  int64_t best = DNNMEM__I64_MAX, d;
  int32_t q;
  for (q = w->object_head[o]; q >= 0; q = w->next_in_object[q]) {
    d = dnnmem__time_gap(&rec[q], &rec[r]);
    if (d < best) best = d;
  }
  return best;
}

/* Greedy by Size Improved: stages by positional maximums (stage 2k: size
   equal to the k-th maximum, 2k+1: between the k-th and the next); inside a
   stage the (record, large-enough free object) pair with the smallest time
   distance, else a new object for the stage's largest record. Each record
   caches its best pair; an assignment refreshes only what it changed. */
static void dnnmem__share_improved(dnnmem__share_work *w, int32_t num_max) {
  dnnmem__planner *p = &w->planner;
  const dnnmem_interval *rec = p->rec;
  int32_t i, begin, end, k;
  for (i = 0; i < p->n; i++) { /* stage of record i: binary search in the maximums */
    int32_t lo = 0, hi = num_max;
    while (lo < hi) { /* first k with positional_max[k] <= size */
      int32_t mid = lo + (hi - lo) / 2;
      if (w->positional_max[mid] > rec[i].size) lo = mid + 1;
      else hi = mid;
    }
    w->stage[i] = lo < num_max && w->positional_max[lo] == rec[i].size ? 2 * lo : 2 * lo - 1;
    p->order[i] = i;
  }
  dnnmem__sort_ids(p->order, p->tmp, p->n, dnnmem__less_by_size_desc, rec);
  for (begin = 0; begin < p->n; begin = end) {
    for (end = begin; end < p->n && w->stage[p->order[end]] == w->stage[p->order[begin]]; end++) {
    }
    for (k = begin; k < end; k++) w->best_object[p->order[k]] = -2; /* stale */
    for (;;) {
      int32_t pick = -1, o, fresh;
      for (k = begin; k < end; k++) {
        int32_t r = p->order[k];
        if (w->object_of[r] >= 0) continue;
        if (w->best_object[r] == -2) { /* refresh the cache */
          w->best_object[r] = -1;
          w->best_dist[r] = DNNMEM__I64_MAX;
          dnnmem__mark_blocked(w, r);
          for (o = 0; o < w->objects; o++)
            if (w->object_size[o] >= rec[r].size && w->blocked_by[o] != r) {
              int64_t d = dnnmem__object_distance(w, o, r);
              if (d < w->best_dist[r]) w->best_dist[r] = d, w->best_object[r] = o;
            }
        }
        if (w->best_object[r] >= 0 && (pick < 0 || w->best_dist[r] < w->best_dist[pick])) pick = r;
      }
      if (pick < 0) { /* no pair: a new object for the largest unassigned */
        for (k = begin; k < end && w->object_of[p->order[k]] >= 0; k++) {
        }
        if (k == end) break;
        pick = p->order[k];
        o = w->objects;
      } else {
        o = w->best_object[pick];
      }
      fresh = o == w->objects;
      dnnmem__object_add(w, o, pick);
      for (k = begin; k < end; k++) { /* only object o changed: it gained pick */
        int32_t r = p->order[k];
        int64_t d;
        if (w->object_of[r] >= 0 || w->best_object[r] == -2) continue;
        if (rec[pick].lower < rec[r].upper && rec[r].lower < rec[pick].upper) {
          if (w->best_object[r] == o) w->best_object[r] = -2; /* o is taken now */
          continue;
        }
        if (w->object_size[o] < rec[r].size) continue;
        d = dnnmem__time_gap(&rec[pick], &rec[r]);
        if (w->best_object[r] == o) { /* still free; only pick can be nearer */
          if (d < w->best_dist[r]) w->best_dist[r] = d;
          continue;
        }
        if (!fresh) {
          /* o was not free for r, or was free but no nearer than the best:
             it can win only through pick, at distance d, if still free */
          if (w->best_object[r] == -1) continue;
          if (d > w->best_dist[r] || (d == w->best_dist[r] && o > w->best_object[r])) continue;
          if (!dnnmem__object_free(w, o, r)) continue;
        }
        if (w->best_object[r] == -1 || d < w->best_dist[r] || (d == w->best_dist[r] && o < w->best_object[r]))
          w->best_object[r] = o, w->best_dist[r] = d;
      }
    }
  }
}

static int dnnmem__less_by_lower_id(const void *ctx, int32_t a, int32_t b) {
  const dnnmem_interval *r = (const dnnmem_interval *)ctx;
  return r[a].lower < r[b].lower;
}

/* Runs one strategy into w->object_of; returns the total. */
static int64_t dnnmem__share_run(dnnmem__share_work *w, dnnmem_share_algo algo, int32_t num_max) {
  dnnmem__planner *p = &w->planner;
  int32_t i, o;
  int64_t total = 0;
  w->objects = 0;
  for (i = 0; i < p->n; i++) w->object_of[i] = -1;
  switch (algo) {
    case DNNMEM_SHARE_GREEDY_SIZE:
    case DNNMEM_SHARE_GREEDY_ORDER:
      for (i = 0; i < p->n; i++) p->order[i] = i;
      dnnmem__sort_ids(p->order, p->tmp, p->n,
                       algo == DNNMEM_SHARE_GREEDY_SIZE ? dnnmem__less_by_size_desc : dnnmem__less_by_lower,
                       p->rec);
      for (i = 0; i < p->n; i++)
        dnnmem__object_add(w, dnnmem__pick_object(w, p->order[i], algo == DNNMEM_SHARE_GREEDY_ORDER),
                           p->order[i]);
      break;
    case DNNMEM_SHARE_GREEDY_BREADTH: {
      dnnmem__breadth_ctx ctx;
      dnnmem__widest_steps(p);
      for (i = 0; i < p->n; i++) p->order[i] = i;
      ctx.rec = p->rec;
      ctx.widest = p->widest;
      ctx.breadth = p->breadth;
      dnnmem__sort_ids(p->order, p->tmp, p->n, dnnmem__less_by_breadth, &ctx);
      for (i = 0; i < p->n; i++) dnnmem__object_add(w, dnnmem__pick_object(w, p->order[i], 1), p->order[i]);
      break;
    }
    default:
      dnnmem__share_improved(w, num_max);
      break;
  }
  for (o = 0; o < w->objects; o++) total += w->object_size[o];
  return total;
}

/* Validates, carves, and (bound and solve) compresses time; solving also
   puts every record in the interval tree (time neighbours for the free
   tests). */
static dnnmem_result dnnmem__share_begin(const dnnmem_intervals *problem, int what, dnnmem__share_work *w,
                                         void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  int32_t i;
  dnnmem_result r;
  if (problem == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if ((r = dnnmem__intervals_check(problem->records, problem->count, 0, e)) != DNNMEM_OK) return r;
  for (i = 0; i < problem->count; i++) /* links are not modelled */
    if (problem->records[i].flags & (DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE))
      return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, i,
                          problem->records[i].flags & DNNMEM_INTERVAL_ALIAS ? DNNMEM_FIELD_ALIAS : DNNMEM_FIELD_REUSE);
  if ((r = dnnmem__share_carve(problem, what, w, scratch, scratch_bytes, NULL)) != DNNMEM_OK) return r;
  if (what == DNNMEM__SHARE_CHECK) return DNNMEM_OK;
  dnnmem__planner_setup(&w->planner, problem->records, problem->count, 1);
  if (what == DNNMEM__SHARE_SOLVE) {
    dnnmem__plan_reset(&w->planner, 1);
    for (i = 0; i < problem->count; i++) {
      w->planner.off[i] = 0;
      dnnmem__itree_insert(&w->planner, i);
    }
  }
  return DNNMEM_OK;
}

/* The sum of the positional maximums (at most the validated total). */
static int64_t dnnmem__share_bound(dnnmem__share_work *w, int32_t *out_count) {
  int32_t k, m = dnnmem__positional_maximums(w);
  int64_t bound = 0;
  for (k = 0; k < m; k++) bound += w->positional_max[k];
  *out_count = m;
  return bound;
}

DNNMEM_DEF dnnmem_result dnnmem_share_lower_bound(const dnnmem_intervals *problem,
                                                  dnnmem_share_result *result, void *scratch,
                                                  size_t scratch_bytes) {
  dnnmem__share_work w;
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  int32_t m;
  dnnmem_result r;
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  r = dnnmem__share_begin(problem, DNNMEM__SHARE_BOUND, &w, scratch, scratch_bytes, &e);
  if (r == DNNMEM_OK) result->lower_bound = dnnmem__share_bound(&w, &m);
  return dnnmem__report(&result->error, &e, r);
}

/* Copies w's assignment to object_of (and object_sizes), objects
   renumbered by first use (records by lower, then id); returns their
   number. */
static int32_t dnnmem__share_output(dnnmem__share_work *w, int32_t *object_of, int64_t *object_sizes) {
  dnnmem__planner *p = &w->planner;
  int32_t i, objects = 0;
  for (i = 0; i < p->n; i++) p->order[i] = i, w->renumber[i] = -1;
  dnnmem__sort_ids(p->order, p->tmp, p->n, dnnmem__less_by_lower_id, p->rec);
  for (i = 0; i < p->n; i++) {
    int32_t o = w->object_of[p->order[i]];
    if (w->renumber[o] < 0) {
      w->renumber[o] = objects;
      if (object_sizes) object_sizes[objects] = w->object_size[o];
      objects++;
    }
  }
  for (i = 0; i < p->n; i++) object_of[i] = w->renumber[w->object_of[i]];
  return objects;
}

static dnnmem_result dnnmem__share_solve(const dnnmem_intervals *problem, const dnnmem_share_options *options,
                                         int32_t *object_of, int64_t *object_sizes,
                                         dnnmem_share_result *result, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  /* the quadratic one last: often a greedy meets the bound and ends it */
  static const dnnmem_share_algo candidates[] = {DNNMEM_SHARE_GREEDY_SIZE,
                                                 DNNMEM_SHARE_GREEDY_BREADTH,
                                                 DNNMEM_SHARE_GREEDY_ORDER,
                                                 DNNMEM_SHARE_GREEDY_SIZE_IMPROVED};
  dnnmem__share_work w;
  dnnmem_share_algo algo = options ? options->algo : DNNMEM_SHARE_BEST;
  dnnmem_share_result res;
  int32_t m, k;
  dnnmem_result r;
  if ((int)algo < 0 || algo >= DNNMEM_SHARE_ALGO_COUNT) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_ALGO);
  if ((r = dnnmem__share_begin(problem, DNNMEM__SHARE_SOLVE, &w, scratch, scratch_bytes, e)) != DNNMEM_OK)
    return r;
  if (problem->count > 0 && object_of == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  res.lower_bound = dnnmem__share_bound(&w, &m);
  res.total = problem->count ? DNNMEM__I64_MAX : 0;
  res.objects = 0;
  res.algo = algo == DNNMEM_SHARE_BEST ? candidates[0] : algo;
  for (k = 0; k < (int32_t)(sizeof(candidates) / sizeof(candidates[0])) && res.total > res.lower_bound; k++) {
    int64_t total;
    if (algo != DNNMEM_SHARE_BEST && candidates[k] != algo) continue;
    total = dnnmem__share_run(&w, candidates[k], m);
    if (total < res.total) {
      res.total = total;
      res.algo = candidates[k];
      res.objects = dnnmem__share_output(&w, object_of, object_sizes);
    }
  }
  res.optimal = res.total == res.lower_bound;
  if (result) *result = res;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_share_solve(const dnnmem_intervals *problem,
                                            const dnnmem_share_options *options,
                                            int32_t *object_of, int64_t *object_sizes,
                                            dnnmem_share_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__share_solve(problem, options, object_of, object_sizes, result, scratch, scratch_bytes, &e));
}

/* Records by (object, lower). */
typedef struct dnnmem__share_check_ctx {
  const dnnmem_interval *records;
  const int32_t *object_of;
} dnnmem__share_check_ctx;

static int dnnmem__less_by_object_lower(const void *ctx, int32_t a, int32_t b) {
  const dnnmem__share_check_ctx *c = (const dnnmem__share_check_ctx *)ctx;
  return c->object_of[a] < c->object_of[b] ||
         (c->object_of[a] == c->object_of[b] && c->records[a].lower < c->records[b].lower);
}

static dnnmem_result dnnmem__share_check(const dnnmem_intervals *problem, const int32_t *object_of,
                                         dnnmem_share_result *out, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  dnnmem__share_work w;
  dnnmem__share_check_ctx ctx;
  int32_t *order = NULL, i, count, objects = 0, last = -1;
  int64_t total = 0, size = 0, last_end = 0;
  dnnmem_result r = dnnmem__share_begin(problem, DNNMEM__SHARE_CHECK, &w, scratch, scratch_bytes, e);
  if (r != DNNMEM_OK) return r;
  count = problem->count;
  if (count > 0 && object_of == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OBJECT);
  order = w.planner.order;
  for (i = 0; i < count; i++) {
    if (object_of[i] < 0 || object_of[i] >= count) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, i, DNNMEM_FIELD_OBJECT);
    order[i] = i;
  }
  ctx.records = problem->records;
  ctx.object_of = object_of;
  dnnmem__sort_ids(order, w.planner.tmp, count, dnnmem__less_by_object_lower, &ctx);
  for (i = 0; i < count; i++) {
    const dnnmem_interval *q = &problem->records[order[i]];
    if (i == 0 || object_of[order[i]] != object_of[order[i - 1]]) {
      total += size;
      objects++;
      size = 0;
      last_end = DNNMEM__I64_MIN;
    }
    if (q->lower < last_end) /* meets the member that ends last */
      return dnnmem__fail2(e, DNNMEM_ERR_SHARE_OVERLAP, last < order[i] ? last : order[i],
                           last < order[i] ? order[i] : last, DNNMEM_FIELD_OBJECT);
    if (q->upper > last_end) last_end = q->upper, last = order[i];
    size = dnnmem__max64(size, q->size);
  }
  total += size;
  out->total = total;
  out->objects = objects;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_share_check(const dnnmem_intervals *problem, const int32_t *object_of,
                                            dnnmem_share_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_share_result res;
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  dnnmem_result r;
  DNNMEM_MEMSET(&res, 0, sizeof(res));
  r = dnnmem__share_check(problem, object_of, &res, scratch, scratch_bytes, &e);
  if (result) *result = res; /* zero but on success */
  return dnnmem__report(result ? &result->error : NULL, &e, r);
}


/* ==== 4. Path covers of graphs (dnnmem_cover_*) ========================== */

#ifndef DNNMEM_NO_COVER

/* ---- path covers of DAGs ------------------------------------------------ */

typedef struct dnnmem__cover_vertices_work {
  void *topo_scratch; /* for dnnmem_graph_topo_order */
  size_t topo_bytes;
  int32_t *topo;       /* topological order */
  int32_t *pred, *succ; /* the cover: previous / next vertex on the path, -1 */
  /* Hopcroft-Karp (plain) */
  int32_t *dist, *edge_cursor, *queue, *stack;
  /* transitive: flow network and its decomposition */
  void *flow_scratch;
  size_t flow_bytes;
  int32_t *out_offsets, *out_edges; /* consumers CSR: edge ids k by input */
  int32_t *edge_head;               /* consumer of edge k */
  int64_t *remaining;               /* per flow arc: flow not yet walked */
} dnnmem__cover_vertices_work;

/* Sizes of the transitive variant's flow network. */
static int dnnmem__cover_closure_net(int32_t n, int32_t m, int32_t *nodes, int32_t *arcs) {
  if (n > (DNNMEM__I32_MAX / 2 - 2) / 3 || m > DNNMEM__I32_MAX / 2 - 1 - 3 * n) return 0;
  *nodes = 2 * n + 2;
  *arcs = 3 * n + m;
  return 1;
}

static void dnnmem__cover_vertices_layout(dnnmem__scratch *s, int32_t n, int32_t m,
                                     int32_t transitive, dnnmem__cover_vertices_work *w) {
  int32_t nodes = 0, arcs = 0;
  if (dnnmem__topo_order_bytes(n, m, &w->topo_bytes) != DNNMEM_OK) s->overflow = 1;
  w->topo_scratch = DNNMEM__TAKE(s, unsigned char, w->topo_bytes);
  w->topo = DNNMEM__TAKE(s, int32_t, n);
  w->pred = DNNMEM__TAKE(s, int32_t, n);
  w->succ = DNNMEM__TAKE(s, int32_t, n);
  w->flow_bytes = 0;
  if (transitive) {
    if (!dnnmem__cover_closure_net(n, m, &nodes, &arcs) ||
        dnnmem_flow_scratch_size(nodes, arcs, &w->flow_bytes) != DNNMEM_OK) {
      s->overflow = 1;
      arcs = 0;
    }
    w->flow_scratch = DNNMEM__TAKE(s, unsigned char, w->flow_bytes);
    w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
    w->out_edges = DNNMEM__TAKE(s, int32_t, m);
    w->edge_head = DNNMEM__TAKE(s, int32_t, m);
    w->edge_cursor = DNNMEM__TAKE(s, int32_t, n);
    w->remaining = DNNMEM__TAKE(s, int64_t, arcs);
    w->dist = w->queue = w->stack = NULL;
  } else {
    w->flow_scratch = NULL;
    w->out_offsets = w->out_edges = w->edge_head = NULL;
    w->remaining = NULL;
    w->dist = DNNMEM__TAKE(s, int32_t, n);
    w->edge_cursor = DNNMEM__TAKE(s, int32_t, n);
    w->queue = DNNMEM__TAKE(s, int32_t, n);
    w->stack = DNNMEM__TAKE(s, int32_t, n);
  }
}

/* The graph's counts (checked CSR) and whether the cover is transitive. */
static dnnmem_result dnnmem__cover_counts(const dnnmem_graph *graph,
                                          const dnnmem_cover_options *options, int32_t *n,
                                          int32_t *m, int32_t *transitive, dnnmem_error *e) {
  dnnmem_result r = dnnmem_graph_check(graph, e);
  if (r != DNNMEM_OK) return r;
  *n = graph->num_nodes;
  *m = *n > 0 ? graph->in_offsets[*n] : 0;
  *transitive = options != NULL && options->transitive != 0;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_cover_vertices_scratch_size(const dnnmem_graph *graph,
                                                            const dnnmem_cover_options *options,
                                                            size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__cover_vertices_work w;
  dnnmem_result r;
  int32_t n, m, transitive, nodes, arcs;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__cover_counts(graph, options, &n, &m, &transitive, NULL)) != DNNMEM_OK) return r;
  if (transitive && !dnnmem__cover_closure_net(n, m, &nodes, &arcs)) return DNNMEM_ERR_TOO_MANY;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__cover_vertices_layout(&s, n, m, transitive, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* Maximum matching "u is the path predecessor of v" over the graph's edges:
   left side the consumers v (their inputs are the CSR lists as given),
   right side the inputs u. Hopcroft-Karp: BFS layers from the free
   consumers up to the first layer that sees a free input, then iterative
   DFS along the layers; O(E sqrt V). Starts from a greedy matching. */
static void dnnmem__cover_hopcroft_karp(const dnnmem_graph *g, dnnmem__cover_vertices_work *w) {
  const int32_t *off = g->in_offsets, *ids = g->in_ids;
  int32_t n = g->num_nodes, v, k;
  const int32_t inf = DNNMEM__I32_MAX;
  for (v = 0; v < n; v++) w->pred[v] = w->succ[v] = -1;
  for (v = 0; v < n; v++) /* greedy start */
    for (k = off[v]; k < off[v + 1]; k++)
      if (w->succ[ids[k]] < 0) {
        w->succ[ids[k]] = v;
        w->pred[v] = ids[k];
        break;
      }
  for (;;) {
    int32_t head = 0, tail = 0, limit = inf, root;
    for (v = 0; v < n; v++) {
      if (w->pred[v] < 0 && off[v + 1] > off[v]) {
        w->dist[v] = 0;
        w->queue[tail++] = v;
      } else {
        w->dist[v] = inf;
      }
    }
    while (head < tail) {
      v = w->queue[head++];
      if (w->dist[v] >= limit) break; /* layers past the first free input */
      for (k = off[v]; k < off[v + 1]; k++) {
        int32_t next = w->succ[ids[k]];
        if (next < 0) {
          if (limit == inf) limit = w->dist[v];
        } else if (w->dist[next] == inf && w->dist[v] < limit) {
          w->dist[next] = w->dist[v] + 1;
          w->queue[tail++] = next;
        }
      }
    }
    if (limit == inf) break; /* no augmenting path: maximum */
    for (v = 0; v < n; v++) w->edge_cursor[v] = off[v];
    for (root = 0; root < n; root++) {
      int32_t depth;
      if (w->pred[root] >= 0 || w->dist[root] != 0) continue;
      depth = 0;
      w->stack[depth++] = root;
      while (depth > 0) {
        int32_t u, next;
        v = w->stack[depth - 1];
        if (w->edge_cursor[v] == off[v + 1]) { /* dead end: never again this phase */
          w->dist[v] = inf;
          if (--depth > 0) w->edge_cursor[w->stack[depth - 1]]++;
          continue;
        }
        u = ids[w->edge_cursor[v]];
        next = w->succ[u];
        if (next < 0) { /* free input: flip the path on the stack */
          while (depth > 0) {
            int32_t x = w->stack[--depth], y = ids[w->edge_cursor[x]];
            w->pred[x] = y;
            w->succ[y] = x;
          }
        } else if (w->dist[next] != inf && w->dist[next] == w->dist[v] + 1 &&
                   w->dist[next] <= limit) {
          w->stack[depth++] = next;
        } else {
          w->edge_cursor[v]++;
        }
      }
    }
  }
}

/* The cover's networks are sized by their layouts, their ids are in range
   and their capacities are counts (>= 0, sums far below INT64_MAX), so
   neither adding an arc nor solving can fail: assertions, not errors. */
static void dnnmem__cover_arc(dnnmem_flow *flow, int32_t from, int32_t to, int64_t capacity) {
  dnnmem_result r = dnnmem_flow_add_arc(flow, from, to, capacity, 0, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  (void)r;
}

static void dnnmem__cover_flow(dnnmem_flow *flow, int32_t source, int32_t sink) {
  dnnmem_result r = dnnmem_flow_solve(flow, source, sink, NULL, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  (void)r;
}

/* The minimum chain cover of the reachability order without its quadratic
   closure: a max flow S -> out_u (1) -> in_w (inf, each edge u -> w) ->
   out_w (inf, pass through w) ... -> in_v -> T (1) pairs u with a v it
   reaches, each at most once per side; decomposing the flow gives the
   pairs. Arc ids: S->out_u = u, in_v->T = n + v, in_w->out_w = 2n + w,
   edge k = 3n + k. */
static void dnnmem__cover_closure(const dnnmem_graph *g, dnnmem__cover_vertices_work *w) {
  const int32_t *off = g->in_offsets, *ids = g->in_ids;
  int32_t n = g->num_nodes, m = off[n], nodes = 0, arcs = 0, v, k, a;
  int32_t source = 2 * n, sink = 2 * n + 1;
  dnnmem_flow flow;
  dnnmem_result r;
  int64_t inf = (int64_t)n;
  (void)dnnmem__cover_closure_net(n, m, &nodes, &arcs); /* checked by the caller */
  r = dnnmem_flow_init(&flow, nodes, arcs, w->flow_scratch, w->flow_bytes);
  DNNMEM_ASSERT(r == DNNMEM_OK); /* the layout sized the scratch for this network */
  (void)r;
  for (v = 0; v < n; v++) dnnmem__cover_arc(&flow, source, v, 1);
  for (v = 0; v < n; v++) dnnmem__cover_arc(&flow, n + v, sink, 1);
  for (v = 0; v < n; v++) dnnmem__cover_arc(&flow, n + v, v, inf);
  for (v = 0; v < n; v++)
    for (k = off[v]; k < off[v + 1]; k++) dnnmem__cover_arc(&flow, ids[k], n + v, inf);
  dnnmem__cover_flow(&flow, source, sink);
  for (a = 0; a < arcs; a++) w->remaining[a] = dnnmem_flow_arc_flow(&flow, a);
  /* consumers CSR of edge ids, for walking out of out_u */
  for (v = 0; v <= n; v++) w->out_offsets[v] = 0;
  for (k = 0; k < m; k++) w->out_offsets[ids[k] + 1]++;
  for (v = 0; v < n; v++) w->out_offsets[v + 1] += w->out_offsets[v];
  for (v = 0; v < n; v++) w->edge_cursor[v] = w->out_offsets[v];
  for (v = 0; v < n; v++)
    for (k = off[v]; k < off[v + 1]; k++) {
      w->out_edges[w->edge_cursor[ids[k]]++] = k;
      w->edge_head[k] = v;
    }
  for (v = 0; v < n; v++) w->edge_cursor[v] = w->out_offsets[v];
  for (v = 0; v < n; v++) w->pred[v] = w->succ[v] = -1;
  for (v = 0; v < n; v++) {
    int32_t x = v;
    if (w->remaining[v] <= 0) continue;
    w->remaining[v]--;
    for (;;) { /* at out_x: take an edge arc with flow left */
      int32_t y, e;
      while (w->edge_cursor[x] < w->out_offsets[x + 1] &&
             w->remaining[3 * n + w->out_edges[w->edge_cursor[x]]] <= 0)
        w->edge_cursor[x]++;
      /* one unit entered out_x (from S or through x): conservation leaves one to leave by */
      DNNMEM_ASSERT(w->edge_cursor[x] < w->out_offsets[x + 1]);
      e = w->out_edges[w->edge_cursor[x]];
      w->remaining[3 * n + e]--;
      y = w->edge_head[e];
      if (w->remaining[n + y] > 0) { /* in_y -> T: the pair (v, y) */
        w->remaining[n + y]--;
        w->succ[v] = y;
        w->pred[y] = v;
        break;
      }
      DNNMEM_ASSERT(w->remaining[2 * n + y] > 0); /* the unit into in_y leaves to T or through y */
      w->remaining[2 * n + y]--;
      x = y;
    }
  }
}

/* Writes path_of / order from pred / succ, paths in the topological order of
   their first vertex; returns the number of paths. */
static int32_t dnnmem__cover_emit_paths(int32_t n, const int32_t *topo, const int32_t *pred,
                                        const int32_t *succ, int32_t *path_of, int32_t *order) {
  int32_t paths = 0, pos = 0, i, v;
  for (i = 0; i < n; i++) {
    if (pred[topo[i]] >= 0) continue;
    for (v = topo[i]; v >= 0; v = succ[v]) {
      if (path_of) path_of[v] = paths;
      if (order) order[pos] = v;
      pos++;
    }
    paths++;
  }
  DNNMEM_ASSERT(pos == n);
  return paths;
}

static dnnmem_result dnnmem__cover_vertices(const dnnmem_graph *graph, const dnnmem_cover_options *options,
                                            int32_t *path_of, int32_t *order, dnnmem_cover_result *result,
                                            void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__cover_vertices_work w;
  dnnmem_result r;
  int32_t n, m, transitive, paths, nodes, arcs;
  if ((r = dnnmem__cover_counts(graph, options, &n, &m, &transitive, e)) != DNNMEM_OK) return r;
  if (n == 0) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  if (transitive && !dnnmem__cover_closure_net(n, m, &nodes, &arcs)) return DNNMEM_ERR_TOO_MANY;
  if (scratch == NULL) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__cover_vertices_layout(&s, n, m, transitive, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  r = dnnmem_graph_topo_order(graph, w.topo, w.topo_scratch, w.topo_bytes, e);
  if (r != DNNMEM_OK) return r;
  if (transitive) {
    dnnmem__cover_closure(graph, &w);
  } else {
    dnnmem__cover_hopcroft_karp(graph, &w);
  }
  paths = dnnmem__cover_emit_paths(n, w.topo, w.pred, w.succ, path_of, order);
  if (result) {
    result->paths = paths;
    result->path_nodes = n;
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_cover_vertices(const dnnmem_graph *graph,
                                               const dnnmem_cover_options *options,
                                               int32_t *path_of, int32_t *order,
                                               dnnmem_cover_result *result, void *scratch,
                                               size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__cover_vertices(graph, options, path_of, order, result, scratch, scratch_bytes, &e));
}

/* ---- W: paths covering every edge --------------------------------------- */

typedef struct dnnmem__cover_edges_work {
  void *topo_scratch, *flow_scratch;
  size_t topo_bytes, flow_bytes;
  int32_t *topo;        /* topological order */
  int32_t *mark;        /* per node: its latest edge as an input (finds repeats) */
  int32_t *first_copy;  /* per edge: the first edge of the same pair */
  int32_t *arc_of;      /* per distinct edge: its flow arc */
  int32_t *edge_head;   /* per edge: its consumer */
  int32_t *out_offsets, *out_edges, *cursor; /* distinct edges by input */
  int32_t *indeg, *outdeg;                   /* distinct edges */
  int64_t *uses;        /* per distinct edge: traversals left to walk */
  int64_t *out_left;    /* per node: traversals left out of it */
} dnnmem__cover_edges_work;

static int dnnmem__cover_edges_net(int32_t n, int32_t m, int32_t *nodes, int32_t *arcs) {
  if (n > DNNMEM__I32_MAX / 2 - 2 || m > DNNMEM__I32_MAX / 2 - 1 - n) return 0;
  *nodes = n + 2;
  *arcs = n + m;
  return 1;
}

static void dnnmem__cover_edges_layout(dnnmem__scratch *s, int32_t n, int32_t m,
                                       dnnmem__cover_edges_work *w) {
  int32_t nodes = 2, arcs = 0;
  if (dnnmem__topo_order_bytes(n, m, &w->topo_bytes) != DNNMEM_OK) s->overflow = 1;
  if (!dnnmem__cover_edges_net(n, m, &nodes, &arcs) ||
      dnnmem_flow_scratch_size(nodes, arcs, &w->flow_bytes) != DNNMEM_OK) {
    s->overflow = 1;
    w->flow_bytes = 0;
  }
  w->topo_scratch = DNNMEM__TAKE(s, unsigned char, w->topo_bytes);
  w->flow_scratch = DNNMEM__TAKE(s, unsigned char, w->flow_bytes);
  w->topo = DNNMEM__TAKE(s, int32_t, n);
  w->mark = DNNMEM__TAKE(s, int32_t, n);
  w->first_copy = DNNMEM__TAKE(s, int32_t, m);
  w->arc_of = DNNMEM__TAKE(s, int32_t, m);
  w->edge_head = DNNMEM__TAKE(s, int32_t, m);
  w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->out_edges = DNNMEM__TAKE(s, int32_t, m);
  w->cursor = DNNMEM__TAKE(s, int32_t, n);
  w->indeg = DNNMEM__TAKE(s, int32_t, n);
  w->outdeg = DNNMEM__TAKE(s, int32_t, n);
  w->uses = DNNMEM__TAKE(s, int64_t, m);
  w->out_left = DNNMEM__TAKE(s, int64_t, n);
}

DNNMEM_DEF dnnmem_result dnnmem_cover_edges_scratch_size(const dnnmem_graph *graph,
                                                         const dnnmem_cover_options *options,
                                                         size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__cover_edges_work w;
  dnnmem_result r;
  int32_t n, m, transitive, nodes, arcs;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__cover_counts(graph, options, &n, &m, &transitive, NULL)) != DNNMEM_OK) return r;
  if (transitive) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (!dnnmem__cover_edges_net(n, m, &nodes, &arcs)) return DNNMEM_ERR_TOO_MANY;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__cover_edges_layout(&s, n, m, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* Every edge once gives sum max(0, out - in) paths. Extra traversals along
   a route from a vertex where paths end (in > out) to one where they start
   (out > in) join two paths into one; the most such joins at once is a max
   flow S -> ends (in - out) -> edges (unbounded) -> starts (out - in) -> T,
   and W = starts - that flow (min flow with lower bounds = feasible flow
   minus the max flow back). Every edge's traversals: 1 + its arc's flow. */
static dnnmem_result dnnmem__cover_edges(const dnnmem_graph *graph, const dnnmem_cover_options *options,
                                         int64_t *edge_uses, int64_t *path_offsets, int32_t *path_nodes,
                                         int32_t path_nodes_capacity, dnnmem_cover_result *result,
                                         void *scratch, size_t scratch_bytes, dnnmem_error *err) {
  dnnmem__scratch s;
  dnnmem__cover_edges_work w;
  dnnmem_result r;
  const int32_t *off, *ids;
  int32_t n, m, v, k, nodes, arcs, distinct = 0, num_arcs = 0, paths = 0, w_count, transitive;
  int64_t starts = 0, joins = 0, total, pos = 0;
  dnnmem_flow flow;
  if ((r = dnnmem__cover_counts(graph, options, &n, &m, &transitive, err)) != DNNMEM_OK) return r;
  if (n == 0) return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  if (transitive) return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OPTIONS);
  if (path_nodes_capacity < 0) return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  off = graph->in_offsets;
  ids = graph->in_ids;
  if (!dnnmem__cover_edges_net(n, m, &nodes, &arcs)) return DNNMEM_ERR_TOO_MANY;
  if (scratch == NULL) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__cover_edges_layout(&s, n, m, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  r = dnnmem_graph_topo_order(graph, w.topo, w.topo_scratch, w.topo_bytes, err);
  if (r != DNNMEM_OK) return r;
  /* distinct edges and degrees */
  for (v = 0; v < n; v++) w.mark[v] = -1, w.indeg[v] = w.outdeg[v] = 0;
  for (v = 0; v < n; v++) {
    for (k = off[v]; k < off[v + 1]; k++) {
      int32_t u = ids[k];
      w.edge_head[k] = v;
      if (w.mark[u] >= 0 && w.edge_head[w.mark[u]] == v) { /* a repeat of u -> v */
        w.first_copy[k] = w.mark[u];
        continue;
      }
      w.mark[u] = k;
      w.first_copy[k] = k;
      w.outdeg[u]++;
      w.indeg[v]++;
      distinct++;
    }
  }
  for (v = 0; v < n; v++)
    if (w.outdeg[v] > w.indeg[v]) starts += w.outdeg[v] - w.indeg[v];
  /* the flow: only when some path can be joined to another */
  r = dnnmem_flow_init(&flow, nodes, arcs, w.flow_scratch, w.flow_bytes);
  DNNMEM_ASSERT(r == DNNMEM_OK); /* the layout sized the scratch for this network */
  for (k = 0; k < m; k++) {
    if (w.first_copy[k] != k) continue;
    w.arc_of[k] = num_arcs++;
    dnnmem__cover_arc(&flow, ids[k], w.edge_head[k], (int64_t)distinct);
  }
  for (v = 0; v < n; v++) {
    if (w.indeg[v] > w.outdeg[v])
      dnnmem__cover_arc(&flow, n, v, (int64_t)(w.indeg[v] - w.outdeg[v]));
    else if (w.outdeg[v] > w.indeg[v])
      dnnmem__cover_arc(&flow, v, n + 1, (int64_t)(w.outdeg[v] - w.indeg[v]));
  }
  if (starts > 0) {
    dnnmem__cover_flow(&flow, n, n + 1);
    joins = flow.value;
  }
  /* traversals per edge and the paths' total length */
  total = starts - joins;
  DNNMEM_ASSERT(total >= 0 && total <= distinct);
  w_count = paths = (int32_t)total;
  for (v = 0; v < n; v++) w.out_left[v] = 0;
  for (k = 0; k < m; k++) {
    if (w.first_copy[k] != k) continue;
    DNNMEM_ASSERT(starts > 0); /* an acyclic graph with an edge has a source: the flow ran */
    w.uses[k] = 1 + dnnmem_flow_arc_flow(&flow, w.arc_of[k]);
    DNNMEM_ASSERT(w.uses[k] >= 1); /* an arc's flow is >= 0 */
    w.out_left[ids[k]] += w.uses[k];
    total += w.uses[k];
  }
  if (result) {
    result->paths = paths;
    result->path_nodes = total;
  }
  if (edge_uses)
    for (k = 0; k < m; k++) edge_uses[k] = w.uses[w.first_copy[k]];
  if (path_nodes == NULL && path_offsets == NULL) return DNNMEM_OK;
  if (path_nodes != NULL && path_nodes_capacity < total) return DNNMEM_ERR_OUTPUT_TOO_SMALL;
  /* walk the traversals: vertices in topological order start the paths that
     are left after everything arriving from earlier vertices went on */
  for (v = 0; v <= n; v++) w.out_offsets[v] = 0;
  for (k = 0; k < m; k++)
    if (w.first_copy[k] == k) w.out_offsets[ids[k] + 1]++;
  for (v = 0; v < n; v++) w.out_offsets[v + 1] += w.out_offsets[v];
  for (v = 0; v < n; v++) w.cursor[v] = w.out_offsets[v];
  for (k = 0; k < m; k++)
    if (w.first_copy[k] == k) w.out_edges[w.cursor[ids[k]]++] = k;
  for (v = 0; v < n; v++) w.cursor[v] = w.out_offsets[v];
  paths = 0;
  for (k = 0; k < n; k++) {
    int32_t start = w.topo[k];
    while (w.out_left[start] > 0) {
      int32_t x = start;
      if (path_offsets) path_offsets[paths] = pos;
      paths++;
      if (path_nodes) path_nodes[pos] = x;
      pos++;
      while (w.out_left[x] > 0) {
        int32_t e;
        while (w.uses[w.out_edges[w.cursor[x]]] == 0) w.cursor[x]++;
        e = w.out_edges[w.cursor[x]];
        w.uses[e]--;
        w.out_left[x]--;
        x = w.edge_head[e];
        if (path_nodes) path_nodes[pos] = x;
        pos++;
      }
    }
  }
  DNNMEM_ASSERT(pos == total && paths == w_count);
  (void)w_count;
  if (path_offsets) path_offsets[paths] = pos;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_cover_edges(const dnnmem_graph *graph,
                                            const dnnmem_cover_options *options,
                                            int64_t *edge_uses, int64_t *path_offsets,
                                            int32_t *path_nodes, int32_t path_nodes_capacity,
                                            dnnmem_cover_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__cover_edges(graph, options, edge_uses, path_offsets, path_nodes, path_nodes_capacity, result, scratch, scratch_bytes, &e));
}



#endif /* DNNMEM_NO_COVER */

/* ==== 5. Recompute (dnnmem_remat_*) ====================================== */

#ifndef DNNMEM_NO_REMAT

/* ---- tuning constants (measured on the bundled training graphs) -------- */

/* the solver's defaults */
#define DNNMEM__REMAT_DEFAULT_GROUP 32      /* contraction group bound: big enough for a
                                               transformer block, exact search stays fast */
#define DNNMEM__REMAT_DEFAULT_DECOMPOSE 6   /* rounds of adding marks between coarse and plain */
#define DNNMEM__REMAT_MAX_DECOMPOSE 64      /* limit of options.decompose_steps */
#define DNNMEM__REMAT_MOVES_PER_NODE 1000   /* default iterations: 1000 V + 500000 moves, */
#define DNNMEM__REMAT_MOVES_BASE 500000     /* about a second on a few thousand nodes */
#define DNNMEM__REMAT_START_TEMP 0.02       /* relative to the base time: a 2% worse move
                                               is accepted with probability 1/e at the start */
#define DNNMEM__REMAT_END_TEMP 1e-4         /* frozen: only sub-0.01% losses pass at the end */
#define DNNMEM__REMAT_MAX_TEMP 1e300        /* temperatures above it are rejected as bad input */
#define DNNMEM__REMAT_MAX_LENGTH (1 << 28)  /* sequence capacity limit: slot indices stay int32 */
#define DNNMEM__REMAT_MIN_SEARCH_NODES 8    /* drop-set search and contraction only above it */

/* annealing moves and state */
#define DNNMEM__REMAT_SLOTS_PER_STEP 2      /* slots per sequence step: gaps to move into */
#define DNNMEM__REMAT_MOVE_DRAWS 16         /* a move kind is drawn from 16: */
#define DNNMEM__REMAT_SWAP_DRAWS 8          /* half SWAP (one in 8 of them a CHAIN), */
#define DNNMEM__REMAT_CHAIN_OF 8            /* CHAIN: one in 8 SWAP draws */
#define DNNMEM__REMAT_CHAIN_MAX 6           /* a CHAIN moves at most 6 nodes */
#define DNNMEM__REMAT_CHAIN_SCAN 64         /* and looks at most 64 slots for each gap */
#define DNNMEM__REMAT_ADD_DRAWS 4           /* a quarter ADD, the rest REMOVE */
#define DNNMEM__REMAT_ADD_WINDOW_DIV 32     /* an ADD lands within S / 32 + 2 slots before */
#define DNNMEM__REMAT_ADD_WINDOW_MIN 2      /* its use: close, where it shortens a hold */
#define DNNMEM__REMAT_RESPREAD_SWEEPS 16    /* respread after 16 S moves: ADDs fill the gaps */
#define DNNMEM__REMAT_POLL_MOVES 256        /* progress and stop polled every 256 moves */
#define DNNMEM__REMAT_POLISH_ROUNDS 4       /* zero-temperature clean-up sweeps at most */
#define DNNMEM__REMAT_REPAIR_ROUNDS 64      /* greedy repair over the budget: V / 16 + 64
                                               rounds at most */
#define DNNMEM__REMAT_REPAIR_MAX_ADD 16     /* a repair recomputes at most 16 nodes */
#define DNNMEM__REMAT_WARM_TEMP 0.1         /* start temperature factor from a decoded start:
                                               refine it, do not melt it */

/* objective */
#define DNNMEM__REMAT_PENALTY_SLOPE 10.0    /* overshoot penalty exp(10 x / base peak) - 1:
                                               continuous at the aim, so that the search
                                               trades bytes for time on both sides of it
                                               (a jump there traps it in the first
                                               feasible region it finds); the repair
                                               closes what is left over the budget */
#define DNNMEM__REMAT_PENALTY_EXP_MAX 50.0  /* exponent cap: finite costs, e^50 is decisive */
#define DNNMEM__REMAT_BLOCKS 32             /* blocks of slots whose overshoots also cost:
                                               credit for lowering memory away from the peak */
#define DNNMEM__REMAT_PEAK_WEIGHT 0.01      /* tie-break towards lower peaks */
#define DNNMEM__REMAT_AIM_MARGIN 0.02       /* contraction aims 2% below the budget: it
                                               ends hovering just over its aim, under the
                                               budget; polish and results use the budget
                                               (bert_base.train: 12-19% extra time, at 0.5%
                                               mostly 19%) */

/* the arena (with a budget, not peak_only) */
#define DNNMEM__REMAT_ARENA_SHARE 0.25      /* the arena rounds' share of the run */
#define DNNMEM__REMAT_ARENA_ROUNDS 5        /* warm annealing rounds in it */
#define DNNMEM__REMAT_ARENA_SAMPLES 4       /* each planned 4 times on the way */
#define DNNMEM__REMAT_ARENA_REPAIRS 8       /* greedy repairs at most when none fits */
#define DNNMEM__REMAT_ARENA_STEP 0.0025     /* an aim that did not fit drops by at least
                                               0.25% of the budget */
#define DNNMEM__REMAT_ARENA_CANDIDATES 16  /* plan-guided repairs tried per round */
#define DNNMEM__REMAT_PLATEAU_MARGIN 0.05   /* arena rounds: each block's memory above the aim
                                               less 5% of the budget costs (mean over the
                                               blocks, / the base peak): a plateau near the
                                               aim plans with holes (resnet18.train: mark
                                               met on 2 of 3 seeds, was 0) */
#define DNNMEM__REMAT_PLATEAU_WEIGHT 1.0    /* the weight of that cost */

/* drop-set search (checkpointing decoded from dropped values) */
#define DNNMEM__REMAT_DECODE_SHARE 0.15     /* share of the run for the drop-set search */
#define DNNMEM__REMAT_DECODE_START_TEMP 0.02 /* its temperature: 0.02 ... */
#define DNNMEM__REMAT_DECODE_TEMP_LOG (-4.2) /* ... times e^-4.2: to 3e-4 */
#define DNNMEM__REMAT_DECODE_CHARGE_DIV 32  /* a decode counts as 1 + (V + E) / 32 moves
                                               (measured cost against a move) */
#define DNNMEM__REMAT_DECODE_POLL 16        /* progress polled every 16 decodes */
#define DNNMEM__REMAT_PAIR_FLIPS 3          /* 3 moves in 10 flip two values: bn + relu */
#define DNNMEM__REMAT_PAIR_FLIP_OF 10       /* pairs are dropped together */
#define DNNMEM__REMAT_DECODE_OVER_STEP 0.3  /* cost of any overshoot: infeasible loses to */
#define DNNMEM__REMAT_DECODE_OVER_SLOPE 60.0 /* +30% time; then 60 per base peak over */

/* contraction and the portfolio (shares of the run) */
#define DNNMEM__REMAT_PLAIN_SHARE 0.4       /* plain-graph pipeline up to here (CNNs) */
#define DNNMEM__REMAT_COARSE_END 0.15       /* of the contraction pipeline: coarse stage, */
#define DNNMEM__REMAT_FINAL_START 0.35      /* decomposition, then the plain graph */
#define DNNMEM__REMAT_MARK_PERMILLE 750     /* marked first: the smallest 3/4 of the values
                                               (large values stay unmarked: recomputed) */
#define DNNMEM__REMAT_GROUP_INPUTS 4        /* a group takes at most 4 inputs per member */
#define DNNMEM__REMAT_GROUP_ORDER_FACTOR 2  /* a group order has at most 2 x group steps */
#define DNNMEM__REMAT_GROUP_STATES 4096     /* state cap of one group's exact search */
#define DNNMEM__REMAT_MAX_STATES (1 << 28)  /* limit of group_order's max_states (int32 table) */
#define DNNMEM__REMAT_HASH_MUL 0x9E3779B97F4A7C15ull /* 2^64 / golden ratio: set hashing */

/* time lower bound */
#define DNNMEM__REMAT_DEFAULT_BOUND_CUTS 16 /* same bound as all V cuts on the bundled graphs */
#define DNNMEM__REMAT_BOUND_BISECTIONS 24   /* on the multiplier: 2^-24 of its octave */
#define DNNMEM__REMAT_BOUND_SHIFT_SPAN 24   /* times scaled down at most 2^24 further so
                                               that the multiplier's range fits */
#define DNNMEM__REMAT_BOUND_MARGIN (1.0 / 1125899906842624.0) /* 2^-50: held costs rounded
                                               down (and cap up) past double rounding */

/* ---- validation, names --------------------------------------------------- */

static dnnmem_result dnnmem__remat_validate(const dnnmem_remat_problem *p, dnnmem_error *e) {
  dnnmem_result r;
  int64_t total = 0;
  int32_t v, n;
  if (p == NULL || p->graph == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if ((r = dnnmem_graph_check(p->graph, e)) != DNNMEM_OK) return r;
  n = p->graph->num_nodes;
  if (n > 0 && (p->sizes == NULL || p->times == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, p->sizes == NULL ? DNNMEM_FIELD_SIZE : DNNMEM_FIELD_TIME);
  for (v = 0; v < n; v++) {
    if (p->sizes[v] < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_SIZE);
    if (p->times[v] < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_TIME);
    if (dnnmem__add_overflows(total, p->sizes[v], &total)) return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, v, DNNMEM_FIELD_SIZE);
  }
  return DNNMEM_OK;
}

/* Bad options (dnnmem__remat_options said 0): the option at fault. */
static dnnmem_result dnnmem__remat_options_fail(const dnnmem_remat_options *o, dnnmem_error *e) {
  dnnmem_field f = DNNMEM_FIELD_OPTIONS;
  DNNMEM_ASSERT(o != NULL); /* NULL options are the defaults, which never fail */
  if ((int)o->algo < 0 || o->algo >= DNNMEM_REMAT_ALGO_COUNT) f = DNNMEM_FIELD_ALGO;
  else if (o->budget < 0) f = DNNMEM_FIELD_BUDGET;
  return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, f);
}

static int32_t dnnmem__remat_num_edges(const dnnmem_graph *g) { /* a checked graph */
  return g->num_nodes > 0 ? g->in_offsets[g->num_nodes] : 0;
}

static const char dnnmem__remat_names[DNNMEM_REMAT_ALGO_COUNT][DNNMEM__NAME_BYTES] = {"anneal", "row-order",
                                                                         "checkpoint"};

DNNMEM__ENUM_NAMES(dnnmem_remat_algo, dnnmem__remat_names, DNNMEM_REMAT_ALGO_COUNT)

/* Options with the defaults filled in (options may be NULL); 0 if bad. */
static int dnnmem__remat_options(const dnnmem_remat_options *options, dnnmem_remat_options *out) {
  if (options) *out = *options;
  else DNNMEM_MEMSET(out, 0, sizeof(*out));
  if ((int)out->algo < 0 || out->algo >= DNNMEM_REMAT_ALGO_COUNT || out->budget < 0 ||
      out->iterations < 0 || out->max_group_size < 0 ||
      out->max_group_size > DNNMEM_REMAT_MAX_GROUP || out->decompose_steps < 0 ||
      out->decompose_steps > DNNMEM__REMAT_MAX_DECOMPOSE || out->bound_cuts < 0 ||
      !(out->start_temperature >= 0 && out->start_temperature < DNNMEM__REMAT_MAX_TEMP) ||
      !(out->end_temperature >= 0 && out->end_temperature < DNNMEM__REMAT_MAX_TEMP))
    return 0;
  if (out->max_group_size == 0) out->max_group_size = DNNMEM__REMAT_DEFAULT_GROUP;
  if (out->decompose_steps == 0) out->decompose_steps = DNNMEM__REMAT_DEFAULT_DECOMPOSE;
  if (out->bound_cuts == 0) out->bound_cuts = DNNMEM__REMAT_DEFAULT_BOUND_CUTS;
  if (out->start_temperature == 0) out->start_temperature = DNNMEM__REMAT_START_TEMP;
  if (out->end_temperature == 0) out->end_temperature = DNNMEM__REMAT_END_TEMP;
  return 1;
}

/* ---- simulator ----------------------------------------------------------- */

typedef struct dnnmem__sim_work {
  int32_t *latest;   /* per node: step of its latest computation, -1 none */
  int32_t *last_use; /* per step: the last step that needs its value (its own when none binds to it) */
  int64_t *delta;    /* length + 1 memory differences */
  int32_t bad;       /* on failure: the step at fault (a missing node: the node) */
} dnnmem__sim_work;

static void dnnmem__sim_layout(dnnmem__scratch *s, int32_t n, int32_t length,
                               dnnmem__sim_work *w) {
  w->latest = DNNMEM__TAKE(s, int32_t, n);
  w->last_use = DNNMEM__TAKE(s, int32_t, length);
  w->delta = DNNMEM__TAKE(s, int64_t, (size_t)length + 1);
}

DNNMEM_DEF dnnmem_result dnnmem_remat_simulate_scratch_size(const dnnmem_remat_problem *problem,
                                                            const int32_t *sequence,
                                                            int32_t length, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__sim_work w;
  (void)sequence; /* the size depends on the length only */
  if (problem == NULL || problem->graph == NULL || problem->graph->num_nodes < 0 || length < 0 ||
      out_bytes == NULL)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__sim_layout(&s, problem->graph->num_nodes, length, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* The simulator proper on validated problem data; w sized for n, length. */
static dnnmem_result dnnmem__remat_sim(const dnnmem_remat_problem *p, const int32_t *seq,
                                       int32_t length, dnnmem__sim_work *w,
                                       dnnmem_remat_result *stats, int64_t *profile) {
  const dnnmem_graph *g = p->graph;
  int32_t n = g->num_nodes, j, v, k;
  int64_t time = 0, mem = 0, peak = 0;
  for (v = 0; v < n; v++) w->latest[v] = -1;
  for (j = 0; j < length; j++) {
    v = seq[j];
    w->bad = j;
    if (v < 0 || v >= n) return DNNMEM_ERR_ID_RANGE;
    w->last_use[j] = j;
    if (g->in_offsets[v] == g->in_offsets[v + 1] && w->latest[v] >= 0)
      return DNNMEM_ERR_REMAT_INPUT_REPEATED;
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) {
      int32_t b = w->latest[g->in_ids[k]];
      if (b < 0) return DNNMEM_ERR_REMAT_INPUT_NOT_READY;
      w->last_use[b] = j;
    }
    w->latest[v] = j;
    if (dnnmem__add_overflows(time, p->times[v], &time)) return DNNMEM_ERR_OVERFLOW;
  }
  for (v = 0; v < n; v++)
    if (w->latest[v] < 0) return w->bad = v, DNNMEM_ERR_REMAT_MISSING_NODE;
  for (j = 0; j <= length; j++) w->delta[j] = 0;
  for (j = 0; j < length; j++) {
    int32_t end = w->last_use[j];
    v = seq[j];
    if (p->is_output && p->is_output[v] && w->latest[v] == j) end = length - 1;
    w->delta[j] += p->sizes[v];
    w->delta[end + 1] -= p->sizes[v];
  }
  /* at most one instance of a node is held at a time, so the running sum
     never exceeds the (checked) sum of all sizes */
  for (j = 0; j < length; j++) {
    mem += w->delta[j];
    if (profile) profile[j] = mem;
    if (mem > peak) peak = mem;
  }
  if (stats) {
    stats->peak = peak;
    stats->time = time;
    stats->length = length;
    stats->recomputations = length - n;
    stats->moves = 0;
    stats->accepted = 0;
    stats->arena = -1;
  }
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__remat_simulate(const dnnmem_remat_problem *problem, const int32_t *sequence,
                                            int32_t length, int64_t *profile, dnnmem_remat_result *result,
                                            void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__sim_work w;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  if (r != DNNMEM_OK) return r;
  if (length < 0 || (length > 0 && sequence == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_SEQUENCE);
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__sim_layout(&s, problem->graph->num_nodes, length, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  if ((r = dnnmem__remat_sim(problem, sequence, length, &w, result, profile)) != DNNMEM_OK)
    return dnnmem__fail(e, r, w.bad, DNNMEM_FIELD_SEQUENCE);
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_simulate(const dnnmem_remat_problem *problem,
                                               const int32_t *sequence, int32_t length,
                                               int64_t *profile, dnnmem_remat_result *result,
                                               void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__remat_simulate(problem, sequence, length, profile, result, scratch, scratch_bytes, &e));
}

static dnnmem_result dnnmem__remat_lower_bound(const dnnmem_remat_problem *problem, int64_t *out_bound,
                                               dnnmem_error *e) {
  const dnnmem_graph *g;
  int64_t bound = 0, outputs = 0;
  int32_t v, k, k2;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  if (r != DNNMEM_OK) return r;
  g = problem->graph;
  for (v = 0; v < g->num_nodes; v++) {
    int64_t step = problem->sizes[v]; /* sums of distinct sizes cannot overflow */
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) {
      int32_t u = g->in_ids[k], seen = u == v;
      for (k2 = g->in_offsets[v]; k2 < k && !seen; k2++) seen = g->in_ids[k2] == u;
      if (!seen) step += problem->sizes[u];
    }
    if (step > bound) bound = step;
    if (problem->is_output && problem->is_output[v]) outputs += problem->sizes[v];
  }
  *out_bound = bound > outputs ? bound : outputs;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_lower_bound(const dnnmem_remat_problem *problem,
                                                  dnnmem_remat_bound_result *result) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  result->cut = -1;
  return dnnmem__report(&result->error, &e, dnnmem__remat_lower_bound(problem, &result->peak, &e));
}

/* ---- time lower bound: one cut, Lagrangian relaxation, minimum cut ------- */

#define DNNMEM__TB_ANCESTOR 1   /* cut-relative node classes */
#define DNNMEM__TB_DESCENDANT 2
#define DNNMEM__TB_FIXED 4      /* the cut node or one of its inputs: held */

typedef struct dnnmem__tb_work {
  unsigned char *topo_scratch, *flow_scratch;
  size_t topo_bytes, flow_bytes;
  int32_t *order, *cuts, *tmp, *out_offsets, *out_ids, *queue;
  int64_t *profile, *cost_recompute;
  uint8_t *cls;
  dnnmem__sim_work sim;
  int32_t flow_arcs;
  /* the scale (set by dnnmem__tb_scale) */
  int32_t shift;                /* recomputation costs are times * 2^shift */
  double lambda_lo, lambda_hi;  /* multiplier range, scaled time units per byte */
  int64_t inf;                  /* an infinite capacity */
} dnnmem__tb_work;

static void dnnmem__tb_layout(dnnmem__scratch *s, int32_t n, int32_t m, dnnmem__tb_work *w) {
  size_t topo = 0, flow = 0;
  int64_t arcs = 9 * (int64_t)n + 2 * (int64_t)m + 8;
  if (dnnmem__topo_order_bytes(n, m, &topo) != DNNMEM_OK) s->overflow = 1;
  if (arcs > DNNMEM__I32_MAX / 2 - 1 || (int64_t)n > (DNNMEM__I32_MAX - 3) / 3 ||
      dnnmem_flow_scratch_size(3 * n + 2, (int32_t)arcs, &flow) != DNNMEM_OK) {
    s->overflow = 1;
    arcs = 0;
  }
  w->flow_arcs = (int32_t)arcs;
  w->topo_bytes = topo;
  w->flow_bytes = flow;
  w->topo_scratch = DNNMEM__TAKE(s, unsigned char, topo);
  w->flow_scratch = DNNMEM__TAKE(s, unsigned char, flow);
  w->order = DNNMEM__TAKE(s, int32_t, n);
  w->cuts = DNNMEM__TAKE(s, int32_t, n);
  w->tmp = DNNMEM__TAKE(s, int32_t, n);
  w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->out_ids = DNNMEM__TAKE(s, int32_t, m);
  w->queue = DNNMEM__TAKE(s, int32_t, n);
  w->profile = DNNMEM__TAKE(s, int64_t, n);
  w->cost_recompute = DNNMEM__TAKE(s, int64_t, n);
  w->cls = DNNMEM__TAKE(s, uint8_t, n);
  dnnmem__sim_layout(s, n, n, &w->sim);
}

DNNMEM_DEF dnnmem_result dnnmem_remat_time_bound_scratch_size(const dnnmem_remat_problem *problem,
                                                              const dnnmem_remat_options *options,
                                                              size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__tb_work w;
  dnnmem_remat_options o;
  dnnmem_result r = dnnmem__remat_validate(problem, NULL);
  if (r != DNNMEM_OK) return r;
  if (out_bytes == NULL || !dnnmem__remat_options(options, &o)) return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__tb_layout(&s, problem->graph->num_nodes, dnnmem__remat_num_edges(problem->graph), &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* Marks the strict ancestors (backward BFS over inputs) or descendants
   (forward over consumers) of x with bit in cls. */
static void dnnmem__tb_mark(const dnnmem_graph *g, dnnmem__tb_work *w, int32_t x, int forward,
                            uint8_t bit) {
  int32_t head = 0, tail = 0;
  w->queue[tail++] = x;
  while (head < tail) {
    int32_t v = w->queue[head++], k, lo, hi;
    const int32_t *ids = forward ? w->out_ids : g->in_ids;
    lo = forward ? w->out_offsets[v] : g->in_offsets[v];
    hi = forward ? w->out_offsets[v + 1] : g->in_offsets[v + 1];
    for (k = lo; k < hi; k++)
      if (!(w->cls[ids[k]] & bit)) {
        w->cls[ids[k]] |= bit;
        w->queue[tail++] = ids[k];
      }
  }
}

/* Lagrangian value at multiplier lambda (scaled time units per byte) for
   the cut at L: builds the labelling network (three variables per node,
   b1 = [label >= H], b2 = [>= R], b3 = [= A]; source side = 1) and solves
   it. *held receives the held bytes of the minimising labelling (beyond
   L and its inputs). */
static void dnnmem__tb_value(const dnnmem_remat_problem *p, dnnmem__tb_work *w, double lambda,
                             int64_t cap, int64_t *out_value, int64_t *held) {
  const dnnmem_graph *g = p->graph;
  int32_t n = g->num_nodes, v, k;
  int64_t cut = 0, konst = 0, ch, cr, inf = w->inf;
  dnnmem_flow f;
  dnnmem_result r = dnnmem_flow_init(&f, 3 * n + 2, w->flow_arcs, w->flow_scratch,
                                     w->flow_bytes);
  /* The layout sized the network (at most 9 arcs per node and 2 per edge),
     ids are in range, every capacity is >= 0 with no reverse one, and
     dnnmem__tb_scale keeps the source's total below INT64_MAX: neither
     init, adding an arc nor solving can fail. */
#define DNNMEM__TB_ARC(a, b, c) \
  do { r = dnnmem_flow_add_arc(&f, (a), (b), (c), 0, NULL); DNNMEM_ASSERT(r == DNNMEM_OK); } while (0)
  DNNMEM_ASSERT(r == DNNMEM_OK);
  for (v = 0; v < n; v++) {
    int32_t b1 = 2 + 3 * v, b2 = b1 + 1, b3 = b1 + 2;
    uint8_t c = w->cls[v];
    DNNMEM__TB_ARC(b3, b2, inf);
    DNNMEM__TB_ARC(b2, b1, inf);
    if (c & DNNMEM__TB_FIXED) { /* held at the cut, already in cap */
      DNNMEM__TB_ARC(0, b1, inf);
      DNNMEM__TB_ARC(b2, 1, inf);
      continue;
    }
    /* rounded down, so every labelling's cost can only drop: still a bound
       (products and casts only: no fused multiply-add can change it) */
    ch = (int64_t)(lambda * (double)p->sizes[v] * (1.0 - DNNMEM__REMAT_BOUND_MARGIN));
    cr = w->cost_recompute[v]; /* ch >= 0: lambda, sizes and the factor are */
    DNNMEM__TB_ARC(b1, 1, ch); /* f = b1 ch + b2 (cr - ch) - b3 cr */
    if (cr >= ch) {
      DNNMEM__TB_ARC(b2, 1, cr - ch);
    } else {
      konst -= ch - cr;
      DNNMEM__TB_ARC(0, b2, ch - cr);
    }
    if (!(c & DNNMEM__TB_ANCESTOR)) {
      konst -= cr;
      DNNMEM__TB_ARC(0, b3, cr);
    }
    if (c & DNNMEM__TB_ANCESTOR) DNNMEM__TB_ARC(b3, 1, inf);
    if (c & DNNMEM__TB_DESCENDANT) DNNMEM__TB_ARC(0, b3, inf);
    if (p->is_output && p->is_output[v]) DNNMEM__TB_ARC(0, b1, inf);
    if (g->in_offsets[v] == g->in_offsets[v + 1]) DNNMEM__TB_ARC(b2, b3, inf);
    for (k = w->out_offsets[v]; k < w->out_offsets[v + 1]; k++)
      DNNMEM__TB_ARC(b3, 2 + 3 * w->out_ids[k] + 2, inf); /* after the cut: so are consumers */
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++)
      DNNMEM__TB_ARC(b2, 2 + 3 * g->in_ids[k], inf); /* computed after: inputs available */
  }
#undef DNNMEM__TB_ARC
  r = dnnmem_flow_solve(&f, 0, 1, NULL, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  (void)r;
  cut = f.value;
  *held = 0;
  for (v = 0; v < n; v++)
    if (!(w->cls[v] & DNNMEM__TB_FIXED) && dnnmem_flow_source_side(&f, 2 + 3 * v) &&
        !dnnmem_flow_source_side(&f, 3 + 3 * v))
      *held += p->sizes[v];
  /* minus lambda * cap rounded up (cap < the row order's peak, so the
     product stays below limit) */
  *out_value = cut + konst -
               ((int64_t)(lambda * (double)cap * (1.0 + DNNMEM__REMAT_BOUND_MARGIN)) + 1);
}

/* The scale: recomputation costs t << shift (or >> -shift) and held costs
   lambda * size each sum to at most limit, so the infinite capacity
   (4 limit + 1) times the 2 n + 1 forcing arcs out of the source fits.
   Fills cost_recompute, shift, the multiplier range and inf; 0 when no
   node costs time to recompute (the bound is 0). */
static int dnnmem__tb_scale(const dnnmem_remat_problem *problem, dnnmem__tb_work *w) {
  const dnnmem_graph *g = problem->graph;
  int32_t n = g->num_nodes, v, shift0;
  int64_t limit = DNNMEM__I64_MAX / (2 * (int64_t)n + 2) / 8, total_size = 0, total_time = 0;
  double t = 0;
  w->shift = 0;
  w->lambda_lo = 0;
  w->lambda_hi = 0;
  for (v = 0; v < n; v++) total_size += problem->sizes[v]; /* checked by validate */
  for (v = 0; v < n; v++) t += (double)problem->times[v];
  while (t > (double)limit) {
    t /= 2;
    w->shift--;
  }
  while (w->shift < 62 && t * 2 <= (double)limit) {
    t *= 2;
    w->shift++;
  }
  /* The multiplier must reach twice the largest time per byte (past it no
     node is held where it could be recomputed): scale the times down until
     lambda_hi x the total size fits the limit too, by at most
     DNNMEM__REMAT_BOUND_SHIFT_SPAN octaves (costs keep their precision);
     only beyond that is the multiplier capped. */
  for (shift0 = w->shift;; w->shift--) {
    total_time = 0;
    w->lambda_lo = 0;
    w->lambda_hi = 0;
    for (v = 0; v < n; v++) {
      int64_t time = problem->times[v];
      int64_t c = w->shift >= 0 ? time << w->shift : time >> -w->shift;
      w->cost_recompute[v] = c;
      total_time += c;
      if (c > 0 && problem->sizes[v] > 0 && g->in_offsets[v] < g->in_offsets[v + 1]) {
        double ratio = (double)c / (double)problem->sizes[v];
        if (w->lambda_lo == 0 || ratio < w->lambda_lo) w->lambda_lo = ratio;
        if (ratio > w->lambda_hi) w->lambda_hi = ratio;
      }
    }
    if (w->lambda_hi == 0) return 0;
    w->lambda_lo /= 2;
    w->lambda_hi *= 2;
    if (w->lambda_hi * (double)total_size <= (double)limit ||
        w->shift <= shift0 - DNNMEM__REMAT_BOUND_SHIFT_SPAN || w->shift <= -62)
      break;
  }
  if (total_size > 0 && w->lambda_hi * (double)total_size > (double)limit)
    w->lambda_hi = (double)limit / (double)total_size;
  if (w->lambda_lo > w->lambda_hi) w->lambda_lo = w->lambda_hi;
  w->inf = 2 * (total_time + (int64_t)(w->lambda_hi * (double)total_size)) + 1;
  return 1;
}

/* The bound (scaled units) of the cut at L: classify the nodes, then
   maximise the Lagrangian value over the multiplier. It is concave in
   lambda with slope held - cap: find the octave where the slope turns,
   then bisect it. */
static int64_t dnnmem__tb_cut(const dnnmem_remat_problem *problem, dnnmem__tb_work *w, int32_t L,
                              int64_t budget) {
  const dnnmem_graph *g = problem->graph;
  int32_t k, v, steps;
  int64_t cap = budget, held, value, top = 0;
  double lo = w->lambda_lo, hi = w->lambda_hi;
  for (v = 0; v < g->num_nodes; v++) w->cls[v] = 0;
  dnnmem__tb_mark(g, w, L, 0, DNNMEM__TB_ANCESTOR);
  dnnmem__tb_mark(g, w, L, 1, DNNMEM__TB_DESCENDANT);
  w->cls[L] |= DNNMEM__TB_FIXED;
  cap -= problem->sizes[L];
  for (k = g->in_offsets[L]; k < g->in_offsets[L + 1]; k++)
    if (!(w->cls[g->in_ids[k]] & DNNMEM__TB_FIXED)) {
      w->cls[g->in_ids[k]] |= DNNMEM__TB_FIXED;
      cap -= problem->sizes[g->in_ids[k]];
    }
  for (;;) {
    dnnmem__tb_value(problem, w, lo, cap, &value, &held);
    if (value > top) top = value;
    if (held <= cap || lo >= hi) break;
    lo = lo * 2 < hi ? lo * 2 : hi;
  }
  hi = lo;
  lo = lo / 2 > w->lambda_lo ? lo / 2 : w->lambda_lo;
  for (steps = 0; steps < DNNMEM__REMAT_BOUND_BISECTIONS && lo < hi; steps++) {
    double mid = lo + (hi - lo) / 2;
    dnnmem__tb_value(problem, w, mid, cap, &value, &held);
    if (value > top) top = value;
    if (held > cap) lo = mid;
    else hi = mid;
  }
  return top;
}

typedef struct dnnmem__tb_profile_ctx {
  const int64_t *profile;
  const int32_t *pos;
} dnnmem__tb_profile_ctx;

static int dnnmem__tb_busier(const void *ctx, int32_t a, int32_t b) {
  const dnnmem__tb_profile_ctx *c = (const dnnmem__tb_profile_ctx *)ctx;
  return c->profile[c->pos[a]] > c->profile[c->pos[b]];
}

static dnnmem_result dnnmem__remat_time_bound(const dnnmem_remat_problem *problem,
                                              const dnnmem_remat_options *options, int64_t *out_extra_time,
                                              int32_t *out_cut, void *scratch, size_t scratch_bytes,
                                              dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__tb_work w;
  dnnmem__tb_profile_ctx ctx;
  dnnmem_remat_options o;
  dnnmem_remat_result row;
  const dnnmem_graph *g;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  int64_t lower, best = 0;
  int32_t n, i, cuts, best_cut = -1;
  if (r != DNNMEM_OK) return r;
  if (!dnnmem__remat_options(options, &o)) return dnnmem__remat_options_fail(options, e);
  g = problem->graph;
  n = g->num_nodes;
  *out_extra_time = 0;
  if (out_cut) *out_cut = -1;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__tb_layout(&s, n, dnnmem__remat_num_edges(g), &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  if ((r = dnnmem_graph_topo_order(g, w.order, w.topo_scratch, w.topo_bytes, e)) != DNNMEM_OK)
    return r;
  r = dnnmem__remat_lower_bound(problem, &lower, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK); /* its only failure is dnnmem__remat_validate's, passed above */
  if (o.budget == 0) return DNNMEM_OK; /* no budget: the row order needs nothing extra */
  if (o.budget < lower) {
    *out_extra_time = DNNMEM__I64_MAX;
    return DNNMEM_ERR_INFEASIBLE;
  }
  if ((r = dnnmem__remat_sim(problem, w.order, n, &w.sim, &row, w.profile)) != DNNMEM_OK)
    return r;
  if (row.peak <= o.budget) return DNNMEM_OK; /* the row order fits: nothing to recompute */
  cuts = o.bound_cuts < n ? o.bound_cuts : n;
  dnnmem__graph_consumers(g, w.out_offsets, w.out_ids);
  if (!dnnmem__tb_scale(problem, &w)) return DNNMEM_OK; /* nothing costs time to recompute */
  /* candidate cuts: the nodes whose step in the row order holds the most */
  for (i = 0; i < n; i++) {
    w.queue[w.order[i]] = i; /* queue doubles as the position map here */
    w.cuts[i] = w.order[i];
  }
  ctx.profile = w.profile;
  ctx.pos = w.queue;
  dnnmem__sort_ids(w.cuts, w.tmp, n, dnnmem__tb_busier, &ctx);
  for (i = 0; i < cuts; i++) {
    int64_t top = dnnmem__tb_cut(problem, &w, w.cuts[i], o.budget), extra;
    if (top <= 0) continue;
    /* back to time units: divide by 2^shift, rounding up */
    if (w.shift >= 0)
      extra = (top >> w.shift) + ((top & (((int64_t)1 << w.shift) - 1)) != 0);
    else
      extra = top > (DNNMEM__I64_MAX >> -w.shift) ? DNNMEM__I64_MAX : top << -w.shift;
    if (extra > best) {
      best = extra;
      best_cut = w.cuts[i];
    }
  }
  *out_extra_time = best;
  if (out_cut) *out_cut = best_cut;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_time_bound(const dnnmem_remat_problem *problem,
                                                 const dnnmem_remat_options *options,
                                                 dnnmem_remat_bound_result *result,
                                                 void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  dnnmem_result r;
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  r = dnnmem__remat_time_bound(problem, options, &result->extra_time, &result->cut, scratch, scratch_bytes, &e);
  if (r == DNNMEM_OK || r == DNNMEM_ERR_INFEASIBLE) (void)dnnmem__remat_lower_bound(problem, &result->peak, NULL);
  return dnnmem__report(&result->error, &e, r);
}

/* ---- exact group order: backward Dijkstra over held sets ----------------- */

typedef struct dnnmem__group_entry {
  uint64_t set;   /* held members */
  int64_t peak;   /* best bottleneck memory from the start {target} */
  int64_t time;   /* tie-break: time of that path */
  int32_t parent; /* entry this one was reached from (-1: start) */
  int32_t heap;   /* position in the heap, -1 when not in it */
  int8_t last;    /* member uncomputed on the way here */
  int8_t done;
} dnnmem__group_entry;

typedef struct dnnmem__group_work {
  dnnmem__group_entry *entries;
  int32_t *table; /* open addressing: entry index or -1 */
  int32_t *heap;  /* entry indices */
  int32_t table_mask, max_states;
} dnnmem__group_work;

static int32_t dnnmem__group_table_size(int32_t max_states) {
  int32_t t = 16;
  while (t < max_states * 2 && t < (1 << 30)) t *= 2;
  return t;
}

static void dnnmem__group_layout(dnnmem__scratch *s, int32_t max_states, dnnmem__group_work *w) {
  int32_t t = dnnmem__group_table_size(max_states);
  w->entries = DNNMEM__TAKE(s, dnnmem__group_entry, max_states);
  w->table = DNNMEM__TAKE(s, int32_t, t);
  w->heap = DNNMEM__TAKE(s, int32_t, max_states);
  w->table_mask = t - 1;
  w->max_states = max_states;
}

/* A prepared group: g members, member g-1 is the target. */
typedef struct dnnmem__group {
  int32_t g;
  uint64_t in_mask[DNNMEM_REMAT_MAX_GROUP]; /* internal inputs of each member */
  int64_t size[DNNMEM_REMAT_MAX_GROUP];
  int64_t time[DNNMEM_REMAT_MAX_GROUP];
} dnnmem__group;

static int dnnmem__group_less(const dnnmem__group_work *w, int32_t a, int32_t b) {
  const dnnmem__group_entry *x = &w->entries[a], *y = &w->entries[b];
  if (x->peak != y->peak) return x->peak < y->peak;
  if (x->time != y->time) return x->time < y->time;
  return x->set < y->set;
}

static void dnnmem__group_sift(dnnmem__group_work *w, int32_t count, int32_t pos) {
  int32_t e = w->heap[pos];
  while (pos > 0) { /* up */
    int32_t parent = (pos - 1) / 2;
    if (!dnnmem__group_less(w, e, w->heap[parent])) break;
    w->heap[pos] = w->heap[parent];
    w->entries[w->heap[pos]].heap = pos;
    pos = parent;
  }
  for (;;) { /* down */
    int32_t c = 2 * pos + 1;
    if (c >= count) break;
    if (c + 1 < count && dnnmem__group_less(w, w->heap[c + 1], w->heap[c])) c++;
    if (!dnnmem__group_less(w, w->heap[c], e)) break;
    w->heap[pos] = w->heap[c];
    w->entries[w->heap[pos]].heap = pos;
    pos = c;
  }
  w->heap[pos] = e;
  w->entries[e].heap = pos;
}

static int64_t dnnmem__group_sum(const dnnmem__group *gr, uint64_t set) {
  int64_t sum = 0;
  while (set) {
    int b = 0;
    uint64_t low = set & (~set + 1);
    while (!((low >> b) & 1)) b++;
    sum += gr->size[b];
    set &= set - 1;
  }
  return sum;
}

/* Runs the search; on success writes the forward order (member indices)
   to order (capacity cap), its length and the peak; the length also when
   the order does not fit (DNNMEM_ERR_OUTPUT_TOO_SMALL). */
static dnnmem_result dnnmem__group_search(const dnnmem__group *gr, dnnmem__group_work *w,
                                          int32_t *order, int32_t cap, int32_t *out_len,
                                          int64_t *out_peak) {
  int32_t used = 0, heap_count = 0, i, goal = -1;
  uint64_t start = (uint64_t)1 << (gr->g - 1);
  for (i = 0; i <= w->table_mask; i++) w->table[i] = -1;
  /* the start entry */
  {
    uint64_t h = start * DNNMEM__REMAT_HASH_MUL;
    int32_t slot = (int32_t)(h >> 40) & w->table_mask;
    if (w->max_states < 1) return DNNMEM_ERR_REMAT_STATE_LIMIT;
    w->table[slot] = 0;
    w->entries[0].set = start;
    w->entries[0].peak = gr->size[gr->g - 1];
    w->entries[0].time = 0;
    w->entries[0].parent = -1;
    w->entries[0].last = -1;
    w->entries[0].done = 0;
    w->heap[0] = 0; /* its .heap is set when it is popped, next */
    used = 1;
    heap_count = 1;
  }
  while (heap_count > 0) {
    int32_t cur = w->heap[0], forced = -1, b;
    uint64_t set = w->entries[cur].set;
    int64_t held;
    w->entries[cur].done = 1;
    w->entries[cur].heap = -1;
    heap_count--;
    if (heap_count > 0) {
      w->heap[0] = w->heap[heap_count];
      w->entries[w->heap[0]].heap = 0;
      dnnmem__group_sift(w, heap_count, 0);
    }
    if (set == 0) {
      goal = cur;
      break;
    }
    held = dnnmem__group_sum(gr, set);
    /* the contraction blog's pruning: uncomputing a member whose inputs
       are all held is lossless (memory does not grow and the optimum is
       monotone in the held set), take only that move */
    for (b = 0; b < gr->g && forced < 0; b++)
      if (((set >> b) & 1) && (gr->in_mask[b] & ~set) == 0) forced = b;
    for (b = 0; b < gr->g; b++) {
      uint64_t next, probe;
      int64_t step, peak, time;
      int32_t slot, e;
      if (!((set >> b) & 1)) continue;
      if (forced >= 0 && b != forced) continue;
      next = (set & ~((uint64_t)1 << b)) | gr->in_mask[b];
      step = held + dnnmem__group_sum(gr, gr->in_mask[b] & ~set);
      peak = dnnmem__max64(w->entries[cur].peak, step);
      time = w->entries[cur].time > DNNMEM__I64_MAX - gr->time[b] ? DNNMEM__I64_MAX
                                                                  : w->entries[cur].time + gr->time[b];
      probe = next * DNNMEM__REMAT_HASH_MUL;
      slot = (int32_t)(probe >> 40) & w->table_mask;
      while ((e = w->table[slot]) >= 0 && w->entries[e].set != next)
        slot = (slot + 1) & w->table_mask;
      if (e < 0) {
        if (used >= w->max_states) return DNNMEM_ERR_REMAT_STATE_LIMIT;
        e = used++;
        w->table[slot] = e;
        w->entries[e].set = next;
        w->entries[e].peak = peak;
        w->entries[e].time = time;
        w->entries[e].parent = cur;
        w->entries[e].last = (int8_t)b;
        w->entries[e].done = 0;
        w->heap[heap_count] = e;
        w->entries[e].heap = heap_count;
        heap_count++;
        dnnmem__group_sift(w, heap_count, heap_count - 1);
      } else if (!w->entries[e].done &&
                 (peak < w->entries[e].peak ||
                  (peak == w->entries[e].peak && time < w->entries[e].time))) {
        w->entries[e].peak = peak;
        w->entries[e].time = time;
        w->entries[e].parent = cur;
        w->entries[e].last = (int8_t)b;
        dnnmem__group_sift(w, heap_count, w->entries[e].heap);
      }
    }
  }
  if (goal < 0) return DNNMEM_ERR_CYCLE; /* {} is reachable from every set of a DAG */
  {
    int32_t len = 0, e;
    for (e = goal; w->entries[e].parent >= 0; e = w->entries[e].parent) len++;
    *out_len = len;
    if (len > cap) return DNNMEM_ERR_OUTPUT_TOO_SMALL;
    len = 0;
    for (e = goal; w->entries[e].parent >= 0; e = w->entries[e].parent)
      order[len++] = w->entries[e].last;
    *out_peak = w->entries[goal].peak;
  }
  return DNNMEM_OK;
}

static void dnnmem__group_order_layout(dnnmem__scratch *s, int32_t max_states,
                                       dnnmem__group **gr, dnnmem__group_work *w) {
  *gr = DNNMEM__TAKE(s, dnnmem__group, 1);
  dnnmem__group_layout(s, max_states, w);
}

DNNMEM_DEF dnnmem_result dnnmem_remat_group_order_scratch_size(const dnnmem_remat_problem *problem,
                                                               int32_t num_members,
                                                               int32_t max_states,
                                                               int32_t order_capacity,
                                                               size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__group_work w;
  dnnmem__group *gr;
  (void)problem; /* the size depends on max_states only */
  if (num_members < 1 || num_members > DNNMEM_REMAT_MAX_GROUP || max_states < 1 ||
      max_states > DNNMEM__REMAT_MAX_STATES || order_capacity < 0 || out_bytes == NULL)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__group_order_layout(&s, max_states, &gr, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* dnnmem_remat_group_order; errors named in e. */
static dnnmem_result dnnmem__group_order(const dnnmem_remat_problem *problem, const int32_t *members,
                                         int32_t num_members, int32_t max_states, int32_t *order,
                                         int32_t order_capacity, dnnmem_remat_result *result, void *scratch,
                                         size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__group_work w;
  dnnmem__group *gr;
  const dnnmem_graph *g;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  int32_t i, j, k, len;
  int64_t peak;
  if (r != DNNMEM_OK) return r;
  if (members == NULL || num_members < 1 || num_members > DNNMEM_REMAT_MAX_GROUP)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_MEMBER);
  if (max_states < 1 || max_states > DNNMEM__REMAT_MAX_STATES)
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_LIMIT);
  if (order_capacity < 0 || (order_capacity > 0 && order == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  g = problem->graph;
  for (i = 0; i < num_members; i++) {
    if (members[i] < 0 || members[i] >= g->num_nodes) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, i, DNNMEM_FIELD_MEMBER);
    for (j = 0; j < i; j++)
      if (members[j] == members[i]) return dnnmem__fail2(e, DNNMEM_ERR_INVALID_ARGUMENT, i, j, DNNMEM_FIELD_MEMBER);
  }
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__group_order_layout(&s, max_states, &gr, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  gr->g = num_members;
  for (i = 0; i < num_members; i++) {
    int32_t v = members[i];
    gr->size[i] = problem->sizes[v];
    gr->time[i] = problem->times[v];
    gr->in_mask[i] = 0;
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++)
      for (j = 0; j < num_members; j++)
        if (members[j] == g->in_ids[k]) gr->in_mask[i] |= (uint64_t)1 << j;
    if ((gr->in_mask[i] >> i) & 1) return dnnmem__fail(e, DNNMEM_ERR_CYCLE, v, DNNMEM_FIELD_INPUT); /* self-loop */
  }
  /* (path times, a tie-break only, saturate) */
  r = dnnmem__group_search(gr, &w, order, order_capacity, &len, &peak);
  if (r == DNNMEM_ERR_OUTPUT_TOO_SMALL) result->length = len;
  if (r == DNNMEM_ERR_REMAT_STATE_LIMIT) return dnnmem__fail(e, r, -1, DNNMEM_FIELD_LIMIT);
  if (r != DNNMEM_OK) return r;
  for (i = 0; i < len; i++) order[i] = members[order[i]];
  result->length = len;
  result->peak = peak;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_group_order(const dnnmem_remat_problem *problem,
                                                  const int32_t *members, int32_t num_members,
                                                  int32_t max_states, int32_t *order,
                                                  int32_t order_capacity,
                                                  dnnmem_remat_result *result, void *scratch,
                                                  size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  return dnnmem__report(&result->error, &e,
                        dnnmem__group_order(problem, members, num_members, max_states, order, order_capacity,
                                            result, scratch, scratch_bytes, &e));
}

/* ---- baselines ------------------------------------------------------------ */

typedef struct dnnmem__baseline_work {
  unsigned char *topo_scratch;
  size_t topo_bytes;
  int32_t *order, *pos, *last_consumer, *latest_segment, *stack, *stack_edge;
  uint8_t *kept;
  dnnmem__sim_work sim;
} dnnmem__baseline_work;

static void dnnmem__baseline_layout(dnnmem__scratch *s, int32_t n, int32_t m, int32_t max_length,
                                    dnnmem__baseline_work *w) {
  size_t topo = 0;
  if (dnnmem__topo_order_bytes(n, m, &topo) != DNNMEM_OK) s->overflow = 1;
  w->topo_bytes = topo;
  w->topo_scratch = DNNMEM__TAKE(s, unsigned char, topo);
  w->order = DNNMEM__TAKE(s, int32_t, n);
  w->pos = DNNMEM__TAKE(s, int32_t, n);
  w->last_consumer = DNNMEM__TAKE(s, int32_t, n);
  w->latest_segment = DNNMEM__TAKE(s, int32_t, n);
  w->stack = DNNMEM__TAKE(s, int32_t, n);
  w->stack_edge = DNNMEM__TAKE(s, int32_t, n);
  w->kept = DNNMEM__TAKE(s, uint8_t, n);
  dnnmem__sim_layout(s, n, max_length, &w->sim);
}

/* Chen et al.'s checkpointing on the topological order: segments of
   k = ceil(sqrt(V)) positions; kept values: graph inputs, every k-th value,
   and values whose consumers all lie within k positions. A value that is
   not kept and was last computed in an earlier segment is recomputed
   (recursively, from kept or current values) before its use. Writes the
   first max_length steps and counts them all (*out_length). */
static dnnmem_result dnnmem__baseline_checkpoint(const dnnmem_remat_problem *p,
                                                 dnnmem__baseline_work *w, int32_t max_length,
                                                 int32_t *seq, int32_t *out_length) {
  const dnnmem_graph *g = p->graph;
  int32_t n = g->num_nodes, k = 1, i, v, len = 0;
  while ((int64_t)k * k < n) k++;
  for (i = 0; i < n; i++) w->pos[w->order[i]] = i;
  for (v = 0; v < n; v++) w->last_consumer[v] = w->pos[v];
  for (v = 0; v < n; v++) {
    int32_t e;
    for (e = g->in_offsets[v]; e < g->in_offsets[v + 1]; e++) {
      int32_t u = g->in_ids[e];
      if (w->pos[v] > w->last_consumer[u]) w->last_consumer[u] = w->pos[v];
    }
  }
  for (v = 0; v < n; v++) {
    w->kept[v] = (uint8_t)(g->in_offsets[v] == g->in_offsets[v + 1] ||
                           w->pos[v] % k == k - 1 || w->last_consumer[v] - w->pos[v] <= k);
    w->latest_segment[v] = -1;
  }
  for (i = 0; i < n; i++) {
    int32_t segment = i / k, top = 0;
    /* depth-first: emit a node after its inputs that are not available */
    w->stack[top] = w->order[i];
    w->stack_edge[top++] = g->in_offsets[w->order[i]];
    while (top > 0) {
      int32_t x = w->stack[top - 1], e = w->stack_edge[top - 1];
      if (e < g->in_offsets[x + 1]) {
        int32_t u = g->in_ids[e];
        w->stack_edge[top - 1] = e + 1;
        if (w->latest_segment[u] < 0 ||
            (!w->kept[u] && w->latest_segment[u] != segment)) {
          if (w->latest_segment[u] < 0 && w->pos[u] > i) return DNNMEM_ERR_CYCLE;
          if (top >= n) return DNNMEM_ERR_CYCLE;
          w->stack[top] = u;
          w->stack_edge[top++] = g->in_offsets[u];
        }
        continue;
      }
      top--;
      if (len == DNNMEM__I32_MAX) return DNNMEM_ERR_OVERFLOW;
      if (len < max_length) seq[len] = x;
      len++;
      w->latest_segment[x] = segment;
    }
  }
  *out_length = len;
  return DNNMEM_OK;
}

/* dnnmem_remat_solve for the baselines (algo ROW_ORDER or CHECKPOINT). The
   row order is the identity for a topologically numbered graph (the file's
   order; Kahn's order otherwise). O(V + E) (row order), O(L + E) plus the
   recomputed nodes' in-degrees (checkpointing). */
static dnnmem_result dnnmem__remat_baseline(const dnnmem_remat_problem *problem,
                                            dnnmem_remat_algo algo, int32_t *sequence,
                                            int32_t capacity, dnnmem_remat_result *result,
                                            void *scratch, size_t scratch_bytes) {
  dnnmem__scratch s;
  dnnmem__baseline_work w;
  dnnmem_result r;
  int32_t n = problem->graph->num_nodes, len = 0, i;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__baseline_layout(&s, n, dnnmem__remat_num_edges(problem->graph), capacity, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  r = dnnmem_graph_topo_order(problem->graph, w.order, w.topo_scratch, w.topo_bytes, NULL);
  if (r != DNNMEM_OK) return r;
  if (dnnmem_graph_is_topological(problem->graph)) /* the row order as given */
    for (i = 0; i < n; i++) w.order[i] = i;
  if (algo == DNNMEM_REMAT_CHECKPOINT) {
    r = dnnmem__baseline_checkpoint(problem, &w, capacity, sequence, &len);
    if (r != DNNMEM_OK) return r;
  } else {
    len = n;
    for (i = 0; i < n && i < capacity; i++) sequence[i] = w.order[i];
  }
  if (len > capacity) {
    DNNMEM_MEMSET(result, 0, sizeof(*result));
    result->length = len;
    return DNNMEM_ERR_OUTPUT_TOO_SMALL;
  }
  return dnnmem__remat_sim(problem, sequence, len, &w.sim, result, NULL);
}

/* ---- the annealer ---------------------------------------------------------- */

typedef struct dnnmem__end_change {
  int64_t size;
  int32_t slot, old_end, new_end;
} dnnmem__end_change;

typedef struct dnnmem__remat {
  const dnnmem_remat_problem *p;
  const dnnmem_remat_options *o; /* defaults filled in */
  dnnmem_rng *rng;
  dnnmem_error *error;           /* where a cycle is named (NULL: nowhere) */
  int32_t n, m, L, S, P, G, cap_edges, cap_group, in_cap;
  /* the graph */
  unsigned char *topo_scratch;
  size_t topo_bytes;
  int32_t *order, *pos, *gout_off, *gout_ids;
  uint8_t *fixed, *marked;
  int32_t *rank, *csize, *stamp, *stack, *tmp;
  int32_t stamp_value;
  /* units: marked nodes standing for their groups */
  int32_t *uin_off, *uin_ids, *uout_off, *uout_ids, *grp_off, *grp_ids;
  int64_t *utime, *uextra;
  dnnmem__group *group;
  dnnmem__group_work gw;
  int32_t *group_members, *group_order;
  /* the annealing state over S slots */
  int32_t *slot_node, *slot_end, *slot_prev, *slot_next, *first, *count, *occ, *occ_pos;
  int32_t *best, *seq_tmp;
  /* the best exact candidate so far (the row order, each pipeline's and
     stage's result), kept in the caller's sequence array */
  int32_t *cand, cand_len;
  dnnmem_remat_result cand_result;
  /* the drop-set search (decoder): per node dropped, best dropped, state */
  uint8_t *drop, *best_drop, *dec_state;
  int32_t *dec_stack, *dec_edge, *dec_cand;
  dnnmem__end_change *log; /* interval changes of the move being tried */
  int64_t *tree, *lazy, *mem;
  int32_t num_occ, num_log;
  int64_t time;
  /* objective */
  double inv_time0, inv_peak0, alpha;
  int32_t blocks, block_shift, span_lo, span_hi; /* slot blocks (segment tree nodes) */
  double block_pen[DNNMEM__REMAT_BLOCKS];        /* each block's overshoot penalty */
  double block_plat[DNNMEM__REMAT_BLOCKS];       /* each block's excess over plateau */
  int64_t plateau;     /* arena rounds: memory above it costs (0: off) */
  int64_t budget, aim; /* aim: the annealer's budget, a little below */
  /* run */
  int64_t iterations, iteration, accepted;
  int halted; /* options->stop said stop: no more repairs or plans than needed */
  double temp0, log_ratio, progress;
  double pipe_begin, pipe_end; /* share of the run of the current pipeline */
  int stopped;
  dnnmem__sim_work sim;
  /* the arena: planned by dnnmem_remat_plan with plan_options; the best
     sequence by arena (fits the budget, then faster) */
  int arena_on;
  double main_end; /* the share of the run before the arena rounds */
  dnnmem_plan_options plan_options;
  dnnmem_interval *records;
  int64_t *offsets;
  unsigned char *plan_mem;
  size_t plan_bytes;
  int32_t *arena_cand, arena_len;
  dnnmem_remat_result arena_result; /* arena -1: none yet */
} dnnmem__remat;

static void dnnmem__remat_layout(dnnmem__scratch *s, dnnmem__remat *w) {
  size_t topo = 0;
  int32_t n = w->n;
  if (dnnmem__topo_order_bytes(n, w->m, &topo) != DNNMEM_OK) s->overflow = 1;
  w->topo_bytes = topo;
  w->topo_scratch = DNNMEM__TAKE(s, unsigned char, topo);
  w->order = DNNMEM__TAKE(s, int32_t, n);
  w->pos = DNNMEM__TAKE(s, int32_t, n);
  w->gout_off = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->gout_ids = DNNMEM__TAKE(s, int32_t, w->m);
  w->fixed = DNNMEM__TAKE(s, uint8_t, n);
  w->marked = DNNMEM__TAKE(s, uint8_t, n);
  w->rank = DNNMEM__TAKE(s, int32_t, n);
  w->csize = DNNMEM__TAKE(s, int32_t, n);
  w->stamp = DNNMEM__TAKE(s, int32_t, n);
  w->stack = DNNMEM__TAKE(s, int32_t, n);
  w->tmp = DNNMEM__TAKE(s, int32_t, n);
  w->uin_off = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->uin_ids = DNNMEM__TAKE(s, int32_t, w->cap_edges);
  w->uout_off = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->uout_ids = DNNMEM__TAKE(s, int32_t, w->cap_edges);
  w->grp_off = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->grp_ids = DNNMEM__TAKE(s, int32_t, w->cap_group);
  w->utime = DNNMEM__TAKE(s, int64_t, n);
  w->uextra = DNNMEM__TAKE(s, int64_t, n);
  w->group = DNNMEM__TAKE(s, dnnmem__group, 1);
  dnnmem__group_layout(s, DNNMEM__REMAT_GROUP_STATES, &w->gw);
  w->group_members = DNNMEM__TAKE(s, int32_t, DNNMEM_REMAT_MAX_GROUP);
  w->group_order =
      DNNMEM__TAKE(s, int32_t, DNNMEM__REMAT_GROUP_ORDER_FACTOR * DNNMEM_REMAT_MAX_GROUP);
  w->slot_node = DNNMEM__TAKE(s, int32_t, w->S);
  w->slot_end = DNNMEM__TAKE(s, int32_t, w->S);
  w->slot_prev = DNNMEM__TAKE(s, int32_t, w->S);
  w->slot_next = DNNMEM__TAKE(s, int32_t, w->S);
  w->first = DNNMEM__TAKE(s, int32_t, n);
  w->count = DNNMEM__TAKE(s, int32_t, n);
  w->occ = DNNMEM__TAKE(s, int32_t, w->S);
  w->occ_pos = DNNMEM__TAKE(s, int32_t, w->S);
  w->best = DNNMEM__TAKE(s, int32_t, w->S);
  w->drop = DNNMEM__TAKE(s, uint8_t, n);
  w->best_drop = DNNMEM__TAKE(s, uint8_t, n);
  w->dec_state = DNNMEM__TAKE(s, uint8_t, n);
  w->dec_stack = DNNMEM__TAKE(s, int32_t, n);
  w->dec_edge = DNNMEM__TAKE(s, int32_t, n);
  w->dec_cand = DNNMEM__TAKE(s, int32_t, n);
  w->seq_tmp = DNNMEM__TAKE(s, int32_t, w->L);
  w->log = DNNMEM__TAKE(s, dnnmem__end_change, 4 * (size_t)n + 16); /* two operations */
  w->tree = DNNMEM__TAKE(s, int64_t, 2 * (size_t)w->P);
  w->lazy = DNNMEM__TAKE(s, int64_t, w->P);
  w->mem = DNNMEM__TAKE(s, int64_t, (size_t)w->S + 1);
  dnnmem__sim_layout(s, n, w->L, &w->sim);
  if (w->arena_on) {
    size_t bytes = 0;
    dnnmem_remat_arena_options(w->o->budget, w->L, &w->plan_options);
    if (dnnmem_remat_plan_scratch_size(w->p, &w->plan_options, NULL, w->L, 0, &bytes) != DNNMEM_OK)
      s->overflow = 1;
    w->plan_bytes = bytes;
    w->plan_mem = DNNMEM__TAKE(s, unsigned char, bytes);
    w->records = DNNMEM__TAKE(s, dnnmem_interval, w->L);
    w->offsets = DNNMEM__TAKE(s, int64_t, w->L);
    w->arena_cand = DNNMEM__TAKE(s, int32_t, w->L);
  }
}

/* Dimensions from (V, E, max_length >= V, a validated group bound); 0 if
   they do not fit the int32 indices (DNNMEM_ERR_TOO_MANY). */
static int dnnmem__remat_dims(dnnmem__remat *w, int32_t n, int32_t m, int32_t max_length,
                              int32_t group) {
  int64_t edges, groups;
  DNNMEM_ASSERT(n >= 0 && m >= 0 && max_length >= n && group >= 1 && group <= DNNMEM_REMAT_MAX_GROUP);
  if (max_length > DNNMEM__REMAT_MAX_LENGTH) return 0;
  w->n = n;
  w->m = m;
  w->L = max_length;
  w->S = max_length > 0 ? DNNMEM__REMAT_SLOTS_PER_STEP * max_length : 1;
  w->P = 1;
  while (w->P < w->S) w->P *= 2;
  w->G = group;
  /* inputs of one group's members (a lone node may exceed it) */
  w->in_cap = DNNMEM__REMAT_GROUP_INPUTS * group;
  edges = (int64_t)n * w->in_cap + m;
  groups = (int64_t)n * DNNMEM__REMAT_GROUP_ORDER_FACTOR * group;
  if (edges > DNNMEM__I32_MAX || groups > DNNMEM__I32_MAX) return 0;
  w->cap_edges = (int32_t)edges;
  w->cap_group = (int32_t)groups;
  return 1;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_solve_scratch_size(const dnnmem_remat_problem *problem,
                                                         const dnnmem_remat_options *options,
                                                         int32_t sequence_capacity,
                                                         size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem_remat_options o;
  dnnmem_result r = dnnmem__remat_validate(problem, NULL);
  int32_t n, m;
  if (r != DNNMEM_OK) return r;
  if (out_bytes == NULL || sequence_capacity < 0 || !dnnmem__remat_options(options, &o))
    return DNNMEM_ERR_INVALID_ARGUMENT;
  n = problem->graph->num_nodes;
  m = dnnmem__remat_num_edges(problem->graph);
  dnnmem__scratch_begin(&s, NULL, 0);
  if (o.algo == DNNMEM_REMAT_ANNEAL) {
    dnnmem__remat w;
    /* a capacity below V is answered with OUTPUT_TOO_SMALL before the
       scratch is looked at: the size for V is the useful one */
    if (!dnnmem__remat_dims(&w, n, m, sequence_capacity > n ? sequence_capacity : n,
                            o.max_group_size))
      return DNNMEM_ERR_TOO_MANY;
    w.p = problem;
    w.o = &o;
    w.arena_on = !o.peak_only; /* sized for any budget (the curve changes it) */
    dnnmem__remat_layout(&s, &w);
  } else {
    dnnmem__baseline_work w;
    dnnmem__baseline_layout(&s, n, m, sequence_capacity, &w);
  }
  return dnnmem__scratch_end(&s, out_bytes);
}

/* -- segment tree: range add, global max (tree[1]) -- */

static void dnnmem__seg_pull(dnnmem__remat *w, int32_t i) {
  for (i >>= 1; i >= 1; i >>= 1) {
    int64_t a = w->tree[2 * i], b = w->tree[2 * i + 1];
    w->tree[i] = (a > b ? a : b) + w->lazy[i];
  }
}

/* adds v over slots [l, r] */
static void dnnmem__seg_add(dnnmem__remat *w, int32_t l, int32_t r, int64_t v) {
  int32_t lo = l + w->P, hi = r + w->P + 1, l0 = lo, r0 = hi - 1;
  if (v == 0) return;
  if (l < w->span_lo) w->span_lo = l;
  if (r > w->span_hi) w->span_hi = r;
  for (; lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) {
      w->tree[lo] += v;
      if (lo < w->P) w->lazy[lo] += v;
      lo++;
    }
    if (hi & 1) {
      --hi;
      w->tree[hi] += v;
      if (hi < w->P) w->lazy[hi] += v;
    }
  }
  dnnmem__seg_pull(w, l0);
  dnnmem__seg_pull(w, r0);
}

/* -- instances: per-node sorted lists over the slots -- */

static void dnnmem__inst_insert(dnnmem__remat *w, int32_t v, int32_t t) {
  int32_t prev = -1, next = w->first[v];
  while (next >= 0 && next < t) {
    prev = next;
    next = w->slot_next[next];
  }
  w->slot_node[t] = v;
  w->slot_prev[t] = prev;
  w->slot_next[t] = next;
  if (prev >= 0) w->slot_next[prev] = t;
  else w->first[v] = t;
  if (next >= 0) w->slot_prev[next] = t;
  w->count[v]++;
  w->occ_pos[t] = w->num_occ;
  w->occ[w->num_occ++] = t;
}

static void dnnmem__inst_remove(dnnmem__remat *w, int32_t x) {
  int32_t v = w->slot_node[x], prev = w->slot_prev[x], next = w->slot_next[x], last;
  if (prev >= 0) w->slot_next[prev] = next;
  else w->first[v] = next;
  if (next >= 0) w->slot_prev[next] = prev;
  w->slot_node[x] = -1;
  w->count[v]--;
  last = w->occ[--w->num_occ];
  w->occ[w->occ_pos[x]] = last;
  w->occ_pos[last] = w->occ_pos[x];
}

/* The last slot instance x of node a is held at: its last bound use, or
   the end for the last instance of an output. */
static int32_t dnnmem__inst_end(const dnnmem__remat *w, int32_t a, int32_t x) {
  int32_t next = w->slot_next[x], bound = next >= 0 ? next : w->S, e = x, k, y;
  if (next < 0 && w->p->is_output && w->p->is_output[a]) return w->S - 1;
  for (k = w->uout_off[a]; k < w->uout_off[a + 1]; k++)
    for (y = w->first[w->uout_ids[k]]; y >= 0 && y < bound; y = w->slot_next[y])
      if (y > e) e = y;
  return e;
}

static double dnnmem__remat_penalty(const dnnmem__remat *w, int64_t peak) {
  double x;
  if (peak <= w->aim) return 0.0;
  x = w->alpha * (double)(peak - w->aim) * w->inv_peak0;
  return DNNMEM_EXP(x < DNNMEM__REMAT_PENALTY_EXP_MAX ? x : DNNMEM__REMAT_PENALTY_EXP_MAX) - 1.0;
}

/* Recomputes the penalties of the blocks that the range adds since the last
   call touched. A block is a segment tree node at depth log2(blocks): its
   maximum is its value plus its ancestors' pending adds. */
static void dnnmem__blocks_update(dnnmem__remat *w) {
  int32_t b, last;
  if (w->blocks > 0 && w->span_lo <= w->span_hi) {
    last = w->span_hi >> w->block_shift;
    for (b = w->span_lo >> w->block_shift; b <= last; b++) {
      int32_t node = w->blocks + b, a;
      int64_t m = w->tree[node];
      for (a = node >> 1; a >= 1; a >>= 1) m += w->lazy[a];
      w->block_pen[b] = dnnmem__remat_penalty(w, m);
      w->block_plat[b] =
          w->plateau > 0 && m > w->plateau ? (double)(m - w->plateau) * w->inv_peak0 : 0.0;
    }
  }
  w->span_lo = w->S;
  w->span_hi = -1;
}

/* Rebuilds every structure from slot_node[] (units of the current marking). */
static void dnnmem__anneal_rebuild(dnnmem__remat *w) {
  int32_t v, x, i;
  int64_t run = 0;
  for (v = 0; v < w->n; v++) {
    w->first[v] = -1;
    w->count[v] = 0;
  }
  w->num_occ = 0;
  w->time = 0;
  for (x = w->S - 1; x >= 0; x--) { /* backwards: each insert is at the head */
    v = w->slot_node[x];
    if (v < 0) continue;
    w->slot_prev[x] = -1;
    w->slot_next[x] = w->first[v];
    if (w->first[v] >= 0) w->slot_prev[w->first[v]] = x;
    w->first[v] = x;
    w->count[v]++;
    w->occ_pos[x] = w->num_occ;
    w->occ[w->num_occ++] = x;
    w->time += w->utime[v];
  }
  for (x = 0; x <= w->S; x++) w->mem[x] = 0;
  for (x = 0; x < w->S; x++) {
    v = w->slot_node[x];
    if (v < 0) continue;
    w->slot_end[x] = dnnmem__inst_end(w, v, x);
    w->mem[x] += w->p->sizes[v] + w->uextra[v];
    w->mem[w->slot_end[x] + 1] -= w->p->sizes[v];
    w->mem[x + 1] -= w->uextra[v];
  }
  for (i = 0; i < w->P; i++) {
    if (i < w->S) run += w->mem[i];
    w->tree[w->P + i] = i < w->S ? run : 0;
    w->lazy[i] = 0;
  }
  for (i = w->P - 1; i >= 1; i--) {
    int64_t a = w->tree[2 * i], b = w->tree[2 * i + 1];
    w->tree[i] = a > b ? a : b;
  }
  w->blocks = DNNMEM__REMAT_BLOCKS <= w->P ? DNNMEM__REMAT_BLOCKS : 0;
  for (w->block_shift = 0; w->blocks && (w->blocks << w->block_shift) < w->P; w->block_shift++) {
  }
  w->span_lo = 0;
  w->span_hi = w->S - 1;
  dnnmem__blocks_update(w);
}

/* Spreads a sequence of units evenly over the slots and rebuilds. */
static void dnnmem__anneal_load(dnnmem__remat *w, const int32_t *seq, int32_t len) {
  int32_t x, i;
  for (x = 0; x < w->S; x++) w->slot_node[x] = -1;
  for (i = 0; i < len; i++) w->slot_node[(int32_t)((int64_t)i * w->S / len)] = seq[i];
  dnnmem__anneal_rebuild(w);
}

static int32_t dnnmem__slots_to_seq(const dnnmem__remat *w, const int32_t *slots, int32_t *seq) {
  int32_t x, len = 0;
  for (x = 0; x < w->S; x++)
    if (slots[x] >= 0) seq[len++] = slots[x];
  return len;
}

/* time (linear) + the peak's overshoot penalty + the blocks' mean penalty
   (credit for lowering memory where it is over the budget but not at the
   peak; zero for every feasible state) + a small push to lower peaks; in
   the arena rounds (w->plateau > 0) also the blocks' mean memory above the
   plateau line, as a plateau near the aim plans with holes */
static double dnnmem__remat_cost(const dnnmem__remat *w, int64_t time, int64_t peak) {
  double c = (double)time * w->inv_time0 +
             DNNMEM__REMAT_PEAK_WEIGHT * (double)peak * w->inv_peak0 +
             dnnmem__remat_penalty(w, peak), sum = 0.0;
  int32_t b;
  if (w->plateau > 0 && w->blocks) {
    for (b = 0; b < w->blocks; b++) sum += w->block_plat[b];
    c += DNNMEM__REMAT_PLATEAU_WEIGHT * sum / w->blocks;
    sum = 0.0;
  }
  if (peak <= w->aim) return c;
  for (b = 0; b < w->blocks; b++) sum += w->block_pen[b];
  return w->blocks ? c + sum / w->blocks : c;
}

/* log(end / start) of two positive temperatures, also where the quotient
   overflows or underflows to 0. */
static double dnnmem__remat_log_ratio(double end, double start) {
  double ratio = end / start;
  if (ratio > 0 && ratio <= 1.7976931348623157e308) return dnnmem__log(ratio);
  return dnnmem__log(end) - dnnmem__log(start);
}

static void dnnmem__remat_update_progress(dnnmem__remat *w) {
  double p = (double)w->iteration / (double)w->iterations;
  if (w->o->progress) {
    double q = w->o->progress(w->o->progress_user);
    if (q > p || q != q) p = q == q ? q : p;
  }
  if (w->o->stop && w->o->stop(w->o->stop_user)) w->stopped = w->halted = 1;
  if (w->iteration >= w->iterations) w->stopped = 1;
  w->progress = p > 1 ? 1 : p; /* p >= the moves' share >= 0 */
}

enum { DNNMEM__MOVE_SWAP, DNNMEM__MOVE_ADD, DNNMEM__MOVE_REMOVE };

/* Moves the end of the interval [x, old] to [x, new_end] with one range add
   (an absent interval is [x, x - 1]). */
static void dnnmem__seg_diff(dnnmem__remat *w, int32_t x, int64_t size, int32_t old_end,
                             int32_t new_end) {
  (void)x;
  if (new_end > old_end) dnnmem__seg_add(w, old_end + 1, new_end, size);
  else if (new_end < old_end) dnnmem__seg_add(w, new_end + 1, old_end, -size);
}

static void dnnmem__set_end(dnnmem__remat *w, int32_t x, int64_t size, int32_t new_end) {
  dnnmem__end_change *c;
  if (w->slot_end[x] == new_end) return;
  c = &w->log[w->num_log++];
  c->slot = x;
  c->size = size;
  c->old_end = w->slot_end[x];
  c->new_end = new_end;
  dnnmem__seg_diff(w, x, size, c->old_end, new_end);
  w->slot_end[x] = new_end;
}

/* One annealing move at temperature temp; returns 1 if accepted. The
   caller keeps at_best (current state equals the best, not yet saved). */
/* Applies one instance operation (kind, node v, from slot s, to slot t; the
   caller checked validity), logging every interval change in w->log. */
static void dnnmem__apply_op(dnnmem__remat *w, int32_t kind, int32_t v, int32_t s, int32_t t) {
  int32_t prev_s = kind != DNNMEM__MOVE_ADD ? w->slot_prev[s] : -1, prev_t = -1, k;
  int64_t vsize = w->p->sizes[v];
  if (kind != DNNMEM__MOVE_ADD) {
    dnnmem__set_end(w, s, vsize, s - 1);
    dnnmem__seg_add(w, s, s, -w->uextra[v]);
    dnnmem__inst_remove(w, s);
  }
  if (kind != DNNMEM__MOVE_REMOVE) {
    dnnmem__inst_insert(w, v, t);
    w->slot_end[t] = t - 1; /* empty so far */
    dnnmem__seg_add(w, t, t, w->uextra[v]);
    prev_t = w->slot_prev[t];
    dnnmem__set_end(w, t, vsize, dnnmem__inst_end(w, v, t));
  }
  /* instances of v whose next instance changed */
  if (prev_s >= 0) dnnmem__set_end(w, prev_s, vsize, dnnmem__inst_end(w, v, prev_s));
  if (prev_t >= 0 && prev_t != prev_s) dnnmem__set_end(w, prev_t, vsize, dnnmem__inst_end(w, v, prev_t));
  /* inputs: the use at s goes, a use at t comes */
  for (k = w->uin_off[v]; k < w->uin_off[v + 1]; k++) {
    /* first[u] precedes every instance of v, so the bound instance exists */
    int32_t u = w->uin_ids[k], b;
    if (kind != DNNMEM__MOVE_ADD) {
      b = w->first[u];
      while (w->slot_next[b] >= 0 && w->slot_next[b] < s) b = w->slot_next[b];
      if (w->slot_end[b] == s) dnnmem__set_end(w, b, w->p->sizes[u], dnnmem__inst_end(w, u, b));
    }
    if (kind != DNNMEM__MOVE_REMOVE) {
      b = w->first[u];
      while (w->slot_next[b] >= 0 && w->slot_next[b] < t) b = w->slot_next[b];
      if (w->slot_end[b] < t) dnnmem__set_end(w, b, w->p->sizes[u], t);
    }
  }
}

/* Undoes the structure of one operation (intervals are undone from the log). */
static void dnnmem__undo_op(dnnmem__remat *w, int32_t kind, int32_t v, int32_t s, int32_t t) {
  if (kind != DNNMEM__MOVE_REMOVE) {
    dnnmem__seg_add(w, t, t, -w->uextra[v]);
    dnnmem__inst_remove(w, t);
  }
  if (kind != DNNMEM__MOVE_ADD) {
    dnnmem__inst_insert(w, v, s);
    dnnmem__seg_add(w, s, s, w->uextra[v]);
  }
}

/* A random empty slot in [lo, hi) just before a random use of v (or
   anywhere in [lo, S) when v has no consumer or by chance); -1 if none. */
static int32_t dnnmem__add_slot(dnnmem__remat *w, int32_t v, int32_t lo, int32_t before) {
  int32_t hi = before, t, window;
  if (hi < 0) {
    hi = w->S;
    if (w->uout_off[v] < w->uout_off[v + 1] && (dnnmem_rng_below(w->rng, 2) == 0)) {
      /* just before a random use: where a recomputation helps */
      int32_t c = w->uout_ids[w->uout_off[v] +
                              (int32_t)dnnmem_rng_below(w->rng, (uint32_t)(w->uout_off[v + 1] -
                                                                           w->uout_off[v]))];
      int32_t y = w->first[c], steps = (int32_t)dnnmem_rng_below(w->rng, (uint32_t)w->count[c]);
      while (steps-- > 0) y = w->slot_next[y];
      hi = y;
    }
  }
  window = w->S / DNNMEM__REMAT_ADD_WINDOW_DIV + DNNMEM__REMAT_ADD_WINDOW_MIN;
  if (hi < w->S && hi - lo > window) lo = hi - window;
  if (hi <= lo) return -1;
  t = lo + (int32_t)dnnmem_rng_below(w->rng, (uint32_t)(hi - lo));
  return w->slot_node[t] >= 0 ? -1 : t;
}

static int32_t dnnmem__inputs_ready(const dnnmem__remat *w, int32_t v) {
  int32_t lo = 0, k;
  for (k = w->uin_off[v]; k < w->uin_off[v + 1]; k++)
    if (w->first[w->uin_ids[k]] + 1 > lo) lo = w->first[w->uin_ids[k]] + 1;
  return lo;
}

/* CHAIN: a node computed once and the chain of its sole consumers (each
   computed once, fed by the previous one) move together, as early as they
   can: each to the first free slot after its inputs (at most CHAIN_SCAN
   slots looked at), so that a value and the values that consume it, held
   in between, move as one block (one SWAP at a time would hold the first
   longer and be refused). Evaluated like the other moves; returns 1 if
   accepted. */
static int dnnmem__anneal_chain(dnnmem__remat *w, double temp, double *cost, double *best_cost,
                                int *at_best) {
  int32_t chain[DNNMEM__REMAT_CHAIN_MAX], from[DNNMEM__REMAT_CHAIN_MAX], to[DNNMEM__REMAT_CHAIN_MAX];
  int32_t len = 1, moved = 0, i, k, span_lo, span_hi, log_cap = 4 * w->n + 16;
  int64_t old_peak = w->tree[1];
  double new_cost, delta;
  int32_t s = w->occ[dnnmem_rng_below(w->rng, (uint32_t)w->num_occ)];
  chain[0] = w->slot_node[s];
  if (w->count[chain[0]] != 1) return 0;
  while (len < DNNMEM__REMAT_CHAIN_MAX) {
    int32_t x = chain[len - 1], y;
    if (w->uout_off[x + 1] - w->uout_off[x] != 1) break;
    y = w->uout_ids[w->uout_off[x]];
    if (w->count[y] != 1) break;
    chain[len++] = y;
  }
  if (len < 2) return 0;
  w->num_log = 0;
  w->span_lo = w->S;
  w->span_hi = -1;
  for (i = 0; i < len; i++) {
    int32_t v = chain[i], x = w->first[v], lo = dnnmem__inputs_ready(w, v), t = -1, limit;
    if (w->num_log + 4 + 2 * (w->uin_off[v + 1] - w->uin_off[v]) > log_cap) break;
    limit = lo + DNNMEM__REMAT_CHAIN_SCAN < x ? lo + DNNMEM__REMAT_CHAIN_SCAN : x;
    for (k = lo; k < limit; k++)
      if (w->slot_node[k] < 0) {
        t = k;
        break;
      }
    if (t < 0) continue; /* stays; its consumers may still move up to it */
    dnnmem__apply_op(w, DNNMEM__MOVE_SWAP, v, x, t);
    chain[moved] = v;
    from[moved] = x;
    to[moved++] = t;
  }
  if (moved == 0) return 0;
  span_lo = w->span_lo;
  span_hi = w->span_hi;
  dnnmem__blocks_update(w);
  new_cost = dnnmem__remat_cost(w, w->time, w->tree[1]);
  delta = new_cost - *cost;
  if (delta <= 0 || dnnmem_rng_uniform(w->rng) < DNNMEM_EXP(-delta / temp)) {
    if (delta > 0 && *at_best) { /* leaving the best: save the state before this move */
      DNNMEM_MEMCPY(w->best, w->slot_node, (size_t)w->S * sizeof(int32_t));
      for (i = moved - 1; i >= 0; i--) {
        w->best[to[i]] = -1;
        w->best[from[i]] = chain[i];
      }
      *at_best = 0;
    }
    *cost = new_cost;
    if (new_cost < *best_cost) {
      *best_cost = new_cost;
      *at_best = 1;
    }
    return 1;
  }
  for (i = w->num_log - 1; i >= 0; i--) {
    dnnmem__end_change *c = &w->log[i];
    dnnmem__seg_diff(w, c->slot, c->size, c->new_end, c->old_end);
    w->slot_end[c->slot] = c->old_end;
  }
  for (i = moved - 1; i >= 0; i--) dnnmem__undo_op(w, DNNMEM__MOVE_SWAP, chain[i], from[i], to[i]);
  w->span_lo = span_lo;
  w->span_hi = span_hi;
  dnnmem__blocks_update(w);
  DNNMEM_ASSERT(w->tree[1] == old_peak);
  (void)old_peak;
  return 0;
}

/* The memory at slot x: its leaf plus the pending adds above it. */
static int64_t dnnmem__seg_at(const dnnmem__remat *w, int32_t x) {
  int32_t a = (x + w->P) >> 1;
  int64_t m = w->tree[x + w->P];
  for (; a >= 1; a >>= 1) m += w->lazy[a];
  return m;
}

/* The slot where the memory is highest (the first such). */
static int32_t dnnmem__seg_argmax(const dnnmem__remat *w) {
  int32_t i = 1;
  int64_t want = w->tree[1];
  while (i < w->P) {
    want -= w->lazy[i];
    i = w->tree[2 * i] == want ? 2 * i : 2 * i + 1;
  }
  return i - w->P;
}

/* The last free slot in (lo, hi); -1 if none. */
static int32_t dnnmem__free_before(const dnnmem__remat *w, int32_t lo, int32_t hi) {
  int32_t t;
  for (t = hi - 1; t > lo; t--)
    if (w->slot_node[t] < 0) return t;
  return -1;
}

/* Undoes the intervals logged since log entry `from`. */
static void dnnmem__undo_log(dnnmem__remat *w, int32_t from) {
  int32_t i;
  for (i = w->num_log - 1; i >= from; i--) {
    dnnmem__end_change *c = &w->log[i];
    dnnmem__seg_diff(w, c->slot, c->size, c->new_end, c->old_end);
    w->slot_end[c->slot] = c->old_end;
  }
  w->num_log = from;
}

/* One repair candidate for the instance at slot x, held across the peak
   slot pk: a recomputation of its node just before its first use after
   pk (so that x is released at pk), and recursively of each input whose
   hold it would otherwise stretch across pk (up to REPAIR_MAX_ADD
   recomputations in all), each just before its consumer. Applied
   (logged; the added slots in added[], their count returned, 0 if none
   fits); the caller measures and undoes or keeps it. */
static int32_t dnnmem__repair_apply(dnnmem__remat *w, int32_t x, int32_t pk, int32_t *added,
                                    int64_t *dtime) {
  int32_t v = w->slot_node[x], next = w->slot_next[x], use = next >= 0 ? next : w->S, k, y, t,
          na = 0, done = 0, log_cap = 4 * w->n + 16;
  *dtime = 0;
  if (w->fixed[v] || (w->p->is_output && w->p->is_output[v] && next < 0)) return 0;
  for (k = w->uout_off[v]; k < w->uout_off[v + 1]; k++)
    for (y = w->first[w->uout_ids[k]]; y >= 0 && y < use; y = w->slot_next[y])
      if (y > pk) {
        use = y;
        break;
      }
  if (use >= w->S || w->num_occ >= w->L) return 0;
  if ((t = dnnmem__free_before(w, pk, use)) < 0) return 0;
  if (4 + 2 * (w->uin_off[v + 1] - w->uin_off[v]) > log_cap) return 0;
  w->num_log = 0;
  dnnmem__apply_op(w, DNNMEM__MOVE_ADD, v, -1, t);
  added[na++] = t;
  *dtime += w->utime[v];
  /* the added instances' inputs, in order: recompute those now stretched */
  for (done = 0; done < na; done++) {
    int32_t a = added[done], c = w->slot_node[a];
    for (k = w->uin_off[c]; k < w->uin_off[c + 1]; k++) {
      int32_t u = w->uin_ids[k], b = w->first[u], tu, i, stretched = 0;
      while (w->slot_next[b] >= 0 && w->slot_next[b] < a) b = w->slot_next[b];
      if (b >= pk || w->fixed[u]) continue;
      for (i = 0; i < w->num_log; i++) /* its first change: the end before the candidate */
        if (w->log[i].slot == b) {
          stretched = w->log[i].old_end < pk && w->slot_end[b] >= pk;
          break;
        }
      if (!stretched) continue;
      if (na >= DNNMEM__REMAT_REPAIR_MAX_ADD || w->num_occ >= w->L) return na;
      if ((tu = dnnmem__free_before(w, pk, a)) < 0) continue;
      if (w->num_log + 4 + 2 * (w->uin_off[u + 1] - w->uin_off[u]) > log_cap) return na;
      dnnmem__apply_op(w, DNNMEM__MOVE_ADD, u, -1, tu);
      added[na++] = tu;
      *dtime += w->utime[u];
    }
  }
  return na;
}

/* Undoes a repair candidate: intervals from the log, then the added
   instances in reverse. */
static void dnnmem__repair_undo(dnnmem__remat *w, const int32_t *added, int32_t na) {
  dnnmem__undo_log(w, 0);
  while (na-- > 0) dnnmem__undo_op(w, DNNMEM__MOVE_ADD, w->slot_node[added[na]], -1, added[na]);
}

/* One annealing move at temperature temp; returns 1 if accepted. The
   caller keeps at_best (current state equals the best, not yet saved).
   Moves: SWAP, ADD, REMOVE, and ADD of a recomputation together with one of
   its inputs just before it (a two-node chain in one step). */
static int dnnmem__anneal_move(dnnmem__remat *w, double temp, double *cost, double *best_cost,
                               int *at_best) {
  int32_t span_lo, span_hi, kind, s = -1, t = -1, v, lo, min_consumer = w->S, new_first, k, i;
  int32_t u = -1, tu = -1; /* the input added with v, at slot tu */
  uint32_t r = dnnmem_rng_below(w->rng, DNNMEM__REMAT_MOVE_DRAWS);
  int64_t new_time, old_peak = w->tree[1];
  double new_cost, delta;
  if (w->num_occ == 0) return 0;
  if (r == 0 && dnnmem_rng_below(w->rng, DNNMEM__REMAT_CHAIN_OF) == 0)
    return dnnmem__anneal_chain(w, temp, cost, best_cost, at_best);
  kind = w->o->reorder_only || r < DNNMEM__REMAT_SWAP_DRAWS ? DNNMEM__MOVE_SWAP
         : r < DNNMEM__REMAT_SWAP_DRAWS + DNNMEM__REMAT_ADD_DRAWS ? DNNMEM__MOVE_ADD
                                                                 : DNNMEM__MOVE_REMOVE;
  s = w->occ[dnnmem_rng_below(w->rng, (uint32_t)w->num_occ)];
  v = w->slot_node[s];
  if (kind != DNNMEM__MOVE_SWAP && w->fixed[v]) return 0;
  lo = dnnmem__inputs_ready(w, v);
  for (k = w->uout_off[v]; k < w->uout_off[v + 1]; k++)
    if (w->first[w->uout_ids[k]] < min_consumer) min_consumer = w->first[w->uout_ids[k]];
  if (kind == DNNMEM__MOVE_SWAP) {
    int32_t hi = w->count[v] == 1 ? min_consumer : w->S;
    if (hi <= lo) return 0;
    t = lo + (int32_t)dnnmem_rng_below(w->rng, (uint32_t)(hi - lo));
    if (w->slot_node[t] >= 0) return 0;
    if (w->count[v] == 1) new_first = t;
    else if (s == w->first[v]) new_first = t < w->slot_next[s] ? t : w->slot_next[s];
    else new_first = t < w->first[v] ? t : w->first[v];
    if (new_first >= min_consumer) return 0;
  } else if (kind == DNNMEM__MOVE_ADD) {
    if (w->num_occ >= w->L) return 0;
    if ((t = dnnmem__add_slot(w, v, lo, -1)) < 0) return 0;
    if ((r & 1) && w->uin_off[v] < w->uin_off[v + 1] && /* half of the ADDs */
        w->num_occ + 1 < w->L) {
      u = w->uin_ids[w->uin_off[v] + (int32_t)dnnmem_rng_below(w->rng, (uint32_t)(w->uin_off[v + 1] -
                                                                                 w->uin_off[v]))];
      if (w->fixed[u] || (tu = dnnmem__add_slot(w, u, dnnmem__inputs_ready(w, u), t)) < 0) u = -1;
    }
  } else {
    if (w->count[v] < 2) return 0;
    new_first = s == w->first[v] ? w->slot_next[s] : w->first[v];
    if (new_first >= min_consumer) return 0;
  }
  /* apply, logging every interval change (undone in reverse on rejection) */
  w->num_log = 0;
  w->span_lo = w->S;
  w->span_hi = -1;
  new_time = w->time;
  if (u >= 0) {
    dnnmem__apply_op(w, DNNMEM__MOVE_ADD, u, -1, tu);
    new_time += w->utime[u];
  }
  dnnmem__apply_op(w, kind, v, s, t);
  if (kind == DNNMEM__MOVE_ADD) new_time += w->utime[v];
  if (kind == DNNMEM__MOVE_REMOVE) new_time -= w->utime[v];
  span_lo = w->span_lo;
  span_hi = w->span_hi;
  dnnmem__blocks_update(w);
  new_cost = dnnmem__remat_cost(w, new_time, w->tree[1]);
  delta = new_cost - *cost;
  if (delta <= 0 || dnnmem_rng_uniform(w->rng) < DNNMEM_EXP(-delta / temp)) {
    if (delta > 0 && *at_best) { /* leaving the best: save it (the state before this move) */
      DNNMEM_MEMCPY(w->best, w->slot_node, (size_t)w->S * sizeof(int32_t));
      if (kind != DNNMEM__MOVE_ADD) w->best[s] = v;
      if (kind != DNNMEM__MOVE_REMOVE) w->best[t] = -1;
      if (u >= 0) w->best[tu] = -1;
      *at_best = 0;
    }
    w->time = new_time;
    *cost = new_cost;
    if (new_cost < *best_cost) {
      *best_cost = new_cost;
      *at_best = 1;
    }
    return 1;
  }
  /* undo: intervals from the log, then the structure, in reverse */
  for (i = w->num_log - 1; i >= 0; i--) {
    dnnmem__end_change *c = &w->log[i];
    dnnmem__seg_diff(w, c->slot, c->size, c->new_end, c->old_end);
    w->slot_end[c->slot] = c->old_end;
  }
  dnnmem__undo_op(w, kind, v, s, t);
  if (u >= 0) dnnmem__undo_op(w, DNNMEM__MOVE_ADD, u, -1, tu);
  w->span_lo = span_lo;
  w->span_hi = span_hi;
  dnnmem__blocks_update(w);
  DNNMEM_ASSERT(w->tree[1] == old_peak);
  (void)old_peak;
  return 0;
}

/* The temperature: geometric over the current pipeline's share of the run. */
static double dnnmem__remat_temperature(const dnnmem__remat *w) {
  double local = (w->progress - w->pipe_begin) / (w->pipe_end - w->pipe_begin);
  local = local < 0 ? 0 : local > 1 ? 1 : local;
  return w->temp0 * DNNMEM_EXP(local * w->log_ratio);
}

/* Zero-temperature clean-up: drops every recomputation whose removal keeps
   the peak within the budget (or does not raise it when over), last
   instances first, until a sweep changes nothing (at most
   DNNMEM__REMAT_POLISH_ROUNDS sweeps). */
static void dnnmem__anneal_polish(dnnmem__remat *w) {
  int32_t x, round, i, k;
  for (round = 0; round < DNNMEM__REMAT_POLISH_ROUNDS; round++) {
    int changed = 0;
    for (x = w->S - 1; x >= 0; x--) {
      int32_t v = w->slot_node[x], min_consumer = w->S, new_first;
      int64_t limit = w->tree[1] > w->budget ? w->tree[1] : w->budget;
      if (v < 0 || w->count[v] < 2 || w->fixed[v] || w->utime[v] == 0) continue;
      for (k = w->uout_off[v]; k < w->uout_off[v + 1]; k++)
        if (w->first[w->uout_ids[k]] < min_consumer) min_consumer = w->first[w->uout_ids[k]];
      new_first = x == w->first[v] ? w->slot_next[x] : w->first[v];
      if (new_first >= min_consumer) continue;
      w->num_log = 0;
      dnnmem__apply_op(w, DNNMEM__MOVE_REMOVE, v, x, -1);
      if (w->tree[1] <= limit) {
        w->time -= w->utime[v];
        changed = 1;
      } else {
        for (i = w->num_log - 1; i >= 0; i--) {
          dnnmem__end_change *c = &w->log[i];
          dnnmem__seg_diff(w, c->slot, c->size, c->new_end, c->old_end);
          w->slot_end[c->slot] = c->old_end;
        }
        dnnmem__undo_op(w, DNNMEM__MOVE_REMOVE, v, x, -1);
      }
      dnnmem__blocks_update(w);
    }
    if (!changed) break;
  }
}

/* Greedy repair of a state over the budget: at the highest slot, among the
   recomputations that release an instance held across it (with the inputs
   they would otherwise stretch across it), apply the one that lowers the
   peak (else the memory at that slot, without raising the peak) at the
   least time per byte; repeat until the peak fits the budget, nothing
   helps, or V / 16 + REPAIR_ROUNDS rounds. The slots are respread before
   each round. Counts its trials as moves; skipped after a stop before the
   run's end (progress < 1: the caller wants the best so far, now). */
static void dnnmem__anneal_repair(dnnmem__remat *w) {
  int32_t round, x, added[DNNMEM__REMAT_REPAIR_MAX_ADD], len;
  int32_t limit = w->n / 16 + DNNMEM__REMAT_REPAIR_ROUNDS;
  if (w->tree[1] <= w->budget || w->o->reorder_only || (w->stopped && w->progress < 1)) return;
  len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
  dnnmem__anneal_load(w, w->seq_tmp, len);
  for (round = 0; round < limit && w->tree[1] > w->budget; round++) {
    int32_t pk = dnnmem__seg_argmax(w), best_x = -1;
    int64_t peak = w->tree[1], at = peak;
    double best_ratio = 0;
    int best_peak_drop = 0;
    for (x = 0; x < pk; x++) {
      int32_t v = w->slot_node[x], na;
      int64_t dtime, new_peak, new_at;
      double ratio;
      if (v < 0 || w->slot_end[x] < pk || w->p->sizes[v] == 0) continue;
      na = dnnmem__repair_apply(w, x, pk, added, &dtime);
      if (na == 0) continue;
      w->iteration++;
      new_peak = w->tree[1];
      new_at = dnnmem__seg_at(w, pk);
      dnnmem__repair_undo(w, added, na);
      if (new_peak < peak) {
        ratio = (double)(dtime + 1) / (double)(peak - new_peak);
        if (!best_peak_drop || ratio < best_ratio) {
          best_ratio = ratio;
          best_x = x;
          best_peak_drop = 1;
        }
      } else if (!best_peak_drop && new_peak == peak && new_at < at) {
        ratio = (double)(dtime + 1) / (double)(at - new_at);
        if (best_x < 0 || ratio < best_ratio) {
          best_ratio = ratio;
          best_x = x;
        }
      }
    }
    if (best_x < 0) break;
    {
      int64_t dtime;
      int32_t na = dnnmem__repair_apply(w, best_x, pk, added, &dtime);
      DNNMEM_ASSERT(na > 0);
      (void)na;
      w->time += dtime;
      w->num_log = 0;
    }
    len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
    dnnmem__anneal_load(w, w->seq_tmp, len);
  }
  w->span_lo = 0;
  w->span_hi = w->S - 1;
  dnnmem__blocks_update(w);
}

/* Anneals until the progress reaches progress_end (or a stop); leaves the
   best state of the stage loaded. */
static void dnnmem__anneal_stage(dnnmem__remat *w, double progress_end) {
  double cost = dnnmem__remat_cost(w, w->time, w->tree[1]), best_cost = cost, temp;
  int at_best = 1;
  int64_t since_respace = 0;
  int32_t len;
  temp = dnnmem__remat_temperature(w);
  while (!w->stopped && w->progress < progress_end) {
    if (w->iteration % DNNMEM__REMAT_POLL_MOVES == 0) {
      dnnmem__remat_update_progress(w);
      temp = dnnmem__remat_temperature(w);
      if (w->stopped || w->progress >= progress_end) break;
      /* gaps fill up with ADDs: spread again */
      if (since_respace > DNNMEM__REMAT_RESPREAD_SWEEPS * (int64_t)w->S) {
        len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
        if (at_best) {
          dnnmem__anneal_load(w, w->seq_tmp, len);
          DNNMEM_MEMCPY(w->best, w->slot_node, (size_t)w->S * sizeof(int32_t));
          at_best = 0;
        } else {
          dnnmem__anneal_load(w, w->seq_tmp, len);
        }
        cost = dnnmem__remat_cost(w, w->time, w->tree[1]);
        since_respace = 0;
      }
    }
    w->iteration++;
    since_respace++;
    w->accepted += dnnmem__anneal_move(w, temp, &cost, &best_cost, &at_best);
  }
  if (!at_best) {
    len = dnnmem__slots_to_seq(w, w->best, w->seq_tmp);
    dnnmem__anneal_load(w, w->seq_tmp, len);
  }
}

/* ---- drop-set search: checkpointing decoded from a set of dropped values ---- */

static int dnnmem__remat_better(const dnnmem_remat_result *a, const dnnmem_remat_result *b,
                                int64_t budget);

/* The sequence for a drop set: the row order, where each input that is not
   available is computed again just before its use (recursively). Steps up
   to boundary form phase 1, the rest phase 2; a value is available when it
   has been computed, unless it is dropped and was computed in the other
   phase: dropped values are held only through their forward uses and are
   recomputed once, before their first use after the boundary. Returns the
   length, or -1 when longer than w->L. O(length + their in-degrees). */
static int32_t dnnmem__decode(dnnmem__remat *w, const uint8_t *drop, int32_t boundary,
                              int32_t *seq) {
  const dnnmem_graph *g = w->p->graph;
  int32_t i, v, len = 0;
  for (v = 0; v < w->n; v++) w->dec_state[v] = 0;
  for (i = 0; i < w->n; i++) {
    uint8_t phase = (uint8_t)(i <= boundary ? 1 : 2);
    int32_t top = 0;
    w->dec_stack[top] = w->order[i];
    w->dec_edge[top++] = g->in_offsets[w->order[i]];
    while (top > 0) { /* depth first: a node after its unavailable inputs */
      int32_t x = w->dec_stack[top - 1], e = w->dec_edge[top - 1];
      if (e < g->in_offsets[x + 1]) {
        int32_t u = g->in_ids[e];
        w->dec_edge[top - 1] = e + 1;
        /* inputs precede in the topological order, so u was computed; a
           node is never on the stack twice (acyclic), so top < n */
        if (drop[u] && w->dec_state[u] != phase && top < w->n) {
          w->dec_stack[top] = u;
          w->dec_edge[top++] = g->in_offsets[u];
        }
        continue;
      }
      top--;
      if (len >= w->L) return -1;
      seq[len++] = x;
      w->dec_state[x] = phase;
    }
  }
  return len;
}

/* The search's cost: time (relative) plus a steep penalty over the budget
   (0.3 for any overshoot, then 60 per base peak) and a small push to lower
   peaks. */
static double dnnmem__decode_cost(const dnnmem__remat *w, const dnnmem_remat_result *st) {
  double c = (double)st->time * w->inv_time0 +
             DNNMEM__REMAT_PEAK_WEIGHT * (double)st->peak * w->inv_peak0;
  if (st->peak > w->budget)
    c += DNNMEM__REMAT_DECODE_OVER_STEP +
         DNNMEM__REMAT_DECODE_OVER_SLOPE * (double)(st->peak - w->budget) * w->inv_peak0;
  return c;
}

/* Anneals a drop set until the progress reaches progress_end (each decode
   counts as 1 + (V + E) / 32 moves): flip one candidate (or two, 3 in 10),
   decode, simulate. Candidates: non-input nodes up to the boundary (the row
   order's peak step). Writes the best decoded
   sequence (feasible first, then time) to seq and returns its length
   (0 if none). */
static int32_t dnnmem__decode_search(dnnmem__remat *w, double progress_end, int32_t boundary,
                                     int32_t *seq, dnnmem_remat_result *best_stats) {
  int32_t v, num_cand = 0, len, best_len = 0;
  int64_t charge = 1 + ((int64_t)w->n + w->m) / DNNMEM__REMAT_DECODE_CHARGE_DIV;
  double cost, temp = DNNMEM__REMAT_DECODE_START_TEMP;
  dnnmem_remat_result st;
  for (v = 0; v < w->n; v++) { /* (a value used only before the boundary counts too: */
    w->drop[v] = 0;           /* dropped, it is recomputed with a dropped consumer */
    w->best_drop[v] = 0;      /* instead of being held for that consumer) */
    if (!w->fixed[v] && w->pos[v] <= boundary) w->dec_cand[num_cand++] = v;
  }
  len = dnnmem__decode(w, w->drop, boundary, w->seq_tmp);
  if (num_cand == 0 || len <= 0 ||
      dnnmem__remat_sim(w->p, w->seq_tmp, len, &w->sim, &st, NULL) != DNNMEM_OK)
    return 0;
  *best_stats = st;
  cost = dnnmem__decode_cost(w, &st);
  while (!w->stopped && w->progress < progress_end) {
    int32_t a, b = -1;
    double c;
    if ((w->iteration / charge) % DNNMEM__REMAT_DECODE_POLL == 0) {
      double local;
      dnnmem__remat_update_progress(w);
      if (w->stopped || w->progress >= progress_end) break;
      local = (w->progress - w->pipe_begin) / (w->pipe_end - w->pipe_begin);
      local = local < 0 ? 0 : local > 1 ? 1 : local;
      temp = DNNMEM__REMAT_DECODE_START_TEMP * DNNMEM_EXP(local * DNNMEM__REMAT_DECODE_TEMP_LOG);
    }
    w->iteration += charge;
    a = w->dec_cand[dnnmem_rng_below(w->rng, (uint32_t)num_cand)];
    w->drop[a] ^= 1;
    if (dnnmem_rng_below(w->rng, DNNMEM__REMAT_PAIR_FLIP_OF) < DNNMEM__REMAT_PAIR_FLIPS) {
      b = w->dec_cand[dnnmem_rng_below(w->rng, (uint32_t)num_cand)];
      w->drop[b] ^= 1;
    }
    len = dnnmem__decode(w, w->drop, boundary, w->seq_tmp);
    if (len > 0 && dnnmem__remat_sim(w->p, w->seq_tmp, len, &w->sim, &st, NULL) == DNNMEM_OK &&
        ((c = dnnmem__decode_cost(w, &st)) <= cost ||
         dnnmem_rng_uniform(w->rng) < DNNMEM_EXP(-(c - cost) / temp))) {
      w->accepted++;
      cost = c;
      if (!dnnmem__remat_better(best_stats, &st, w->budget)) {
        *best_stats = st;
        DNNMEM_MEMCPY(w->best_drop, w->drop, (size_t)w->n);
      }
      continue;
    }
    w->drop[a] ^= 1; /* rejected: undo */
    if (b >= 0) w->drop[b] ^= 1;
  }
  best_len = dnnmem__decode(w, w->best_drop, boundary, seq);
  return best_len > 0 ? best_len : 0;
}

/* ---- contraction: marks, groups, conversion -------------------------------- */

/* Size of the closure of v: v plus the unmarked nodes reachable backwards
   through unmarked nodes. Stops early past max_count members or max_inputs
   member inputs; members (optional, max_count entries) receives them. */
static int32_t dnnmem__closure(dnnmem__remat *w, int32_t v, int32_t max_count, int32_t max_inputs,
                               int32_t *members, int32_t *out_inputs) {
  const dnnmem_graph *g = w->p->graph;
  int32_t top = 0, count = 0, inputs = 0, k;
  w->stamp_value++;
  w->stamp[v] = w->stamp_value;
  w->stack[top++] = v;
  while (top > 0) {
    int32_t x = w->stack[--top];
    if (count >= max_count) return max_count + 1;
    if (members) members[count] = x;
    count++;
    inputs += g->in_offsets[x + 1] - g->in_offsets[x];
    if (inputs > max_inputs && count > 1) break;
    for (k = g->in_offsets[x]; k < g->in_offsets[x + 1]; k++) {
      int32_t u = g->in_ids[k];
      if (!w->marked[u] && w->stamp[u] != w->stamp_value) {
        w->stamp[u] = w->stamp_value;
        w->stack[top++] = u;
      }
    }
  }
  *out_inputs = inputs;
  return count;
}

/* Marks graph inputs, outputs, sinks and the rank_limit smallest values,
   then more where a group would exceed the bounds (topological sweep). */
static void dnnmem__remat_mark(dnnmem__remat *w, int32_t rank_limit) {
  const dnnmem_graph *g = w->p->graph;
  int32_t i, v, k;
  for (v = 0; v < w->n; v++)
    if (w->fixed[v] || (w->p->is_output && w->p->is_output[v]) ||
        w->gout_off[v] == w->gout_off[v + 1] || w->rank[v] < rank_limit)
      w->marked[v] = 1;
  for (i = 0; i < w->n; i++) {
    int32_t c, inputs = 0;
    v = w->order[i];
    for (;;) {
      int32_t pick = -1;
      c = dnnmem__closure(w, v, w->G, w->in_cap, NULL, &inputs);
      if (c == 1 || (c <= w->G && inputs <= w->in_cap)) break;
      for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) {
        int32_t u = g->in_ids[k];
        if (!w->marked[u] && (pick < 0 || w->csize[u] > w->csize[pick])) pick = u;
      }
      if (pick < 0) break;
      w->marked[pick] = 1;
    }
    w->csize[v] = c;
  }
}

/* Peak of a member order inside a group (outside inputs not counted, the
   target held at the end), by a direct recount. */
static int64_t dnnmem__group_order_peak(const dnnmem__group *gr, const int32_t *order, int32_t len) {
  int32_t j, i;
  int64_t peak = 0;
  for (j = 0; j < len; j++) {
    int64_t mem = 0;
    /* held at step j: instances computed at i <= j that are not superseded
       before a use at or after j (or the target's last instance) */
    for (i = 0; i <= j; i++) {
      int32_t x = order[i], next = len, last = i, q;
      for (q = i + 1; q < len; q++)
        if (order[q] == x) {
          next = q;
          break;
        }
      for (q = i + 1; q < next; q++)
        if ((gr->in_mask[order[q]] >> x) & 1) last = q;
      if (x == gr->g - 1 && next == len) last = len - 1;
      if (last >= j) mem += gr->size[x];
    }
    if (mem > peak) peak = mem;
  }
  return peak;
}

/* Groups, unit inputs/consumers, times and extra memory for the marking. */
static dnnmem_result dnnmem__remat_build_units(dnnmem__remat *w) {
  const dnnmem_graph *g = w->p->graph;
  dnnmem__group *gr = w->group;
  int32_t v, i, j, k, e = 0, q = 0;
  w->uin_off[0] = 0;
  w->grp_off[0] = 0;
  for (v = 0; v < w->n; v++) {
    int32_t count, inputs = 0, len = 0;
    w->utime[v] = 0;
    w->uextra[v] = 0;
    if (!w->marked[v]) {
      w->uin_off[v + 1] = e;
      w->grp_off[v + 1] = q;
      continue;
    }
    count = dnnmem__closure(w, v, DNNMEM_REMAT_MAX_GROUP, DNNMEM__I32_MAX, w->group_members, &inputs);
    if (count > DNNMEM_REMAT_MAX_GROUP) return DNNMEM_ERR_INVALID_ARGUMENT; /* marking bounds it */
    /* members in topological order: v (the target) last */
    for (i = 1; i < count; i++) {
      int32_t x = w->group_members[i];
      for (j = i; j > 0 && w->pos[w->group_members[j - 1]] > w->pos[x]; j--)
        w->group_members[j] = w->group_members[j - 1];
      w->group_members[j] = x;
    }
    /* frontier: marked inputs of members, distinct */
    w->stamp_value++;
    for (i = 0; i < count; i++) {
      int32_t x = w->group_members[i];
      for (k = g->in_offsets[x]; k < g->in_offsets[x + 1]; k++) {
        int32_t u = g->in_ids[k];
        if (w->marked[u] && u != v && w->stamp[u] != w->stamp_value) {
          w->stamp[u] = w->stamp_value;
          if (e >= w->cap_edges) return DNNMEM_ERR_INVALID_ARGUMENT; /* bounded by the marking */
          w->uin_ids[e++] = u;
        }
      }
    }
    w->uin_off[v + 1] = e;
    if (count == 1) {
      w->group_order[0] = 0;
      len = 1;
    } else {
      int64_t peak = 0;
      gr->g = count;
      for (i = 0; i < count; i++) {
        int32_t x = w->group_members[i];
        gr->size[i] = w->p->sizes[x];
        gr->time[i] = w->p->times[x];
        gr->in_mask[i] = 0;
        for (k = g->in_offsets[x]; k < g->in_offsets[x + 1]; k++)
          for (j = 0; j < i; j++)
            if (w->group_members[j] == g->in_ids[k]) gr->in_mask[i] |= (uint64_t)1 << j;
      }
      if (dnnmem__group_search(gr, &w->gw, w->group_order, DNNMEM__REMAT_GROUP_ORDER_FACTOR * w->G,
                               &len, &peak) == DNNMEM_OK) {
        w->uextra[v] = peak - w->p->sizes[v];
      } else { /* too many states or too long: the topological order */
        for (i = 0; i < count; i++) w->group_order[i] = i;
        len = count;
        w->uextra[v] = dnnmem__group_order_peak(gr, w->group_order, len) - w->p->sizes[v];
      }
      if (w->uextra[v] < 0) w->uextra[v] = 0;
    }
    if (q + len > w->cap_group) return DNNMEM_ERR_INVALID_ARGUMENT;
    for (i = 0; i < len; i++) {
      int32_t x = w->group_members[w->group_order[i]];
      w->grp_ids[q++] = x;
      w->utime[v] += w->p->times[x];
    }
    w->grp_off[v + 1] = q;
  }
  /* consumers of units by counting */
  for (v = 0; v <= w->n; v++) w->uout_off[v] = 0;
  for (k = 0; k < e; k++) w->uout_off[w->uin_ids[k] + 1]++;
  for (v = 0; v < w->n; v++) w->uout_off[v + 1] += w->uout_off[v];
  for (v = 0; v < w->n; v++)
    for (k = w->uin_off[v]; k < w->uin_off[v + 1]; k++) w->uout_ids[w->uout_off[w->uin_ids[k]]++] = v;
  for (v = w->n; v > 0; v--) w->uout_off[v] = w->uout_off[v - 1];
  w->uout_off[0] = 0;
  return DNNMEM_OK;
}

/* The best state's sequence under the new marking: expand every unit to its
   group order and keep the (now) marked nodes; repeats beyond the length
   capacity are dropped (validity depends only on first occurrences). */
static int32_t dnnmem__remat_convert(dnnmem__remat *w) {
  int32_t x, j, v, distinct = 0, extras, used = 0, len = 0;
  for (v = 0; v < w->n; v++) distinct += w->marked[v];
  extras = w->L - distinct;
  w->stamp_value++;
  for (x = 0; x < w->S; x++) {
    int32_t m = w->slot_node[x];
    if (m < 0) continue;
    for (j = w->grp_off[m]; j < w->grp_off[m + 1]; j++) {
      v = w->grp_ids[j];
      if (!w->marked[v]) continue;
      if (w->stamp[v] != w->stamp_value) {
        w->stamp[v] = w->stamp_value;
        w->seq_tmp[len++] = v;
      } else if (used < extras) {
        used++;
        w->seq_tmp[len++] = v;
      }
    }
  }
  return len;
}

/* The best state expanded to original nodes (every group order in full);
   0 if longer than the capacity. */
static int32_t dnnmem__remat_expand(dnnmem__remat *w, int32_t *seq) {
  int32_t x, j, len = 0;
  for (x = 0; x < w->S; x++) {
    int32_t m = w->slot_node[x];
    if (m < 0) continue;
    for (j = w->grp_off[m]; j < w->grp_off[m + 1]; j++) {
      if (len >= w->L) return 0;
      seq[len++] = w->grp_ids[j];
    }
  }
  return len;
}

static int dnnmem__remat_rank_less(const void *ctx, int32_t a, int32_t b) {
  const int64_t *sizes = (const int64_t *)ctx;
  return sizes[a] != sizes[b] ? sizes[a] < sizes[b] : a < b;
}

/* better(a, b): a fits and b does not; both fit and a is faster (then
   lower); neither fits and a is lower (then faster). */
static int dnnmem__remat_better(const dnnmem_remat_result *a, const dnnmem_remat_result *b,
                                int64_t budget) {
  int fa = a->peak <= budget, fb = b->peak <= budget;
  if (fa != fb) return fa;
  if (fa) return a->time != b->time ? a->time < b->time : a->peak < b->peak;
  return a->peak != b->peak ? a->peak < b->peak : a->time < b->time;
}

/* ---- the solver: preparation, candidates, the pipelines ------------------ */

/* Carves the scratch and prepares the graph: the row order (the file's
   order when it is topological, Kahn's otherwise), positions, consumers,
   graph inputs (fixed) and size ranks; checks that every time sum the
   annealer forms (below L * 2G * the largest time) fits. */
static dnnmem_result dnnmem__remat_prepare(dnnmem__remat *w, void *scratch, size_t scratch_bytes) {
  const dnnmem_graph *g = w->p->graph;
  dnnmem__scratch s;
  dnnmem_result r;
  int32_t n = w->n, v, k;
  int64_t max_time = 0, bound;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__remat_layout(&s, w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  if ((r = dnnmem_graph_topo_order(g, w->order, w->topo_scratch, w->topo_bytes, w->error)) != DNNMEM_OK)
    return r;
  if (dnnmem_graph_is_topological(g)) /* the row order as given */
    for (k = 0; k < n; k++) w->order[k] = k;
  dnnmem__graph_consumers(g, w->gout_off, w->gout_ids);
  { /* graph inputs just before their first consumer: no step holds more */
    int32_t len = 0, e;
    for (v = 0; v < n; v++) w->stamp[v] = 0;
    for (k = 0; k < n; k++) {
      int32_t x = w->order[k];
      if (g->in_offsets[x] == g->in_offsets[x + 1] && w->gout_off[x] < w->gout_off[x + 1])
        continue; /* emitted with its first consumer */
      for (e = g->in_offsets[x]; e < g->in_offsets[x + 1]; e++) {
        int32_t u = g->in_ids[e];
        if (g->in_offsets[u] == g->in_offsets[u + 1] && !w->stamp[u]) {
          w->stamp[u] = 1;
          w->tmp[len++] = u;
        }
      }
      w->stamp[x] = 1;
      w->tmp[len++] = x;
    }
    for (k = 0; k < n; k++) w->order[k] = w->tmp[k];
  }
  for (v = 0; v < n; v++) max_time = dnnmem__max64(max_time, w->p->times[v]);
  if (dnnmem__mul_overflows((int64_t)w->L * DNNMEM__REMAT_GROUP_ORDER_FACTOR * w->G, max_time,
                            &bound))
    return DNNMEM_ERR_OVERFLOW;
  for (k = 0; k < n; k++) w->pos[w->order[k]] = k;
  for (v = 0; v < n; v++) {
    w->fixed[v] = (uint8_t)(g->in_offsets[v] == g->in_offsets[v + 1]);
    w->marked[v] = 0;
    w->stamp[v] = 0;
    w->csize[v] = 1;
    w->rank[v] = v;
  }
  dnnmem__sort_ids(w->rank, w->tmp, n, dnnmem__remat_rank_less, w->p->sizes);
  for (k = 0; k < n; k++) w->tmp[w->rank[k]] = k;
  for (v = 0; v < n; v++) w->rank[v] = w->tmp[v];
  return DNNMEM_OK;
}

/* The objective and the schedule, relative to the row order's result. */
static void dnnmem__remat_objective(dnnmem__remat *w, const dnnmem_remat_result *base) {
  const dnnmem_remat_options *o = w->o;
  w->budget = o->budget;
  w->aim = o->budget; /* the plain pipeline aims at the budget, the contraction below */
  w->inv_time0 = 1.0 / (double)(base->time > 0 ? base->time : 1);
  w->inv_peak0 = 1.0 / (double)(base->peak > 0 ? base->peak : 1);
  w->alpha = DNNMEM__REMAT_PENALTY_SLOPE;
  w->iterations = o->iterations ? o->iterations
                                : DNNMEM__REMAT_MOVES_PER_NODE * (int64_t)w->n +
                                      DNNMEM__REMAT_MOVES_BASE;
  w->temp0 = o->start_temperature;
  w->log_ratio = dnnmem__remat_log_ratio(o->end_temperature, w->temp0);
}

static dnnmem_remat_result dnnmem__remat_arena_try(dnnmem__remat *w, const int32_t *seq,
                                                   int32_t len);

/* Offers seq[0 .. len) as a candidate: kept (in the caller's sequence
   array) when it simulates better than the best so far. 1 if kept. With
   the arena bounded it is planned too: a pipeline's stage may fit where
   the later rounds' answers do not. */
static int dnnmem__remat_offer(dnnmem__remat *w, const int32_t *seq, int32_t len) {
  dnnmem_remat_result found;
  dnnmem_result r;
  if (len <= 0) return 0;
  if (w->arena_on) (void)dnnmem__remat_arena_try(w, seq, len);
  r = dnnmem__remat_sim(w->p, seq, len, &w->sim, &found, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK); /* every candidate is valid by construction (a stage's expansion too) */
  if (r != DNNMEM_OK || !dnnmem__remat_better(&found, &w->cand_result, w->budget)) return 0;
  w->cand_result = found;
  w->cand_len = len;
  DNNMEM_MEMCPY(w->cand, seq, (size_t)len * sizeof(int32_t));
  return 1;
}

/* The drop-set search over the first share of the run, cut at the row
   order's peak step; its best is a candidate. 1 when it beats the row
   order (then it starts the plain annealer). */
static int dnnmem__remat_drop_phase(dnnmem__remat *w) {
  dnnmem_remat_result found;
  int32_t boundary = 0, k, len;
  int warm;
  dnnmem__remat_sim(w->p, w->order, w->n, &w->sim, &found, w->mem); /* valid: the base */
  for (k = 1; k < w->n; k++)
    if (w->mem[k] > w->mem[boundary]) boundary = k;
  w->pipe_end = DNNMEM__REMAT_DECODE_SHARE * w->main_end;
  len = dnnmem__decode_search(w, w->pipe_end, boundary, w->seq_tmp, &found);
  warm = dnnmem__remat_offer(w, w->seq_tmp, len);
  w->pipe_begin = w->pipe_end;
  w->pipe_end = w->main_end;
  return warm;
}

/* The portfolio's first pipeline: the plain graph (CNNs fare best there)
   from the decoded schedule (warm: refined at a tenth of the start
   temperature, not melted) or the row order, up to PLAIN_SHARE of the
   run; its result is a candidate. Then the contraction pipeline's first
   marking. */
static dnnmem_result dnnmem__remat_plain_phase(dnnmem__remat *w, int warm) {
  dnnmem_result r;
  int32_t v, len;
  w->pipe_end = DNNMEM__REMAT_PLAIN_SHARE * w->main_end;
  if ((r = dnnmem__remat_build_units(w)) != DNNMEM_OK) return r;
  if (warm) dnnmem__anneal_load(w, w->cand, w->cand_len);
  else dnnmem__anneal_load(w, w->order, w->n);
  if (warm) {
    w->temp0 *= DNNMEM__REMAT_WARM_TEMP;
    w->log_ratio -= dnnmem__log(DNNMEM__REMAT_WARM_TEMP);
  }
  dnnmem__anneal_stage(w, w->pipe_end);
  if (warm) {
    w->temp0 /= DNNMEM__REMAT_WARM_TEMP;
    w->log_ratio += dnnmem__log(DNNMEM__REMAT_WARM_TEMP);
  }
  dnnmem__anneal_repair(w);
  dnnmem__anneal_polish(w);
  len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
  dnnmem__remat_offer(w, w->seq_tmp, len);
  w->pipe_begin = w->pipe_end;
  w->pipe_end = w->main_end;
  for (v = 0; v < w->n; v++) w->marked[v] = 0;
  dnnmem__remat_mark(w, (int32_t)((int64_t)w->n * DNNMEM__REMAT_MARK_PERMILLE / 1000));
  return DNNMEM_OK;
}

/* The annealing stages over the current pipeline's share: with
   contraction, the coarse stage until COARSE_END, decomposition rounds
   (more marks; each stage's expansion a candidate) until FINAL_START, then
   the plain graph; without, one stage on the plain graph from the start
   sequence in seq_tmp[0 .. len). Leaves the last stage's best loaded. */
static dnnmem_result dnnmem__remat_stages(dnnmem__remat *w, int32_t stages, int32_t len) {
  const double coarse_end = DNNMEM__REMAT_COARSE_END, final_start = DNNMEM__REMAT_FINAL_START;
  int32_t stage, v, first = (int32_t)((int64_t)w->n * DNNMEM__REMAT_MARK_PERMILLE / 1000);
  dnnmem_result r;
  for (stage = 0; stage < stages; stage++) {
    double end;
    if (stage > 0 && w->stopped) stage = stages - 1; /* stopped: straight to the plain graph */
    end = stage == stages - 1
              ? 1.0
              : coarse_end + (final_start - coarse_end) * stage / (stages > 2 ? stages - 2 : 1);
    end = w->pipe_begin + (w->pipe_end - w->pipe_begin) * end;
    if (stage > 0) {
      int32_t limit = first + (int32_t)((int64_t)(w->n - first) * stage / (stages - 1));
      dnnmem__remat_offer(w, w->seq_tmp, dnnmem__remat_expand(w, w->seq_tmp));
      if (stage == stages - 1)
        for (v = 0; v < w->n; v++) w->marked[v] = 1;
      else
        dnnmem__remat_mark(w, limit);
      len = dnnmem__remat_convert(w);
    }
    if ((r = dnnmem__remat_build_units(w)) != DNNMEM_OK) return r;
    dnnmem__anneal_load(w, w->seq_tmp, len);
    dnnmem__anneal_stage(w, end);
  }
  return DNNMEM_OK;
}

/* ---- the arena: plan, keep the best, aim again ------------------------------ */

/* better by arena: a fits the budget and b does not (or b is not planned);
   both fit: faster, then smaller; neither: smaller, then faster. */
static int dnnmem__remat_arena_better(const dnnmem_remat_result *a, const dnnmem_remat_result *b,
                                      int64_t budget) {
  int fa = a->arena <= budget, fb = b->arena >= 0 && b->arena <= budget;
  if (b->arena < 0) return 1;
  if (fa != fb) return fa;
  if (fa) return a->time != b->time ? a->time < b->time : a->arena < b->arena;
  return a->arena != b->arena ? a->arena < b->arena : a->time < b->time;
}

/* Plans seq[0 .. len) (dnnmem_remat_plan, the public planner) and offers it
   as the arena candidate. Returns its result (arena -1 if the plan failed:
   instance sizes past int64_t). */
static dnnmem_remat_result dnnmem__remat_arena_try(dnnmem__remat *w, const int32_t *seq,
                                                   int32_t len) {
  dnnmem_remat_plan_result pr;
  dnnmem_remat_result found;
  DNNMEM_MEMSET(&found, 0, sizeof(found));
  found.arena = -1;
  dnnmem_remat_arena_options(w->o->budget, len, &w->plan_options); /* the scratch: any length */
  if (dnnmem__remat_sim(w->p, seq, len, &w->sim, &found, NULL) != DNNMEM_OK ||
      dnnmem_remat_plan(w->p, &w->plan_options, seq, len, 0, w->records, w->offsets, &pr,
                        w->plan_mem, w->plan_bytes) != DNNMEM_OK)
    return found;
  found.arena = pr.arena;
#ifdef DNNMEM__DEBUG_ARENA
  fprintf(stderr, "  try it %lld prog %.3f aim %.4f peak %.4f arena %.4f time %lld nodes %lld stop %d\n", (long long)w->iteration, w->progress, (double)w->aim/w->o->budget, (double)found.peak/w->o->budget, (double)found.arena/w->o->budget, (long long)found.time, (long long)pr.plan.nodes, pr.plan.stop);
#endif
  if (dnnmem__remat_arena_better(&found, &w->arena_result, w->o->budget)) {
    w->arena_result = found;
    w->arena_len = len;
    DNNMEM_MEMCPY(w->arena_cand, seq, (size_t)len * sizeof(int32_t));
  }
  return found;
}

/* A repair guided by the plan of the loaded state (w->records and
   w->offsets hold it, st its result): the records planned above the budget
   are where the layout fails; each instance held across the first step of
   such a record (that record itself: across its first use) is a candidate,
   released there by dnnmem__repair_apply (a recomputation before its next
   use, with the inputs it stretches). Each candidate (at most
   ARENA_CANDIDATES) is planned; the one with the smallest arena, then the
   least time, is kept when it beats st's arena. Returns 1 if one was kept
   (*st: its result; the state reloaded). */
static int dnnmem__remat_arena_repair(dnnmem__remat *w, dnnmem_remat_result *st) {
  int64_t budget = w->o->budget;
  int32_t len, j, i, count = 0, best_k = -1, added[DNNMEM__REMAT_REPAIR_MAX_ADD], na, x;
  int32_t *slot_of = w->best, *cand_x = w->dec_stack, *cand_pk = w->dec_edge;
  dnnmem_remat_result best = *st, found;
  int64_t dtime;
  len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
  dnnmem__anneal_load(w, w->seq_tmp, len); /* respread: gaps for the recomputations */
  for (x = 0, j = 0; x < w->S; x++)
    if (w->slot_node[x] >= 0) slot_of[j++] = x;
  for (j = 0; j < len && count < DNNMEM__REMAT_ARENA_CANDIDATES; j++) {
    const dnnmem_interval *o = &w->records[j];
    if (w->offsets[j] + o->size <= budget) continue;
    for (i = 0; i <= j && count < DNNMEM__REMAT_ARENA_CANDIDATES; i++) {
      int32_t pk = i == j ? (int32_t)o->upper - 1 : j; /* itself: again for its last use */
      if (w->records[i].upper <= j || (i == j && pk <= j)) continue;
      if (i != j && w->records[i].upper <= j + 1) continue; /* not held beyond it */
      cand_x[count] = slot_of[i];
      cand_pk[count++] = slot_of[i == j ? pk - 1 : pk];
    }
  }
  for (i = 0; i < count && !w->halted; i++) {
    if (w->o->stop && w->o->stop(w->o->stop_user)) w->halted = 1; /* a plan can be long */
    na = dnnmem__repair_apply(w, cand_x[i], cand_pk[i], added, &dtime);
    if (na > 0) {
      len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
      found = dnnmem__remat_arena_try(w, w->seq_tmp, len);
      w->iteration++;
      if (found.arena >= 0 && (found.arena < best.arena ||
                               (found.arena == best.arena && found.time < best.time))) {
        best = found;
        best_k = i;
      }
    }
    dnnmem__repair_undo(w, added, na);
  }
  w->num_log = 0;
  if (best_k < 0) return 0;
  na = dnnmem__repair_apply(w, cand_x[best_k], cand_pk[best_k], added, &dtime);
  w->time += dtime;
  w->num_log = 0;
  len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
  dnnmem__anneal_load(w, w->seq_tmp, len);
  *st = dnnmem__remat_arena_try(w, w->seq_tmp, len); /* its plan in records again */
  return 1;
}

/* The next aim from the last one and a planned state (peak P, arena A):
   the aim whose state would fragment as this one did, P B / A; lower by
   at least ARENA_STEP of the budget when A did not fit, half-way up
   (never above B) when it did. */
static int64_t dnnmem__remat_next_aim(int64_t aim, const dnnmem_remat_result *st, int64_t budget) {
  double target;
  if (st->arena <= 0) return aim;
  target = (double)st->peak * (double)budget / (double)st->arena;
  if (st->arena > budget) {
    double lower = (double)aim - DNNMEM__REMAT_ARENA_STEP * (double)budget;
    return (int64_t)(target < lower ? target : lower);
  }
  if (target > (double)budget) target = (double)budget;
  return target > (double)aim ? aim + (int64_t)((target - (double)aim) / 2) : aim;
}

/* The arena rounds over the rest of the run, from the pipelines' answer
   seq[0 .. len): plan it; anneal warm (from the last state) at an aim
   lowered by the measured fragmentation (raised back where it fits),
   repair, polish, plan; ARENA_ROUNDS times. Then, while nothing fits, a
   greedy repair to a lower aim and a plan, at most ARENA_REPAIRS times.
   Every plan is offered as the arena candidate. */
static void dnnmem__remat_arena_phase(dnnmem__remat *w, const int32_t *seq, int32_t len) {
  int64_t budget = w->budget, aim = budget;
  dnnmem_remat_result st;
  int32_t round, k;
  double share = (1.0 - w->main_end) / DNNMEM__REMAT_ARENA_ROUNDS;
  /* the row order (as given when topological) and the start order are
     candidates too: never slower than them where their arenas fit */
  if (dnnmem_graph_is_topological(w->p->graph)) {
    for (k = 0; k < w->n; k++) w->seq_tmp[k] = k;
    (void)dnnmem__remat_arena_try(w, w->seq_tmp, w->n);
  }
  (void)dnnmem__remat_arena_try(w, w->order, w->n);
  st = dnnmem__remat_arena_try(w, seq, len);
  if (st.arena < 0) return;
  dnnmem__anneal_load(w, seq, len);
  w->temp0 *= DNNMEM__REMAT_WARM_TEMP; /* refine, do not melt */
  w->log_ratio -= dnnmem__log(DNNMEM__REMAT_WARM_TEMP);
  for (round = 0; round < DNNMEM__REMAT_ARENA_ROUNDS && !w->stopped; round++) {
    aim = dnnmem__remat_next_aim(aim, &st, budget);
    w->budget = w->aim = aim;
    w->plateau = aim - (int64_t)(DNNMEM__REMAT_PLATEAU_MARGIN * (double)budget);
    w->span_lo = 0;
    w->span_hi = w->S - 1;
    dnnmem__blocks_update(w);
    w->pipe_begin = w->main_end + share * round;
    w->pipe_end = w->main_end + share * (round + 1);
    for (k = 1; k < DNNMEM__REMAT_ARENA_SAMPLES && !w->stopped; k++) {
      /* the plan is erratic near a fit (the same peak can plan 2% under
         or 6% over): states met along the way are candidates too */
      dnnmem__anneal_stage(w, w->pipe_begin + share * k / DNNMEM__REMAT_ARENA_SAMPLES);
      dnnmem__anneal_polish(w);
      len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
      (void)dnnmem__remat_arena_try(w, w->seq_tmp, len);
    }
    dnnmem__anneal_stage(w, w->pipe_end);
    dnnmem__anneal_repair(w);
    dnnmem__anneal_polish(w);
    len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
    st = dnnmem__remat_arena_try(w, w->seq_tmp, len);
  }
  w->temp0 /= DNNMEM__REMAT_WARM_TEMP;
  w->log_ratio += dnnmem__log(DNNMEM__REMAT_WARM_TEMP);
  w->plateau = 0;
  w->span_lo = 0;
  w->span_hi = w->S - 1;
  dnnmem__blocks_update(w);
  for (round = 0; round < DNNMEM__REMAT_ARENA_REPAIRS && w->arena_result.arena > budget &&
                  st.arena >= 0 && !w->halted;
       round++) {
    if (w->o->stop && w->o->stop(w->o->stop_user)) break;
    len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
    st = dnnmem__remat_arena_try(w, w->seq_tmp, len); /* the loaded state's plan */
    if (st.arena < 0) break;
    if (!w->o->reorder_only && dnnmem__remat_arena_repair(w, &st)) continue;
    aim = dnnmem__remat_next_aim(aim, &st, budget);
    w->budget = w->aim = aim;
    dnnmem__anneal_repair(w);
    dnnmem__anneal_polish(w);
    len = dnnmem__slots_to_seq(w, w->slot_node, w->seq_tmp);
    st = dnnmem__remat_arena_try(w, w->seq_tmp, len);
  }
  w->budget = w->aim = budget;
}

static dnnmem_result dnnmem__remat_solve(const dnnmem_remat_problem *problem,
                                         const dnnmem_remat_options *options, dnnmem_rng *rng,
                                         int32_t *sequence, int32_t sequence_capacity,
                                         dnnmem_remat_result *result, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  dnnmem__remat w;
  dnnmem_remat_options o;
  dnnmem_remat_result found;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  int32_t n, k, len, stages;
  int warm = 0, contraction;
  if (r != DNNMEM_OK) return r;
  if (!dnnmem__remat_options(options, &o)) return dnnmem__remat_options_fail(options, e);
  if (result == NULL || sequence_capacity < 0 || (sequence_capacity > 0 && sequence == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  n = problem->graph->num_nodes;
  if (o.algo != DNNMEM_REMAT_ANNEAL) {
    r = dnnmem__remat_baseline(problem, o.algo, sequence, sequence_capacity, result, scratch,
                               scratch_bytes);
    if (r != DNNMEM_OK) return r;
    return o.budget == 0 || result->peak <= o.budget ? DNNMEM_OK : DNNMEM_ERR_INFEASIBLE;
  }
  if (rng == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OPTIONS);
  DNNMEM_MEMSET(&w, 0, sizeof(w));
  w.error = e;
  if (!dnnmem__remat_dims(&w, n, dnnmem__remat_num_edges(problem->graph),
                          sequence_capacity > n ? sequence_capacity : n, o.max_group_size))
    return DNNMEM_ERR_TOO_MANY;
  w.p = problem;
  w.o = &o;
  w.rng = rng;
  w.arena_on = o.budget > 0 && !o.peak_only;
  w.main_end = w.arena_on ? 1.0 - DNNMEM__REMAT_ARENA_SHARE : 1.0;
  w.arena_result.arena = -1;
  if ((r = dnnmem__remat_prepare(&w, scratch, scratch_bytes)) != DNNMEM_OK) return r;
  if (sequence_capacity < n) {
    DNNMEM_MEMSET(result, 0, sizeof(*result));
    result->length = n;
    result->arena = -1;
    return DNNMEM_ERR_OUTPUT_TOO_SMALL;
  }
  /* the first candidate: the row order */
  r = dnnmem__remat_sim(problem, w.order, n, &w.sim, &w.cand_result, NULL);
  if (r != DNNMEM_OK) return r;
  w.cand = sequence;
  w.cand_len = n;
  for (k = 0; k < n; k++) sequence[k] = w.order[k];
  dnnmem__remat_objective(&w, &w.cand_result);
  contraction = !o.no_contraction && !o.reorder_only && n > DNNMEM__REMAT_MIN_SEARCH_NODES &&
                w.G > 1;
  stages = contraction ? o.decompose_steps + 1 : 1;
  for (k = 0; k < n; k++) w.marked[k] = 1;
  w.pipe_begin = 0.0;
  w.pipe_end = w.main_end;
  if (!o.reorder_only && n > DNNMEM__REMAT_MIN_SEARCH_NODES) warm = dnnmem__remat_drop_phase(&w);
  if (contraction && (r = dnnmem__remat_plain_phase(&w, warm)) != DNNMEM_OK) return r;
  len = 0;
  if (!contraction && warm)
    for (; len < w.cand_len; len++) w.seq_tmp[len] = w.cand[len];
  else
    for (k = 0; k < n; k++)
      if (w.marked[w.order[k]]) w.seq_tmp[len++] = w.order[k];
  if (contraction) w.aim = w.budget - (int64_t)((double)w.budget * DNNMEM__REMAT_AIM_MARGIN);
  if ((r = dnnmem__remat_stages(&w, stages, len)) != DNNMEM_OK) return r;
  w.aim = w.budget;
  dnnmem__anneal_repair(&w);
  dnnmem__anneal_polish(&w);
  len = dnnmem__slots_to_seq(&w, w.slot_node, w.seq_tmp);
  r = dnnmem__remat_sim(problem, w.seq_tmp, len, &w.sim, &found, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  if (r != DNNMEM_OK) return r;
  if (dnnmem__remat_better(&w.cand_result, &found, w.budget)) { /* an earlier candidate */
    len = w.cand_len;
    found = w.cand_result;
  } else {
    for (k = 0; k < len; k++) sequence[k] = w.seq_tmp[k];
  }
  if (w.arena_on) { /* the rest of the run for the arena: its best is the answer */
    dnnmem__remat_arena_phase(&w, sequence, len);
    if (w.arena_result.arena >= 0) {
      len = w.arena_len;
      found = w.arena_result;
      for (k = 0; k < len; k++) sequence[k] = w.arena_cand[k];
    }
  }
  found.moves = w.iteration;
  found.accepted = w.accepted;
  *result = found;
  if (w.arena_on && found.arena >= 0) return found.arena <= o.budget ? DNNMEM_OK : DNNMEM_ERR_INFEASIBLE;
  return o.budget == 0 || found.peak <= o.budget ? DNNMEM_OK : DNNMEM_ERR_INFEASIBLE;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_solve(const dnnmem_remat_problem *problem,
                                            const dnnmem_remat_options *options,
                                            dnnmem_rng *rng, int32_t *sequence,
                                            int32_t sequence_capacity,
                                            dnnmem_remat_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__remat_solve(problem, options, rng, sequence, sequence_capacity, result, scratch, scratch_bytes, &e));
}

/* ---- the schedule's own arena ---------------------------------------------- */

DNNMEM_DEF void dnnmem_remat_arena_options(int64_t budget, int32_t length,
                                           dnnmem_plan_options *out) {
  int64_t nodes = DNNMEM_REMAT_ARENA_WORK / (length > 1 ? length : 1);
  if (out == NULL) return;
  DNNMEM_MEMSET(out, 0, sizeof(*out));
#ifndef DNNMEM_NO_EXACT
  out->algo = DNNMEM_PLAN_EXACT;
#endif
  out->node_limit = nodes > DNNMEM_REMAT_ARENA_MIN_NODES ? nodes : DNNMEM_REMAT_ARENA_MIN_NODES;
  out->capacity = budget > 0 ? budget : 0;
}

/* The scratch of dnnmem_remat_plan: the simulator's work, then
   dnnmem_plan_solve's for length records without gaps. */
static dnnmem_result dnnmem__remat_plan_carve(const dnnmem_remat_problem *problem,
                                              const dnnmem_plan_options *options, int32_t length,
                                              int64_t alignment, const dnnmem_interval *records,
                                              dnnmem__sim_work *sim, unsigned char **plan_mem,
                                              size_t *plan_bytes, void *scratch,
                                              size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem_intervals ip;
  dnnmem_result r;
  ip.records = records;
  ip.count = length;
  ip.alignment = alignment;
  if ((r = dnnmem_plan_solve_scratch_size(&ip, options, plan_bytes)) != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  dnnmem__sim_layout(&s, problem->graph->num_nodes, length, sim);
  *plan_mem = DNNMEM__TAKE(&s, unsigned char, *plan_bytes);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_remat_plan_scratch_size(const dnnmem_remat_problem *problem,
                                                        const dnnmem_plan_options *options,
                                                        const int32_t *sequence, int32_t length,
                                                        int64_t alignment, size_t *out_bytes) {
  dnnmem__sim_work sim;
  unsigned char *plan_mem;
  size_t plan_bytes;
  (void)sequence; /* the size depends on the length only */
  if (problem == NULL || problem->graph == NULL || problem->graph->num_nodes < 0 || length < 0 ||
      out_bytes == NULL)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__remat_plan_carve(problem, options, length, alignment, NULL, &sim, &plan_mem,
                                  &plan_bytes, NULL, 0, out_bytes);
}

static dnnmem_result dnnmem__remat_plan(const dnnmem_remat_problem *problem,
                                        const dnnmem_plan_options *options, const int32_t *sequence,
                                        int32_t length, int64_t alignment, dnnmem_interval *records,
                                        int64_t *offsets, dnnmem_remat_plan_result *result, void *scratch,
                                        size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__sim_work sim;
  dnnmem_remat_result st;
  dnnmem_intervals ip;
  dnnmem_plan_result pr;
  unsigned char *plan_mem;
  size_t plan_bytes;
  int32_t j;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  if (r != DNNMEM_OK) return r;
  if (length < 0 || (length > 0 && sequence == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_SEQUENCE);
  if (length > 0 && (records == NULL || offsets == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  /* the simulator's part first: the sequence is judged before any output */
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__sim_layout(&s, problem->graph->num_nodes, length, &sim);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  if ((r = dnnmem__remat_sim(problem, sequence, length, &sim, &st, NULL)) != DNNMEM_OK)
    return dnnmem__fail(e, r, sim.bad, DNNMEM_FIELD_SEQUENCE);
  /* the lifetimes, by the simulator's own rule (last bound use; outputs'
     last instances to the end) */
  for (j = 0; j < length; j++) {
    int32_t v = sequence[j], end = sim.last_use[j];
    if (problem->is_output && problem->is_output[v] && sim.latest[v] == j) end = length - 1;
    DNNMEM_MEMSET(&records[j], 0, sizeof(records[j]));
    records[j].lower = j;
    records[j].upper = (int64_t)end + 1;
    records[j].size = problem->sizes[v];
  }
  r = dnnmem__remat_plan_carve(problem, options, length, alignment, NULL, &sim, &plan_mem,
                               &plan_bytes, scratch, scratch_bytes, NULL);
  if (r != DNNMEM_OK) return r;
  ip.records = records;
  ip.count = length;
  ip.alignment = alignment;
  if ((r = dnnmem_plan_solve(&ip, options, offsets, &pr, plan_mem, plan_bytes)) != DNNMEM_OK)
    return *e = pr.error, r; /* its records are the steps */
  /* the records' load is the peak: no plan (lower bound) is below it */
  DNNMEM_ASSERT(pr.lower_bound >= st.peak && (alignment > 1 || length == 0 || pr.arena >= st.peak));
  if (result) {
    result->arena = pr.arena;
    result->peak = st.peak;
    result->time = st.time;
    result->length = length;
    result->optimal = pr.optimal;
    result->plan = pr;
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_plan(const dnnmem_remat_problem *problem,
                                           const dnnmem_plan_options *options,
                                           const int32_t *sequence, int32_t length,
                                           int64_t alignment, dnnmem_interval *records,
                                           int64_t *offsets, dnnmem_remat_plan_result *result,
                                           void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__remat_plan(problem, options, sequence, length, alignment, records, offsets, result, scratch, scratch_bytes, &e));
}

/* ---- the memory / time trade-off curve -------------------------------------- */

static const char dnnmem__remat_spacing_names[DNNMEM_REMAT_SPACING_COUNT][DNNMEM__NAME_BYTES] = {"even",
                                                                                           "geometric"};

DNNMEM__ENUM_NAMES(dnnmem_remat_spacing, dnnmem__remat_spacing_names, DNNMEM_REMAT_SPACING_COUNT)

/* The scratch of the curve: the sequence, then one region that serves the
   solver (options->algo and the row order) and the time bound in turn. */
static dnnmem_result dnnmem__curve_carve(const dnnmem_remat_problem *problem,
                                         const dnnmem_remat_options *o, int32_t capacity,
                                         int32_t **seq, unsigned char **region,
                                         size_t *region_bytes, void *scratch,
                                         size_t scratch_bytes, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem_remat_options row = *o;
  size_t a = 0, b = 0, c = 0;
  dnnmem_result r;
  row.algo = DNNMEM_REMAT_ROW_ORDER;
  if ((r = dnnmem_remat_solve_scratch_size(problem, o, capacity, &a)) != DNNMEM_OK ||
      (r = dnnmem_remat_solve_scratch_size(problem, &row, capacity, &b)) != DNNMEM_OK ||
      (r = dnnmem_remat_time_bound_scratch_size(problem, o, &c)) != DNNMEM_OK)
    return r;
  *region_bytes = a > b ? (a > c ? a : c) : (b > c ? b : c);
  dnnmem__scratch_begin(&s, out_bytes ? NULL : scratch, scratch_bytes);
  *seq = DNNMEM__TAKE(&s, int32_t, capacity);
  *region = DNNMEM__TAKE(&s, unsigned char, *region_bytes);
  return dnnmem__scratch_end(&s, out_bytes);
}

/* options validated, spacing included; 0 if bad */
static int dnnmem__curve_options(const dnnmem_remat_options *options, dnnmem_remat_options *o) {
  return dnnmem__remat_options(options, o) && o->spacing >= 0 &&
         o->spacing < (int32_t)DNNMEM_REMAT_SPACING_COUNT;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_curve_scratch_size(const dnnmem_remat_problem *problem,
                                                         const dnnmem_remat_options *options,
                                                         int32_t sequence_capacity,
                                                         int32_t num_points, size_t *out_bytes) {
  dnnmem_remat_options o;
  int32_t *seq;
  unsigned char *region;
  size_t region_bytes;
  if (problem == NULL || out_bytes == NULL || sequence_capacity < 0 || num_points < 1 ||
      !dnnmem__curve_options(options, &o))
    return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__curve_carve(problem, &o, sequence_capacity, &seq, &region, &region_bytes, NULL,
                             0, out_bytes);
}

/* The curve's budgets, non-increasing from base to lb (base >= lb >= 0):
   even: base - floor((base - lb) k / (N - 1)); geometric (lb > 0):
   base (lb / base)^(k / (N - 1)) rounded down, within [lb, base]; the
   first point is base, the last lb. */
static void dnnmem__curve_budgets(int64_t base, int64_t lb, int32_t spacing, dnnmem_remat_point *pt,
                                  int32_t n) {
  int32_t k;
  int64_t d = base - lb;
  for (k = 0; k < n; k++) {
    int64_t b;
    if (n == 1 || k == 0) b = base;
    else if (k == n - 1) b = lb;
    else if (spacing == DNNMEM_REMAT_SPACING_GEOMETRIC && lb > 0) {
      double x = (double)base * DNNMEM_EXP((double)k / (double)(n - 1) *
                                           dnnmem__log((double)lb / (double)base));
      b = x >= (double)base ? base : x <= (double)lb ? lb : (int64_t)x;
    } else {
      /* floor(d k / (n - 1)) without overflow: (q (n - 1) + r) k / (n - 1) */
      int64_t q = d / (n - 1), rem = d % (n - 1);
      b = base - q * k - rem * k / (n - 1);
    }
    if (k > 0 && b > pt[k - 1].budget) b = pt[k - 1].budget;
    pt[k].budget = b < lb ? lb : b;
  }
}

/* The knee: over the points with a time (a prefix, by monotonicity), equal
   budgets taken once, slope i = (time[i+1] - time[i]) / (budget[i] -
   budget[i+1]) (time per byte saved, >= 0); the knee is the point between
   two slopes whose increase (later minus earlier) is the largest, counted
   only above 1e-9 x their sum (doubles: rationally equal increases may
   differ in the last bits), the larger budget on ties; -1 if none. */
static int32_t dnnmem__curve_knee(const dnnmem_remat_point *pt, int32_t n) {
  int32_t k, cur = -1, knee = -1, have_slope = 0;
  double best = 0.0, slope_prev = 0.0;
  for (k = 0; k < n; k++) {
    if (pt[k].time < 0) break;
    if (cur >= 0 && pt[k].budget == pt[cur].budget) continue;
    if (cur >= 0) {
      double slope = (double)(pt[k].time - pt[cur].time) / (double)(pt[cur].budget - pt[k].budget);
      double rise = slope - slope_prev, noise = 1e-9 * (slope + slope_prev);
      if (have_slope && rise > noise && rise > best + noise) {
        best = rise;
        knee = cur;
      }
      slope_prev = slope;
      have_slope = 1;
    }
    cur = k;
  }
  return knee;
}

/* progress of point k of N from the caller's progress over the curve */
typedef struct dnnmem__curve_clock {
  const dnnmem_remat_options *caller;
  int32_t k, n;
} dnnmem__curve_clock;

static double dnnmem__curve_progress(void *user) {
  const dnnmem__curve_clock *c = (const dnnmem__curve_clock *)user;
  double p = c->caller->progress(c->caller->progress_user);
  return p * (double)c->n - (double)c->k; /* NaN stays NaN: the solver then ignores it */
}

static dnnmem_result dnnmem__remat_curve(const dnnmem_remat_problem *problem,
                                         const dnnmem_remat_options *options, dnnmem_rng *rng,
                                         int32_t sequence_capacity, dnnmem_remat_point *points,
                                         int32_t num_points, dnnmem_remat_curve_result *result, void *scratch,
                                         size_t scratch_bytes, dnnmem_error *e) {
  dnnmem_remat_options o, run;
  dnnmem_remat_result st;
  dnnmem__curve_clock clock;
  int32_t *seq, k, j;
  unsigned char *region;
  size_t region_bytes;
  int64_t lb, extra, sum_times, moves = 0;
  uint64_t seed = 0;
  dnnmem_result r = dnnmem__remat_validate(problem, e);
  if (r != DNNMEM_OK) return r;
  if (points == NULL || result == NULL || num_points < 1 || sequence_capacity < 0 ||
      !dnnmem__curve_options(options, &o) || (o.algo == DNNMEM_REMAT_ANNEAL && rng == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, points == NULL || result == NULL || num_points < 1 ?
                        DNNMEM_FIELD_OUTPUT : DNNMEM_FIELD_OPTIONS);
  r = dnnmem__curve_carve(problem, &o, sequence_capacity, &seq, &region, &region_bytes, scratch,
                          scratch_bytes, NULL);
  if (r != DNNMEM_OK) return r;
  /* the row order: the first budget and the sum of all times */
  run = o;
  run.algo = DNNMEM_REMAT_ROW_ORDER;
  run.budget = 0;
  if ((r = dnnmem_remat_solve(problem, &run, NULL, seq, sequence_capacity, &st, region,
                              region_bytes)) != DNNMEM_OK) {
    if (r == DNNMEM_ERR_OUTPUT_TOO_SMALL) result->points = 0;
    *e = st.error;
    return r;
  }
  sum_times = st.time;
  r = dnnmem__remat_lower_bound(problem, &lb, NULL);
  DNNMEM_ASSERT(r == DNNMEM_OK && lb <= st.peak); /* the solve above validated the problem */
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  result->base_peak = st.peak;
  result->base_time = st.time;
  result->lower_bound = lb;
  dnnmem__curve_budgets(st.peak, lb, o.spacing, points, num_points);
  if (rng) seed = dnnmem_rng_next(rng);
  clock.caller = &o;
  clock.n = num_points;
  for (k = 0; k < num_points; k++) {
    dnnmem_rng point_rng;
    dnnmem_remat_point *pt = &points[k];
    pt->seed = seed + (uint64_t)k;
    dnnmem_rng_seed(&point_rng, pt->seed);
    run = o;
    run.budget = pt->budget;
    if (o.progress) {
      clock.k = k;
      run.progress = dnnmem__curve_progress;
      run.progress_user = &clock;
    }
    r = dnnmem_remat_solve(problem, &run, &point_rng, seq, sequence_capacity, &st, region,
                           region_bytes);
    if (r != DNNMEM_OK && r != DNNMEM_ERR_INFEASIBLE) return r;
    pt->run_time = st.time;
    pt->run_peak = st.peak;
    pt->run_arena = st.arena;
    moves += st.moves;
    r = dnnmem__remat_time_bound(problem, &run, &extra, NULL, region, region_bytes, NULL);
    if (r != DNNMEM_OK) return r; /* (the budget is at least the peak's lower bound) */
    pt->time_lower_bound = dnnmem__add_overflows(sum_times, extra, &extra) ? DNNMEM__I64_MAX : extra;
    if (k > 0 && points[k - 1].time_lower_bound > pt->time_lower_bound)
      pt->time_lower_bound = points[k - 1].time_lower_bound; /* a larger budget's bound holds */
  }
  /* each point: the least time of every run whose arena (the peak where
     none was planned) fits its budget, the first such run on ties: then a
     point's arena is at most the larger budgets' */
  for (k = 0; k < num_points; k++) {
    dnnmem_remat_point *pt = &points[k];
    pt->time = pt->peak = pt->arena = -1;
    pt->source = -1;
    for (j = 0; j < num_points; j++) {
      int64_t bounded = points[j].run_arena >= 0 ? points[j].run_arena : points[j].run_peak;
      if (bounded <= pt->budget && (pt->time < 0 || points[j].run_time < pt->time)) {
        pt->time = points[j].run_time;
        pt->peak = points[j].run_peak;
        pt->arena = points[j].run_arena;
        pt->source = j;
      }
    }
    DNNMEM_ASSERT(pt->time < 0 || pt->time_lower_bound <= pt->time);
  }
  result->knee = dnnmem__curve_knee(points, num_points);
  result->points = num_points;
  result->moves = moves;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_remat_curve(const dnnmem_remat_problem *problem,
                                            const dnnmem_remat_options *options,
                                            dnnmem_rng *rng, int32_t sequence_capacity,
                                            dnnmem_remat_point *points, int32_t num_points,
                                            dnnmem_remat_curve_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__remat_curve(problem, options, rng, sequence_capacity, points, num_points, result, scratch, scratch_bytes, &e));
}



#endif /* DNNMEM_NO_REMAT */

/* ==== 6. Layout arithmetic (dnnmem_layout_*) ============================= */

#ifndef DNNMEM_NO_LAYOUT

/* ---- layout arithmetic (TensorLayout) ------------------------------------ */

static int dnnmem__layout_is_digit(int c) { return c >= '0' && c <= '9'; }
static int dnnmem__layout_is_alpha(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static int dnnmem__layout_name_eq(const char *a, const char *b) {
  int32_t i;
  for (i = 0; i < DNNMEM_LAYOUT_NAME_BYTES; i++) {
    if (a[i] != b[i]) return 0;
    if (a[i] == 0) return 1;
  }
  return 1;
}
/* <0, 0, >0 like strcmp (NULL, the memory, sorts first). */
static int dnnmem__layout_name_cmp(const char *a, const char *b) {
  int32_t i;
  if (a == NULL || b == NULL) return (a != NULL) - (b != NULL);
  for (i = 0; i < DNNMEM_LAYOUT_NAME_BYTES; i++) {
    if (a[i] != b[i]) return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
    if (a[i] == 0) return 0;
  }
  return 0;
}
/* A level name as the notation writes it: a letter, then letters, digits or
   '_', 1..15 bytes, NUL-terminated. DNNMEM_ERR_PARSE for a name the
   notation cannot write, DNNMEM_ERR_LAYOUT_LIMIT when no NUL ends it. */
static dnnmem_result dnnmem__layout_name_check(const char *name) {
  int32_t i;
  if (!dnnmem__layout_is_alpha((unsigned char)name[0])) return DNNMEM_ERR_PARSE;
  for (i = 1; i < DNNMEM_LAYOUT_NAME_BYTES; i++) {
    int c = (unsigned char)name[i];
    if (c == 0) return DNNMEM_OK;
    if (!dnnmem__layout_is_alpha(c) && !dnnmem__layout_is_digit(c) && c != '_') return DNNMEM_ERR_PARSE;
  }
  return DNNMEM_ERR_LAYOUT_LIMIT;
}
/* finish, step 1: counts, axis ranges and level names. */
static dnnmem_result dnnmem__layout_check_header(dnnmem_layout *w) {
  int32_t a, lv, j;
  dnnmem_result r;
  if (w->num_axes < 1 || w->num_factors < 1 || w->num_levels < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (w->num_axes > DNNMEM_LAYOUT_MAX_AXES || w->num_factors > DNNMEM_LAYOUT_MAX_FACTORS ||
      w->num_levels > DNNMEM_LAYOUT_MAX_LEVELS)
    return DNNMEM_ERR_LAYOUT_LIMIT;
  if (w->bound != 0 && w->bound != 1) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (w->axis_first[0] != 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (a = 0; a < w->num_axes; a++)
    if (w->axis_first[a + 1] <= w->axis_first[a] || w->axis_first[a + 1] > w->num_factors)
      return DNNMEM_ERR_INVALID_ARGUMENT;
  for (lv = 0; lv < w->num_levels; lv++) {
    if ((r = dnnmem__layout_name_check(w->level_names[lv])) != DNNMEM_OK) return r;
    for (j = 0; j < lv; j++)
      if (dnnmem__layout_name_eq(w->level_names[j], w->level_names[lv]))
        return DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT;
    if (w->bound && w->level_extent[lv] < 1) return DNNMEM_ERR_INVALID_ARGUMENT;
    if (!w->bound) w->level_extent[lv] = 0;
  }
  return DNNMEM_OK;
}

/* finish, step 2: each factor's ranges, axis and flags; uses[lv] counts the
   factors of level lv with a count, alls[lv] its broadcasts to all units.
   Resolves the extent of B@[LEVEL] and the omitted stride of a level used
   once; every level must be used. */
static dnnmem_result dnnmem__layout_check_factors(dnnmem_layout *w, int32_t *uses, int32_t *alls,
                                                  int32_t *errp) {
  int32_t a, k, lv, nd = w->axis_first[w->num_axes];
  for (lv = 0; lv < w->num_levels; lv++) uses[lv] = alls[lv] = 0;
  for (a = 0, k = 0; k < w->num_factors; k++) {
    dnnmem_layout_factor *f = &w->factors[k];
    *errp = k;
    while (k < nd && k >= w->axis_first[a + 1]) a++;
    f->axis = k < nd ? a : -1;
    if (f->level < DNNMEM_LAYOUT_MEMORY || f->level >= w->num_levels)
      return DNNMEM_ERR_INVALID_ARGUMENT;
    if ((f->flags & ~(DNNMEM_LAYOUT_ALL_UNITS | DNNMEM_LAYOUT_IMPLICIT)) != 0 ||
        ((f->flags & DNNMEM_LAYOUT_IMPLICIT) && !(f->flags & DNNMEM_LAYOUT_ALL_UNITS)) ||
        ((f->flags & DNNMEM_LAYOUT_IMPLICIT) && !w->bound)) /* unprintable without a machine */
      return DNNMEM_ERR_INVALID_ARGUMENT;
    if (k >= nd && f->level < 0) return DNNMEM_ERR_INVALID_ARGUMENT; /* broadcast in memory */
    if (f->flags & DNNMEM_LAYOUT_ALL_UNITS) {
      if (k < nd) return DNNMEM_ERR_INVALID_ARGUMENT;
      alls[f->level]++;
      f->extent = w->bound ? w->level_extent[f->level] : 1;
      f->stride = 1;
      continue;
    }
    if (f->extent < 1) return DNNMEM_ERR_LAYOUT_EXTENT;
    if (f->stride < DNNMEM_LAYOUT_AUTO) return DNNMEM_ERR_LAYOUT_STRIDE;
    if (f->level >= 0) uses[f->level]++;
  }
  for (k = 0; k < w->num_factors; k++) {
    dnnmem_layout_factor *f = &w->factors[k];
    *errp = k;
    if (f->level < 0) continue;
    if (f->flags & DNNMEM_LAYOUT_ALL_UNITS) {
      if (alls[f->level] > 1 || uses[f->level] > 0) return DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT;
    } else if (f->stride == DNNMEM_LAYOUT_AUTO) {
      if (uses[f->level] > 1) return DNNMEM_ERR_LAYOUT_STRIDE;
      f->stride = 1;
    }
  }
  *errp = -1;
  for (lv = 0; lv < w->num_levels; lv++)
    if (uses[lv] + alls[lv] == 0) return DNNMEM_ERR_INVALID_ARGUMENT; /* a name no factor uses */
  return DNNMEM_OK;
}

/* finish, step 3: memory strides all given, or all omitted (then the
   compact row-major strides in text order). */
static dnnmem_result dnnmem__layout_memory_strides(dnnmem_layout *w, int32_t *errp) {
  int32_t k, first_auto = -1, given = 0, nd = w->axis_first[w->num_axes];
  int64_t place;
  for (k = 0; k < nd; k++) {
    if (w->factors[k].level != DNNMEM_LAYOUT_MEMORY) continue;
    if (w->factors[k].stride == DNNMEM_LAYOUT_AUTO) {
      if (first_auto < 0) first_auto = k;
    } else {
      given++;
    }
  }
  if (first_auto < 0) return DNNMEM_OK;
  if (given > 0) {
    *errp = first_auto;
    return DNNMEM_ERR_LAYOUT_STRIDE;
  }
  for (place = 1, k = nd - 1; k >= 0; k--) {
    dnnmem_layout_factor *f = &w->factors[k];
    if (f->level != DNNMEM_LAYOUT_MEMORY) continue;
    f->stride = place;
    *errp = k;
    if (dnnmem__mul_overflows(place, f->extent, &place)) return DNNMEM_ERR_OVERFLOW;
  }
  return DNNMEM_OK;
}

/* finish, step 4: padded shape, sizes and the unpadded shape. */
static dnnmem_result dnnmem__layout_shapes(dnnmem_layout *w, int32_t *errp) {
  int32_t a, k;
  w->padded_size = 1;
  for (a = 0; a < w->num_axes; a++) {
    w->shape[a] = 1;
    for (k = w->axis_first[a]; k < w->axis_first[a + 1]; k++) {
      *errp = k;
      if (dnnmem__mul_overflows(w->shape[a], w->factors[k].extent, &w->shape[a]) ||
          dnnmem__mul_overflows(w->padded_size, w->factors[k].extent, &w->padded_size))
        return DNNMEM_ERR_OVERFLOW;
    }
  }
  *errp = -1;
  w->size = 1;
  w->has_padding = 0;
  for (a = 0; a < w->num_axes; a++) {
    if (w->unpadded[a] == 0) w->unpadded[a] = w->shape[a];
    if (w->unpadded[a] < 1 || w->unpadded[a] > w->shape[a]) return DNNMEM_ERR_LAYOUT_PADDING;
    if (w->unpadded[a] != w->shape[a]) w->has_padding = 1;
    w->size *= w->unpadded[a]; /* <= padded_size: no overflow */
  }
  for (a = w->num_axes; a < DNNMEM_LAYOUT_MAX_AXES; a++) w->shape[a] = w->unpadded[a] = 0;
  return DNNMEM_OK;
}

/* finish, step 5: cosize, level spans and parts, replicas; a bound layout
   must fit its machine. */
static dnnmem_result dnnmem__layout_extents(dnnmem_layout *w, const int32_t *alls, int32_t *errp) {
  int32_t k, lv, nd = w->axis_first[w->num_axes];
  w->cosize = 1;
  w->replicas = 1;
  for (lv = 0; lv < w->num_levels; lv++) {
    w->level_span[lv] = 1;
    w->level_parts[lv] = 1;
    w->level_all[lv] = alls[lv] > 0;
  }
  for (k = 0; k < w->num_factors; k++) {
    dnnmem_layout_factor *f = &w->factors[k];
    int64_t reach, *sum = f->level < 0 ? &w->cosize : &w->level_span[f->level];
    *errp = k;
    if (dnnmem__mul_overflows(f->extent - 1, f->stride, &reach) || dnnmem__add_overflows(*sum, reach, sum))
      return DNNMEM_ERR_OVERFLOW;
    if (k < nd && f->level >= 0) w->level_parts[f->level] *= f->extent; /* <= padded_size */
    if (k >= nd && dnnmem__mul_overflows(w->replicas, f->extent, &w->replicas))
      return DNNMEM_ERR_OVERFLOW;
  }
  *errp = -1;
  for (lv = 0; lv < w->num_levels; lv++)
    if (alls[lv] && !w->bound) w->replicas = 0; /* unknown until bound */
  if (!w->bound) return DNNMEM_OK;
  for (lv = 0; lv < w->num_levels; lv++) {
    if (w->level_span[lv] <= w->level_extent[lv]) continue;
    for (k = 0; k < w->num_factors; k++)
      if (w->factors[k].level == lv) break;
    *errp = k;
    return DNNMEM_ERR_LAYOUT_MACHINE_EXTENT;
  }
  return DNNMEM_OK;
}

/* finish, step 6: place values (the position is the mixed-radix number of
   all data digits), the odometer's active factors, and the inverse steps of
   each space with the nesting (injectivity) check. */
static dnnmem_result dnnmem__layout_steps(dnnmem_layout *w, int32_t *errp) {
  int64_t place_of[DNNMEM_LAYOUT_MAX_FACTORS], axis_place_of[DNNMEM_LAYOUT_MAX_FACTORS], place, reach;
  int64_t minus_stride[DNNMEM_LAYOUT_MAX_FACTORS]; /* a stable sort by it: stride descending */
  int32_t ids[DNNMEM_LAYOUT_MAX_FACTORS], count = 0, n, i, a, k, sp, nd = w->axis_first[w->num_axes];
  for (k = 0; k < w->num_factors; k++) {
    place_of[k] = axis_place_of[k] = 0; /* broadcast: no place */
    minus_stride[k] = -w->factors[k].stride; /* >= 0 (checked) */
  }
  for (a = w->num_axes - 1, place = 1; a >= 0; a--) {
    int64_t axis_place = 1;
    for (k = w->axis_first[a + 1] - 1; k >= w->axis_first[a]; k--) {
      place_of[k] = place;
      axis_place_of[k] = axis_place;
      place *= w->factors[k].extent; /* <= padded_size */
      axis_place *= w->factors[k].extent;
    }
  }
  w->num_active = 0;
  for (k = 0; k < nd; k++)
    if (w->factors[k].extent > 1) w->active[w->num_active++] = k;
  for (sp = 0; sp <= w->num_levels; sp++) {
    w->space_first[sp] = count;
    for (n = 0, k = 0; k < w->num_factors; k++) {
      const dnnmem_layout_factor *f = &w->factors[k];
      if (f->level + 1 == sp && f->extent > 1 && !(f->flags & DNNMEM_LAYOUT_ALL_UNITS)) ids[n++] = k;
    }
    dnnmem__insertion_sort(ids, n, minus_stride);
    for (reach = 0, i = n - 1; i >= 0; i--) {
      const dnnmem_layout_factor *f = &w->factors[ids[i]];
      if (f->stride <= reach) {
        *errp = ids[i];
        return DNNMEM_ERR_LAYOUT_COLLISION;
      }
      reach += (f->extent - 1) * f->stride; /* bounded by the checked cosize/span */
    }
    for (i = 0; i < n; i++) {
      const dnnmem_layout_factor *f = &w->factors[ids[i]];
      struct dnnmem__layout_step *st = &w->steps[count++];
      int32_t shift = 0;
      st->stride = f->stride;
      st->extent = f->extent;
      st->place = place_of[ids[i]];
      st->axis_place = axis_place_of[ids[i]];
      st->axis = f->axis;
      while (shift < 62 && ((int64_t)1 << shift) < f->stride) shift++;
      st->shift = ((int64_t)1 << shift) == f->stride ? shift : -1;
    }
  }
  w->space_first[w->num_levels + 1] = count;
  return DNNMEM_OK;
}

/* dnnmem_layout_finish; *errp: the factor at fault, -1 for none. */
static dnnmem_result dnnmem__layout_finish(dnnmem_layout *layout, int32_t *errp) {
  dnnmem_layout w;
  int32_t uses[DNNMEM_LAYOUT_MAX_LEVELS], alls[DNNMEM_LAYOUT_MAX_LEVELS];
  dnnmem_result r;
  *errp = -1;
  if (layout == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  w = *layout; /* the layout is written only on success */
  if ((r = dnnmem__layout_check_header(&w)) != DNNMEM_OK ||
      (r = dnnmem__layout_check_factors(&w, uses, alls, errp)) != DNNMEM_OK ||
      (r = dnnmem__layout_memory_strides(&w, errp)) != DNNMEM_OK ||
      (r = dnnmem__layout_shapes(&w, errp)) != DNNMEM_OK ||
      (r = dnnmem__layout_extents(&w, alls, errp)) != DNNMEM_OK ||
      (r = dnnmem__layout_steps(&w, errp)) != DNNMEM_OK)
    return r;
  *errp = -1;
  *layout = w;
  return DNNMEM_OK;
}

/* The field a layout error is about (index: the factor, or -1). */
static dnnmem_result dnnmem__layout_fail(dnnmem_error *e, dnnmem_result r, int32_t factor) {
  dnnmem_field f = DNNMEM_FIELD_NONE;
  if (r == DNNMEM_ERR_LAYOUT_EXTENT || r == DNNMEM_ERR_LAYOUT_PADDING || r == DNNMEM_ERR_OVERFLOW)
    f = DNNMEM_FIELD_EXTENT;
  else if (r == DNNMEM_ERR_LAYOUT_STRIDE || r == DNNMEM_ERR_LAYOUT_COLLISION) f = DNNMEM_FIELD_STRIDE;
  else if (r == DNNMEM_ERR_LAYOUT_LIMIT) f = DNNMEM_FIELD_LIMIT;
  else if (r != DNNMEM_OK && (factor >= 0 || r != DNNMEM_ERR_INVALID_ARGUMENT)) f = DNNMEM_FIELD_LEVEL;
  dnnmem__error_clear(e);
  return r == DNNMEM_OK ? r : dnnmem__fail(e, r, factor, f);
}

DNNMEM_DEF dnnmem_result dnnmem_layout_finish(dnnmem_layout *layout, dnnmem_error *error) {
  int32_t at;
  dnnmem_result r = dnnmem__layout_finish(layout, &at);
  return dnnmem__layout_fail(error, r, at);
}

/* ---- parsing ---- */

typedef struct dnnmem__layout_parser {
  const char *text;
  size_t length, at;
  int64_t error_at;
} dnnmem__layout_parser;

static int dnnmem__lp_peek(const dnnmem__layout_parser *p) {
  return p->at < p->length ? (unsigned char)p->text[p->at] : -1;
}
static void dnnmem__lp_space(dnnmem__layout_parser *p) {
  int c;
  while ((c = dnnmem__lp_peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r') p->at++;
}
static dnnmem_result dnnmem__lp_fail(dnnmem__layout_parser *p, dnnmem_result r, size_t at) {
  p->error_at = (int64_t)at;
  return r;
}
static dnnmem_result dnnmem__lp_expect(dnnmem__layout_parser *p, int c) {
  dnnmem__lp_space(p);
  if (dnnmem__lp_peek(p) != c) return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at);
  p->at++;
  dnnmem__lp_space(p);
  return DNNMEM_OK;
}
static dnnmem_result dnnmem__lp_int(dnnmem__layout_parser *p, int64_t *out) {
  size_t start = p->at;
  int64_t v = 0;
  if (!dnnmem__layout_is_digit(dnnmem__lp_peek(p))) return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at);
  while (dnnmem__layout_is_digit(dnnmem__lp_peek(p))) {
    int d = dnnmem__lp_peek(p) - '0';
    if (v > (DNNMEM__I64_MAX - d) / 10) return dnnmem__lp_fail(p, DNNMEM_ERR_OVERFLOW, start);
    v = v * 10 + d;
    p->at++;
  }
  *out = v;
  return DNNMEM_OK;
}
static dnnmem_result dnnmem__lp_name(dnnmem__layout_parser *p, char *name) {
  size_t start = p->at, n = 0;
  int c = dnnmem__lp_peek(p);
  if (!dnnmem__layout_is_alpha(c)) return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at);
  while (dnnmem__layout_is_alpha(c) || dnnmem__layout_is_digit(c) || c == '_') {
    if (n + 1 >= DNNMEM_LAYOUT_NAME_BYTES) return dnnmem__lp_fail(p, DNNMEM_ERR_LAYOUT_LIMIT, start);
    name[n++] = (char)c;
    p->at++;
    c = dnnmem__lp_peek(p);
  }
  name[n] = 0;
  return DNNMEM_OK;
}
/* The index of a level name, adding it when new. */
static dnnmem_result dnnmem__lp_level(dnnmem__layout_parser *p, dnnmem_layout *l,
                                      const char *name, size_t at, int32_t *out) {
  int32_t lv;
  for (lv = 0; lv < l->num_levels; lv++)
    if (dnnmem__layout_name_eq(l->level_names[lv], name)) break;
  if (lv == l->num_levels) {
    if (lv == DNNMEM_LAYOUT_MAX_LEVELS) return dnnmem__lp_fail(p, DNNMEM_ERR_LAYOUT_LIMIT, at);
    DNNMEM_MEMCPY(l->level_names[lv], name, DNNMEM_LAYOUT_NAME_BYTES);
    l->num_levels++;
  }
  *out = lv;
  return DNNMEM_OK;
}
/* factor := INT ['_' NAME] [':' INT]; broadcast item := NAME | INT '_' NAME [':' INT] */
static dnnmem_result dnnmem__lp_factor(dnnmem__layout_parser *p, dnnmem_layout *l, int broadcast) {
  dnnmem_layout_factor *f;
  char name[DNNMEM_LAYOUT_NAME_BYTES];
  size_t start = p->at;
  dnnmem_result r;
  if (l->num_factors == DNNMEM_LAYOUT_MAX_FACTORS) return dnnmem__lp_fail(p, DNNMEM_ERR_LAYOUT_LIMIT, start);
  f = &l->factors[l->num_factors];
  f->position = (int32_t)(start < 0x7fffffff ? start : 0x7fffffff);
  f->level = DNNMEM_LAYOUT_MEMORY;
  f->stride = DNNMEM_LAYOUT_AUTO;
  f->flags = 0;
  f->axis = -1;
  f->extent = 1;
  if (broadcast && dnnmem__layout_is_alpha(dnnmem__lp_peek(p))) {
    if ((r = dnnmem__lp_name(p, name)) != DNNMEM_OK) return r;
    if ((r = dnnmem__lp_level(p, l, name, start, &f->level)) != DNNMEM_OK) return r;
    f->flags = DNNMEM_LAYOUT_ALL_UNITS;
    f->stride = 1;
    l->num_factors++;
    return DNNMEM_OK;
  }
  if ((r = dnnmem__lp_int(p, &f->extent)) != DNNMEM_OK) return r;
  if (f->extent < 1) return dnnmem__lp_fail(p, DNNMEM_ERR_LAYOUT_EXTENT, start);
  if (dnnmem__lp_peek(p) == '_') {
    size_t name_at;
    p->at++;
    name_at = p->at;
    if ((r = dnnmem__lp_name(p, name)) != DNNMEM_OK) return r;
    if ((r = dnnmem__lp_level(p, l, name, name_at, &f->level)) != DNNMEM_OK) return r;
  } else if (broadcast) {
    return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at); /* a broadcast count needs a level */
  }
  if (dnnmem__lp_peek(p) == ':') {
    p->at++;
    if ((r = dnnmem__lp_int(p, &f->stride)) != DNNMEM_OK) return r;
  }
  l->num_factors++;
  return DNNMEM_OK;
}
/* '(' axis (',' axis)* (';' 'B' '@' '[' item (',' item)* ']')* ')' with
   axis := '(' factor (',' factor)* ')' | factor */
static dnnmem_result dnnmem__lp_body(dnnmem__layout_parser *p, dnnmem_layout *l) {
  dnnmem_result r;
  int c;
  if ((r = dnnmem__lp_expect(p, '(')) != DNNMEM_OK) return r;
  for (;;) {
    if (l->num_axes == DNNMEM_LAYOUT_MAX_AXES) return dnnmem__lp_fail(p, DNNMEM_ERR_LAYOUT_LIMIT, p->at);
    l->axis_first[l->num_axes] = l->num_factors;
    if (dnnmem__lp_peek(p) == '(') {
      p->at++;
      for (;;) {
        dnnmem__lp_space(p);
        if ((r = dnnmem__lp_factor(p, l, 0)) != DNNMEM_OK) return r;
        dnnmem__lp_space(p);
        c = dnnmem__lp_peek(p);
        p->at++;
        if (c == ')') break;
        if (c != ',') return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at - 1);
      }
    } else if ((r = dnnmem__lp_factor(p, l, 0)) != DNNMEM_OK) {
      return r;
    }
    l->num_axes++;
    l->axis_first[l->num_axes] = l->num_factors;
    dnnmem__lp_space(p);
    c = dnnmem__lp_peek(p);
    if (c == ',') {
      p->at++;
      dnnmem__lp_space(p);
      continue;
    }
    break;
  }
  while (dnnmem__lp_peek(p) == ';') {
    p->at++;
    if ((r = dnnmem__lp_expect(p, 'B')) != DNNMEM_OK) return r;
    if ((r = dnnmem__lp_expect(p, '@')) != DNNMEM_OK) return r;
    if ((r = dnnmem__lp_expect(p, '[')) != DNNMEM_OK) return r;
    for (;;) {
      if ((r = dnnmem__lp_factor(p, l, 1)) != DNNMEM_OK) return r;
      dnnmem__lp_space(p);
      c = dnnmem__lp_peek(p);
      p->at++;
      if (c == ']') break;
      if (c != ',') return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at - 1);
      dnnmem__lp_space(p);
    }
    dnnmem__lp_space(p);
  }
  if (dnnmem__lp_peek(p) != ')') return dnnmem__lp_fail(p, DNNMEM_ERR_PARSE, p->at);
  p->at++;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_parse(const char *text, size_t length, dnnmem_layout *out,
                                             int64_t *error_position) {
  dnnmem__layout_parser p;
  int64_t ignored, *errp = error_position ? error_position : &ignored;
  int64_t prefix[DNNMEM_LAYOUT_MAX_AXES];
  int32_t prefix_at[DNNMEM_LAYOUT_MAX_AXES], prefix_rank = 0, a, k;
  dnnmem_result r;
  *errp = 0;
  if (out == NULL || (text == NULL && length > 0)) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(out, 0, sizeof(*out));
  p.text = text;
  p.length = length;
  p.at = 0;
  p.error_at = 0;
  dnnmem__lp_space(&p);
  if ((r = dnnmem__lp_body(&p, out)) != DNNMEM_OK) {
    *errp = p.error_at;
    return r;
  }
  dnnmem__lp_space(&p);
  if (dnnmem__lp_peek(&p) == '/') {
    /* the PadLayout prefix: plain extents, one per axis */
    if (out->num_factors != out->num_axes || out->num_levels != 0) {
      *errp = (int64_t)p.at;
      return DNNMEM_ERR_PARSE;
    }
    for (k = 0; k < out->num_factors; k++) {
      if (out->factors[k].stride != DNNMEM_LAYOUT_AUTO) {
        *errp = out->factors[k].position;
        return DNNMEM_ERR_PARSE;
      }
      prefix[k] = out->factors[k].extent;
      prefix_at[k] = out->factors[k].position;
    }
    prefix_rank = out->num_factors;
    DNNMEM_MEMSET(out, 0, sizeof(*out));
    p.at++;
    dnnmem__lp_space(&p);
    if ((r = dnnmem__lp_body(&p, out)) != DNNMEM_OK) {
      *errp = p.error_at;
      return r;
    }
    if (prefix_rank != out->num_axes) {
      *errp = 0;
      return DNNMEM_ERR_LAYOUT_PADDING;
    }
    for (a = 0; a < prefix_rank; a++) out->unpadded[a] = prefix[a];
    dnnmem__lp_space(&p);
  }
  if (p.at != p.length) {
    *errp = (int64_t)p.at;
    return DNNMEM_ERR_PARSE;
  }
  r = dnnmem__layout_finish(out, &k);
  if (r != DNNMEM_OK) *errp = k >= 0 ? out->factors[k].position : 0;
  if (r == DNNMEM_ERR_LAYOUT_PADDING) {
    for (a = 0; a < prefix_rank; a++) {
      int64_t shape = 1;
      for (k = out->axis_first[a]; k < out->axis_first[a + 1]; k++)
        if (dnnmem__mul_overflows(shape, out->factors[k].extent, &shape)) break;
      if (k < out->axis_first[a + 1] || prefix[a] > shape) break;
    }
    *errp = a < prefix_rank ? prefix_at[a] : 0;
  }
  return r;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_machine_parse(const char *text, size_t length,
                                                     dnnmem_layout_machine *out,
                                                     int64_t *error_position) {
  dnnmem__layout_parser p;
  int64_t ignored, *errp = error_position ? error_position : &ignored;
  dnnmem_result r;
  *errp = 0;
  if (out == NULL || (text == NULL && length > 0)) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(out, 0, sizeof(*out));
  p.text = text;
  p.length = length;
  p.at = 0;
  p.error_at = 0;
  dnnmem__lp_space(&p);
  for (;;) {
    size_t at = p.at;
    int32_t lv;
    char *name;
    if (out->num_levels == DNNMEM_LAYOUT_MAX_LEVELS) {
      *errp = (int64_t)at;
      return DNNMEM_ERR_LAYOUT_LIMIT;
    }
    name = out->names[out->num_levels];
    if ((r = dnnmem__lp_name(&p, name)) != DNNMEM_OK ||
        (r = dnnmem__lp_expect(&p, '=')) != DNNMEM_OK) {
      *errp = p.error_at;
      return r;
    }
    for (lv = 0; lv < out->num_levels; lv++)
      if (dnnmem__layout_name_eq(out->names[lv], name)) {
        *errp = (int64_t)at;
        return DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT;
      }
    at = p.at;
    if ((r = dnnmem__lp_int(&p, &out->extents[out->num_levels])) != DNNMEM_OK) {
      *errp = p.error_at;
      return r;
    }
    if (out->extents[out->num_levels] < 1) {
      *errp = (int64_t)at;
      return DNNMEM_ERR_LAYOUT_EXTENT;
    }
    out->num_levels++;
    dnnmem__lp_space(&p);
    if (dnnmem__lp_peek(&p) != ',') break;
    p.at++;
    dnnmem__lp_space(&p);
  }
  if (p.at != p.length) {
    *errp = (int64_t)p.at;
    return DNNMEM_ERR_PARSE;
  }
  return DNNMEM_OK;
}

DNNMEM_DEF int32_t dnnmem_layout_level_index(const dnnmem_layout *layout, const char *name) {
  int32_t lv;
  if (layout == NULL || name == NULL) return -1;
  for (lv = 0; lv < layout->num_levels; lv++)
    if (dnnmem__layout_name_eq(layout->level_names[lv], name)) return lv;
  return -1;
}

static dnnmem_result dnnmem__layout_bind(dnnmem_layout *layout, const dnnmem_layout_machine *machine,
                                         int32_t *errp) {
  dnnmem_layout w;
  int32_t map[DNNMEM_LAYOUT_MAX_LEVELS], used[DNNMEM_LAYOUT_MAX_LEVELS], orig[DNNMEM_LAYOUT_MAX_FACTORS];
  int32_t lv, j, k, n;
  dnnmem_result r;
  *errp = -1;
  if (layout == NULL || machine == NULL || machine->num_levels < 0 ||
      machine->num_levels > DNNMEM_LAYOUT_MAX_LEVELS)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  for (lv = 0; lv < machine->num_levels; lv++) {
    if ((r = dnnmem__layout_name_check(machine->names[lv])) != DNNMEM_OK) return r;
    if (machine->extents[lv] < 1) return DNNMEM_ERR_INVALID_ARGUMENT;
    for (j = 0; j < lv; j++)
      if (dnnmem__layout_name_eq(machine->names[j], machine->names[lv]))
        return DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT;
    used[lv] = 0;
  }
  w = *layout;
  if (w.num_levels < 0 || w.num_levels > DNNMEM_LAYOUT_MAX_LEVELS || w.num_factors < 0 ||
      w.num_factors > DNNMEM_LAYOUT_MAX_FACTORS)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  for (lv = 0; lv < w.num_levels; lv++) {
    map[lv] = -1;
    for (j = 0; j < machine->num_levels; j++)
      if (dnnmem__layout_name_eq(machine->names[j], w.level_names[lv])) map[lv] = j;
  }
  /* drop the implicit broadcasts of an earlier binding, remap the rest */
  for (n = 0, k = 0; k < w.num_factors; k++) {
    dnnmem_layout_factor f = w.factors[k];
    if (f.flags & DNNMEM_LAYOUT_IMPLICIT) continue;
    if (f.level >= w.num_levels) return DNNMEM_ERR_INVALID_ARGUMENT;
    if (f.level >= 0) {
      if (map[f.level] < 0) {
        *errp = k;
        return DNNMEM_ERR_LAYOUT_UNKNOWN_LEVEL;
      }
      f.level = map[f.level];
      used[f.level] = 1;
    }
    orig[n] = k; /* the caller's factor */
    w.factors[n++] = f;
  }
  for (lv = 0; lv < machine->num_levels; lv++) {
    dnnmem_layout_factor *f;
    if (used[lv]) continue;
    if (n == DNNMEM_LAYOUT_MAX_FACTORS) return DNNMEM_ERR_LAYOUT_LIMIT;
    orig[n] = -1;
    f = &w.factors[n++];
    f->extent = machine->extents[lv];
    f->stride = 1;
    f->level = lv;
    f->axis = -1;
    f->flags = DNNMEM_LAYOUT_ALL_UNITS | DNNMEM_LAYOUT_IMPLICIT;
    f->position = -1;
  }
  w.num_factors = n;
  w.num_levels = machine->num_levels;
  for (lv = 0; lv < machine->num_levels; lv++) {
    DNNMEM_MEMCPY(w.level_names[lv], machine->names[lv], DNNMEM_LAYOUT_NAME_BYTES);
    w.level_extent[lv] = machine->extents[lv];
  }
  w.bound = 1;
  if ((r = dnnmem__layout_finish(&w, errp)) != DNNMEM_OK) {
    if (*errp >= 0) *errp = orig[*errp];
    return r;
  }
  *layout = w;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_bind(dnnmem_layout *layout, const dnnmem_layout_machine *machine,
                                            dnnmem_error *error) {
  int32_t at;
  dnnmem_result r = dnnmem__layout_bind(layout, machine, &at);
  return dnnmem__layout_fail(error, r, at);
}


/* ---- printing and equality ---- */

typedef struct dnnmem__layout_writer {
  char *buffer;
  size_t capacity, length;
} dnnmem__layout_writer;

static void dnnmem__lw_char(dnnmem__layout_writer *w, char c) {
  if (w->length + 1 < w->capacity) w->buffer[w->length] = c;
  w->length++;
}
static void dnnmem__lw_text(dnnmem__layout_writer *w, const char *s) {
  while (*s) dnnmem__lw_char(w, *s++);
}
static void dnnmem__lw_int(dnnmem__layout_writer *w, int64_t v) {
  char digits[24];
  int n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  if (v < 0) dnnmem__lw_char(w, '-');
  do {
    digits[n++] = (char)('0' + (int)(u % 10));
    u /= 10;
  } while (u);
  while (n) dnnmem__lw_char(w, digits[--n]);
}

/* Uses of each level by factors with a count (what decides printed strides). */
static void dnnmem__layout_uses(const dnnmem_layout *l, int32_t *uses) {
  int32_t k;
  for (k = 0; k < l->num_levels; k++) uses[k] = 0;
  for (k = 0; k < l->num_factors; k++)
    if (l->factors[k].level >= 0 && !(l->factors[k].flags & DNNMEM_LAYOUT_ALL_UNITS))
      uses[l->factors[k].level]++;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_print(const dnnmem_layout *layout, char *buffer,
                                             int32_t capacity, int32_t *out_length) {
  dnnmem__layout_writer w;
  int32_t uses[DNNMEM_LAYOUT_MAX_LEVELS], a, k, nd, items = 0;
  if (layout == NULL || capacity < 0 || (buffer == NULL && capacity > 0)) return DNNMEM_ERR_INVALID_ARGUMENT;
  w.buffer = buffer;
  w.capacity = (size_t)capacity;
  w.length = 0;
  dnnmem__layout_uses(layout, uses);
  nd = layout->axis_first[layout->num_axes];
  if (layout->has_padding) {
    dnnmem__lw_char(&w, '(');
    for (a = 0; a < layout->num_axes; a++) {
      if (a) dnnmem__lw_char(&w, ',');
      dnnmem__lw_int(&w, layout->unpadded[a]);
    }
    dnnmem__lw_text(&w, ")/");
  }
  dnnmem__lw_char(&w, '(');
  for (k = 0; k < layout->num_factors; k++) {
    const dnnmem_layout_factor *f = &layout->factors[k];
    if (k < nd) {
      for (a = 0; a < layout->num_axes; a++)
        if (k == layout->axis_first[a]) dnnmem__lw_text(&w, a ? "), (" : "(");
      if (k != layout->axis_first[f->axis]) dnnmem__lw_text(&w, ", ");
    } else {
      if (f->flags & DNNMEM_LAYOUT_IMPLICIT) continue;
      dnnmem__lw_text(&w, items++ ? ", " : (nd ? "); B@[" : "B@["));
      if (f->flags & DNNMEM_LAYOUT_ALL_UNITS) {
        dnnmem__lw_text(&w, layout->level_names[f->level]);
        continue;
      }
    }
    dnnmem__lw_int(&w, f->extent);
    if (f->level >= 0) {
      dnnmem__lw_char(&w, '_');
      dnnmem__lw_text(&w, layout->level_names[f->level]);
    }
    if (f->level < 0 || uses[f->level] > 1 || f->stride != 1) {
      dnnmem__lw_char(&w, ':');
      dnnmem__lw_int(&w, f->stride);
    }
  }
  dnnmem__lw_text(&w, items ? "])" : "))");
  if (capacity > 0) buffer[w.length < w.capacity ? w.length : w.capacity - 1] = 0;
  if (out_length) *out_length = (int32_t)w.length; /* < DNNMEM_LAYOUT_TEXT_MAX */
  return w.length < w.capacity ? DNNMEM_OK : DNNMEM_ERR_OUTPUT_TOO_SMALL;
}

typedef struct dnnmem__layout_norm {
  const char *name; /* NULL: the memory */
  int64_t extent;   /* 0: broadcast to all units of an unbound level */
  int64_t stride;
} dnnmem__layout_norm;

static int dnnmem__layout_norm_same_space(const dnnmem__layout_norm *a, const dnnmem__layout_norm *b) {
  return dnnmem__layout_name_cmp(a->name, b->name) == 0;
}

/* Appends factor (name, n, s) as the new inner end of list, merging it into
   the previous entry of the same space when they form one strided run. */
static int32_t dnnmem__layout_norm_push(dnnmem__layout_norm *list, int32_t count, const char *name,
                                        int64_t n, int64_t s) {
  dnnmem__layout_norm e;
  e.name = name;
  e.extent = n;
  e.stride = s;
  if (n == 1) return count;
  if (count > 0 && n > 0 && list[count - 1].extent > 0 &&
      dnnmem__layout_norm_same_space(&list[count - 1], &e) &&
      !dnnmem__mul_overflows(n, s, &e.extent) && list[count - 1].stride == e.extent) {
    list[count - 1].extent *= n;
    list[count - 1].stride = s;
    return count;
  }
  e.extent = n;
  list[count] = e;
  return count + 1;
}

static int32_t dnnmem__layout_norm_broadcast(const dnnmem_layout *l, dnnmem__layout_norm *out) {
  dnnmem__layout_norm raw[DNNMEM_LAYOUT_MAX_FACTORS];
  int32_t k, i, j, n = 0, count = 0;
  for (k = l->axis_first[l->num_axes]; k < l->num_factors; k++) {
    const dnnmem_layout_factor *f = &l->factors[k];
    dnnmem__layout_norm e;
    e.name = l->level_names[f->level];
    e.extent = (f->flags & DNNMEM_LAYOUT_ALL_UNITS) && !l->bound ? 0 : f->extent;
    e.stride = f->stride;
    if (e.extent == 1) continue;
    /* insertion by (name, stride ascending, extent) */
    for (i = n; i > 0; i--) {
      int c = dnnmem__layout_name_cmp(raw[i - 1].name, e.name);
      if (c < 0 || (c == 0 && (raw[i - 1].stride < e.stride ||
                               (raw[i - 1].stride == e.stride && raw[i - 1].extent <= e.extent))))
        break;
      raw[i] = raw[i - 1];
    }
    raw[i] = e;
    n++;
  }
  /* merge inner (smaller stride) runs upward: (n1:s1) then (n2:s2 = n1*s1) */
  for (i = 0; i < n; i = j) {
    dnnmem__layout_norm cur = raw[i];
    int64_t next_stride;
    for (j = i + 1; j < n && cur.extent > 0 && raw[j].extent > 0 &&
                    dnnmem__layout_norm_same_space(&raw[j], &cur) &&
                    !dnnmem__mul_overflows(cur.extent, cur.stride, &next_stride) &&
                    raw[j].stride == next_stride;
         j++)
      cur.extent *= raw[j].extent; /* <= replicas */
    out[count++] = cur;
  }
  return count;
}

DNNMEM_DEF int dnnmem_layout_equal(const dnnmem_layout *a, const dnnmem_layout *b) {
  dnnmem__layout_norm la[DNNMEM_LAYOUT_MAX_FACTORS], lb[DNNMEM_LAYOUT_MAX_FACTORS];
  int32_t ax, k, na, nb;
  if (a == NULL || b == NULL || a->num_axes != b->num_axes) return 0;
  for (ax = 0; ax < a->num_axes; ax++)
    if (a->shape[ax] != b->shape[ax] || a->unpadded[ax] != b->unpadded[ax]) return 0;
  for (ax = 0; ax < a->num_axes; ax++) {
    for (na = 0, k = a->axis_first[ax]; k < a->axis_first[ax + 1]; k++)
      na = dnnmem__layout_norm_push(la, na, a->factors[k].level < 0 ? NULL : a->level_names[a->factors[k].level],
                                    a->factors[k].extent, a->factors[k].stride);
    for (nb = 0, k = b->axis_first[ax]; k < b->axis_first[ax + 1]; k++)
      nb = dnnmem__layout_norm_push(lb, nb, b->factors[k].level < 0 ? NULL : b->level_names[b->factors[k].level],
                                    b->factors[k].extent, b->factors[k].stride);
    if (na != nb) return 0;
    for (k = 0; k < na; k++)
      if (!dnnmem__layout_norm_same_space(&la[k], &lb[k]) || la[k].extent != lb[k].extent ||
          la[k].stride != lb[k].stride)
        return 0;
  }
  na = dnnmem__layout_norm_broadcast(a, la);
  nb = dnnmem__layout_norm_broadcast(b, lb);
  if (na != nb) return 0;
  for (k = 0; k < na; k++)
    if (!dnnmem__layout_norm_same_space(&la[k], &lb[k]) || la[k].extent != lb[k].extent ||
        la[k].stride != lb[k].stride)
      return 0;
  return 1;
}

/* ---- maps ---- */

DNNMEM_DEF dnnmem_result dnnmem_layout_position(const dnnmem_layout *layout, const int64_t *index,
                                                int64_t *position) {
  int32_t a;
  int64_t p = 0;
  if (layout == NULL || index == NULL || position == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (a = 0; a < layout->num_axes; a++) {
    if (index[a] < 0 || index[a] >= layout->shape[a]) return DNNMEM_ERR_LAYOUT_INDEX;
    p = p * layout->shape[a] + index[a]; /* < padded_size */
  }
  *position = p;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_index(const dnnmem_layout *layout, int64_t position,
                                             int64_t *index) {
  int32_t a;
  if (layout == NULL || index == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (position < 0 || position >= layout->padded_size) return DNNMEM_ERR_LAYOUT_INDEX;
  for (a = layout->num_axes - 1; a >= 0; a--) {
    index[a] = position % layout->shape[a];
    position /= layout->shape[a];
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_forward(const dnnmem_layout *layout, const int64_t *index,
                                               int64_t *units, int64_t *address, uint8_t *is_padding) {
  int64_t acc[DNNMEM_LAYOUT_MAX_LEVELS + 1];
  int32_t a, k, lv;
  uint8_t pad = 0;
  if (layout == NULL || index == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (a = 0; a < layout->num_axes; a++)
    if (index[a] < 0 || index[a] >= layout->shape[a]) return DNNMEM_ERR_LAYOUT_INDEX;
  for (lv = 0; lv <= layout->num_levels; lv++) acc[lv] = 0;
  for (a = 0; a < layout->num_axes; a++) {
    int64_t rest = index[a];
    if (rest >= layout->unpadded[a]) pad = 1;
    for (k = layout->axis_first[a + 1] - 1; k >= layout->axis_first[a]; k--) {
      const dnnmem_layout_factor *f = &layout->factors[k];
      acc[f->level + 1] += rest % f->extent * f->stride;
      rest /= f->extent;
    }
  }
  if (units)
    for (lv = 0; lv < layout->num_levels; lv++)
      units[lv] = layout->level_all[lv] ? DNNMEM_LAYOUT_ALL : acc[lv + 1];
  if (address) *address = acc[0];
  if (is_padding) *is_padding = pad;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_forward_range(const dnnmem_layout *layout, int64_t first,
                                                     int64_t count, int64_t *units,
                                                     int64_t *addresses) {
  int64_t acc[DNNMEM_LAYOUT_MAX_LEVELS + 1], digit[DNNMEM_LAYOUT_MAX_FACTORS];
  int64_t stride[DNNMEM_LAYOUT_MAX_FACTORS], extent[DNNMEM_LAYOUT_MAX_FACTORS];
  int64_t back[DNNMEM_LAYOUT_MAX_FACTORS], rest, e;
  int32_t space[DNNMEM_LAYOUT_MAX_FACTORS], i, lv, n, levels;
  if (layout == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (first < 0 || count < 0 || first > layout->padded_size - count) return DNNMEM_ERR_LAYOUT_INDEX;
  if (count == 0) return DNNMEM_OK;
  levels = layout->num_levels;
  n = layout->num_active;
  for (lv = 0; lv <= levels; lv++) acc[lv] = 0;
  for (lv = 0; lv < levels; lv++)
    if (layout->level_all[lv]) acc[lv + 1] = DNNMEM_LAYOUT_ALL; /* no data factor touches it */
  for (rest = first, i = n - 1; i >= 0; i--) {
    const dnnmem_layout_factor *f = &layout->factors[layout->active[i]];
    stride[i] = f->stride;
    extent[i] = f->extent;
    back[i] = (f->extent - 1) * f->stride; /* <= cosize or span: fits */
    space[i] = f->level + 1;
    digit[i] = rest % f->extent;
    rest /= f->extent;
    acc[space[i]] += digit[i] * f->stride;
  }
  if (n == 0) { /* a single position */
    if (addresses) addresses[0] = acc[0];
    if (units)
      for (lv = 0; lv < levels; lv++) units[lv] = acc[lv + 1];
    return DNNMEM_OK;
  }
  for (e = 0;;) {
    /* a run of the innermost factor, then an odometer carry */
    int64_t run = extent[n - 1] - digit[n - 1], t, s = stride[n - 1];
    int64_t *moving = &acc[space[n - 1]], start = *moving;
    if (run > count - e) run = count - e;
    for (t = 0; t < run; t++, e++) {
      *moving = start + t * s; /* digit + t < extent: no overflow */
      if (addresses) addresses[e] = acc[0];
      if (units) {
        int64_t *row = units + e * levels;
        for (lv = 0; lv < levels; lv++) row[lv] = acc[lv + 1];
      }
    }
    if (e == count) break;
    *moving -= back[n - 1];
    digit[n - 1] = 0;
    for (i = n - 2; i >= 0; i--) {
      if (++digit[i] < extent[i]) {
        acc[space[i]] += stride[i];
        break;
      }
      acc[space[i]] -= back[i];
      digit[i] = 0;
    }
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_replica_offset(const dnnmem_layout *layout, int64_t replica,
                                                      int64_t *offsets) {
  int32_t k, lv;
  if (layout == NULL || offsets == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (layout->replicas == 0) return DNNMEM_ERR_LAYOUT_NEEDS_MACHINE;
  if (replica < 0 || replica >= layout->replicas) return DNNMEM_ERR_LAYOUT_INDEX;
  for (lv = 0; lv < layout->num_levels; lv++) offsets[lv] = 0;
  for (k = layout->num_factors - 1; k >= layout->axis_first[layout->num_axes]; k--) {
    const dnnmem_layout_factor *f = &layout->factors[k];
    offsets[f->level] += replica % f->extent * f->stride;
    replica /= f->extent;
  }
  return DNNMEM_OK;
}

/* Which position the slot (units, address) holds: 1 and *position (and
   axis_index[] when not NULL), or 0 for none. Greedy division per nested
   space: each stride exceeds everything the smaller ones reach, so the
   digit of the largest stride is value / stride. */
static int dnnmem__layout_locate(const dnnmem_layout *l, const int64_t *units, int64_t address,
                                 int64_t *position, int64_t *axis_index) {
  int64_t pos = 0;
  int32_t sp, a, i;
  if (axis_index)
    for (a = 0; a < l->num_axes; a++) axis_index[a] = 0;
  for (sp = 0; sp <= l->num_levels; sp++) {
    int64_t v = sp ? units[sp - 1] : address;
    if (v < 0) return 0;
    if (sp) {
      if (l->bound && v >= l->level_extent[sp - 1]) return 0;
      if (l->level_all[sp - 1]) continue;
    }
    for (i = l->space_first[sp]; i < l->space_first[sp + 1]; i++) {
      const struct dnnmem__layout_step *st = &l->steps[i];
      int64_t d = st->shift >= 0 ? v >> st->shift : v / st->stride;
      if (d >= st->extent) return 0;
      v -= d * st->stride;
      pos += d * st->place;
      if (axis_index && st->axis >= 0) axis_index[st->axis] += d * st->axis_place;
    }
    if (v != 0) return 0;
  }
  *position = pos;
  return 1;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_inverse(const dnnmem_layout *layout, const int64_t *units,
                                               int64_t address, int64_t *index,
                                               dnnmem_layout_slot *slot) {
  int64_t axis_index[DNNMEM_LAYOUT_MAX_AXES], position;
  int32_t a;
  if (layout == NULL || slot == NULL || (units == NULL && layout->num_levels > 0))
    return DNNMEM_ERR_INVALID_ARGUMENT;
  if (!dnnmem__layout_locate(layout, units, address, &position, axis_index)) {
    *slot = DNNMEM_LAYOUT_SLOT_UNUSED;
    return DNNMEM_OK;
  }
  *slot = DNNMEM_LAYOUT_SLOT_ELEMENT;
  for (a = 0; a < layout->num_axes; a++) {
    if (axis_index[a] >= layout->unpadded[a]) *slot = DNNMEM_LAYOUT_SLOT_PAD;
    if (index) index[a] = axis_index[a];
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_inverse_batch(const dnnmem_layout *layout, int64_t count,
                                                     const int64_t *units,
                                                     const int64_t *addresses,
                                                     int64_t *positions, uint8_t *slots) {
  int64_t e, axis_index[DNNMEM_LAYOUT_MAX_AXES];
  int32_t a, levels;
  int need_axes;
  if (layout == NULL || count < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (count > 0 && (addresses == NULL || (units == NULL && layout->num_levels > 0)))
    return DNNMEM_ERR_INVALID_ARGUMENT;
  levels = layout->num_levels;
  need_axes = layout->has_padding && slots != NULL; /* axis digits only to tell padding */
  for (e = 0; e < count; e++) {
    int64_t pos = -1;
    int held = dnnmem__layout_locate(layout, units ? units + e * levels : units, addresses[e], &pos,
                                     need_axes ? axis_index : (int64_t *)NULL);
    uint8_t slot = held ? (uint8_t)DNNMEM_LAYOUT_SLOT_ELEMENT : (uint8_t)DNNMEM_LAYOUT_SLOT_UNUSED;
    if (positions) positions[e] = held ? pos : -1;
    if (held && need_axes)
      for (a = 0; a < layout->num_axes; a++)
        if (axis_index[a] >= layout->unpadded[a]) slot = (uint8_t)DNNMEM_LAYOUT_SLOT_PAD;
    if (slots) slots[e] = slot;
  }
  return DNNMEM_OK;
}

/* ---- sizes and runs ---- */

DNNMEM_DEF dnnmem_result dnnmem_layout_measure(const dnnmem_layout *layout,
                                               dnnmem_layout_result *result) {
  dnnmem_layout_result s;
  int32_t lv;
  int64_t parts = 1;
  if (result) dnnmem__error_clear(&result->error);
  if (layout == NULL || result == NULL)
    return dnnmem__fail(result ? &result->error : NULL, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (layout->replicas == 0) return dnnmem__fail(&result->error, DNNMEM_ERR_LAYOUT_NEEDS_MACHINE, -1, DNNMEM_FIELD_LEVEL);
  DNNMEM_MEMSET(&s, 0, sizeof(s));
  dnnmem__error_clear(&s.error);
  s.size = layout->size;
  s.padded_size = layout->padded_size;
  s.cosize = layout->cosize;
  s.replicas = layout->replicas;
  s.units = 1;
  for (lv = 0; lv < layout->num_levels; lv++) {
    s.level_extent[lv] = layout->bound ? layout->level_extent[lv] : layout->level_span[lv];
    s.level_parts[lv] = layout->level_parts[lv];
    parts *= layout->level_parts[lv]; /* divides padded_size */
    s.level_share[lv] = layout->padded_size / parts;
    if (dnnmem__mul_overflows(s.units, s.level_extent[lv], &s.units)) return DNNMEM_ERR_OVERFLOW;
  }
  if (dnnmem__mul_overflows(s.padded_size, s.replicas, &s.slots) ||
      dnnmem__mul_overflows(s.padded_size - s.size, s.replicas, &s.padding_slots) ||
      dnnmem__mul_overflows(s.units, s.cosize, &s.capacity))
    return DNNMEM_ERR_OVERFLOW;
  s.unused_slots = s.capacity - s.slots; /* >= 0: the map is injective */
  *result = s;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_runs(const dnnmem_layout *layout, const int64_t *units,
                                            dnnmem_layout_run *runs, int32_t capacity,
                                            int32_t *out_count) {
  int64_t axis_index[DNNMEM_LAYOUT_MAX_AXES], uplace[DNNMEM_LAYOUT_MAX_AXES];
  int64_t digit[DNNMEM_LAYOUT_MAX_FACTORS], axis_step[DNNMEM_LAYOUT_MAX_FACTORS];
  int64_t address = 0, count = 0, total = 1, e;
  int32_t mem[DNNMEM_LAYOUT_MAX_FACTORS], nm = 0, a, i, k, sp;
  dnnmem_layout_run cur;
  int open = 0;
  if (layout == NULL || out_count == NULL || capacity < 0 || (runs == NULL && capacity > 0) ||
      (units == NULL && layout->num_levels > 0))
    return DNNMEM_ERR_INVALID_ARGUMENT;
  *out_count = 0;
  for (a = 0; a < layout->num_axes; a++) axis_index[a] = 0;
  /* the digits of the level factors are fixed by the unit */
  for (sp = 1; sp <= layout->num_levels; sp++) {
    int64_t v = units[sp - 1];
    if (v < 0 || (layout->bound && v >= layout->level_extent[sp - 1])) return DNNMEM_OK;
    if (layout->level_all[sp - 1]) continue;
    for (i = layout->space_first[sp]; i < layout->space_first[sp + 1]; i++) {
      const struct dnnmem__layout_step *st = &layout->steps[i];
      int64_t d = v / st->stride;
      if (d >= st->extent) return DNNMEM_OK;
      v -= d * st->stride;
      if (st->axis >= 0) axis_index[st->axis] += d * st->axis_place;
    }
    if (v != 0) return DNNMEM_OK;
  }
  for (a = layout->num_axes - 1, e = 1; a >= 0; a--) {
    uplace[a] = e;
    e *= layout->unpadded[a]; /* <= size */
  }
  for (a = 0; a < layout->num_axes; a++) {
    int64_t axis_place = 1;
    for (k = layout->axis_first[a + 1] - 1; k >= layout->axis_first[a]; k--) {
      axis_step[k] = axis_place;
      axis_place *= layout->factors[k].extent;
    }
  }
  for (i = 0; i < layout->num_active; i++) {
    k = layout->active[i];
    if (layout->factors[k].level != DNNMEM_LAYOUT_MEMORY) continue;
    mem[nm] = k;
    digit[nm++] = 0;
    total *= layout->factors[k].extent; /* <= padded_size */
  }
  cur.element = cur.address = cur.length = 0;
  for (e = 0;;) {
    int pad = 0;
    for (a = 0; a < layout->num_axes; a++)
      if (axis_index[a] >= layout->unpadded[a]) pad = 1;
    if (!pad) {
      int64_t element = 0;
      for (a = 0; a < layout->num_axes; a++) element += axis_index[a] * uplace[a];
      if (open && element == cur.element + cur.length && address == cur.address + cur.length) {
        cur.length++;
      } else {
        if (open && count++ < capacity) runs[count - 1] = cur;
        cur.element = element;
        cur.address = address;
        cur.length = 1;
        open = 1;
      }
    }
    if (++e == total) break;
    for (i = nm - 1; i >= 0; i--) {
      const dnnmem_layout_factor *f = &layout->factors[mem[i]];
      if (++digit[i] < f->extent) {
        axis_index[f->axis] += axis_step[mem[i]];
        address += f->stride;
        break;
      }
      axis_index[f->axis] -= (f->extent - 1) * axis_step[mem[i]];
      address -= (f->extent - 1) * f->stride; /* <= cosize: fits */
      digit[i] = 0;
    }
  }
  if (open && count++ < capacity) runs[count - 1] = cur;
  if (count > DNNMEM__I32_MAX) return DNNMEM_ERR_TOO_MANY;
  *out_count = (int32_t)count;
  return count <= capacity ? DNNMEM_OK : DNNMEM_ERR_OUTPUT_TOO_SMALL;
}

/* ---- layout: the cost of a conversion ------------------------------------ */

static dnnmem_result dnnmem__layout_convert_check(const dnnmem_layout *from, const dnnmem_layout *to,
                                                  size_t *out_bytes) {
  dnnmem__scratch s;
  int32_t a, lv;
  if (from == NULL || to == NULL || from->num_axes != to->num_axes || from->num_levels != to->num_levels ||
      from->bound != to->bound)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  for (a = 0; a < from->num_axes; a++)
    if (from->unpadded[a] != to->unpadded[a]) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (lv = 0; lv < from->num_levels; lv++)
    if (!dnnmem__layout_name_eq(from->level_names[lv], to->level_names[lv]) ||
        (from->bound && from->level_extent[lv] != to->level_extent[lv]))
      return DNNMEM_ERR_INVALID_ARGUMENT;
  if (to->replicas == 0) return DNNMEM_ERR_LAYOUT_NEEDS_MACHINE;
  if ((uint64_t)to->cosize > (uint64_t)((size_t)-1 / sizeof(dnnmem_layout_run))) return DNNMEM_ERR_OVERFLOW;
  dnnmem__scratch_begin(&s, NULL, 0);
  (void)DNNMEM__TAKE(&s, dnnmem_layout_run, to->cosize > 0 ? to->cosize : 1);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_layout_convert_scratch_size(const dnnmem_layout *from,
                                                            const dnnmem_layout *to,
                                                            size_t *out_bytes) {
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  return dnnmem__layout_convert_check(from, to, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_layout_convert(const dnnmem_layout *from, const dnnmem_layout *to,
                                               dnnmem_layout_conversion *result, void *scratch,
                                               size_t scratch_bytes) {
  dnnmem__scratch s;
  dnnmem_layout_conversion c;
  dnnmem_layout_run *runs;
  dnnmem_result r;
  size_t need = 0;
  int64_t unit[DNNMEM_LAYOUT_MAX_LEVELS], src[DNNMEM_LAYOUT_MAX_LEVELS], prev_src[DNNMEM_LAYOUT_MAX_LEVELS];
  int64_t index[DNNMEM_LAYOUT_MAX_AXES], held[DNNMEM_LAYOUT_MAX_AXES], extent[DNNMEM_LAYOUT_MAX_LEVELS];
  int64_t t, prev_addr = 0;
  int32_t count, j;
  int32_t a, lv, levels = to ? to->num_levels : 0;
  if ((r = dnnmem__layout_convert_check(from, to, &need)) != DNNMEM_OK) return r;
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (to->cosize > DNNMEM__I32_MAX) return DNNMEM_ERR_TOO_MANY; /* runs are counted in int32_t */
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  runs = DNNMEM__TAKE(&s, dnnmem_layout_run, to->cosize > 0 ? to->cosize : 1);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  DNNMEM_MEMSET(&c, 0, sizeof(c));
  c.elements = to->size;
  if (dnnmem__mul_overflows(to->size, to->replicas, &c.copies)) return DNNMEM_ERR_OVERFLOW;
  for (lv = 0; lv < levels; lv++) {
    extent[lv] = to->bound ? to->level_extent[lv] : to->level_span[lv];
    unit[lv] = 0;
  }
  for (;;) { /* every unit of to, odometer over the levels */
    if ((r = dnnmem_layout_runs(to, unit, runs, (int32_t)to->cosize, &count)) != DNNMEM_OK) return r;
    for (j = 0; j < count; j++) {
      int open = 0;
      for (t = 0; t < runs[j].length; t++) {
        int64_t e = runs[j].element + t, rest = e, from_addr;
        dnnmem_layout_slot slot;
        int same = 1, kind; /* 0 kept, 1 local, 2 moved */
        for (a = to->num_axes - 1; a >= 0; a--) {
          index[a] = rest % to->unpadded[a];
          rest /= to->unpadded[a];
        }
        if ((r = dnnmem_layout_forward(from, index, src, &from_addr, NULL)) != DNNMEM_OK) return r;
        if ((r = dnnmem_layout_inverse(from, unit, from_addr, held, &slot)) != DNNMEM_OK) return r;
        if (slot == DNNMEM_LAYOUT_SLOT_ELEMENT)
          for (a = 0; a < to->num_axes; a++) same &= held[a] == index[a];
        else
          same = 0;
        kind = !same ? 2 : from_addr == runs[j].address + t ? 0 : 1;
        if (kind == 0) {
          c.kept++;
          open = 0;
          continue;
        }
        if (kind == 1) {
          c.local++;
          for (lv = 0; lv < levels; lv++) src[lv] = unit[lv];
        } else {
          c.moved++;
          for (lv = 0; lv < levels; lv++)
            if (src[lv] == DNNMEM_LAYOUT_ALL) src[lv] = 0; /* copy 0 */
        }
        if (open && from_addr == prev_addr + 1)
          for (lv = 0; lv < levels && open; lv++) open = src[lv] == prev_src[lv];
        else
          open = 0;
        if (!open) c.runs++;
        open = 1;
        prev_addr = from_addr;
        for (lv = 0; lv < levels; lv++) prev_src[lv] = src[lv];
      }
    }
    for (lv = levels - 1; lv >= 0; lv--) {
      if (++unit[lv] < extent[lv]) break;
      unit[lv] = 0;
    }
    if (lv < 0) break;
  }
  *result = c;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_part(const dnnmem_layout *layout, int32_t level,
                                            dnnmem_layout_strided *out) {
  int32_t k;
  if (layout == NULL || out == NULL || level < DNNMEM_LAYOUT_MEMORY || level >= layout->num_levels)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  out->rank = 0;
  for (k = 0; k < layout->axis_first[layout->num_axes]; k++) {
    if (layout->factors[k].level != level) continue;
    out->shape[out->rank] = layout->factors[k].extent;
    out->stride[out->rank++] = layout->factors[k].stride;
  }
  return DNNMEM_OK;
}

/* ---- strided-layout algebra (CuTe's vocabulary, row-major) ---- */

DNNMEM_DEF dnnmem_result dnnmem_layout_strided_check(const dnnmem_layout_strided *layout, dnnmem_error *error) {
  int64_t size = 1, cosize = 1, reach;
  int32_t i;
  dnnmem__error_clear(error);
  if (layout == NULL) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (layout->rank < 0) return dnnmem__fail(error, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  if (layout->rank > DNNMEM_LAYOUT_MAX_FACTORS) return dnnmem__fail(error, DNNMEM_ERR_LAYOUT_LIMIT, -1, DNNMEM_FIELD_COUNT);
  for (i = 0; i < layout->rank; i++) { /* index: the mode */
    if (layout->shape[i] < 1) return dnnmem__fail(error, DNNMEM_ERR_LAYOUT_EXTENT, i, DNNMEM_FIELD_EXTENT);
    if (layout->stride[i] < 0) return dnnmem__fail(error, DNNMEM_ERR_LAYOUT_STRIDE, i, DNNMEM_FIELD_STRIDE);
    if (dnnmem__mul_overflows(size, layout->shape[i], &size) ||
        dnnmem__mul_overflows(layout->shape[i] - 1, layout->stride[i], &reach) ||
        dnnmem__add_overflows(cosize, reach, &cosize))
      return dnnmem__fail(error, DNNMEM_ERR_OVERFLOW, i, DNNMEM_FIELD_EXTENT);
  }
  return DNNMEM_OK;
}

DNNMEM_DEF int64_t dnnmem_layout_strided_size(const dnnmem_layout_strided *layout) {
  int64_t size = 1;
  int32_t i;
  for (i = 0; i < layout->rank; i++) size *= layout->shape[i];
  return size;
}

DNNMEM_DEF int64_t dnnmem_layout_strided_eval(const dnnmem_layout_strided *layout, int64_t x) {
  int64_t v = 0;
  int32_t i;
  if (layout->rank == 0) return 0;
  for (i = layout->rank - 1; i > 0; i--) {
    v += x % layout->shape[i] * layout->stride[i];
    x /= layout->shape[i];
  }
  return v + x * layout->stride[0];
}

DNNMEM_DEF dnnmem_result dnnmem_layout_coalesce(const dnnmem_layout_strided *in, dnnmem_layout_strided *out) {
  dnnmem_layout_strided r;
  int32_t i;
  dnnmem_result res = dnnmem_layout_strided_check(in, NULL);
  if (res != DNNMEM_OK) return res;
  if (out == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  r.rank = 0;
  for (i = 0; i < in->rank; i++) {
    int64_t n = in->shape[i], s = in->stride[i], ns;
    if (n == 1) continue;
    if (r.rank > 0 && !dnnmem__mul_overflows(n, s, &ns) && r.stride[r.rank - 1] == ns) {
      /* the outer mode continues the inner one: one mode */
      r.shape[r.rank - 1] *= n;
      r.stride[r.rank - 1] = s;
    } else {
      r.shape[r.rank] = n;
      r.stride[r.rank++] = s;
    }
  }
  *out = r;
  return DNNMEM_OK;
}

/* Appends (n:s) modes given inner-first in reverse (so outer-first). */
static dnnmem_result dnnmem__layout_append_reversed(dnnmem_layout_strided *r, const int64_t *shape,
                                                     const int64_t *stride, int32_t count) {
  int32_t i;
  if (count > DNNMEM_LAYOUT_MAX_FACTORS - r->rank) return DNNMEM_ERR_LAYOUT_LIMIT;
  for (i = count - 1; i >= 0; i--) {
    r->shape[r->rank] = shape[i];
    r->stride[r->rank++] = stride[i];
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_compose(const dnnmem_layout_strided *a, const dnnmem_layout_strided *b,
                                                dnnmem_layout_strided *out) {
  dnnmem_layout_strided ca, r;
  int64_t cosize_b = 1, size_a;
  int32_t i, j, ids[DNNMEM_LAYOUT_MAX_FACTORS], n = 0;
  dnnmem_result res;
  if ((res = dnnmem_layout_strided_check(a, NULL)) != DNNMEM_OK || (res = dnnmem_layout_strided_check(b, NULL)) != DNNMEM_OK)
    return res;
  if (out == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (i = 0; i < b->rank; i++) cosize_b += (b->shape[i] - 1) * b->stride[i]; /* checked */
  size_a = dnnmem_layout_strided_size(a);
  if (cosize_b > size_a) return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE; /* B leaves A's domain */
  dnnmem_layout_coalesce(a, &ca);
  r.rank = 0;
  if (ca.rank <= 1) { /* A is linear on its domain: scale B's strides */
    int64_t d = ca.rank ? ca.stride[0] : 0;
    r = *b;
    for (i = 0; i < r.rank; i++)
      if (dnnmem__mul_overflows(r.stride[i], d, &r.stride[i])) return DNNMEM_ERR_OVERFLOW;
    *out = r;
    return DNNMEM_OK;
  }
  /* B's modes must cover disjoint digit ranges of A (no carries between them) */
  for (i = 0; i < b->rank; i++)
    if (b->shape[i] > 1 && b->stride[i] > 0) ids[n++] = i;
  dnnmem__insertion_sort(ids, n, b->stride); /* by stride */
  for (i = 1; i < n; i++)
    if (b->stride[ids[i]] / b->shape[ids[i - 1]] < b->stride[ids[i - 1]])
      return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE;
  for (j = 0; j < b->rank; j++) {
    int64_t bn = b->shape[j], bs = b->stride[j], rest = bs, remaining = bn, cur_n, cur_s;
    int64_t sub_n[DNNMEM_LAYOUT_MAX_FACTORS], sub_s[DNNMEM_LAYOUT_MAX_FACTORS];
    int32_t m = 0;
    if (bn == 1) continue;
    if (bs == 0) {
      sub_n[0] = bn;
      sub_s[0] = 0;
      if ((res = dnnmem__layout_append_reversed(&r, sub_n, sub_s, 1)) != DNNMEM_OK) return res;
      continue;
    }
    /* divide out the stride: skip whole inner modes of A, split one */
    for (i = ca.rank - 1;; ) {
      int64_t an = ca.shape[i];
      if (rest == 1) {
        cur_n = an;
        cur_s = ca.stride[i];
        break;
      }
      if (rest % an == 0) {
        rest /= an;
        if (--i < 0) return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE;
        continue;
      }
      if (an % rest == 0) {
        cur_n = an / rest;
        cur_s = ca.stride[i] * rest; /* <= cosize of A */
        break;
      }
      return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE;
    }
    /* take bn elements: whole modes, the last one possibly a prefix */
    for (;;) {
      if (remaining <= cur_n) {
        sub_n[m] = remaining;
        sub_s[m++] = cur_s;
        break;
      }
      if (remaining % cur_n != 0) return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE;
      sub_n[m] = cur_n;
      sub_s[m++] = cur_s;
      remaining /= cur_n;
      if (--i < 0) return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE;
      cur_n = ca.shape[i];
      cur_s = ca.stride[i];
    }
    if ((res = dnnmem__layout_append_reversed(&r, sub_n, sub_s, m)) != DNNMEM_OK) return res;
  }
  *out = r;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_layout_complement(const dnnmem_layout_strided *a, int64_t cosize_target,
                                                   dnnmem_layout_strided *out) {
  dnnmem_layout_strided r;
  int64_t sub_n[DNNMEM_LAYOUT_MAX_FACTORS + 1], sub_s[DNNMEM_LAYOUT_MAX_FACTORS + 1], current = 1;
  int32_t ids[DNNMEM_LAYOUT_MAX_FACTORS], n = 0, m = 0, i;
  dnnmem_result res = dnnmem_layout_strided_check(a, NULL);
  if (res != DNNMEM_OK) return res;
  if (out == NULL || cosize_target < 1) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (i = 0; i < a->rank; i++)
    if (a->shape[i] > 1) ids[n++] = i;
  dnnmem__insertion_sort(ids, n, a->stride); /* by stride */
  for (i = 0; i < n; i++) {
    int64_t an = a->shape[ids[i]], d = a->stride[ids[i]];
    if (d < current || d % current != 0) return DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE;
    if (d / current > 1) {
      sub_n[m] = d / current;
      sub_s[m++] = current;
    }
    if (dnnmem__mul_overflows(an, d, &current)) return DNNMEM_ERR_OVERFLOW;
  }
  if (cosize_target > current) {
    sub_n[m] = cosize_target / current + (cosize_target % current != 0);
    sub_s[m++] = current;
  }
  r.rank = 0;
  if ((res = dnnmem__layout_append_reversed(&r, sub_n, sub_s, m)) != DNNMEM_OK) return res;
  if ((res = dnnmem_layout_strided_check(&r, NULL)) != DNNMEM_OK) return res;
  return dnnmem_layout_coalesce(&r, out);
}

DNNMEM_DEF dnnmem_result dnnmem_layout_right_inverse(const dnnmem_layout_strided *a, dnnmem_layout_strided *out) {
  dnnmem_layout_strided r;
  int64_t place[DNNMEM_LAYOUT_MAX_FACTORS], sub_n[DNNMEM_LAYOUT_MAX_FACTORS];
  int64_t sub_s[DNNMEM_LAYOUT_MAX_FACTORS], current = 1, p = 1;
  int32_t ids[DNNMEM_LAYOUT_MAX_FACTORS], n = 0, m = 0, i;
  dnnmem_result res = dnnmem_layout_strided_check(a, NULL);
  if (res != DNNMEM_OK) return res;
  if (out == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (i = a->rank - 1; i >= 0; i--) {
    place[i] = p;
    p *= a->shape[i];
  }
  for (i = 0; i < a->rank; i++)
    if (a->shape[i] > 1) ids[n++] = i;
  dnnmem__insertion_sort(ids, n, a->stride); /* by stride */
  for (i = 0; i < n && a->stride[ids[i]] == current; i++) {
    sub_n[m] = a->shape[ids[i]];
    sub_s[m++] = place[ids[i]];
    current *= a->shape[ids[i]]; /* <= size of A */
  }
  r.rank = 0;
  dnnmem__layout_append_reversed(&r, sub_n, sub_s, m);
  return dnnmem_layout_coalesce(&r, out);
}

DNNMEM_DEF dnnmem_result dnnmem_layout_reshape_view(const dnnmem_layout_strided *in, int32_t rank,
                                                     const int64_t *shape, dnnmem_layout_strided *out) {
  dnnmem_layout_strided c, r;
  int64_t size = 1, rem = 1, acc = 0;
  int32_t j, k;
  dnnmem_result res = dnnmem_layout_strided_check(in, NULL);
  if (res != DNNMEM_OK) return res;
  if (out == NULL || rank < 0 || (shape == NULL && rank > 0)) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (rank > DNNMEM_LAYOUT_MAX_FACTORS) return DNNMEM_ERR_LAYOUT_LIMIT;
  for (j = 0; j < rank; j++) {
    if (shape[j] < 1) return DNNMEM_ERR_LAYOUT_EXTENT;
    if (dnnmem__mul_overflows(size, shape[j], &size)) return DNNMEM_ERR_OVERFLOW;
  }
  if (size != dnnmem_layout_strided_size(in)) return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem_layout_coalesce(in, &c);
  k = c.rank - 1;
  if (k >= 0) {
    rem = c.shape[k];
    acc = c.stride[k];
  }
  r.rank = rank;
  for (j = rank - 1; j >= 0; j--) {
    int64_t m = shape[j];
    r.shape[j] = m;
    r.stride[j] = acc;
    if (m == 1) continue; /* any stride would do */
    if (k < 0 || rem % m != 0) return DNNMEM_ERR_LAYOUT_NEEDS_COPY;
    rem /= m;
    if (rem > 1) {
      acc *= m; /* < the mode's reach: no overflow */
    } else if (--k >= 0) {
      rem = c.shape[k];
      acc = c.stride[k];
    }
  }
  *out = r;
  return DNNMEM_OK;
}



#endif /* DNNMEM_NO_LAYOUT */

/* ==== 7. Max flow and min cut (dnnmem_flow_*) ============================ */

#ifndef DNNMEM_NO_FLOW

/* ---- max flow / min cut ------------------------------------------------- */

struct dnnmem__flow_input {
  int64_t capacity, reverse_capacity;
  int32_t from, to;
};

/* One direction of an arc pair; half-arcs are grouped by tail (CSR). */
struct dnnmem__flow_half {
  int64_t residual;
  int32_t head;
  int32_t sister; /* the opposite half-arc */
};

#define DNNMEM__BK_FREE 0
#define DNNMEM__BK_SOURCE 1
#define DNNMEM__BK_SINK 2
#define DNNMEM__BK_TERMINAL (-1) /* parent: the node's terminal arc */
#define DNNMEM__BK_ORPHAN (-2)   /* parent: lost, awaiting adoption */
#define DNNMEM__BK_NONE (-3)
#define DNNMEM__BK_DIST_INF INT32_MAX

struct dnnmem__flow_bk_node {
  int64_t terminal; /* residual terminal capacity: > 0 from source, < 0 to sink */
  int64_t stamp;    /* time of the last check that the tree path reaches a terminal */
  int32_t parent;   /* half-arc from this node to its tree parent, or BK_TERMINAL/ORPHAN */
  int32_t dist;     /* tree distance to the terminal as of stamp */
  int32_t next_active; /* FIFO link; -1 when not queued, itself when last */
  uint8_t tree;     /* DNNMEM__BK_FREE / SOURCE / SINK */
};

static void dnnmem__flow_layout(dnnmem__scratch *s, int32_t n, int32_t m, dnnmem_flow *f) {
  f->input = DNNMEM__TAKE(s, struct dnnmem__flow_input, m); /* first: dnnmem__flow_arcs_bytes */
  f->half = DNNMEM__TAKE(s, struct dnnmem__flow_half, (size_t)2 * (size_t)m);
  f->first = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  f->mid = DNNMEM__TAKE(s, int32_t, n);
  f->arc_half = DNNMEM__TAKE(s, int32_t, m);
  /* two int32 per arc: the build's position map (one per half-arc), then
     each arc's int64_t flow (stored with memcpy: no type punning) */
  f->arc_work = DNNMEM__TAKE(s, int32_t, (size_t)2 * (size_t)m);
  f->bk = DNNMEM__TAKE(s, struct dnnmem__flow_bk_node, n);
  f->queue = DNNMEM__TAKE(s, int32_t, n);
  f->queue2 = DNNMEM__TAKE(s, int32_t, n);
  f->excess = DNNMEM__TAKE(s, int64_t, n);
  f->label = DNNMEM__TAKE(s, int32_t, n);
  f->current = DNNMEM__TAKE(s, int32_t, n);
  f->active_next = DNNMEM__TAKE(s, int32_t, n);
  f->active_head = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  f->bucket_next = DNNMEM__TAKE(s, int32_t, n);
  f->bucket_prev = DNNMEM__TAKE(s, int32_t, n);
  f->bucket_head = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  f->source_side = DNNMEM__TAKE(s, uint8_t, n);
}

/* Bytes at the start of a network's scratch that adding up to max_arcs arcs
   writes (the arcs come first in the layout); only a solve touches the rest. */
static DNNMEM__UNUSED size_t dnnmem__flow_arcs_bytes(int32_t max_arcs) {
  dnnmem__scratch s;
  size_t bytes = 0;
  dnnmem__scratch_begin(&s, NULL, 0);
  (void)DNNMEM__TAKE(&s, struct dnnmem__flow_input, max_arcs);
  (void)dnnmem__scratch_end(&s, &bytes);
  return bytes;
}

DNNMEM_DEF dnnmem_result dnnmem_flow_scratch_size(int32_t num_nodes, int32_t max_arcs,
                                                  size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem_flow f;
  if (out_bytes == NULL || num_nodes < 2 || max_arcs < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (max_arcs > DNNMEM__I32_MAX / 2 - 1 || num_nodes > DNNMEM__I32_MAX - 1)
    return DNNMEM_ERR_TOO_MANY;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__flow_layout(&s, num_nodes, max_arcs, &f);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_flow_init(dnnmem_flow *flow, int32_t num_nodes, int32_t max_arcs,
                                          void *scratch, size_t scratch_bytes) {
  dnnmem__scratch s;
  dnnmem_result r;
  size_t need;
  if (flow == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  r = dnnmem_flow_scratch_size(num_nodes, max_arcs, &need);
  if (r != DNNMEM_OK) return r;
  if (scratch == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__flow_layout(&s, num_nodes, max_arcs, flow);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  flow->num_nodes = num_nodes;
  flow->max_arcs = max_arcs;
  flow->num_arcs = 0;
  flow->source = flow->sink = -1;
  flow->value = 0;
  flow->merged = 0;
  flow->cut_only = 0;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_flow_add_arc(dnnmem_flow *flow, int32_t from, int32_t to,
                                             int64_t capacity, int64_t reverse_capacity,
                                             int32_t *out_arc) {
  struct dnnmem__flow_input *in;
  if (flow == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  /* one unsigned compare per id, one sign test for both capacities */
  if ((uint32_t)from >= (uint32_t)flow->num_nodes || (uint32_t)to >= (uint32_t)flow->num_nodes)
    return DNNMEM_ERR_ID_RANGE;
  if ((capacity | reverse_capacity) < 0) return DNNMEM_ERR_NEGATIVE;
  if (capacity > DNNMEM__I64_MAX - reverse_capacity) return DNNMEM_ERR_OVERFLOW;
  if (flow->num_arcs >= flow->max_arcs) return DNNMEM_ERR_FLOW_FULL;
  in = &flow->input[flow->num_arcs];
  in->from = from;
  in->to = to;
  in->capacity = capacity;
  in->reverse_capacity = reverse_capacity;
  if (out_arc) *out_arc = flow->num_arcs;
  flow->num_arcs++;
  flow->source = flow->sink = -1; /* the last solution no longer applies */
  return DNNMEM_OK;
}

/* dnnmem_flow_add_arc for a builder whose arcs are valid by construction
   (the labeling's networks, sized by their bounds): no checks. */
static DNNMEM__UNUSED void dnnmem__flow_append(dnnmem_flow *flow, int32_t from, int32_t to, int64_t capacity,
                                               int64_t reverse_capacity) {
  struct dnnmem__flow_input *in = &flow->input[flow->num_arcs++];
  DNNMEM_ASSERT(flow->num_arcs <= flow->max_arcs && (uint32_t)from < (uint32_t)flow->num_nodes &&
                (uint32_t)to < (uint32_t)flow->num_nodes && (capacity | reverse_capacity) >= 0 &&
                capacity <= DNNMEM__I64_MAX - reverse_capacity);
  in->from = from;
  in->to = to;
  in->capacity = capacity;
  in->reverse_capacity = reverse_capacity;
}

/* Merges the half-arcs that share tail and head into one (summing their
   residuals), in place, keeping [first, mid) / [mid, end) per node. Within
   a node, half-arcs lie in arc order, so both ends see the arcs between two
   nodes in the same order and take the same decisions: the representatives
   are sisters. An arc joins its group only while the group's total
   capacity (both directions) fits in int64_t. Self-loops are dropped.
   map (arc_work): old position -> new position. Returns 1 when it merged. */
static int dnnmem__flow_merge(dnnmem_flow *f) {
  int32_t n = f->num_nodes, m = f->num_arcs, u, e, w = 0;
  int32_t *map = f->arc_work, *mark = f->queue2;
  int64_t *group_total = f->excess;
  struct dnnmem__flow_half *h = f->half;
  int merged = 0;
  /* first only look: usually no two half-arcs of a node share a head (a
     mark below first[u] is another node's) */
  for (u = 0; u < n; u++) mark[u] = -1;
  for (u = 0; u < n && !merged; u++)
    for (e = f->first[u]; e < f->first[u + 1]; e++) {
      int32_t v = h[e].head;
      if (v == u || mark[v] >= f->first[u]) {
        merged = 1;
        break;
      }
      mark[v] = e;
    }
  if (!merged) return 0;
  merged = 0;
  for (u = 0; u < n; u++) mark[u] = -1;
  /* decide: map[e] = e for a representative, the representative's old
     position for a member, -1 for a self-loop */
  for (u = 0; u < n; u++) {
    for (e = f->first[u]; e < f->first[u + 1]; e++) {
      int32_t v = h[e].head;
      int64_t pair_total = h[e].residual + h[h[e].sister].residual, sum;
      if (v == u) {
        map[e] = -1;
        merged = 1;
      } else if (mark[v] >= 0 && !dnnmem__add_overflows(group_total[v], pair_total, &sum)) {
        group_total[v] = sum;
        map[e] = mark[v];
        merged = 1;
      } else {
        map[e] = e;
        if (mark[v] < 0) {
          mark[v] = e;
          group_total[v] = pair_total;
        }
      }
    }
    for (e = f->first[u]; e < f->first[u + 1]; e++) mark[h[e].head] = -1;
  }
  if (!merged) return 0; /* nothing to merge: leave the layout as it is */
  /* compact in place; map becomes old -> new position */
  for (u = 0; u < n; u++) {
    int32_t old_first = f->first[u], old_mid = f->mid[u], old_end = f->first[u + 1];
    f->first[u] = w;
    for (e = old_first; e < old_end; e++) {
      if (e == old_mid) f->mid[u] = w;
      if (map[e] < 0) continue;
      if (map[e] == e) {
        h[w] = h[e];
        map[e] = w++;
      } else {
        int32_t r = map[map[e]]; /* the representative, already moved */
        h[r].residual += h[e].residual;
        map[e] = r;
      }
    }
    if (old_mid == old_end) f->mid[u] = w;
  }
  f->first[n] = w;
  for (e = 0; e < w; e++) h[e].sister = map[h[e].sister];
  for (e = 0; e < m; e++)
    if (f->arc_half[e] >= 0) f->arc_half[e] = map[f->arc_half[e]]; /* < 0: a terminal arc kept apart */
  return 1;
}

/* Splits each merged pair's net flow back onto its arcs (in arc order,
   each filled in turn), into arc_work. Consumes the residuals. */
static void dnnmem__flow_split(dnnmem_flow *f) {
  struct dnnmem__flow_half *h = f->half;
  int32_t i;
  for (i = 0; i < f->num_arcs; i++) {
    const struct dnnmem__flow_input *in = &f->input[i];
    int32_t p = f->arc_half[i], q, c;
    int64_t width, raise, value = 0;
    if (p < 0) { /* self-loop: no flow */
      DNNMEM_MEMCPY(f->arc_work + 2 * (size_t)i, &value, sizeof(value));
      continue;
    }
    q = h[p].sister;
    c = p < q ? p : q; /* the group's reference direction */
    /* residual of the opposite of c = how far the group's flow in c's
       direction is above "every arc at its minimum" */
    width = in->capacity + in->reverse_capacity;
    raise = h[h[c].sister].residual < width ? h[h[c].sister].residual : width;
    h[h[c].sister].residual -= raise;
    value = c == p ? raise - in->reverse_capacity : in->capacity - raise;
    DNNMEM_MEMCPY(f->arc_work + 2 * (size_t)i, &value, sizeof(value));
  }
}

/* Half-arcs grouped by tail, fresh residuals. Within a node, half-arcs whose
   head is neither terminal come first ([first, mid)), so BK scans only those.
   With terminals_apart (BK for the cut only, nothing written back), arcs
   touching s or t get no half-arcs: each node's capacities from s and to t
   are summed for BK's init into bk[v].terminal and bk[v].stamp (to t
   clamped at the source total, as the init does), s -> t into *direct;
   self-loops are dropped and parallel arcs left apart (BK and the
   reduction take them as they are: one pass less). *source_total: the
   capacities leaving s; returns -1, or (nothing built)
   the arc at which they pass int64_t. */
static int32_t dnnmem__flow_build(dnnmem_flow *f, int32_t s, int32_t t, int terminals_apart, int64_t *source_total,
                                  int64_t *direct) {
  int32_t n = f->num_nodes, m = f->num_arcs, v, i;
  int32_t *count_inner = f->queue, *count_term = f->queue2;
  int64_t total = 0;
  for (v = 0; v < n; v++) count_inner[v] = count_term[v] = 0;
  for (i = 0; i < m; i++) {
    const struct dnnmem__flow_input *in = &f->input[i];
    if ((in->from == s && in->to != s && dnnmem__add_overflows(total, in->capacity, &total)) ||
        (in->to == s && in->from != s && dnnmem__add_overflows(total, in->reverse_capacity, &total)))
      return i;
    if (terminals_apart && (in->from == s || in->from == t || in->to == s || in->to == t || in->from == in->to))
      continue;
    if (in->to == s || in->to == t) count_term[in->from]++;
    else count_inner[in->from]++;
    if (in->from == s || in->from == t) count_term[in->to]++;
    else count_inner[in->to]++;
  }
  *direct = 0;
  for (v = 0; v < n && terminals_apart; v++) f->bk[v].terminal = f->bk[v].stamp = 0;
  f->first[0] = 0;
  for (v = 0; v < n; v++) {
    int32_t ci = count_inner[v];
    f->first[v + 1] = f->first[v] + ci + count_term[v];
    f->mid[v] = f->first[v] + ci;
    count_inner[v] = f->first[v]; /* fill cursors */
    count_term[v] = f->mid[v];
  }
  for (i = 0; i < m; i++) {
    const struct dnnmem__flow_input *in = &f->input[i];
    int32_t fwd, bwd;
    if (terminals_apart && (in->from == s || in->from == t || in->to == s || in->to == t)) {
      /* seen from the end away from t or toward s: only capacity out of s
         or into t can carry flow */
      int turn = in->from == t || in->to == s;
      int32_t a = turn ? in->to : in->from, b = turn ? in->from : in->to;
      int64_t ab = turn ? in->reverse_capacity : in->capacity, *sink;
      if (a == s && b == t) *direct += ab; /* within the source total */
      else if (a == s && b != s) f->bk[b].terminal += ab;
      else if (b == t && a != t) {
        sink = &f->bk[a].stamp;
        *sink = ab > total - *sink ? total : *sink + ab;
      }
      continue; /* apart: arc_half unread (no flows written back) */
    }
    if (terminals_apart && in->from == in->to) continue; /* a self-loop cuts nothing */
    fwd = (in->to == s || in->to == t) ? count_term[in->from]++ : count_inner[in->from]++;
    bwd = (in->from == s || in->from == t) ? count_term[in->to]++ : count_inner[in->to]++;
    f->half[fwd].residual = in->capacity;
    f->half[fwd].head = in->to;
    f->half[fwd].sister = bwd;
    f->half[bwd].residual = in->reverse_capacity;
    f->half[bwd].head = in->from;
    f->half[bwd].sister = fwd;
    if (!terminals_apart) f->arc_half[i] = fwd;
  }
  f->merged = terminals_apart ? 0 : dnnmem__flow_merge(f);
  *source_total = total;
  return -1;
}

/* ---- Boykov-Kolmogorov -------------------------------------------------- */

typedef struct dnnmem__bk {
  dnnmem_flow *f;
  struct dnnmem__flow_bk_node *node;
  struct dnnmem__flow_half *half;
  const int32_t *first, *mid;
  int32_t active_first, active_last;
  int32_t *orphans; /* ring buffer of num_nodes */
  int32_t orphan_head, orphan_count;
  int64_t time;
} dnnmem__bk;

static void dnnmem__bk_activate(dnnmem__bk *b, int32_t v) {
  if (b->node[v].next_active >= 0) return;
  b->node[v].next_active = v;
  if (b->active_last >= 0) b->node[b->active_last].next_active = v;
  else b->active_first = v;
  b->active_last = v;
}

static int32_t dnnmem__bk_next_active(dnnmem__bk *b) {
  for (;;) {
    int32_t v = b->active_first;
    if (v < 0) return -1;
    b->active_first = b->node[v].next_active == v ? -1 : b->node[v].next_active;
    if (b->active_first < 0) b->active_last = -1;
    b->node[v].next_active = -1;
    if (b->node[v].tree != DNNMEM__BK_FREE) return v;
  }
}

static void dnnmem__bk_orphan(dnnmem__bk *b, int32_t v) {
  int32_t n = b->f->num_nodes, slot = b->orphan_head + b->orphan_count;
  b->node[v].parent = DNNMEM__BK_ORPHAN;
  b->orphans[slot >= n ? slot - n : slot] = v;
  b->orphan_count++;
}

/* Pushes the bottleneck along source -> a -> (arc mid) -> b -> sink. */
static int64_t dnnmem__bk_augment(dnnmem__bk *b, int32_t a, int32_t c, int32_t arc) {
  struct dnnmem__flow_half *h = b->half;
  struct dnnmem__flow_bk_node *nd = b->node;
  int64_t delta = h[arc].residual;
  int32_t v, e;
  for (v = a;;) { /* source side: residual parent -> child */
    e = nd[v].parent;
    if (e == DNNMEM__BK_TERMINAL) {
      if (nd[v].terminal < delta) delta = nd[v].terminal;
      break;
    }
    if (h[h[e].sister].residual < delta) delta = h[h[e].sister].residual;
    v = h[e].head;
  }
  for (v = c;;) { /* sink side: residual child -> parent */
    e = nd[v].parent;
    if (e == DNNMEM__BK_TERMINAL) {
      if (-nd[v].terminal < delta) delta = -nd[v].terminal;
      break;
    }
    if (h[e].residual < delta) delta = h[e].residual;
    v = h[e].head;
  }
  h[arc].residual -= delta;
  h[h[arc].sister].residual += delta;
  for (v = a;;) {
    e = nd[v].parent;
    if (e == DNNMEM__BK_TERMINAL) {
      nd[v].terminal -= delta;
      if (nd[v].terminal == 0) dnnmem__bk_orphan(b, v);
      break;
    }
    h[e].residual += delta;
    h[h[e].sister].residual -= delta;
    if (h[h[e].sister].residual == 0) dnnmem__bk_orphan(b, v);
    v = h[e].head;
  }
  for (v = c;;) {
    e = nd[v].parent;
    if (e == DNNMEM__BK_TERMINAL) {
      nd[v].terminal += delta;
      if (nd[v].terminal == 0) dnnmem__bk_orphan(b, v);
      break;
    }
    h[e].residual -= delta;
    h[h[e].sister].residual += delta;
    if (h[e].residual == 0) dnnmem__bk_orphan(b, v);
    v = h[e].head;
  }
  return delta;
}

/* Finds an orphan a new parent in its own tree whose path reaches the
   terminal (shortest by the stamped distances), or frees it. */
static void dnnmem__bk_adopt(dnnmem__bk *b, int32_t v) {
  struct dnnmem__flow_half *h = b->half;
  struct dnnmem__flow_bk_node *nd = b->node;
  uint8_t tree = nd[v].tree;
  int32_t e, best = DNNMEM__BK_NONE, best_dist = DNNMEM__BK_DIST_INF;
  int32_t end = b->mid[v];
  for (e = b->first[v]; e < end; e++) {
    int32_t w = h[e].head, x, d;
    if (nd[w].tree != tree) continue;
    if (tree == DNNMEM__BK_SOURCE ? h[h[e].sister].residual == 0 : h[e].residual == 0) continue;
    /* does w's tree path reach the terminal? */
    d = 0;
    for (x = w;;) {
      int32_t pe;
      if (nd[x].stamp == b->time) {
        d += nd[x].dist;
        break;
      }
      pe = nd[x].parent;
      d++;
      if (pe == DNNMEM__BK_TERMINAL) {
        nd[x].stamp = b->time;
        nd[x].dist = 1;
        break;
      }
      if (pe == DNNMEM__BK_ORPHAN) {
        d = DNNMEM__BK_DIST_INF;
        break;
      }
      x = h[pe].head;
    }
    if (d == DNNMEM__BK_DIST_INF) continue;
    if (d < best_dist) {
      best = e;
      best_dist = d;
    }
    for (x = w; nd[x].stamp != b->time; x = h[nd[x].parent].head) {
      nd[x].stamp = b->time;
      nd[x].dist = d--;
    }
  }
  if (best != DNNMEM__BK_NONE) {
    nd[v].parent = best;
    nd[v].stamp = b->time;
    nd[v].dist = best_dist + 1;
    return;
  }
  nd[v].tree = DNNMEM__BK_FREE;
  nd[v].parent = DNNMEM__BK_NONE;
  for (e = b->first[v]; e < end; e++) {
    int32_t w = h[e].head, pw;
    if (nd[w].tree != tree) continue;
    if (tree == DNNMEM__BK_SOURCE ? h[h[e].sister].residual > 0 : h[e].residual > 0)
      dnnmem__bk_activate(b, w);
    pw = nd[w].parent;
    if (pw >= 0 && h[pw].head == v) dnnmem__bk_orphan(b, w);
  }
}

/* Terminal capacities: source arcs summed per node, sink arcs clamped at
   the source total (flow can never exceed it, so the clamp is exact); nodes
   with a terminal surplus start the trees. Returns the flow pushed at once
   (direct source -> sink arcs, and min(source, sink) per node). */
static int64_t dnnmem__bk_init(dnnmem__bk *b, int32_t s, int32_t t, int64_t source_total, int terminals_apart,
                               int64_t direct) {
  dnnmem_flow *f = b->f;
  struct dnnmem__flow_half *h = f->half;
  struct dnnmem__flow_bk_node *nd = f->bk;
  int32_t n = f->num_nodes, v, e;
  int64_t value = direct; /* direct arcs: saturated at once */
  for (e = f->mid[s]; e < f->first[s + 1]; e++)
    if (h[e].head == t) value += h[e].residual;
  for (v = 0; v < n; v++) { /* one pass: a node's source arcs are the sisters of its arcs to s */
    int64_t source_cap = terminals_apart ? nd[v].terminal : 0, sink_cap = terminals_apart ? nd[v].stamp : 0;
    nd[v].stamp = 0;
    nd[v].dist = 1;
    nd[v].next_active = -1;
    nd[v].tree = DNNMEM__BK_FREE;
    nd[v].parent = DNNMEM__BK_NONE;
    if (v != s && v != t && !terminals_apart) { /* apart: none (and a reduction leaves dead slots there) */
      for (e = f->mid[v]; e < f->first[v + 1]; e++) {
        if (h[e].head == t) {
          int64_t r = h[e].residual;
          sink_cap = r > source_total - sink_cap ? source_total : sink_cap + r;
        } else {
          source_cap += h[h[e].sister].residual; /* within source_total */
        }
      }
    }
    if (!terminals_apart) f->excess[v] = sink_cap; /* sink capacity per node, for the flows written back */
    value += dnnmem__min64(source_cap, sink_cap);
    nd[v].terminal = source_cap - sink_cap;
    if (nd[v].terminal != 0) {
      nd[v].tree = nd[v].terminal > 0 ? DNNMEM__BK_SOURCE : DNNMEM__BK_SINK;
      nd[v].parent = DNNMEM__BK_TERMINAL;
      dnnmem__bk_activate(b, v);
    }
  }
  return value;
}

/* Growth from the active node `current`: free neighbours join its tree,
   parents are improved by the time-stamp/distance rule. Returns the
   half-arc a -> c (a in the source tree, c in the sink tree) where the two
   trees meet, or -1 when current is exhausted. */
static int32_t dnnmem__bk_grow(dnnmem__bk *b, int32_t current, int32_t *a, int32_t *c) {
  dnnmem_flow *f = b->f;
  struct dnnmem__flow_half *h = f->half;
  struct dnnmem__flow_bk_node *nd = f->bk;
  int32_t e, end = f->mid[current], source_tree = nd[current].tree == DNNMEM__BK_SOURCE;
  for (e = f->first[current]; e < end; e++) {
    /* the residual arc away from the tree's root: current -> w in the
       source tree, w -> current in the sink tree */
    int32_t w, out = source_tree ? e : h[e].sister;
    if ((source_tree ? h[e].residual : h[h[e].sister].residual) == 0) continue;
    w = h[e].head;
    if (nd[w].tree == DNNMEM__BK_FREE) {
      nd[w].tree = nd[current].tree;
      nd[w].parent = h[e].sister; /* the half-arc back to current */
      nd[w].stamp = nd[current].stamp;
      nd[w].dist = nd[current].dist + 1;
      dnnmem__bk_activate(b, w);
    } else if (nd[w].tree != nd[current].tree) {
      *a = source_tree ? current : w;
      *c = source_tree ? w : current;
      return out;
    } else if (nd[w].stamp <= nd[current].stamp && nd[w].dist > nd[current].dist) {
      nd[w].parent = h[e].sister; /* the half-arc back to current */
      nd[w].stamp = nd[current].stamp;
      nd[w].dist = nd[current].dist + 1;
    }
  }
  return -1;
}

/* After the search: the cut (the source tree is closed under residual arcs
   and reaches every node in it: exactly the nodes reachable from the
   source) and the terminal flows written back onto the source and sink
   half-arcs: node v received source_cap - max(terminal, 0) from the source
   and sent sink_cap - max(-terminal, 0) to the sink (not when cut_only). */
static void dnnmem__bk_finish(dnnmem_flow *f, int32_t s, int32_t t, int cut_only) {
  struct dnnmem__flow_half *h = f->half;
  struct dnnmem__flow_bk_node *nd = f->bk;
  int32_t n = f->num_nodes, v, e;
  for (v = 0; v < n; v++) { /* the side; the sink arcs (none is a source arc) */
    int64_t r = nd[v].terminal, left;
    f->source_side[v] = nd[v].tree == DNNMEM__BK_SOURCE;
    if (v == s || v == t || cut_only) continue;
    left = f->excess[v] - (r < 0 ? -r : 0); /* flow to the sink */
    nd[v].terminal = r > 0 ? r : 0;          /* unused source capacity */
    for (e = f->mid[v]; e < f->first[v + 1] && left > 0; e++)
      if (h[e].head == t) {
        int64_t push = h[e].residual < left ? h[e].residual : left;
        h[e].residual -= push;
        h[h[e].sister].residual += push;
        left -= push;
      }
  }
  f->source_side[s] = 1;
  f->source_side[t] = 0;
  for (e = f->first[s]; e < f->first[s + 1] && !cut_only; e++) {
    int32_t w = h[e].head;
    int64_t push;
    if (w == s) continue;
    if (w == t) {
      push = h[e].residual;
    } else {
      /* unused capacity stays on the last arcs: use arcs in order */
      int64_t unused = nd[w].terminal, r = h[e].residual;
      int64_t keep = unused < r ? unused : r;
      nd[w].terminal -= keep;
      push = r - keep;
    }
    h[e].residual -= push;
    h[h[e].sister].residual += push;
  }
}

/* ---- reduction before BK (cut only) ------------------------------------- */

/* A node with at most two neighbours (terminal arcs aside) is minimised out
   exactly: its cheaper side for each choice of its neighbours' gives them
   terminal capacities, a constant and (two neighbours) one arc between
   them, written into the slots of the arcs it had (a binary submodular
   energy minimised over one variable stays submodular). Chains and
   series-parallel parts vanish, a placement network often entirely; BK
   cuts what is left. Afterwards each eliminated node takes its side from
   its neighbours', ties to the sink side: the cut BK finds on the whole
   network (the smallest source side), since the minimum cuts form a
   lattice. A dead half-arc points at its own tail, no residual either way.
   Work arrays (push-relabel's, idle under BK): label = live degree (-1:
   eliminated), bucket_head = on the stack, bucket_prev = the stack; the
   i-th elimination in queue2[i] (the node), current[i] / active_next[i]
   (its neighbours), bucket_next[i] (the decision table): written and read
   back in order. */
#define DNNMEM__FLOW_REDUCE_CAP (DNNMEM__I64_MAX / 4) /* sums of three capacities fit */

/* The reduction's steps, once or twice per node: inlined. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define DNNMEM__FLOW_INLINE __inline__ __attribute__((always_inline))
#else
#define DNNMEM__FLOW_INLINE
#endif

/* v's live half-arcs to the front of its range; mid[v] ends them. */
static void dnnmem__flow_compact(dnnmem_flow *f, int32_t v) {
  struct dnnmem__flow_half *h = f->half;
  int32_t e, w = f->first[v];
  for (e = f->first[v]; e < f->mid[v]; e++)
    if (h[e].head != v) {
      if (e != w) {
        h[w] = h[e];
        h[h[w].sister].sister = w;
      }
      w++;
    }
  f->mid[v] = w;
}

/* d * [node on the sink side] into its terminal capacities (source a,
   sink b) and the constant k; 0 on overflow. */
static DNNMEM__FLOW_INLINE int dnnmem__flow_unary(int64_t *a, int64_t *b, int64_t *k, int64_t d) {
  if (d >= 0) return !dnnmem__add_overflows(*a, d, a);
  return !dnnmem__add_overflows(*k, d, k) && !dnnmem__add_overflows(*b, -d, b);
}

static DNNMEM__FLOW_INLINE void dnnmem__flow_push(dnnmem_flow *f, int32_t *top, int32_t v) {
  if (f->label[v] < 1 || f->label[v] > 2 || f->bucket_head[v]) return;
  f->bucket_head[v] = 1;
  f->bucket_prev[(*top)++] = v;
}

/* Kills the half-arc e of node v and its sister. */
static DNNMEM__FLOW_INLINE void dnnmem__flow_kill(dnnmem_flow *f, int32_t v, int32_t e) {
  f->half[f->half[e].sister].residual = 0;
  f->half[e].head = v;
  f->half[e].residual = 0;
  f->label[v]--;
}

/* Adds lambda onto an arc u -> w already there, when the end with fewer
   arcs has at most 4 (cheap to look, and what lets series-parallel parts
   vanish), and kills the slots in u and w of the eliminated node's arcs
   eu, ew. 0 when it did not. */
static int dnnmem__flow_parallel(dnnmem_flow *f, int32_t u, int32_t w, int32_t eu, int32_t ew, int64_t lambda) {
  struct dnnmem__flow_half *h = f->half;
  int32_t x = f->label[u] <= f->label[w] ? u : w, y = x == u ? w : u, e;
  int64_t sum;
  if (f->label[x] > 4) return 0;
  if (f->mid[x] - f->first[x] > f->label[x]) dnnmem__flow_compact(f, x); /* moves sisters: eu, ew name them */
  for (e = f->first[x]; e < f->mid[x] && h[e].head != y; e++) {
  }
  if (e == f->mid[x]) return 0;
  if (x == w) e = h[e].sister; /* u -> w */
  if (dnnmem__add_overflows(h[e].residual + h[h[e].sister].residual, lambda, &sum)) return 0;
  h[e].residual += lambda;
  dnnmem__flow_kill(f, u, h[eu].sister);
  dnnmem__flow_kill(f, w, h[ew].sister);
  return 1;
}

/* Eliminates what it can (never s or t, which have no half-arcs here);
   returns the count, *constant the cost they leave. */
static int32_t dnnmem__flow_reduce(dnnmem_flow *f, int32_t s, int32_t t, int64_t *constant) {
  struct dnnmem__flow_half *h = f->half;
  struct dnnmem__flow_bk_node *nd = f->bk;
  int32_t n = f->num_nodes, *deg = f->label, top = 0, count = 0, v;
  int64_t k = 0;
  for (v = 0; v < n; v++) {
    deg[v] = f->mid[v] - f->first[v];
    f->bucket_head[v] = (uint32_t)(deg[v] - 1) < 2u && v != s && v != t; /* on the stack */
    if (f->bucket_head[v]) f->bucket_prev[top++] = v;
  }
  while (top > 0) {
    int32_t eu, ew, u, w = -1, su, sw = -1, i;
    int64_t a, b, pu, qu, pw = 0, qw = 0, c0[4], c1[4], cost[4], kk = k, au, bu, aw = 0, bw = 0, lambda = 0;
    unsigned table = 0;
    v = f->bucket_prev[--top];
    f->bucket_head[v] = 0;
    if (deg[v] < 1) continue; /* left alone; degrees never grow, so <= 2 */
    for (eu = f->first[v]; h[eu].head == v; eu++) { /* the live slots (dead ones point home) */
    }
    if (deg[v] == 1) { /* one neighbour (most nodes): its two cases, as below with w < 0 */
      u = h[eu].head;
      su = h[eu].sister;
      pu = h[eu].residual;
      qu = h[su].residual;
      a = nd[v].terminal;
      b = nd[v].stamp;
      if ((a | b | pu | qu) > DNNMEM__FLOW_REDUCE_CAP / 2) continue;
      cost[0] = dnnmem__min64(b, a + qu);
      cost[1] = dnnmem__min64(b + pu, a);
      table = (unsigned)(a + qu <= b) | (unsigned)(a <= b + pu) << 1;
      au = nd[u].terminal;
      bu = nd[u].stamp;
      if (dnnmem__add_overflows(kk, cost[0], &kk) || !dnnmem__flow_unary(&au, &bu, &kk, cost[1] - cost[0])) continue;
      k = kk;
      nd[u].terminal = au;
      nd[u].stamp = bu;
      nd[v].terminal = nd[v].stamp = 0;
      h[eu].residual = 0;
      dnnmem__flow_kill(f, u, su);
      deg[v] = -1;
      f->mid[v] = f->first[v];
      f->current[count] = u;
      f->active_next[count] = -1;
      f->bucket_next[count] = (int32_t)table;
      f->queue2[count++] = v;
      dnnmem__flow_push(f, &top, u);
      continue;
    }
    for (ew = eu + 1; deg[v] == 2 && h[ew].head == v; ew++) {
    }
    if (deg[v] < 2) ew = -1;
    u = h[eu].head;
    su = h[eu].sister;
    pu = h[eu].residual;
    qu = h[su].residual;
    if (ew >= 0) {
      w = h[ew].head;
      sw = h[ew].sister;
      pw = h[ew].residual;
      qw = h[sw].residual;
    }
    a = nd[v].terminal;
    b = nd[v].stamp;
    if ((a | b | pu | qu | pw | qw) > DNNMEM__FLOW_REDUCE_CAP / 2) continue; /* pairs below sum too */
    if (w == u) { /* two arcs to one neighbour: one */
      pu += pw, qu += qw;
      pw = qw = 0;
      w = -1;
    }
    /* cost[i], i: bit 0 = u on the sink side, bit 1 = w; v's side source
       (b and its arcs out to sink-side neighbours) or sink (a and the arcs in
       from source-side ones); table bit i: v on the sink side */
    c0[0] = b, c1[0] = a + qu + qw;
    c0[1] = b + pu, c1[1] = a + qw;
    c0[2] = b + pw, c1[2] = a + qu;
    c0[3] = b + pu + pw, c1[3] = a;
    for (i = 0; i < 4; i++) {
      cost[i] = c1[i] <= c0[i] ? c1[i] : c0[i];
      table |= (unsigned)(c1[i] <= c0[i]) << i;
    }
    au = nd[u].terminal;
    bu = nd[u].stamp;
    if (dnnmem__add_overflows(kk, cost[0], &kk) || !dnnmem__flow_unary(&au, &bu, &kk, cost[1] - cost[0])) continue;
    if (w >= 0) {
      aw = nd[w].terminal;
      bw = nd[w].stamp;
      if (!dnnmem__flow_unary(&aw, &bw, &kk, cost[3] - cost[1])) continue;
      lambda = (cost[2] - cost[0]) + (cost[1] - cost[3]); /* each cost within 3/8 of INT64_MAX */
      DNNMEM_ASSERT(lambda >= 0); /* submodular */
    }
    /* commit */
    k = kk;
    nd[u].terminal = au;
    nd[u].stamp = bu;
    nd[v].terminal = nd[v].stamp = 0;
    h[eu].residual = 0;
    if (ew >= 0) h[ew].residual = 0;
    if (w < 0) { /* one neighbour (or both arcs to it) */
      dnnmem__flow_kill(f, u, su);
      if (ew >= 0) dnnmem__flow_kill(f, u, sw);
    } else if (lambda == 0) {
      dnnmem__flow_kill(f, u, su);
      dnnmem__flow_kill(f, w, sw);
    } else if (!dnnmem__flow_parallel(f, u, w, eu, ew, lambda)) { /* the slots: u -> w (lambda), w -> u (0) */
      su = h[eu].sister; /* a compaction may have moved them */
      sw = h[ew].sister;
      h[su].head = w;
      h[su].residual = lambda;
      h[su].sister = sw;
      h[sw].head = u;
      h[sw].residual = 0;
      h[sw].sister = su;
    }
    if (w >= 0) {
      nd[w].terminal = aw;
      nd[w].stamp = bw;
    }
    deg[v] = -1;
    f->mid[v] = f->first[v];
    f->current[count] = u;
    f->active_next[count] = w;
    f->bucket_next[count] = (int32_t)table;
    f->queue2[count++] = v;
    dnnmem__flow_push(f, &top, u);
    if (w >= 0) dnnmem__flow_push(f, &top, w);
  }
  for (v = 0; v < n && count > 0; v++)
    if (deg[v] >= 0 && f->mid[v] - f->first[v] > deg[v]) dnnmem__flow_compact(f, v);
  *constant = k;
  return count;
}

/* The eliminated nodes' sides from their neighbours', latest first. */
static void dnnmem__flow_expand(dnnmem_flow *f, int32_t count) {
  int32_t i;
  for (i = count - 1; i >= 0; i--) {
    int32_t v = f->queue2[i], u = f->current[i], w = f->active_next[i];
    unsigned at = (unsigned)!f->source_side[u] | (w >= 0 && !f->source_side[w] ? 2u : 0u);
    f->source_side[v] = (uint8_t)!(((unsigned)f->bucket_next[i] >> at) & 1u);
  }
}

static int64_t dnnmem__bk_run(dnnmem_flow *f, int32_t s, int32_t t, int64_t source_total, int cut_only,
                              int64_t direct) {
  dnnmem__bk b;
  int32_t n = f->num_nodes, current = -1;
  int64_t value;
  b.f = f;
  b.node = f->bk;
  b.half = f->half;
  b.first = f->first;
  b.mid = f->mid;
  b.active_first = b.active_last = -1;
  b.orphans = f->queue;
  b.orphan_head = b.orphan_count = 0;
  b.time = 0;
  value = dnnmem__bk_init(&b, s, t, source_total, cut_only, direct);
  for (;;) {
    int32_t a = -1, c = -1, arc;
    if (current < 0 || f->bk[current].tree == DNNMEM__BK_FREE) {
      current = dnnmem__bk_next_active(&b);
      if (current < 0) break;
    }
    if ((arc = dnnmem__bk_grow(&b, current, &a, &c)) < 0) {
      current = -1; /* exhausted: no longer active */
      continue;
    }
    b.time++;
    value += dnnmem__bk_augment(&b, a, c, arc);
    while (b.orphan_count > 0) {
      int32_t o = b.orphans[b.orphan_head];
      b.orphan_head = b.orphan_head + 1 == n ? 0 : b.orphan_head + 1;
      b.orphan_count--;
      dnnmem__bk_adopt(&b, o);
    }
    /* keep growing from the same node while it stays in a tree */
  }
  dnnmem__bk_finish(f, s, t, cut_only);
  return value;
}

/* ---- push-relabel ------------------------------------------------------- */

typedef struct dnnmem__pr {
  dnnmem_flow *f;
  struct dnnmem__flow_half *half;
  int32_t n, s, t;
  int32_t max_active, max_label;
} dnnmem__pr;

static void dnnmem__pr_bucket_add(dnnmem__pr *p, int32_t v) {
  dnnmem_flow *f = p->f;
  int32_t l = f->label[v], head = f->bucket_head[l];
  f->bucket_prev[v] = -1;
  f->bucket_next[v] = head;
  if (head >= 0) f->bucket_prev[head] = v;
  f->bucket_head[l] = v;
  if (l > p->max_label) p->max_label = l;
}

static void dnnmem__pr_bucket_remove(dnnmem__pr *p, int32_t v) {
  dnnmem_flow *f = p->f;
  int32_t prev = f->bucket_prev[v], next = f->bucket_next[v];
  if (prev >= 0) f->bucket_next[prev] = next;
  else f->bucket_head[f->label[v]] = next;
  if (next >= 0) f->bucket_prev[next] = prev;
}

static void dnnmem__pr_active_add(dnnmem__pr *p, int32_t v) {
  dnnmem_flow *f = p->f;
  int32_t l = f->label[v];
  f->active_next[v] = f->active_head[l];
  f->active_head[l] = v;
  if (l > p->max_active) p->max_active = l;
}

/* Exact distances to the sink by backward BFS; unreachable nodes get n. */
static void dnnmem__pr_global_relabel(dnnmem__pr *p) {
  dnnmem_flow *f = p->f;
  struct dnnmem__flow_half *h = p->half;
  int32_t n = p->n, v, head = 0, tail = 0, e;
  for (v = 0; v < n; v++) {
    f->label[v] = n;
    f->current[v] = f->first[v];
    f->bucket_head[v] = f->active_head[v] = -1;
  }
  p->max_active = p->max_label = 0;
  f->label[p->t] = 0;
  dnnmem__pr_bucket_add(p, p->t);
  f->queue[tail++] = p->t;
  while (head < tail) {
    int32_t u = f->queue[head++], du = f->label[u] + 1;
    for (e = f->first[u]; e < f->first[u + 1]; e++) {
      int32_t w = h[e].head;
      if (f->label[w] == n && w != p->s && h[h[e].sister].residual > 0) {
        f->label[w] = du;
        dnnmem__pr_bucket_add(p, w);
        if (f->excess[w] > 0) dnnmem__pr_active_add(p, w);
        f->queue[tail++] = w;
      }
    }
  }
}

/* Phase 1: a maximum preflow. Returns with every remaining excess on nodes
   that cannot reach the sink. */
static void dnnmem__pr_phase1(dnnmem__pr *p) {
  dnnmem_flow *f = p->f;
  struct dnnmem__flow_half *h = p->half;
  int32_t n = p->n, e;
  int64_t work = 0, work_limit = 6 * (int64_t)n + (int64_t)f->first[n];
  dnnmem__pr_global_relabel(p);
  for (;;) {
    int32_t u, d;
    while (p->max_active >= 0 && f->active_head[p->max_active] < 0) p->max_active--;
    if (p->max_active < 0) break;
    u = f->active_head[p->max_active];
    f->active_head[p->max_active] = f->active_next[u];
    /* discharge u */
    for (;;) {
      int32_t end = f->first[u + 1], new_label;
      d = f->label[u];
      for (e = f->current[u]; e < end; e++) {
        int32_t w;
        if (h[e].residual == 0) continue;
        w = h[e].head;
        if (f->label[w] == d - 1) {
          int64_t delta = f->excess[u] < h[e].residual ? f->excess[u] : h[e].residual;
          h[e].residual -= delta;
          h[h[e].sister].residual += delta;
          if (f->excess[w] == 0 && w != p->t) dnnmem__pr_active_add(p, w);
          f->excess[w] += delta;
          f->excess[u] -= delta;
          if (f->excess[u] == 0) break;
        }
      }
      f->current[u] = e < end ? e : end;
      if (f->excess[u] == 0) break;
      /* relabel */
      work += 12 + (end - f->first[u]);
      dnnmem__pr_bucket_remove(p, u);
      if (f->bucket_head[d] < 0) {
        /* gap: nothing at label d, so nothing above it reaches the sink */
        int32_t l;
        for (l = d + 1; l <= p->max_label; l++) {
          int32_t v;
          for (v = f->bucket_head[l]; v >= 0; v = f->bucket_next[v]) f->label[v] = n;
          f->bucket_head[l] = -1;
          f->active_head[l] = -1;
        }
        f->label[u] = n;
        p->max_label = d - 1;
        p->max_active = d - 1;
        break;
      }
      new_label = n;
      for (e = f->first[u]; e < end; e++)
        if (h[e].residual > 0 && f->label[h[e].head] + 1 < new_label)
          new_label = f->label[h[e].head] + 1;
      f->label[u] = new_label;
      f->current[u] = f->first[u];
      if (new_label >= n) break;
      dnnmem__pr_bucket_add(p, u);
      p->max_active = new_label; /* u is the highest active node */
    }
    if (work > work_limit) {
      dnnmem__pr_global_relabel(p);
      work = 0;
    }
  }
}

/* Phase 2: returns remaining excess to the source (FIFO push-relabel with
   labels starting at exact residual distances to the source). */
static void dnnmem__pr_phase2(dnnmem__pr *p) {
  dnnmem_flow *f = p->f;
  struct dnnmem__flow_half *h = p->half;
  int32_t n = p->n, v, e, head = 0, tail = 0, count = 0;
  const int32_t unreached = DNNMEM__I32_MAX - 1;
  for (v = 0; v < n; v++) {
    f->label[v] = unreached;
    f->current[v] = f->first[v];
  }
  f->label[p->s] = 0;
  f->queue[tail++] = p->s;
  while (head < tail) {
    int32_t u = f->queue[head++];
    for (e = f->first[u]; e < f->first[u + 1]; e++) {
      int32_t w = h[e].head;
      if (f->label[w] == unreached && w != p->t && h[h[e].sister].residual > 0) {
        f->label[w] = f->label[u] + 1;
        f->queue[tail++] = w;
      }
    }
  }
  head = tail = 0;
  for (v = 0; v < n; v++)
    if (v != p->s && v != p->t && f->excess[v] > 0) {
      f->queue[tail++] = v;
      count++;
    }
  if (tail == n) tail = 0;
  while (count > 0) {
    int32_t u = f->queue[head];
    head = head + 1 == n ? 0 : head + 1;
    count--;
    while (f->excess[u] > 0) {
      int32_t end = f->first[u + 1], d = f->label[u], new_label = unreached;
      for (e = f->current[u]; e < end; e++) {
        int32_t w = h[e].head;
        if (h[e].residual == 0 || w == p->t || f->label[w] != d - 1) continue;
        {
          int64_t delta = f->excess[u] < h[e].residual ? f->excess[u] : h[e].residual;
          h[e].residual -= delta;
          h[h[e].sister].residual += delta;
          if (f->excess[w] == 0 && w != p->s) {
            f->queue[tail] = w;
            tail = tail + 1 == n ? 0 : tail + 1;
            count++;
          }
          f->excess[w] += delta;
          f->excess[u] -= delta;
          if (f->excess[u] == 0) break;
        }
      }
      f->current[u] = e < end ? e : end;
      if (f->excess[u] == 0) break;
      for (e = f->first[u]; e < end; e++)
        if (h[e].residual > 0 && h[e].head != p->t && f->label[h[e].head] < new_label)
          new_label = f->label[h[e].head];
      /* excess came from the source, so a residual path back exists */
      DNNMEM_ASSERT(new_label < unreached);
      if (new_label >= unreached) return;
      f->label[u] = new_label + 1;
      f->current[u] = f->first[u];
    }
  }
}

static int64_t dnnmem__pr_run(dnnmem_flow *f, int32_t s, int32_t t) {
  dnnmem__pr p;
  struct dnnmem__flow_half *h = f->half;
  int32_t v, e;
  p.f = f;
  p.half = h;
  p.n = f->num_nodes;
  p.s = s;
  p.t = t;
  for (v = 0; v < p.n; v++) f->excess[v] = 0;
  for (e = f->first[s]; e < f->first[s + 1]; e++) {
    int32_t w = h[e].head;
    int64_t r = h[e].residual;
    if (w == s || r == 0) continue;
    h[e].residual = 0;
    h[h[e].sister].residual += r;
    f->excess[w] += r;
  }
  dnnmem__pr_phase1(&p);
  dnnmem__pr_phase2(&p);
  return f->excess[t];
}

/* Source side = nodes reachable from the source by residual half-arcs. */
static void dnnmem__flow_mark_source_side(dnnmem_flow *f, int32_t s) {
  int32_t v, e, head = 0, tail = 0;
  for (v = 0; v < f->num_nodes; v++) f->source_side[v] = 0;
  f->source_side[s] = 1;
  f->queue[tail++] = s;
  while (head < tail) {
    int32_t u = f->queue[head++];
    for (e = f->first[u]; e < f->first[u + 1]; e++) {
      int32_t w = f->half[e].head;
      if (!f->source_side[w] && f->half[e].residual > 0) {
        f->source_side[w] = 1;
        f->queue[tail++] = w;
      }
    }
  }
}

static const char dnnmem__flow_names[DNNMEM_FLOW_ALGO_COUNT][DNNMEM__NAME_BYTES] = {"bk", "pr"};

DNNMEM__ENUM_NAMES(dnnmem_flow_algo, dnnmem__flow_names, DNNMEM_FLOW_ALGO_COUNT)

static dnnmem_result dnnmem__flow_solve(dnnmem_flow *flow, int32_t source, int32_t sink,
                                        const dnnmem_flow_options *options, dnnmem_flow_result *result,
                                        dnnmem_error *e) {
  dnnmem_flow_algo algo = options ? options->algo : DNNMEM_FLOW_BK;
  int cut_only = options != NULL && options->cut_only != 0;
  int64_t source_total = 0, direct = 0, value;
  int32_t i;
  if (flow == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if (source < 0 || source >= flow->num_nodes) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, -1, DNNMEM_FIELD_SOURCE);
  if (sink < 0 || sink >= flow->num_nodes) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, -1, DNNMEM_FIELD_SINK);
  if (source == sink) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_SINK);
  if ((int)algo < 0 || algo >= DNNMEM_FLOW_ALGO_COUNT) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_ALGO);
  flow->source = flow->sink = -1;
  if ((i = dnnmem__flow_build(flow, source, sink, cut_only && algo == DNNMEM_FLOW_BK, &source_total, &direct)) >= 0)
    return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, i, DNNMEM_FIELD_CAPACITY);
  if (algo == DNNMEM_FLOW_PUSH_RELABEL) {
    value = dnnmem__pr_run(flow, source, sink);
    dnnmem__flow_mark_source_side(flow, source);
  } else if (cut_only) { /* the nodes a reduction leaves, then the rest's sides */
    int64_t constant = 0;
    int32_t eliminated = dnnmem__flow_reduce(flow, source, sink, &constant);
    value = dnnmem__bk_run(flow, source, sink, source_total, cut_only, direct + constant);
    dnnmem__flow_expand(flow, eliminated);
  } else {
    value = dnnmem__bk_run(flow, source, sink, source_total, cut_only, direct); /* marks the side too */
  }
  if (flow->merged && !cut_only) dnnmem__flow_split(flow); /* else an arc's flow is its capacity less its residual */
  flow->cut_only = cut_only;
  flow->source = source;
  flow->sink = sink;
  flow->value = value;
  if (result) result->value = value;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_flow_solve(dnnmem_flow *flow, int32_t source, int32_t sink,
                                           const dnnmem_flow_options *options,
                                           dnnmem_flow_result *result) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__flow_solve(flow, source, sink, options, result, &e));
}

DNNMEM_DEF int64_t dnnmem_flow_arc_flow(const dnnmem_flow *flow, int32_t arc) {
  if (flow == NULL || flow->source < 0 || flow->cut_only || arc < 0 || arc >= flow->num_arcs) return 0;
  {
    int64_t value;
    if (!flow->merged) return flow->input[arc].capacity - flow->half[flow->arc_half[arc]].residual;
    DNNMEM_MEMCPY(&value, flow->arc_work + 2 * (size_t)arc, sizeof(value));
    return value;
  }
}

DNNMEM_DEF dnnmem_result dnnmem_flow_arc(const dnnmem_flow *flow, int32_t arc, int32_t *out_from,
                                         int32_t *out_to, int64_t *out_capacity,
                                         int64_t *out_reverse_capacity) {
  const struct dnnmem__flow_input *in;
  if (flow == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (arc < 0 || arc >= flow->num_arcs) return DNNMEM_ERR_ID_RANGE;
  in = &flow->input[arc];
  if (out_from) *out_from = in->from;
  if (out_to) *out_to = in->to;
  if (out_capacity) *out_capacity = in->capacity;
  if (out_reverse_capacity) *out_reverse_capacity = in->reverse_capacity;
  return DNNMEM_OK;
}

DNNMEM_DEF int dnnmem_flow_source_side(const dnnmem_flow *flow, int32_t node) {
  if (flow == NULL || flow->source < 0 || node < 0 || node >= flow->num_nodes) return 0;
  return flow->source_side[node];
}



#endif /* DNNMEM_NO_FLOW */

/* ==== 8. Placement (dnnmem_place_*) ====================================== */

#ifndef DNNMEM_NO_PLACE

/* ---- CPU/accelerator placement ----------------------------------------- */

/* part 9's (placement's network is the k = 2 labeling's) */
static dnnmem_result dnnmem__label_network(const dnnmem_label_problem *problem,
                                           const dnnmem_label_options *options, const int32_t *labels,
                                           int32_t alpha, dnnmem_flow *out_flow, int32_t *out_node,
                                           dnnmem_label_network_result *result, void *scratch,
                                           size_t scratch_bytes, int64_t valid_total, int32_t *out_value_arcs,
                                           dnnmem_error *e);
static dnnmem_result dnnmem__label_network_bytes(int32_t n, int32_t e, int32_t k, size_t *out_bytes);

/* The problem given and its graph valid: what the scratch's layout reads. */
static dnnmem_result dnnmem__place_graph(const dnnmem_place_problem *p, dnnmem_error *e) {
  if (p == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  return dnnmem_graph_check(p->graph, e);
}

/* Validates the rest of a problem whose graph dnnmem__place_graph passed
   (not acyclicity); *out_total bounds every cost; forced (NULL: not
   wanted) receives dnnmem__place_forced of every node. Bitwise tests and
   one overflow test per node: few branches to mispredict. */
static dnnmem_result dnnmem__place_validate(const dnnmem_place_problem *p, int64_t *out_total, uint8_t *forced,
                                            dnnmem_error *e) {
  int64_t total = 0;
  int32_t v, n = p->graph->num_nodes;
  if (n > 0 && (p->cpu_time == NULL || p->acc_time == NULL || p->xfer == NULL))
    return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, p->xfer == NULL ? DNNMEM_FIELD_SIZE : DNNMEM_FIELD_TIME);
  for (v = 0; v < n; v++) {
    int64_t c = p->cpu_time[v], a = p->acc_time[v], x = p->xfer[v];
    uint8_t dev = p->device ? p->device[v] : (uint8_t)DNNMEM_PLACE_ANY;
    uint64_t times, twice;
    if ((c < DNNMEM_PLACE_UNSUPPORTED) | (a < DNNMEM_PLACE_UNSUPPORTED))
      return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_TIME);
    if (x < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_SIZE);
    if (dev > DNNMEM_PLACE_ACC) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, v, DNNMEM_FIELD_PIN);
    if (((dev == DNNMEM_PLACE_CPU) & (c < 0)) | ((dev == DNNMEM_PLACE_ACC) & (a < 0)) | ((c < 0) & (a < 0)))
      return dnnmem__fail(e, DNNMEM_ERR_PLACE_UNSUPPORTED, v, c < 0 && a < 0 ? DNNMEM_FIELD_TIME : DNNMEM_FIELD_PIN);
    /* each term within [0, INT64_MAX]: a sum of two never wraps in uint64_t */
    times = (uint64_t)(c > 0 ? c : 0) + (uint64_t)(a > 0 ? a : 0);
    twice = (uint64_t)x + (uint64_t)x;
    if (times > (uint64_t)DNNMEM__I64_MAX || twice > (uint64_t)DNNMEM__I64_MAX - times ||
        times + twice > (uint64_t)(DNNMEM__I64_MAX - total))
      return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, v, DNNMEM_FIELD_TIME);
    total += (int64_t)(times + twice);
    /* a pin, else the only device that runs it (CPU = 1, ACC = 2) */
    if (forced) forced[v] = (uint8_t)(dev != DNNMEM_PLACE_ANY ? dev : (a < 0) | (c < 0) << 1);
  }
  *out_total = total;
  return DNNMEM_OK;
}

/* The device an op must use (CPU/ACC), or ANY when the cut decides. */
static uint8_t dnnmem__place_forced(const dnnmem_place_problem *p, int32_t v) {
  uint8_t dev = p->device ? p->device[v] : (uint8_t)DNNMEM_PLACE_ANY;
  if (dev != DNNMEM_PLACE_ANY) return dev;
  if (p->acc_time[v] < 0) return DNNMEM_PLACE_CPU;
  if (p->cpu_time[v] < 0) return DNNMEM_PLACE_ACC;
  return DNNMEM_PLACE_ANY;
}

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define DNNMEM__PLACE_INLINE __inline__ __attribute__((always_inline))
#else
#define DNNMEM__PLACE_INLINE
#endif

/* Bit i of an op's code: on the accelerator in assignment i, 0 = x; with
   the baselines 1 = every op the accelerator supports on it (onnx-mlir's
   default), 2 = each op on its faster device, 3 = every op on the CPU
   where possible. */
static DNNMEM__PLACE_INLINE unsigned dnnmem__place_code(const dnnmem_place_problem *p, const uint8_t *x, int baselines,
                                                        int32_t v, uint8_t forced) {
  unsigned code = x[v] == DNNMEM_PLACE_ACC ? 1u : 0u;
  if (!baselines) return code;
  if (forced == DNNMEM_PLACE_ANY) return code | 2u | (p->acc_time[v] < p->cpu_time[v] ? 4u : 0u);
  return forced == DNNMEM_PLACE_ACC ? code | 14u : code;
}

/* Costs of a validated problem under the assignment x, and with baselines
   under the three baselines too (time[0..3], conversions[0..3]): one sweep
   over the edges for all. seen holds n int32; forced (NULL: worked out
   here) dnnmem__place_forced of every node. */
static dnnmem_result dnnmem__place_eval(const dnnmem_place_problem *p, dnnmem_place_model model,
                                        const uint8_t *forced_of, const uint8_t *x, int baselines, int32_t *seen,
                                        int64_t *time, int32_t *conversions, dnnmem_error *e) {
  const dnnmem_graph *g = p->graph;
  int32_t n = g->num_nodes, v, k, i, count = baselines ? 4 : 1;
  unsigned mask = baselines ? 15u : 1u;
  int64_t sum[4] = {0, 0, 0, 0}; /* the sweep over nodes sums in registers */
  for (i = 0; i < count; i++) conversions[i] = 0;
  for (v = 0; v < n; v++) {
    uint8_t forced = forced_of ? forced_of[v] : dnnmem__place_forced(p, v);
    unsigned code;
    int64_t c, a;
    if (((x[v] != DNNMEM_PLACE_CPU) & (x[v] != DNNMEM_PLACE_ACC)) | ((forced != DNNMEM_PLACE_ANY) & (forced != x[v])))
      return dnnmem__fail(e, DNNMEM_ERR_INFEASIBLE, v, DNNMEM_FIELD_OUTPUT);
    code = dnnmem__place_code(p, x, baselines, v, forced);
    c = p->cpu_time[v];
    a = p->acc_time[v];
    sum[0] += code & 1u ? a : c;
    sum[1] += code & 2u ? a : c;
    sum[2] += code & 4u ? a : c;
    sum[3] += code & 8u ? a : c;
    seen[v] = (int32_t)(code << 8); /* per value below: bits 0-3 a consumer on ACC, 4-7 one on CPU */
  }
  for (i = 0; i < count; i++) time[i] = sum[i];
  if (model == DNNMEM_PLACE_PER_EDGE) {
    for (v = 0; v < n; v++) seen[v] = -1;
    for (v = 0; v < n; v++) {
      unsigned cv = dnnmem__place_code(p, x, baselines, v, forced_of ? forced_of[v] : dnnmem__place_forced(p, v)), diff;
      for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) {
        int32_t u = g->in_ids[k];
        if (seen[u] == v) continue; /* x * x: one edge */
        seen[u] = v;
        diff = cv ^ dnnmem__place_code(p, x, baselines, u, forced_of ? forced_of[u] : dnnmem__place_forced(p, u));
        for (i = 0; diff; i++, diff >>= 1)
          if (diff & 1u) {
            time[i] += p->xfer[u];
            conversions[i]++;
          }
      }
      if (p->is_output && p->is_output[v])
        for (i = 0; i < count; i++)
          if ((cv >> i) & 1u) {
            time[i] += p->xfer[v];
            conversions[i]++;
          }
    }
  } else {
    for (v = 0; v < n; v++) {
      unsigned cv = (unsigned)seen[v] >> 8, bits = cv | ((~cv & mask) << 4);
      for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) seen[g->in_ids[k]] |= (int32_t)bits;
    }
    for (v = 0; v < n; v++) {
      unsigned sv = (unsigned)seen[v], cv = sv >> 8, on_acc = sv & 15u, on_cpu = (sv >> 4) & 15u, needs;
      if (p->is_output && p->is_output[v]) on_cpu = mask;
      needs = ((~cv & on_acc) | (cv & on_cpu)) & mask;
      for (i = 0; needs; i++, needs >>= 1)
        if (needs & 1u) {
          time[i] += p->xfer[v];
          conversions[i]++;
        }
    }
  }
  return DNNMEM_OK; /* no overflow: validation bounded the sum */
}

/* dnnmem_place_cost's scratch: one stamp per node. */
static int32_t *dnnmem__place_cost_layout(dnnmem__scratch *s, int32_t num_nodes) {
  return DNNMEM__TAKE(s, int32_t, num_nodes);
}

static const char dnnmem__place_model_names[DNNMEM_PLACE_MODEL_COUNT][DNNMEM__NAME_BYTES] = {"per-value",
                                                                                "per-edge"};

DNNMEM__ENUM_NAMES(dnnmem_place_model, dnnmem__place_model_names, DNNMEM_PLACE_MODEL_COUNT)

/* The options' model and algo, defaults for NULL; INVALID_ARGUMENT when out of range. */
static dnnmem_result dnnmem__place_options(const dnnmem_place_options *options,
                                           dnnmem_place_model *model, dnnmem_flow_algo *algo) {
  *model = options ? options->model : DNNMEM_PLACE_PER_VALUE;
  *algo = options ? options->algo : DNNMEM_FLOW_BK;
  if ((int)*model < 0 || *model >= DNNMEM_PLACE_MODEL_COUNT ||
      (int)*algo < 0 || *algo >= DNNMEM_FLOW_ALGO_COUNT)
    return DNNMEM_ERR_INVALID_ARGUMENT;
  return DNNMEM_OK;
}

/* The graph's counts for a scratch size (the problem's arrays are not read). */
static dnnmem_result dnnmem__place_counts(const dnnmem_place_problem *problem,
                                          const dnnmem_place_options *options, int32_t *n,
                                          int32_t *e) {
  dnnmem_place_model model;
  dnnmem_flow_algo algo;
  dnnmem_result r;
  if (problem == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__place_options(options, &model, &algo)) != DNNMEM_OK) return r;
  if ((r = dnnmem_graph_check(problem->graph, NULL)) != DNNMEM_OK) return r;
  *n = problem->graph->num_nodes;
  *e = *n > 0 ? problem->graph->in_offsets[*n] : 0;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_place_cost_scratch_size(const dnnmem_place_problem *problem,
                                                        const dnnmem_place_options *options,
                                                        size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem_result r;
  int32_t n, e;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__place_counts(problem, options, &n, &e)) != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&s, NULL, 0);
  (void)dnnmem__place_cost_layout(&s, n);
  return dnnmem__scratch_end(&s, out_bytes);
}

static dnnmem_result dnnmem__place_cost(const dnnmem_place_problem *problem, const dnnmem_place_options *options,
                                        const uint8_t *device, dnnmem_place_result *result, void *scratch,
                                        size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem_place_model model;
  dnnmem_flow_algo algo;
  dnnmem_result r;
  int64_t total;
  int32_t *seen;
  if ((r = dnnmem__place_graph(problem, e)) != DNNMEM_OK || (r = dnnmem__place_validate(problem, &total, NULL, e)) != DNNMEM_OK)
    return r;
  if ((r = dnnmem__place_options(options, &model, &algo)) != DNNMEM_OK)
    return dnnmem__fail(e, r, -1, DNNMEM_FIELD_OPTIONS);
  if (result == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  if (problem->graph->num_nodes > 0 && device == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PIN);
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  seen = dnnmem__place_cost_layout(&s, problem->graph->num_nodes);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  return dnnmem__place_eval(problem, model, NULL, device, 0, seen, &result->time, &result->conversions, e);
}

DNNMEM_DEF dnnmem_result dnnmem_place_cost(const dnnmem_place_problem *problem, const dnnmem_place_options *options,
                                           const uint8_t *device, dnnmem_place_result *result, void *scratch,
                                           size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__place_cost(problem, options, device, result, scratch, scratch_bytes, &e));
}

typedef struct dnnmem__place_work {
  int32_t *out_offsets;  /* consumers CSR */
  int32_t *out_ids;
  int32_t *flow_id;      /* free op -> network node; pinned: 0 (CPU) / 1 (ACC) */
  int64_t *cost_cpu;     /* per op: cost if on the CPU (time + conversions) */
  int64_t *cost_acc;
  uint8_t *forced;       /* DNNMEM_PLACE_ANY / CPU / ACC */
  /* one region, each phase's arrays from its start (fewer fresh pages) */
  unsigned char *phase_mem;
  size_t phase_bytes;
  int32_t *order;        /* 0. the cycle check: a topological order */
  unsigned char *topo;   /*    dnnmem_graph_topo_order's scratch */
  size_t topo_bytes;
  int64_t *label_cost;   /* 1. per value: the problem as a labeling (part 9) */
  int32_t *label_output, *label_start;
  int32_t *seen;         /* 2. dedupe stamps (per edge: while building too) */
  int32_t *part;         /*    union-find over network nodes: the parts */
  unsigned char *flow_mem; /* after it: per edge the network, per value the labeling network's scratch */
  size_t flow_bytes, net_bytes, label_bytes;
} dnnmem__place_work;

/* Network bounds: S, T, free ops, two auxiliary nodes per value; one
   terminal arc per op, two arcs per value plus two per input entry. */
static int dnnmem__place_bounds(int32_t n, int32_t e, int32_t *max_nodes, int32_t *max_arcs) {
  int64_t nodes = 3 * (int64_t)n + 2, arcs = 3 * (int64_t)n + 2 * (int64_t)e;
  if (nodes > DNNMEM__I32_MAX / 2 - 1 || arcs > DNNMEM__I32_MAX / 2 - 1) return 0;
  *max_nodes = (int32_t)nodes;
  *max_arcs = (int32_t)arcs;
  return 1;
}

/* The arrays of one phase (0, 1, 2 as in dnnmem__place_work). */
static void dnnmem__place_phase(dnnmem__scratch *s, int32_t n, int32_t max_nodes, int phase, dnnmem__place_work *w) {
  if (phase == 0) {
    w->order = DNNMEM__TAKE(s, int32_t, n);
    w->topo = DNNMEM__TAKE(s, unsigned char, w->topo_bytes);
  } else if (phase == 1) {
    w->label_cost = DNNMEM__TAKE(s, int64_t, 2 * (size_t)n);
    w->label_output = DNNMEM__TAKE(s, int32_t, n);
    w->label_start = DNNMEM__TAKE(s, int32_t, n);
  } else {
    w->seen = DNNMEM__TAKE(s, int32_t, n);
    w->part = DNNMEM__TAKE(s, int32_t, max_nodes);
  }
}

/* The per-value model is a labeling with two labels (0 = CPU, 1 = ACC):
   its network is part 9's; the per-edge model builds its own here. Either
   model's network fits the same region. */
static dnnmem_result dnnmem__place_layout(dnnmem__scratch *s, const dnnmem_graph *graph, dnnmem__place_work *w) {
  int32_t n = graph->num_nodes, e = n > 0 ? graph->in_offsets[n] : 0, max_nodes, max_arcs;
  int64_t label_nodes = 2 + (int64_t)n + (int64_t)e;
  dnnmem__scratch sub;
  dnnmem_result r;
  size_t bytes;
  int phase;
  DNNMEM_MEMSET(w, 0, sizeof(*w));
  if (!dnnmem__place_bounds(n, e, &max_nodes, &max_arcs)) return DNNMEM_ERR_TOO_MANY;
  if ((r = dnnmem__topo_order_bytes(n, e, &w->topo_bytes)) != DNNMEM_OK) return r;
  if ((r = dnnmem__label_network_bytes(n, e, 2, &w->label_bytes)) != DNNMEM_OK) return r;
  if ((r = dnnmem_flow_scratch_size(max_nodes, max_arcs, &w->flow_bytes)) != DNNMEM_OK) return r;
  w->net_bytes = w->label_bytes > w->flow_bytes ? w->label_bytes : w->flow_bytes;
  if (label_nodes > max_nodes) max_nodes = (int32_t)label_nodes; /* the parts' union-find */
  for (phase = 0; phase < 3; phase++) {
    dnnmem__scratch_begin(&sub, NULL, 0);
    dnnmem__place_phase(&sub, n, max_nodes, phase, w);
    if ((r = dnnmem__scratch_end(&sub, &bytes)) != DNNMEM_OK) return r;
    if (bytes > w->phase_bytes) w->phase_bytes = bytes;
  }
  w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->out_ids = DNNMEM__TAKE(s, int32_t, e);
  w->flow_id = DNNMEM__TAKE(s, int32_t, n);
  w->cost_cpu = DNNMEM__TAKE(s, int64_t, n);
  w->cost_acc = DNNMEM__TAKE(s, int64_t, n);
  w->forced = DNNMEM__TAKE(s, uint8_t, n);
  w->phase_mem = DNNMEM__TAKE(s, unsigned char, w->phase_bytes);
  w->flow_mem = DNNMEM__TAKE(s, unsigned char, w->net_bytes);
  for (phase = 0; phase < 3 && w->phase_mem != NULL; phase++) {
    dnnmem__scratch_begin(&sub, w->phase_mem, w->phase_bytes);
    dnnmem__place_phase(&sub, n, max_nodes, phase, w);
    r = dnnmem__scratch_end(&sub, NULL);
    DNNMEM_ASSERT(r == DNNMEM_OK); /* phase_bytes: the largest phase, measured above */
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_place_solve_scratch_size(const dnnmem_place_problem *problem,
                                                         const dnnmem_place_options *options,
                                                         size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__place_work w;
  dnnmem_result r;
  int32_t n, e;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__place_counts(problem, options, &n, &e)) != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&s, NULL, 0);
  r = dnnmem__place_layout(&s, problem->graph, &w);
  if (r != DNNMEM_OK) return r;
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_place_network_scratch_size(const dnnmem_place_problem *problem,
                                                           const dnnmem_place_options *options,
                                                           size_t *out_bytes) {
  return dnnmem_place_solve_scratch_size(problem, options, out_bytes);
}

/* Builds the network twice with the same code: first only counting nodes
   and arcs (flow == NULL), then adding them. */
typedef struct dnnmem__place_net {
  const dnnmem_place_problem *p;
  dnnmem__place_work *w;
  dnnmem_flow *flow; /* NULL while counting */
  int32_t num_nodes, num_arcs;
  int64_t constant, infinite;
} dnnmem__place_net;

#define DNNMEM__PLACE_S 0
#define DNNMEM__PLACE_T 1

static int32_t dnnmem__place_find(int32_t *part, int32_t v) {
  while (part[v] != v) {
    part[v] = part[part[v]];
    v = part[v];
  }
  return v;
}

static void dnnmem__place_union(int32_t *part, int32_t a, int32_t b) {
  a = dnnmem__place_find(part, a);
  b = dnnmem__place_find(part, b);
  if (a != b) part[a > b ? a : b] = a < b ? a : b; /* smaller root: deterministic */
}

static void dnnmem__place_arc(dnnmem__place_net *net, int32_t from, int32_t to, int64_t cap,
                              int64_t rcap) {
  if (cap == 0 && rcap == 0) return;
  net->num_arcs++;
  if (net->flow != NULL) {
    dnnmem_result r = dnnmem_flow_add_arc(net->flow, from, to, cap, rcap, NULL);
    DNNMEM_ASSERT(r == DNNMEM_OK);
    (void)r;
  }
}

/* The per-edge model (onnx-mlir's cost graph): xfer of u for each distinct
   consumer pair on different devices, plus outputs left on the accelerator. */
static void dnnmem__place_edges(dnnmem__place_net *net, int32_t u) {
  const dnnmem_place_problem *p = net->p;
  dnnmem__place_work *w = net->w;
  int32_t k;
  int64_t x = p->xfer[u];
  uint8_t fu = w->forced[u];
  if (p->is_output && p->is_output[u]) {
    if (fu == DNNMEM_PLACE_ANY) w->cost_acc[u] += x;
    else if (fu == DNNMEM_PLACE_ACC) net->constant += x;
  }
  for (k = w->out_offsets[u]; k < w->out_offsets[u + 1]; k++) {
    int32_t c = w->out_ids[k];
    uint8_t fc = w->forced[c];
    if (w->seen[c] == u) continue;
    w->seen[c] = u;
    if (fu == DNNMEM_PLACE_ANY && fc == DNNMEM_PLACE_ANY) {
      dnnmem__place_arc(net, w->flow_id[u], w->flow_id[c], x, x);
    } else if (fu == DNNMEM_PLACE_ANY) {
      if (fc == DNNMEM_PLACE_CPU) w->cost_acc[u] += x;
      else w->cost_cpu[u] += x;
    } else if (fc == DNNMEM_PLACE_ANY) {
      if (fu == DNNMEM_PLACE_CPU) w->cost_acc[c] += x;
      else w->cost_cpu[c] += x;
    } else if (fu != fc) {
      net->constant += x;
    }
  }
}

/* One pass of the per-edge network: counting (net->flow NULL) or building. */
static void dnnmem__place_pass(dnnmem__place_net *net, int num_free) {
  const dnnmem_place_problem *p = net->p;
  dnnmem__place_work *w = net->w;
  int32_t n = p->graph->num_nodes, v;
  net->num_nodes = 2 + num_free;
  net->num_arcs = 0;
  net->constant = 0;
  for (v = 0; v < n; v++) {
    w->seen[v] = DNNMEM__I32_MAX; /* no value id */
    w->cost_cpu[v] = w->forced[v] == DNNMEM_PLACE_ACC ? 0 : p->cpu_time[v];
    w->cost_acc[v] = w->forced[v] == DNNMEM_PLACE_CPU ? 0 : p->acc_time[v];
  }
  for (v = 0; v < n; v++) dnnmem__place_edges(net, v);
  for (v = 0; v < n; v++) {
    int64_t c = w->cost_cpu[v], a = w->cost_acc[v];
    if (w->forced[v] == DNNMEM_PLACE_CPU) net->constant += c;
    else if (w->forced[v] == DNNMEM_PLACE_ACC) net->constant += a;
    else {
      net->constant += c < a ? c : a;
      if (c > a) dnnmem__place_arc(net, w->flow_id[v], DNNMEM__PLACE_T, c - a, 0);
      else if (a > c) dnnmem__place_arc(net, DNNMEM__PLACE_S, w->flow_id[v], a - c, 0);
    }
  }
}

/* Validates, carves the scratch and builds the network into *flow. */
static dnnmem_result dnnmem__place_build(const dnnmem_place_problem *problem,
                                         const dnnmem_place_options *options, dnnmem__place_work *wp,
                                         dnnmem__place_net *netp, dnnmem_flow *flowp,
                                         int32_t *out_num_free, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  dnnmem__scratch s;
  dnnmem__place_work w;
  dnnmem__place_net net;
  dnnmem_flow flow;
  dnnmem_place_model model;
  dnnmem_flow_algo algo;
  dnnmem_result r;
  dnnmem_result r_layout;
  int64_t total;
  int32_t n, v, num_free = 0, value_arcs = 0;
  if ((r = dnnmem__place_graph(problem, e)) != DNNMEM_OK) return r;
  /* carved first, so that validation fills forced; its errors come after
     the problem's, as always */
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  if ((r_layout = dnnmem__place_layout(&s, problem->graph, &w)) == DNNMEM_OK) r_layout = dnnmem__scratch_end(&s, NULL);
  if ((r = dnnmem__place_validate(problem, &total, r_layout == DNNMEM_OK ? w.forced : NULL, e)) != DNNMEM_OK) return r;
  if ((r = dnnmem__place_options(options, &model, &algo)) != DNNMEM_OK)
    return dnnmem__fail(e, r, -1, DNNMEM_FIELD_OPTIONS);
  n = problem->graph->num_nodes;
  if (total == DNNMEM__I64_MAX) /* no room for "infinite" */
    return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, -1, DNNMEM_FIELD_TIME);
  if (r_layout != DNNMEM_OK) return r_layout;
  /* a cycle? (none when every input precedes its node, the usual numbering) */
  if (n > 0 && !dnnmem_graph_is_topological(problem->graph) &&
      (r = dnnmem_graph_topo_order(problem->graph, w.order, w.topo, w.topo_bytes, e)) != DNNMEM_OK)
    return r;
  for (v = 0; v < n && model == DNNMEM_PLACE_PER_VALUE; v++) { /* the labeling below: a pin is the other device unsupported */
    uint8_t forced = w.forced[v];
    w.label_cost[2 * v] = forced == DNNMEM_PLACE_ACC ? DNNMEM_LABEL_UNSUPPORTED : problem->cpu_time[v];
    w.label_cost[2 * v + 1] = forced == DNNMEM_PLACE_CPU ? DNNMEM_LABEL_UNSUPPORTED : problem->acc_time[v];
    w.label_output[v] = problem->is_output && problem->is_output[v] ? 0 : DNNMEM_LABEL_FREE;
    w.label_start[v] = forced == DNNMEM_PLACE_ACC ? 1 : 0;
  }
  for (v = 0; v < n && model != DNNMEM_PLACE_PER_VALUE; v++) /* the labeling numbers its own the same way */
    w.flow_id[v] = w.forced[v] == DNNMEM_PLACE_CPU ? DNNMEM__PLACE_S : w.forced[v] == DNNMEM_PLACE_ACC ? DNNMEM__PLACE_T : 2 + num_free++;
  net.p = problem;
  net.w = &w;
  net.flow = NULL;
  net.infinite = total + 1; /* more than every finite cut */
  if (model == DNNMEM_PLACE_PER_VALUE) {
    /* a labeling with labels 0 = CPU, 1 = ACC; its network is the move
       from "everything free on the CPU" to the accelerator (part 9) */
    static const int64_t swap_rate[4] = {0, 1, 1, 0}; /* xfer either way */
    dnnmem_label_problem lp;
    dnnmem_label_network_result lr;
    DNNMEM_MEMSET(&lp, 0, sizeof(lp));
    lp.graph = problem->graph;
    lp.num_labels = 2;
    lp.node_cost = w.label_cost;
    lp.convert_size = problem->xfer;
    lp.convert_rate = swap_rate;
    lp.output_label = w.label_output;
    /* validated above (total bounds every cut: each value converts once) */
    r = dnnmem__label_network(&lp, NULL, w.label_start, 1, &flow, w.flow_id, &lr, w.flow_mem, w.label_bytes, total,
                              &value_arcs, e);
    if (r != DNNMEM_OK) return r;
    DNNMEM_ASSERT(lr.approximated == 0);
    num_free = lr.num_free; /* flow_id: S, T, or 2.. for free ops in id order */
    net.constant = lr.constant;
    net.num_nodes = flow.num_nodes;
    net.num_arcs = flow.num_arcs;
  } else {
    dnnmem__graph_consumers(problem->graph, w.out_offsets, w.out_ids); /* the labeling has its own */
    dnnmem__place_pass(&net, num_free);
    r = dnnmem_flow_init(&flow, net.num_nodes, net.num_arcs, w.flow_mem, w.flow_bytes);
    DNNMEM_ASSERT(r == DNNMEM_OK); /* the count is within dnnmem__place_bounds, which sized flow_bytes */
    net.flow = &flow;
    dnnmem__place_pass(&net, num_free);
    DNNMEM_ASSERT(flow.num_arcs == net.num_arcs);
    value_arcs = net.num_arcs;
  }
  /* the parts: free ops joined by arcs (the labeling's unaries come last) */
  for (v = 0; v < net.num_nodes; v++) w.part[v] = v;
  for (v = 0; v < value_arcs; v++) {
    int32_t from = flow.input[v].from, to = flow.input[v].to;
    if (from >= 2 && to >= 2) dnnmem__place_union(w.part, from, to);
  }
  *wp = w;
  *netp = net;
  netp->w = wp;
  netp->flow = flowp;
  *flowp = flow;
  *out_num_free = num_free;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_place_network(const dnnmem_place_problem *problem,
                                              const dnnmem_place_options *options,
                                              dnnmem_flow *out_flow, dnnmem_place_result *result,
                                              void *scratch, size_t scratch_bytes) {
  dnnmem__place_work w;
  dnnmem__place_net net;
  dnnmem_flow flow;
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  int32_t num_free;
  dnnmem_result r;
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  if (out_flow == NULL) r = dnnmem__fail(&e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  else r = dnnmem__place_build(problem, options, &w, &net, &flow, &num_free, scratch, scratch_bytes, &e);
  if (r == DNNMEM_OK) {
    *out_flow = flow;
    result->time = net.constant;
    result->num_free = num_free;
    result->flow_nodes = net.num_nodes;
    result->flow_arcs = net.num_arcs;
  }
  return dnnmem__report(&result->error, &e, r);
}

static dnnmem_result dnnmem__place_solve(const dnnmem_place_problem *problem,
                                         const dnnmem_place_options *options, uint8_t *device,
                                         dnnmem_place_result *result, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  dnnmem__place_work w;
  dnnmem__place_net net;
  dnnmem_place_result res;
  dnnmem_flow flow;
  dnnmem_flow_options flow_options;
  dnnmem_place_model model;
  dnnmem_result r;
  int64_t cut;
  int32_t n, v, num_free = 0;
  if (problem == NULL || problem->graph == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  DNNMEM_MEMSET(&flow_options, 0, sizeof(flow_options));
  flow_options.cut_only = 1; /* the sides are the answer */
  if ((r = dnnmem__place_options(options, &model, &flow_options.algo)) != DNNMEM_OK)
    return dnnmem__fail(e, r, -1, DNNMEM_FIELD_OPTIONS);
  n = problem->graph->num_nodes;
  if (result == NULL || (n > 0 && device == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  r = dnnmem__place_build(problem, options, &w, &net, &flow, &num_free, scratch, scratch_bytes, e);
  if (r != DNNMEM_OK) return r;
  r = dnnmem_flow_solve(&flow, DNNMEM__PLACE_S, DNNMEM__PLACE_T, &flow_options, NULL);
  if (r != DNNMEM_OK) return r;
  cut = flow.value;
  DNNMEM_MEMSET(&res, 0, sizeof(res));
  for (v = 0; v < n; v++) { /* a pinned op's flow_id is S or T: its side is its device */
    device[v] = (uint8_t)(DNNMEM_PLACE_ACC - flow.source_side[w.flow_id[v]]);
    res.num_acc += device[v] - DNNMEM_PLACE_CPU;
  }
  res.num_cpu = n - res.num_acc;
  /* a part's root is its smallest node, a free op (an auxiliary node
     comes after them and always has an arc to one) */
  for (v = 2; v < 2 + num_free; v++) res.num_parts += w.part[v] == v;
  {
    int64_t time[4];
    int32_t conversions[4];
    r = dnnmem__place_eval(problem, model, w.forced, device, 1, w.seen, time, conversions, NULL);
    if (r != DNNMEM_OK) return r;
    res.time = time[0];
    res.conversions = conversions[0];
    res.all_acc_time = time[1];
    res.greedy_time = time[2];
    res.all_cpu_time = time[3];
  }
  DNNMEM_ASSERT(res.time == net.constant + cut); /* every cut is an assignment */
  res.cut = cut;
  res.num_free = num_free;
  res.flow_nodes = net.num_nodes;
  res.flow_arcs = net.num_arcs;
  *result = res;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_place_solve(const dnnmem_place_problem *problem,
                                            const dnnmem_place_options *options,
                                            uint8_t *device, dnnmem_place_result *result,
                                            void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__place_solve(problem, options, device, result, scratch, scratch_bytes, &e));
}


#endif /* DNNMEM_NO_PLACE */

/* ==== 9. Labeling (dnnmem_label_*) ======================================= */

#ifndef DNNMEM_NO_LABEL

/* ---- labeling: costs, views, validation --------------------------------- */

static const char dnnmem__label_algo_names[DNNMEM_LABEL_ALGO_COUNT][DNNMEM__NAME_BYTES] = {"auto", "exact",
                                                                              "expansion"};
static const char dnnmem__label_stop_names[DNNMEM_LABEL_STOP_COUNT][DNNMEM__NAME_BYTES] = {"none", "proved",
                                                                              "nodes", "time"};

DNNMEM__ENUM_NAMES(dnnmem_label_algo, dnnmem__label_algo_names, DNNMEM_LABEL_ALGO_COUNT)

DNNMEM__ENUM_NAMES(dnnmem_label_stop, dnnmem__label_stop_names, DNNMEM_LABEL_STOP_COUNT)

/* The problem's own costs (validated input). */
/* The network builders call these once or twice per value and consumer:
   inlined, the plain view (no merged labels) costs no calls. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__OPTIMIZE_SIZE__)
#define DNNMEM__LABEL_INLINE __inline__ __attribute__((always_inline))
#else
#define DNNMEM__LABEL_INLINE
#endif

static DNNMEM__LABEL_INLINE int64_t dnnmem__label_node_cost(const dnnmem_label_problem *p, int32_t v, int32_t l) {
  int32_t pin = p->pin ? p->pin[v] : DNNMEM_LABEL_FREE;
  if (pin >= 0 && pin != l) return DNNMEM_LABEL_UNSUPPORTED;
  return p->node_cost[(size_t)v * (size_t)p->num_labels + (size_t)l];
}

static DNNMEM__LABEL_INLINE int64_t dnnmem__label_conversion(const dnnmem_label_problem *p, int32_t u, int32_t a,
                                                             int32_t b) {
  size_t k = (size_t)p->num_labels, ab = (size_t)a * k + (size_t)b;
  int64_t c = 0;
  if (a == b) return 0;
  if (p->convert) return p->convert[(size_t)u * k * k + ab];
  if (p->convert_rate) c = p->convert_rate[ab] * (p->convert_size ? p->convert_size[u] : 1);
  if (p->convert_latency) c += p->convert_latency[ab];
  return c;
}

/* A view of the problem: its own labels, or (group != NULL) a bipartition
   of them merged into two labels, a node costing its cheapest label of a
   side and a conversion its cheapest pair across: the lower bound's
   relaxation. Every labeling maps to a merged one that costs no more. */
typedef struct dnnmem__label_view {
  const dnnmem_label_problem *p;
  int32_t k;            /* labels of the view */
  const uint8_t *group; /* NULL, or the side (0/1) of each problem label */
} dnnmem__label_view;

static int64_t dnnmem__label_theta_merged(const dnnmem__label_view *w, int32_t v, int32_t l) {
  int64_t best = DNNMEM_LABEL_UNSUPPORTED, t;
  int32_t j;
  for (j = 0; j < w->p->num_labels; j++)
    if (w->group[j] == l && (t = dnnmem__label_node_cost(w->p, v, j)) >= 0 && (best < 0 || t < best))
      best = t;
  return best;
}

static DNNMEM__LABEL_INLINE int64_t dnnmem__label_theta(const dnnmem__label_view *w, int32_t v, int32_t l) {
  return w->group == NULL ? dnnmem__label_node_cost(w->p, v, l) : dnnmem__label_theta_merged(w, v, l);
}

static int64_t dnnmem__label_conv_merged(const dnnmem__label_view *w, int32_t u, int32_t a, int32_t b) {
  int64_t best = -1, c;
  int32_t i, j, k = w->p->num_labels;
  for (i = 0; i < k; i++)
    for (j = 0; j < k; j++)
      if (w->group[i] == a && w->group[j] == b &&
          ((c = dnnmem__label_conversion(w->p, u, i, j)) < best || best < 0))
        best = c;
  return best < 0 ? 0 : best;
}

static DNNMEM__LABEL_INLINE int64_t dnnmem__label_conv(const dnnmem__label_view *w, int32_t u, int32_t a, int32_t b) {
  if (a == b) return 0;
  return w->group == NULL ? dnnmem__label_conversion(w->p, u, a, b) : dnnmem__label_conv_merged(w, u, a, b);
}

static int32_t dnnmem__label_output(const dnnmem__label_view *w, int32_t v) {
  int32_t o = w->p->output_label ? w->p->output_label[v] : DNNMEM_LABEL_FREE;
  return o < 0 || w->group == NULL ? o : (int32_t)w->group[o];
}

/* Validates everything but the scratch; *out_total bounds every cost
   (and every cut of every network built from the problem). */
#define DNNMEM__LABEL_FRONT 4 /* conversion pairs validation tries per node */

static dnnmem_result dnnmem__label_validate(const dnnmem_label_problem *p, int64_t *out_total, dnnmem_error *e) {
  int64_t total = 0, max_rate = 0, max_latency = 0, safe_size;
  int64_t front_rate[DNNMEM__LABEL_FRONT], front_latency[DNNMEM__LABEL_FRONT];
  int32_t n, k, v, a, b, front = 0;
  /* dnnmem__label_counts, run first by the only caller, checked p, the graph and k */
  DNNMEM_ASSERT(p != NULL && p->num_labels >= 1 && p->num_labels <= DNNMEM_LABEL_MAX_LABELS);
  n = p->graph->num_nodes;
  k = p->num_labels;
  if (n > 0 && p->node_cost == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COST);
  for (a = 0; a < k * k; a++) {
    if ((p->convert_rate && p->convert_rate[a] < 0) || (p->convert_latency && p->convert_latency[a] < 0))
      return dnnmem__fail2(e, DNNMEM_ERR_NEGATIVE, -1, a, DNNMEM_FIELD_COST); /* other: the label pair */
    if (p->convert_rate && p->convert_rate[a] > max_rate) max_rate = p->convert_rate[a];
    if (p->convert_latency && p->convert_latency[a] > max_latency) max_latency = p->convert_latency[a];
  }
  /* sizes up to this convert without overflow at every pair: no checks */
  safe_size = max_rate > 0 ? (DNNMEM__I64_MAX - max_latency) / max_rate : DNNMEM__I64_MAX;
  /* a pair whose rate and latency another pair's both reach never converts
     more (sizes are >= 0), nor overflows first: the rest, when few, is
     all each node has to try (placement's two labels: one pair) */
  if (p->convert == NULL)
    for (a = 0; a < k * k && front >= 0; a++) {
      int64_t rate = p->convert_rate ? p->convert_rate[a] : 0, latency = p->convert_latency ? p->convert_latency[a] : 0;
      int32_t i, kept = 0;
      if (a / k == a % k || (rate == 0 && latency == 0)) continue;
      for (i = 0; i < front && (front_rate[i] < rate || front_latency[i] < latency); i++) {
      }
      if (i < front) continue; /* dominated */
      for (i = 0; i < front; i++)
        if (front_rate[i] > rate || front_latency[i] > latency) {
          front_rate[kept] = front_rate[i];
          front_latency[kept++] = front_latency[i];
        }
      if (kept == DNNMEM__LABEL_FRONT) front = -1; /* too many: every pair per node */
      else {
        front_rate[kept] = rate;
        front_latency[kept] = latency;
        front = kept + 1;
      }
    }
  for (v = 0; v < n; v++) {
    int32_t pin = p->pin ? p->pin[v] : DNNMEM_LABEL_FREE;
    int32_t out = p->output_label ? p->output_label[v] : DNNMEM_LABEL_FREE;
    int64_t most = 0, conv = 0, c;
    int allowed = 0;
    if (pin < DNNMEM_LABEL_FREE || pin >= k) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, v, DNNMEM_FIELD_PIN);
    if (out < DNNMEM_LABEL_FREE || out >= k) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, v, DNNMEM_FIELD_OUTPUT);
    for (a = 0; a < k; a++) {
      int64_t t = p->node_cost[(size_t)v * (size_t)k + (size_t)a];
      if (t < 0 && t != DNNMEM_LABEL_UNSUPPORTED) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_COST);
      if (t >= 0 && (pin < 0 || pin == a)) allowed = 1;
      if (t > most) most = t;
    }
    if (!allowed) return dnnmem__fail(e, DNNMEM_ERR_LABEL_NONE_ALLOWED, v, pin < 0 ? DNNMEM_FIELD_COST : DNNMEM_FIELD_PIN);
    if (p->convert) {
      for (a = 0; a < k * k; a++) {
        c = p->convert[(size_t)v * (size_t)k * (size_t)k + (size_t)a];
        if (c < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_COST);
        if (a / k != a % k && c > conv) conv = c;
      }
    } else {
      int64_t size = p->convert_size ? p->convert_size[v] : 1;
      if (size < 0) return dnnmem__fail(e, DNNMEM_ERR_NEGATIVE, v, DNNMEM_FIELD_SIZE);
      for (a = 0; a < front; a++) {
        if (size <= safe_size) c = front_rate[a] * size + front_latency[a]; /* fits */
        else if (dnnmem__mul_overflows(front_rate[a], size, &c) || dnnmem__add_overflows(c, front_latency[a], &c))
          return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, v, DNNMEM_FIELD_SIZE);
        if (c > conv) conv = c;
      }
      /* front < 0: five pairs none of which another reaches in both, so
         rates and latencies both vary: both arrays are given */
      DNNMEM_ASSERT(front >= 0 || (p->convert_rate && p->convert_latency));
      for (a = 0; a < k && front < 0; a++)
        for (b = 0; b < k; b++) {
          int64_t rate = p->convert_rate[a * k + b], latency = p->convert_latency[a * k + b];
          if (a == b) continue;
          if (size <= safe_size) c = rate * size + latency; /* fits */
          else if (dnnmem__mul_overflows(rate, size, &c) || dnnmem__add_overflows(c, latency, &c))
            return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, v, DNNMEM_FIELD_SIZE);
          if (c > conv) conv = c;
        }
    }
    if ((k > 2 && dnnmem__mul_overflows(conv, (int64_t)(k - 1), &conv)) || dnnmem__add_overflows(total, most, &total) ||
        dnnmem__add_overflows(total, conv, &total))
      return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, v, DNNMEM_FIELD_COST);
  }
  if (total == DNNMEM__I64_MAX) /* no room for "infinite" */
    return dnnmem__fail(e, DNNMEM_ERR_OVERFLOW, -1, DNNMEM_FIELD_COST);
  *out_total = total;
  return DNNMEM_OK;
}

/* ---- labeling: scratch --------------------------------------------------- */

typedef struct dnnmem__label_work {
  int32_t *out_offsets, *out_ids;  /* consumers CSR */
  int32_t *x, *trial, *best;       /* labelings: current, a move's, the best */
  int32_t *node;                   /* network node of each op */
  int32_t *seen;                   /* consumer stamps */
  int64_t *u0, *u1;                /* movable node i: cost on the source / sink side */
  int32_t *fstamp, *gstamp;        /* per label: certain destination / free group */
  int32_t *gcount, *gone, *gaux;   /* per label: group size, a member, its node */
  int32_t *flist, *glist;          /* labels touched by the current value */
  uint8_t *group;                  /* per label: side of a bipartition */
  int32_t *bb_order, *bb_tried, *bb_y; /* branch and bound */
  double *dtheta, *dmsg;           /* dual: reparametrised unaries [V k], messages [(V + E) k] */
  int64_t *itheta;                 /* dual: the bound's integer unaries [V k] */
  uint8_t *deliv;                  /* decoding: value u delivered on label l [V k] */
  int32_t *dstamp, *fvar, *finc;   /* dual: consumer stamps [V]; a factor's consumers, incidences [E] */
  int32_t *llist, *lmap;           /* dual: a factor's local labels, and back [k] */
  double *dcons, *dbest, *dmc, *dopn, *dmm, *dmmc, *dld; /* dual: per label subset / label */
  int64_t *icons, *imc, *iopn, *ild;
  unsigned char *flow_mem;
  size_t flow_bytes;
} dnnmem__label_work;

/* Bounds of a move's network: S, T, every op, an auxiliary node per
   consumer entry at most; a terminal arc per op, at most 3 arcs per
   consumer entry plus one per value. */
static dnnmem_result dnnmem__label_bounds(int32_t n, int32_t e, int32_t *max_nodes, int32_t *max_arcs) {
  int64_t nodes = 2 + (int64_t)n + (int64_t)e, arcs = 2 * (int64_t)n + 3 * (int64_t)e;
  if (nodes > DNNMEM__I32_MAX / 2 - 1 || arcs > DNNMEM__I32_MAX / 2 - 1) return DNNMEM_ERR_TOO_MANY;
  *max_nodes = (int32_t)nodes;
  *max_arcs = (int32_t)arcs;
  return DNNMEM_OK;
}

/* A mode's work arrays (all but the flow's scratch). */
static void dnnmem__label_arrays(dnnmem__scratch *s, int32_t n, int32_t e, int32_t k, int mode,
                                 dnnmem__label_work *w) {
  w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)n + 1);
  w->out_ids = DNNMEM__TAKE(s, int32_t, e);
  w->fstamp = DNNMEM__TAKE(s, int32_t, k);
  if (mode == 0) return;
  w->node = DNNMEM__TAKE(s, int32_t, n);
  w->seen = DNNMEM__TAKE(s, int32_t, n);
  w->u0 = DNNMEM__TAKE(s, int64_t, n);
  w->u1 = DNNMEM__TAKE(s, int64_t, n);
  w->gstamp = DNNMEM__TAKE(s, int32_t, k);
  w->gcount = DNNMEM__TAKE(s, int32_t, k);
  w->gone = DNNMEM__TAKE(s, int32_t, k);
  w->gaux = DNNMEM__TAKE(s, int32_t, k);
  w->flist = DNNMEM__TAKE(s, int32_t, k);
  w->glist = DNNMEM__TAKE(s, int32_t, k);
  w->group = DNNMEM__TAKE(s, uint8_t, k);
  if (mode == 2) {
    w->x = DNNMEM__TAKE(s, int32_t, n);
    w->trial = DNNMEM__TAKE(s, int32_t, n);
    w->best = DNNMEM__TAKE(s, int32_t, n);
    w->bb_order = DNNMEM__TAKE(s, int32_t, n);
    w->bb_tried = DNNMEM__TAKE(s, int32_t, n);
    w->bb_y = DNNMEM__TAKE(s, int32_t, n);
    w->dtheta = DNNMEM__TAKE(s, double, (size_t)n * (size_t)k);
    w->dmsg = DNNMEM__TAKE(s, double, ((size_t)n + (size_t)e) * (size_t)k);
    w->itheta = DNNMEM__TAKE(s, int64_t, (size_t)n * (size_t)k);
    w->deliv = DNNMEM__TAKE(s, uint8_t, (size_t)n * (size_t)k);
    w->dstamp = DNNMEM__TAKE(s, int32_t, n);
    w->fvar = DNNMEM__TAKE(s, int32_t, e);
    w->finc = DNNMEM__TAKE(s, int32_t, e);
    w->llist = DNNMEM__TAKE(s, int32_t, k);
    w->lmap = DNNMEM__TAKE(s, int32_t, k);
    w->dcons = DNNMEM__TAKE(s, double, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->dbest = DNNMEM__TAKE(s, double, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->dmc = DNNMEM__TAKE(s, double, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->dopn = DNNMEM__TAKE(s, double, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->icons = DNNMEM__TAKE(s, int64_t, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->imc = DNNMEM__TAKE(s, int64_t, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->iopn = DNNMEM__TAKE(s, int64_t, (size_t)1 << DNNMEM_LABEL_FACTOR_BITS);
    w->dmm = DNNMEM__TAKE(s, double, k);
    w->dmmc = DNNMEM__TAKE(s, double, k);
    w->dld = DNNMEM__TAKE(s, double, k);
    w->ild = DNNMEM__TAKE(s, int64_t, k);
  }
}

/* mode 0: the cost only (consumers, label stamps); 1: a network; 2: solve.
   A network alone (1): building it writes only the flow's arcs, first in
   the flow's scratch, and the work arrays are dead once it is built: they
   lie after the arcs, on pages a solve touches anyway (fewer fresh pages). */
static dnnmem_result dnnmem__label_layout(dnnmem__scratch *s, int32_t n, int32_t e, int32_t k, int mode,
                                          dnnmem__label_work *w) {
  int32_t max_nodes, max_arcs;
  dnnmem_result r;
  DNNMEM_MEMSET(w, 0, sizeof(*w));
  if (mode != 0) {
    if ((r = dnnmem__label_bounds(n, e, &max_nodes, &max_arcs)) != DNNMEM_OK) return r;
    if ((r = dnnmem_flow_scratch_size(max_nodes, max_arcs, &w->flow_bytes)) != DNNMEM_OK) return r;
  }
  if (mode == 1) {
    size_t arcs_bytes = dnnmem__flow_arcs_bytes(max_arcs), need;
    dnnmem__scratch sub;
    dnnmem__scratch_begin(&sub, NULL, 0);
    dnnmem__label_arrays(&sub, n, e, k, mode, w);
    if ((r = dnnmem__scratch_end(&sub, &need)) != DNNMEM_OK) return r;
    if (arcs_bytes <= w->flow_bytes && need <= w->flow_bytes - arcs_bytes) {
      w->flow_mem = DNNMEM__TAKE(s, unsigned char, w->flow_bytes);
      if (w->flow_mem == NULL) return DNNMEM_OK; /* sizing, or short: the caller's scratch_end says */
      dnnmem__scratch_begin(&sub, w->flow_mem + arcs_bytes, w->flow_bytes - arcs_bytes);
      dnnmem__label_arrays(&sub, n, e, k, mode, w);
      return dnnmem__scratch_end(&sub, NULL);
    }
  }
  dnnmem__label_arrays(s, n, e, k, mode, w);
  if (mode == 0) return DNNMEM_OK;
  w->flow_mem = DNNMEM__TAKE(s, unsigned char, w->flow_bytes);
  return DNNMEM_OK;
}

/* Validates the graph's counts and the options for a scratch size or a call. */
static dnnmem_result dnnmem__label_counts(const dnnmem_label_problem *p, const dnnmem_label_options *o,
                                          int32_t *n, int32_t *e, dnnmem_error *err) {
  dnnmem_result r;
  if (p == NULL) return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_PROBLEM);
  if ((r = dnnmem_graph_check(p->graph, err)) != DNNMEM_OK) return r;
  if (p->num_labels < 1 || p->num_labels > DNNMEM_LABEL_MAX_LABELS)
    return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_COUNT);
  if (o && ((int)o->algo < 0 || o->algo >= DNNMEM_LABEL_ALGO_COUNT))
    return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_ALGO);
  if (o && ((int)o->flow < 0 || o->flow >= DNNMEM_FLOW_ALGO_COUNT || o->node_limit < 0 || o->max_cycles < 0 ||
            o->max_sweeps < 0))
    return dnnmem__fail(err, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OPTIONS);
  *n = p->graph->num_nodes;
  *e = *n > 0 ? p->graph->in_offsets[*n] : 0;
  return DNNMEM_OK;
}

/* A move network's scratch for counts already checked (placement's). */
static dnnmem_result dnnmem__label_network_bytes(int32_t n, int32_t e, int32_t k, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__label_work w;
  dnnmem_result r;
  dnnmem__scratch_begin(&s, NULL, 0);
  if ((r = dnnmem__label_layout(&s, n, e, k, 1, &w)) != DNNMEM_OK) return r;
  return dnnmem__scratch_end(&s, out_bytes);
}

static dnnmem_result dnnmem__label_size(const dnnmem_label_problem *p, const dnnmem_label_options *o,
                                        int mode, size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__label_work w;
  dnnmem_result r;
  int32_t n, e;
  if (out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  if ((r = dnnmem__label_counts(p, o, &n, &e, NULL)) != DNNMEM_OK) return r;
  dnnmem__scratch_begin(&s, NULL, 0);
  if ((r = dnnmem__label_layout(&s, n, e, p->num_labels, mode, &w)) != DNNMEM_OK) return r;
  return dnnmem__scratch_end(&s, out_bytes);
}

/* Carves the scratch of a validated problem and fills the consumers. */
static dnnmem_result dnnmem__label_carve(const dnnmem_label_problem *p, int mode, dnnmem__label_work *w,
                                         void *scratch, size_t scratch_bytes) {
  dnnmem__scratch s;
  dnnmem_result r;
  int32_t n = p->graph->num_nodes, e = n > 0 ? p->graph->in_offsets[n] : 0;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  if ((r = dnnmem__label_layout(&s, n, e, p->num_labels, mode, w)) != DNNMEM_OK) return r;
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  dnnmem__graph_consumers(p->graph, w->out_offsets, w->out_ids);
  return DNNMEM_OK;
}

/* Validates, carves and fills the consumers; *total as validate's. */
static dnnmem_result dnnmem__label_begin(const dnnmem_label_problem *p, const dnnmem_label_options *o,
                                         int mode, dnnmem__label_work *w, int64_t *total, void *scratch,
                                         size_t scratch_bytes, dnnmem_error *err) {
  dnnmem_result r;
  int32_t n, e;
  if ((r = dnnmem__label_counts(p, o, &n, &e, err)) != DNNMEM_OK) return r;
  if ((r = dnnmem__label_validate(p, total, err)) != DNNMEM_OK) return r;
  return dnnmem__label_carve(p, mode, w, scratch, scratch_bytes);
}

/* ---- labeling: the cost ------------------------------------------------- */

/* The cost of a feasible labeling x in view vw (fstamp: k stamps). */
static int64_t dnnmem__label_eval(const dnnmem__label_view *vw, const dnnmem__label_work *w, const int32_t *x) {
  int32_t n = vw->p->graph->num_nodes, u, j, l;
  int64_t total = 0;
  for (l = 0; l < vw->k; l++) w->fstamp[l] = -1;
  for (u = 0; u < n; u++) {
    int32_t a = x[u], o = dnnmem__label_output(vw, u);
    total += dnnmem__label_theta(vw, u, a);
    if (o >= 0 && o != a) {
      w->fstamp[o] = u;
      total += dnnmem__label_conv(vw, u, a, o);
    }
    for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
      int32_t b = x[w->out_ids[j]];
      if (b == a || w->fstamp[b] == u) continue;
      w->fstamp[b] = u;
      total += dnnmem__label_conv(vw, u, a, b);
    }
  }
  return total; /* within int64_t: validation bounded it */
}

DNNMEM_DEF dnnmem_result dnnmem_label_cost_scratch_size(const dnnmem_label_problem *problem,
                                                        size_t *out_bytes) {
  return dnnmem__label_size(problem, NULL, 0, out_bytes);
}

/* Each node's label in range and allowed (the labeling's own rules). */
static dnnmem_result dnnmem__label_check(const dnnmem_label_problem *problem, const int32_t *label, dnnmem_error *e) {
  int32_t v;
  for (v = 0; v < problem->graph->num_nodes; v++) {
    if (label[v] < 0 || label[v] >= problem->num_labels) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, v, DNNMEM_FIELD_OUTPUT);
    if (dnnmem__label_node_cost(problem, v, label[v]) < 0) return dnnmem__fail(e, DNNMEM_ERR_INFEASIBLE, v, DNNMEM_FIELD_OUTPUT);
  }
  return DNNMEM_OK;
}

static dnnmem_result dnnmem__label_cost(const dnnmem_label_problem *problem, const int32_t *label,
                                        int64_t *out_cost, void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__label_work w;
  dnnmem__label_view vw;
  dnnmem_result r;
  int64_t total;
  if ((r = dnnmem__label_begin(problem, NULL, 0, &w, &total, scratch, scratch_bytes, e)) != DNNMEM_OK) return r;
  if (problem->graph->num_nodes > 0 && label == NULL) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  if ((r = dnnmem__label_check(problem, label, e)) != DNNMEM_OK) return r;
  vw.p = problem;
  vw.k = problem->num_labels;
  vw.group = NULL;
  *out_cost = dnnmem__label_eval(&vw, &w, label);
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_label_cost(const dnnmem_label_problem *problem, const int32_t *label,
                                           dnnmem_label_result *result, void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  return dnnmem__report(&result->error, &e,
                        dnnmem__label_cost(problem, label, &result->cost, scratch, scratch_bytes, &e));
}

/* ---- labeling: one expansion move as a min cut --------------------------- */

/* A move's network while it is built. */
typedef struct dnnmem__label_net {
  const dnnmem__label_view *vw;
  dnnmem__label_work *w;
  dnnmem_flow *flow;
  const int32_t *x;
  int32_t alpha, num_nodes, num_arcs, num_free, approximated;
  int64_t constant, infinite;
  int32_t held_from, held_to; /* an arc not yet added (held_from < 0: none) */
  int32_t value_arcs;         /* arcs before the unaries: every arc between two other nodes is one */
  int64_t held_cap;
} dnnmem__label_net;

static DNNMEM__LABEL_INLINE void dnnmem__label_add(dnnmem__label_net *net, int32_t from, int32_t to, int64_t cap, int64_t rcap) {
  dnnmem__flow_append(net->flow, from, to, cap, rcap);
  net->num_arcs++;
}

static DNNMEM__LABEL_INLINE void dnnmem__label_flush(dnnmem__label_net *net) {
  if (net->held_from >= 0) dnnmem__label_add(net, net->held_from, net->held_to, net->held_cap, 0);
  net->held_from = -1;
}

/* Each arc is held until the next: an arc and then its reverse (a value
   with one movable consumer: "u stays, c moves" and "c stays, u moves")
   become one arc pair, the flow's input one arc shorter. */
static DNNMEM__LABEL_INLINE void dnnmem__label_arc(dnnmem__label_net *net, int32_t from, int32_t to, int64_t cap) {
  if (net->held_from == to && net->held_to == from) {
    dnnmem__label_add(net, to, from, net->held_cap, cap);
    net->held_from = -1;
    return;
  }
  dnnmem__label_flush(net);
  net->held_from = from;
  net->held_to = to;
  net->held_cap = cap;
}

/* Pays cap when `from` ends on the source side and `to` on the sink side
   (node 0 = source, 1 = sink): a constant, a movable node's unary cost, or
   an arc. */
static DNNMEM__LABEL_INLINE void dnnmem__label_cut(dnnmem__label_net *net, int32_t from, int32_t to, int64_t cap) {
  int32_t movable_end = 2 + net->num_free;
  if (cap == 0 || from == to || from == 1 || to == 0) return;
  if (from == 0 && to == 1) net->constant += cap;
  else if (from == 0 && to < movable_end) net->w->u1[to - 2] += cap;
  else if (to == 1 && from < movable_end) net->w->u0[from - 2] += cap;
  else dnnmem__label_arc(net, from, to, cap);
}

static int32_t dnnmem__label_aux(dnnmem__label_net *net) { return net->num_nodes++; }

/* The conversions of value u in the move (see the manual): certain
   destinations as unary costs, each group of movable consumers sharing a
   label as "some member stays" (a node or an auxiliary node fed by them),
   alpha as "some movable consumer moves" (likewise). */
static void dnnmem__label_value(dnnmem__label_net *net, int32_t u) {
  const dnnmem__label_view *vw = net->vw;
  dnnmem__label_work *w = net->w;
  const int32_t *x = net->x;
  int32_t alpha = net->alpha, a = x[u], nu = w->node[u], nf = 0, ng = 0, free_count = 0, single = -1;
  int32_t o = dnnmem__label_output(vw, u), j, i, alpha_aux = -1;
  int nu_movable = nu >= 2;
  if (o >= 0 && w->fstamp[o] != u) {
    w->fstamp[o] = u;
    w->flist[nf++] = o;
  }
  for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
    int32_t c = w->out_ids[j], nc = w->node[c], b = x[c];
    if (w->seen[c] == u) continue;
    w->seen[c] = u;
    if (nc < 2) { /* fixed: its label is a certain destination */
      if (w->fstamp[b] != u) {
        w->fstamp[b] = u;
        w->flist[nf++] = b;
      }
      continue;
    }
    free_count++;
    single = c;
    if (w->gstamp[b] != u) {
      w->gstamp[b] = u;
      w->gcount[b] = 0;
      w->glist[ng++] = b;
    }
    w->gcount[b]++;
    w->gone[b] = c;
  }
  for (i = 0; i < nf; i++) {
    int32_t b = w->flist[i];
    if (b == alpha) {
      dnnmem__label_cut(net, nu, 1, dnnmem__label_conv(vw, u, a, alpha));
    } else {
      dnnmem__label_cut(net, nu, 1, dnnmem__label_conv(vw, u, a, b));
      dnnmem__label_cut(net, 0, nu, dnnmem__label_conv(vw, u, alpha, b));
    }
  }
  for (i = 0; i < ng; i++) {
    int32_t b = w->glist[i], z;
    int64_t keep, moved, base, extra = 0;
    w->gaux[b] = -1;
    if (w->fstamp[b] == u) continue; /* b is reached anyway */
    keep = dnnmem__label_conv(vw, u, a, b);
    moved = dnnmem__label_conv(vw, u, alpha, b);
    if (!nu_movable) {
      base = nu == 1 ? moved : keep;
    } else if (moved >= keep) {
      base = keep; /* keep: keep * Z; moved: keep * Z + (moved - keep) * Z */
      extra = moved - keep;
    } else { /* not submodular: (keep - moved) * [u keeps] replaces it (upper bound) */
      base = moved;
      dnnmem__label_cut(net, nu, 1, keep - moved);
      net->approximated++;
    }
    if (base == 0 && extra == 0) continue;
    if (w->gcount[b] == 1) {
      z = w->node[w->gone[b]];
    } else {
      z = dnnmem__label_aux(net);
      w->gaux[b] = z;
    }
    dnnmem__label_cut(net, z, 1, base);  /* Z: some member stays on b */
    dnnmem__label_cut(net, z, nu, extra);
  }
  if (free_count > 0 && a != alpha && w->fstamp[alpha] != u) {
    int64_t c = dnnmem__label_conv(vw, u, a, alpha);
    if (c > 0) {
      int32_t y = free_count == 1 ? w->node[single] : (alpha_aux = dnnmem__label_aux(net));
      dnnmem__label_cut(net, nu, y, c); /* u stays and some consumer moves */
    }
  }
  if (free_count < 2) return;
  for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
    int32_t c = w->out_ids[j], nc = w->node[c], b;
    if (w->seen[c] != u || nc < 2) continue;
    w->seen[c] = -1 - u;
    b = x[c];
    if (w->gaux[b] >= 0) dnnmem__label_arc(net, nc, w->gaux[b], net->infinite);
    if (alpha_aux >= 0) dnnmem__label_arc(net, alpha_aux, nc, net->infinite);
  }
}

/* dnnmem__label_conversion of value u between the two labels of a k = 2
   problem, from label a to 1 - a. */
static DNNMEM__LABEL_INLINE int64_t dnnmem__label_conv2(const dnnmem_label_problem *p, int32_t u, int32_t a) {
  int32_t ab = 1 + a; /* a * 2 + (1 - a) */
  int64_t c = 0;
  if (p->convert) return p->convert[(size_t)u * 4u + (size_t)ab];
  if (p->convert_rate) c = p->convert_rate[ab] * (p->convert_size ? p->convert_size[u] : 1);
  if (p->convert_latency) c += p->convert_latency[ab];
  return c;
}

/* dnnmem__label_value with two plain labels (placement; a k = 2 solve):
   the same arcs in the same order, without the label lists. Every node
   not on alpha is on the other label, so a fixed consumer's label is its
   node (1: alpha, 0: the other), and the free consumers form one group. */
static void dnnmem__label_value2(dnnmem__label_net *net, int32_t u) {
  const dnnmem__label_view *vw = net->vw;
  dnnmem__label_work *w = net->w;
  int32_t alpha = net->alpha, other = 1 - alpha, nu = w->node[u], o = dnnmem__label_output(vw, u);
  int32_t j, m = 0, single = -1, group_aux = -1, alpha_aux = -1;
  int to_alpha = o == alpha, to_other = o == other;
  int64_t fwd = 0, back = 0; /* converting u from the other label to alpha, and back (what is read) */
  for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
    int32_t c = w->out_ids[j], nc = w->node[c];
    if (w->seen[c] == u) continue;
    w->seen[c] = u;
    if (nc >= 2) m++, single = nc;
    else if (nc == 1) to_alpha = 1;
    else to_other = 1;
  }
  if (m == 0 && !to_alpha && !to_other) return;
  if (nu != 1) fwd = dnnmem__label_conv2(vw->p, u, other);
  if (nu != 0) back = dnnmem__label_conv2(vw->p, u, alpha);
  if (nu == 1) { /* on alpha: back once some consumer stays */
    if (to_other) net->constant += back;
    else if (m > 0 && back > 0) dnnmem__label_cut(net, m == 1 ? single : (group_aux = dnnmem__label_aux(net)), 1, back);
  } else if (nu == 0) { /* kept on the other label: fwd once some consumer moves */
    if (to_alpha) net->constant += fwd;
    else if (m > 0 && fwd > 0) dnnmem__label_cut(net, 0, m == 1 ? single : (alpha_aux = dnnmem__label_aux(net)), fwd);
  } else {
    if (to_alpha) dnnmem__label_cut(net, nu, 1, fwd);
    if (to_other) dnnmem__label_cut(net, 0, nu, back);
    if (m > 0 && !to_other && back > 0) /* u moves and some consumer stays */
      dnnmem__label_cut(net, m == 1 ? single : (group_aux = dnnmem__label_aux(net)), nu, back);
    if (m > 0 && !to_alpha && fwd > 0) /* u stays and some consumer moves */
      dnnmem__label_cut(net, nu, m == 1 ? single : (alpha_aux = dnnmem__label_aux(net)), fwd);
  }
  if (m < 2) return;
  for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
    int32_t c = w->out_ids[j], nc = w->node[c];
    if (w->seen[c] != u || nc < 2) continue;
    w->seen[c] = -1 - u;
    if (group_aux >= 0) dnnmem__label_arc(net, nc, group_aux, net->infinite);
    if (alpha_aux >= 0) dnnmem__label_arc(net, alpha_aux, nc, net->infinite);
  }
}

/* The move's network in one pass: the movable nodes first, then every
   value's conversions and the unaries. */
static void dnnmem__label_pass(dnnmem__label_net *net) {
  const dnnmem__label_view *vw = net->vw;
  dnnmem__label_work *w = net->w;
  int32_t n = vw->p->graph->num_nodes, v, l;
  net->num_free = 0;
  net->num_arcs = 0;
  net->constant = 0;
  net->approximated = 0;
  net->held_from = -1;
  for (v = 0; v < n; v++) {
    int32_t a = net->x[v];
    int64_t keep = dnnmem__label_theta(vw, v, a), moved;
    w->seen[v] = DNNMEM__I32_MAX; /* no value id */
    if (a == net->alpha) {
      w->node[v] = 1;
      net->constant += keep;
    } else if ((moved = dnnmem__label_theta(vw, v, net->alpha)) < 0) {
      w->node[v] = 0;
      net->constant += keep;
    } else {
      w->u0[net->num_free] = keep;
      w->u1[net->num_free] = moved;
      w->node[v] = 2 + net->num_free++;
    }
  }
  net->num_nodes = 2 + net->num_free;
  for (l = 0; l < vw->k; l++) w->fstamp[l] = w->gstamp[l] = -1;
  if (vw->k == 2 && vw->group == NULL)
    for (v = 0; v < n; v++) dnnmem__label_value2(net, v);
  else
    for (v = 0; v < n; v++) dnnmem__label_value(net, v);
  dnnmem__label_flush(net); /* (no unary pairs with it) */
  net->value_arcs = net->num_arcs;
  for (v = 0; v < net->num_free; v++) {
    int64_t c0 = w->u0[v], c1 = w->u1[v];
    net->constant += c0 < c1 ? c0 : c1;
    if (c0 > c1) dnnmem__label_arc(net, 2 + v, 1, c0 - c1);
    else if (c1 > c0) dnnmem__label_arc(net, 0, 2 + v, c1 - c0);
  }
  dnnmem__label_flush(net);
}

/* Builds the move's network into *flow (memory w->flow_mem), sized by the
   bounds: an auxiliary node has two consumer entries or more, so there
   are at most e of them; the network then keeps the nodes its arcs use.
   Cannot fail: dnnmem__label_begin's layout took these bounds and sized
   w->flow_mem for them (dnnmem_flow_scratch_size). */
static void dnnmem__label_build(const dnnmem__label_view *vw, dnnmem__label_work *w, const int32_t *x,
                                int32_t alpha, int64_t infinite, dnnmem_flow *flow, dnnmem__label_net *net) {
  const dnnmem_graph *g = vw->p->graph;
  int32_t max_nodes = 0, max_arcs = 0;
  dnnmem_result r;
  net->vw = vw;
  net->w = w;
  net->x = x;
  net->alpha = alpha;
  net->infinite = infinite;
  r = dnnmem__label_bounds(g->num_nodes, g->num_nodes > 0 ? g->in_offsets[g->num_nodes] : 0, &max_nodes, &max_arcs);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  r = dnnmem_flow_init(flow, max_nodes, max_arcs, w->flow_mem, w->flow_bytes);
  DNNMEM_ASSERT(r == DNNMEM_OK);
  (void)r;
  net->flow = flow;
  dnnmem__label_pass(net);
  DNNMEM_ASSERT(flow->num_arcs == net->num_arcs && net->num_nodes <= max_nodes);
  flow->num_nodes = net->num_nodes; /* no arc names a node past the last one used */
}

/* One move: out = x with the cut's nodes on alpha; *energy = constant + cut
   (>= the cost of out, equal without approximations). */
static dnnmem_result dnnmem__label_move(const dnnmem__label_view *vw, dnnmem__label_work *w, const int32_t *x,
                                        int32_t alpha, int64_t infinite, dnnmem_flow_algo algo, int32_t *out,
                                        int64_t *energy, dnnmem_label_result *res) {
  dnnmem__label_net net;
  dnnmem_flow flow;
  dnnmem_flow_options fo;
  dnnmem_result r;
  int32_t v, n = vw->p->graph->num_nodes;
  dnnmem__label_build(vw, w, x, alpha, infinite, &flow, &net);
  DNNMEM_MEMSET(&fo, 0, sizeof(fo));
  fo.algo = algo;
  fo.cut_only = 1; /* the move reads the sides only */
  if ((r = dnnmem_flow_solve(&flow, 0, 1, &fo, NULL)) != DNNMEM_OK) return r;
  for (v = 0; v < n; v++)
    out[v] = w->node[v] >= 2 && !dnnmem_flow_source_side(&flow, w->node[v]) ? alpha : x[v];
  *energy = net.constant + flow.value;
  res->moves++;
  res->approximated += net.approximated;
  if (net.num_nodes > res->flow_nodes) res->flow_nodes = net.num_nodes;
  if (net.num_arcs > res->flow_arcs) res->flow_arcs = net.num_arcs;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_label_network_scratch_size(const dnnmem_label_problem *problem,
                                                           const dnnmem_label_options *options,
                                                           size_t *out_bytes) {
  return dnnmem__label_size(problem, options, 1, out_bytes);
}

/* valid_total >= 0: the caller (placement) validated the problem and the
   labels, and valid_total bounds every finite cut: no second look. */
static dnnmem_result dnnmem__label_network(const dnnmem_label_problem *problem,
                                           const dnnmem_label_options *options, const int32_t *labels,
                                           int32_t alpha, dnnmem_flow *out_flow, int32_t *out_node,
                                           dnnmem_label_network_result *result, void *scratch,
                                           size_t scratch_bytes, int64_t valid_total, int32_t *out_value_arcs,
                                           dnnmem_error *e) {
  dnnmem__label_work w;
  dnnmem__label_view vw;
  dnnmem__label_net net;
  dnnmem_flow flow;
  dnnmem_result r;
  int64_t total = valid_total;
  int32_t v, n;
  if (valid_total >= 0) {
    if ((r = dnnmem__label_carve(problem, 1, &w, scratch, scratch_bytes)) != DNNMEM_OK) return r;
  } else if ((r = dnnmem__label_begin(problem, options, 1, &w, &total, scratch, scratch_bytes, e)) != DNNMEM_OK) {
    return r;
  }
  n = problem->graph->num_nodes;
  if (out_flow == NULL || (n > 0 && labels == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  if (alpha < 0 || alpha >= problem->num_labels) return dnnmem__fail(e, DNNMEM_ERR_ID_RANGE, -1, DNNMEM_FIELD_INDEX);
  if (valid_total < 0 && (r = dnnmem__label_check(problem, labels, e)) != DNNMEM_OK) return r;
  vw.p = problem;
  vw.k = problem->num_labels;
  vw.group = NULL;
  if (out_node && out_node != labels) w.node = out_node; /* built in place: no copy */
  dnnmem__label_build(&vw, &w, labels, alpha, total + 1, &flow, &net);
  *out_flow = flow;
  if (out_value_arcs) *out_value_arcs = net.value_arcs;
  if (out_node && w.node != out_node)
    for (v = 0; v < n; v++) out_node[v] = w.node[v];
  if (result) {
    result->constant = net.constant;
    result->num_free = net.num_free;
    result->approximated = net.approximated;
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_label_network(const dnnmem_label_problem *problem,
                                              const dnnmem_label_options *options,
                                              const int32_t *labels, int32_t alpha,
                                              dnnmem_flow *out_flow, int32_t *out_node,
                                              dnnmem_label_network_result *result,
                                              void *scratch, size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__label_network(problem, options, labels, alpha, out_flow, out_node, result, scratch, scratch_bytes, -1, NULL, &e));
}

/* ---- labeling: lower bound ---------------------------------------------- */

/* For k <= 2 (or a merged view) the exact optimum: every node on label 0
   where allowed, then one move to label 1 decides all. */
static dnnmem_result dnnmem__label_binary(const dnnmem__label_view *vw, dnnmem__label_work *w, int32_t *x,
                                          int32_t *out, int64_t infinite, dnnmem_flow_algo algo,
                                          int64_t *out_cost, dnnmem_label_result *res) {
  int32_t v, n = vw->p->graph->num_nodes;
  int64_t energy;
  dnnmem_result r;
  for (v = 0; v < n; v++) x[v] = dnnmem__label_theta(vw, v, 0) >= 0 ? 0 : vw->k - 1;
  if (vw->k == 1) {
    for (v = 0; v < n; v++) out[v] = 0;
    *out_cost = dnnmem__label_eval(vw, w, out);
    return DNNMEM_OK;
  }
  if ((r = dnnmem__label_move(vw, w, x, 1, infinite, algo, out, &energy, res)) != DNNMEM_OK) return r;
  *out_cost = dnnmem__label_eval(vw, w, out);
  DNNMEM_ASSERT(*out_cost == energy); /* a binary problem is submodular: exact */
  return DNNMEM_OK;
}

/* The lower bound: the best merged bipartition (every one for k <= 6,
   else each label against the rest), at least the sum of the cheapest
   node costs. x, out: n labels of work space. */
static dnnmem_result dnnmem__label_bound(const dnnmem_label_problem *p, dnnmem__label_work *w, int32_t *x,
                                         int32_t *out, int64_t infinite, dnnmem_flow_algo algo,
                                         int64_t *out_bound, dnnmem_label_result *res) {
  dnnmem__label_view vw;
  int32_t k = p->num_labels, n = p->graph->num_nodes, v, l;
  uint32_t mask, masks;
  int64_t bound = 0, c;
  dnnmem_result r;
  vw.p = p;
  vw.k = k;
  vw.group = NULL;
  for (v = 0; v < n; v++) {
    int64_t least = -1, t;
    for (l = 0; l < k; l++)
      if ((t = dnnmem__label_theta(&vw, v, l)) >= 0 && (least < 0 || t < least)) least = t;
    bound += least;
  }
  if (k <= 2) {
    vw.group = NULL;
    if ((r = dnnmem__label_binary(&vw, w, x, out, infinite, algo, &c, res)) != DNNMEM_OK) return r;
    *out_bound = c;
    return DNNMEM_OK;
  }
  masks = k <= 6 ? (1u << (k - 1)) - 1 : (uint32_t)k;
  vw.k = 2;
  vw.group = w->group;
  for (mask = 1; mask <= masks; mask++) {
    for (l = 0; l < k; l++)
      w->group[l] = (uint8_t)(k <= 6 ? (l < k - 1 && (mask >> l & 1)) : l == (int32_t)mask - 1);
    if ((r = dnnmem__label_binary(&vw, w, x, out, infinite, algo, &c, res)) != DNNMEM_OK) return r;
    if (c > bound) bound = c;
  }
  *out_bound = bound;
  return DNNMEM_OK;
}

/* ---- labeling: the Lagrangian dual bound ----------------------------------- */

/* The cost splits into unary terms theta_v(x_v) (node costs) and one factor
   per value u over u and its distinct consumers C(u) (plus its output
   label o): F_u(x) = sum of conv_u(x_u, b) over the labels b != x_u in
   {x_c : c in C(u)} + {o}. For any messages m_{u,v}(l) (one per factor u,
   member v and allowed label l),
     E(x) = sum_v [theta_v(x_v) + sum_{u: v in u's factor} m_{u,v}(x_v)]
          + sum_u [F_u(x) - sum_{v in u's factor} m_{u,v}(x_v)],
   so the sum of each term's own minimum is a lower bound of every labeling
   (the Lagrangian dual of duplicating each node once per factor it is in;
   its best value is the local-polytope LP relaxation of the once-per-value
   formulation). A factor's minimum is exact: for each label set T (the
   labels u is delivered on, with x_u and o in T) the conversions cost
   sum_{b in T, b != x_u} conv(x_u, b) and each consumer independently its
   cheapest label of T; enumerating T is exact because conversions are
   >= 0 (a T larger than the labels used costs no less). Factors over more
   than DNNMEM_LABEL_FACTOR_BITS labels are replaced by a relaxation that
   never exceeds them: each consumer pays conv(x_u, x_c) / |C(u)| (a label
   b read by n_b <= |C(u)| consumers is paid n_b / |C(u)| <= 1 times).
   Messages are improved by block coordinate ascent in floating point (the
   star update of MPLP, Globerson and Jaakkola 2007: each factor in turn
   takes its members' unaries in, computes min-marginals and hands each
   member 1 / (|C(u)| + 1) of its min-marginal back; the dual never
   decreases), in id order then backwards. The bound itself is evaluated
   exactly in integers: messages rounded down to multiples of 1 / S (S a
   power of two, at most 2^20, with total * S <= 2^58), every sum checked,
   and the result rounded up (costs are integers). Whatever the messages,
   the evaluation is a valid bound; the ascent only makes it tight. */

#define DNNMEM__LABEL_DUAL_INF 1e300

/* Entry (v, l) of a table with k entries per node or incidence. */
static size_t dnnmem__label_at(int32_t v, int32_t k, int32_t l) { return (size_t)v * (size_t)k + (size_t)l; }

/* Gathers factor u: its distinct consumers other than u (w->fvar, their
   incidences n + CSR index in w->finc) and its local labels (w->llist,
   w->lmap). Returns the consumer count, -1 for an empty factor. */
static int32_t dnnmem__label_factor(const dnnmem_label_problem *p, dnnmem__label_work *w, int32_t u,
                                    int32_t *out_nl) {
  int32_t n = p->graph->num_nodes, k = p->num_labels, nd = 0, nl = 0, j, l, i;
  int32_t o = p->output_label ? p->output_label[u] : DNNMEM_LABEL_FREE;
  for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
    int32_t c = w->out_ids[j];
    if (c == u || w->dstamp[c] == u) continue;
    w->dstamp[c] = u;
    w->fvar[nd] = c;
    w->finc[nd++] = n + j;
  }
  if (nd == 0 && o < 0) return -1;
  for (i = -1; i < nd; i++) {
    int32_t v = i < 0 ? u : w->fvar[i];
    for (l = 0; l < k; l++)
      if (w->lmap[l] < 0 && dnnmem__label_node_cost(p, v, l) >= 0) w->lmap[l] = nl, w->llist[nl++] = l;
  }
  if (o >= 0 && w->lmap[o] < 0) w->lmap[o] = nl, w->llist[nl++] = o;
  *out_nl = nl;
  return nd;
}

static void dnnmem__label_factor_end(dnnmem__label_work *w, int32_t nd, int32_t nl) {
  int32_t i;
  for (i = 0; i < nd; i++) w->dstamp[w->fvar[i]] = -1;
  for (i = 0; i < nl; i++) w->lmap[w->llist[i]] = -1;
}

static int32_t dnnmem__label_low_bit(uint32_t t) {
  int32_t b = 0;
  while (!(t >> b & 1u)) b++;
  return b;
}

/* w->dld[i]: member v's label llist[i] without the factor's own message
   (infinite where v may not take it); then w->dmc[T] = its least over T. */
static void dnnmem__label_dual_member(const dnnmem_label_problem *p, dnnmem__label_work *w, int32_t v,
                                      int32_t inc, int32_t nl) {
  int32_t k = p->num_labels, i;
  uint32_t t, full = 1u << nl;
  for (i = 0; i < nl; i++) {
    int32_t l = w->llist[i];
    w->dld[i] = dnnmem__label_node_cost(p, v, l) >= 0
                    ? w->dtheta[dnnmem__label_at(v, k, l)] - w->dmsg[dnnmem__label_at(inc, k, l)]
                    : DNNMEM__LABEL_DUAL_INF;
  }
  w->dmc[0] = DNNMEM__LABEL_DUAL_INF;
  for (t = 1; t < full; t++) {
    double x = w->dld[dnnmem__label_low_bit(t)], y = w->dmc[t & (t - 1)];
    w->dmc[t] = x < y ? x : y;
  }
}

/* Member v (incidence inc) takes the share weight of its min-marginal mm[l]. */
static void dnnmem__label_dual_take(const dnnmem_label_problem *p, dnnmem__label_work *w, int32_t v,
                                    int32_t inc, const double *mm, double weight) {
  int32_t k = p->num_labels, l;
  for (l = 0; l < k; l++) {
    size_t vl = dnnmem__label_at(v, k, l), il = dnnmem__label_at(inc, k, l);
    double d, t;
    if (dnnmem__label_node_cost(p, v, l) < 0 || mm[l] >= DNNMEM__LABEL_DUAL_INF) continue;
    d = w->dtheta[vl] - w->dmsg[il];
    t = mm[l] * weight;
    w->dmsg[il] = t - d;
    w->dtheta[vl] = t;
  }
}

/* One update of factor u (gathered: nd consumers, nl local labels):
   forward, the consumers share its min-marginals; backward, u takes them. */
static void dnnmem__label_dual_update(const dnnmem_label_problem *p, dnnmem__label_work *w, int32_t u,
                                      int32_t nd, int32_t nl, int backward) {
  const double inf = DNNMEM__LABEL_DUAL_INF;
  int32_t k = p->num_labels, i, a, l;
  double wu = backward || nd == 0 ? 1.0 : 0.0, wc = backward || nd == 0 ? 0.0 : 1.0 / (double)nd;
  int32_t o = p->output_label ? p->output_label[u] : DNNMEM_LABEL_FREE;
  for (l = 0; l < k; l++) w->dmm[l] = inf;
  if (nl <= DNNMEM_LABEL_FACTOR_BITS) {
    uint32_t full = 1u << nl, t, need = o >= 0 ? 1u << w->lmap[o] : 0u;
    for (t = 0; t < full; t++) w->dcons[t] = 0, w->dbest[t] = inf;
    for (i = 0; i < nd; i++) {
      dnnmem__label_dual_member(p, w, w->fvar[i], w->finc[i], nl);
      for (t = 0; t < full; t++)
        w->dcons[t] = w->dcons[t] >= inf || w->dmc[t] >= inf ? inf : w->dcons[t] + w->dmc[t];
    }
    for (a = 0; a < k; a++) {
      uint32_t bit;
      double du;
      if (dnnmem__label_node_cost(p, u, a) < 0) continue;
      bit = 1u << w->lmap[a];
      du = w->dtheta[dnnmem__label_at(u, k, a)] - w->dmsg[dnnmem__label_at(u, k, a)];
      w->dopn[0] = 0;
      for (t = 1; t < full; t++) {
        int32_t b = w->llist[dnnmem__label_low_bit(t)];
        w->dopn[t] = w->dopn[t & (t - 1)] + (b == a ? 0.0 : (double)dnnmem__label_conversion(p, u, a, b));
      }
      for (t = 0; t < full; t++) {
        double c;
        if (!(t & bit) || (t & need) != need || w->dcons[t] >= inf) continue;
        c = du + w->dopn[t] + w->dcons[t];
        if (c < w->dmm[a]) w->dmm[a] = c;
        if (c < w->dbest[t]) w->dbest[t] = c;
      }
    }
    for (i = 0; i < nd; i++) {
      int32_t c = w->fvar[i];
      dnnmem__label_dual_member(p, w, c, w->finc[i], nl);
      for (l = 0; l < k; l++) w->dmmc[l] = inf;
      for (t = 1; t < full; t++) {
        uint32_t rest;
        double base;
        if (w->dbest[t] >= inf) continue;
        base = w->dbest[t] - w->dmc[t];
        for (rest = t; rest; rest &= rest - 1) {
          int32_t j = dnnmem__label_low_bit(rest), b = w->llist[j];
          double x;
          if (w->dld[j] >= inf) continue;
          x = base + w->dld[j];
          if (x < w->dmmc[b]) w->dmmc[b] = x;
        }
      }
      dnnmem__label_dual_take(p, w, c, w->finc[i], w->dmmc, wc);
    }
  } else {
    /* the relaxed star: each consumer pays conv(a, x_c) / nd */
    double share = nd > 0 ? 1.0 / (double)nd : 0.0;
    for (a = 0; a < k; a++) {
      double c;
      if (dnnmem__label_node_cost(p, u, a) < 0) continue;
      c = w->dtheta[dnnmem__label_at(u, k, a)] - w->dmsg[dnnmem__label_at(u, k, a)];
      if (o >= 0 && o != a) c += (double)dnnmem__label_conversion(p, u, a, o);
      for (i = 0; i < nd; i++) {
        int32_t v = w->fvar[i], inc = w->finc[i];
        double least = inf;
        for (l = 0; l < k; l++) {
          double x;
          if (dnnmem__label_node_cost(p, v, l) < 0) continue;
          x = w->dtheta[dnnmem__label_at(v, k, l)] - w->dmsg[dnnmem__label_at(inc, k, l)] +
              (l == a || l == o ? 0.0 : (double)dnnmem__label_conversion(p, u, a, l) * share);
          if (x < least) least = x;
        }
        c += least;
      }
      w->dmm[a] = c;
    }
    for (i = 0; i < nd; i++) {
      int32_t v = w->fvar[i], inc = w->finc[i];
      for (l = 0; l < k; l++) w->dmmc[l] = inf;
      for (a = 0; a < k; a++) {
        double least = inf;
        if (w->dmm[a] >= inf) continue;
        for (l = 0; l < k; l++) {
          double x;
          if (dnnmem__label_node_cost(p, v, l) < 0) continue;
          x = w->dtheta[dnnmem__label_at(v, k, l)] - w->dmsg[dnnmem__label_at(inc, k, l)] +
              (l == a || l == o ? 0.0 : (double)dnnmem__label_conversion(p, u, a, l) * share);
          w->dld[l] = x;
          if (x < least) least = x;
        }
        for (l = 0; l < k; l++)
          if (dnnmem__label_node_cost(p, v, l) >= 0 && w->dmm[a] - least + w->dld[l] < w->dmmc[l])
            w->dmmc[l] = w->dmm[a] - least + w->dld[l];
      }
      dnnmem__label_dual_take(p, w, v, inc, w->dmmc, wc);
    }
  }
  dnnmem__label_dual_take(p, w, u, u, w->dmm, wu);
}

/* A message in units of 1 / scale, rounded down (clamped: any value is valid). */
static int64_t dnnmem__label_dual_int(double m, int64_t scale) {
  double y = m * (double)scale, lim = 2305843009213693952.0; /* 2^61 */
  int64_t t;
  if (y > lim) y = lim;
  if (y < -lim) y = -lim;
  t = (int64_t)y;
  if ((double)t > y) t--;
  return t;
}

/* The exact bound of the current messages, in units of 1 / scale; 0 when a
   sum would overflow (no bound then). */
static int dnnmem__label_dual_eval(const dnnmem_label_problem *p, dnnmem__label_work *w, int64_t scale,
                                   int64_t *out) {
  const int64_t inf = DNNMEM__I64_MAX;
  int32_t n = p->graph->num_nodes, k = p->num_labels, u, v, l, i, j;
  int64_t total = 0;
  for (v = 0; v < n; v++)
    for (l = 0; l < k; l++) {
      int64_t c = dnnmem__label_node_cost(p, v, l);
      w->itheta[dnnmem__label_at(v, k, l)] = c;
      if (c < 0) continue;
      if (dnnmem__mul_overflows(c, scale, &c) ||
          dnnmem__add_overflows(c, dnnmem__label_dual_int(w->dmsg[dnnmem__label_at(v, k, l)], scale), &c))
        return 0;
      w->itheta[dnnmem__label_at(v, k, l)] = c;
    }
  for (u = 0; u < n; u++)
    for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
      int32_t inc = n + j;
      v = w->out_ids[j];
      for (l = 0; l < k; l++)
        if (dnnmem__label_node_cost(p, v, l) >= 0 &&
            dnnmem__add_overflows(w->itheta[dnnmem__label_at(v, k, l)],
                                  dnnmem__label_dual_int(w->dmsg[dnnmem__label_at(inc, k, l)], scale),
                                  &w->itheta[dnnmem__label_at(v, k, l)]))
          return 0;
    }
  for (v = 0; v < n; v++) {
    int64_t least = inf;
    for (l = 0; l < k; l++)
      if (dnnmem__label_node_cost(p, v, l) >= 0 && w->itheta[dnnmem__label_at(v, k, l)] < least)
        least = w->itheta[dnnmem__label_at(v, k, l)];
    if (dnnmem__add_overflows(total, least, &total)) return 0;
  }
  for (u = 0; u < n; u++) {
    int32_t nl = 0, nd = dnnmem__label_factor(p, w, u, &nl), a;
    int32_t o = p->output_label ? p->output_label[u] : DNNMEM_LABEL_FREE;
    int64_t fmin = inf;
    int ok = 1;
    if (nd < 0) continue;
    if (nl <= DNNMEM_LABEL_FACTOR_BITS) {
      uint32_t full = 1u << nl, t, need = o >= 0 ? 1u << w->lmap[o] : 0u;
      for (t = 0; t < full; t++) w->icons[t] = 0;
      for (i = 0; i < nd && ok; i++) {
        int32_t c = w->fvar[i];
        int32_t inc = w->finc[i];
        for (j = 0; j < nl; j++) {
          l = w->llist[j];
          w->ild[j] = dnnmem__label_node_cost(p, c, l) >= 0
                          ? -dnnmem__label_dual_int(w->dmsg[dnnmem__label_at(inc, k, l)], scale)
                          : inf;
        }
        w->imc[0] = inf;
        for (t = 1; t < full; t++) {
          int64_t x = w->ild[dnnmem__label_low_bit(t)], y = w->imc[t & (t - 1)];
          w->imc[t] = x < y ? x : y;
          if (w->icons[t] == inf || w->imc[t] == inf) w->icons[t] = inf;
          else if (dnnmem__add_overflows(w->icons[t], w->imc[t], &w->icons[t])) ok = 0;
        }
      }
      for (a = 0; a < k && ok; a++) {
        int64_t base;
        uint32_t bit;
        if (dnnmem__label_node_cost(p, u, a) < 0) continue;
        bit = 1u << w->lmap[a];
        base = -dnnmem__label_dual_int(w->dmsg[dnnmem__label_at(u, k, a)], scale);
        w->iopn[0] = 0;
        for (t = 1; t < full; t++) {
          int32_t b = w->llist[dnnmem__label_low_bit(t)];
          /* every conversion sum of a value is within total, total * scale within 2^58 */
          w->iopn[t] = w->iopn[t & (t - 1)] + (b == a ? 0 : dnnmem__label_conversion(p, u, a, b) * scale);
        }
        for (t = 0; t < full; t++) {
          int64_t c;
          if (!(t & bit) || (t & need) != need || w->icons[t] == inf) continue;
          if (dnnmem__add_overflows(base, w->iopn[t], &c) || dnnmem__add_overflows(c, w->icons[t], &c)) {
            ok = 0;
            break;
          }
          if (c < fmin) fmin = c;
        }
      }
    } else {
      for (a = 0; a < k && ok; a++) {
        int64_t c;
        if (dnnmem__label_node_cost(p, u, a) < 0) continue;
        c = -dnnmem__label_dual_int(w->dmsg[dnnmem__label_at(u, k, a)], scale);
        if (o >= 0 && o != a && dnnmem__add_overflows(c, dnnmem__label_conversion(p, u, a, o) * scale, &c)) ok = 0;
        for (i = 0; i < nd && ok; i++) {
          int32_t v2 = w->fvar[i];
          int32_t inc = w->finc[i];
          int64_t least = inf;
          for (l = 0; l < k; l++) {
            int64_t x, msg;
            if (dnnmem__label_node_cost(p, v2, l) < 0) continue;
            x = l == a || l == o ? 0 : dnnmem__label_conversion(p, u, a, l) * scale / nd;
            msg = dnnmem__label_dual_int(w->dmsg[dnnmem__label_at(inc, k, l)], scale);
            if (dnnmem__add_overflows(x, -msg, &x)) {
              ok = 0;
              break;
            }
            if (x < least) least = x;
          }
          if (ok && dnnmem__add_overflows(c, least, &c)) ok = 0;
        }
        if (ok && c < fmin) fmin = c;
      }
    }
    dnnmem__label_factor_end(w, nd, nl);
    if (!ok || dnnmem__add_overflows(total, fmin, &total)) return 0;
  }
  *out = total;
  return 1;
}

/* A labeling read off the dual (into w->x). After a backward pass (the
   messages of a node's own factor hold what its consumers will cost), in
   id order: each node takes the label least by its cost, its own
   factor's message and the conversions its labelled inputs newly pay.
   After a forward pass (the messages from the inputs' factors hold what
   the inputs cost), in reverse order: each node takes the label least by
   its unary without its own factor's message plus its own factor exactly
   (its labelled consumers and output). On a tree, dynamic programming's
   traceback. */
static void dnnmem__label_decode(const dnnmem_label_problem *p, dnnmem__label_work *w, int backward) {
  const dnnmem_graph *g = p->graph;
  int32_t n = g->num_nodes, k = p->num_labels, v, l, j;
  for (v = 0; v < n; v++) w->x[v] = -1;
  if (!backward) {
    for (l = 0; l < k; l++) w->fstamp[l] = -1;
    for (v = n - 1; v >= 0; v--) {
      int32_t o = p->output_label ? p->output_label[v] : DNNMEM_LABEL_FREE, nd = 0, i, pick = -1;
      double least = DNNMEM__LABEL_DUAL_INF;
      if (o >= 0) w->fstamp[o] = v, w->flist[nd++] = o;
      for (j = w->out_offsets[v]; j < w->out_offsets[v + 1]; j++) {
        int32_t b = w->x[w->out_ids[j]];
        if (b < 0 || w->fstamp[b] == v) continue;
        w->fstamp[b] = v;
        w->flist[nd++] = b;
      }
      for (l = 0; l < k; l++) {
        double c;
        if (dnnmem__label_node_cost(p, v, l) < 0) continue;
        c = w->dtheta[dnnmem__label_at(v, k, l)] - w->dmsg[dnnmem__label_at(v, k, l)];
        for (i = 0; i < nd; i++) c += (double)dnnmem__label_conversion(p, v, l, w->flist[i]);
        if (c < least) least = c, pick = l;
      }
      w->x[v] = pick;
    }
    return;
  }
  DNNMEM_MEMSET(w->deliv, 0, (size_t)n * (size_t)k);
  for (v = 0; v < n; v++) {
    double least = DNNMEM__LABEL_DUAL_INF;
    int32_t pick = -1;
    for (l = 0; l < k; l++) {
      double c;
      if (dnnmem__label_node_cost(p, v, l) < 0) continue;
      c = (double)dnnmem__label_node_cost(p, v, l) + w->dmsg[dnnmem__label_at(v, k, l)];
      for (j = g->in_offsets[v]; j < g->in_offsets[v + 1]; j++) {
        int32_t u = g->in_ids[j], a = w->x[u];
        if (a >= 0 && a != l && !w->deliv[dnnmem__label_at(u, k, l)])
          c += (double)dnnmem__label_conversion(p, u, a, l);
      }
      if (c < least) least = c, pick = l;
    }
    w->x[v] = pick;
    for (j = g->in_offsets[v]; j < g->in_offsets[v + 1]; j++) {
      int32_t u = g->in_ids[j];
      if (w->x[u] >= 0) w->deliv[dnnmem__label_at(u, k, pick)] = 1;
    }
  }
}

/* The dual bound: sweeps of factor updates until it meets the cost of the
   best labeling (*cost, w->best; each sweep also reads a labeling off the
   dual and keeps it when cheaper), stalls, or options' limits; *out_bound
   rounded up. vw NULL: no labelings (the bound alone). */
static void dnnmem__label_dual(const dnnmem_label_problem *p, const dnnmem__label_view *vw, dnnmem__label_work *w,
                               int64_t total, int64_t *cost, const dnnmem_label_options *o, int64_t *out_bound,
                               dnnmem_label_result *res) {
  int32_t n = p->graph->num_nodes, k = p->num_labels, u, l, sweep, nd, nl, stalled = 0;
  int32_t max_sweeps = o && o->max_sweeps > 0 ? o->max_sweeps : DNNMEM_LABEL_DUAL_SWEEPS;
  int64_t scale = 1, best = 0, raw;
  size_t m;
  while (scale < ((int64_t)1 << 20) && total <= ((int64_t)1 << 57) / scale) scale *= 2;
  for (u = 0; u < n; u++) {
    w->dstamp[u] = -1;
    for (l = 0; l < k; l++) {
      int64_t c = dnnmem__label_node_cost(p, u, l);
      w->dtheta[dnnmem__label_at(u, k, l)] = c >= 0 ? (double)c : 0.0;
    }
  }
  for (l = 0; l < k; l++) w->lmap[l] = -1;
  for (m = 0; m < ((size_t)n + (size_t)(n > 0 ? w->out_offsets[n] : 0)) * (size_t)k; m++) w->dmsg[m] = 0.0;
  for (sweep = 0; sweep < max_sweeps; sweep++) {
    int64_t bound;
    if (o && o->stop && o->stop(o->stop_user)) {
      res->stop = DNNMEM_LABEL_STOP_TIME;
      break;
    }
    for (u = 0; u < 2 * n; u++) {
      int32_t v = u < n ? u : 2 * n - 1 - u;
      if ((nd = dnnmem__label_factor(p, w, v, &nl)) >= 0) {
        dnnmem__label_dual_update(p, w, v, nd, nl, u >= n);
        dnnmem__label_factor_end(w, nd, nl);
      }
      if (vw && (u == n - 1 || u == 2 * n - 1)) { /* a labeling after each pass */
        int64_t c;
        dnnmem__label_decode(p, w, u >= n);
        if ((c = dnnmem__label_eval(vw, w, w->x)) < *cost) {
          *cost = c;
          DNNMEM_MEMCPY(w->best, w->x, (size_t)n * sizeof(int32_t));
        }
      }
    }
    res->sweeps++;
    if (!dnnmem__label_dual_eval(p, w, scale, &raw)) break;
    bound = raw <= 0 ? 0 : raw / scale + (raw % scale != 0);
    /* stalled: three sweeps in a row each closing under 1% of the gap
       left (without an answer: gaining under 10^-5 of the bound) */
    stalled = bound - best <= (*cost == DNNMEM__I64_MAX ? bound / 100000 : (*cost - bound) / 100) ? stalled + 1 : 0;
    if (bound > best) best = bound;
    if (best >= *cost || stalled >= 3) break;
  }
  *out_bound = best;
}

DNNMEM_DEF dnnmem_result dnnmem_label_lower_bound_scratch_size(const dnnmem_label_problem *problem,
                                                               const dnnmem_label_options *options,
                                                               size_t *out_bytes) {
  return dnnmem__label_size(problem, options, 2, out_bytes);
}

static dnnmem_result dnnmem__label_lower_bound(const dnnmem_label_problem *problem,
                                               const dnnmem_label_options *options, int64_t *out_bound,
                                               void *scratch, size_t scratch_bytes, dnnmem_error *e) {
  dnnmem__label_work w;
  dnnmem_label_result res;
  dnnmem_result r;
  int64_t total;
  if ((r = dnnmem__label_begin(problem, options, 2, &w, &total, scratch, scratch_bytes, e)) != DNNMEM_OK) return r;
  DNNMEM_MEMSET(&res, 0, sizeof(res));
  if ((r = dnnmem__label_bound(problem, &w, w.x, w.trial, total + 1, options ? options->flow : DNNMEM_FLOW_BK,
                               out_bound, &res)) != DNNMEM_OK)
    return r;
  if (problem->num_labels > 2) {
    int64_t dual = 0;
    int64_t none = DNNMEM__I64_MAX;
    dnnmem__label_dual(problem, NULL, &w, total, &none, options, &dual, &res);
    if (dual > *out_bound) *out_bound = dual;
  }
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_label_lower_bound(const dnnmem_label_problem *problem,
                                                  const dnnmem_label_options *options,
                                                  dnnmem_label_result *result, void *scratch,
                                                  size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  int64_t bound = 0;
  dnnmem_result r;
  if (result == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  DNNMEM_MEMSET(result, 0, sizeof(*result));
  r = dnnmem__label_lower_bound(problem, options, &bound, scratch, scratch_bytes, &e);
  result->lower_bound = r == DNNMEM_OK ? bound : 0;
  return dnnmem__report(&result->error, &e, r);
}

/* ---- labeling: branch and bound ------------------------------------------ */

/* A lower bound of every completion of the partial labeling y (-1:
   open): open nodes at their cheapest label, each value's conversions to
   the labels its assigned consumers already have (the cheapest over its
   allowed labels while it is open). Exact when nothing is open. */
static int64_t dnnmem__label_partial(const dnnmem__label_view *vw, const dnnmem__label_work *w, const int32_t *y) {
  int32_t n = vw->p->graph->num_nodes, k = vw->k, u, j, l, i;
  int64_t total = 0;
  for (l = 0; l < k; l++) w->fstamp[l] = -1;
  for (u = 0; u < n; u++) {
    int32_t a = y[u], o = dnnmem__label_output(vw, u), nd = 0;
    if (o >= 0) {
      w->fstamp[o] = u;
      w->flist[nd++] = o;
    }
    for (j = w->out_offsets[u]; j < w->out_offsets[u + 1]; j++) {
      int32_t b = y[w->out_ids[j]];
      if (b < 0 || w->fstamp[b] == u) continue;
      w->fstamp[b] = u;
      w->flist[nd++] = b;
    }
    if (a >= 0) {
      total += dnnmem__label_theta(vw, u, a);
      for (i = 0; i < nd; i++) total += dnnmem__label_conv(vw, u, a, w->flist[i]);
    } else {
      int64_t least = -1;
      for (l = 0; l < k; l++) {
        int64_t t = dnnmem__label_theta(vw, u, l), conv = 0;
        if (t < 0) continue;
        for (i = 0; i < nd; i++) conv += dnnmem__label_conv(vw, u, l, w->flist[i]);
        if (least < 0 || t + conv < least) least = t + conv;
      }
      total += least;
    }
  }
  return total;
}

/* Depth-first over the nodes with a choice (in id order), the incumbent's
   label first; w->best / *best_cost hold the incumbent. 1 when the search
   finished (the incumbent is optimal), 0 when it stopped. */
static int dnnmem__label_branch(const dnnmem__label_view *vw, dnnmem__label_work *w, int64_t node_limit,
                                const dnnmem_label_options *o, int64_t *best_cost, dnnmem_label_result *res) {
  int32_t n = vw->p->graph->num_nodes, k = vw->k, nf = 0, v, d, l;
  int32_t *y = w->bb_y, *order = w->bb_order, *tried = w->bb_tried;
  for (v = 0; v < n; v++) {
    int32_t allowed = 0, only = -1;
    for (l = 0; l < k; l++)
      if (dnnmem__label_theta(vw, v, l) >= 0) allowed++, only = l;
    y[v] = allowed == 1 ? only : -1;
    if (allowed > 1) order[nf++] = v;
  }
  if (nf == 0) return 1;
  DNNMEM_MEMCPY(w->trial, w->best, (size_t)n * sizeof(int32_t)); /* the order hint stays fixed */
  d = 0;
  tried[0] = 0;
  while (d >= 0) {
    int32_t t;
    int64_t bound;
    v = order[d];
    if (tried[d] == k) {
      y[v] = -1;
      d--;
      continue;
    }
    t = tried[d]++;
    l = t == 0 ? w->trial[v] : (t - 1 < w->trial[v] ? t - 1 : t);
    if (dnnmem__label_theta(vw, v, l) < 0) continue;
    if (res->nodes >= node_limit) {
      res->stop = DNNMEM_LABEL_STOP_NODES;
      return 0;
    }
    if ((res->nodes & 1023) == 0 && o && o->stop && o->stop(o->stop_user)) {
      res->stop = DNNMEM_LABEL_STOP_TIME;
      return 0;
    }
    res->nodes++;
    y[v] = l;
    bound = dnnmem__label_partial(vw, w, y);
    if (bound >= *best_cost) continue;
    if (d + 1 == nf) {
      *best_cost = bound; /* complete: the bound is the cost */
      DNNMEM_MEMCPY(w->best, y, (size_t)n * sizeof(int32_t));
      continue;
    }
    tried[++d] = 0;
  }
  return 1;
}

/* ---- labeling: the solver ------------------------------------------------ */

/* Alpha-expansion from the feasible labeling w->x of cost *cost: moves
   cycle over the labels until k in a row gain nothing (or max_cycles);
   w->x and *cost end at the local optimum. */
static dnnmem_result dnnmem__label_expand(const dnnmem__label_view *vw, dnnmem__label_work *w, int64_t infinite,
                                          dnnmem_flow_algo flow, int32_t max_cycles,
                                          const dnnmem_label_options *options, int64_t *cost,
                                          dnnmem_label_result *res) {
  int32_t k = vw->k, alpha, quiet, cycles = 0;
  dnnmem_result r;
  for (alpha = 0, quiet = 0; quiet < k && cycles < max_cycles; alpha = (alpha + 1) % k) {
    int64_t energy, c;
    if (options && options->stop && options->stop(options->stop_user)) {
      res->stop = DNNMEM_LABEL_STOP_TIME;
      break;
    }
    if ((r = dnnmem__label_move(vw, w, w->x, alpha, infinite, flow, w->trial, &energy, res)) != DNNMEM_OK)
      return r;
    c = dnnmem__label_eval(vw, w, w->trial);
    DNNMEM_ASSERT(c <= energy && energy <= *cost);
    if (c < *cost) {
      int32_t *swap = w->x;
      w->x = w->trial;
      w->trial = swap;
      *cost = c;
      res->improving_moves++;
      quiet = 0;
    }
    quiet++;
    if (alpha == k - 1) cycles++, res->cycles++;
  }
  return DNNMEM_OK;
}


DNNMEM_DEF dnnmem_result dnnmem_label_solve_scratch_size(const dnnmem_label_problem *problem,
                                                         const dnnmem_label_options *options,
                                                         size_t *out_bytes) {
  return dnnmem__label_size(problem, options, 2, out_bytes);
}

static dnnmem_result dnnmem__label_solve(const dnnmem_label_problem *problem,
                                         const dnnmem_label_options *options, int32_t *label,
                                         dnnmem_label_result *result, void *scratch, size_t scratch_bytes,
                                         dnnmem_error *e) {
  dnnmem__label_work w;
  dnnmem__label_view vw;
  dnnmem_label_result res;
  dnnmem_label_algo algo;
  dnnmem_flow_algo flow;
  dnnmem_result r;
  int64_t total, cost, bound, node_limit;
  int32_t n, k, v, l, max_cycles;
  if ((r = dnnmem__label_begin(problem, options, 2, &w, &total, scratch, scratch_bytes, e)) != DNNMEM_OK) return r;
  n = problem->graph->num_nodes;
  k = problem->num_labels;
  if (result == NULL || (n > 0 && label == NULL)) return dnnmem__fail(e, DNNMEM_ERR_INVALID_ARGUMENT, -1, DNNMEM_FIELD_OUTPUT);
  algo = options ? options->algo : DNNMEM_LABEL_AUTO;
  flow = options ? options->flow : DNNMEM_FLOW_BK;
  node_limit = options && options->node_limit > 0 ? options->node_limit : 1000000;
  max_cycles = options && options->max_cycles > 0 ? options->max_cycles : DNNMEM__I32_MAX;
  DNNMEM_MEMSET(&res, 0, sizeof(res));
  vw.p = problem;
  vw.k = k;
  vw.group = NULL;
  /* the start: every node on its cheapest allowed label (ties: the lowest) */
  for (v = 0; v < n; v++) {
    int64_t least = -1, t;
    w.best[v] = 0;
    for (l = 0; l < k; l++)
      if ((t = dnnmem__label_theta(&vw, v, l)) >= 0 && (least < 0 || t < least)) least = t, w.best[v] = l;
    if (least >= 0 && k > 1) {
      int32_t allowed = 0;
      for (l = 0; l < k; l++) allowed += dnnmem__label_theta(&vw, v, l) >= 0;
      res.num_free += allowed > 1;
    }
  }
  cost = res.initial_cost = dnnmem__label_eval(&vw, &w, w.best);
  if (k <= 2) {
    res.algo = algo == DNNMEM_LABEL_AUTO ? DNNMEM_LABEL_EXACT : algo;
    if ((r = dnnmem__label_binary(&vw, &w, w.x, w.best, total + 1, flow, &cost, &res)) != DNNMEM_OK) return r;
    bound = cost;
  } else {
    res.algo = algo == DNNMEM_LABEL_EXPANSION ? DNNMEM_LABEL_EXPANSION : DNNMEM_LABEL_EXACT;
    /* the dual bound, each sweep also reading a labeling off it */
    dnnmem__label_dual(problem, &vw, &w, total, &cost, options, &bound, &res);
    res.dual_bound = bound;
    DNNMEM_ASSERT(bound <= cost);
    if (bound < cost && res.stop == DNNMEM_LABEL_STOP_NONE) {
      /* alpha-expansion from the best labeling so far */
      DNNMEM_MEMCPY(w.x, w.best, (size_t)n * sizeof(int32_t));
      if ((r = dnnmem__label_expand(&vw, &w, total + 1, flow, max_cycles, options, &cost, &res)) != DNNMEM_OK)
        return r;
      DNNMEM_MEMCPY(w.best, w.x, (size_t)n * sizeof(int32_t));
    }
    if (bound < cost && res.stop == DNNMEM_LABEL_STOP_NONE) {
      int64_t merged;
      if ((r = dnnmem__label_bound(problem, &w, w.x, w.trial, total + 1, flow, &merged, &res)) != DNNMEM_OK)
        return r;
      res.merged_bound = merged;
      DNNMEM_ASSERT(merged <= cost);
      if (merged > bound) bound = merged;
    }
    if (bound < cost && res.stop == DNNMEM_LABEL_STOP_NONE &&
        (algo == DNNMEM_LABEL_EXACT || (algo == DNNMEM_LABEL_AUTO && res.num_free <= DNNMEM_LABEL_AUTO_EXACT_OPS))) {
      res.algo = DNNMEM_LABEL_EXACT;
      if (dnnmem__label_branch(&vw, &w, node_limit, options, &cost, &res)) bound = cost;
    }
  }
  for (v = 0; v < n; v++) label[v] = w.best[v];
  res.cost = dnnmem__label_eval(&vw, &w, label); /* the recount */
  DNNMEM_ASSERT(res.cost == cost);
  res.lower_bound = bound;
  res.gap = res.cost - bound;
  res.optimal = res.gap == 0;
  if (res.optimal) res.stop = DNNMEM_LABEL_STOP_PROVED;
  *result = res;
  return DNNMEM_OK;
}

DNNMEM_DEF dnnmem_result dnnmem_label_solve(const dnnmem_label_problem *problem,
                                            const dnnmem_label_options *options, int32_t *label,
                                            dnnmem_label_result *result, void *scratch,
                                            size_t scratch_bytes) {
  dnnmem_error e = {-1, DNNMEM_FIELD_NONE, -1};
  return dnnmem__report(result ? &result->error : NULL, &e,
                        dnnmem__label_solve(problem, options, label, result, scratch, scratch_bytes, &e));
}

#endif /* DNNMEM_NO_LABEL */

#ifdef __cplusplus
}
#endif

/* the caller's floating-point contraction again (see the top) */
#if defined(__clang__)
#pragma float_control(pop)
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif
#endif /* DNNMEM__IMPLEMENTATION_DONE */
#endif /* DNNMEM_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the dnnmem.h authors

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
*/
