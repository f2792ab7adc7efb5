#include "kernels/hub/manifest.h"

#include <ATen/cuda/CUDAContext.h>
#include <torch/torch.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "libreyolo/errors.h"
#include "libreyolo/version.h"

namespace libreyolo::kernels::hub {
namespace fs = std::filesystem;
namespace {

std::string major_minor(const std::string& version) {
    const auto first = version.find('.');
    if (first == std::string::npos) return version;
    return version.substr(0, version.find('.', first + 1));
}

std::string text_field(const nlohmann::json& entry, const std::string& where, const char* key) {
    if (!entry.contains(key) || !entry[key].is_string() || entry[key].get<std::string>().empty())
        throw FormatError(where + ": \"" + key + "\" is missing or not a non-empty string");
    return entry[key].get<std::string>();
}

}  // namespace

std::vector<PluginEntry> read_manifest(const fs::path& manifest) {
    std::ifstream in(manifest);
    if (!in) throw FileNotFound(manifest.string() + ": kernel-plugin manifest cannot be read");
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(manifest.string() + ": not JSON: " + e.what());
    }
    if (!doc.is_object() || !doc.contains("plugins") || !doc["plugins"].is_array())
        throw FormatError(manifest.string() + ": expected an object with a \"plugins\" array");
    std::vector<PluginEntry> entries;
    for (std::size_t i = 0; i < doc["plugins"].size(); ++i) {
        const nlohmann::json& e = doc["plugins"][i];
        const std::string where = manifest.string() + ": plugins[" + std::to_string(i) + "]";
        if (!e.is_object()) throw FormatError(where + ": not an object");
        PluginEntry p;
        p.provider = text_field(e, where, "provider");
        p.sha256 = text_field(e, where, "sha256");
        if (p.sha256.size() != 64 || p.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
            throw FormatError(where + ": \"sha256\" is not 64 lowercase hex digits");
        if (e.contains("path")) {
            p.local_path = fs::absolute(manifest.parent_path() / text_field(e, where, "path"));
            p.file = p.local_path.filename().string();
        } else {
            p.repo = text_field(e, where, "repo");
            p.revision = text_field(e, where, "revision");
            p.file = text_field(e, where, "file");
            if (p.file.find('/') != std::string::npos || p.file.starts_with("."))
                throw FormatError(where + ": \"file\" must be a plain file name");
        }
        if (!e.contains("build") || !e["build"].is_object()) throw FormatError(where + ": \"build\" is missing");
        p.build.torch = text_field(e["build"], where + ".build", "torch");
        p.build.cuda = text_field(e["build"], where + ".build", "cuda");
        p.build.arch = text_field(e["build"], where + ".build", "arch");
        entries.push_back(std::move(p));
    }
    return entries;
}

BuildTag this_build() {
    BuildTag here;
    here.torch = torch_version();
#ifdef LIBREYOLO_TORCH_CUDA_VERSION
    here.cuda = major_minor(LIBREYOLO_TORCH_CUDA_VERSION);
#else
    here.cuda = "none";
#endif
    here.arch = "cpu";
    if (torch::cuda::is_available()) {
        const cudaDeviceProp* props = at::cuda::getDeviceProperties(0);
        here.arch = "sm_" + std::to_string(props->major) + std::to_string(props->minor);
    }
    return here;
}

std::string build_mismatch(const BuildTag& plugin, const BuildTag& here) {
    if (plugin.torch != here.torch) return "built for torch " + plugin.torch + ", this is torch " + here.torch;
    if (plugin.cuda != "none" && major_minor(plugin.cuda) != here.cuda)
        return "built for CUDA " + plugin.cuda + ", this LibTorch has CUDA " + here.cuda;
    if (plugin.arch != "cpu" && ("," + plugin.arch + ",").find("," + here.arch + ",") == std::string::npos)
        return "built for " + plugin.arch + ", this machine's GPU is " + (here.arch == "cpu" ? "absent" : here.arch);
    return "";
}

}  // namespace libreyolo::kernels::hub
