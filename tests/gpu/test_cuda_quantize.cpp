// Simulated FP8 quantization on a real GPU: the quantized forward takes the CUDA fake_quant_fp8
// kernel and gives the reference's numbers bit for bit; quantize releases the captured graphs, and
// the quantized forward itself captures and replays bit-identically to eager (no host sync in it).
#include <QtTest/QtTest>

#include "support/kernel_report.h"

#include "support/synthetic_shapes.h"

#include "libreyolo/device.h"
#include "libreyolo/kernels.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

using namespace libreyolo;

namespace {

torch::Tensor run(Model& m, const torch::Tensor& x, GraphMode mode = GraphMode::Off) {
    torch::InferenceMode guard;
    return m.impl().forward(x, mode);
}

}  // namespace

class TestCudaQuantize : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QuantizeOptions calibration_;

private Q_SLOTS:
    void initTestCase() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
        calibration_.calib = testing::synthetic_shapes(dir_, 10, 128).data_yaml;
        calibration_.imgsz = 128;
    }

    void theQuantizedForwardTakesTheCudaKernelWithTheReferencesNumbers() {
        Model model = Model::load(default_model(), "cuda");
        model.quantize(calibration_);
        torch::manual_seed(0);
        const torch::Tensor x = torch::rand({2, 3, 128, 160}).cuda();
        const torch::Tensor fast = run(model, x);
        QCOMPARE(testing::active_kernel("fake_quant_fp8"), std::string("cuda"));

        qputenv("LIBREYOLO_KERNELS", "reference");
        reload_kernel_environment();
        const torch::Tensor reference = run(model, x);
        QCOMPARE(testing::active_kernel("fake_quant_fp8"), std::string("portable"));
        qunsetenv("LIBREYOLO_KERNELS");
        reload_kernel_environment();
        QVERIFY(torch::equal(fast, reference));

        // The same quantized model on the CPU: other convolution arithmetic, the same detector.
        Model cpu = Model::load(default_model(), "cpu");
        cpu.quantize(calibration_);
        const torch::Tensor on_cpu = run(cpu, x.cpu());
        const double relative = ((fast.cpu() - on_cpu).norm() / on_cpu.norm()).item<double>();
        QVERIFY2(relative < 2e-2, qPrintable(QString::number(relative)));
    }

    void quantizeReleasesTheGraphsAndTheQuantizedForwardReplaysBitIdentically() {
        Model model = Model::load(default_model(), "cuda");
        model.capture_graph(128, 2);
        QCOMPARE(model.graph_info().size(), std::size_t(1));
        model.quantize(calibration_);
        QVERIFY(model.graph_info().empty());

        torch::manual_seed(1);
        const torch::Tensor x = torch::rand({2, 3, 128, 128}).cuda();
        const torch::Tensor want = run(model, x);
        for (int i = 0; i < 3; ++i) QVERIFY(torch::equal(run(model, x, GraphMode::On), want));
        const auto info = model.graph_info();
        QCOMPARE(info.size(), std::size_t(1));
        QCOMPARE(info[0].replays, std::int64_t{3});

        model.dequantize();
        QVERIFY(model.graph_info().empty());
        QVERIFY(!torch::equal(run(model, x, GraphMode::On), want));
    }
};

QTEST_APPLESS_MAIN(TestCudaQuantize)
#include "test_cuda_quantize.moc"
