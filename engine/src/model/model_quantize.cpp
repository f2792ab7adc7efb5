// Model::quantize, dequantize and quant_info: LibreYOLO's quantize_model / dequantize_model for
// the simulation tier, over the network's QuantConv2d modules.
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <filesystem>

#include "core/text.h"
#include "image/media_io.h"
#include "image/preprocess.h"
#include "image/sources.h"
#include "libreyolo/dataset.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "libreyolo/log.h"
#include "model/model_impl.h"
#include "nn/multihead_attention.h"
#include "quant/quantize_network.h"

namespace libreyolo {
namespace fs = std::filesystem;
namespace {

// LibreYOLO's recipe names: the ones this engine lacks are refused as unavailable, not unknown.
const std::vector<std::string> kLibreYoloRecipes = {"fp16", "bf16",  "fp8",   "int8", "w4a16",
                                                    "w4a8", "nvfp4", "mxfp4", "int2"};

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

quant::RangeAlgorithm parse_algorithm(const std::string& name) {
    const std::string a = lower_case(name);
    if (a == "auto" || a == "minmax") return quant::RangeAlgorithm::MinMax;
    if (a == "percentile") return quant::RangeAlgorithm::Percentile;
    if (a == "mse" || a == "entropy")
        throw NotSupported("algorithm: '" + a +
                           "' calibration is not available here (available: auto, minmax, percentile)");
    throw InvalidArgument("algorithm: unknown '" + name + "' (available: auto, minmax, percentile)");
}

bool is_yaml(const std::string& path) {
    const std::string ext = lower_case(fs::path(path).extension().string());
    return ext == ".yaml" || ext == ".yml";
}

// The first `samples` calibration images (sorted), from a data YAML's train split (val when
// train is empty) or from an image source.
std::vector<std::string> calibration_images(const std::string& calib, int samples) {
    std::vector<std::string> images;
    if (is_yaml(calib)) {
        const DatasetConfig config = load_dataset_config(calib);
        images = list_images(config.train);
        if (images.empty()) images = list_images(config.val);
        if (images.empty()) throw FileNotFound("calib: " + calib + ": its train and val splits hold no images");
    } else {
        std::vector<image::SourceItem> items;
        try {
            items = image::expand_source(calib);
        } catch (const FileNotFound& e) {
            throw FileNotFound(std::string("calib: ") + e.what());
        } catch (const FormatError& e) {
            throw FormatError(std::string("calib: ") + e.what());
        }
        for (const auto& item : items)
            if (item.kind == image::SourceKind::Image) images.push_back(item.path.string());
        if (images.empty()) throw FileNotFound("calib: '" + calib + "' names no images (videos are not used)");
    }
    if (static_cast<int>(images.size()) > samples) images.resize(samples);
    return images;
}

// A new network of the model's architecture holding its float weights (any _q_* entries left
// out), on its device, in its dtype and mode, with its attention settings: quantize prepares this
// copy and keeps it only once calibration succeeded, dequantize returns to one (LibTorch modules
// cannot drop the buffers that quantization registered).
nn::Detector float_copy(const Model::Impl& m) {
    nn::Detector net = registry::build_network(m.spec);
    std::map<std::string, torch::Tensor> weights;
    for (const auto& [key, tensor] : io::state_dict(*m.net))
        if (key.find("._q_") == std::string::npos) weights[key] = tensor;
    io::load_state_dict(*net, weights, m.source);
    net->to(m.device);
    if (m.dtype != torch::kFloat32) net->to(m.dtype);
    net->train(m.net->is_training());
    const auto from = m.net->named_modules();
    for (const auto& item : net->named_modules()) {
        auto to_attention = std::dynamic_pointer_cast<nn::MultiheadAttentionImpl>(item.value());
        if (!to_attention) continue;
        if (auto* source = from.find(item.key()))
            if (auto from_attention = std::dynamic_pointer_cast<nn::MultiheadAttentionImpl>(*source))
                to_attention->fused_attn = from_attention->fused_attn;
    }
    return net;
}

// Forwards the images through net with every selected module observing, in eval mode. Returns how
// many images were seen; unreadable ones are skipped with a warning.
int observe_ranges(nn::DetectorImpl& net, const Model::Impl& m, const std::vector<quant::NamedConv>& convs,
                   const std::vector<std::string>& images, int batch, int imgsz, quant::RangeAlgorithm algorithm) {
    for (const auto& c : convs) c.module->begin_observation(algorithm);
    net.eval();
    int seen = 0;
    const InputResize resize = family_traits(m.spec.name.family).input_resize;
    std::vector<cv::Mat> rgb_images;
    auto flush = [&] {
        if (rgb_images.empty()) return;
        torch::NoGradGuard no_grad;
        net.forward(image::prepare_input(rgb_images, imgsz, resize, m.device, m.dtype));
        seen += static_cast<int>(rgb_images.size());
        rgb_images.clear();
    };
    for (const std::string& path : images) {
        const cv::Mat bgr = image::read_image(path);
        if (bgr.empty()) {
            log_warning("quant", "calibration image " + path + " cannot be decoded; skipped");
            continue;
        }
        cv::Mat rgb;
        cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
        rgb_images.push_back(std::move(rgb));
        if (static_cast<int>(rgb_images.size()) == batch) flush();
    }
    flush();
    for (const auto& c : convs) c.module->end_observation();
    net.train(m.net->is_training());
    return seen;
}

void count_modules(QuantInfo& info, std::size_t convs) {
    info.module_count = static_cast<int>(convs);
    info.module_counts = {{"conv_" + info.recipe, info.module_count}};
}

}  // namespace

std::vector<std::string> quantization_recipes() {
    std::set<std::string> recipes;
    for (const auto& f : registered_families()) recipes.insert(f.quant_recipes.begin(), f.quant_recipes.end());
    return {recipes.begin(), recipes.end()};
}

QuantInfo Model::quantize(const QuantizeOptions& o) {
    Impl& m = *impl_;
    const std::string family = m.spec.name.family;
    if (m.quant)
        throw InvalidArgument("model is already quantized (recipe '" + m.quant->recipe +
                              "'): load a float checkpoint to quantize with another recipe");
    const std::string recipe = lower_case(o.recipe);
    const FamilyTraits& traits = family_traits(family);
    if (std::find(kLibreYoloRecipes.begin(), kLibreYoloRecipes.end(), recipe) == kLibreYoloRecipes.end())
        throw InvalidArgument("recipe: unknown '" + o.recipe + "' (available: " + joined(quantization_recipes()) + ")");
    if (traits.quant_recipes.empty())
        throw NotSupported("quantization is not supported for model family '" + family + "' yet");
    if (!traits.quant_recipes.count(recipe))
        throw NotSupported("recipe: '" + recipe + "' is not available for " + family +
                           " (available: " + joined({traits.quant_recipes.begin(), traits.quant_recipes.end()}) + ")");
    const quant::RangeAlgorithm algorithm = parse_algorithm(o.algorithm);
    if (o.samples < 1) throw InvalidArgument("samples: must be at least 1, got " + std::to_string(o.samples));
    if (o.batch < 1) throw InvalidArgument("batch: must be at least 1, got " + std::to_string(o.batch));
    const int imgsz = m.input_size(o.imgsz);

    QuantInfo info;
    info.recipe = recipe;
    info.keep_high_precision = o.keep_high_precision.value_or(traits.quant_keep_high_precision);
    const bool calibrate = !o.calib.empty() && lower_case(o.calib) != "none";
    // Resolved before any work, so a bad path costs nothing.
    const std::vector<std::string> images =
        calibrate ? calibration_images(o.calib, o.samples) : std::vector<std::string>{};
    // Prepared and calibrated on a copy, which replaces the network only when all went well.
    nn::Detector candidate = float_copy(m);
    const std::vector<quant::NamedConv> convs = quant::selectable_convs(*candidate, info.keep_high_precision);
    if (convs.empty())
        throw InvalidArgument("no quantizable modules for recipe '" + recipe + "' on " + family +
                              " with keep_high_precision=[" + joined(info.keep_high_precision) + "]");
    for (const auto& c : convs) c.module->prepare_fp8();
    count_modules(info, convs.size());
    if (calibrate) {
        const int seen = observe_ranges(*candidate, m, convs, images, o.batch, imgsz, algorithm);
        if (seen == 0)
            throw FormatError("calib: none of the " + std::to_string(images.size()) + " calibration images from '" +
                              o.calib + "' could be decoded");
        info.calibrated = true;
        info.calib_data = o.calib;
        info.calib_samples = seen;
        info.calib_algorithm = lower_case(o.algorithm) == "auto" ? "minmax" : lower_case(o.algorithm);
    } else {
        log_warning("quant", recipe +
                                 " quantization without calibration: activations stay in float "
                                 "(weight-only simulation). Pass calib= to calibrate.");
    }
    m.network_changed();
    m.net = candidate;
    m.quant = info;
    log_info("quant", "quantized " + m.spec.name.canonical() + " to " + recipe + " (" + std::to_string(convs.size()) +
                          " conv_" + recipe +
                          "; execution=simulated, calibrated=" + (info.calibrated ? "true" : "false") + ")");
    return info;
}

void Model::dequantize() {
    Impl& m = *impl_;
    if (!m.quant) return;
    m.network_changed();
    m.net = float_copy(m);
    log_info("quant", "restored float modules (recipe '" + m.quant->recipe + "' removed)");
    m.quant.reset();
}

std::optional<QuantInfo> Model::quant_info() const {
    return impl_->quant;
}

}  // namespace libreyolo
