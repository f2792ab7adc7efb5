#include "io/torch_checkpoint.h"

#include <caffe2/serialize/inline_container.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>

#include "io/restricted_pickle.h"
#include "libreyolo/errors.h"

namespace libreyolo::io {
namespace {

namespace fs = std::filesystem;
using Kind = PickleValue::Kind;

// c10::Error's first line: what went wrong, without LibTorch's backtrace.
std::string first_line(const std::string& what) {
    return what.substr(0, what.find('\n'));
}

std::string integer_text(const PickleRef& v, const std::string& source, const std::string& field) {
    if (v->kind != Kind::Int) throw FormatError(source + ": field '" + field + "' is not an integer");
    return std::to_string(v->integer);
}

// LibreYOLO writes names as {0: "person", …}; a list is accepted too.
std::string names_json(const PickleRef& v, const std::string& source) {
    nlohmann::json names = nlohmann::json::object();
    if (v->kind == Kind::List || v->kind == Kind::Tuple) {
        for (std::size_t i = 0; i < v->items.size(); ++i) {
            if (v->items[i]->kind != Kind::String) throw FormatError(source + ": field 'names' holds a non-string");
            names[std::to_string(i)] = v->items[i]->text;
        }
        return names.dump();
    }
    if (v->kind != Kind::Dict) throw FormatError(source + ": field 'names' is neither a dict nor a list");
    for (const auto& [key, value] : v->entries) {
        if (value->kind != Kind::String) throw FormatError(source + ": field 'names' holds a non-string");
        names[key->kind == Kind::Int ? std::to_string(key->integer) : key->text] = value->text;
    }
    return names.dump();
}

TensorFile read_archive(const fs::path& path, bool with_data) {
    const std::string source = path.string();
    std::error_code ec;
    const auto file_size = static_cast<std::size_t>(fs::file_size(path, ec));
    if (ec) throw FileNotFound(source + ": " + ec.message());
    try {
        caffe2::serialize::PyTorchStreamReader reader(source);
        // A record's size comes from the archive's directory: bounded by the file before anything
        // is allocated for it (torch.save stores records uncompressed).
        const auto record_size = [&](const std::string& name) {
            if (!reader.hasRecord(name)) throw FormatError(source + ": the archive has no record '" + name + "'");
            const std::size_t size = reader.getRecordSize(name);
            if (size > file_size)
                throw FormatError(source + ": record '" + name + "' claims " + std::to_string(size) +
                                  " bytes, more than the file's " + std::to_string(file_size));
            return size;
        };
        if (reader.hasRecord("byteorder")) {
            record_size("byteorder");
            const auto [data, size] = reader.getRecord("byteorder");
            const std::string order(static_cast<const char*>(data.get()), size);
            if (order != "little")
                throw FormatError(source + ": tensors stored " + order + "-endian; only little-endian is read");
        }
        record_size("data.pkl");
        const auto [pickle, pickle_size] = reader.getRecord("data.pkl");
        const StorageLoader load_storage = [&](const std::string& key, torch::ScalarType dtype, int64_t numel) {
            const std::string name = "data/" + key;
            const std::size_t size = record_size(name);
            const auto element = static_cast<std::size_t>(c10::elementSize(dtype));
            if (static_cast<std::size_t>(numel) > size / element)
                throw FormatError(source + ": storage '" + key + "' declares " + std::to_string(numel) +
                                  " elements, its record holds " + std::to_string(size / element));
            if (!with_data) return torch::empty({numel}, torch::TensorOptions(dtype).device(torch::kMeta));
            const auto [data, bytes] = reader.getRecord(name);
            return torch::from_blob(data.get(), {numel}, torch::TensorOptions(dtype)).clone();
        };
        const PickleRef root =
            unpickle(std::string_view(static_cast<const char*>(pickle.get()), pickle_size), source, load_storage);
        if (root->kind != Kind::Dict) throw FormatError(source + ": the checkpoint is not a dict");

        const PickleValue* state = root.get();
        for (const auto& [key, value] : root->entries)
            if (key->kind == Kind::String && key->text == "model" && value->kind == Kind::Dict) state = value.get();
        TensorFile out;
        for (const auto& [key, value] : state->entries)
            if (key->kind == Kind::String && value->kind == Kind::Tensor)
                out.tensors[key->text] = value->tensor.contiguous();
        if (out.tensors.empty())
            throw FormatError(source + ": no state dict (neither a 'model' dict of tensors nor tensors by name)");
        if (state == root.get()) return out;  // a bare state dict: no fields
        out.metadata["format"] = "pt";
        for (const auto& [key, value] : root->entries) {
            if (key->kind != Kind::String) continue;
            const std::string& field = key->text;
            if (field == "nc" || field == "imgsz")
                out.metadata[field] = integer_text(value, source, field);
            else if (field == "names")
                out.metadata[field] = names_json(value, source);
            else if ((field == "schema_version" || field == "libreyolo_version" || field == "model_family" ||
                      field == "size" || field == "task") &&
                     value->kind == Kind::String)
                out.metadata[field] = value->text;
        }
        return out;
    } catch (const c10::Error& e) {
        throw FormatError(source + ": not a readable torch.save archive (" + first_line(e.what_without_backtrace()) +
                          ")");
    }
}

}  // namespace

TensorFile read_torch_checkpoint(const fs::path& path) {
    return read_archive(path, true);
}

TensorFile read_torch_checkpoint_layout(const fs::path& path) {
    return read_archive(path, false);
}

namespace {

bool torch_file(const fs::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".pt" || ext == ".pth" || looks_like_torch_archive(path);
}

}  // namespace

bool looks_like_torch_archive(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    in.read(magic, 4);
    return in.gcount() == 4 && magic[0] == 'P' && magic[1] == 'K' && magic[2] == 3 && magic[3] == 4;
}

TensorFile read_weights_file(const fs::path& path) {
    return torch_file(path) ? read_torch_checkpoint(path) : read_safetensors(path);
}

TensorFile read_weights_layout(const fs::path& path) {
    return torch_file(path) ? read_torch_checkpoint_layout(path) : read_safetensors_layout(path);
}

}  // namespace libreyolo::io
