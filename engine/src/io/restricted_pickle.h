#pragma once
// A restricted unpickler for the data.pkl of a torch.save archive: it accepts what
// torch.load(weights_only=True) accepts for a checkpoint (dicts and OrderedDicts, lists, tuples,
// strings, bytes, numbers, bools, None, tensors rebuilt from the archive's storages) and refuses
// every other global (os.system, builtins.eval, an unknown class) with an error naming it. Nothing
// in the file is executed: a global is a name looked up in a fixed table, never imported or called.
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace libreyolo::io {

struct PickleValue;
using PickleRef = std::shared_ptr<PickleValue>;

struct PickleValue {
    enum class Kind { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict, Tensor, Storage, Global };
    Kind kind = Kind::None;
    bool boolean = false;
    int64_t integer = 0;
    double number = 0;
    std::string text;                                      // String, Bytes; Global: "module.name"
    std::vector<PickleRef> items;                          // List, Tuple
    std::vector<std::pair<PickleRef, PickleRef>> entries;  // Dict, in insertion order
    torch::Tensor tensor;                                  // Tensor; Storage: its elements, 1-D
    // The reader's bookkeeping for List, Tuple and Dict: how many containers deep the value nests
    // (0 when it holds none), and whether it already sits inside another container.
    int height = 0;
    bool placed = false;
};

// A storage of the archive, from its persistent id ('storage', torch.<Type>Storage, key, location,
// numel): numel elements of dtype, 1-D, on the CPU. Throws FormatError when the archive lacks it.
using StorageLoader = std::function<torch::Tensor(const std::string& key, torch::ScalarType dtype, int64_t numel)>;

// The object bytes describe. source names the file in errors (FormatError with the byte offset).
// Containers nested deeper than 256 levels are refused as they are built, so no value the reader
// makes (or frees, when it refuses a file) is deeper than that. A container that changes after it
// was placed inside another is refused too: Python's pickler completes every container before its
// parent takes it, and that rule alone keeps out structures that contain themselves.
PickleRef unpickle(std::string_view bytes, const std::string& source, const StorageLoader& load_storage);

}  // namespace libreyolo::io
