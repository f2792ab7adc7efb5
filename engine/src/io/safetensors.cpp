#include "io/safetensors.h"

#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>

#include "io/atomic_file.h"
#include "libreyolo/errors.h"

namespace libreyolo::io {
namespace {

// Headers beyond this are refused: real ones are a few hundred kB, a hostile one could be 2^64.
constexpr std::uint64_t kMaxHeaderBytes = 100ull * 1024 * 1024;

struct DtypeInfo {
    const char* name;
    torch::ScalarType type;
    std::size_t bytes;
};
constexpr DtypeInfo kDtypes[] = {
    {"F64", torch::kFloat64, 8},   {"F32", torch::kFloat32, 4}, {"F16", torch::kFloat16, 2},
    {"BF16", torch::kBFloat16, 2}, {"I64", torch::kInt64, 8},   {"I32", torch::kInt32, 4},
    {"I16", torch::kInt16, 2},     {"I8", torch::kInt8, 1},     {"U8", torch::kUInt8, 1},
    {"BOOL", torch::kBool, 1},
};

const DtypeInfo* dtype_by_name(const std::string& name) {
    for (const auto& d : kDtypes)
        if (name == d.name) return &d;
    return nullptr;
}

const DtypeInfo& dtype_by_type(torch::ScalarType type, const std::string& tensor) {
    for (const auto& d : kDtypes)
        if (d.type == type) return d;
    throw FormatError("safetensors: tensor '" + tensor + "' has dtype " + std::string(c10::toString(type)) +
                      ", which safetensors cannot store");
}

[[noreturn]] void fail(const std::string& file, const std::string& what) {
    throw FormatError(file + ": not a valid safetensors file: " + what);
}

std::uint64_t header_length(const std::string& bytes, const std::string& name, std::uint64_t file_size) {
    if (bytes.size() < 8) fail(name, "shorter than the 8-byte header length");
    std::uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = (header_len << 8) | static_cast<unsigned char>(bytes[i]);
    if (header_len > kMaxHeaderBytes) fail(name, "header length " + std::to_string(header_len) + " is too large");
    if (header_len > file_size - 8)
        fail(name, "header length " + std::to_string(header_len) + " exceeds the file size " +
                       std::to_string(file_size) + " (truncated?)");
    return header_len;
}

// bytes: the whole file, or (layout_only) its first 8 + header length bytes of a file_size-byte
// file, whose tensors then come back on the meta device, shapes and dtypes without data.
TensorFile parse(const std::string& bytes, const std::string& name, std::uint64_t file_size, bool layout_only) {
    const std::uint64_t header_len = header_length(bytes, name, file_size);

    nlohmann::json header;
    try {
        header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(header_len));
    } catch (const nlohmann::json::exception& e) {
        fail(name, std::string("header is not JSON: ") + e.what());
    }
    if (!header.is_object()) fail(name, "header is not a JSON object");

    const std::size_t data_start = 8 + header_len;
    const std::uint64_t data_size = file_size - data_start;
    TensorFile file;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;

    for (auto it = header.begin(); it != header.end(); ++it) {
        const std::string& key = it.key();
        const nlohmann::json& entry = it.value();
        if (key == "__metadata__") {
            if (!entry.is_object()) fail(name, "__metadata__ is not an object");
            for (auto m = entry.begin(); m != entry.end(); ++m) {
                if (!m.value().is_string()) fail(name, "__metadata__ value '" + m.key() + "' is not a string");
                file.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        const std::string where = "tensor '" + key + "'";
        if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") ||
            !entry.contains("data_offsets"))
            fail(name, where + " lacks dtype, shape or data_offsets");
        if (!entry["dtype"].is_string()) fail(name, where + ": dtype is not a string");
        const DtypeInfo* dtype = dtype_by_name(entry["dtype"].get<std::string>());
        if (dtype == nullptr) fail(name, where + ": unsupported dtype '" + entry["dtype"].get<std::string>() + "'");

        const auto& shape_json = entry["shape"];
        if (!shape_json.is_array() || shape_json.size() > 16)
            fail(name, where + ": shape is not a list of at most 16 sizes");
        std::vector<int64_t> shape;
        std::uint64_t numel = 1;
        for (const auto& dim : shape_json) {
            if (!dim.is_number_unsigned()) fail(name, where + ": shape holds a negative or non-integer size");
            const std::uint64_t d = dim.get<std::uint64_t>();
            if (d > (1ull << 40) || (d != 0 && numel > (1ull << 50) / d))
                fail(name, where + ": shape is implausibly large");
            numel *= d;
            shape.push_back(static_cast<int64_t>(d));
        }
        const auto& offsets = entry["data_offsets"];
        if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
            !offsets[1].is_number_unsigned())
            fail(name, where + ": data_offsets is not [begin, end]");
        const std::uint64_t begin = offsets[0].get<std::uint64_t>(), end = offsets[1].get<std::uint64_t>();
        if (begin > end || end > data_size)
            fail(name, where + ": data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                           "] fall outside the " + std::to_string(data_size) + "-byte data section (truncated?)");
        if (end - begin != numel * dtype->bytes)
            fail(name, where + ": " + std::to_string(end - begin) + " bytes do not hold shape × " + dtype->name + " (" +
                           std::to_string(numel * dtype->bytes) + " bytes)");
        ranges.emplace_back(begin, end);

        torch::Tensor t = torch::empty(
            shape, torch::TensorOptions().dtype(dtype->type).device(layout_only ? torch::kMeta : torch::kCPU));
        if (!layout_only && end > begin) std::memcpy(t.data_ptr(), bytes.data() + data_start + begin, end - begin);
        file.tensors.emplace(key, std::move(t));
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].first < ranges[i - 1].second) fail(name, "two tensors share bytes of the data section");
    return file;
}

}  // namespace

TensorFile parse_safetensors(const std::string& bytes, const std::string& name) {
    return parse(bytes, name, bytes.size(), false);
}

TensorFile read_safetensors_layout(const std::filesystem::path& path) {
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) throw FileNotFound(path.string() + ": no such file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileNotFound(path.string() + ": cannot open for reading");
    std::string bytes(8, '\0');
    in.read(bytes.data(), 8);
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    const std::uint64_t header_len = header_length(bytes, path.string(), size);
    bytes.resize(8 + header_len);
    in.read(bytes.data() + 8, static_cast<std::streamsize>(header_len));
    return parse(bytes, path.string(), size, true);
}

TensorFile read_safetensors(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw FileNotFound(path.string() + ": no such file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FileNotFound(path.string() + ": cannot open for reading");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse_safetensors(bytes, path.string());
}

void write_safetensors(const std::filesystem::path& path, const std::map<std::string, torch::Tensor>& tensors,
                       const std::map<std::string, std::string>& metadata) {
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::vector<torch::Tensor> blobs;
    std::uint64_t offset = 0;
    for (const auto& [key, tensor] : tensors) {
        torch::Tensor t = tensor.detach().to(torch::kCPU).contiguous();
        const DtypeInfo& dtype = dtype_by_type(t.scalar_type(), key);
        const std::uint64_t size = static_cast<std::uint64_t>(t.numel()) * dtype.bytes;
        header[key] = {{"dtype", dtype.name}, {"shape", t.sizes().vec()}, {"data_offsets", {offset, offset + size}}};
        offset += size;
        blobs.push_back(t);
    }
    std::string header_text = header.dump();
    // Pad with spaces so the data section starts 8-byte aligned, as the reference writer does.
    header_text.append((8 - header_text.size() % 8) % 8, ' ');

    write_file_atomically(path, [&](std::ostream& out) {
        std::uint64_t n = header_text.size();
        char len[8];
        for (int i = 0; i < 8; ++i) len[i] = static_cast<char>((n >> (8 * i)) & 0xff);
        out.write(len, 8);
        out.write(header_text.data(), static_cast<std::streamsize>(header_text.size()));
        for (const auto& t : blobs)
            out.write(static_cast<const char*>(t.data_ptr()), static_cast<std::streamsize>(t.nbytes()));
    });
}

}  // namespace libreyolo::io
