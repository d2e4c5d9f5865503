/* tests/remat_state.h: the recompute solve's private annealing state, for
   the tests that compile their own copy of the implementation (include it
   after dnnmem.h with DNNMEM_IMPLEMENTATION, tests/test.h and tests/ref.h). */
#ifndef DNNMEM_TESTS_REMAT_STATE_H
#define DNNMEM_TESTS_REMAT_STATE_H

/* The state dnnmem__remat_solve prepares on g at a budget (1000 moves, the
   generator seeded 1) for sequences of up to `steps` steps: every node
   marked, units built, the row order simulated and scored, nothing offered
   yet. arena_on: the arena-aware solve's state (else peak only). Its
   options in oo, its generator in rng. */
static void remat_state_steps(dnnmem__remat *w, dnnmem_remat_options *oo, dnnmem_rng *rng, ref_remat_graph *g,
                              int64_t budget, int arena_on, int32_t steps, void *scratch, size_t bytes) {
  dnnmem_remat_options o = ref_remat_options(budget, 1000);
  dnnmem_remat_result row;
  int32_t v;
  CHECK(dnnmem__remat_options(&o, oo));
  memset(w, 0, sizeof *w);
  CHECK(dnnmem__remat_dims(w, g->n, dnnmem__remat_num_edges(g->p.graph), steps, oo->max_group_size));
  w->p = &g->p;
  w->o = oo;
  dnnmem_rng_seed(rng, 1);
  w->rng = rng;
  w->arena_on = arena_on;
  w->arena_result.arena = w->offer_arena = -1;
  w->plan_len = -1;
  CHECK_EQ(dnnmem__remat_prepare(w, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem__remat_sim(&g->p, w->order, g->n, &w->sim, &row, NULL), DNNMEM_OK);
  dnnmem__remat_objective(w, &row);
  for (v = 0; v < g->n; v++) w->marked[v] = 1;
  CHECK_EQ(dnnmem__remat_build_units(w), DNNMEM_OK);
}

/* remat_state with sequences of up to 4 n steps (the solve's own at
   capacity 4 n) */
static void remat_state(dnnmem__remat *w, dnnmem_remat_options *oo, dnnmem_rng *rng, ref_remat_graph *g,
                        int64_t budget, int arena_on, void *scratch, size_t bytes) {
  remat_state_steps(w, oo, rng, g, budget, arena_on, 4 * g->n, scratch, bytes);
}

#endif
