#!/usr/bin/env python3
"""tests/data/tflite/make_fixtures.py: writes the small .tflite files next to
it that tests/cli_tflite.sh converts (python3-flatbuffers; field numbers of
the published schema.fbs). Each is a construct found in published models or
a broken file, a few hundred bytes; run it again after changing it and
commit its output (the files are deterministic).

  offset.tflite        a weight stored past the flatbuffer (Buffer.offset /
                       size, as converters write models over 2 GB)
  offset_past.tflite   the same with the offset past the end of the file
  offset_past0.tflite  the same, 0 bytes at an offset past the end
  offset_one.tflite, offset_empty.tflite  offset 1 (reserved: none), and
                       size 0: no data past the flatbuffer
  buf0_offset.tflite   buffer 0 (the empty one) with an offset and size
  stale_off.tflite     buffers no tensor reads data from, or read from inside
                       the flatbuffer, with an offset past the end
  two_warnings.tflite  a weight past the flatbuffer and one in an external file
  external.tflite      a weight in an external file (Tensor.external_buffer)
  external_range.tflite  external_buffer naming no ExternalBuffer
  unused.tflite        tensors no operator reads or writes (an Edge TPU
                       compiler's leftovers), planned at [-1, -1]
  while.tflite         WHILE (cond, body) and CALL_ONCE initialising a
                       resource variable (VAR_HANDLE / ASSIGN_VARIABLE /
                       READ_VARIABLE), signature defs
  cycle.tflite         subgraph 0 -> 1 -> 2 -> 1 (a cycle through subgraphs)
  huge.tflite          a dimension of 2^31 - 1 four times (2^124 bytes)
  fanout.tflite        40 subgraphs, each an IF calling the next twice: 2^40
                       subgraph entries as its allocator walks them
  wide.tflite, wide_in.tflite  16 such, the last reading 256 tensors in one
                       operator / with 128 inputs and outputs: 2^24 tensor uses
  offline_neg.tflite   an OfflineMemoryAllocation offset of -5
  offline_neg_const.tflite  the same on a constant (not planned: converts)
  if_none.tflite       an IF whose else_subgraph_index is -1 (none)
  intermediate.tflite  a subgraph never invoked with a non-empty intermediate
  int_max.tflite, int_past.tflite  tensors of 2^31 - 16 and 2^31 - 15 bytes
                       (the second 2^31 aligned: past its planner's int)
  rank470.tflite       a tensor of 470 dimensions of 2^31 - 1 (a product of
                       14,000 digits), rank470_zero.tflite the same with a 0 last
  bigconst.tflite      a constant of 2^30 float32 (4 GB: not planned, converts)
"""
import os
import struct
import sys

import flatbuffers

OUT = os.path.dirname(os.path.abspath(__file__)) if len(sys.argv) < 2 else sys.argv[1]


def vec_i32(b, xs):
    b.StartVector(4, len(xs), 4)
    for x in reversed(xs):
        b.PrependInt32(x)
    return b.EndVector()


def vec_off(b, xs):
    b.StartVector(4, len(xs), 4)
    for x in reversed(xs):
        b.PrependUOffsetTRelative(x)
    return b.EndVector()


def tensor(b, shape, ttype, buf, variable=False, external=0, name=None):
    sh = vec_i32(b, shape)
    nm = b.CreateString(name) if name else None
    b.StartObject(11)
    b.PrependUOffsetTRelativeSlot(0, sh, 0)
    if nm:
        b.PrependUOffsetTRelativeSlot(3, nm, 0)
    b.PrependInt8Slot(1, ttype, 0)
    b.PrependUint32Slot(2, buf, 0)
    b.PrependBoolSlot(5, variable, False)
    b.PrependUint32Slot(10, external, 0)
    return b.EndObject()


def operator(b, code, ins, outs, options=None, intermediates=None):
    i, o = vec_i32(b, ins), vec_i32(b, outs)
    m = vec_i32(b, intermediates) if intermediates else None
    b.StartObject(9)
    if m:
        b.PrependUOffsetTRelativeSlot(8, m, 0)
    b.PrependUint32Slot(0, code, 0)
    b.PrependUOffsetTRelativeSlot(1, i, 0)
    b.PrependUOffsetTRelativeSlot(2, o, 0)
    if options:
        b.PrependUint8Slot(3, options[0], 0)
        b.PrependUOffsetTRelativeSlot(4, options[1], 0)
    return b.EndObject()


def ints_table(b, *xs):  # IfOptions, WhileOptions, CallOnceOptions: int32 fields 0, 1, ...
    b.StartObject(len(xs))
    for k, x in enumerate(xs):
        b.PrependInt32Slot(k, x, 0)
    return b.EndObject()


def subgraph(b, tensors, ins, outs, ops):
    t = vec_off(b, [tensor(b, *x) for x in tensors])
    o = vec_off(b, [operator(b, *x) if not callable(x) else x(b) for x in ops])
    i, u = vec_i32(b, ins), vec_i32(b, outs)
    b.StartObject(4)
    b.PrependUOffsetTRelativeSlot(0, t, 0)
    b.PrependUOffsetTRelativeSlot(1, i, 0)
    b.PrependUOffsetTRelativeSlot(2, u, 0)
    b.PrependUOffsetTRelativeSlot(3, o, 0)
    return b.EndObject()


def signature(b, key, ins, outs):  # SignatureDef: inputs 0, outputs 1, signature_key 2, subgraph_index 4
    def maps(xs):
        ms = []
        for name, t in xs:
            n = b.CreateString(name)
            b.StartObject(2)
            b.PrependUOffsetTRelativeSlot(0, n, 0)
            b.PrependUint32Slot(1, t, 0)
            ms.append(b.EndObject())
        return vec_off(b, ms)
    i, o, k = maps(ins), maps(outs), b.CreateString(key)
    b.StartObject(5)
    b.PrependUOffsetTRelativeSlot(0, i, 0)
    b.PrependUOffsetTRelativeSlot(1, o, 0)
    b.PrependUOffsetTRelativeSlot(2, k, 0)
    b.PrependUint32Slot(4, 0, 0)
    return b.EndObject()


def model(codes, subgraphs, buffers, signatures=(), external=0, metadata=()):
    """buffers: bytes (data inside the flatbuffer) or (offset, size) (data past
    it) or (offset, size, bytes) (both); external: how many ExternalBuffer
    entries (each 16 bytes at 0)."""
    b = flatbuffers.Builder(1024)
    cs = []
    for c in codes:
        custom = b.CreateString(c) if isinstance(c, str) else None
        b.StartObject(4)
        if custom:
            b.PrependUOffsetTRelativeSlot(1, custom, 0)
            c = 32  # CUSTOM
        b.PrependInt8Slot(0, min(c, 127), 0)
        b.PrependInt32Slot(3, c, 0)
        cs.append(b.EndObject())
    sgs = [subgraph(b, *s) for s in subgraphs]
    bufs = []
    for data in buffers:
        inline = data if isinstance(data, bytes) else data[2] if len(data) > 2 else None
        d = b.CreateByteVector(inline) if inline else None
        b.StartObject(3)
        if d:
            b.PrependUOffsetTRelativeSlot(0, d, 0)
        if isinstance(data, tuple):
            b.PrependUint64Slot(1, data[0], 0)
            b.PrependUint64Slot(2, data[1], 0)
        bufs.append(b.EndObject())
    sigs = [signature(b, *s) for s in signatures]
    exts = []
    for k in range(external):
        b.StartObject(6)
        b.PrependUint32Slot(0, k + 1, 0)
        b.PrependUint64Slot(2, 0, 0)
        b.PrependUint64Slot(3, 16, 0)
        exts.append(b.EndObject())
    metas = []
    for key, buf in metadata:
        n = b.CreateString(key)
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, n, 0)
        b.PrependUint32Slot(1, buf, 0)
        metas.append(b.EndObject())
    c, s, u = vec_off(b, cs), vec_off(b, sgs), vec_off(b, bufs)
    m = vec_off(b, metas) if metas else None
    g = vec_off(b, sigs) if sigs else None
    e = vec_off(b, exts) if exts else None
    b.StartObject(10)
    b.PrependUint32Slot(0, 3, 0)
    b.PrependUOffsetTRelativeSlot(1, c, 0)
    b.PrependUOffsetTRelativeSlot(2, s, 0)
    b.PrependUOffsetTRelativeSlot(4, u, 0)
    if m:
        b.PrependUOffsetTRelativeSlot(6, m, 0)
    if g:
        b.PrependUOffsetTRelativeSlot(7, g, 0)
    if e:
        b.PrependUOffsetTRelativeSlot(9, e, 0)
    b.Finish(b.EndObject(), file_identifier=b"TFL3")
    return bytes(b.Output())


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    F32, I32, RESOURCE = 0, 2, 13
    FC, ADD, LESS, WHILE, CALL_ONCE = 9, 0, 58, 119, 129
    VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE = 142, 143, 144

    # x [1,4] -> FC(w [4,4], past the flatbuffer) -> y [1,4]
    fc = ([([1, 4], F32, 0), ([4, 4], F32, 1), ([1, 4], F32, 0)], [0], [2], [(0, [0, 1, -1], [2])])
    # the data goes after the flatbuffer at a multiple of 16; the offset is
    # patched in once the flatbuffer's length is known (its length does not
    # depend on the offset's value: a fixed-width field)
    first = model([FC], [fc], [b"", (1 << 40, 64)])
    at = (len(first) + 15) // 16 * 16
    write("offset.tflite", model([FC], [fc], [b"", (at, 64)]) + bytes(at - len(first)) + bytes(range(64)))
    write("offset_past.tflite",
          model([FC], [fc], [b"", (at + 4096, 64)]) + bytes(at - len(first)) + bytes(range(64)))

    ext = ([([1, 4], F32, 0), ([4, 4], F32, 0, False, 1), ([1, 4], F32, 0)], [0], [2], [(0, [0, 1, -1], [2])])
    write("external.tflite", model([FC], [ext], [b""], external=1))
    write("external_range.tflite", model([FC], [ext], [b""], external=0))

    # the Edge TPU compiler keeps the tensors it compiled into its custom op:
    # no operator reads or writes 1..3, TensorFlow Lite Micro plans them at
    # [-1, -1], all live at once
    unused = ([([1, 8], F32, 0), ([64], F32, 0), ([128], F32, 0), ([32], F32, 0), ([1, 8], F32, 0)], [0], [4],
              [(0, [0], [4])])
    write("unused.tflite", model(["edgetpu-custom-op"], [unused], [b""]))

    # subgraph 0: CALL_ONCE(init 3); h = VAR_HANDLE; v = READ_VARIABLE(h);
    # x, v -> WHILE(cond 1, body 2) -> y
    main = ([([1, 4], F32, 0), ([], RESOURCE, 0), ([1, 4], F32, 0), ([1, 4], F32, 0)], [0], [3],
            [lambda b: operator(b, 3, [], [], (103, ints_table(b, 3))),
             (4, [], [1]), (5, [1], [2]),
             lambda b: operator(b, 0, [0, 2], [3], (93, ints_table(b, 1, 2)))])
    cond = ([([1, 4], F32, 0), ([1, 4], F32, 0), ([1, 4], F32, 1), ([1, 4], 6, 0)], [0, 1], [3],
            [(2, [0, 2], [3])])
    body = ([([1, 4], F32, 0), ([1, 4], F32, 0), ([1, 4], F32, 0)], [0, 1], [2, 1], [(1, [0, 1], [2])])
    init = ([([], RESOURCE, 0), ([1, 4], F32, 1)], [], [], [(4, [], [0]), (6, [0, 1], [])])
    write("while.tflite", model([WHILE, ADD, LESS, CALL_ONCE, VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE],
                                [main, cond, body, init], [b"", bytes(16)],
                                signatures=[("serving_default", [("x", 0)], [("y", 3)])]))

    # 0 calls 1 (CALL_ONCE), 1 calls 2, 2 calls 1 again
    one = lambda k: ([([4], F32, 0)], [0], [0], [lambda b: operator(b, 0, [0], [0], (103, ints_table(b, k)))])
    write("cycle.tflite", model([CALL_ONCE], [one(1), one(2), one(1)], [b""]))

    big = (1 << 31) - 1
    write("huge.tflite", model([ADD], [([([big, big, big, big], F32, 0), ([4], F32, 0)], [0], [1],
                                                 [(0, [0, 0], [1])])], [b""]))

    # IF(then k+1, else k+1) in each of 40 subgraphs: 2^40 subgraph entries as
    # its allocator walks them (each call marked anew)
    IF = 118
    fan = [([([1], 6, 0), ([4], F32, 0), ([4], F32, 0)], [0, 1], [2],
            [lambda b, k=k: operator(b, 0, [0, 1], [2], (92, ints_table(b, k + 1, k + 1)))]) for k in range(40)]
    fan.append(([([1], 6, 0), ([4], F32, 0), ([4], F32, 0)], [0, 1], [2], [(1, [1, 1], [2])]))
    write("fanout.tflite", model([IF, ADD], fan, [b""]))


    # the same fan 16 deep (2^16 entries of the last subgraph, fewer operators
    # and entries than the old limit of 500,000 counted) with a last subgraph
    # whose one operator reads 256 tensors, or that has 128 inputs and 128
    # outputs and no operator: 2^24 tensor uses walked
    def fan16(last):
        xs = [([([1], 6, 0), ([4], F32, 0), ([4], F32, 0)], [0, 1], [2],
               [lambda b, k=k: operator(b, 0, [0, 1], [2], (92, ints_table(b, k + 1, k + 1)))]) for k in range(16)]
        return xs + [last]


    write("wide.tflite", model([IF, ADD], fan16(([([4], F32, 0), ([4], F32, 0)], [0], [1],
                                                          [(1, [0] * 256, [1])])), [b""]))
    write("wide_in.tflite", model([IF, ADD], fan16(([([4], F32, 0), ([4], F32, 0)], [0] * 128, [1] * 128, [])),
                                  [b""]))

    # OfflineMemoryAllocation with an offset of -5 (only -1, planned online, is negative)
    meta = struct.pack("<6i", 0, 0, 3, -5, -1, -1)
    write("offline_neg.tflite",
          model([FC], [fc], [b"", bytes(64), meta], metadata=[("OfflineMemoryAllocation", 2)]))

    # subgraph 1, never invoked, has an operator whose intermediate tensor has 16
    # bytes: its allocator validates every subgraph (ValidateSubgraph) and refuses
    write("intermediate.tflite", model([ADD], [
        ([([4], F32, 0), ([4], F32, 0)], [0], [1], [(0, [0, 0], [1])]),
        ([([4], F32, 0), ([4], F32, 0), ([4], F32, 0)], [0], [1], [(0, [0, 0], [1], None, [2])])], [b""]))

    # the largest tensor its planner takes: 2^31 - 16 bytes (aligned to 16,
    # 2^31 - 16 <= 2^31 - 1); one byte more rounds up to 2^31
    U8 = 3
    for name, n in (("int_max.tflite", (1 << 31) - 16), ("int_past.tflite", (1 << 31) - 15)):
        write(name, model([ADD], [([([n], U8, 0), ([n], U8, 0)], [0], [1], [(0, [0, 0], [1])])], [b""]))

    # 470 dimensions of 2^31 - 1: past the int its ElementCount multiplies in
    # after two; their product has 14,000 digits. With a 0 last it is empty.
    for name, last in (("rank470.tflite", big), ("rank470_zero.tflite", 0)):
        write(name, model([ADD], [([([big] * 469 + [last], F32, 0), ([4], F32, 0)], [0], [1],
                                           [(0, [0, 0], [1])])], [b""]))

    # a constant of 2^30 float32 (4 GB, 64 bytes stored): its element count is an
    # int, its bytes are not planned: converts
    fc_big = ([([1, 4], F32, 0), ([1 << 20, 1 << 10], F32, 1), ([1, 4], F32, 0)], [0], [2], [(0, [0, 1, -1], [2])])
    write("bigconst.tflite", model([FC], [fc_big], [b"", bytes(64)]))


    def tail(build, n):
        """build(at) with n bytes appended at the first multiple of 16 past it."""
        first = build(1 << 40)
        at = (len(first) + 15) // 16 * 16
        d = build(at)
        assert len(d) == len(first)  # a fixed-width field
        return d + bytes(at - len(d)) + bytes(range(n))


    write("offset_past0.tflite", tail(lambda at: model([FC], [fc], [b"", (at + 4096, 0)]), 64))
    write("offset_one.tflite", model([FC], [fc], [b"", (1, 64)]))
    write("offset_empty.tflite", tail(lambda at: model([FC], [fc], [b"", (at, 0)]), 64))
    # TensorFlow Lite skips buffer 0 (the empty one), offset or not; tensor 1's
    # weights are inside the flatbuffer
    fc1 = ([([1, 4], F32, 0), ([4, 4], F32, 1), ([1, 4], F32, 0)], [0], [2], [(0, [0, 1, -1], [2])])
    write("buf0_offset.tflite", tail(lambda at: model([FC], [fc1], [(at, 64), bytes(64)]), 64))
    # buffer 2 (no tensor reads it) and buffer 1 (read from its data) have
    # offsets past the end: TensorFlow Lite looks at neither
    write("stale_off.tflite", model([FC], [fc1], [b"", (1 << 40, 64, bytes(64)), (1 << 40, 64)]))
    # FC(x, w past the flatbuffer, bias in an external file) -> y
    two = ([([1, 4], F32, 0), ([4, 4], F32, 1), ([4], F32, 0, False, 1), ([1, 4], F32, 0)], [0], [3],
           [(0, [0, 1, 2], [3])])
    write("two_warnings.tflite", tail(lambda at: model([FC], [two], [b"", (at, 64)], external=1), 64))

    # an offline offset of -5 on the weight, which is not planned: converts
    meta = struct.pack("<6i", 0, 0, 3, -1, -5, -1)
    write("offline_neg_const.tflite",
          model([FC], [fc], [b"", bytes(64), meta], metadata=[("OfflineMemoryAllocation", 2)]))

    # IF(then 1, else -1): its allocator enters subgraph 1 only (one scope more)
    if_none = ([([1], 6, 0), ([4], F32, 0), ([4], F32, 0)], [0, 1], [2],
               [lambda b: operator(b, 0, [0, 1], [2], (92, ints_table(b, 1, -1)))])
    write("if_none.tflite", model([IF, ADD], [if_none, ([([4], F32, 0), ([4], F32, 0)], [0], [1],
                                                             [(1, [0, 0], [1])])], [b""]))


if __name__ == "__main__":
    main()
