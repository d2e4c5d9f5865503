#!/usr/bin/env python3
"""Writes tests/data/onnx_dd/*.onnx: small models whose sizes the data decides, as detection exports make
them (tests/cli_onnx.sh converts them with --dim bounds). Needs the onnx package and numpy.

    tests/make_onnx_dd.py [OUT_DIR]     (default: tests/data/onnx_dd beside this script)

nz_gather   x [8, 8] > 0 -> NonZero (twice on the mask: one count) -> Transpose -> GatherND; the count read
            back through Shape -> Gather -> ConstantOfShape (a value that follows it)
nz_wide     the count's values on x [2, W], and x's Relu (W a symbol, the count a fixed bound)
nms         NonMaxSuppression of 6 boxes, 2 classes, at most 3 per class; the kept box indices
topk        TopK of x [2, 10] with k = the number of positive elements (a k from the data)
loop_until  a Loop without a trip count that stops when the sum of its state reaches 10; a scan output
loop_while  the same as torch.jit.script writes a while loop: trip count 2^63 - 1
loop_append a Loop of count steps appending a row to a carried [0, 2] value (torch.jit.script's append)
slice_data  x[:k], k from the data (a Slice's end computed at run time)
two_counts  the kept values' top k, k how many exceed 0.5: a second size from the data after the first
shrink      a value of 64 - count elements: it shrinks as the count grows (no plan at a bound holds)
branch      an If on count > 2: another graph below the bound
Sizes that do not grow with the count (review29o; each passed main's sampled check at bound - 1, 1 and 0):
mod7        ones of (count mod 7) x 16          band   ones of (50 if 3 <= count <= 6 else count) x 16
ifeq        an If on count == 5 (then: [1000])  rel    two counts; ones of (n1 - n2) x 16
twin        the mask twice (two names, one count: their values concatenated), ones of (64 - n1) x 16
recip       ones of floor(64 / count) x 4 through Reciprocal (torchvision's resize scale is one)
Sizes that grow, planned at the bound (values main left folded or a loop it shaped on two steps):
half        ones of (count // 2) x 256 added to a bias    expand  the count broadcast to [256, 256], cast
accel       a Loop of 6 steps appending max(rows - 1, 1) rows to a carried [1, 2] (+1, +1, +2, +4...)
loop10      a Loop of trip count 10 and a run-time condition beside a NonZero (a pattern leaves it at 10)
compress    Compress of x's rows by a condition from the data, then the kept rows' Relu
twin_ok     the mask twice, their values concatenated, and ones of n1 x 16 (the counts lowered together)
tied        a count the model ties to 17 (its values reshaped to [17]) beside a second count
ifzero      an If on count == 0 (torchvision's 'no box found'): then a [1] placeholder, else the values' Relu
ifsum       an If on max(n1 + n2 - 10, 0) == 0 (two counts): false at (1, 10) and (10, 1), true at (1, 1)
rest        x's 64 values reshaped to [count, -1], ones of that -1 (64 / count: it shrinks as the count grows)
while_noscan a while loop (trip count 2^63 - 1) with no scan output: its time counts one step
Round 7 (realonnx7):
twin_zero   twin_ok's two counts the model relates and ifzero's If on count == 0 (one 'lowered together' note)
unique      Unique of x [6, 4]'s rows (axis 0) and its rows' Relu; Unique of x's 24 values flattened; Unique
            of a constant [3, 1, 3, 2] (3 values, known before the run)
einsum      a [2, 3, 4], b [2, 4, 5]: 'bij,bjk->bik', implicit 'ij,jk' (-> 'ik', + a [5]: its axes' order),
            '...ii->...i', an ellipsis broadcast ('...ij,...jk->...ik', [1, 3, 4] and [2, 4, 5]), 'ij->ji',
            'i,i'; 'ij,jk->ik' on [256, 256]s beside their MatMul (one CPU time: 2 x 256^3 FLOPs each)
einsum_bad  'ij,jk->ik' with j 3 and 4
if_same     an If on sum(x) > 0 (a run-time condition): then Relu(x), else Sigmoid(Neg(x)), both [4, 8]; + bias
if_max      the same, else x[:2]'s Relu ([2, 8]); the If's output read by a Relu
if_shrink   if_max, and ones of 8 - the If output's rows (shrinks as it grows: refused)
if_rank     then [4, 8], else x reshaped to [32]: no one shape
seq         SequenceConstruct(x, x) -> ConcatFromSequence (a sequence of known elements)
seq_ops     x [4, 8] split to a sequence [1, 8], [3, 8]; x inserted at 0; the last erased; element 1 read; the
            rest concatenated; x split on axis 1 without keepdims (8 x [4]) and stacked on a new axis 0
seq_pos     SequenceAt at a graph input's position (refused: which element is read is not known)
seq_relu    a Relu reading a sequence (refused)
seq_loop    a Loop of 3 steps appending x to a carried sequence (torch's list append in a loop: refused)
shape_in    x [4, 8] reshaped to a graph input 'shape' [2] (its values unknown before the run: refused, saying so)
axes_in     x [4, 8] unsqueezed at a graph input 'axes' [1] (one element: --input axes=0 binds it)
stft_onehot STFT of a [1, 64, 1] signal, frame_step 8, a [16] window, onesided (the default) and not; OneHot of
            [3] indices, depth 5, axis -1 and 0 (+ a [3]: its axes' order)
Round 8 (realfix10, review30o's undersizes): an If 'pick' on sum(x [8, 4]) > 0, then x[:6], else x[:8] (y)
if_neg      y[-3:5]'s Relu: 2 rows at 6, none at 8 (the proof misses a constant negative start: each branch
            alone catches it); if_neg_anon the same, the If unnamed (--if y: its first output's name)
if_five     five such Ifs, each output read by a Relu (more than CHECK_IFS: refused)
if_stft     STFT of a [1, 64, 1] signal with frame_step = rows(y) (frames fall as it grows: constant only)
if_seq      8 - rows(SequenceAt(SequenceConstruct(y), 0)) ones (a sequence of a moving value: refused)
if_loop     a Loop of 3 steps carrying y, its scan output 8 - rows(carried) ones (the body input keeps its axes)
if_dup      the branches each name a value 't' (x[:8] and x[:6], then Relu and Sigmoid): not a refusal
if_dep      ones of Shape(y) (its row reads the If's row)
if_elem     then x[:6], else x[:8] cast to int64 (element types differ: refused)
if_nested   the then branch an If on sum(x) > 1 (x[:2] or x[:4]), the else x[:8]; y's Relu
if_inloop   a Loop of 3 steps whose body holds the If (x[:6] or x[:8]), its scan output its Relu
if_sym      x [W, 8]: then a constant [40, 8], else Relu(x) (with --symbol: refused)
nz_seq      NonZero's indices in a sequence, 10 x (n % 4) ones of its count n (--dim idx:1=10: refused)
extras      SequenceAt at -1 of x [4, 8] split [1, 3]; STFT with no window and a frame_length input 16; Einsum
            'Bij,BjK->BiK' (upper case); Unique of x [6, 4]'s rows by axis -2, sorted=0"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F, I64 = TensorProto.FLOAT, TensorProto.INT64
V = helper.make_tensor_value_info
N = helper.make_node


def const(name, v, dtype=np.int64):
    return numpy_helper.from_array(np.array(v, dtype), name)


def save(out, name, nodes, inputs, outputs, inits=(), opset=13, check=True):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="make_onnx_dd.py")
    m.ir_version = 7
    if check:  # a broken model the converter must refuse is not the checker's
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


def count_nodes(x="x", mask="m", idx="idx", sfx="", thr="zero"):
    """x > thr -> NonZero (idx [2, count]); the count as a [1] tensor 'count1' and a scalar 'count' (+ sfx)."""
    return [N("Greater", [x, thr], [mask + sfx]), N("NonZero", [mask + sfx], [idx + sfx], name="nz" + sfx),
            N("Shape", [idx + sfx], ["idx_shape" + sfx]),
            N("Gather", ["idx_shape" + sfx, "one"], ["count" + sfx], axis=0),
            N("Unsqueeze", ["count" + sfx, "axes0"], ["count1" + sfx])]


def until_body(width, name, limit):
    """A Loop body: v (width floats) += 1 while sum(v) < limit (the constant `name`); each step's v scanned."""
    return helper.make_graph(
        [N("Add", ["v_in", "onef"], ["v_out"]), N("ReduceSum", ["v_out"], ["s"], keepdims=0),
         N("Less", ["s", name], ["c_out"]), N("Identity", ["v_out"], ["v_scan"])],
        "body", [V("i", I64, []), V("c_in", TensorProto.BOOL, []), V("v_in", F, [width])],
        [V("c_out", TensorProto.BOOL, []), V("v_out", F, [width]), V("v_scan", F, [width])],
        [const("onef", 1.0, np.float32), const(name, limit, np.float32)])


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "onnx_dd")
    os.makedirs(out, exist_ok=True)
    base = [const("zero", 0.0, np.float32), const("one", 1), const("axes0", [0])]
    x88 = V("x", F, [8, 8])
    # nz_gather: the values kept and ones of their count (a ConstantOfShape of a shape the count gives)
    save(out, "nz_gather", count_nodes() + [
        N("NonZero", ["m"], ["idx2"], name="nz_again"),
        N("Transpose", ["idx2"], ["pairs"]), N("GatherND", ["x", "pairs"], ["vals"]),
        N("ConstantOfShape", ["count1"], ["ones"], value=numpy_helper.from_array(np.array([1.0], np.float32))),
        N("Add", ["vals", "ones"], ["y"])], [x88], [V("y", F, ["count"])], base)
    # nz_wide: the same on x [2, W] (a symbol beside the count's bound)
    save(out, "nz_wide", count_nodes() + [
        N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["vals"]), N("Relu", ["x"], ["xr"])],
         [V("x", F, [2, "W"])], [V("vals", F, ["count"]), V("xr", F, [2, "W"])], base)
    # nms: 6 boxes in one batch, 2 classes, at most 3 each: [count, 3] (batch, class, box); the boxes column
    save(out, "nms", [N("NonMaxSuppression", ["boxes", "scores", "per_class", "iou", "score_min"], ["sel"],
                        name="nms"),
                      N("Gather", ["sel", "two"], ["keep"], axis=1)],
         [V("boxes", F, [1, 6, 4]), V("scores", F, [1, 2, 6])], [V("keep", I64, ["kept"])],
         [const("per_class", [3]), const("iou", [0.5], np.float32), const("score_min", [0.0], np.float32),
          const("two", 2)])
    # topk: k = how many elements of x are positive (a run-time k), along axis 1 (10 long)
    save(out, "topk", [N("Greater", ["x", "zero"], ["pos"]), N("Cast", ["pos"], ["posi"], to=I64),
                       N("ReduceSum", ["posi"], ["k0"], keepdims=0), N("Reshape", ["k0", "shape1"], ["k"]),
                       N("TopK", ["x", "k"], ["top_v", "top_i"], name="topk", axis=1)],
         [V("x", F, [2, 10])], [V("top_v", F, [2, "k"]), V("top_i", I64, [2, "k"])],
         base + [const("shape1", [1])])
    # loop_until / loop_while: v += 1 until sum(v) >= 10; each step's v stacked (the scan output 'trace')
    body = until_body(4, "ten", 10.0)
    for name, trip in (("loop_until", ""), ("loop_while", "trip")):
        save(out, name, [N("Loop", [trip, "yes", "x"], ["v_final", "trace"], name="until", body=body)],
             [V("x", F, [4])], [V("v_final", F, [4]), V("trace", F, ["steps", 4])],
             [numpy_helper.from_array(np.array(True), "yes"), const("trip", 2 ** 63 - 1)])
    # loop_append: as torch.jit.script appends in a loop: one row of x's sum per kept value (a trip count of the
    # count), carried from [0, 2] (a value growing one row a step)
    body = helper.make_graph(
        [N("Identity", ["c_in"], ["c_out"]), N("Concat", ["acc_in", "row"], ["acc_out"], axis=0)],
        "append", [V("i", I64, []), V("c_in", TensorProto.BOOL, []), V("acc_in", F, [0, 2])],
        [V("c_out", TensorProto.BOOL, []), V("acc_out", F, [1, 2])],
        [numpy_helper.from_array(np.ones((1, 2), np.float32), "row")])
    save(out, "loop_append", count_nodes() + [
        N("Loop", ["count", "yes", "empty"], ["rows"], name="append", body=body)],
         [x88], [V("rows", F, ["count", 2])],
         base + [numpy_helper.from_array(np.array(True), "yes"), numpy_helper.from_array(np.zeros((0, 2), np.float32),
                                                                                          "empty")])
    # slice_data: x[:k], k the number of positive elements (a Slice's end from the data)
    save(out, "slice_data", [N("Greater", ["x", "zero"], ["pos"]), N("Cast", ["pos"], ["posi"], to=I64),
                             N("ReduceSum", ["posi"], ["k"], keepdims=1),
                             N("Slice", ["x", "axes0", "k"], ["head"], name="head")],
         [V("x", F, [10])], [V("head", F, ["k"])], base)
    # two_counts: the kept values, then the top k of them, k how many exceed 0.5 (two sizes from the data)
    save(out, "two_counts", count_nodes() + [
        N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["vals"]),
        N("Greater", ["vals", "half"], ["big"]), N("Cast", ["big"], ["bigi"], to=I64),
        N("ReduceSum", ["bigi"], ["k"], keepdims=1), N("TopK", ["vals", "k"], ["top_v", "top_i"], name="topk")],
         [x88], [V("top_v", F, ["k"])], base + [const("half", 0.5, np.float32)])
    # shrink: ones of 64 - count elements beside the kept values
    save(out, "shrink", count_nodes() + [
        N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["vals"]),
        N("Sub", ["n64", "count1"], ["rest1"]),
        N("ConstantOfShape", ["rest1"], ["rest"], value=numpy_helper.from_array(np.array([1.0], np.float32)))],
         [x88], [V("vals", F, ["count"]), V("rest", F, ["rest"])], base + [const("n64", [64])])
    # branch: count > 2 takes a Relu, else a Neg then a Sigmoid
    vi = lambda o: V(o, F, ["count"])
    save(out, "branch", count_nodes() + [
        N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["vals"]),
        N("Greater", ["count", "two"], ["many"]),
        N("If", ["many"], ["y"], name="many_boxes",
          then_branch=helper.make_graph([N("Relu", ["vals"], ["r"])], "then", [], [vi("r")]),
          else_branch=helper.make_graph([N("Neg", ["vals"], ["e1"]), N("Sigmoid", ["e1"], ["e2"])], "else", [],
                                        [vi("e2")]))],
         [x88], [vi("y")], base + [const("two", 2)])
    review(out, base, x88)


def review(out, base, x88):
    """review29o's models: sizes that do not grow with the count (refused), and ones main planned too small."""
    ones = numpy_helper.from_array(np.array([1.0], np.float32))
    vals = [N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["vals"])]
    c16 = const("c16", [16])
    save(out, "mod7", count_nodes() + vals + [
        N("Mod", ["count1", "seven"], ["r1"]), N("Concat", ["r1", "c16"], ["shp"], axis=0),
        N("ConstantOfShape", ["shp"], ["saw"], value=ones)],
         [x88], [V("vals", F, ["n"]), V("saw", F, ["a", 16])], base + [const("seven", [7]), c16])
    save(out, "band", count_nodes() + vals + [
        N("GreaterOrEqual", ["count1", "three"], ["ge"]), N("LessOrEqual", ["count1", "six"], ["le"]),
        N("And", ["ge", "le"], ["inb"]), N("Where", ["inb", "fifty", "count1"], ["n1"]),
        N("Concat", ["n1", "c16"], ["shp"], axis=0), N("ConstantOfShape", ["shp"], ["bandv"], value=ones)],
         [x88], [V("vals", F, ["n"]), V("bandv", F, ["a", 16])],
         base + [const("three", [3]), const("six", [6]), const("fifty", [50]), c16], opset=16)
    vi = lambda o, sh: V(o, F, sh)
    save(out, "ifeq", count_nodes() + vals + [
        N("Equal", ["count", "five"], ["eq"]),
        N("If", ["eq"], ["y"], name="eq5",
          then_branch=helper.make_graph([N("ConstantOfShape", ["k1000"], ["big"], value=ones),
                                         N("Add", ["big", "bias"], ["t"])], "then", [], [vi("t", ["a"])]),
          else_branch=helper.make_graph([N("Relu", ["vals"], ["e"])], "else", [], [vi("e", ["a"])]))],
         [x88, V("bias", F, [1])], [V("y", F, ["a"])], base + [const("five", 5), const("k1000", [1000])])
    save(out, "rel", count_nodes() + count_nodes(sfx="b", thr="half") + vals + [
        N("Sub", ["count1", "count1b"], ["d1"]), N("Concat", ["d1", "c16"], ["shp"], axis=0),
        N("ConstantOfShape", ["shp"], ["diffo"], value=ones), N("Add", ["diffo", "bias"], ["diff"]),
        N("Transpose", ["idxb"], ["pairsb"]), N("GatherND", ["x", "pairsb"], ["valsb"])],
         [x88, V("bias", F, [16])], [V("vals", F, ["a"]), V("valsb", F, ["b"]), V("diff", F, ["c", 16])],
         base + [const("half", 0.5, np.float32), c16])
    for name, rest in (("twin", [N("Sub", ["n64", "count1"], ["rest1"])]),
                       ("twin_ok", [N("Identity", ["count1"], ["rest1"])])):
        save(out, name, count_nodes() + [
            N("Greater", ["x", "zero"], ["m2"]), N("NonZero", ["m2"], ["idx2"], name="nz2"),
            N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["v1"]),
            N("Transpose", ["idx2"], ["pairs2"]), N("GatherND", ["x", "pairs2"], ["v2"]),
            N("Unsqueeze", ["v1", "one1d"], ["v1u"]), N("Unsqueeze", ["v2", "one1d"], ["v2u"]),
            N("Concat", ["v1u", "v2u"], ["vs"], axis=1)] + rest + [
            N("Concat", ["rest1", "c16"], ["shp"], axis=0),
            N("ConstantOfShape", ["shp"], ["resto"], value=ones), N("Add", ["resto", "bias"], ["rest"])],
             [x88, V("bias", F, [16])], [V("vs", F, ["a", 2]), V("rest", F, ["b", 16])],
             base + [const("n64", [64]), c16, const("one1d", [1])])
    save(out, "recip", count_nodes() + vals + [
        N("Cast", ["count1"], ["cf"], to=F), N("Reciprocal", ["cf"], ["inv"]), N("Mul", ["inv", "s64"], ["q"]),
        N("Floor", ["q"], ["qf"]), N("Cast", ["qf"], ["qi"], to=I64), N("Concat", ["qi", "c4"], ["shp"], axis=0),
        N("ConstantOfShape", ["shp"], ["per"], value=ones)],
         [x88], [V("vals", F, ["n"]), V("per", F, ["a", 4])],
         base + [const("s64", [64.0], np.float32), const("c4", [4])])
    save(out, "half", count_nodes() + vals + [
        N("Div", ["count1", "two"], ["h1"]), N("Concat", ["h1", "c256"], ["shp"], axis=0),
        N("ConstantOfShape", ["shp"], ["hones"], value=ones), N("Add", ["hones", "bias"], ["hsum"])],
         [x88, V("bias", F, [256])], [V("vals", F, ["n"]), V("hsum", F, ["a", 256])],
         base + [const("two", [2]), const("c256", [256])])
    save(out, "expand", count_nodes() + vals + [
        N("Expand", ["count", "s256"], ["cnt_big"]), N("Cast", ["cnt_big"], ["cnt_f"], to=F),
        N("Add", ["cnt_f", "w"], ["wsum"])],
         [x88, V("w", F, [256, 256])], [V("vals", F, ["n"]), V("wsum", F, [256, 256])],
         base + [const("s256", [256, 256])])
    body = helper.make_graph(
        [N("Identity", ["c_in"], ["c_out"]), N("Shape", ["acc_in"], ["sh"]), N("Gather", ["sh", "z0"], ["L"], axis=0),
         N("Sub", ["L", "one0"], ["Lm"]), N("Max", ["Lm", "one0"], ["g"]), N("Unsqueeze", ["g", "ax0"], ["g1"]),
         N("Concat", ["g1", "two1"], ["gs"], axis=0),
         N("ConstantOfShape", ["gs"], ["more"], value=ones), N("Add", ["more", "bias"], ["moreb"]),
         N("Concat", ["acc_in", "moreb"], ["acc_out"], axis=0)],
        "accel", [V("i", I64, []), V("c_in", TensorProto.BOOL, []), V("acc_in", F, ["L", 2])],
        [V("c_out", TensorProto.BOOL, []), V("acc_out", F, ["L2", 2])],
        [const("z0", 0), const("one0", 1), const("ax0", [0]), const("two1", [2])])
    save(out, "accel", [N("Loop", ["six", "yes", "x"], ["acc"], name="accel", body=body)],
         [V("x", F, [1, 2]), V("bias", F, [2])], [V("acc", F, ["n", 2])],
         [numpy_helper.from_array(np.array(True), "yes"), const("six", 6)])
    body = until_body(8, "lim", 1000.0)
    save(out, "loop10", count_nodes() + vals + [
        N("Slice", ["x", "z1", "one1", "z1"], ["x1"]), N("Reshape", ["x1", "s8"], ["x8"]),
        N("Loop", ["ten", "yes", "x8"], ["v_final", "trace"], name="loop10", body=body)],
         [x88], [V("vals", F, ["n"]), V("trace", F, ["t", 8])],
         base + [const("ten", 10), numpy_helper.from_array(np.array(True), "yes"), const("z1", [0]),
                 const("one1", [1]), const("s8", [8])])
    save(out, "tied", count_nodes() + count_nodes(sfx="b", thr="half") + vals + [
        N("Reshape", ["vals", "s17"], ["v17"]), N("Transpose", ["idxb"], ["pairsb"]),
        N("GatherND", ["x", "pairsb"], ["valsb"])],
         [x88], [V("v17", F, [17]), V("valsb", F, ["b"])], base + [const("half", 0.5, np.float32), const("s17", [17])])
    save(out, "ifzero", count_nodes() + vals + [
        N("Equal", ["count", "zero_i"], ["none"]),
        N("If", ["none"], ["y"], name="no_box",
          then_branch=helper.make_graph([N("Identity", ["bias"], ["t"])], "then", [], [vi("t", ["a"])]),
          else_branch=helper.make_graph([N("Relu", ["vals"], ["e"])], "else", [], [vi("e", ["a"])]))],
         [x88, V("bias", F, [1])], [V("y", F, ["a"])], base + [const("zero_i", 0)])
    save(out, "rest", count_nodes() + [
        N("Reshape", ["x", "minus1"], ["flat"]), N("Concat", ["count1", "minus1"], ["target"], axis=0),
        N("Reshape", ["flat", "target"], ["grid"]), N("Shape", ["grid"], ["gs"]),
        N("Gather", ["gs", "one1"], ["per"], axis=0), N("ConstantOfShape", ["per"], ["each"], value=ones),
        N("Add", ["each", "bias"], ["eachb"]), N("Relu", ["grid"], ["g"])],
         [x88, V("bias", F, [1])], [V("g", F, ["a", "b"]), V("eachb", F, ["c"])],
         base + [const("minus1", [-1]), const("one1", [1])])
    save(out, "ifsum", count_nodes() + count_nodes(sfx="b", thr="half") + vals + [
        N("Add", ["count", "countb"], ["both"]), N("Sub", ["both", "ten_i"], ["over"]),
        N("Max", ["over", "zero_i"], ["v"]), N("Equal", ["v", "zero_i"], ["none"]),
        N("If", ["none"], ["y"], name="few",
          then_branch=helper.make_graph([N("Identity", ["bias"], ["t"])], "then", [], [vi("t", ["a"])]),
          else_branch=helper.make_graph([N("Relu", ["vals"], ["e"])], "else", [], [vi("e", ["a"])])),
        N("Transpose", ["idxb"], ["pairsb"]), N("GatherND", ["x", "pairsb"], ["valsb"])],
         [x88, V("bias", F, [1])], [V("y", F, ["a"]), V("valsb", F, ["b"])],
         base + [const("zero_i", 0), const("ten_i", 10), const("half", 0.5, np.float32)])
    body = helper.make_graph(
        [N("Add", ["v_in", "onef"], ["v_out"]), N("ReduceSum", ["v_out"], ["s"], keepdims=0),
         N("Less", ["s", "ten"], ["c_out"])],
        "body", [V("i", I64, []), V("c_in", TensorProto.BOOL, []), V("v_in", F, [4])],
        [V("c_out", TensorProto.BOOL, []), V("v_out", F, [4])],
        [const("onef", 1.0, np.float32), const("ten", 10.0, np.float32)])
    save(out, "while_noscan", [N("Loop", ["trip", "yes", "x"], ["v_final"], name="until", body=body)],
         [V("x", F, [4])], [V("v_final", F, [4])],
         [numpy_helper.from_array(np.array(True), "yes"), const("trip", 2 ** 63 - 1)])
    save(out, "compress", [N("ReduceSum", ["x", "ax1"], ["rs"], keepdims=0), N("Greater", ["rs", "zero"], ["keep"]),
                           N("Compress", ["x", "keep"], ["kept"], name="compress", axis=0),
                           N("Relu", ["kept"], ["y"])],
         [V("x", F, [6, 4])], [V("y", F, ["k", 4])], [const("zero", 0.0, np.float32), const("ax1", [1])])
    round7(out, base, x88)
    round8(out)


def round7(out, base, x88):
    """realonnx7: Unique, Einsum, an If on a run-time condition, two related counts beside an If on 'no box'."""
    ones = numpy_helper.from_array(np.array([1.0], np.float32))
    vi = lambda o, sh: V(o, F, sh)
    save(out, "twin_zero", count_nodes() + [
        N("Greater", ["x", "zero"], ["m2"]), N("NonZero", ["m2"], ["idx2"], name="nz2"),
        N("Transpose", ["idx"], ["pairs"]), N("GatherND", ["x", "pairs"], ["v1"]),
        N("Transpose", ["idx2"], ["pairs2"]), N("GatherND", ["x", "pairs2"], ["v2"]),
        N("Unsqueeze", ["v1", "one1d"], ["v1u"]), N("Unsqueeze", ["v2", "one1d"], ["v2u"]),
        N("Concat", ["v1u", "v2u"], ["vs"], axis=1), N("Equal", ["count", "zero_i"], ["none"]),
        N("If", ["none"], ["y"], name="no_box",
          then_branch=helper.make_graph([N("Identity", ["bias"], ["t"])], "then", [], [vi("t", ["a"])]),
          else_branch=helper.make_graph([N("Relu", ["v1"], ["e"])], "else", [], [vi("e", ["a"])]))],
         [x88, V("bias", F, [1])], [V("vs", F, ["a", 2]), V("y", F, ["b"])],
         base + [const("one1d", [1]), const("zero_i", 0)])
    save(out, "unique", [N("Unique", ["x"], ["rows", "first", "inv", "cnt"], name="uniq_rows", axis=0),
                         N("Relu", ["rows"], ["rows_r"]),
                         N("Unique", ["x"], ["vals"], name="uniq_flat"),
                         N("Unique", ["cvals"], ["cu"], name="uniq_const"), N("Add", ["cu", "cu"], ["cu2"])],
         [V("x", F, [6, 4])], [V("rows_r", F, ["n", 4]), V("first", I64, ["n"]), V("inv", I64, [6]),
                               V("cnt", I64, ["n"]), V("vals", F, ["m"]), V("cu2", I64, [3])],
         [const("cvals", [3, 1, 3, 2])], opset=11)
    e = lambda eq, ins, o: N("Einsum", ins, [o], name=o, equation=eq)
    save(out, "einsum", [e("bij,bjk->bik", ["a", "b"], "bmm"), e("ij,jk", ["a0", "b0"], "implicit"),
                         e("...ii->...i", ["sq"], "diag"), e("...ij,...jk->...ik", ["a1", "b"], "bcast"),
                         e("ij->ji", ["a0"], "tr"), e("i,i", ["v", "v"], "dot"),
                         N("Add", ["implicit", "b5"], ["implicit_b"]), e("ij,jk->ik", ["g", "h"], "big"),
                         N("MatMul", ["g", "h"], ["big_mm"])],
         [V("a", F, [2, 3, 4]), V("b", F, [2, 4, 5]), V("a0", F, [3, 4]), V("b0", F, [4, 5]), V("sq", F, [2, 3, 3]),
          V("a1", F, [1, 3, 4]), V("v", F, [7]), V("b5", F, [5]), V("g", F, [256, 256]), V("h", F, [256, 256])],
         [V(o, F, sh) for o, sh in (("bmm", [2, 3, 5]), ("implicit", [3, 5]), ("diag", [2, 3]),
                                    ("bcast", [2, 3, 5]), ("tr", [4, 3]), ("dot", []), ("implicit_b", [3, 5]),
                                    ("big", [256, 256]), ("big_mm", [256, 256]))],
         opset=12)
    m = helper.make_model(helper.make_graph([e("ij,jk->ik", ["p", "q"], "pq")], "einsum_bad",
                                            [V("p", F, [2, 3]), V("q", F, [4, 5])], [V("pq", F, [2, 5])]),
                          opset_imports=[helper.make_opsetid("", 12)], producer_name="make_onnx_dd.py")
    m.ir_version = 7
    onnx.save(m, os.path.join(out, "einsum_bad.onnx"))  # onnx's checker takes it (shapes are not its check)
    cond = [N("ReduceSum", ["x"], ["s"], keepdims=0), N("Greater", ["s", "zero"], ["pos"])]
    then = helper.make_graph([N("Relu", ["x"], ["r"])], "then", [], [vi("r", [4, 8])])
    same = helper.make_graph([N("Neg", ["x"], ["e1"]), N("Sigmoid", ["e1"], ["e2"])], "else", [], [vi("e2", [4, 8])])
    head = helper.make_graph([N("Slice", ["x", "z1", "two1", "z1"], ["h"]), N("Relu", ["h"], ["hr"])], "else", [],
                             [vi("hr", [2, 8])])
    flat = helper.make_graph([N("Reshape", ["x", "m1"], ["f"])], "else", [], [vi("f", [32])])
    x48, inits = V("x", F, [4, 8]), [const("zero", 0.0, np.float32), const("z1", [0]), const("two1", [2]),
                                      const("m1", [-1]), const("z0", 0), const("eight", [8])]
    save(out, "if_same", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=then, else_branch=same),
                                 N("Add", ["y", "bias"], ["out"])],
         [x48, V("bias", F, [8])], [vi("out", [4, 8])], inits)
    save(out, "if_max", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=then, else_branch=head),
                                N("Relu", ["y"], ["out"])], [x48], [vi("out", ["n", 8])], inits)
    save(out, "if_shrink", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=then, else_branch=head),
                                   N("Relu", ["y"], ["out"]), N("Shape", ["y"], ["ys"]),
                                   N("Gather", ["ys", "z1"], ["n"], axis=0), N("Sub", ["eight", "n"], ["rest1"]),
                                   N("ConstantOfShape", ["rest1"], ["rest"], value=ones)],
         [x48], [vi("out", ["n", 8]), vi("rest", ["r"])], inits)
    save(out, "if_rank", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=then, else_branch=flat)],
         [x48], [V("y", F, ["a"])], inits)
    save(out, "seq", [N("SequenceConstruct", ["x", "x"], ["s"], name="pack"),
                      N("ConcatFromSequence", ["s"], ["y"], axis=0)], [x48], [V("y", F, [8, 8])], opset=13)
    save(out, "seq_ops", [N("SplitToSequence", ["x", "s13"], ["s1"], axis=0),
                          N("SequenceInsert", ["s1", "x", "z0"], ["s2"]),
                          N("SequenceErase", ["s2", "m1s"], ["s3"]), N("SequenceAt", ["s3", "one0"], ["a"]),
                          N("ConcatFromSequence", ["s3"], ["c"], axis=0),
                          N("SplitToSequence", ["x"], ["s4"], axis=1, keepdims=0),
                          N("ConcatFromSequence", ["s4"], ["st"], axis=0, new_axis=1), N("Add", ["st", "b4"], ["stb"])],
         [x48, V("b4", F, [4])], [V("a", F, [1, 8]), V("c", F, [5, 8]), V("stb", F, [8, 4])],
         [const("s13", [1, 3]), const("z0", 0), const("m1s", -1), const("one0", 1)])
    save(out, "seq_pos", [N("SequenceConstruct", ["x", "x"], ["s"]), N("SequenceAt", ["s", "i"], ["y"], name="pick")],
         [x48, V("i", I64, [])], [V("y", F, [4, 8])])
    sv = helper.make_tensor_sequence_value_info
    body = helper.make_graph([N("Identity", ["c_in"], ["c_out"]), N("SequenceInsert", ["s_in", "x"], ["s_out"])],
                             "append", [V("i", I64, []), V("c_in", TensorProto.BOOL, []), sv("s_in", F, [4, 8])],
                             [V("c_out", TensorProto.BOOL, []), sv("s_out", F, [4, 8])])
    save(out, "seq_loop", [N("SequenceEmpty", [], ["s0"], dtype=F),
                           N("Loop", ["three", "yes", "s0"], ["s"], name="grow", body=body),
                           N("ConcatFromSequence", ["s"], ["y"], axis=0)], [x48], [V("y", F, [12, 8])],
         [const("three", 3), numpy_helper.from_array(np.array(True), "yes")])
    save(out, "seq_relu", [N("SequenceConstruct", ["x", "x"], ["s"]), N("Relu", ["s"], ["y"], name="relu")],
         [x48], [V("y", F, [4, 8])], check=False)
    save(out, "shape_in", [N("Reshape", ["x", "shape"], ["y"], name="to_shape")], [x48, V("shape", I64, [2])],
         [V("y", F, ["a", "b"])])
    save(out, "stft_onehot", [N("STFT", ["sig", "step", "win"], ["spec"], name="stft"),
                              N("STFT", ["sig", "step", "win"], ["spec2"], name="stft2", onesided=0),
                              N("OneHot", ["ids", "depth", "offon"], ["oh"], name="onehot"),
                              N("OneHot", ["ids", "depth", "offon"], ["oh0"], name="onehot0", axis=0),
                              N("Add", ["oh0", "b3"], ["oh0b"])],
         [V("sig", F, [1, 64, 1]), V("win", F, [16]), V("ids", I64, [3]), V("b3", F, [3])],
         [V("spec", F, [1, 7, 9, 2]), V("spec2", F, [1, 7, 16, 2]), V("oh", F, [3, 5]), V("oh0b", F, [5, 3])],
         [const("step", 8), const("depth", 5), const("offon", [0.0, 1.0], np.float32)], opset=17)
    save(out, "axes_in", [N("Unsqueeze", ["x", "axes"], ["y"], name="add_axis"), N("Relu", ["y"], ["out"])],
         [x48, V("axes", I64, [1])], [V("out", F, ["a", "b", "c"])])


def round8(out):
    """realfix10: the undersizes review30o found in the If and sequence paths."""
    save = lambda *a, **k: globals()["save"](*a, **dict(k, check=False))  # outputs of no declared shape
    ones = numpy_helper.from_array(np.array([1.0], np.float32))
    inits = [const("zero", 0.0, np.float32), const("one_f", 1.0, np.float32), const("z1", [0]), const("six", [6]),
             const("eight1", [8]), const("two1", [2]), const("four1", [4]), const("sm3", [-3]), const("e5", [5]),
             const("z0", 0), const("eight", 8), const("sig_step", 8)]
    x84 = V("x", F, [8, 4])
    cond = [N("ReduceSum", ["x"], ["s"], keepdims=0), N("Greater", ["s", "zero"], ["pos"])]

    def pick(name="pick", out="y", k=""):
        t = helper.make_graph([N("Slice", ["x", "z1", "six", "z1"], ["a" + k])], "t", [], [V("a" + k, F, None)])
        e = helper.make_graph([N("Slice", ["x", "z1", "eight1", "z1"], ["b" + k])], "e", [], [V("b" + k, F, None)])
        return N("If", ["pos"], [out], name=name, then_branch=t, else_branch=e)

    def rows_of_y(v, n="n"):  # n = rows(v) as a scalar
        return [N("Shape", [v], [n + "_s"]), N("Gather", [n + "_s", "z0"], [n], axis=0)]

    def ones_of(n, o):  # ones of n (a scalar) elements
        return [N("Unsqueeze", [n, "z1"], [o + "_n"]), N("ConstantOfShape", [o + "_n"], [o], value=ones)]

    neg = [N("Slice", ["y", "sm3", "e5", "z1"], ["w"]), N("Relu", ["w"], ["out"])]
    save(out, "if_neg", cond + [pick()] + neg, [x84], [V("out", F, None)], inits)
    save(out, "if_neg_anon", cond + [pick("")] + neg, [x84], [V("out", F, None)], inits)
    five = [pick("pick%d" % k, "y%d" % k, str(k)) for k in range(5)]
    save(out, "if_five", cond + five + [N("Relu", ["y%d" % k], ["r%d" % k]) for k in range(5)], [x84],
         [V("r%d" % k, F, None) for k in range(5)], inits)
    save(out, "if_stft", cond + [pick()] + rows_of_y("y") + [N("STFT", ["sig", "n", "win"], ["out"], name="stft")],
         [x84, V("sig", F, [1, 64, 1]), V("win", F, [16])], [V("out", F, None)], inits, opset=17)
    save(out, "if_seq", cond + [pick(), N("SequenceConstruct", ["y"], ["sq"], name="pack"),
                                N("SequenceAt", ["sq", "z0"], ["yy"])] + rows_of_y("yy") +
         [N("Sub", ["eight", "n"], ["m"])] + ones_of("m", "out"), [x84], [V("out", F, None)], inits)
    body = helper.make_graph([N("Identity", ["c"], ["c2"]), N("Identity", ["cy"], ["cy2"])] + rows_of_y("cy") +
                             [N("Sub", ["eight", "n"], ["m"], name="rest")] + ones_of("m", "sc"), "body",
                             [V("i", I64, []), V("c", TensorProto.BOOL, []), V("cy", F, None)],
                             [V("c2", TensorProto.BOOL, []), V("cy2", F, None), V("sc", F, None)])
    save(out, "if_loop", cond + [pick(), N("Loop", ["three", "yes", "y"], ["yf", "out"], name="lp", body=body)],
         [x84], [V("out", F, None)], inits + [const("three", 3), numpy_helper.from_array(np.array(True), "yes")])
    t = helper.make_graph([N("Slice", ["x", "z1", "eight1", "z1"], ["t"]), N("Relu", ["t"], ["u"])], "t", [],
                          [V("u", F, None)])  # the larger first: matched by name, the else's 't' would be planned
    e = helper.make_graph([N("Slice", ["x", "z1", "six", "z1"], ["t"]), N("Sigmoid", ["t"], ["v"])], "e", [],
                          [V("v", F, None)])
    save(out, "if_dup", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=t, else_branch=e),
                                N("Relu", ["y"], ["out"])], [x84], [V("out", F, None)], inits, check=False)
    save(out, "if_dep", cond + [pick(), N("Shape", ["y"], ["ys"]), N("ConstantOfShape", ["ys"], ["co"], value=ones)],
         [x84], [V("co", F, None)], inits)
    t = helper.make_graph([N("Slice", ["x", "z1", "six", "z1"], ["a"])], "t", [], [V("a", F, None)])
    e = helper.make_graph([N("Slice", ["x", "z1", "eight1", "z1"], ["b"]), N("Cast", ["b"], ["bi"], to=I64)], "e", [],
                          [V("bi", I64, None)])
    save(out, "if_elem", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=t, else_branch=e)], [x84],
         [V("y", F, None)], inits, check=False)
    inner = N("If", ["pos2"], ["yi"], name="inner",
              then_branch=helper.make_graph([N("Slice", ["x", "z1", "two1", "z1"], ["a2"])], "t2", [],
                                            [V("a2", F, None)]),
              else_branch=helper.make_graph([N("Slice", ["x", "z1", "four1", "z1"], ["b4"])], "e2", [],
                                            [V("b4", F, None)]))
    t = helper.make_graph([N("Greater", ["s", "one_f"], ["pos2"]), inner], "t", [], [V("yi", F, None)])
    e = helper.make_graph([N("Slice", ["x", "z1", "eight1", "z1"], ["b"])], "e", [], [V("b", F, None)])
    save(out, "if_nested", cond + [N("If", ["pos"], ["y"], name="outer", then_branch=t, else_branch=e),
                                   N("Relu", ["y"], ["out"])], [x84], [V("out", F, None)], inits)
    body = helper.make_graph([N("Identity", ["c"], ["c2"]), pick(), N("Relu", ["y"], ["sc"])], "body",
                             [V("i", I64, []), V("c", TensorProto.BOOL, [])],
                             [V("c2", TensorProto.BOOL, []), V("sc", F, None)])
    save(out, "if_inloop", cond + [N("Loop", ["three", "yes"], ["out"], name="lp", body=body)],
         [x84], [V("out", F, None)], inits + [const("three", 3), numpy_helper.from_array(np.array(True), "yes")])
    cst = helper.make_graph([N("Constant", [], ["c"], value=numpy_helper.from_array(np.zeros((40, 8), np.float32)))],
                            "t", [], [V("c", F, None)])
    e = helper.make_graph([N("Relu", ["x"], ["h"])], "e", [], [V("h", F, None)])
    save(out, "if_sym", cond + [N("If", ["pos"], ["y"], name="pick", then_branch=cst, else_branch=e),
                                N("Relu", ["y"], ["out"])], [V("x", F, ["W", 8])], [V("out", F, None)], inits)
    save(out, "nz_seq", [N("Greater", ["x", "zero"], ["msk"]), N("NonZero", ["msk"], ["idx"], name="nz"),
                         N("SequenceConstruct", ["idx"], ["sq"], name="pack"), N("SequenceAt", ["sq", "z0"], ["e"])] +
         [N("Shape", ["e"], ["ss"]), N("Gather", ["ss", "one"], ["n"], axis=0), N("Mod", ["n", "four"], ["r"]),
          N("Mul", ["r", "ten"], ["k"])] + ones_of("k", "co"), [V("x", F, [16])], [V("co", F, None)],
         [const("zero", 0.0, np.float32), const("z0", 0), const("z1", [0]), const("one", 1), const("four", 4),
          const("ten", 10)])

    save(out, "extras", [N("SplitToSequence", ["x", "s13"], ["sq"], axis=0), N("SequenceAt", ["sq", "m1s"], ["last"]),
                         N("STFT", ["sig", "sig_step", "", "flen"], ["spec"], name="stft"),
                         N("Einsum", ["a", "b"], ["bmm"], equation="Bij,BjK->BiK"),
                         N("Unique", ["u"], ["urows", "ufirst"], name="uniq", axis=-2, sorted=0)],
         [V("x", F, [4, 8]), V("sig", F, [1, 64, 1]), V("a", F, [2, 3, 4]), V("b", F, [2, 4, 5]), V("u", F, [6, 4])],
         [V("last", F, None), V("spec", F, None), V("bmm", F, None), V("urows", F, None), V("ufirst", I64, None)],
         inits + [const("s13", [1, 3]), const("m1s", -1), const("flen", 16)], opset=17)

if __name__ == "__main__":
    main(sys.argv)
