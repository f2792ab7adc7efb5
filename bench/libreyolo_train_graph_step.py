#!/usr/bin/env python3
"""LibreYOLO (Python) side of the training step benchmark: the step time of LibreYOLO's own
trainer loop (its `_train_epoch`: forward under autocast through its CUDA-graph manager or eager,
loss, scaled backward, GradScaler, optimizer, EMA, the per-step loss read-back and LR update),
replaying one real batch of its own loader that already sits on the GPU, so that data loading and
the host-to-device copy stay out of the loop as in bench_train_graph_step.

The trainer is LibreYOLO's, set up by its own train() path; only its loader is replaced by one
that yields the same device batch warmup+steps times, and validation is skipped. A step is the
time between two consecutive batch requests (CUDA events; the loop reads the loss back every step,
so each interval holds exactly one finished step). Fastest of `steps` after `warmup` (the graph is
captured on the third repeat of the shape, inside the warm-up).

  python bench/libreyolo_train_graph_step.py data=YAML [family=yolo9|yolox|dfine|deim] [sizes=t] [batches=8] \
      [imgsz=640] [cuda_graph=false,true] [steps=24] [warmup=5] [project=DIR] [device=cuda] [--json]
"""
import json
import tempfile
import time

import torch

import libreyolo
from bench_args import parse_bench_args
import libreyolo.models.deim.trainer as deim_trainer
import libreyolo.models.dfine.trainer as dfine_trainer
import libreyolo.models.yolox.trainer as yolox_trainer
from libreyolo.models.deim.model import LibreDEIM
from libreyolo.models.dfine.model import LibreDFINE
from libreyolo.models.yolo9.model import LibreYOLO9
from libreyolo.models.yolox.model import LibreYOLOX

# The model class, and the trainer module and class name its train() imports (YOLOv9 builds its
# trainer through _trainer_class() instead).
FAMILIES = {"yolo9": (LibreYOLO9, None, None), "yolox": (LibreYOLOX, yolox_trainer, "YOLOXTrainer"),
            "dfine": (LibreDFINE, dfine_trainer, "DFINETrainer"), "deim": (LibreDEIM, deim_trainer, "DEIMTrainer")}


class RepeatedBatch:
    """A loader of one batch, yielded `count` times, marking the time before each yield and after
    the last step: CUDA events on the GPU, the host clock on the CPU (a smoke run)."""

    dataset = None  # the DETR trainers look for set_epoch on it

    def __init__(self, batch: tuple, count: int, cuda: bool):
        self.batch, self.count, self.cuda = batch, count, cuda
        self.marks = []

    def __len__(self) -> int:
        return self.count

    def mark(self) -> None:
        if self.cuda:
            self.marks.append(torch.cuda.Event(enable_timing=True))
            self.marks[-1].record()
        else:
            self.marks.append(time.perf_counter())

    def __iter__(self):
        for _ in range(self.count):
            self.mark()
            yield self.batch
        self.mark()

    def step_ms(self) -> list:
        if not self.cuda:
            return [1000 * (b - a) for a, b in zip(self.marks, self.marks[1:])]
        torch.cuda.synchronize()
        return [a.elapsed_time(b) for a, b in zip(self.marks, self.marks[1:])]


def time_steps(family: str, size: str, batch: int, imgsz: int, cuda_graph: bool, data: str, project: str,
               warmup: int, steps: int, device: str) -> dict:
    import yaml
    names = yaml.safe_load(open(data))["names"]
    torch.manual_seed(0)
    model_class, trainer_module, trainer_name = FAMILIES[family]
    model = model_class(None, size, nb_classes=len(names), device=device)
    measured = {}
    trainer_class = LibreYOLO9._trainer_class(model) if family == "yolo9" else getattr(trainer_module, trainer_name)

    def bench_trainer(**kwargs):
        trainer = trainer_class(**kwargs)

        def timed_train():
            trainer.setup()
            first = next(iter(trainer.train_loader))
            on_device = tuple(t.to(trainer.device) if torch.is_tensor(t) else t for t in first)
            loader = RepeatedBatch(on_device, warmup + steps, device == "cuda")
            trainer.train_loader = loader
            trainer._should_validate_epoch = lambda epoch: False
            trainer._maybe_precise_bn = lambda *args, **kw: False
            trainer._train_epoch(0)
            timed = loader.step_ms()[warmup:]
            manager = getattr(trainer, "_cuda_graph_manager", None)
            measured.update(step_ms=min(timed), median_ms=sorted(timed)[len(timed) // 2],
                            captured=bool(manager is not None and manager.captured))
            return {}

        trainer.train = timed_train
        return trainer

    extra = {}
    if family == "yolo9":
        model._trainer_class = lambda: bench_trainer
        extra["aux_weight"] = 0.0
    else:
        setattr(trainer_module, trainer_name, bench_trainer)
    try:
        model.train(data=data, epochs=1, batch=batch, imgsz=imgsz, device=device, workers=2, project=project,
                    name=f"{family}-{size}-{batch}-{cuda_graph}", exist_ok=True, seed=0, amp=True,
                    cuda_graph=cuda_graph, **extra)
    finally:
        if trainer_module is not None:
            setattr(trainer_module, trainer_name, trainer_class)
    return {"impl": f"LibreYOLO {libreyolo.__version__} (torch {torch.__version__})", "model": f"{family}-{size}",
            "batch": batch, "cuda_graph": cuda_graph, **measured}


def main() -> None:
    args, as_json = parse_bench_args({"data": "", "family": "yolo9", "sizes": "t", "batches": "8", "imgsz": "640",
                                      "cuda_graph": "false,true", "steps": "24", "warmup": "5", "project": "",
                                      "device": "cuda"})
    project = args["project"] or tempfile.mkdtemp(prefix="libreyolo-step-")
    for size in args["sizes"].split(","):
        for batch in map(int, args["batches"].split(",")):
            for graph in args["cuda_graph"].split(","):
                row = time_steps(args["family"], size, batch, int(args["imgsz"]), graph == "true", args["data"], project,
                                 int(args["warmup"]), int(args["steps"]), args["device"])
                print(json.dumps(row) if as_json else row, flush=True)


if __name__ == "__main__":
    main()
