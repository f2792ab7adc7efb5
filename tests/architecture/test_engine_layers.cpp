// The engine's folders form layers: a folder includes only folders below it, so the include graph
// between engine/src folders has no cycle, and a model family is reached only through the registry.
// The order here is the one docs/architecture.md draws; a new folder must be placed in it.
#include <QtTest/QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// Lowest first: each folder may include the ones before it.
const std::vector<std::string> kLayers = {
    "core",         // errors, log, text, device, sha256, shapes: no engine dependency
    "io",           // safetensors, checkpoints, atomic files
    "onnx",         // the ONNX graph that modules write themselves into (export)
    "graphs",       // CUDA graph capture, replay and keys
    "kernels",      // the kernel registry: slots with their reference implementations, hub plugins
    "nn",           // network building blocks shared by families (Detector, attention, IoU, FLOPs)
    "registry",     // family definitions: lookups, name parsing, network specs, training defaults
    "options",      // the training options schema: keys, types, bounds, help, saved train_config.yaml
    "quant",        // fake quantization and quantized convolutions
    "image",        // decoding, letterbox/stretch, sources, annotation
    "data",         // datasets, augmentation, loaders
    "distributed",  // process groups, gradient reduction, synchronised batch norm
    "model",        // libreyolo::Model: load, build, forward through graphs, quantize
    "predict",      // Model::predict and post-processing
    "track",        // trackers (ByteTrack, BoT-SORT), Model::track, track trails
    "eval",         // COCO mAP and validation
    "train",        // the training loop and the family recipe interface
    "models",       // the families, one folder each, networks they share, and the list that links them
};

const fs::path kSource = fs::path(LIBREYOLO_SOURCE_DIR) / "engine" / "src";

struct Include {
    std::string file;    // relative to engine/src
    std::string target;  // the included path, relative to engine/src
};

std::vector<Include> project_includes() {
    static const std::regex include_line(R"(^\s*#\s*include\s+"([^"]+)\")");
    std::vector<Include> found;
    for (const auto& entry : fs::recursive_directory_iterator(kSource)) {
        if (!entry.is_regular_file()) continue;
        const std::string ext = entry.path().extension().string();
        if (ext != ".h" && ext != ".cpp" && ext != ".cu") continue;
        std::ifstream in(entry.path());
        std::string line;
        std::smatch m;
        while (std::getline(in, line))
            if (std::regex_search(line, m, include_line) && fs::exists(kSource / m[1].str()))
                found.push_back({fs::relative(entry.path(), kSource).generic_string(), m[1].str()});
    }
    return found;
}

std::string top_folder(const std::string& relative) {
    const auto slash = relative.find('/');
    return slash == std::string::npos ? "" : relative.substr(0, slash);
}

// models/<family>/... for a folder that defines a family (it has family.cpp), or "" for anything
// else: a models/ folder without one holds a network that several families share (D-FINE's, which
// DEIM uses too).
std::string family_folder(const std::string& relative) {
    if (top_folder(relative) != "models") return "";
    const std::string rest = relative.substr(std::string("models/").size());
    const auto slash = rest.find('/');
    if (slash == std::string::npos) return "";
    const std::string folder = rest.substr(0, slash);
    return fs::exists(kSource / "models" / folder / "family.cpp") ? folder : "";
}

int layer_of(const std::string& folder) {
    const auto it = std::find(kLayers.begin(), kLayers.end(), folder);
    return it == kLayers.end() ? -1 : static_cast<int>(it - kLayers.begin());
}

std::string layer_list() {
    std::string s;
    for (const auto& l : kLayers) s += (s.empty() ? "" : " < ") + l;
    return s;
}

// A cycle in the folder graph, as "a -> b -> a", or "" when there is none.
std::string find_cycle(const std::map<std::string, std::set<std::string>>& edges) {
    std::map<std::string, int> state;  // 0 unvisited, 1 on the stack, 2 done
    std::vector<std::string> stack;
    std::string cycle;
    std::function<bool(const std::string&)> visit = [&](const std::string& node) {
        state[node] = 1;
        stack.push_back(node);
        const auto it = edges.find(node);
        if (it != edges.end())
            for (const auto& next : it->second) {
                if (state[next] == 1) {
                    auto from = std::find(stack.begin(), stack.end(), next);
                    for (; from != stack.end(); ++from) cycle += *from + " -> ";
                    cycle += next;
                    return true;
                }
                if (state[next] == 0 && visit(next)) return true;
            }
        stack.pop_back();
        state[node] = 2;
        return false;
    };
    for (const auto& [node, targets] : edges)
        if (state[node] == 0 && visit(node)) return cycle;
    return "";
}

}  // namespace

class TestEngineLayers : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFolderHasALayer() {
        for (const auto& entry : fs::directory_iterator(kSource)) {
            if (!entry.is_directory()) continue;
            const std::string folder = entry.path().filename().string();
            const std::string message = "engine/src/" + folder +
                                        " is in no layer; place it in kLayers and in docs/architecture.md (" +
                                        layer_list() + ")";
            QVERIFY2(layer_of(folder) >= 0, message.c_str());
        }
    }

    void foldersIncludeOnlyFoldersBelowThem() {
        const std::vector<Include> includes = project_includes();
        QVERIFY2(includes.size() > 200, "the scan found too few includes to mean anything");
        std::string wrong;
        for (const auto& inc : includes) {
            const std::string from = top_folder(inc.file), to = top_folder(inc.target);
            if (from.empty() || to.empty() || from == to) continue;
            if (layer_of(to) > layer_of(from))
                wrong += "\n" + inc.file + " includes " + inc.target + " (" + from + " is below " + to + ")";
        }
        const std::string message = "layers (lowest first): " + layer_list() + wrong;
        QVERIFY2(wrong.empty(), message.c_str());
    }

    void folderGraphHasNoCycle() {
        std::map<std::string, std::set<std::string>> edges;
        for (const auto& inc : project_includes()) {
            const std::string from = top_folder(inc.file), to = top_folder(inc.target);
            if (!from.empty() && !to.empty() && from != to) edges[from].insert(to);
        }
        const std::string cycle = find_cycle(edges);
        const std::string message = "the engine/src folders include each other in a cycle: " + cycle;
        QVERIFY2(cycle.empty(), message.c_str());
    }

    void familiesAreReachedOnlyThroughTheirList() {
        std::string wrong;
        for (const auto& inc : project_includes()) {
            const std::string family = family_folder(inc.target);
            if (family.empty() || family_folder(inc.file) == family || inc.file == "models/registered_families.cpp")
                continue;
            wrong += "\n" + inc.file + " includes " + inc.target;
        }
        const std::string message =
            "a family folder is private to its family; the engine reaches it through registry::family_definition:" +
            wrong;
        QVERIFY2(wrong.empty(), message.c_str());
    }

    void theCycleFinderFindsACycle() {
        QCOMPARE(QString::fromStdString(find_cycle({{"a", {"b"}}, {"b", {"c"}}, {"c", {"a"}}})),
                 QString("a -> b -> c -> a"));
        QVERIFY(find_cycle({{"a", {"b"}}, {"b", {"c"}}}).empty());
    }
};

QTEST_APPLESS_MAIN(TestEngineLayers)
#include "test_engine_layers.moc"
