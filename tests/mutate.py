#!/usr/bin/env python3
"""make mutate: a mutation run over dnnmem.h's implementation.

usage: tests/mutate.py [--seed S] [-n N] [-j JOBS] [--list] [--only ID,...]
                       [--parts P] [--lines A-B,...] [--no-sanitize-survivors] [--sanitize-budget SECONDS]
                       [--work DIR]

Every mutation site of the implementation (from the part 1 marker that
starts it to the end of the implementation; comment, preprocessor and
DNNMEM_ASSERT lines left out, and the scratch guard's code, the
#ifdef DNNMEM_SCRATCH_GUARD branches: a debug build's checks) is listed in
file order:
  rel     <  <=  >  >=  ==  != to their neighbour (< to <=, == to !=, ...)
  arith   a binary + to -, a binary - to +
  logic   && to ||, || to &&
  const   an integer literal: 0 to 1, 1 to 0, n to n + 1
  return  return DNNMEM_ERR_x to return DNNMEM_OK, and DNNMEM_OK to an error
  cond    if (c) to if (!(c)) (conditions closed on their line)
  break   break; and continue; dropped
The sample: the site list cut into N runs of equal length, one site drawn
in each by the seed (random.Random(seed)), so the mutants spread over the
whole file whatever the seed. --parts 2 (or 1-4, or 2,5) draws the same
way from those parts' sites only (a sample to work on one part; the score
of record is drawn from the whole file). --lines 8540-9070,9140-9900
draws from the sites on those lines of dnnmem.h only (with --parts: on
both).

Which tests can see a mutant: every unit test (tests/test_*.c) is built
once with gcov (-O0) and tests/test.h's hook (TEST_HOOK, the file HOOK
below -include'd), run as make test runs it, and the lines of dnnmem.h each
case runs are counted after each case; each case is also run alone, and
marked "alone" when it then runs the same lines as often (its inputs do
not hang on the cases before it: the random generators shared by a file's
cases make some depend). Cached per test file, while the file, the headers
and the hook stay the same. A mutant of line L is then run against the
cases that run L (a case label, or a line gcov lists no code for, such as
a declaration: the cases that run its function; outside any function: all
cases): a case marked alone in its own process, the others by running
their file up to the last of them. A case that does not run L cannot tell
the mutant from the code.

Each mutant is built once (tests/impl.c at -O0, no sanitizers, the scratch
guard on as in make test: DNNMEM_SCRATCH_GUARD; tests that
use private names compiled whole); its runs go cheapest first, each with a
CPU-time limit (load does not move it) of four times the case's time under
gcov plus 3 s, and the first that fails kills it. A mutant none fails is
compiled at -O1: the unmutated object code is an equivalent mutant; else
(unless --no-sanitize-survivors) its cheapest runs, up to
--sanitize-budget seconds under gcov, once more built with ASan+UBSan
(-O0) as make test would catch an overrun. make test's unit tests kill it or
not (the fuzz regressions, the CLI tests and the 32-bit build are not run).

Not counted: mutants that do not compile (stillborn), mutants whose object
code is the unmutated one's (equivalent by construction), and the mutants
listed in tests/mutants_equivalent.txt (by their id, with a reason each).
Ends with "mutation score: K/M" (M: the mutants counted). A mutant's id is a
hash of its line's text and its change: it survives edits elsewhere; equal
lines with the same change are numbered in file order (the first keeps the
plain hash).
"""
import argparse
import bisect
import concurrent.futures
import hashlib
import json
import os
import queue
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "dnnmem.h")
EQUIV = os.path.join(ROOT, "tests", "mutants_equivalent.txt")
CC = os.environ.get("CC", "gcc")
SAN = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//.*)
  | (?P<bopen>/\*)
  | (?P<str>"(?:\\.|[^"\\])*")
  | (?P<chr>'(?:\\.|[^'\\])*')
  | (?P<num>(?:0[xX][0-9a-fA-F]+|\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\.\d+|\d+)[uUlLfF]*)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[-+*/%<>=!&|^~?:;,.(){}\[\]#])
""", re.X)

KEYWORDS = {"return", "case", "sizeof", "else", "do"}
REL = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


def impl_range(lines):
    """(first, last) 0-based line indices of the implementation."""
    marks = [i for i, t in enumerate(lines) if t.startswith("/* ==== 1. Common")]
    end = next(i for i, t in enumerate(lines) if t.startswith("#endif /* DNNMEM__IMPLEMENTATION_DONE"))
    return marks[-1], end


def parts_of(lines):
    """[(first line index, number, prefix)] of each part's implementation."""
    last = {}
    for i, t in enumerate(lines):
        m = re.match(r"/\* ==== (\d+)\. .*?(?:\(dnnmem_(\w+?)_\*\))?\s*=+ \*/", t)
        if m:
            last[int(m.group(1))] = (i, int(m.group(1)), m.group(2) or "common")
    return sorted(last.values())


def code_tokens(text, in_comment):
    """The line's tokens outside comments: [(kind, text, col)], and whether
    a block comment is still open at its end."""
    toks, pos = [], 0
    while pos < len(text):
        if in_comment:
            end = text.find("*/", pos)
            if end < 0:
                return toks, True
            pos, in_comment = end + 2, False
            continue
        m = TOKEN.match(text, pos)
        if not m:
            pos += 1
            continue
        kind = m.lastgroup
        if kind == "bopen":
            in_comment = True
        elif kind not in ("ws", "comment"):
            toks.append((kind, m.group(), m.start()))
        pos = m.end()
    return toks, in_comment


def sites(lines):
    """Every mutation site: (line index, col, length, replacement, operator)."""
    first, last = impl_range(lines)
    out, in_comment, cont, guard = [], False, False, False
    for i in range(first, last):
        text = lines[i]
        was_cont, cont = cont, text.rstrip().endswith("\\")
        if re.match(r"\s*#\s*ifdef\s+DNNMEM_SCRATCH_GUARD\b", text):
            guard = True  # the scratch guard: test instrumentation, like DNNMEM_ASSERT
        elif guard and re.match(r"\s*#\s*(else|endif)\b", text):
            guard = False
        if guard:
            continue
        toks, in_comment_next = code_tokens(text, in_comment)
        skip = in_comment and not toks
        in_comment = in_comment_next
        if skip or was_cont or text.lstrip().startswith("#") or "DNNMEM_ASSERT" in text:
            continue
        for k, (kind, tok, col) in enumerate(toks):
            prev = toks[k - 1] if k else None
            binary = prev is not None and ((prev[0] in ("id", "num") and prev[1] not in KEYWORDS) or prev[1] in (")", "]"))
            if kind == "op" and tok in REL:
                out.append((i, col, len(tok), REL[tok], "rel"))
            elif kind == "op" and tok in ("+", "-") and binary:
                out.append((i, col, 1, "-" if tok == "+" else "+", "arith"))
            elif kind == "op" and tok in ("&&", "||"):
                out.append((i, col, 2, "||" if tok == "&&" else "&&", "logic"))
            elif kind == "num" and re.fullmatch(r"\d+[uUlL]*", tok):
                digits = re.match(r"\d+", tok).group()
                if len(digits) > 1 and digits.startswith("0"):
                    continue  # octal
                v = int(digits)
                new = "1" if v == 0 else "0" if v == 1 else str(v + 1)
                out.append((i, col, len(digits), new, "const"))
            elif kind == "id" and tok == "return" and k + 2 < len(toks) and toks[k + 2][1] == ";":
                val = toks[k + 1]
                if val[1] == "DNNMEM_OK":
                    out.append((i, val[2], len(val[1]), "DNNMEM_ERR_INVALID_ARGUMENT", "return"))
                elif val[1].startswith("DNNMEM_ERR_"):
                    out.append((i, val[2], len(val[1]), "DNNMEM_OK", "return"))
            elif kind == "id" and tok == "if" and k + 1 < len(toks) and toks[k + 1][1] == "(":
                depth = 0
                for kind2, tok2, col2 in toks[k + 1:]:
                    depth += tok2 == "("
                    depth -= tok2 == ")"
                    if depth == 0:
                        open_col = toks[k + 1][2]
                        cond = text[open_col + 1:col2]
                        out.append((i, open_col, col2 + 1 - open_col, "(!(" + cond + "))", "cond"))
                        break
            elif kind == "id" and tok in ("break", "continue") and k + 1 < len(toks) and toks[k + 1][1] == ";":
                out.append((i, col, len(tok), "", "break"))
    return out


def mutant_ids(lines, all_sites):
    """Each site's id: a hash of its line's text and its change, so that it
    survives edits elsewhere; equal lines with the same change (repeated
    code) are numbered in file order, the first keeping the plain hash."""
    seen, out = {}, []
    for i, col, length, new, op in all_sites:
        text = lines[i]
        key = "%s\0%d\0%s\0%s" % (text.strip(), col - (len(text) - len(text.lstrip())), new, op)
        k = seen.get(key, 0)
        seen[key] = k + 1
        out.append(hashlib.sha1((key if k == 0 else "%s\0%d" % (key, k)).encode()).hexdigest()[:10])
    return out


def apply(lines, site):
    i, col, length, new, _ = site
    out = list(lines)
    out[i] = lines[i][:col] + new + lines[i][col + length:]
    return out


def read_equivalent():
    known = {}
    if os.path.exists(EQUIV):
        for raw in open(EQUIV, encoding="utf-8"):
            raw = raw.strip()
            if raw and not raw.startswith("#"):
                m = re.match(r"((?:[0-9a-f]{10}\s+)*[0-9a-f]{10}):?\s+(.*)", raw)  # ids, then the reason
                for mid in m.group(1).split():
                    known[mid] = m.group(2)
    return known


def own_impl(path):
    """Whether a test compiles its own copy of the implementation (the
    Makefile's rule: private names or a DNNMEM_ configuration, comments
    aside)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(path, encoding="utf-8").read(), flags=re.S)
    text = "".join(l for l in text.splitlines(True) if not re.search(r"define\s*DNNMEM_IMPLEMENTATION", l))
    return re.search(r"dnnmem__|DNNMEM__|(?:define|undef)\s+DNNMEM_", text) is not None


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


# tests/test.h calls these around each case when TEST_HOOK is defined (the
# file is -include'd into every test program the run builds)
HOOK = r"""/* tests/mutate.py's hook into tests/test.h: MUTATE_ONLY=a,b runs those
   cases only, MUTATE_UNTIL=c none after c; a failing case ends the run at
   once; coverage builds move each case's counts to MUTATE_GCDA.K. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define TEST_HOOK 1
#ifdef MUTATE_COVERAGE
void __gcov_dump(void);
void __gcov_reset(void);
#endif
static int mutate__done, mutate__k;
static clock_t mutate__t0;
static int test_hook_before(const char *name) {
  const char *p = getenv("MUTATE_ONLY");
  size_t n = strlen(name);
  if (mutate__done) return 0;
  while (p) {
    const char *q = strchr(p, ',');
    size_t len = q ? (size_t)(q - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) break;
    p = q ? q + 1 : NULL;
    if (!p) return 0;
  }
  mutate__t0 = clock();
  return 1;
}
static void test_hook_after(const char *name, int passed, int failed) {
  const char *until = getenv("MUTATE_UNTIL");
  printf("mutate-case %d %s %.4f\n", mutate__k, name, (double)(clock() - mutate__t0) / CLOCKS_PER_SEC);
  if (failed) {
    printf("hook: %d passed, %d failed\n", passed, failed);
    fflush(stdout);
    exit(1);
  }
  if (until && strcmp(until, name) == 0) mutate__done = 1;
#ifdef MUTATE_COVERAGE
  {
    const char *gcda = getenv("MUTATE_GCDA");
    char to[4096];
    __gcov_dump();
    __gcov_reset();
    if (gcda && strlen(gcda) < 4000) {
      sprintf(to, "%s.%d", gcda, mutate__k);
      rename(gcda, to);
    }
  }
#endif
  mutate__k++;
}
"""


class Builder:
    def __init__(self, work, flags, tag, hook, impl_flags):
        self.work, self.flags, self.tag, self.hook, self.impl_flags = work, flags, tag, hook, impl_flags
        self.tests = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "tests"))
                            if f.startswith("test_") and f.endswith(".c"))
        self.own = {t: own_impl(os.path.join(ROOT, "tests", t + ".c")) for t in self.tests}
        self.lock = threading.Lock()
        self.base_ok = None

    def cflags(self, hdr_dir):
        return ["-std=c99", "-w", "-DDNNMEM_SCRATCH_GUARD", "-I" + hdr_dir, "-I.", "-Itests", "-include", self.hook,
                "-fmacro-prefix-map=%s/=" % hdr_dir] + self.flags

    def object(self, t):
        """Test t's object without the implementation, compiled once."""
        obj = os.path.join(self.work, "obj-" + self.tag, t + ".o")
        with self.lock:
            if not os.path.exists(obj):
                os.makedirs(os.path.dirname(obj), exist_ok=True)
                r = run([CC] + self.cflags(ROOT) + ["-DDNNMEM__IMPLEMENTATION_DONE", "-c", "-o", obj + ".tmp",
                                                    "tests/%s.c" % t])
                if r.returncode:
                    sys.exit("mutate: tests/%s.c does not compile:\n%s" % (t, r.stdout))
                os.rename(obj + ".tmp", obj)
        return obj

    def impl(self, hdr_dir):
        """The implementation's object in hdr_dir, its code; None when it
        does not compile."""
        impl = os.path.join(hdr_dir, "impl-%s.o" % self.tag)
        if run([CC] + self.cflags(hdr_dir) + self.impl_flags + ["-c", "-o", impl, "tests/impl.c"]).returncode:
            return None
        with open(impl, "rb") as f:
            return f.read()

    def program(self, hdr_dir, t):
        """Test t's program in hdr_dir (after impl()); its path, None when
        it does not build."""
        exe = os.path.join(hdr_dir, "%s-%s" % (t, self.tag))
        if self.own[t]:
            cmd = [CC] + self.cflags(hdr_dir) + ["-o", exe, "tests/%s.c" % t, "-lm"]
        else:
            cmd = [CC] + self.flags + ["-o", exe, self.object(t), os.path.join(hdr_dir, "impl-%s.o" % self.tag), "-lm"]
        return exe if run(cmd).returncode == 0 else None


def run_test(exe, env, cpu, wall):
    """'pass', 'fail' or 'timeout': exe run with env added, at most cpu
    seconds of CPU time (load does not change it) and wall seconds."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        os.nice(0)
    try:
        r = subprocess.run([exe], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=wall,
                           env=dict(os.environ, **env), preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return "timeout"
    if r.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return "timeout"
    ok = r.returncode == 0 and re.search(rb": \d+ passed, 0 failed\s*$", r.stdout)
    return "pass" if ok else "fail"


def coverage(builder, work, jobs):
    """Per test case, the lines of dnnmem.h it runs (gcov, -O0, the whole
    suite in file order, counts taken after each case), its CPU time, and
    per test whether each case run alone runs the same lines as many times
    (then a mutant's run may pick cases; else it runs the file up to its
    last case that matters). Cached under work by the text of the header
    and of the tests."""
    common = hashlib.sha1((HOOK + "coverage 2").encode())
    for f in [HEADER] + sorted(os.path.join(ROOT, "tests", f) for f in os.listdir(os.path.join(ROOT, "tests"))
                               if f.endswith(".h")):
        common.update(open(f, "rb").read())

    def cache_of(t):  # a test's counts stay valid while it and the headers do
        h = common.copy()
        h.update(open(os.path.join(ROOT, "tests", t + ".c"), "rb").read())
        return os.path.join(work, "coverage-%s-%s.json" % (t, h.hexdigest()[:12]))

    cdir = os.path.join(work, "cov")
    os.makedirs(cdir, exist_ok=True)
    t0 = time.time()

    def gcov_lines(t, gcda_from):
        """{line: count} of dnnmem.h from one case's counts file."""
        gcda = os.path.join(cdir, t + ".gcda")
        os.replace(gcda_from, gcda)
        r = subprocess.run(["gcov", "-j", "-t", "-o", cdir, gcda], cwd=cdir, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL)
        os.unlink(gcda)
        out, funcs = {}, {}
        for f in json.loads(r.stdout)["files"]:
            if os.path.basename(f["file"]) == "dnnmem.h":
                for l in f["lines"]:
                    out[l["line_number"]] = out.get(l["line_number"], 0) + l["count"]
                    funcs[l["line_number"]] = l.get("function_name", "")
        return out, funcs

    def one(t):
        if os.path.exists(cache_of(t)):
            d = json.load(open(cache_of(t)))
            return t, d["res"], {int(l): f for l, f in d["functions"].items()}
        obj, exe = os.path.join(cdir, t + ".o"), os.path.join(cdir, t)
        flags = builder.cflags(ROOT) + ["-O0", "--coverage", "-DMUTATE_COVERAGE"]
        r = run([CC] + flags + ["-c", "-o", obj, "tests/%s.c" % t])
        r2 = r.returncode or run([CC, "--coverage", "-o", exe, obj, "-lm"]).returncode
        if r.returncode or r2:
            sys.exit("mutate: tests/%s.c does not build with coverage:\n%s" % (t, r.stdout))
        gcda = os.path.join(cdir, t + ".gcda")
        res = {"cases": [], "time": [], "lines": [], "solo": []}
        funcs = {}
        # sequential, as make test runs it
        r = subprocess.run([exe], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           env=dict(os.environ, MUTATE_GCDA=gcda))
        if r.returncode:
            sys.exit("mutate: %s fails unmutated" % t)
        seq = []
        for m in re.finditer(rb"^mutate-case (\d+) (\w+) ([\d.]+)$", r.stdout, re.M):
            k, name = int(m.group(1)), m.group(2).decode()
            counts, f = gcov_lines(t, "%s.%d" % (gcda, k))
            funcs.update(f)
            res["cases"].append(name)
            res["time"].append(float(m.group(3)))
            seq.append(counts)
        # each case alone: does it run the same lines as often?
        for k, name in enumerate(res["cases"]):
            r = subprocess.run([exe], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, MUTATE_GCDA=gcda, MUTATE_ONLY=name))
            solo = r.returncode == 0 and os.path.exists(gcda + ".0") and gcov_lines(t, gcda + ".0")[0] == seq[k]
            res["solo"].append(solo)
        for f in os.listdir(cdir):
            if f.startswith(t + ".gcda"):
                os.unlink(os.path.join(cdir, f))
        res["lines"] = [sorted(l for l, c in counts.items() if c > 0) for counts in seq]
        print("mutate: coverage of %s: %d cases, %.1f s, %d run alone as in the suite" % (
            t, len(res["cases"]), sum(res["time"]), sum(res["solo"])), flush=True)
        with open(cache_of(t) + ".tmp", "w") as f:
            json.dump({"res": res, "functions": funcs}, f)
        os.rename(cache_of(t) + ".tmp", cache_of(t))
        return t, res, funcs

    tests, funcs = {}, {}
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for t, res, f in pool.map(one, builder.tests):
            tests[t] = res
            funcs.update(f)
    shutil.rmtree(cdir, ignore_errors=True)
    print("mutate: coverage taken in %.0f s" % (time.time() - t0), flush=True)
    return {"tests": tests, "functions": {str(l): f for l, f in funcs.items()}}


class Selector:
    """The test cases that can tell a mutant of line L from the code: those
    that run L (gcov's count); for a line gcov lists no code for (a
    declaration, a case label: a change there acts where other lines run)
    or a case label, those that run its function; all cases when the line
    is in no function."""
    def __init__(self, cov, lines):
        self.cov, self.text = cov, lines
        self.func = {int(l): f for l, f in cov["functions"].items()}
        self.exec_lines = sorted(self.func)
        self.by_line, self.by_func = {}, {}
        for t, res in cov["tests"].items():
            for k, ls in enumerate(res["lines"]):
                for l in ls:
                    self.by_line.setdefault(l, set()).add((t, k))
                    self.by_func.setdefault(self.func.get(l), set()).add((t, k))

    def cases(self, line):
        if line in self.func and not re.search(r"\bcase\b", self.text[line - 1]):
            return self.by_line.get(line, set())
        j = bisect.bisect_left(self.exec_lines, line)
        before = self.func[self.exec_lines[j - 1]] if j > 0 else None
        after = self.func[self.exec_lines[j]] if j < len(self.exec_lines) else None
        if before is not None and before == after:
            return self.by_func.get(before, set())
        return {(t, k) for t, res in self.cov["tests"].items() for k in range(len(res["cases"]))}

    def plan(self, line, own):
        """[(test, env, seconds)], cheapest first: the test runs to make
        (a case alone when it runs alone as in the suite; else the test's
        cases up to the last such one), their CPU time under coverage."""
        per = {}
        for t, k in self.cases(line):
            per.setdefault(t, []).append(k)
        out = []
        for t, ks in per.items():
            res = self.cov["tests"][t]
            ks.sort()
            tied = [k for k in ks if not res["solo"][k]]
            if tied:
                out.append((t, {"MUTATE_UNTIL": res["cases"][tied[-1]]}, sum(res["time"][:tied[-1] + 1])))
            for k in ks:
                if not tied or k > tied[-1]:
                    out.append((t, {"MUTATE_ONLY": res["cases"][k]}, res["time"][k]))
        out.sort(key=lambda x: (x[2] + (3.0 if own[x[0]] else 0.0), x[0]))
        return out


def main():
    ap = argparse.ArgumentParser(description="mutation run over dnnmem.h")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=100, help="mutants in the sample")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="mutants built and run at once")
    ap.add_argument("--list", action="store_true", help="list the sample, build nothing")
    ap.add_argument("--only", default="", help="comma-separated mutant ids to run (any site, not only the sample)")
    ap.add_argument("--parts", default="", help="draw from these parts' sites only: 2 or 1-4 or 2,5 (default: all)")
    ap.add_argument("--lines", default="", help="draw from these lines of dnnmem.h only: A-B[,C-D] (default: all)")
    ap.add_argument("--no-sanitize-survivors", action="store_true",
                    help="do not rerun a survivor's tests under ASan+UBSan")
    ap.add_argument("--sanitize-budget", type=float, default=3.0,
                    help="the ASan+UBSan stage runs a survivor's cheapest test runs, up to this many seconds "
                         "of their CPU time under coverage")
    ap.add_argument("--work", default=os.path.join(os.environ.get("BUILD", "build"), "mutate"))
    args = ap.parse_args()

    lines = open(HEADER, encoding="utf-8").read().split("\n")
    all_sites = sites(lines)
    ids = mutant_ids(lines, all_sites)
    parts = parts_of(lines)
    part_of = lambda i: [p for p in parts if p[0] <= i][-1]
    pool = list(range(len(all_sites)))  # the sites the sample is drawn from
    if args.parts:
        want = set()
        for a in args.parts.split(","):
            lo, _, hi = a.partition("-")
            want.update(range(int(lo), int(hi or lo) + 1))
        pool = [k for k in pool if part_of(all_sites[k][0])[1] in want]
    if args.lines:
        spans = [tuple(int(x) for x in a.split("-")) for a in args.lines.split(",")]
        pool = [k for k in pool if any(lo <= all_sites[k][0] + 1 <= hi for lo, hi in spans)]
    rng = random.Random(args.seed)
    n = min(args.n, len(pool))
    sample = []
    for c in range(n):
        lo, hi = c * len(pool) // n, (c + 1) * len(pool) // n
        sample.append(pool[rng.randrange(lo, hi)])
    equivalent = read_equivalent()
    only = set(filter(None, args.only.split(",")))
    if only:  # the named mutants, wherever they are (sample or not)
        sample = [k for k in range(len(all_sites)) if ids[k] in only]

    def where(k):
        s = all_sites[k]
        return "%s part %d dnnmem.h:%d %-6s %s" % (ids[k], part_of(s[0])[1], s[0] + 1, s[4],
                                                  apply(lines, s)[s[0]].strip()[:90])

    print("mutate: %d sites, %d mutants (seed %d)" % (len(all_sites), len(sample), args.seed))
    if args.list:
        for k in sample:
            print(where(k))
        return 0

    t_start = time.time()
    work = os.path.abspath(os.path.join(ROOT, args.work))
    os.makedirs(work, exist_ok=True)
    for f in os.listdir(work):
        if not f.startswith("coverage-"):  # kept: the counts of tests unchanged since
            shutil.rmtree(os.path.join(work, f), ignore_errors=True)
    hook = os.path.join(work, "hook.h")
    with open(hook, "w") as f:
        f.write(HOOK)
    plain = Builder(work, ["-O0", "-g0"], "plain", hook, [])
    optimized = Builder(work, ["-O1", "-g0"], "opt", hook, [])  # equal object code: an equivalent mutant
    sanitized = None if args.no_sanitize_survivors else Builder(work, ["-O0", "-g0"] + SAN, "san", hook, [])
    cov = coverage(plain, work, args.jobs)
    select = Selector(cov, lines)
    base = os.path.join(work, "base")
    os.makedirs(base)
    shutil.copy(HEADER, base)
    base_code = optimized.impl(base)
    if base_code is None or plain.impl(base) is None:
        sys.exit("mutate: the unmutated header does not build")
    for t in plain.tests:
        if not plain.own[t]:
            plain.object(t)

    def ensure_base(b):
        with b.lock:
            if b.base_ok is None:
                b.base_ok = b is plain or b.impl(base) is not None
            if not b.base_ok:
                sys.exit("mutate: the unmutated header does not build (%s)" % b.tag)

    def kill(b, mdir, plan, factor, note, budget=None):
        """The first test of plan that fails on the mutant: a verdict, or None.
        With a budget, only the cheapest runs that fit in it (seconds under
        coverage)."""
        ensure_base(b)
        exes = {}
        spent = 0.0
        for t, env, secs in plan:
            spent += secs
            if budget is not None and spent > budget:
                break
            if t not in exes:
                exes[t] = b.program(mdir, t)
            exe = exes[t]
            if exe is None:
                continue  # a test that does not build with the mutant: no verdict
            cpu = int(factor * secs) + 3
            r = run_test(exe, env, cpu, 4 * cpu + 30)
            if r != "pass":
                return "%s (%s%s)" % (t, r, note)
        return None

    def judge(slot, k):
        """(verdict kind, text) of sample mutant k, built in its own folder."""
        s = all_sites[k]
        mid = ids[k]
        if mid in equivalent:
            return "equivalent", "equivalent (listed)"
        mdir = os.path.join(work, "m%d" % slot)
        shutil.rmtree(mdir, ignore_errors=True)
        os.makedirs(mdir)
        with open(os.path.join(mdir, "dnnmem.h"), "w", encoding="utf-8") as f:
            f.write("\n".join(apply(lines, s)))
        try:
            if plain.impl(mdir) is None:
                return "stillborn", "stillborn"
            plan = select.plan(s[0] + 1, plain.own)
            verdict = kill(plain, mdir, plan, 4, "")
            if not verdict and optimized.impl(mdir) == base_code:
                return "equivalent", "equivalent (code)"
            if not plan:
                return "survived", "SURVIVED (no test runs it)"
            if not verdict and sanitized and sanitized.impl(mdir) is not None:
                verdict = kill(sanitized, mdir, plan, 15, ", ASan/UBSan", args.sanitize_budget)
            if verdict:
                return "killed", "killed by " + verdict
            return "survived", "SURVIVED (%d runs of %d tests)" % (len(plan), len(set(t for t, _, _ in plan)))
        finally:
            shutil.rmtree(mdir, ignore_errors=True)

    counts = {"killed": 0, "survived": 0, "equivalent": 0, "stillborn": 0}
    survivors = []
    slots = queue.Queue()
    for j in range(max(1, args.jobs)):
        slots.put(j)

    def task(k):
        slot = slots.get()
        try:
            t0 = time.time()
            kind, text = judge(slot, k)
            return kind, text, time.time() - t0
        finally:
            slots.put(slot)

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(task, k) for k in sample]
        for num, (k, fut) in enumerate(zip(sample, futures)):
            kind, text, secs = fut.result()
            counts[kind] += 1
            if kind == "survived":
                survivors.append(where(k))
            print("%3d %-44s %4.0fs %s" % (num + 1, text, secs, where(k)), flush=True)
    total = counts["killed"] + counts["survived"]
    print("killed %(killed)d, survived %(survived)d, equivalent %(equivalent)d, stillborn %(stillborn)d" % counts)
    for w in survivors:
        print("survivor: " + w)
    print("run time: %.0f s" % (time.time() - t_start))
    print("mutation score: %d/%d%s" % (counts["killed"], total,
                                       " (%.1f%%)" % (100.0 * counts["killed"] / total) if total else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
