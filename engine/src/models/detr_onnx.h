#pragma once
// The DETR families' shared blocks as ONNX nodes (models/detr_encoder_blocks.h, conv_norm_layer.h,
// detr_heads.h), from their parameters and under their state_dict names: what RT-DETR's exporter
// and the other DETRs' build from.
#include <string>

#include "models/detr_encoder_blocks.h"
#include "models/detr_heads.h"
#include "onnx/onnx_graph.h"

namespace libreyolo::models {

// Conv (its bias once folded), then BatchNorm while not folded, then the activation.
std::string conv_norm_layer(onnx::Graph& g, const ConvNormLayerImpl& layer, const std::string& name,
                            const std::string& x);
std::string csp_rep_layer(onnx::Graph& g, const CSPRepLayerImpl& layer, const std::string& name, const std::string& x);
// The post-norm encoder layer on tokens (B, L, C) with pos (1, L, C) added to query and key.
std::string transformer_encoder_layer(onnx::Graph& g, const TransformerEncoderLayerImpl& layer, const std::string& name,
                                      const std::string& tokens, const std::string& pos, int64_t length);
// Linear layers with the MLP's activation between them.
std::string mlp(onnx::Graph& g, const MLPImpl& mlp, const std::string& name, const std::string& x);
// log(x / (1 - x)) with x clipped to [0, 1] and both parts to at least eps (inverse_sigmoid).
std::string inverse_sigmoid(onnx::Graph& g, const std::string& x, const std::string& name, double eps = 1e-5);

}  // namespace libreyolo::models
