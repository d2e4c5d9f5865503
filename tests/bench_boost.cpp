// tests/bench_boost.cpp: times Boost.Graph's boykov_kolmogorov_max_flow on
// DIMACS max-flow files, for the side-by-side table of tests/bench_flow.c.
// Built (only where Boost is installed) with: g++ -O2 -DNDEBUG tests/bench_boost.cpp
//   usage: bench_boost FILE.max ...
// prints one line per file: "FILE FLOW SECONDS CPU_SECONDS" (the solve only,
// not reading; wall clock, then this process's CPU time).
// Arcs are read with a plain reader into an adjacency_list with vecS storage
// (Boost's usual choice); each DIMACS arc gets a reverse arc of capacity 0,
// as read_dimacs_max_flow does.
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/boykov_kolmogorov_max_flow.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <cstring>
#include <vector>

typedef boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS> Traits;
typedef boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS,
    boost::property<boost::vertex_index_t, long,
                    boost::property<boost::vertex_color_t, boost::default_color_type,
                                    boost::property<boost::vertex_distance_t, long,
                                                    boost::property<boost::vertex_predecessor_t,
                                                                    Traits::edge_descriptor> > > >,
    boost::property<boost::edge_capacity_t, long long,
                    boost::property<boost::edge_residual_capacity_t, long long,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor> > > >
    Graph;

static int run(const char *path) {
  FILE *f = std::fopen(path, "r");
  if (!f) {
    std::fprintf(stderr, "bench_boost: cannot open %s\n", path);
    return 1;
  }
  char line[256];
  long n = 0, s = -1, t = -1;
  std::vector<long> from, to;
  std::vector<long long> cap;
  while (std::fgets(line, sizeof line, f)) {
    long a, b;
    long long c;
    char k;
    if (line[0] == 'p') {
      long m;
      if (std::sscanf(line, "p max %ld %ld", &n, &m) == 2) {
        from.reserve(m);
        to.reserve(m);
        cap.reserve(m);
      }
    } else if (line[0] == 'n' && std::sscanf(line, "n %ld %c", &a, &k) == 2) {
      if (k == 's') s = a - 1;
      else t = a - 1;
    } else if (line[0] == 'a' && std::sscanf(line, "a %ld %ld %lld", &a, &b, &c) == 3) {
      from.push_back(a - 1);
      to.push_back(b - 1);
      cap.push_back(c);
    }
  }
  std::fclose(f);
  if (n <= 0 || s < 0 || t < 0) {
    std::fprintf(stderr, "bench_boost: %s is not a DIMACS max-flow file\n", path);
    return 1;
  }
  Graph g(n);
  boost::property_map<Graph, boost::edge_capacity_t>::type capacity = boost::get(boost::edge_capacity, g);
  boost::property_map<Graph, boost::edge_reverse_t>::type reverse = boost::get(boost::edge_reverse, g);
  for (size_t i = 0; i < from.size(); i++) {
    Traits::edge_descriptor e1 = boost::add_edge(from[i], to[i], g).first;
    Traits::edge_descriptor e2 = boost::add_edge(to[i], from[i], g).first;
    capacity[e1] = cap[i];
    capacity[e2] = 0;
    reverse[e1] = e2;
    reverse[e2] = e1;
  }
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  long long flow = boost::boykov_kolmogorov_max_flow(g, s, t);
  double cpu = (double)(std::clock() - c0) / CLOCKS_PER_SEC;
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%s %lld %.6f %.6f\n", path, flow, sec, cpu);
  std::fflush(stdout);
  return 0;
}

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; i++) status |= run(argv[i]);
  return status;
}
