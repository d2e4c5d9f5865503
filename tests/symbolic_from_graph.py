#!/usr/bin/env python3
"""Makes a symbolic intervals CSV (sizes as polynomials in the sequence
length S) from a transformer's graph CSV traced at one sequence length.

    tests/symbolic_from_graph.py GRAPH.graph.csv GRAPH.intervals.csv > OUT.csv

The graph was traced with batch 1 at sequence length T0, which the first
row gives: the token ids (int64) are T0 x 8 bytes. Every value's shape is a
product of model constants and S, so its size is c x S^d: d is found by
propagating degrees through the ops (token ids: 1; a matrix product of two
degree-1 operands, queries x keys: 2; one of degree 2 and one of degree 1,
scores x values: 1; every other op: the largest degree of its inputs) and c
= size / T0^d must come out an integer, which the script asserts for every
value, as it asserts that the polynomial gives back every traced size.
Lifetimes are copied from the intervals CSV (same ids)."""
import csv
import sys


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def main():
    graph, intervals = rows(sys.argv[1]), rows(sys.argv[2])
    assert graph[0]["op"] == "input" and int(graph[0]["size"]) % 8 == 0
    t0 = int(graph[0]["size"]) // 8
    degree = []
    for row in graph:
        ins = [int(i) for i in row["inputs"].split()] if row["inputs"] else []
        if row["op"] == "input":
            d = 1
        elif row["op"] == "matmul":
            a, b = sorted(degree[i] for i in ins)
            assert (a, b) in ((1, 1), (1, 2)), row
            d = 2 if (a, b) == (1, 1) else 1
        else:
            d = max(degree[i] for i in ins)
        degree.append(d)
    assert len(intervals) == len(graph)
    print("# %s: sizes in bytes as polynomials of the sequence length S (batch 1),"
          % sys.argv[1].split("/")[-1].replace(".graph.csv", ""))
    print("# from the graph traced at S = %d by tests/symbolic_from_graph.py" % t0)
    print("id,lower,upper,size")
    for row, iv, d in zip(graph, intervals, degree):
        size = int(row["size"])
        assert iv["id"] == row["id"] and int(iv["size"]) == size
        assert size % t0 ** d == 0, (row, d)
        c = size // t0 ** d
        assert c * t0 ** d == size
        poly = "%d*S^%d" % (c, d) if d > 1 else "%d*S" % c
        print("%s,%s,%s,%s" % (iv["id"], iv["lower"], iv["upper"], poly))


if __name__ == "__main__":
    main()
