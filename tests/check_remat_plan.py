# An independent recount of `dnnmem remat --plan --out F` (step,node,offset
# rows) against its graph CSV, in another language than tests/ref.h:
# the sequence is valid (every node computed, inputs computed before use,
# sources computed once), its peak and time, and its arena: no two instances
# whose lifetimes meet share a byte, and the highest byte fits the budget.
# Instance at step i of node v lives over [i, e]: e is the last step q > i
# that reads v while i is v's latest computation, i if none, the end of the
# sequence for the last instance of a graph output (tests/ref.h's rule).
# usage: /usr/bin/python3 tests/check_remat_plan.py GRAPH.csv PLAN.csv [BUDGET [JSON]]
#   JSON: the tool's --json answer, whose peak, time and arena must match.
# Prints one line: steps, peak, time (ns), arena, and "ok" or what failed.
import csv, json, sys


def main():
    rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#') and l.strip())]
    n = len(rows)
    size = [int(r['size']) for r in rows]
    time = [int(round(float(r['time']) * 1000)) for r in rows]  # microseconds -> ns, as the tool reads them
    ins = [[int(x) for x in r['inputs'].split()] if r['inputs'] else [] for r in rows]
    out = [r.get('output', '0') == '1' for r in rows]
    plan = [(int(r['step']), int(r['node']), int(r['offset'])) for r in csv.DictReader(open(sys.argv[2]))]
    budget = int(sys.argv[3]) if len(sys.argv) > 3 else None
    errors = []
    seq = [v for _, v, _ in plan]
    if [s for s, _, _ in plan] != list(range(len(plan))):
        errors.append('steps are not 0..len-1 in order')
    latest, seen = {}, set()
    start = list(range(len(seq)))
    end = list(range(len(seq)))
    total = 0
    for q, v in enumerate(seq):
        if not 0 <= v < n:
            errors.append('step %d: node %d out of range' % (q, v))
            break
        if not ins[v] and v in seen:
            errors.append('step %d: source %d computed twice' % (q, v))
        for w in ins[v]:
            if w not in latest:
                errors.append('step %d: node %d reads %d before it is computed' % (q, v, w))
            else:
                end[latest[w]] = max(end[latest[w]], q)
        latest[v] = q
        seen.add(v)
        total += time[v]
    if len(seen) != n:
        errors.append('%d nodes never computed' % (n - len(seen)))
    for v, i in latest.items():
        if out[v]:
            end[i] = len(seq) - 1
    # peak: a sweep over +size at start, -size after end
    delta = [0] * (len(seq) + 1)
    for i, v in enumerate(seq):
        delta[i] += size[v]
        delta[end[i] + 1] -= size[v]
    peak = cur = 0
    for d in delta:
        cur += d
        peak = max(peak, cur)
    # arena: the top byte, and no two instances overlapping in time and bytes
    inst = sorted(range(len(seq)), key=lambda i: plan[i][2])
    arena = max((plan[i][2] + size[seq[i]] for i in inst if size[seq[i]] > 0), default=0)
    for i in inst:
        if plan[i][2] < 0:
            errors.append('step %d: negative offset' % i)
    # instances by offset; for each, the ones starting below its top byte
    clashes = 0
    for a in range(len(inst)):
        i = inst[a]
        if size[seq[i]] == 0:
            continue
        top = plan[i][2] + size[seq[i]]
        for b in range(a + 1, len(inst)):
            j = inst[b]
            if plan[j][2] >= top:
                break
            if size[seq[j]] > 0 and start[i] <= end[j] and start[j] <= end[i]:
                clashes += 1
                if clashes <= 3:
                    errors.append('steps %d and %d overlap in time and bytes' % (i, j))
    if budget is not None and arena > budget:
        errors.append('arena %d > budget %d' % (arena, budget))
    if len(sys.argv) > 4:
        d = json.load(open(sys.argv[4]))
        for k, mine in (('peak', peak), ('time', total), ('arena', arena)):
            if d.get(k) != mine:
                errors.append('%s: tool %s, recount %d' % (k, d.get(k), mine))
    print('steps %d peak %d time %d arena %d: %s' % (len(seq), peak, total, arena, '; '.join(errors) or 'ok'))
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
