#!/usr/bin/env python3
"""tflite_to_graph.py: a .tflite model -> the intervals CSV of the buffers
TensorFlow Lite Micro plans for it, lifetimes as its allocator computes them.

usage: tflite_to_graph.py [-o OUT.csv] MODEL.tflite
       (writes to standard output without -o; MODEL may be - for stdin)

Each row is one buffer TensorFlow Lite Micro's allocator hands to its
memory planner, in the order it adds them (AddBuffer), so that
`dnnmem plan --algo greedy-tflm` gives its GreedyMemoryPlanner's offsets
row for row and `plan` (best) compares one to one with it:

  id        the planner's buffer index (0, 1, ...)
  lower     first use: the allocation scope of the producing operator
            (graph inputs: the subgraph's start)
  upper     last use + 1 (the CSV's lifetimes are half-open): the scope of
            the last operator reading or writing it (graph outputs: the
            subgraph's end)
  size      bytes (shape x element size), rounded up to 16 bytes
  offset    only when the model carries offline-planned offsets
            ("OfflineMemoryAllocation" metadata): that buffer's fixed
            offset, empty for the buffers left to the planner
  tensor    SUBGRAPH:TENSOR, which tensor the row is

What it reproduces of the allocator (micro_allocation_info.cc,
micro_allocator.cc): every subgraph's tensors in order (subgraph 0 first)
that have no constant data, are not variables (unless offline planned) and
are not empty; scopes counted as it does: the inputs of a subgraph at the
current scope, each operator one more, the subgraphs an IF / WHILE /
CALL_ONCE invokes marked inside that operator's scope (each entered with one
more), outputs at the end. Tensors of subgraphs never invoked keep its
"uninitialised" lifetime [-1, -1]: it plans them so too. Kernel scratch
buffers (requested at run time by the kernels' Prepare) are not in the
file and not included.

Why the intervals CSV and not the graph CSV: the graph CSV derives a
lifetime per row (one row, one step; topological ids), while TensorFlow
Lite Micro's scopes give all outputs of an operator, or all graph inputs,
one shared time, nest control-flow subgraphs inside an operator, and its
planner breaks ties among equal sizes by the order buffers were added
(tensor order, not necessarily topological); the intervals CSV carries
those lifetimes and that order exactly, and fixed offsets.

Constants whose data is stored past the flatbuffer (Buffer.offset/size,
as converters write models over 2 GB) or in an external file
(Tensor.external_buffer) are planned as arena buffers, as its allocator
plans them, with a warning: TensorFlow Lite Micro reads constants only from
inside the flatbuffer, so the model would compute on uninitialised weights
there; it runs on TensorFlow Lite (LiteRT), not on TensorFlow Lite Micro.
Offsets are looked at as TensorFlow Lite looks at them: for the buffers a
tensor reads that have no data inside the flatbuffer, buffer 0 (the empty
one) never; one past the end of the file is refused. Tensors no operator
it runs reads or writes (a subgraph never invoked, or an Edge TPU model's
leftovers) are planned at [-1, -1] as it plans them, all live at once, and
noted with their bytes. A control-flow operator's subgraph index of -1
enters no subgraph, as in its allocator. Refused as it cannot plan them: a
tensor of more than 2^31 - 1 elements (its element counts are int), a
buffer it plans of more than 2^31 - 1 bytes once rounded up to 16 (its
planner's sizes are int; a constant that large is not planned and
converts), a negative offline offset other than -1 for a buffer it plans,
subgraphs calling each other in a cycle, and control flow that makes its
allocator take more than 3,000,000 steps (tensor uses, operators,
subgraph entries: it walks a subgraph anew at every call).

Dynamic dimensions (-1 in a tensor's shape_signature) are sized as the
file's shape gives them, as TensorFlow Lite Micro sizes them, with a note
in the header; on any axis but a leading batch axis (of a tensor of rank
>= 2: a rank-1 [-1] is a length, not a batch) the file's size is the
exporter's placeholder (openWakeWord's melspectrogram.tflite: [1, 1] for
[-1, -1]), so a warning goes to standard error as well.

The file is read with a flatbuffer reader written here from the published
schema's field numbers (tensorflow/compiler/mlir/lite/schema/schema.fbs),
every offset bounds-checked: a bad file is an error message, never a crash.
Exit status 0 written, 1 usage, 2 a file it cannot read (FILE: what).
"""

import struct
import sys

ALIGN = 16  # MicroArenaBufferAlignment()
INT_MAX = 2 ** 31 - 1  # its element counts (ElementCount) and planner sizes (AddBuffer) are int
# Its allocator walks a subgraph anew at every IF / WHILE / CALL_ONCE that
# calls it, so subgraphs calling the next twice are walked 2^depth times: a
# file of a few KB would take years. The walk's cost (tensor uses, operators,
# subgraph entries) is counted before walking: real models take a few
# thousand steps, and this many take a few seconds here.
MAX_WORK = 3000000
IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3

# TensorType -> bytes per element, as TfLiteTypeSizeOf (int4 takes a byte);
# STRING, VARIANT, INT2, UINT4, FLOAT8 are refused there, so here too.
TYPE_SIZES = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 8: 8, 9: 1, 10: 8, 11: 16,
              12: 8, 13: 4, 15: 4, 16: 2, 17: 1, 18: 2}
TYPE_NAMES = {5: "STRING", 14: "VARIANT", 19: "INT2", 20: "UINT4", 21: "FLOAT8_E4M3FN",
              22: "FLOAT8_E5M2"}

# BuiltinOperator codes and their BuiltinOptions union members
OP_IF, OP_WHILE, OP_CALL_ONCE = 118, 119, 129
OPTIONS = {OP_IF: (92, "IfOptions"), OP_WHILE: (93, "WhileOptions"),
           OP_CALL_ONCE: (103, "CallOnceOptions")}

USAGE = "usage: tflite_to_graph.py [-o OUT.csv] MODEL.tflite  (--help for more)\n"


class BadFile(Exception):
    pass


class Flatbuffer:
    """Little-endian reads at absolute positions, each checked against the
    end of the file (a truncated file reads past it)."""

    def __init__(self, data):
        self.data = data

    def read(self, fmt, pos):
        n = struct.calcsize(fmt)
        if pos < 0 or pos + n > len(self.data):
            raise BadFile("truncated or corrupt: a read at byte %d past the end (%d bytes)"
                          % (pos, len(self.data)))
        return struct.unpack_from("<" + fmt, self.data, pos)[0]

    def table(self, pos):
        vtable = pos - self.read("i", pos)
        vt_len = self.read("H", vtable)
        if vt_len < 4 or vt_len % 2:
            raise BadFile("corrupt: a table at byte %d has a bad vtable" % pos)
        self.read("H", vtable + vt_len - 2)
        return Table(self, pos, vtable, vt_len)


class Table:
    def __init__(self, fb, pos, vtable, vt_len):
        self.fb, self.pos, self.vtable, self.vt_len = fb, pos, vtable, vt_len

    def field(self, n):
        """Absolute position of field n, or None when absent."""
        at = 4 + 2 * n
        if at >= self.vt_len:
            return None
        off = self.fb.read("H", self.vtable + at)
        return self.pos + off if off else None

    def scalar(self, n, fmt, default=0):
        p = self.field(n)
        return default if p is None else self.fb.read(fmt, p)

    def _deref(self, n):
        p = self.field(n)
        return None if p is None else p + self.fb.read("I", p)

    def sub(self, n):
        p = self._deref(n)
        return None if p is None else self.fb.table(p)

    def vector(self, n):
        """(start, length) of a vector field, or None."""
        p = self._deref(n)
        if p is None:
            return None
        length = self.fb.read("I", p)
        if p + 4 + length > len(self.fb.data):
            raise BadFile("truncated or corrupt: a vector at byte %d runs past the end" % p)
        return p + 4, length

    def ints(self, n, fmt="i"):
        v = self.vector(n)
        if v is None:
            return None
        start, length = v
        size = struct.calcsize(fmt)
        self.fb.read("B", start + size * length - 1) if length else None
        return list(struct.unpack_from("<%d%s" % (length, fmt), self.fb.data, start))

    def tables(self, n):
        v = self.vector(n)
        if v is None:
            return []
        start, length = v
        return [self.fb.table(start + 4 * k + self.fb.read("I", start + 4 * k)) for k in range(length)]

    def string(self, n):
        v = self.vector(n)
        if v is None:
            return None
        start, length = v
        self.fb.read("B", start + length - 1) if length else None
        return self.fb.data[start:start + length].decode("utf-8", "replace")

    def byte_count(self, n):
        v = self.vector(n)
        return 0 if v is None else v[1]


def is_zip(data):
    """A zip whatever its first bytes (MediaPipe's .task bundles start with two zero bytes), unless it is a
    .tflite: one with metadata carries its associated files as a zip appended after the flatbuffer."""
    import io
    import zipfile
    if data[4:8] == IDENTIFIER:
        return False
    return data[:4] == b"PK\x03\x04" or zipfile.is_zipfile(io.BytesIO(data))


def open_model(data):
    if is_zip(data):
        raise BadFile("a zip archive, not a .tflite (a MediaPipe .task bundle? unzip it: each .tflite inside converts)")
    if data[:1] == b"\x08" and data[4:8] != IDENTIFIER:  # a protobuf's first field, ModelProto's ir_version
        raise BadFile("not a TensorFlow Lite model (no 'TFL3' identifier; it starts like a protobuf: an ONNX model? "
                      "convert it with examples/onnx_to_graph.py)")
    if len(data) < 8:
        raise BadFile("not a flatbuffer: %d bytes, too short" % len(data))
    fb = Flatbuffer(data)
    root = fb.read("I", 0)
    if root < 8 or root + 4 > len(data):
        raise BadFile("not a flatbuffer: the root offset %d is outside the file (%d bytes)" % (root, len(data)))
    if data[4:8] != IDENTIFIER:
        raise BadFile("not a TensorFlow Lite model: file identifier %r, expected 'TFL3'"
                      % data[4:8].decode("latin-1"))
    model = fb.table(root)
    version = model.scalar(0, "I")
    if version != SCHEMA_VERSION:
        raise BadFile("schema version %d, this reader knows %d" % (version, SCHEMA_VERSION))
    return model


def offline_offsets(model, buffers, tensor_count):
    """The 'OfflineMemoryAllocation' metadata's offsets (one per tensor of
    every subgraph, -1 = planned online), or None (GetOfflinePlannedOffsets)."""
    found = None
    for meta in model.tables(6):
        if meta.string(0) != "OfflineMemoryAllocation":
            continue
        b = meta.scalar(1, "I")
        if b >= len(buffers):
            raise BadFile("OfflineMemoryAllocation: buffer %d out of range (%d buffers)" % (b, len(buffers)))
        words = buffers[b].ints(0, "B")
        if words is None or len(words) < 12 or len(words) % 4:
            raise BadFile("OfflineMemoryAllocation: buffer %d is not an int32 array of at least 3" % b)
        values = list(struct.unpack("<%di" % (len(words) // 4), bytes(words)))
        if values[2] != tensor_count or len(values) < 3 + tensor_count:
            raise BadFile("OfflineMemoryAllocation: %d offsets (%d stored) for %d tensors"
                          % (values[2], len(values) - 3, tensor_count))
        found = values[3:3 + tensor_count]  # the last such entry wins, as in its loop
    return found


def plural(n, what):
    """'1 tensor', '2 tensors'."""
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


def short(shape):
    """A shape for a message: past 8 dimensions, its first and last 3 and its rank."""
    if len(shape) <= 8:
        return str(list(shape))
    return "[%s, ..., %s] (rank %d)" % (", ".join(map(str, shape[:3])), ", ".join(map(str, shape[-3:])), len(shape))


def chain(subgraphs):
    """'0 -> 1 -> 2', the middle of a long one left out."""
    xs = [str(x) for x in subgraphs]
    return " -> ".join(xs if len(xs) <= 7 else xs[:3] + ["..."] + xs[-3:])


def convert(data):
    """The rows (id, lower, upper, size, offset or None, 'S:T') and notes."""
    model = open_model(data)
    codes = model.tables(1)
    subgraphs = model.tables(2)
    buffers = model.tables(4)
    if not subgraphs:
        raise BadFile("no subgraph")
    tensors = [sg.tables(0) for sg in subgraphs]
    base, total = [], 0
    for t in tensors:
        base.append(total)
        total += len(t)
    offline = offline_offsets(model, buffers, total)
    external_ids = set(e.scalar(0, "I") for e in model.tables(9))  # ExternalBuffer.id

    # InitializeAllocationInfo: bytes, needs_allocating, offline offset
    info = []  # per tensor of every subgraph: [bytes, needs, offline, first, last]
    dynamic = []  # (subgraph, tensor, shape, shape_signature) of the tensors with a dynamic dimension
    past, external = [], []  # planned tensors whose data is past the flatbuffer / in an external file
    for s, ts in enumerate(tensors):
        for i, t in enumerate(ts):
            where = "subgraph %d tensor %d" % (s, i)
            ttype = t.scalar(1, "b")
            if ttype not in TYPE_SIZES:
                raise BadFile("%s: type %s, which TensorFlow Lite Micro's allocator does not size"
                              % (where, TYPE_NAMES.get(ttype, str(ttype))))
            shape = t.ints(0) or []
            for d in shape:
                if d < 0:
                    raise BadFile("%s: dimension %d (dynamic), TensorFlow Lite Micro plans static shapes"
                                  % (where, d))
            count = 0 if 0 in shape else 1
            for d in shape if count else []:
                count *= d
                if count > INT_MAX:  # its ElementCount is an int, for constants too
                    raise BadFile("%s: shape %s, more than 2^31 - 1 elements: past the int TensorFlow Lite Micro "
                                  "counts elements in" % (where, short(shape)))
            nbytes = count * TYPE_SIZES[ttype]
            signature = t.ints(7)  # shape_signature: -1 where the dimension is dynamic
            if signature and any(d < 0 for d in signature):
                dynamic.append((s, i, t.ints(0) or [], signature))
            b = t.scalar(2, "I")
            if b >= len(buffers):
                raise BadFile("%s: buffer %d out of range (%d buffers)" % (where, b, len(buffers)))
            constant = buffers[b].byte_count(0) > 0  # its allocator reads buffer->data() only
            stored = None  # where TensorFlow Lite (not Micro) would read this tensor's data from
            if b and buffers[b].vector(0) is None:  # TensorFlow Lite: data first, buffer 0 the empty sentinel
                offset, size = buffers[b].scalar(1, "Q"), buffers[b].scalar(2, "Q")
                if offset > 1:
                    if offset + size > len(data):
                        raise BadFile("%s: buffer %d: %d bytes at byte %d, past the end of the file (%d bytes)"
                                      % (where, b, size, offset, len(data)))
                    if size > 0:
                        stored = past
            e = t.scalar(10, "I")  # external_buffer: 0 = none
            if e:
                if e not in external_ids:
                    raise BadFile("%s: external_buffer %d names no ExternalBuffer (%d listed)"
                                  % (where, e, len(external_ids)))
                if not constant and stored is None:
                    stored = external
            variable = t.scalar(5, "B") != 0
            off = offline[base[s] + i] if offline is not None else -1
            needs = (not constant and not variable and nbytes != 0) or (variable and off != -1)
            if needs and off < -1:  # -1: planned online; its planner would place the buffer below the arena
                raise BadFile("OfflineMemoryAllocation: offset %d for %s: negative (-1 only: planned online)"
                              % (off, where))
            if needs and stored is not None:  # planned as an arena buffer, as its allocator plans it
                stored.append((s, i))
            if needs and (nbytes + ALIGN - 1) // ALIGN * ALIGN > INT_MAX:  # its planner's sizes are int
                raise BadFile("%s: shape %s, %d bytes, more than 2^31 - 1 once rounded up to 16: past the int "
                              "TensorFlow Lite Micro's planner takes sizes in" % (where, short(shape), nbytes))
            info.append([nbytes, needs, off, -1, -1])

    # MarkAllocationLifetimes, from subgraph 0, scopes as it counts them
    scope = [0]

    def first(k):
        if info[k][3] == -1:
            info[k][3] = scope[0]

    def last(k):
        info[k][4] = scope[0]

    def index(s, k, what):
        if k < 0 or k >= len(tensors[s]):
            raise BadFile("subgraph %d: %s: tensor %d out of range (%d tensors)" % (s, what, k, len(tensors[s])))
        return base[s] + k

    for s in range(len(subgraphs)):  # ValidateSubgraph, on every subgraph: empty intermediates only
        for j, op in enumerate(subgraphs[s].tables(3)):
            for k in op.ints(8) or []:
                g = index(s, k, "operator %d intermediate" % j)
                if info[g][0] != 0:
                    raise BadFile("subgraph %d operator %d: intermediate tensor %d has %d bytes; "
                                  "TensorFlow Lite Micro supports only empty ones" % (s, j, k, info[g][0]))
    parsed = {}

    def parse(s):
        """Subgraph s read once, its tensors as indices into info: (inputs,
        [(outputs, subgraphs called, inputs) per operator], outputs)."""
        sg = subgraphs[s]
        ins = [index(s, k, "input") for k in sg.ints(1) or []]
        ops = []
        for j, op in enumerate(sg.tables(3)):
            outs = [index(s, k, "operator %d output" % j) for k in op.ints(2) or []]
            c = op.scalar(0, "I")
            if c >= len(codes):
                raise BadFile("subgraph %d operator %d: opcode %d out of range (%d codes)" % (s, j, c, len(codes)))
            code = codes[c].scalar(3, "i")  # builtin_code, as the allocator reads it
            called = []
            if code in OPTIONS:
                kind, name = OPTIONS[code]
                opts = op.sub(4) if op.scalar(3, "B") == kind else None
                if opts is None:
                    raise BadFile("subgraph %d operator %d: a control-flow operator without %s" % (s, j, name))
                called = [opts.scalar(0, "i")] + ([opts.scalar(1, "i")] if code != OP_CALL_ONCE else [])
                for c2 in called:
                    if c2 < -1 or c2 >= len(subgraphs):
                        raise BadFile("subgraph %d operator %d: %s names subgraph %d (%d subgraphs)"
                                      % (s, j, name, c2, len(subgraphs)))
                called = [c2 for c2 in called if c2 != -1]  # none: its allocator enters no subgraph
            reads = [index(s, k, "operator %d input" % j) for k in op.ints(1) or [] if k >= 0]  # -1: omitted
            ops.append((outs, called, reads))
        outs = [index(s, k, "output") for k in sg.ints(2) or []]
        return ins, ops, outs

    cost = {}  # subgraph -> steps of one walk of it, the subgraphs it calls included
    active, entered = [], set()  # the chain being counted, and the same as a set

    def count(s):
        """Steps of one walk of subgraph s as its allocator walks it (each call
        walked anew), counted bottom-up once per subgraph; refuses a cycle and
        a walk past MAX_WORK, naming the chain of calls."""
        if s in entered:
            raise BadFile("subgraph %d invokes itself (recursion through %s): not supported" % (s, chain(active + [s])))
        if s in cost:
            return cost[s]
        active.append(s)
        entered.add(s)
        if s not in parsed:
            parsed[s] = parse(s)
        ins, ops, outs = parsed[s]
        n = len(ins) + len(outs)
        for j, (written, called, reads) in enumerate(ops):
            n += 1 + 2 * len(written) + len(reads)
            for c2 in called:
                n += 1 + count(c2)
            if n > MAX_WORK:
                raise BadFile("subgraph %d operator %d: more than %d steps (tensor uses, operators, subgraph entries) "
                              "as TensorFlow Lite Micro's allocator walks them (control flow through %s, each call "
                              "walked anew)" % (s, j, MAX_WORK, chain(active)))
        if n > MAX_WORK:
            raise BadFile("subgraph %d: more than %d steps in its inputs and outputs as TensorFlow Lite Micro's "
                          "allocator walks them (control flow through %s)" % (s, MAX_WORK, chain(active)))
        active.pop()
        entered.discard(s)
        cost[s] = n
        return n

    def mark(s):
        ins, ops, outs = parsed[s]
        for g in ins:
            first(g)
            last(g)
        for written, called, reads in ops:
            scope[0] += 1
            for g in written:
                first(g)
            for c2 in called:
                scope[0] += 1
                mark(c2)
            for g in reads:
                last(g)
            for g in written:
                last(g)
        for g in outs:
            first(g)
            last(g)

    count(0)
    mark(0)

    rows = []
    for s, ts in enumerate(tensors):
        for i in range(len(ts)):
            nbytes, needs, off, lo, hi = info[base[s] + i]
            if needs:
                size = (nbytes + ALIGN - 1) // ALIGN * ALIGN
                rows.append((len(rows), lo, hi + 1, size, None if off == -1 else off, "%d:%d" % (s, i)))
    notes = ["%s, %s, %d planned %s%s" % (plural(len(subgraphs), "subgraph"), plural(total, "tensor"), len(rows),
                                           "buffer" if len(rows) == 1 else "buffers",
                                           ", offline-planned offsets" if offline is not None else "")]
    warnings = []
    unused = [r for r in rows if r[1] == -1 and r[2] == 0]
    if unused:  # its planner takes [-1, -1] as one time: all of them live together
        notes.append("%s (%d bytes) no operator it runs reads or writes (tensor %s first), live at once at "
                     "[-1, -1] as TensorFlow Lite Micro plans them: tensors of a subgraph never invoked, or left "
                     "in the file (an Edge TPU model keeps those its custom op took over)"
                     % (plural(len(unused), "buffer"), sum(r[3] for r in unused), unused[0][5]))
    for found, what in ((past, "stored past the flatbuffer (Buffer.offset/size, as converters write models over "
                               "2 GB)"),
                        (external, "in an external file (Tensor.external_buffer)")):
        if found:
            s, i = found[0]
            one = len(found) == 1
            warnings.append("%s (tensor %d:%d first) %s data %s: TensorFlow Lite Micro reads constants only from "
                            "inside the flatbuffer, so it plans %s, as here, and the model would compute on "
                            "uninitialised weights there; it runs on TensorFlow Lite (LiteRT), not on TensorFlow "
                            "Lite Micro"
                            % (plural(len(found), "constant tensor"), s, i, "has its" if one else "have their",
                               what, "it as an arena buffer" if one else "them as arena buffers"))
    if dynamic:
        s, i, shape, sig = dynamic[0]
        notes.append("%s %s a dynamic dimension (-1 in shape_signature), sized as the file's shape gives "
                     "%s, as TensorFlow Lite Micro sizes %s (tensor %d:%d: %s for %s)"
                     % (plural(len(dynamic), "tensor"), "has" if len(dynamic) == 1 else "have",
                        *(("it", "it") if len(dynamic) == 1 else ("them", "them")), s, i, short(shape), short(sig)))
        beyond = [x for x in dynamic if any(d < 0 for k, d in enumerate(x[3]) if k > 0 or len(x[3]) < 2)]
        if beyond:  # a batch of 1 is what is run; any other dynamic axis was exported at a placeholder size
            s, i, shape, sig = beyond[0]
            warnings.append("%s %s a dynamic dimension other than a leading batch axis (tensor %d:%d: "
                            "shape %s, shape_signature %s): %s the exporter's placeholder, not the %s "
                            "at run time; export the model with a fixed input shape"
                            % (plural(len(beyond), "tensor"), "has" if len(beyond) == 1 else "have", s, i,
                               short(shape), short(sig), *(("its size is", "size") if len(beyond) == 1
                                                           else ("their sizes are", "sizes"))))
    notes += ["warning: " + w for w in warnings]
    return rows, offline is not None, notes, warnings


MODEL = ["tflite_to_graph.py"]  # the model converted: the catch-all below names it


def main(argv):
    out_path, path = None, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        if a == "-o":
            if not args:
                sys.stderr.write("tflite_to_graph.py: -o needs a file\n" + USAGE)
                return 1
            out_path = args.pop(0)
        elif a.startswith("-") and a != "-":
            sys.stderr.write("tflite_to_graph.py: unknown option %s\n" % a + USAGE)
            return 1
        elif path is None:
            path = a
        else:
            sys.stderr.write("tflite_to_graph.py: one model at a time\n" + USAGE)
            return 1
    if path is None:
        sys.stderr.write(USAGE)
        return 1
    MODEL[0] = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        sys.stderr.write("%s: %s\n" % (path, e.strerror or e))
        return 2
    try:
        rows, fixed, notes, warnings = convert(data)
    except BadFile as e:
        sys.stderr.write("%s: %s\n" % (MODEL[0], e))
        return 2
    except RecursionError:
        sys.stderr.write("%s: subgraphs nested too deep\n" % MODEL[0])
        return 2
    for w in warnings:
        sys.stderr.write("%s: warning: %s\n" % (MODEL[0], w))
    lines = ["# %s: buffers as TensorFlow Lite Micro's allocator plans them (tflite_to_graph.py)" % path]
    lines += ["# " + n for n in notes]
    lines.append("id,lower,upper,size," + ("offset," if fixed else "") + "tensor")
    for r in rows:
        cells = [str(r[0]), str(r[1]), str(r[2]), str(r[3])]
        if fixed:
            cells.append("" if r[4] is None else str(r[4]))
        cells.append(r[5])
        lines.append(",".join(cells))
    text = "\n".join(lines) + "\n"
    try:
        if out_path is None:
            sys.stdout.write(text)
        else:
            with open(out_path, "w") as f:
                f.write(text)
    except OSError as e:
        sys.stderr.write("%s: %s\n" % (out_path, e.strerror or e))
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # a reader such as head stopped early
        sys.stderr.close()
        sys.exit(0)
    except Exception as e:  # never a traceback: name what went wrong, on one line
        sys.stderr.write("%s: unexpected %s: %s (a converter bug: please report it with the model)\n"
                         % (MODEL[0], type(e).__name__, (str(e).strip().splitlines() or [""])[0][:200]))
        sys.exit(2)
