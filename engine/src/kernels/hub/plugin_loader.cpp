#include "kernels/hub/plugin_loader.h"

#include <dlfcn.h>

#include "kernels/fake_quant_slot.h"
#include "kernels/nms_slot.h"
#include "libreyolo/kernel_plugin.h"

namespace libreyolo::kernels::hub {
namespace {

// Collects what the plugin registers and commits it only when its entry point succeeded.
class Registrar : public KernelPluginRegistrar {
public:
    Registrar(std::string provider, Origin origin) : provider_(std::move(provider)), origin_(origin) {}

    void nms(const std::string& name, Nms fn, NmsAccepts accepts) override {
        commits_.push_back([=, this] { nms_slot().register_impl(name, provider_, fn, accepts, origin_); });
    }
    void fake_quant_fp8(const std::string& name, FakeQuant fn, FakeQuantAccepts accepts) override {
        commits_.push_back([=, this] { fake_quant_fp8_slot().register_impl(name, provider_, fn, accepts, origin_); });
    }
    void commit() {
        for (const auto& c : commits_) c();
    }

private:
    std::string provider_;
    Origin origin_;
    std::vector<std::function<void()>> commits_;
};

}  // namespace

std::string load_plugin(const std::filesystem::path& library, const std::string& provider, Origin origin) {
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return std::string("cannot be loaded: ") + dlerror();
    const auto abi = reinterpret_cast<LibreyoloKernelPluginAbi>(dlsym(handle, "libreyolo_kernel_plugin_abi"));
    const auto register_fn =
        reinterpret_cast<LibreyoloKernelPluginRegister>(dlsym(handle, "libreyolo_kernel_plugin_register"));
    if (!abi || !register_fn) {
        dlclose(handle);
        return "no entry point (libreyolo_kernel_plugin_abi and libreyolo_kernel_plugin_register are required)";
    }
    if (const int version = abi(); version != LIBREYOLO_KERNEL_PLUGIN_ABI) {
        dlclose(handle);
        return "plugin ABI " + std::to_string(version) + ", this engine speaks ABI " +
               std::to_string(LIBREYOLO_KERNEL_PLUGIN_ABI);
    }
    Registrar registrar(provider, origin);
    char error[512] = "";
    int status = 0;
    try {
        status = register_fn(&registrar, error, sizeof error);
    } catch (const std::exception& e) {
        return std::string("its registration threw: ") + e.what();  // the library stays: it may own the exception
    }
    if (status != 0) return std::string("its registration failed: ") + (error[0] ? error : "no message");
    registrar.commit();
    return "";
}

}  // namespace libreyolo::kernels::hub
