// Model construction, loading, saving and inspection. Prediction lives in predictor.cpp.
#include <array>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "core/coco_names.h"
#include "core/text.h"
#include "io/safetensors.h"
#include "io/torch_checkpoint.h"
#include "libreyolo/bundled.h"
#include "libreyolo/device.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "libreyolo/log.h"
#include "libreyolo/pretrained.h"
#include "libreyolo/version.h"
#include "model/model_impl.h"
#include "nn/attention_policy.h"
#include "nn/batch_norm_folding.h"
#include "nn/channels_last.h"
#include "nn/flop_counter.h"
#include "quant/quantize_network.h"

namespace libreyolo {
namespace fs = std::filesystem;
namespace {

torch::Device to_torch_device(const std::string& device) {
    const DeviceSpec spec = resolve_device(parse_device(device));
    return spec.kind == DeviceSpec::Kind::Cuda ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(spec.index))
                                               : torch::Device(torch::kCPU);
}

std::vector<std::string> names_for(int nc, const std::vector<std::string>& given) {
    if (static_cast<int>(given.size()) == nc) return given;
    if (nc == 80) return coco_names();
    std::vector<std::string> names = io::default_names(nc);
    for (std::size_t i = 0; i < given.size() && i < names.size(); ++i) names[i] = given[i];
    return names;
}

torch::Dtype parse_dtype(const std::string& dtype) {
    if (dtype == "float32" || dtype == "fp32") return torch::kFloat32;
    if (dtype == "float16" || dtype == "fp16" || dtype == "half") return torch::kFloat16;
    throw InvalidArgument("dtype: '" + dtype + "' is not float32 or float16");
}

// A quantized checkpoint carries LibreYOLO's manifest under "quant": the same convolutions are
// prepared before the weights load, so its _q_* buffers have somewhere to go.
std::optional<QuantInfo> apply_quant_structure(nn::DetectorImpl& net,
                                               const std::map<std::string, std::string>& metadata,
                                               const std::string& source) {
    auto it = metadata.find("quant");
    if (it == metadata.end()) return std::nullopt;
    QuantInfo info = quant::parse_manifest(it->second, source);
    for (const auto& c : quant::selectable_convs(net, info.keep_high_precision)) c.module->prepare_fp8();
    return info;
}

void refresh_calibration_flags(nn::DetectorImpl& net) {
    for (const auto& c : quant::prepared_convs(net)) c.module->refresh_calibrated_flag();
}

}  // namespace

std::string default_model() {
    const char* env = std::getenv("LIBREYOLO_DEMO_MODEL");
    const std::string path = env && *env ? env : bundled_file("resources/models/yolo9t-shapes.safetensors");
    std::error_code ec;
    return fs::exists(path, ec) ? path : "yolo9-t";
}

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model Model::adopt(std::unique_ptr<Impl> impl) {
    return Model(std::move(impl));
}
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;
Model::~Model() = default;

Model Model::create(const std::string& model_name, int nc, const std::string& device) {
    if (nc <= 0) throw InvalidArgument("nc: must be positive, got " + std::to_string(nc));
    auto impl = std::make_unique<Impl>();
    impl->spec.name = parse_model_name(model_name);
    impl->spec.nc = nc;
    impl->net = registry::build_network(impl->spec);
    impl->meta.model_family = impl->spec.name.family;
    impl->meta.size = impl->spec.name.size;
    impl->meta.task = impl->spec.name.task;
    impl->meta.nc = nc;
    impl->meta.names = names_for(nc, {});
    impl->meta.imgsz = family_traits(impl->spec.name.family).default_imgsz_for(impl->spec.name.size);
    impl->meta.libreyolo_version = version();
    impl->source = "random init";
    impl->device = to_torch_device(device);
    impl->net->to(impl->device);
    impl->net->eval();
    return Model(std::move(impl));
}

Model Model::load(const std::string& name_or_path, const std::string& device) {
    return load(name_or_path, device, PretrainedOptions::from_environment());
}

Model Model::load(const std::string& name_or_path, const std::string& device, const PretrainedOptions& weights) {
    std::error_code ec;
    const fs::path path(name_or_path);
    if (!fs::exists(path, ec)) {
        // A model name, or LibreYOLO's file name for it (LibreYOLO9t.pt): ./weights/, the cache,
        // else the hub.
        if (looks_like_model_name(name_or_path) || is_pretrained_file_name(name_or_path))
            return load(pretrained_weights(name_or_path, weights).string(), device, weights);
        // A bare word is a (mistyped) model name, not a path: say which name was meant.
        if (name_or_path.find_first_of("/\\.") == std::string::npos) parse_model_name(name_or_path);
        std::string message = "model: '" + name_or_path + "': no such file";
        const std::string suggestion = closest_match(name_or_path, known_model_names());
        if (!suggestion.empty()) message += " (did you mean the model name '" + suggestion + "'?)";
        throw FileNotFound(message);
    }
    const std::string ext = lower_case(path.extension().string());
    if (ext != ".safetensors" && ext != ".pt" && ext != ".pth")
        throw FormatError(name_or_path + ": unsupported weights format '" + ext +
                          "' (expected .safetensors, or a LibreYOLO .pt checkpoint)");

    io::TensorFile file = io::read_weights_file(path);
    auto impl = std::make_unique<Impl>();
    impl->meta = io::from_metadata(file.metadata, name_or_path);
    impl->spec = registry::infer_network_spec(file.tensors, impl->meta, name_or_path);
    impl->net = registry::build_network(impl->spec);
    impl->quant = apply_quant_structure(*impl->net, file.metadata, name_or_path);
    io::load_state_dict(*impl->net, file.tensors, name_or_path);
    refresh_calibration_flags(*impl->net);

    impl->meta.model_family = impl->spec.name.family;
    impl->meta.size = impl->spec.name.size;
    impl->meta.task = impl->spec.name.task;
    impl->meta.nc = static_cast<int>(impl->spec.nc);
    impl->meta.names = names_for(impl->meta.nc, impl->meta.names);
    if (impl->meta.imgsz <= 0)
        impl->meta.imgsz = family_traits(impl->spec.name.family).default_imgsz_for(impl->spec.name.size);
    impl->source = name_or_path;
    impl->pretrained = true;
    impl->device = to_torch_device(device);
    impl->net->to(impl->device);
    impl->net->eval();
    return Model(std::move(impl));
}

ModelInfo Model::info() const {
    ModelInfo info;
    info.family = impl_->spec.name.family;
    info.size = impl_->spec.name.size;
    info.task = impl_->spec.name.task;
    info.nc = impl_->meta.nc;
    info.names = impl_->meta.names;
    info.imgsz = impl_->meta.imgsz;
    info.parameters = nn::count_parameters(*impl_->net);
    info.device = impl_->device.str();
    info.dtype = graphs::dtype_name(impl_->dtype);
    info.source = impl_->source;
    info.pretrained = impl_->pretrained;
    return info;
}

double Model::gflops(int imgsz) const {
    check_image_size(imgsz);
    torch::NoGradGuard no_grad;
    nn::FlopScope scope;
    impl_->net->forward(
        torch::zeros({1, 3, imgsz, imgsz}, torch::TensorOptions().device(impl_->device).dtype(impl_->dtype)));
    return scope.total() / 1e9;
}

torch::Tensor Model::Impl::forward(const torch::Tensor& input, GraphMode mode, bool fuse,
                                   std::optional<float> candidates_over) {
    if (fuse) {
        graphs::GraphTarget target = graph_target();
        const graphs::ForwardPlan plan = fused_plan(candidates_over, target);
        const torch::Tensor x = input.contiguous(torch::MemoryFormat::ChannelsLast);
        if (mode == GraphMode::Off) return graphs::run_eagerly(plan, x);
        return fused_graphs.run(x, mode, target, plan, replay_output(candidates_over));
    }
    // The default path pays nothing for graph bookkeeping.
    if (mode == GraphMode::Off) return net->forward(input);
    return graphs.run(input, mode, graph_target(), forward_plan());
}

torch::Tensor Model::Impl::forward_pixels(const torch::Tensor& pixels, const kernels::InputCanvas& canvas,
                                          GraphMode mode, std::optional<float> candidates_over) {
    graphs::GraphTarget target = graph_target();
    graphs::ForwardPlan plan = fused_plan(candidates_over, target);
    // The letterbox joins the first stage, so that one graph records it with the network.
    graphs::ForwardStage& first = plan.front();
    first.run = [network_stage = std::move(first.run), canvas](const graphs::TensorList& in) {
        return network_stage({kernels::letterbox_slot()(in.at(0), canvas)});
    };
    first.name = "letterbox + " + first.name;
    target.task += " from pixels to " + std::to_string(canvas.height) + "x" + std::to_string(canvas.width);
    return fused_graphs.run(pixels, mode, target, plan, replay_output(candidates_over));
}

bool Model::Impl::has_fused_candidates() {
    if (!device.is_cuda()) return false;
    if (const char* on = std::getenv("LIBREYOLO_FUSED_CANDIDATES"); on && std::string_view(on) == "0") return false;
    return !fused_network().candidate_plan(/*conf: any, the plan's existence is the question*/ 0.5f).empty();
}

graphs::ForwardPlan Model::Impl::fused_plan(std::optional<float> candidates_over, graphs::GraphTarget& target) {
    nn::DetectorImpl& network = fused_network();
    if (!candidates_over) return network.forward_plan();
    graphs::ForwardPlan plan = network.candidate_plan(*candidates_over);
    if (plan.empty()) throw NotSupported("fuse: family " + spec.name.family + " selects no candidates in its forward");
    // Another threshold is another graph: the conf is recorded in the kernel's arguments.
    std::array<char, 32> text{};
    const auto end = std::to_chars(text.data(), text.data() + text.size(), *candidates_over).ptr;
    target.task += " with candidates over conf " + std::string(text.data(), end);
    return plan;
}

graphs::ReplayOutput Model::Impl::replay_output(std::optional<float> candidates_over) {
    // The packed candidates are read at once (predict/candidates.h); a copy of their room for every
    // (anchor, class) pair would cost more than the selection.
    return candidates_over ? graphs::ReplayOutput::Borrow : graphs::ReplayOutput::Copy;
}

nn::DetectorImpl& Model::Impl::fused_network() {
    if (fused) return *fused;
    if (quant)
        throw NotSupported("fuse: this model is quantized (recipe '" + quant->recipe +
                           "'); fusing applies to float models");
    nn::Detector copy = registry::build_network(spec);
    io::load_state_dict(*copy, io::state_dict(*net), source);
    copy->to(device);
    copy->to(dtype);
    copy->eval();
    if (fused_attention) nn::set_fused_attention(*copy, *fused_attention);
    fused_blocks = nn::fold_batch_norms(*copy);
    // Channels-last (NHWC) is the native layout of oneDNN's convolutions and of cuDNN's tensor-core
    // and fused kernels: in NCHW each layer reorders its input and output (docs/fuse-bench.md).
    nn::to_channels_last(*copy);
    fused = copy;
    return *fused;
}

void Model::Impl::network_changed() {
    graphs.release();
    fused_graphs.release();
    fused = nullptr;
    fused_blocks = 0;
}

int Model::fuse() {
    impl_->fused_network();
    return impl_->fused_blocks;
}

graphs::ForwardPlan Model::Impl::forward_plan() {
    return net->forward_plan();
}

graphs::GraphTarget Model::Impl::graph_target() const {
    return {spec.name.family, spec.name.task,
            family_traits(spec.name.family).supports_cuda_graph_inference(spec.name.task)};
}

void Model::to(const std::string& device) {
    const torch::Device target = to_torch_device(device);
    impl_->network_changed();
    impl_->net->to(target);
    impl_->device = target;
}

void Model::set_dtype(const std::string& dtype) {
    const torch::Dtype target = parse_dtype(dtype);
    impl_->network_changed();
    impl_->net->to(target);
    impl_->dtype = target;
}

int Model::set_fused_attention(bool enabled) {
    const int modules = nn::set_fused_attention(*impl_->net, enabled);
    impl_->fused_attention = enabled;
    if (modules > 0) impl_->network_changed();
    return modules;
}

void Model::load_weights(const std::string& path) {
    const io::TensorFile file = io::read_weights_file(path);
    impl_->network_changed();
    io::load_state_dict(*impl_->net, file.tensors, path);
    refresh_calibration_flags(*impl_->net);
    impl_->source = path;
    impl_->pretrained = true;
}

int Model::Impl::input_size(int imgsz) const {
    check_image_size(imgsz, /*allow_zero=*/true);
    return imgsz > 0 ? imgsz : meta.imgsz;
}

int Model::input_size(int imgsz) const {
    return impl_->input_size(imgsz);
}

void Model::capture_graph(int imgsz, int batch, const std::string& dtype) {
    const int size = impl_->input_size(imgsz);
    if (batch < 1) throw InvalidArgument("batch: must be at least 1, got " + std::to_string(batch));
    if (!dtype.empty() && parse_dtype(dtype) != impl_->dtype) set_dtype(dtype);
    const torch::Tensor example =
        torch::zeros({batch, 3, size, size}, torch::TensorOptions().device(impl_->device).dtype(impl_->dtype));
    impl_->graphs.capture(example, impl_->graph_target(), impl_->forward_plan());
}

std::vector<GraphInfo> Model::graph_info() const {
    std::vector<GraphInfo> all = impl_->graphs.info();
    for (GraphInfo g : impl_->fused_graphs.info()) {
        g.fused = true;
        all.push_back(g);
    }
    return all;
}
void Model::release_graphs() {
    impl_->graphs.release();
    impl_->fused_graphs.release();
}
void Model::set_graph_cache_limit(int limit) {
    impl_->graphs.set_limit(limit);
}
int Model::graph_cache_limit() const {
    return impl_->graphs.limit();
}

void Model::save(const std::string& path) const {
    io::CheckpointMeta meta = impl_->meta;
    meta.libreyolo_version = version();
    std::map<std::string, torch::Tensor> weights = io::state_dict(*impl_->net);
    std::map<std::string, std::string> metadata = io::to_metadata(meta);
    if (impl_->quant) metadata["quant"] = quant::manifest_json(*impl_->quant);
    io::write_safetensors(path, weights, metadata);
    log_debug("weights", "saved " + path);
}

}  // namespace libreyolo
