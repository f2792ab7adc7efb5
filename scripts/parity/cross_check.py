#!/usr/bin/env python3
"""Randomised cross-parity with LibreYOLO 1.6.0: its own models, its own save(), its own predict.

Run with the parity venv's Python (scripts/setup-parity-venv.sh prints it), from the repository root:

    py=$(scripts/setup-parity-venv.sh)
    $py scripts/parity/cross_check.py                         # smallest size of each family, CPU modes
    $py scripts/parity/cross_check.py --sizes all --seed 7    # every size we ship, seed 7
    $py scripts/parity/cross_check.py --families rtdetr --sizes r50 --seed 123456   # reproduce one row
    $py scripts/parity/cross_check.py --modes cuda,cuda-graph,cuda-fuse-half         # on a GPU host

For each family and size, with a seed drawn afresh (printed; --seed takes it back to reproduce a run):
  1. LibreYOLO's public class builds the network (`_from_scratch`, 80 classes);
  2. a random non-square image is drawn (shapes, gradients and noise, its size from the seed too);
  3. every BatchNorm's running statistics (drawn around what it sees of that image) and affine
     terms, every class-score bias (the bias of each convolution or linear layer with one output
     per class, and YOLOX's objectness), and every layer that starts at zero (the DETR line's box
     regressions, sampling offsets, attention weights and gates) are drawn from the seed (ranges
     and reasons in `randomise`);
  4. LibreYOLO's own `save()` writes the .pt;
  5. LibreYOLO predicts it through its public call, `LibreYOLO(pt)(image, conf=..., iou=0.45)`, and
     our CLI predicts it from the same .pt (`libreyolo predict ... --json`) in each mode; the
     threshold is picked from LibreYOLO's own scores (`threshold_in_a_gap`) so that 20 to 100 boxes
     pass and none lies at it;
  6. the detections are compared by pairing, never by rank (near-tied scores may swap ranks): the
     counts must be equal and every box pairs with one of ours of the same class within the mode's
     tolerances. A box whose score lies within the score tolerance of the threshold (or of the
     300th score, when max_det cuts) may be missing on one side, and a box that keeps one class of
     two tied within the score tolerance may name the other (`class_ties_between`): rounding
     decides both, and both are reported.
  7. training side (--loss, on by default on the CPU): the loss and each of its parts, on a random
     batch with the same randomised weights, from LibreYOLO's criterion and from
     `libreyolo-parity-loss`, which runs our family's training loss (scripts/parity/loss_batch.py).

The CUDA modes compare against LibreYOLO's CUDA float32 output; each box's tolerance is widened by
twice what LibreYOLO's own CPU and CUDA outputs differ by on it (its floor, raised to the row's scale:
box_floors, floors_with_row_scale): a randomised deep network can amplify last-bit differences a
thousandfold, unevenly, and no port can be closer to LibreYOLO's CUDA than LibreYOLO's CPU is.
cpu-fuse is widened the same way by what LibreYOLO's own network differs by with its BatchNorms folded
into the convolutions (`fold_batch_norms`) and fused by its own `fuse()` where it has one (YOLOv9).
A box that LibreYOLO's own other rounding lost may be missing on ours too; for the NMS families, a box
kept on one side only because its IoU with a better box lies within rounding of iou is a tie
(suppression_ties). Both are reported.

Exit status 0 when every row passes; each row prints one line, failures with their first pairs.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

# TF32 off in cuDNN and cuBLAS, here and in our CLI (which inherits the environment): CUDA float32 then
# rounds as float32 does, not with TF32's 10-bit mantissa, which a randomised network amplifies to tens
# of pixels (yolo9-t, seed 1150055098, H100: LibreYOLO's own CPU and CUDA outputs 26 px apart with it).
# The variable must be set before the libraries load.
os.environ.setdefault("NVIDIA_TF32_OVERRIDE", "0")
import torch  # noqa: E402
from PIL import Image

import libreyolo
from libreyolo import LibreDEIM, LibreDFINE, LibreRTDETR, LibreYOLO, LibreYOLO9, LibreYOLOX

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Every family and size the engine ships (engine/src/models/*/family.cpp). A new family adds its row.
FAMILIES = {
    "yolo9": (LibreYOLO9, ["t", "s", "m", "c"]),
    "yolox": (LibreYOLOX, ["n", "t", "s", "m", "l", "x"]),
    "rtdetr": (LibreRTDETR, ["r18", "r34", "r50"]),
    "dfine": (LibreDFINE, ["n", "s", "m", "l", "x"]),
    "deim": (LibreDEIM, ["n", "s", "m", "l", "x"]),
}
NMS_FAMILIES = {"yolo9", "yolox"}  # the others keep the best queries, with no suppression
NC = 80
IOU = 0.45
MAX_DET = 300
ZERO_SCALE = 0.5  # the std of a zero-initialised layer's draws, times 1/sqrt(fan_in)


class Mode:
    def __init__(self, name, args, device, box_px, score, reference, floor=None, draw=False):
        self.name, self.args, self.device = name, args, device
        self.box_px, self.score = box_px, score  # largest corner gap (pixels) and score gap allowed
        self.reference = reference  # which LibreYOLO output it is held to: "cpu" or "cuda"
        # Which of LibreYOLO's own differences widens the tolerance (twice it is added): "folded", its
        # CPU output with BatchNorm folded against without; "cuda", its CPU output against its CUDA one.
        self.floor = floor
        # Judged as one more draw of float16 rounding (compare_as_draw) beside LibreYOLO's own.
        self.draw = draw


# Tolerances: CPU float32 runs the same arithmetic in the same order as LibreYOLO's CPU path up to
# the kernels LibTorch picks (observed gaps ~1e-4 px, 1e-6 in score); fuse=true folds BatchNorm into
# the convolutions (other rounding, still float32), which a randomised deep network amplifies as much
# as LibreYOLO's own network with BatchNorm folded differs from itself; on CUDA LibreYOLO's own CPU
# to CUDA gap is added (see the docstring). Float16 keeps ~3 decimal digits, which a randomised network
# amplifies until single boxes mean nothing (LibreYOLO's own network under float16 autocast moves the
# median box of yolo9-t by 10 px, with BatchNorm randomised or not), so the half mode is judged by its
# gaps' distribution against LibreYOLO's own network under float16 autocast (compare_as_draw).
MODES = {
    "cpu": Mode("cpu", [], "cpu", 1e-2, 1e-4, "cpu"),
    "cpu-fuse": Mode("cpu-fuse", ["fuse=true"], "cpu", 5e-2, 1e-3, "cpu", floor="folded"),
    "cuda": Mode("cuda", [], "cuda", 5e-2, 1e-3, "cuda", floor="cuda"),
    "cuda-graph": Mode("cuda-graph", ["cuda_graph=true"], "cuda", 5e-2, 1e-3, "cuda", floor="cuda"),
    "cuda-fuse-half": Mode("cuda-fuse-half", ["fuse=true", "half=true"], "cuda", 1.5, 1.5e-2, "cuda", draw=True),
}


def class_score_biases(net, nc):
    """The bias of every convolution or linear layer with one output per class (YOLOv9's cv3, YOLOX's
    cls_preds, the DETR line's encoder and decoder score heads), and YOLOX's objectness."""
    out = []
    for name, m in net.named_modules():
        if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)) and m.bias is not None:
            width = m.out_channels if isinstance(m, torch.nn.Conv2d) else m.out_features
            if width == nc or ".obj_preds." in name + ".":
                out.append((name, m.bias))
    return out


def is_batch_norm(m):
    """BatchNorm of any kind: running statistics (LibreYOLO's FrozenBatchNorm2d included)."""
    return getattr(m, "running_var", None) is not None and getattr(m, "running_mean", None) is not None


def randomise(net, nc, gen, calibration_input):
    """Draws from gen: every BatchNorm's affine terms and running statistics, the class-score biases,
    and every layer that starts at zero. Returns (batch norms, class biases, zero layers) drawn.

    The statistics are drawn around what each BatchNorm actually sees: one eval-mode forward of
    calibration_input (the row's own image, preprocessed by LibreYOLO), in which each BatchNorm,
    just before it normalises, takes its input's per-channel mean and variance and then moves them
    by a random amount (mean by 0.3 standard deviations, variance by a factor in [0.6, 1.6]).
    Statistics drawn blind (any fixed range) let a deep network's activations shrink or grow layer
    after layer until the image no longer matters: every query of RT-DETR-r50 then selects the same
    invalid border cell, every box is the same, and the check passes whatever the port computes.

    Zero-initialised layers matter as much: the DETR line's box-regression outputs, deformable
    attention's sampling offsets and attention weights, and D-FINE's gates start at zero, so a fresh
    network's boxes are its anchors and its attention ignores the queries. Left at zero, boxes agree
    whatever the network computes; drawn, every path reaches the output."""
    def uniform(t, lo, hi):
        return torch.rand(t.shape, generator=gen, dtype=torch.float64).mul(hi - lo).add(lo).to(t.dtype)

    def normal(t, std):
        return torch.randn(t.shape, generator=gen, dtype=torch.float64).mul(std).to(t.dtype)

    norms = [m for m in net.modules() if is_batch_norm(m)]
    biases = class_score_biases(net, nc)
    zeros = [m for m in net.modules()
             if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)) and not m.weight.any()]
    with torch.no_grad():
        for m in norms:
            if getattr(m, "weight", None) is not None:
                m.weight.copy_(uniform(m.weight, 0.6, 1.4))
            if getattr(m, "bias", None) is not None:
                m.bias.copy_(normal(m.bias, 0.2))
        for _, bias in biases:
            bias.copy_(uniform(bias, -6.0, -1.0))
        for m in zeros:
            fan_in = m.weight[0].numel()
            m.weight.copy_(normal(m.weight, ZERO_SCALE / fan_in ** 0.5))
            if m.bias is not None and not m.bias.any():
                m.bias.copy_(normal(m.bias, 0.1))

        def calibrate(m, inputs):
            x = inputs[0].double()
            dims = [d for d in range(x.dim()) if d != 1]
            mean, var = x.mean(dims), x.var(dims, unbiased=False)
            m.running_mean.copy_(mean + normal(mean, 0.3) * var.sqrt())
            m.running_var.copy_(var * uniform(var, 0.6, 1.6) + 1e-3)

        hooks = [m.register_forward_pre_hook(calibrate) for m in norms]
        was_training = net.training
        net.eval()
        try:
            net(calibration_input)
        finally:
            for h in hooks:
                h.remove()
            net.train(was_training)
    return len(norms), len(biases), len(zeros)


def random_image(rng, path):
    """A non-square image of shapes on a gradient, with noise, its size drawn from rng."""
    h = int(rng.integers(6, 23)) * 24
    w = int(rng.integers(6, 23)) * 24
    while w == h:
        w = int(rng.integers(6, 23)) * 24
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    base = rng.uniform(0, 255, 3)
    slope = rng.uniform(-0.3, 0.3, (3, 2))
    img = np.stack([base[c] + slope[c, 0] * x + slope[c, 1] * y for c in range(3)], -1)
    for _ in range(int(rng.integers(4, 12))):
        color = rng.integers(0, 256, 3).astype(np.float32)
        cx, cy = rng.integers(0, w), rng.integers(0, h)
        a, b = rng.integers(8, max(9, w // 3)), rng.integers(8, max(9, h // 3))
        if rng.random() < 0.5:
            inside = (np.abs(x - cx) <= a) & (np.abs(y - cy) <= b)
        else:
            t = rng.uniform(0, np.pi)
            u, v = (x - cx) * np.cos(t) + (y - cy) * np.sin(t), -(x - cx) * np.sin(t) + (y - cy) * np.cos(t)
            inside = (u / a) ** 2 + (v / b) ** 2 <= 1
        img[inside] = color
    img = np.clip(img + rng.normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    Image.fromarray(img).save(path)
    return w, h


def fold_batch_norms(net):
    """Folds every BatchNorm that follows a convolution in the same block (LibreYOLO's Conv, BaseConv
    and ConvNormLayer: children conv and bn, or conv and norm) into that convolution, as fuse=true
    does: the same network with other rounding. Returns how many it folded."""
    folded = 0
    for block in list(net.modules()):
        conv = getattr(block, "conv", None)
        for name in ("bn", "norm"):
            norm = getattr(block, name, None)
            if isinstance(conv, torch.nn.Conv2d) and is_batch_norm(norm) and isinstance(norm, torch.nn.Module):
                block.conv = torch.nn.utils.fusion.fuse_conv_bn_eval(conv, norm)
                setattr(block, name, torch.nn.Identity())
                folded += 1
                break
    return folded


def libreyolo_detections(pt, image, conf, device, fold=None, half=False):
    """LibreYOLO's own predict. fold="batch_norms": every BatchNorm folded (fold_batch_norms);
    fold="fuse": the network's own fuse() (YOLOv9's: BatchNorms folded and RepConvN's branches merged);
    half: under CUDA float16 autocast (LibreYOLO's predict has no half option of its own; its network
    turned to float16 whole returns no boxes on the CPU for the DETR line)."""
    model = LibreYOLO(pt, device=device)
    if fold == "batch_norms" and not fold_batch_norms(model.model):
        raise RuntimeError("no BatchNorm to fold: fold_batch_norms does not know this family's blocks")
    if fold == "fuse":
        model.model.fuse()
    with torch.autocast("cuda", dtype=torch.float16, enabled=half):
        r = model(image, conf=conf, iou=IOU, max_det=MAX_DET)
    r = r[0] if isinstance(r, list) else r
    return [(int(c), [float(v) for v in b], float(s))
            for b, s, c in zip(r.boxes.xyxy.tolist(), r.boxes.conf.tolist(), r.boxes.cls.tolist())]


def float32_check():
    """How far a CUDA convolution and matrix product lie from float64: ~1e-7 relative in float32, ~1e-3
    with TF32 (which NVIDIA_TF32_OVERRIDE=0 turns off for this process and our CLI)."""
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    gen = torch.Generator().manual_seed(0)
    x, w = torch.randn(1, 64, 32, 32, generator=gen), torch.randn(64, 64, 3, 3, generator=gen)
    exact = torch.nn.functional.conv2d(x.double(), w.double(), padding=1)
    conv = torch.nn.functional.conv2d(x.cuda(), w.cuda(), padding=1).cpu().double()
    a, b = torch.randn(256, 256, generator=gen), torch.randn(256, 256, generator=gen)
    mm = (a.cuda() @ b.cuda()).cpu().double()
    rel = lambda t, e: float((t - e).abs().max() / e.abs().max())  # noqa: E731
    return (f"convolution {rel(conv, exact):.1e}, matrix product {rel(mm, a.double() @ b.double()):.1e} "
            f"relative to float64 (NVIDIA_TF32_OVERRIDE={os.environ.get('NVIDIA_TF32_OVERRIDE')})")


def our_detections(cli, pt, image, conf, mode):
    cmd = [cli, "predict", f"model={pt}", f"source={image}", f"conf={conf}", f"iou={IOU}", f"max_det={MAX_DET}",
           f"device={mode.device}", *mode.args, "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()[-2000:]}")
    results = json.loads(p.stdout)
    return [(int(b["cls"]), [float(v) for v in b["xyxy"]], float(b["conf"])) for b in results[0]["boxes"]]


def pair(ref, ours):
    """Pairs each reference box with the nearest unpaired box of ours of the same class (largest
    corner gap, then score gap), nearest pairs first. Returns (pairs as (gap, score gap, i, j), the
    indices of the unpaired reference boxes, those of ours)."""
    candidates = []
    for i, (c, b, s) in enumerate(ref):
        for j, (c2, b2, s2) in enumerate(ours):
            if c == c2:
                candidates.append((max(abs(u - v) for u, v in zip(b, b2)), abs(s - s2), i, j))
    candidates.sort()
    used_i, used_j, pairs = set(), set(), []
    for gap, dscore, i, j in candidates:
        if i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            pairs.append((gap, dscore, i, j))
    return (pairs, [i for i in range(len(ref)) if i not in used_i], [j for j in range(len(ours)) if j not in used_j])


def class_ties_between(lone_ref, lone_ours, box_px, score_tol):
    """Boxes left unpaired that are the same box with the same score under another class: a family that
    keeps one class per box (YOLOX) takes the best, and two classes whose scores lie within rounding of
    each other may swap there, as near-tied scores swap ranks. Returns what stays unpaired on each
    side and the ties, (their class, our class, score)."""
    ties, tied_ref, tied_ours = [], set(), set()
    for i, (c, b, s) in enumerate(lone_ref):
        for j, (c2, b2, s2) in enumerate(lone_ours):
            if j not in tied_ours and c2 != c and abs(s - s2) <= score_tol and \
                    max(abs(u - v) for u, v in zip(b, b2)) <= box_px:
                tied_ref.add(i)
                tied_ours.add(j)
                ties.append((c, c2, round(s, 5)))
                break
    return ([r for i, r in enumerate(lone_ref) if i not in tied_ref],
            [o for j, o in enumerate(lone_ours) if j not in tied_ours], ties)


def iou(a, b, grow=0.0):
    """IoU of boxes a and b (x1, y1, x2, y2), each grown by grow on every side (shrunk when negative)."""
    a = [a[0] - grow, a[1] - grow, a[2] + grow, a[3] + grow]
    b = [b[0] - grow, b[1] - grow, b[2] + grow, b[3] + grow]
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    area = lambda r: max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])  # noqa: E731
    union = area(a) + area(b) - w * h
    return w * h / union if union > 0 else 0.0


def iou_could_cross(a, b, threshold, box_px):
    """Whether moving every corner of a and b by up to box_px can take their IoU to either side of
    threshold: the extremes are both boxes grown and both shrunk (a bound, not the exact range)."""
    values = [iou(a, b, -box_px), iou(a, b), iou(a, b, box_px)]
    return min(values) - 1e-6 <= threshold <= max(values) + 1e-6


def suppression_ties(lone_ref, lone_ours, ref, ours, box_px, score_tol):
    """Boxes that NMS kept on one side only because their IoU with a better-scored box of the same class
    lies within rounding of iou: on that side they stayed, on the other they were suppressed (and a box
    that such a box suppresses on one side may stay on the other). Returns what stays unpaired on each
    side and the ties, (class, score, IoU)."""
    ties, tied = [], set()
    for lone, side in ((lone_ref, ref), (lone_ours, ours)):
        for c, b, s in lone:
            for c2, b2, s2 in side:
                if c2 == c and b2 != b and s2 >= s - score_tol and iou_could_cross(b, b2, IOU, box_px):
                    tied.add((c, tuple(b), s))
                    ties.append((c, round(s, 4), round(iou(b, b2), 4)))
                    break
    # What a tied box suppresses on the side that kept it stays on the other side.
    for lone, other in ((lone_ref, lone_ours), (lone_ours, lone_ref)):
        for c, b, s in lone:
            if (c, tuple(b), s) in tied:
                continue
            if any(c2 == c and (c2, tuple(b2), s2) in tied and s2 >= s - score_tol and iou(b, b2, box_px) > IOU
                   for c2, b2, s2 in other):
                tied.add((c, tuple(b), s))
                ties.append((c, round(s, 4), "suppressed by a tied box"))
    keep = lambda lone: [d for d in lone if (d[0], tuple(d[1]), d[2]) not in tied]  # noqa: E731
    return keep(lone_ref), keep(lone_ours), ties


def compare(ref, ours, conf, box_px, score_tol, nms=False, floors=None):
    """(ok, worst box gap, worst score gap, text). nms: the family suppresses by IoU (suppression_ties).
    floors: per reference box, what LibreYOLO's own other roundings of it differ by (box_floors); a pair
    may then differ by the mode's tolerance plus twice its box's floor, and a box that one of them
    lost may be lost here too."""
    gained = list(getattr(floors, "gained", ()))
    floors = floors_with_row_scale(floors or [(0.0, 0.0)] * len(ref))
    stable = [f for f in floors if f is not None]
    # The ties below compare boxes that no pair ties to a reference box: the row's scale bounds them.
    tie_px = box_px + 2 * min((f[0] for f in stable), default=0.0)
    tie_score = score_tol + 2 * min((f[1] for f in stable), default=0.0)
    pairs, lone_ref_index, lone_ours_index = pair(ref, ours)
    lone_ref = [ref[i] for i in lone_ref_index]
    lone_ours = [ours[j] for j in lone_ours_index]
    lone_ref, lone_ours, class_ties = class_ties_between(lone_ref, lone_ours, tie_px, tie_score)
    nms_ties = []
    if nms:
        lone_ref, lone_ours, nms_ties = suppression_ties(lone_ref, lone_ours, ref, ours, tie_px, tie_score)
    # What is left of the boxes LibreYOLO's own other rounding lost (a class tie there, say) may be
    # missing here too.
    lost = {(ref[i][0], tuple(ref[i][1]), ref[i][2]) for i in lone_ref_index if floors[i] is None}
    unstable = [d for d in lone_ref if (d[0], tuple(d[1]), d[2]) in lost]
    lone_ref = [d for d in lone_ref if (d[0], tuple(d[1]), d[2]) not in lost]
    # Likewise a box that LibreYOLO's own other rounding gained (a box of a near-tied NMS or top-k
    # decision) may be gained here too: the same box, up to the row's tolerance.
    gained_pairs, _, _ = pair(gained, lone_ours)
    also_gained = [lone_ours[j] for gap, _, _, j in gained_pairs if gap <= tie_px]
    lone_ours = [d for d in lone_ours if d not in also_gained]
    worst_box = max((p[0] for p in pairs), default=0.0)
    worst_score = max((p[1] for p in pairs), default=0.0)
    # A box may lie on the edge: its score at the threshold, or (when max_det cut the list) at the
    # lowest kept score.
    edge = conf
    if len(ref) >= MAX_DET:
        edge = max(edge, min(s for _, _, s in ref))
    borderline = [d for d in lone_ref + lone_ours if abs(d[2] - edge) <= tie_score]
    lone = [d for d in lone_ref + lone_ours if abs(d[2] - edge) > tie_score]
    bad = [p for p in pairs if floors[p[2]] is not None and
           (p[0] > box_px + 2 * floors[p[2]][0] or p[1] > score_tol + 2 * floors[p[2]][1])]
    ok = not lone and not bad
    text = f"{len(ref)} vs {len(ours)} boxes, {len(pairs)} paired, box {worst_box:.2e} px, score {worst_score:.2e}"
    if borderline:
        text += f", {len(borderline)} at the threshold"
    if class_ties:
        text += f", {len(class_ties)} class tie(s) {class_ties[:2]}"
    if nms_ties:
        text += f", {len(nms_ties)} NMS tie(s) {nms_ties[:2]}"
    if unstable:
        text += f", {len(unstable)} lost by LibreYOLO's own other rounding too"
    if also_gained:
        text += f", {len(also_gained)} gained by LibreYOLO's own other rounding too"
    if not ok:
        text += f"; unpaired {[(c, [round(v, 1) for v in b], round(s, 4)) for c, b, s in lone][:4]}"
        text += f"; off {[(ref[i][0], round(g, 4), round(d, 5)) for g, d, i, j in bad][:4]}"
    return ok, worst_box, worst_score, text


def draw_gaps(ref, other):
    """Per box of ref and per box that other has and ref has not: (corner gap px, score gap) to its
    partner (pair), inf for a box without one."""
    pairs, lone_ref, lone_other = pair(ref, other)
    inf = (float("inf"), float("inf"))
    return [(g, d) for g, d, _, _ in pairs] + [inf] * (len(lone_ref) + len(lone_other))


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


DRAW_QUANTILES = (0.5, 0.9)


def compare_as_draw(ref, ours, own, box_px, score_tol):
    """(ok, worst box gap, worst score gap, text) for a mode whose rounding a randomised network turns
    into chaos (float16): ours and LibreYOLO's own draw of that rounding (own: its CUDA output under float16
    autocast) are each held to the float32 reference, box by box (draw_gaps, a lost or gained box
    counting as an infinite gap), and at the median and the 90th percentile ours may lie no farther than
    the mode's tolerance plus twice LibreYOLO's own. A wrong kernel moves every box, and the median with
    it; rounding moves a few boxes far, as it moves LibreYOLO's."""
    ours_gaps, own_gaps = draw_gaps(ref, ours), draw_gaps(ref, own)
    ok, parts = True, []
    for q in DRAW_QUANTILES:
        for k, tol, unit in ((0, box_px, " px"), (1, score_tol, "")):
            mine, theirs = quantile([g[k] for g in ours_gaps], q), quantile([g[k] for g in own_gaps], q)
            # Where LibreYOLO's own draw lost half the boxes, its median bounds nothing: no verdict is a failure.
            holds = mine <= tol + 2 * theirs and (q < 0.5 or theirs != float("inf"))
            ok &= holds
            parts.append(f"{'score ' if k else ''}p{int(q * 100)} {mine:.2g}{unit} vs {theirs:.2g}{'' if holds else ' (too far)'}")
    finite = [g for g in ours_gaps if g[0] != float("inf")]
    worst_box = max((g[0] for g in finite), default=0.0)
    worst_score = max((g[1] for g in finite), default=0.0)
    text = (f"{len(ref)} vs {len(ours)} boxes (LibreYOLO float16: {len(own)}), against LibreYOLO's own float16 "
            f"draw: {', '.join(parts)}; worst pair {worst_box:.2e} px, {worst_score:.2e}")
    return ok, worst_box, worst_score, text


def threshold_in_a_gap(detections, rng):
    """A confidence threshold that keeps between 20 and 100 of the reference's boxes (as many as there
    are, if fewer), midway across the widest gap between neighbouring scores there, so that no box
    sits at the threshold. Chosen from LibreYOLO's output alone: whatever our side does, the
    threshold is the same."""
    scores = sorted((s for _, _, s in detections), reverse=True)
    if len(scores) < 2:
        return 0.001
    lo = min(20, len(scores) - 1)
    hi = max(lo, min(100, len(scores) - 1))
    start = int(rng.integers(lo, hi + 1))
    window = range(max(1, start - 5), min(len(scores), start + 6))
    k = max(window, key=lambda i: scores[i - 1] - scores[i])
    return (scores[k - 1] + scores[k]) / 2


def floors_with_row_scale(floors):
    """Each box's floor raised to the row's scale: the largest floor of the row once the outliers (above
    20 times the median: boxes that LibreYOLO's own rounding moved chaotically) are left out. One
    draw of another rounding says how much a box can move, not how much it will: ours is a second
    draw, which may move a box more than LibreYOLO's moved that same box, but not more than the
    row's ordinary boxes moved."""
    stable = [f for f in floors if f is not None]
    if not stable:
        return floors
    scale = []
    for k in (0, 1):
        values = [f[k] for f in stable]
        cap = 20 * float(np.median(values))
        scale.append(max((v for v in values if v <= cap), default=0.0))
    return [None if f is None else (max(f[0], scale[0]), max(f[1], scale[1])) for f in floors]


class Floors(list):
    """Per box of the reference: (box px, score) or None (box_floors); .gained: the boxes that
    LibreYOLO's own other roundings keep and the reference does not."""
    gained = ()


def box_floors(ref, others):
    """Per box of ref: the largest (box px, score) gap to its partner in each of others (LibreYOLO's own
    other roundings of the same network: folded, fused, on CUDA), or None where one of them lost it;
    the boxes that one of them gained, in .gained. A randomised network amplifies rounding unevenly:
    most boxes stay within 1e-2 px while a few move tens of pixels (YOLOv9-t, seed 1001: 29 px under
    LibreYOLO's own folding), so the floor is per box."""
    floors = Floors([(0.0, 0.0)] * len(ref))
    gained = []
    for other in others:
        pairs, lone, lone_other = pair(ref, other)
        for gap, dscore, i, _ in pairs:
            if floors[i] is not None:
                floors[i] = (max(floors[i][0], gap), max(floors[i][1], dscore))
        for i in lone:
            floors[i] = None
        gained += [other[j] for j in lone_other]
    floors.gained = gained
    return floors


def floor_text(row, mode):
    """", + 2 x floor (up to 0.031 px, 2.1e-05; 1 box lost)" for a mode with a floor."""
    if mode.draw:
        return " + 2 x LibreYOLO's own float16 draw, at p50 and p90"
    if not mode.floor:
        return ""
    f = row["floors"][mode.floor]
    lost = f"; {f['lost']} box(es) lost" if f["lost"] else ""
    lost += f", {f['gained']} gained" if f.get("gained") else ""
    return (f" + 2 x {mode.floor} floor: {f['scale'][0]:.2g} px, {f['scale'][1]:.2g} per row, "
            f"up to {f['box_px']:.2g} px, {f['score']:.2g} per box{lost}")


def run_row(args, family, size, seed, work):
    cls, _ = FAMILIES[family]
    torch.manual_seed(seed)
    model = cls._from_scratch(size=size, nb_classes=NC, device="cpu", seed=seed)
    rng = np.random.default_rng(seed)
    image = os.path.join(work, f"image-{seed}.bmp")  # .bmp: the GPU host's build reads it without imgcodecs
    w, h = random_image(rng, image)
    gen = torch.Generator().manual_seed(seed)
    norms, biases, zeros = randomise(model.model, NC, gen, model._preprocess(image)[0])
    model.model.eval()
    pt = os.path.join(work, f"{family}-{size}-{seed}.pt")
    model.save(pt)
    conf = args.conf if args.conf is not None else threshold_in_a_gap(
        libreyolo_detections(pt, image, 0.001, "cpu"), rng)
    row = {"family": family, "size": size, "seed": seed, "image": [w, h], "conf": conf,
           "batch_norms": norms, "class_biases": biases,
           "zero_layers": zeros, "modes": {}}
    refs = {"cpu": libreyolo_detections(pt, image, conf, "cpu")}
    floors = {}  # per floor kind: per reference box, what LibreYOLO's own other roundings differ by
    if any(MODES[m].floor == "folded" for m in args.modes):
        # LibreYOLO's network with every BatchNorm folded, and fused by its own fuse() where it has one:
        # each is one draw of the rounding noise that ours is another of.
        folds = ["batch_norms"] + (["fuse"] if callable(getattr(model.model, "fuse", None)) else [])
        floors["folded"] = box_floors(refs["cpu"], [libreyolo_detections(pt, image, conf, "cpu", fold=f) for f in folds])
    if any(MODES[m].reference == "cuda" for m in args.modes):
        refs["cuda"] = libreyolo_detections(pt, image, conf, "cuda")
        floors["cuda"] = box_floors(refs["cuda"], [refs["cpu"]])
    if any(MODES[m].draw for m in args.modes):
        refs["half"] = libreyolo_detections(pt, image, conf, "cuda", half=True)
    row["floors"] = {k: {"box_px": max((f[0] for f in v if f), default=0.0),
                         "score": max((f[1] for f in v if f), default=0.0),
                         "scale": [min((f[k2] for f in floors_with_row_scale(v) if f), default=0.0) for k2 in (0, 1)],
                         "lost": sum(f is None for f in v), "gained": len(v.gained)} for k, v in floors.items()}
    ok_all = True
    for name in args.modes:
        mode = MODES[name]
        box_px, score_tol = mode.box_px, mode.score
        floor = floors.get(mode.floor)
        t0 = time.time()
        try:
            ours = our_detections(args.cli, pt, image, conf, mode)
            if mode.draw:
                ok, wb, ws, text = compare_as_draw(refs[mode.reference], ours, refs["half"], box_px, score_tol)
            else:
                ok, wb, ws, text = compare(refs[mode.reference], ours, conf, box_px, score_tol,
                                           nms=family in NMS_FAMILIES, floors=floor)
        except RuntimeError as e:
            ok, wb, ws, text = False, None, None, str(e)
        row["modes"][name] = {"ok": ok, "box_px": wb, "score": ws, "tolerance": [box_px, score_tol],
                              "floor": mode.floor and row["floors"][mode.floor],
                              "boxes": len(refs[mode.reference]), "text": text, "seconds": round(time.time() - t0, 1)}
        ok_all &= ok
        print(f"{'PASS' if ok else 'FAIL'} {family}-{size} seed={seed} {w}x{h} {name} "
              f"(within {box_px:.2g} px, {score_tol:.2g}{floor_text(row, mode)}): {text}", flush=True)
    if args.loss:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import loss_batch  # noqa: E402  (only the training-side check needs it)
        try:
            parts = loss_batch.compare_losses(args.loss_cli, family, pt, seed, work)
            ok = all(p["ok"] for p in parts.values())
            text = ", ".join(f"{k} {v['libreyolo']:.6g}/{v['ours']:.6g}" for k, v in parts.items())
        except (RuntimeError, NotImplementedError) as e:
            ok, parts, text = False, {}, str(e)
        row["loss"] = {"ok": ok, "parts": parts, "text": text}
        ok_all &= ok
        print(f"{'PASS' if ok else 'FAIL'} {family}-{size} seed={seed} loss: {text}", flush=True)
    os.remove(pt)
    return ok_all, row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=None, help="the run's seed (default: drawn and printed)")
    ap.add_argument("--families", default=",".join(FAMILIES), help="comma-separated")
    ap.add_argument("--sizes", default="smallest", help="smallest (default), all, or a comma-separated list")
    ap.add_argument("--modes", default="cpu,cpu-fuse", help=f"comma-separated, of {','.join(MODES)}")
    ap.add_argument("--conf", type=float, default=None,
                    help="confidence threshold (default: chosen per row in a gap of LibreYOLO's scores)")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "bin", "libreyolo"))
    ap.add_argument("--loss-cli", default=os.path.join(ROOT, "build", "bin", "libreyolo-parity-loss"))
    ap.add_argument("--no-loss", dest="loss", action="store_false", help="skip the training-side check")
    ap.add_argument("--json", default=None, help="write every row here too")
    args = ap.parse_args()
    args.modes = args.modes.split(",")
    for m in args.modes:
        if m not in MODES:
            sys.exit(f"unknown mode '{m}': one of {', '.join(MODES)}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    print(f"seed {seed} (reproduce with --seed {seed}); LibreYOLO {libreyolo.__version__}, torch {torch.__version__}",
          flush=True)
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    if any(MODES[m].device == "cuda" for m in args.modes):
        print(f"CUDA float32: {float32_check()}", flush=True)
    rows, ok_all = [], True
    with tempfile.TemporaryDirectory(prefix="libreyolo-parity-") as work:
        for family in args.families.split(","):
            if family not in FAMILIES:
                sys.exit(f"unknown family '{family}': one of {', '.join(FAMILIES)}")
            shipped = FAMILIES[family][1]
            if args.sizes == "smallest":
                sizes = shipped[:1]
            elif args.sizes == "all":
                sizes = shipped
            else:
                sizes = [s for s in args.sizes.split(",") if s in shipped]
            for size in sizes:
                ok, row = run_row(args, family, size, seed, work)
                ok_all &= ok
                rows.append(row)
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"seed": seed, "libreyolo": libreyolo.__version__, "torch": torch.__version__, "rows": rows},
                      f, indent=1)
        os.replace(tmp, args.json)
    failed = sum(1 for r in rows for m in r["modes"].values() if not m["ok"]) + \
        sum(1 for r in rows if "loss" in r and not r["loss"]["ok"])
    checks = sum(len(r["modes"]) + ("loss" in r) for r in rows)
    print(f"parity: {checks - failed} passed, {failed} failed (seed {seed})")
    sys.exit(0 if ok_all else 1)


if __name__ == "__main__":
    main()
