/* notes/ISSUE-29-densesand.md: how many records are sand (one granule, one section) in a tiling or its window.
   gcc -O2 -std=c99 -I. -Itests -o cnt notes/ISSUE-29-densesand-count.c -lm; cnt SIZE SEED [CLIP] */
#include "bench.h"
static int64_t gcd(int64_t a, int64_t b){ while(b){int64_t t=a%b;a=b;b=t;} return a; }
static int cmp(const void*a,const void*b){ int64_t x=*(const int64_t*)a,y=*(const int64_t*)b; return x<y?-1:x>y; }
int main(int argc,char**argv){
  int size=atoi(argv[1]), seed=atoi(argv[2]); int64_t c = argc>3?atoll(argv[3]):0;
  dnnmem_interval *r = calloc(size, sizeof *r); dnnmem_rng rng; int32_t n,i,m=0;
  dnnmem_rng_seed(&rng, seed); n = ref_plan_tiling(&rng, r, size, 1000, 1024*1024, 1024);
  if (c) { for (i=0;i<n;i++) if (r[i].lower<c){ r[m]=r[i]; if(r[m].upper>c) r[m].upper=c; m++; } n=m; }
  int64_t g=0, *t = malloc(sizeof(int64_t)*2*n); int nt=0;
  for(i=0;i<n;i++){ g=gcd(g,r[i].size); t[nt++]=r[i].lower; t[nt++]=r[i].upper; }
  qsort(t,nt,sizeof *t,cmp); int d=0; for(i=0;i<nt;i++) if(!d||t[d-1]!=t[i]) t[d++]=t[i];
  int sec=d-1; int unit=0, one=0, unit1=0, unit2=0; int *secsand=calloc(sec,sizeof(int));
  for(i=0;i<n;i++){ int lo=0,hi=0,k; for(k=0;k<d;k++){ if(t[k]==r[i].lower) lo=k; if(t[k]==r[i].upper) hi=k; }
    if(r[i].size==g) unit++; if(hi-lo==1) one++; if(r[i].size==g&&hi-lo==1){unit1++; secsand[lo]++;} if(r[i].size==g&&hi-lo==2) unit2++; }
  int secs_with=0; for(i=0;i<sec;i++) if(secsand[i]) secs_with++;
  printf("%d/%d clip %lld: n %d g %lld sections %d unit %d onesec %d unit&onesec %d (in %d sections) unit&2sec %d\n", size, seed,(long long)c, n,(long long)g,sec,unit,one,unit1,secs_with,unit2);
  return 0; }
