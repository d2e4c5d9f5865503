#!/usr/bin/env python3
"""make mutate: a mutation run over dnnmem.h's implementation.

usage: tests/mutate.py [--seed S] [-n N] [--sanitize] [--list] [--only ID,...]
                       [--part-only] [--no-sanitize-survivors] [--work DIR]

Every mutation site of the implementation (from the part 1 marker that
starts it to the end of the implementation; comment, preprocessor and
DNNMEM_ASSERT lines left out) is listed in file order:
  rel     <  <=  >  >=  ==  != to their neighbour (< to <=, == to !=, ...)
  arith   a binary + to -, a binary - to +
  logic   && to ||, || to &&
  const   an integer literal: 0 to 1, 1 to 0, n to n + 1
  return  return DNNMEM_ERR_x to return DNNMEM_OK, and DNNMEM_OK to an error
  cond    if (c) to if (!(c)) (conditions closed on their line)
  break   break; and continue; dropped
The sample: the site list cut into N runs of equal length, one site drawn
in each by the seed (random.Random(seed)), so the mutants spread over the
whole file whatever the seed. Each mutant is built once (the implementation,
tests/impl.c, at -O1 without sanitizers unless --sanitize), then its
part's unit tests run (tests/test_PREFIX*.c, PREFIX from the part marker's
"(dnnmem_PREFIX_*)"; part 1: test_common), cheapest first, each built when
its turn comes (linked to the mutant's object, or compiled whole when it
uses private names), each with a timeout of ten times its unmutated run
plus 5 s. A mutant its part's tests miss is run against the rest of the
unit tests (unless --part-only), then (unless --no-sanitize-survivors) its
part's tests once more built with ASan+UBSan as make test builds them:
make test's unit tests kill it or not (the fuzz regressions and the CLI
tests are not run).

Not counted: mutants that do not compile (stillborn), mutants whose object
code is the unmutated one's (equivalent by construction), and the mutants
listed in tests/mutants_equivalent.txt (by their id, with a reason each).
Ends with "mutation score: K/M" (M: the mutants counted). A mutant's id is a
hash of its line's text and its change: it survives edits elsewhere.
"""
import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
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
    out, in_comment, cont = [], False, False
    for i in range(first, last):
        text = lines[i]
        was_cont, cont = cont, text.rstrip().endswith("\\")
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


def mutant_id(lines, site):
    i, col, length, new, op = site
    text = lines[i]
    key = "%s\0%d\0%s\0%s" % (text.strip(), col - (len(text) - len(text.lstrip())), new, op)
    return hashlib.sha1(key.encode()).hexdigest()[:10]


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
                mid, _, reason = raw.partition(" ")
                known[mid] = reason.strip()
    return known


def own_impl(path):
    """Whether a test compiles its own copy of the implementation (the
    Makefile's rule: private names or a DNNMEM_ configuration)."""
    text = "".join(l for l in open(path, encoding="utf-8") if not re.search(r"define\s*DNNMEM_IMPLEMENTATION", l))
    return re.search(r"dnnmem__|DNNMEM__|define\s+DNNMEM_", text) is not None


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


class Builder:
    def __init__(self, work, flags, tag):
        self.work, self.flags, self.tag = work, flags, tag
        self.tests = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "tests"))
                            if f.startswith("test_") and f.endswith(".c"))
        self.own = {t: own_impl(os.path.join(ROOT, "tests", t + ".c")) for t in self.tests}
        self.ready = False

    def cflags(self, hdr_dir):
        return ["-std=c99", "-w", "-I" + hdr_dir, "-I.", "-Itests",
                "-fmacro-prefix-map=%s/=" % hdr_dir] + self.flags

    def obj(self, t):
        return os.path.join(self.work, "obj-" + self.tag, t + ".o")

    def object(self, t):
        """Test t's object without the implementation, compiled once."""
        obj = self.obj(t)
        if not os.path.exists(obj):
            os.makedirs(os.path.dirname(obj), exist_ok=True)
            r = run([CC] + self.cflags(ROOT) + ["-DDNNMEM__IMPLEMENTATION_DONE", "-c", "-o", obj, "tests/%s.c" % t])
            if r.returncode:
                sys.exit("mutate: tests/%s.c does not compile:\n%s" % (t, r.stdout))
        return obj

    def impl(self, hdr_dir):
        """The implementation's object in hdr_dir, its code; None when it
        does not compile."""
        impl = os.path.join(hdr_dir, "impl-%s.o" % self.tag)
        if run([CC] + self.cflags(hdr_dir) + ["-c", "-o", impl, "tests/impl.c"]).returncode:
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


def run_test(exe, timeout):
    """'pass', 'fail' or 'timeout'."""
    try:
        r = subprocess.run([exe], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    ok = r.returncode == 0 and re.search(rb": \d+ passed, 0 failed\s*$", r.stdout)
    return "pass" if ok else "fail"


def main():
    ap = argparse.ArgumentParser(description="mutation run over dnnmem.h")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-n", type=int, default=100, help="mutants in the sample")
    ap.add_argument("--sanitize", action="store_true", help="build with ASan+UBSan (slower)")
    ap.add_argument("--list", action="store_true", help="list the sample, build nothing")
    ap.add_argument("--only", default="", help="comma-separated mutant ids to run (any site, not only the sample)")
    ap.add_argument("--part-only", action="store_true", help="only the part's tests")
    ap.add_argument("--no-sanitize-survivors", action="store_true",
                    help="do not rerun a survivor's part tests under ASan+UBSan")
    ap.add_argument("--work", default=os.path.join(os.environ.get("BUILD", "build"), "mutate"))
    args = ap.parse_args()

    lines = open(HEADER, encoding="utf-8").read().split("\n")
    all_sites = sites(lines)
    rng = random.Random(args.seed)
    n = min(args.n, len(all_sites))
    sample = []
    for c in range(n):
        lo, hi = c * len(all_sites) // n, (c + 1) * len(all_sites) // n
        sample.append(all_sites[rng.randrange(lo, hi)])
    parts = parts_of(lines)
    part_of = lambda i: [p for p in parts if p[0] <= i][-1]
    equivalent = read_equivalent()
    only = set(filter(None, args.only.split(",")))
    if only:  # the named mutants, wherever they are (sample or not)
        sample = [s for s in all_sites if mutant_id(lines, s) in only]
    print("mutate: %d sites, %d mutants (seed %d)" % (len(all_sites), n, args.seed))
    if args.list:
        for s in sample:
            p = part_of(s[0])
            print("%s part %d dnnmem.h:%d %-6s %s" % (mutant_id(lines, s), p[1], s[0] + 1, s[4],
                                                    apply(lines, s)[s[0]].strip()))
        return 0

    work = os.path.abspath(os.path.join(ROOT, args.work))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    plain = Builder(work, ["-O1", "-g0"] + (SAN if args.sanitize else []), "plain")
    sanitized = None if args.sanitize or args.no_sanitize_survivors else Builder(work, ["-O1", "-g0"] + SAN, "san")
    base = os.path.join(work, "base")
    os.makedirs(base)
    shutil.copy(HEADER, base)
    base_code = plain.impl(base)
    if base_code is None:
        sys.exit("mutate: the unmutated header does not build")
    timeouts = {}

    def timeout(b, t):
        """Test t's timeout in flavour b: its unmutated run (built, and the
        flavour's objects, when first asked for) times ten plus 5 s."""
        if (b.tag, t) not in timeouts:
            if not b.ready:
                if b is not plain and b.impl(base) is None:
                    sys.exit("mutate: the unmutated header does not build (%s)" % b.tag)
                b.ready = True
            exe = b.program(base, t)
            t0 = time.time()
            if exe is None or run_test(exe, 600) != "pass":
                sys.exit("mutate: %s fails unmutated (%s)" % (t, b.tag))
            timeouts[(b.tag, t)] = 5 + 10 * (time.time() - t0)
        return timeouts[(b.tag, t)]

    # the cheap tests first (their run time at 0.6.1, -O1); those with their
    # own copy of the implementation (a whole compile each) last
    cost = {"test_remat_plan": 3, "test_remat": 2, "test_remat_quality": 2, "test_cover": 1}
    order = sorted(plain.tests, key=lambda t: (plain.own[t], cost.get(t, 0), t))

    def kill(b, mdir, tests, note):
        """The first of tests that fails on the mutant: a verdict, or None."""
        for t in tests:
            limit = timeout(b, t)  # first: the unmutated run builds the flavour when needed
            exe = b.program(mdir, t)
            if exe is None:
                continue  # a test that does not build with the mutant: no verdict
            r = run_test(exe, limit)
            if r != "pass":
                return "%s (%s%s)" % (t, r, note)
        return None

    counts = {"killed": 0, "survived": 0, "equivalent": 0, "stillborn": 0}
    survivors = []
    mdir = os.path.join(work, "m")
    for k, s in enumerate(sample):
        mid = mutant_id(lines, s)
        if only and mid not in only:
            continue
        p = part_of(s[0])
        mutated = apply(lines, s)
        where = "%s part %d dnnmem.h:%d %-6s %s" % (mid, p[1], s[0] + 1, s[4], mutated[s[0]].strip()[:90])
        if mid in equivalent:
            counts["equivalent"] += 1
            print("%3d equivalent (listed)  %s" % (k + 1, where), flush=True)
            continue
        own_tests = [t for t in order if t.startswith("test_" + p[2])]
        rest = [t for t in order if t not in own_tests]
        shutil.rmtree(mdir, ignore_errors=True)
        os.makedirs(mdir)
        with open(os.path.join(mdir, "dnnmem.h"), "w", encoding="utf-8") as f:
            f.write("\n".join(mutated))
        code = plain.impl(mdir)
        if code is None:
            counts["stillborn"] += 1
            print("%3d stillborn            %s" % (k + 1, where), flush=True)
            continue
        if code == base_code:
            counts["equivalent"] += 1
            print("%3d equivalent (code)    %s" % (k + 1, where), flush=True)
            continue
        verdict = kill(plain, mdir, own_tests, "")
        if not verdict and not args.part_only:
            verdict = kill(plain, mdir, rest, ", other part")
        if not verdict and sanitized and sanitized.impl(mdir) is not None:
            verdict = kill(sanitized, mdir, own_tests, ", ASan/UBSan")
        if verdict:
            counts["killed"] += 1
            print("%3d killed by %-22s %s" % (k + 1, verdict, where), flush=True)
        else:
            counts["survived"] += 1
            survivors.append(where)
            print("%3d SURVIVED              %s" % (k + 1, where), flush=True)
    shutil.rmtree(mdir, ignore_errors=True)
    total = counts["killed"] + counts["survived"]
    print("killed %(killed)d, survived %(survived)d, equivalent %(equivalent)d, stillborn %(stillborn)d" % counts)
    for w in survivors:
        print("survivor: " + w)
    print("mutation score: %d/%d%s" % (counts["killed"], total,
                                       " (%.1f%%)" % (100.0 * counts["killed"] / total) if total else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
