/* The window experiment of notes/ISSUE-29-tilings.md (not part of make).
   Needs a copy of dnnmem.h with a hook at the exact search's part failure:
     mkdir -p /tmp/i && python3 - <<'PY'
     s = open('dnnmem.h').read()
     a = "static int dnnmem__exact_run(dnnmem__exact *w, int64_t limit, dnnmem__exact_slot *slot) {"
     s = s.replace(a, "static void (*dbg_hook)(dnnmem__exact *, int32_t);\n" + a, 1)
     b = "    if (j < 0) { /* the part fails: back to the frame that created it */\n"
     s = s.replace(b, b + "      if (dbg_hook) dbg_hook(w, d);\n", 1)
     open('/tmp/i/dnnmem.h', 'w').write(s)
     PY
     gcc -O2 -std=c99 -I/tmp/i -Itests -I. -o exp notes/ISSUE-29-tilings-window.c -lm
   Run: exp SIZE SEED T AFTER EVERY LIMIT MAIN_NODES D0 DSTEP
     solves tiling SIZE/SEED (stream SALT=..) for MAIN_NODES nodes; at part
     failures at depth DLO..DHI (env, default 100..125) after AFTER nodes,
     every EVERY-th, keeps the state (at most 64); then for each kept state
     and D = D0, D0+DSTEP, .. <= its depth, decides the window [0, T) (records
     starting before T, those crossing T clipped to it) with the crossing
     records the state placed fixed at their offsets and the records inside
     placed at depths < D fixed too (the rest free), by dnnmem__exact_solve
     with LIMIT nodes. FULL=1: the whole problem instead of the window (the
     same records fixed). PD=k PREFOUT=f / PREFIN=f: the failures seen under
     the kept state's first k placements (by run kind), two passes.
     DUMP=e: frames e .. e+7 of the first kept state. */
#include "bench.h"
#define MAXS 64
static int64_t snap[MAXS][1000]; static int snapdep[MAXS][1000]; static int snapd[MAXS], nsnap; static int64_t snapn[MAXS];
static int64_t after; static int every, cnt;
static int dlo=100, dhi=125; static uint64_t salt;
static long hist[64]; static long kindcnt[4][2]; static int PD=-1; static int32_t pref[1000]; static int havepref; static int64_t firstn,lastn,samecnt;
static void hook(dnnmem__exact *w, int32_t d){
  int i; hist[d/25]++;
  if (havepref && d >= PD) { for(i=0;i<PD;i++) if(w->frames[i].placed!=pref[i]) break; if(i==PD){ if(!samecnt) firstn=w->nodes; samecnt++; lastn=w->nodes; kindcnt[w->order_kind][w->order_seed!=0]++; } }
  if (havepref && d < PD) { for(i=0;i<d;i++) if(w->frames[i].placed!=pref[i]) break; if(i==d && d<PD) { /* backed to/above PD on the same path */ static int once; if(!once++) printf("first backup above %d at node %lld (failure at depth %d)\n",PD,(long long)w->nodes,d);} }
  if (w->nodes < after || d < dlo || d > dhi || nsnap>=MAXS) return;
  if (cnt++ % every) return;
  for(i=0;i<w->n;i++) snap[nsnap][i]= w->placed[i]? w->offset[i] : -1;
  for(i=0;i<w->n;i++) snapdep[nsnap][i]=-1;
  for(i=0;i<d;i++) if(w->frames[i].placed>=0) snapdep[nsnap][w->frames[i].placed]=i;
  snapd[nsnap]=d; snapn[nsnap]=w->nodes; nsnap++;
  if (getenv("DUMP") && nsnap==1) { int e; for(e=atoi(getenv("DUMP"));e<d && e<atoi(getenv("DUMP"))+8;e++){ dnnmem__exact_frame *g=&w->frames[e]; int32_t k=g->placed;
    printf("depth %d part [%d,%d) cell %d (t=%lld) at %lld noslack %d cands %d: placed rec %d t[%lld,%lld) size %lld at %lld\n", e, g->part_lo,g->part_hi,g->cell, g->cell>=0?(long long)w->times[g->cell]:-1LL,(long long)g->cell_offset,g->noslack, g->cand_end>=0? g->cand_end-g->cand_base:-1, k,(long long)w->rec[k].lower,(long long)w->rec[k].upper,(long long)w->size[k],(long long)w->offset[k]); } }
  if (PD>=0 && !havepref){ for(i=0;i<PD;i++) pref[i]=w->frames[i].placed; havepref=1; firstn=w->nodes; if(getenv("PREFOUT")){FILE*fp=fopen(getenv("PREFOUT"),"w");for(i=0;i<PD;i++)fprintf(fp,"%d\n",pref[i]);fclose(fp);} }
}
static int solve(dnnmem_interval *r, int32_t n, int64_t lim, int64_t *nodes){
  size_t bytes=0; void *sc; dnnmem__exact_params p; dnnmem__exact_outcome o; int64_t *off=calloc(n+1,8);
  dnnmem__exact_scratch_size(n,0,0,&bytes); sc=malloc(bytes);
  memset(&p,0,sizeof p); p.capacity=1<<20; p.node_limit=lim; p.noise_salt=salt; salt=0;
  if (dnnmem__exact_solve(r,n,1,&p,off,&o,sc,bytes)!=DNNMEM_OK) o.feasible=-2;
  *nodes=o.nodes; free(sc); free(off); return o.feasible;
}
int main(int argc,char**argv){
  int32_t i; int size=atoi(argv[1]), seed=atoi(argv[2]); if(getenv("PD")) PD=atoi(getenv("PD")); if(getenv("PREFIN")){FILE*fp=fopen(getenv("PREFIN"),"r");for(i=0;i<PD;i++) if(fscanf(fp,"%d",&pref[i])!=1) break; fclose(fp); havepref=1; after=1LL<<60;} if(getenv("SALT")) salt=atoi(getenv("SALT")); if(getenv("DLO")) dlo=atoi(getenv("DLO")), dhi=atoi(getenv("DHI")); int64_t T=atoll(argv[3]); after=atoll(argv[4]); every=atoi(argv[5]);
  int64_t lim=atoll(argv[6]);
  dnnmem_interval *r=calloc(size,sizeof *r), *q=calloc(size,sizeof *q); dnnmem_rng rng; int32_t n,k;
  dnnmem_rng_seed(&rng,seed); n=ref_plan_tiling(&rng,r,size,1000,1<<20,1024);
  { int in=0,cr=0; for(i=0;i<n;i++){ if(r[i].upper<=T) in++; else if(r[i].lower<T) cr++; } printf("window [0,%lld): %d inside, %d crossing\n",(long long)T,in,cr);}
  { int64_t nn; dbg_hook=hook; solve(r,n,atoll(argv[7]),&nn); dbg_hook=NULL; printf("main %lld nodes, %d snaps; prefix<%d seen from node %lld to %lld in %lld failures\n",(long long)nn,nsnap,PD,(long long)firstn,(long long)lastn,(long long)samecnt); for(i=0;i<4;i++) printf("kind %d plain %ld noisy %ld\n",i,kindcnt[i][0],kindcnt[i][1]); for(i=0;i<40;i++) if(hist[i]) printf("%d:%ld ",i*25,hist[i]); printf("\n");}
  for(k=0;k<nsnap;k++){
    int D; for(D=atoi(argv[8]); D<=snapd[k]; D+=atoi(argv[9])){ int m=0, fixed=0, crossun=0, inplaced=0, res; int64_t nodes;
    for(i=0;i<n;i++){ if(r[i].lower>=T && !getenv("FULL")) continue; q[m]=r[i];
      if(r[i].lower>=T){ m++; continue; }
      if(r[i].upper>T){ if(!getenv("FULL")) q[m].upper=T; if(snap[k][i]>=0){ q[m].flags|=DNNMEM_INTERVAL_FIXED; q[m].fixed_offset=snap[k][i]; fixed++;} else crossun++; }
      else if(snap[k][i]>=0 && snapdep[k][i]>=0 && snapdep[k][i]<D){ q[m].flags|=DNNMEM_INTERVAL_FIXED; q[m].fixed_offset=snap[k][i]; inplaced++;}
      m++; }
    res=solve(q,m,lim,&nodes);
    printf("D<%d snap %d depth %d at node %lld: crossers placed %d unplaced %d, inside placed %d -> window %s in %lld nodes\n",D,k,snapd[k],(long long)snapn[k],fixed,crossun,inplaced,res==1?"FEASIBLE":res==0?"INFEASIBLE":"unknown",(long long)nodes);
    fflush(stdout);
  }}
  return 0;
}
