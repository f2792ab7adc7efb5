"""Training-side parity: one random batch's loss, LibreYOLO's trainer against ours.

scripts/parity/cross_check.py imports this module lazily (its --loss check, on by default) and calls

    compare_losses(loss_cli, family, pt, seed, work)

once per row, after LibreYOLO's own save() wrote the row's randomised model to `pt`. compare_losses
  1. draws a batch from `seed`: two non-square RGB images in [0, 1] (a gradient with a few flat
     rectangles and a little noise; sides multiples of 32 between 256 and 384, large enough that
     D-FINE-n's two levels leave its 300 queries enough cells) and 1 to 4 boxes per image,
     targets (B, T, 5) = class, x1, y1, x2, y2 normalised, zero rows padding (at least one);
  2. writes them to <work>/batch-<seed>.safetensors (`images`, `targets`);
  3. runs `loss_cli pt batch seed` (libreyolo-parity-loss, tests/parity/parity_loss.cpp): our
     family's FamilyRecipe::loss, float32 on the CPU, the network in train(), torch::manual_seed(seed)
     right before the step; it prints {"names": [...], "parts": [...], "total": x};
  4. computes the same with LibreYOLO's code: the network LibreYOLO(pt) loads, in train(), the batch in the
     form that family's trainer receives it from its data loader, torch.manual_seed(seed) right
     before the trainer's own on_forward (the DETR families' denoising draws come from torch's
     generator, in the same order on both sides), the parts from the trainer's own
     get_loss_components (the results.csv columns: each part already weighted, summed over levels)
     and the total that backward starts from (outputs["total_loss"]);
  5. returns {part: {"libreyolo": x, "ours": y, "ok": bool}, ..., "total": {...}}.

The LibreYOLO side is one function per family in LIBREYOLO_LOSS; a new family adds its own.
Each calls the family's trainer methods on a bare trainer object (no data, no optimizer) that
carries only what on_forward, build_criterion and get_loss_components read.
"""
import json
import os
import subprocess
import types

import numpy as np
import torch
from safetensors.torch import save_file

# float32 on both sides, but different kernels and summation orders (LibTorch against PyTorch,
# our loops against LibreYOLO's): a part agrees when |ours - theirs| <= 1e-5 + 1e-4 * |theirs|.
RTOL, ATOL = 1e-4, 1e-5
SIDES = (256, 288, 320, 352, 384)  # multiples of 32; at 256x288 D-FINE-n's strides 16, 32 give 360 >= 300 cells


def random_batch(seed):
    """images (2, 3, H, W) float32 in [0, 1], H != W; targets (2, T, 5) class, x1, y1, x2, y2."""
    rng = np.random.default_rng(seed)
    h, w = (int(s) for s in rng.choice(SIDES, 2, replace=False))
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    images, rows = [], []
    for _ in range(2):
        base = rng.uniform(0.2, 0.8, 3)
        slope = rng.uniform(-1.0, 1.0, (3, 2)) / max(h, w) * 0.5
        img = np.stack([base[c] + slope[c, 0] * x + slope[c, 1] * y for c in range(3)])
        boxes = []
        for _ in range(int(rng.integers(1, 5))):
            bw, bh = rng.uniform(0.06, 0.5, 2)
            x1, y1 = rng.uniform(0, 1 - bw), rng.uniform(0, 1 - bh)
            boxes.append([float(rng.integers(0, 80)), x1, y1, x1 + bw, y1 + bh])
            # paint the object so the network sees something where the box is
            c0, c1 = int(x1 * w), int((x1 + bw) * w)
            r0, r1 = int(y1 * h), int((y1 + bh) * h)
            img[:, r0:r1, c0:c1] = rng.uniform(0, 1, 3)[:, None, None]
        img += rng.normal(0, 0.02, img.shape)
        images.append(np.clip(img, 0, 1))
        rows.append(boxes)
    targets = np.zeros((2, max(len(r) for r in rows) + 1, 5), np.float32)
    for i, r in enumerate(rows):
        targets[i, : len(r)] = r
    return torch.from_numpy(np.stack(images).astype(np.float32)), torch.from_numpy(targets)


def bare_trainer(trainer_cls, net, nc, criterion=False):
    """A trainer object without __init__: the network, the device, the class count, and (DETR
    families) the criterion its own build_criterion makes."""
    t = trainer_cls.__new__(trainer_cls)
    t.model = net
    t.device = torch.device("cpu")
    t.config = types.SimpleNamespace(num_classes=nc)
    t._is_segment = lambda: False
    if criterion:
        t.criterion = t.build_criterion()
    return t


def trainer_step(trainer, images, targets, seed):
    """LibreYOLO's training forward and loss: (the logged parts, the total)."""
    torch.manual_seed(seed)
    outputs = trainer.on_forward(images, targets)
    parts = trainer.get_loss_components(outputs)
    value = lambda v: float(v.detach()) if isinstance(v, torch.Tensor) else float(v)  # noqa: E731
    return {k: value(v) for k, v in parts.items()}, value(outputs["total_loss"])


def xyxy_to_cxcywh_pixels(targets, width, height):
    """(B, T, 5) class, x1, y1, x2, y2 normalised -> class, cx, cy, w, h in pixels; zero rows stay zero."""
    c, x1, y1, x2, y2 = targets.unbind(-1)
    x1, x2, y1, y2 = x1 * width, x2 * width, y1 * height, y2 * height
    return torch.stack([c, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1], -1)


def yolo9_loss(net, nc, images, targets, seed):
    # YOLO9Trainer.on_forward: model(imgs, targets=...) with our targets' layout (xyxy normalised);
    # the loss is LibreYOLO's YOLO9Loss, parts box/cls/dfl weighted 7.5/0.5/1.5, normalised by the
    # soft-target sum (no batch-size factor). Our trainer leaves out the PGI auxiliary branch (LibreYOLO's
    # aux_weight 0.25 default, docs/demo-model.md), so it is off here too.
    from libreyolo.models.yolo9.trainer import YOLO9Trainer
    if getattr(net, "aux", None) is not None:
        net.disable_aux()
    return trainer_step(bare_trainer(YOLO9Trainer, net, nc), images, targets, seed)


def yolox_loss(net, nc, images, targets, seed):
    # YOLOXTrainer.on_forward: model(imgs, labels) with BGR images in 0-255 (our network flips and
    # scales its RGB [0, 1] input the same way) and labels class, cx, cy, w, h in pixels. The L1
    # term stays off (head.use_l1 False) until the first epoch without mosaic, on both sides: a
    # fresh YOLOXRecipe starts with use_l1_ false, so l1 is 0.
    from libreyolo.models.yolox.trainer import YOLOXTrainer
    net.head.use_l1 = False
    labels = xyxy_to_cxcywh_pixels(targets, images.shape[3], images.shape[2])
    return trainer_step(bare_trainer(YOLOXTrainer, net, nc), images.flip(1) * 255, labels, seed)


def rtdetr_loss(net, nc, images, targets, seed):
    # RTDETRTrainer.on_forward converts our targets' layout (xyxy normalised) itself
    # (convert_targets_for_detr) and runs its RTDETRLoss; parts vfl/bbox/giou summed over the main,
    # auxiliary and denoising levels.
    from libreyolo.models.rtdetr.trainer import RTDETRTrainer
    return trainer_step(bare_trainer(RTDETRTrainer, net, nc, criterion=True), images, targets, seed)


def dfine_loss(net, nc, images, targets, seed, trainer_cls=None):
    # DFINETrainer.on_forward takes class, cx, cy, w, h in pixels (its loader's layout), divides by
    # the input size and clamps to [0, 1]; its criterion as build_criterion makes it. Parts
    # vfl/bbox/giou/fgl/ddf summed over every level (get_loss_components also lists the mask terms,
    # absent for detection: dropped).
    if trainer_cls is None:
        from libreyolo.models.dfine.trainer import DFINETrainer as trainer_cls
    labels = xyxy_to_cxcywh_pixels(targets, images.shape[3], images.shape[2])
    parts, total = trainer_step(bare_trainer(trainer_cls, net, nc, criterion=True), images, labels, seed)
    for mask_part in ("mask_bce", "mask_dice"):
        if parts.pop(mask_part, 0.0) != 0.0:
            raise RuntimeError(f"LibreYOLO reported a {mask_part} loss for a detection model")
    return parts, total


def deim_loss(net, nc, images, targets, seed):
    # DEIMTrainer: D-FINE's layout and network, the MAL class loss (parts mal/bbox/giou/fgl/ddf).
    from libreyolo.models.deim.trainer import DEIMTrainer
    return dfine_loss(net, nc, images, targets, seed, trainer_cls=DEIMTrainer)


LIBREYOLO_LOSS = {
    "yolo9": yolo9_loss,
    "yolox": yolox_loss,
    "rtdetr": rtdetr_loss,
    "dfine": dfine_loss,
    "deim": deim_loss,
}


def family_loss(family):
    """The family's LibreYOLO-side function."""
    if family not in LIBREYOLO_LOSS:
        raise NotImplementedError(f"loss_batch.py has no LibreYOLO loss for family '{family}': add it to LIBREYOLO_LOSS")
    return LIBREYOLO_LOSS[family]


def libreyolo_losses(pt, family, images, targets, seed):
    """LibreYOLO's parts and total on the batch, from the network LibreYOLO(pt) loads, in train mode:
    what a user fine-tuning that checkpoint trains (RT-DETR-r50's, D-FINE-l/x's and DEIM-l/x's
    backbones then have frozen BatchNorms, where LibreYOLO's scratch build has trainable ones)."""
    from libreyolo import LibreYOLO
    loss = family_loss(family)
    model = LibreYOLO(pt, device="cpu")
    net = model.model.float().cpu()
    net.train()
    return loss(net, int(getattr(model, "nb_classes", 80)), images, targets, seed)


def our_losses(loss_cli, pt, batch_path, seed):
    p = subprocess.run([loss_cli, pt, batch_path, str(seed)], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{loss_cli} {pt} {batch_path} {seed} exited {p.returncode}: {p.stderr.strip()[-2000:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if len(out["names"]) != len(out["parts"]):
        raise RuntimeError(f"{loss_cli}: {len(out['names'])} names for {len(out['parts'])} parts")
    return dict(zip(out["names"], (float(v) for v in out["parts"]))), float(out["total"])


def close(theirs, ours):
    return bool(np.isfinite(theirs) and np.isfinite(ours) and abs(ours - theirs) <= ATOL + RTOL * abs(theirs))


def compare_losses(loss_cli, family, pt, seed, work):
    """{part: {"libreyolo", "ours", "ok"}} for each of our loss parts, plus "total"."""
    family_loss(family)  # an unknown family fails before our tool runs
    images, targets = random_batch(seed)
    batch_path = os.path.join(work, f"batch-{seed}.safetensors")
    save_file({"images": images.contiguous(), "targets": targets.contiguous()}, batch_path)
    ours, our_total = our_losses(loss_cli, pt, batch_path, seed)  # the batch stays on failure
    theirs, their_total = libreyolo_losses(pt, family, images.clone(), targets.clone(), seed)
    os.remove(batch_path)
    if set(ours) != set(theirs):
        raise RuntimeError(f"{family}: our loss parts {sorted(ours)} do not match LibreYOLO's {sorted(theirs)} "
                           "one to one")
    result = {k: {"libreyolo": theirs[k], "ours": ours[k], "ok": close(theirs[k], ours[k])} for k in ours}
    result["total"] = {"libreyolo": their_total, "ours": our_total, "ok": close(their_total, our_total)}
    return result
