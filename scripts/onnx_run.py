#!/usr/bin/env python3
"""Runs an ONNX file with ONNX Runtime on the CPU: the inputs are read from a safetensors file (one
tensor per graph input, by name), every graph output is written to another safetensors file.
Used by tests/engine/test_onnx_export.cpp to compare an exported model with the engine's forward.

    onnx_run.py model.onnx inputs.safetensors outputs.safetensors
"""
import sys

import numpy as np
import onnxruntime as ort
from safetensors.numpy import load_file, save_file


def main(model_path: str, inputs_path: str, outputs_path: str) -> None:
    options = ort.SessionOptions()
    # The graph as written: no rewrites that would change float rounding.
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
    inputs = load_file(inputs_path)
    results = session.run(None, {i.name: inputs[i.name] for i in session.get_inputs()})
    save_file({o.name: np.ascontiguousarray(r) for o, r in zip(session.get_outputs(), results)}, outputs_path)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
