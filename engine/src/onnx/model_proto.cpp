#include "onnx/model_proto.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <stdexcept>

namespace libreyolo::onnx {
namespace {

void set_type(::onnx::ValueInfoProto& value, ElementType type, const std::vector<Dim>& shape) {
    auto* tensor = value.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(static_cast<int32_t>(type));
    auto* dims = tensor->mutable_shape();
    for (const Dim& d : shape) {
        auto* dim = dims->add_dim();
        if (const auto* size = std::get_if<int64_t>(&d))
            dim->set_dim_value(*size);
        else
            dim->set_dim_param(std::get<std::string>(d));
    }
}

void set_attribute(::onnx::AttributeProto& a, const Attribute& attribute) {
    a.set_name(attribute.name);
    std::visit(
        [&a](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, int64_t>) {
                a.set_type(::onnx::AttributeProto::INT);
                a.set_i(v);
            } else if constexpr (std::is_same_v<T, float>) {
                a.set_type(::onnx::AttributeProto::FLOAT);
                a.set_f(v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                a.set_type(::onnx::AttributeProto::STRING);
                a.set_s(v);
            } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
                a.set_type(::onnx::AttributeProto::INTS);
                for (int64_t i : v) a.add_ints(i);
            } else {
                a.set_type(::onnx::AttributeProto::FLOATS);
                for (float f : v) a.add_floats(f);
            }
        },
        attribute.value);
}

ModelSummary::Value summary_of(const ::onnx::ValueInfoProto& v) {
    ModelSummary::Value out{v.name(), v.type().tensor_type().elem_type(), {}};
    for (const auto& d : v.type().tensor_type().shape().dim())
        out.dims.push_back(d.has_dim_param() ? d.dim_param() : std::to_string(d.dim_value()));
    return out;
}

}  // namespace

struct ModelProto::Impl {
    ::onnx::ModelProto model;
};

ModelProto::ModelProto(int opset) : impl_(std::make_unique<Impl>()) {
    ::onnx::ModelProto& m = impl_->model;
    // IR version 8: what ONNX 1.12's checker (Debian's) reads, and every runtime of recent years.
    m.set_ir_version(8);
    m.set_producer_name("libreyolo-studio");
    auto* set = m.add_opset_import();
    set->set_domain("");
    set->set_version(opset);
    m.mutable_graph()->set_name("libreyolo");
}

ModelProto::~ModelProto() = default;

void ModelProto::add_input(const std::string& name, ElementType type, const std::vector<Dim>& shape) {
    auto* value = impl_->model.mutable_graph()->add_input();
    value->set_name(name);
    set_type(*value, type, shape);
}

void ModelProto::add_output(const std::string& name, ElementType type, const std::vector<Dim>& shape) {
    auto* value = impl_->model.mutable_graph()->add_output();
    value->set_name(name);
    set_type(*value, type, shape);
}

void ModelProto::add_initializer(const std::string& name, ElementType type, const std::vector<int64_t>& dims,
                                 const void* data, std::size_t bytes) {
    auto* init = impl_->model.mutable_graph()->add_initializer();
    init->set_name(name);
    init->set_data_type(static_cast<int32_t>(type));
    for (int64_t d : dims) init->add_dims(d);
    init->set_raw_data(std::string(static_cast<const char*>(data), bytes));
}

void ModelProto::add_node(const std::string& op_type, const std::string& name, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::vector<Attribute>& attributes) {
    auto* n = impl_->model.mutable_graph()->add_node();
    n->set_op_type(op_type);
    n->set_name(name);
    for (const std::string& in : inputs) n->add_input(in);
    for (const std::string& out : outputs) n->add_output(out);
    for (const Attribute& a : attributes) set_attribute(*n->add_attribute(), a);
}

void ModelProto::add_metadata(const std::string& key, const std::string& value) {
    auto* p = impl_->model.add_metadata_props();
    p->set_key(key);
    p->set_value(value);
}

std::string ModelProto::serialize_checked(const std::string& producer_version) const {
    ::onnx::ModelProto model = impl_->model;
    model.set_producer_version(producer_version);
    ::onnx::checker::check_model(model);  // throws ValidationError (a std::runtime_error)
    std::string bytes;
    if (!model.SerializeToString(&bytes)) throw std::runtime_error("the model does not serialise (over 2 GiB?)");
    return bytes;
}

ModelSummary read_model_summary(const std::string& bytes) {
    ::onnx::ModelProto m;
    if (!m.ParseFromString(bytes)) throw std::runtime_error("not an ONNX model");
    ModelSummary s;
    for (const auto& v : m.graph().input()) s.inputs.push_back(summary_of(v));
    for (const auto& v : m.graph().output()) s.outputs.push_back(summary_of(v));
    for (const auto& p : m.metadata_props()) s.metadata[p.key()] = p.value();
    for (const auto& init : m.graph().initializer()) s.initializers[init.name()] = init.raw_data();
    for (const auto& set : m.opset_import())
        if (set.domain().empty()) s.opset = set.version();
    return s;
}

}  // namespace libreyolo::onnx
