# Issue 27's mark, measured as its user does: per graph,
#   build/dnnmem remat --plan --bound --budget B --iterations M --seed S --json --out PLAN GRAPH
# with B = max(50% of the row order's peak, 1.1 x the lower bound) (integers,
# as tests/bench_remat.c), each answer recounted by tests/check_remat_plan.py;
# one markdown row per graph and seed: extra time, the proven bound, the gap,
# the mark max(10%, bound + 2 points), arena/budget, pass, CPU seconds.
# usage: /usr/bin/python3 tests/eval_remat.py [--seeds 1,2,3] [--moves 30000000] GRAPH...
#   e.g. tests/data/proxy/*.train.graph.csv (the held-out proxy set)
import json, os, resource, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, '..', 'build', 'dnnmem')


def tool(*args):
    r = subprocess.run([TOOL, 'remat', '--json'] + list(args), capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('dnnmem remat %s: exit %d: %s' % (' '.join(args), r.returncode, r.stderr.strip()))
    return json.loads(r.stdout)


def main():
    args, seeds, moves = sys.argv[1:], [1], 30000000
    while args and args[0].startswith('--'):
        if args[0] == '--seeds':
            seeds = [int(x) for x in args[1].split(',')]
        elif args[0] == '--moves':
            moves = int(float(args[1]))
        else:
            sys.exit('unknown option %s' % args[0])
        args = args[2:]
    print('| graph | seed | n | budget MB | peak/budget | arena/budget | extra time | proven >= | gap | mark | pass | CPU s |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    runs = passed = 0
    gaps = []
    for f in args:
        info = tool('--budget-ratio', '1', '--iterations', '1', f)
        budget = max(info['base_peak'] // 2, info['lower_bound'] + info['lower_bound'] // 10)
        name = os.path.basename(f).replace('.train.graph.csv', '')
        for s in seeds:
            with tempfile.TemporaryDirectory() as tmp:
                plan, js = os.path.join(tmp, 'plan.csv'), os.path.join(tmp, 'res.json')
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                d = tool('--plan', '--bound', '--budget', str(budget), '--iterations', str(moves), '--seed', str(s),
                         '--out', plan, f)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                json.dump(d, open(js, 'w'))
                chk = subprocess.run(['/usr/bin/python3', os.path.join(HERE, 'check_remat_plan.py'), f, plan,
                                      str(budget), js], capture_output=True, text=True)
            extra, bound = 100.0 * d['overhead'], 100.0 * d['overhead_lower_bound']
            mark = max(10.0, bound + 2.0)
            ok = d['feasible'] and d['arena'] <= budget and extra <= mark and chk.returncode == 0
            runs += 1
            passed += ok
            gaps.append(extra - bound)
            print('| %s | %d | %d | %.1f | %.4f | %.4f | %.2f%% | %.2f%% | %.2f | %.2f%% | %s | %.1f |' % (
                name, s, d['n'], budget / 1e6, d['peak'] / budget, d['arena'] / budget, extra, bound, extra - bound,
                mark, 'yes' if ok else ('**no** (recount: %s)' % chk.stdout.strip() if chk.returncode else '**no**'),
                cpu), flush=True)
    if runs:
        print('\n%d of %d within the mark (arena <= budget, extra <= max(10%%, proven + 2)); mean gap %.2f points'
              % (passed, runs, sum(gaps) / runs))


if __name__ == '__main__':
    main()
