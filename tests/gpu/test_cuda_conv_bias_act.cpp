// conv_bias_act on the GPU through cuDNN's runtime fusion (kernels/cudnn_conv_bias_act.h): for the
// geometries the detectors use, float16 and bfloat16 channels-last, the fused kernel gives the
// float32 reference's outputs within the output type's rounding, on a channel slice of an NHWC
// tensor too; the slot picks it for those calls and declines the rest (float32, NCHW, gradients, grouped convolutions)
// to the reference; a fused float16 model runs its blocks through it and keeps the eager float16 network's outputs.
#include <QtTest/QtTest>

#include "kernels/conv_bias_act_slot.h"
#include "libreyolo/device.h"
#include "libreyolo/kernels.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

using namespace libreyolo;
using kernels::ConvActivation;
using kernels::ConvGeometry;

namespace {

constexpr const char* kFusion = "cudnn-fusion";

ConvGeometry geometry(int64_t kernel, int64_t stride, int64_t groups = 1) {
    const int64_t pad = (kernel - 1) / 2;
    return {{stride, stride}, {pad, pad}, {1, 1}, groups};
}

std::string active() {
    return kernels::conv_bias_act_slot().info().active;
}

torch::Tensor channels_last(const torch::Tensor& t) {
    return t.contiguous(torch::MemoryFormat::ChannelsLast);
}

}  // namespace

class TestCudaConvBiasAct : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
        bool listed = false;
        for (const auto& slot : kernel_report())
            if (slot.slot == "conv_bias_act")
                for (const auto& c : slot.candidates) listed = listed || c.name == kFusion;
        QVERIFY2(listed, "the build has no cuDNN fusion (scripts/setup.sh installs its frontend's headers)");
        at::globalContext().setAllowTF32CuDNN(false);  // the float32 references in full precision
    }

    void theFusedKernelGivesTheReferenceOutputs_data() {
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("activation");
        QTest::addColumn<bool>("bf16");
        struct Shape {
            int in, out, kernel, stride, size;
        };
        // YOLOv9-t's: a stride-2 3x3, the ELAN 1x1s, a RepConvN 3x3, the head's 1x1 (no activation).
        for (const Shape s :
             {Shape{16, 32, 3, 2, 160}, Shape{64, 32, 1, 1, 80}, Shape{32, 32, 3, 1, 40}, Shape{64, 80, 1, 1, 20}})
            for (int act : {0, 1, 2})
                for (bool bf16 : {false, true}) {
                    const QByteArray name = QByteArray::number(s.in) + "->" + QByteArray::number(s.out) + " k" +
                                            QByteArray::number(s.kernel) + " s" + QByteArray::number(s.stride) +
                                            (act == 0   ? " none"
                                             : act == 1 ? " relu"
                                                        : " silu") +
                                            (bf16 ? " bf16" : " fp16");
                    QTest::newRow(name.constData()) << s.in << s.out << s.kernel << s.stride << s.size << act << bf16;
                }
    }

    void theFusedKernelGivesTheReferenceOutputs() {
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        QFETCH(int, size);
        QFETCH(int, activation);
        QFETCH(bool, bf16);
        torch::manual_seed(in * 7 + out);
        const auto options =
            torch::TensorOptions().device(torch::kCUDA).dtype(bf16 ? torch::kBFloat16 : torch::kFloat16);
        const torch::Tensor x = channels_last(torch::randn({2, in, size, size}, options));
        const torch::Tensor w = channels_last(torch::randn({out, in, kernel, kernel}, options) / (in * kernel));
        const torch::Tensor b = torch::randn({out}, options);
        const ConvGeometry g = geometry(kernel, stride);
        const auto act = static_cast<ConvActivation>(activation);
        torch::InferenceMode guard;
        const torch::Tensor y = kernels::conv_bias_act(x, w, b, g, act);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        QVERIFY(y.is_contiguous(torch::MemoryFormat::ChannelsLast));
        QCOMPARE(y.scalar_type(), x.scalar_type());
        const torch::Tensor want = kernels::conv_bias_act_reference(x.to(torch::kFloat32), w.to(torch::kFloat32),
                                                                    b.to(torch::kFloat32), g, act);
        QCOMPARE(y.sizes(), want.sizes());
        // One rounding of the output to float16 (2^-11) or bfloat16 (2^-8), relative to the scale.
        const float gap = ((y.to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
        QVERIFY2(gap <= (bf16 ? 8e-3f : 1e-3f), qPrintable(QString::number(gap)));
    }

    // ELAN and ADown convolve one half of a block's output: a channel slice of an NHWC tensor.
    void theFusionTakesAChannelSlice() {
        const auto half = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat16);
        torch::manual_seed(5);
        const torch::Tensor block = channels_last(torch::randn({2, 64, 40, 40}, half));
        const torch::Tensor slice = block.chunk(2, 1)[1];
        QVERIFY(!slice.is_contiguous(torch::MemoryFormat::ChannelsLast));
        const torch::Tensor w = channels_last(torch::randn({32, 32, 3, 3}, half) / 96), b = torch::randn({32}, half);
        torch::InferenceMode guard;
        const torch::Tensor y = kernels::conv_bias_act(slice, w, b, geometry(3, 1), ConvActivation::SiLU);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        const torch::Tensor want =
            kernels::conv_bias_act_reference(slice.to(torch::kFloat32), w.to(torch::kFloat32), b.to(torch::kFloat32),
                                             geometry(3, 1), ConvActivation::SiLU);
        const float gap = ((y.to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
        QVERIFY2(gap <= 1e-3f, qPrintable(QString::number(gap)));
    }

    // A concatenation's part written in place: the fused kernel stores straight into a channel
    // slice of a channels-last buffer, the other channels untouched.
    void theFusionWritesIntoAChannelSlice() {
        const auto half = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat16);
        const torch::Tensor x = channels_last(torch::randn({2, 16, 40, 40}, half));
        const torch::Tensor w = channels_last(torch::randn({24, 16, 3, 3}, half) * 0.1);
        const torch::Tensor b = torch::randn({24}, half);
        torch::InferenceMode guard;
        const torch::Tensor buffer = channels_last(torch::zeros({2, 56, 40, 40}, half));
        const torch::Tensor out = buffer.slice(1, 16, 40);
        const torch::Tensor y = kernels::conv_bias_act(x, w, b, geometry(3, 1), ConvActivation::SiLU, out);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        QCOMPARE(y.data_ptr(), out.data_ptr());
        const torch::Tensor want = kernels::conv_bias_act_reference(
            x.to(torch::kFloat32), w.to(torch::kFloat32), b.to(torch::kFloat32), geometry(3, 1), ConvActivation::SiLU);
        const float gap = ((out.to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
        QVERIFY2(gap <= 1e-3f, qPrintable(QString::number(gap)));
        QVERIFY(buffer.slice(1, 0, 16).eq(0).all().item<bool>());
        QVERIFY(buffer.slice(1, 40, 56).eq(0).all().item<bool>());
    }

    void theSlotDeclinesWhatTheFusionDoesNotTake() {
        const auto half = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat16);
        const torch::Tensor x = torch::randn({1, 16, 32, 32}, half), w = torch::randn({16, 16, 3, 3}, half);
        const torch::Tensor b = torch::randn({16}, half);
        torch::InferenceMode guard;
        kernels::conv_bias_act(channels_last(x), channels_last(w), b, geometry(3, 1), ConvActivation::SiLU);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        kernels::conv_bias_act(x, w, b, geometry(3, 1), ConvActivation::SiLU);  // NCHW
        QCOMPARE(QString::fromStdString(active()), QString("portable"));
        kernels::conv_bias_act(channels_last(x.to(torch::kFloat32)), channels_last(w.to(torch::kFloat32)),
                               b.to(torch::kFloat32), geometry(3, 1), ConvActivation::SiLU);
        QCOMPARE(QString::fromStdString(active()), QString("portable"));
    }

    // YOLOv9's box towers use a grouped 3x3 (4 groups) and a grouped 1x1: whichever route takes them
    // (the fusion where cuDNN has a fused engine for grouped convolutions, else the reference), the
    // result is the reference's.
    void aGroupedConvolutionGivesTheReferenceOutputs() {
        const auto half = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat16);
        torch::manual_seed(8);
        for (const int64_t kernel : {3, 1}) {
            const torch::Tensor x = channels_last(torch::randn({1, 64, 40, 40}, half));
            const torch::Tensor w = channels_last(torch::randn({64, 16, kernel, kernel}, half) / (16 * kernel));
            const torch::Tensor b = torch::randn({64}, half);
            torch::InferenceMode guard;
            const torch::Tensor y = kernels::conv_bias_act(x, w, b, geometry(kernel, 1, 4), ConvActivation::SiLU);
            qInfo("grouped %dx%d: %s", int(kernel), int(kernel), active().c_str());
            const torch::Tensor want =
                kernels::conv_bias_act_reference(x.to(torch::kFloat32), w.to(torch::kFloat32), b.to(torch::kFloat32),
                                                 geometry(kernel, 1, 4), ConvActivation::SiLU);
            const float gap = ((y.to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
            QVERIFY2(gap <= 1e-3f, qPrintable(QString::number(gap)));
        }
    }

    // RepNBottleneck's x + cv2(cv1(x)): the residual is read by the fused kernel itself, and the sum
    // can be stored into a channel slice (the last bottleneck writes its block's concatenation).
    void theFusionAddsTheResidual() {
        const auto half = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat16);
        torch::manual_seed(9);
        const torch::Tensor x = channels_last(torch::randn({2, 32, 40, 40}, half));
        const torch::Tensor w = channels_last(torch::randn({32, 32, 3, 3}, half) / 96), b = torch::randn({32}, half);
        const torch::Tensor residual = channels_last(torch::randn({2, 32, 40, 40}, half));
        torch::InferenceMode guard;
        const torch::Tensor want =
            kernels::conv_bias_act_reference(x.to(torch::kFloat32), w.to(torch::kFloat32), b.to(torch::kFloat32),
                                             geometry(3, 1), ConvActivation::SiLU, {}, residual.to(torch::kFloat32));
        const torch::Tensor y = kernels::conv_bias_act(x, w, b, geometry(3, 1), ConvActivation::SiLU, {}, residual);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        float gap = ((y.to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
        QVERIFY2(gap <= 1e-3f, qPrintable(QString::number(gap)));
        const torch::Tensor buffer = channels_last(torch::zeros({2, 64, 40, 40}, half));
        kernels::conv_bias_act(x, w, b, geometry(3, 1), ConvActivation::SiLU, buffer.slice(1, 0, 32), residual);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        gap = ((buffer.slice(1, 0, 32).to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
        QVERIFY2(gap <= 1e-3f, qPrintable(QString::number(gap)));
        QVERIFY(buffer.slice(1, 32, 64).eq(0).all().item<bool>());
    }

    // ResNet's relu(conv(x) + bias + shortcut) (RT-DETR's PResNet blocks): the residual joins before
    // the ReLU inside the fused kernel.
    void theFusionJoinsTheResidualBeforeTheActivation() {
        const auto half = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat16);
        torch::manual_seed(10);
        const torch::Tensor x = channels_last(torch::randn({1, 64, 40, 40}, half));
        const torch::Tensor w = channels_last(torch::randn({64, 64, 3, 3}, half) / 192), b = torch::randn({64}, half);
        const torch::Tensor residual = channels_last(torch::randn({1, 64, 40, 40}, half));
        const kernels::ConvEpilogue joined(ConvActivation::ReLU, kernels::ResidualJoin::BeforeActivation);
        torch::InferenceMode guard;
        const torch::Tensor want =
            kernels::conv_bias_act_reference(x.to(torch::kFloat32), w.to(torch::kFloat32), b.to(torch::kFloat32),
                                             geometry(3, 1), joined, {}, residual.to(torch::kFloat32));
        const torch::Tensor y = kernels::conv_bias_act(x, w, b, geometry(3, 1), joined, {}, residual);
        QCOMPARE(QString::fromStdString(active()), QString(kFusion));
        const float gap = ((y.to(torch::kFloat32) - want).abs().max() / want.abs().max()).item<float>();
        QVERIFY2(gap <= 1e-3f, qPrintable(QString::number(gap)));
        const torch::Tensor after = kernels::conv_bias_act(x, w, b, geometry(3, 1), ConvActivation::ReLU, {}, residual);
        QVERIFY(after.lt(0).any().item<bool>() && !y.lt(0).any().item<bool>());
    }

    // The fused float16 copy of YOLOv9-t (NHWC) runs its blocks through the fusion and keeps the eager
    // float16 network's outputs within float16's accumulated rounding; RT-DETR-r18's runs too.
    void aFusedHalfModelRunsItsBlocksThroughTheFusion() {
        for (const char* name : {"yolo9-t", "rtdetr-r18"}) {
            Model model = Model::create(name, 80, "cuda");
            model.set_dtype("float16");
            model.fuse();
            torch::manual_seed(3);
            const torch::Tensor x = torch::rand({1, 3, 320, 320}).to(torch::kCUDA, torch::kFloat16);
            torch::InferenceMode guard;
            const torch::Tensor eager = model.impl().forward(x, GraphMode::Off, false);
            const torch::Tensor fused = model.impl().forward(x, GraphMode::Off, true);
            QVERIFY(torch::isfinite(fused).all().item<bool>());
            if (std::string(name) == "yolo9-t") {  // RT-DETR's query selection may flip near-tied cells
                QCOMPARE(QString::fromStdString(active()), QString(kFusion));
                const float gap = ((fused.to(torch::kFloat32) - eager.to(torch::kFloat32)).abs().max() /
                                   eager.abs().max().to(torch::kFloat32))
                                      .item<float>();
                QVERIFY2(gap <= 1e-2f, qPrintable(QString("%1: %2").arg(name).arg(gap)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCudaConvBiasAct)
#include "test_cuda_conv_bias_act.moc"
