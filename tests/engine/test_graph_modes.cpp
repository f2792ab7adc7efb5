// CUDA graph modes without a GPU: parsing, keys, the LRU bound, and the errors and eager
// fallbacks that must hold on any machine (tests/gpu/test_cuda_graphs.cpp captures for real).
#include <QtTest/QtTest>

#include "support/gated_detector.h"
#include "support/test_helpers.h"

#include "graphs/concurrent_branches.h"
#include "graphs/graph_key.h"
#include "graphs/graph_runner.h"
#include "graphs/lru_cache.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

using namespace libreyolo;

namespace {

ImageView view_of(const std::vector<unsigned char>& pixels, int w, int h) {
    return {pixels.data(), w, h, w * 3, PixelFormat::RGB8};
}

}  // namespace

class TestGraphModes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesTheCliValues() {
        QCOMPARE(parse_graph_mode("true"), GraphMode::On);
        QCOMPARE(parse_graph_mode("False"), GraphMode::Off);
        QCOMPARE(parse_graph_mode("auto"), GraphMode::Auto);
        QCOMPARE(std::string(to_string(GraphMode::Auto)), std::string("auto"));
        QVERIFY(testing::error_of([] { parse_graph_mode("sometimes"); }).find("'sometimes'") != std::string::npos);
    }

    void keyNamesShapeDtypeDeviceAndTask() {
        const auto key = graphs::key_of(torch::zeros({8, 3, 640, 480}, torch::kFloat16), "detect");
        QCOMPARE(key.shape(), std::string("8x3x640x480"));
        QCOMPARE(key.dtype_name(), std::string("float16"));
        QCOMPARE(key.device, std::string("cpu"));
        QVERIFY(!(key == graphs::key_of(torch::zeros({8, 3, 640, 480}), "detect")));                 // dtype
        QVERIFY(!(key == graphs::key_of(torch::zeros({8, 3, 640, 480}, torch::kFloat16), "pose")));  // task
        QVERIFY(key == graphs::key_of(torch::ones({8, 3, 640, 480}, torch::kFloat16), "detect"));    // values
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, graphs::key_of(torch::zeros({3, 640, 640}), "detect"));
    }

    void cacheKeepsTheMostRecentlyUsed() {
        graphs::LruCache<int, std::string> cache(2);
        QVERIFY(cache.insert(1, std::make_unique<std::string>("a")).empty());
        QVERIFY(cache.insert(2, std::make_unique<std::string>("b")).empty());
        QCOMPARE(*cache.find(1), std::string("a"));  // 1 is now the most recent
        QCOMPARE(cache.insert(3, std::make_unique<std::string>("c")), std::vector<int>{2});
        QVERIFY(cache.find(2) == nullptr);
        QCOMPARE(cache.entries().front().first, 3);
        QCOMPARE(cache.set_limit(1), std::vector<int>{1});
        QCOMPARE(cache.size(), std::size_t(1));
        QVERIFY(cache.insert(3, std::make_unique<std::string>("d")).empty());  // replaces
        QCOMPARE(*cache.find(3), std::string("d"));
    }

    void onOnTheCpuIsAClearErrorAndAutoRunsEager() {
        Model model = Model::create("yolo9-t", 80, "cpu");
        std::vector<unsigned char> pixels(64 * 48 * 3, 90);
        PredictOptions o;
        o.imgsz = 64;
        o.cuda_graph = GraphMode::On;
        const std::string error = testing::error_of([&] { model.predict({view_of(pixels, 64, 48)}, o); });
        QVERIFY2(error.find("CUDA device") != std::string::npos && error.find("cpu") != std::string::npos,
                 error.c_str());
        QVERIFY_THROWS_EXCEPTION(DeviceError, model.predict({view_of(pixels, 64, 48)}, o));
        QVERIFY_THROWS_EXCEPTION(DeviceError, model.capture_graph(64, 1));

        PredictOptions eager = o;
        eager.cuda_graph = GraphMode::Off;
        o.cuda_graph = GraphMode::Auto;
        for (int i = 0; i < 3; ++i) {
            const auto a = model.predict({view_of(pixels, 64, 48)}, o),
                       b = model.predict({view_of(pixels, 64, 48)}, eager);
            QCOMPARE(a.front().boxes.size(), b.front().boxes.size());
        }
        QVERIFY(model.graph_info().empty());
    }

    void aFamilyOrTaskThatHasNotOptedInIsNamed() {
        Model model = Model::create("yolo9-t", 80, "cpu");
        model.impl().spec.name.task = "pose";  // a task the registry leaves unmarked
        std::vector<unsigned char> pixels(64 * 64 * 3, 20);
        PredictOptions o;
        o.imgsz = 64;
        o.cuda_graph = GraphMode::On;
        const std::string error = testing::error_of([&] { model.predict({view_of(pixels, 64, 64)}, o); });
        QVERIFY2(error.find("yolo9") != std::string::npos && error.find("pose") != std::string::npos, error.c_str());
        QVERIFY_THROWS_EXCEPTION(NotSupported, model.predict({view_of(pixels, 64, 64)}, o));
        QVERIFY_THROWS_EXCEPTION(NotSupported, model.capture_graph(64, 1));
        o.cuda_graph = GraphMode::Auto;  // runs eager
        QCOMPARE(model.predict({view_of(pixels, 64, 64)}, o).size(), std::size_t(1));
    }

    void modelChangesKeepWorkingAndTheLimitHolds() {
        Model model = Model::create("yolo9-t", 6, "cpu");
        QCOMPARE(model.graph_cache_limit(), 8);
        model.set_graph_cache_limit(3);
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, model.set_graph_cache_limit(0));
        model.set_dtype("float16");
        QCOMPARE(model.info().dtype, std::string("float16"));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, model.set_dtype("int3"));
        model.set_dtype("float32");
        model.to("cpu");
        QCOMPARE(model.graph_cache_limit(), 3);  // releasing graphs keeps the setting
        QVERIFY(model.graph_info().empty());
        QVERIFY_THROWS_EXCEPTION(FileNotFound, model.load_weights("no-such-file.safetensors"));
    }

    // A graph records addresses: whatever moves or rewrites the parameters must drop every graph.
    void deviceDtypeAndWeightsReleaseTheGraphs() {
        QTemporaryDir dir;
        const std::string weights = dir.filePath("w.safetensors").toStdString();
        Model::create("yolo9-t", 80, "cpu").save(weights);
        Model model = Model::create("yolo9-t", 80, "cpu");
        const graphs::GraphRunner& runner = model.impl().graphs;
        std::int64_t before = runner.releases();
        model.to("cpu");
        QCOMPARE(runner.releases(), ++before);
        model.set_dtype("float16");
        QCOMPARE(runner.releases(), ++before);
        model.load_weights(weights);
        QCOMPARE(runner.releases(), ++before);
        QVERIFY_THROWS_EXCEPTION(FileNotFound, model.load_weights("no-such-file.safetensors"));
        QCOMPARE(runner.releases(), before);  // nothing was loaded, nothing moved
        model.release_graphs();
        QCOMPARE(runner.releases(), ++before);
    }

    void aSplitForwardsStagesInOrderEqualTheForward() {
        auto net = std::make_shared<testing::GatedDetectorImpl>();
        net->eval();
        torch::InferenceMode guard;
        const torch::Tensor x = torch::rand({4, 3, 64, 64});
        // A threshold between the images' levels sends some through each branch.
        net->threshold = net->levels(net->stem->forward(x)).median().item<double>();
        const torch::Tensor want = net->forward(x);
        QVERIFY(net->bright_taken > 0 && net->dark_taken > 0);
        QVERIFY(torch::equal(graphs::run_eagerly(net->forward_plan(), x), want));

        graphs::GraphRunner runner;
        const graphs::GraphTarget target{"gated", "detect", true};
        QVERIFY(torch::equal(runner.run(x, GraphMode::Off, target, net->forward_plan()), want));
        QVERIFY(torch::equal(runner.run(x, GraphMode::Auto, target, net->forward_plan()), want));  // CPU: eager
        QVERIFY(runner.info().empty());
        QVERIFY_THROWS_EXCEPTION(DeviceError, runner.run(x, GraphMode::On, target, net->forward_plan()));
    }

    void aPlanMustEndInOneTensor() {
        const graphs::ForwardPlan two_outputs{{"split", true, [](const graphs::TensorList& in) -> graphs::TensorList {
                                                   return {in[0], in[0]};
                                               }}};
        const std::string error = testing::error_of([&] { graphs::run_eagerly(two_outputs, torch::zeros({1})); });
        QVERIFY2(error.find("2 tensors") != std::string::npos, error.c_str());
    }

    // The fused copy's independent branches: on the CPU one after another, in the order given, each
    // result returned in its place (an undefined tensor for a branch that wrote into a buffer).
    void independentBranchesRunInOrderOnTheCpu() {
        std::vector<int> order;
        const torch::Tensor buffer = torch::zeros({2});
        const std::vector<torch::Tensor> results =
            graphs::run_concurrently(torch::kCPU, {[&] {
                                                       order.push_back(0);
                                                       buffer[0] = 1;
                                                       return torch::Tensor();
                                                   },
                                                   [&] {
                                                       order.push_back(1);
                                                       return torch::full({1}, 7.0);
                                                   }});
        QCOMPARE(order, (std::vector<int>{0, 1}));
        QCOMPARE(results.size(), std::size_t(2));
        QVERIFY(!results[0].defined());
        QCOMPARE(results[1].item<double>(), 7.0);
        QCOMPARE(buffer[0].item<double>(), 1.0);
    }
};

QTEST_APPLESS_MAIN(TestGraphModes)
#include "test_graph_modes.moc"
