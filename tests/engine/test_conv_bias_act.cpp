// The conv_bias_act slot (the fused path's convolution blocks): oneDNN's fused convolution on the
// CPU gives the reference's outputs (LibTorch's conv2d, then the activation) within float32
// rounding, for the geometries the detectors use, in NCHW and channels-last; the slot picks it for
// inference on the CPU and falls back to the reference where it declines (gradients, float64); a
// fused model's blocks run through it; the result can be written into a given tensor; cuDNN's
// timed engine choices persist across processes.
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "kernels/conv_bias_act_slot.h"
#include "kernels/fused_engine_choices.h"
#include "kernels/onednn_conv_bias_act.h"
#include "libreyolo/kernels.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

using namespace libreyolo;
using kernels::ConvActivation;
using kernels::ConvGeometry;

namespace {

struct Case {
    int64_t in, out, kernel, stride, groups, size;
};

ConvGeometry geometry(const Case& c) {
    const int64_t pad = (c.kernel - 1) / 2;
    return {{c.stride, c.stride}, {pad, pad}, {1, 1}, c.groups};
}

const KernelSlotInfo* slot_info(const std::vector<KernelSlotInfo>& report) {
    for (const auto& s : report)
        if (s.slot == "conv_bias_act") return &s;
    return nullptr;
}

float relative_gap(const torch::Tensor& want, const torch::Tensor& got) {
    return ((got - want).abs().max() / want.abs().max()).item<float>();
}

}  // namespace

class TestConvBiasAct : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        const std::string missing = kernels::onednn_conv_bias_act_missing();
        QVERIFY2(missing.empty(), missing.c_str());  // PyPI's LibTorch always carries oneDNN
    }

    void oneDnnGivesTheReferenceOutputs_data() {
        QTest::addColumn<int>("layout");  // 0 NCHW, 1 channels-last
        QTest::addColumn<int>("activation");
        for (int layout : {0, 1})
            for (int act : {0, 1, 2}) {
                const QByteArray name = QByteArray(layout ? "NHWC " : "NCHW ") + (act == 0   ? "none"
                                                                                  : act == 1 ? "relu"
                                                                                             : "silu");
                QTest::newRow(name.constData()) << layout << act;
            }
    }

    void oneDnnGivesTheReferenceOutputs() {
        QFETCH(int, layout);
        QFETCH(int, activation);
        torch::manual_seed(3);
        torch::NoGradGuard no_grad;
        const auto act = static_cast<ConvActivation>(activation);
        // YOLOv9's and RT-DETR's shapes: 3x3 stride 1 and 2, 1x1, a depthwise 3x3, a 7x7 stem.
        for (const Case& c : {Case{16, 32, 3, 1, 1, 40}, Case{32, 64, 3, 2, 1, 40}, Case{64, 24, 1, 1, 1, 20},
                              Case{24, 24, 3, 1, 24, 20}, Case{3, 16, 7, 2, 1, 64}}) {
            torch::Tensor x = torch::randn({2, c.in, c.size, c.size});
            const torch::Tensor w = torch::randn({c.out, c.in / c.groups, c.kernel, c.kernel}) * 0.2;
            const torch::Tensor b = torch::randn({c.out});
            if (layout) x = x.contiguous(torch::MemoryFormat::ChannelsLast);
            const ConvGeometry g = geometry(c);
            QVERIFY(kernels::onednn_conv_bias_act_accepts(x, w, b, g, act));
            const torch::Tensor want = kernels::conv_bias_act_reference(x, w, b, g, act);
            const torch::Tensor got = kernels::onednn_conv_bias_act(x, w, b, g, act);
            QCOMPARE(got.sizes(), want.sizes());
            const float gap = relative_gap(want, got);
            QVERIFY2(gap <= 1e-5f, qPrintable(QString("%1 -> %2, k%3 s%4 g%5: %6")
                                                  .arg(c.in)
                                                  .arg(c.out)
                                                  .arg(c.kernel)
                                                  .arg(c.stride)
                                                  .arg(c.groups)
                                                  .arg(gap)));
            // A bias-free convolution (none of the detectors' folded blocks, but the slot's contract).
            QVERIFY(relative_gap(kernels::conv_bias_act_reference(x, w, {}, g, act),
                                 kernels::onednn_conv_bias_act(x, w, {}, g, act)) <= 1e-5f);
        }
    }

    // Inference on the CPU goes to oneDNN; a call that needs gradients or float64 gets the
    // reference, exactly.
    void theSlotPicksOneDnnForInferenceAndFallsBackElsewhere() {
        torch::manual_seed(4);
        const ConvGeometry g = geometry({8, 8, 3, 1, 1, 16});
        const torch::Tensor x = torch::randn({1, 8, 16, 16});
        const torch::Tensor w = torch::randn({8, 8, 3, 3}).requires_grad_();
        const torch::Tensor b = torch::randn({8});
        auto& slot = kernels::conv_bias_act_slot();
        {
            torch::NoGradGuard no_grad;
            kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU);
            QCOMPARE(QString::fromStdString(slot.info().active), QString("onednn"));
        }
        const torch::Tensor y = kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU);  // grad mode: the reference
        QCOMPARE(QString::fromStdString(slot.info().active), QString("portable"));
        QVERIFY(torch::equal(y, kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::SiLU)));
        y.sum().backward();
        QVERIFY(w.grad().defined());
        torch::NoGradGuard no_grad;
        const torch::Tensor x64 = x.to(torch::kFloat64);
        const torch::Tensor w64 = w.detach().to(torch::kFloat64), b64 = b.to(torch::kFloat64);
        QVERIFY(torch::equal(kernels::conv_bias_act(x64, w64, b64, g, ConvActivation::ReLU),
                             kernels::conv_bias_act_reference(x64, w64, b64, g, ConvActivation::ReLU)));
        QCOMPARE(QString::fromStdString(slot.info().active), QString("portable"));
    }

    // With an out tensor (a channel slice of a concatenation's buffer) the result lands there and
    // the rest of the buffer is untouched, through oneDNN and through the reference.
    void theResultIsWrittenIntoOut() {
        const ConvGeometry g = geometry({8, 12, 3, 1, 1, 16});
        const torch::Tensor x = torch::randn({1, 8, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor w = torch::randn({12, 8, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor b = torch::randn({12});
        torch::InferenceMode guard;
        const torch::Tensor want = kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::SiLU);
        for (const bool reference : {false, true}) {
            const torch::Tensor buffer = torch::zeros({1, 20, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
            const torch::Tensor out = buffer.slice(1, 4, 16);
            const torch::Tensor y = reference ? kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::SiLU, out)
                                              : kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU, out);
            if (!reference)
                QCOMPARE(QString::fromStdString(kernels::conv_bias_act_slot().info().active), QString("onednn"));
            QCOMPARE(y.data_ptr(), out.data_ptr());
            QVERIFY(relative_gap(want, out) <= 1e-5f);
            QVERIFY(buffer.slice(1, 0, 4).eq(0).all().item<bool>() && buffer.slice(1, 16, 20).eq(0).all().item<bool>());
        }
        const torch::Tensor wrong = torch::zeros({1, 11, 16, 16});
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU, wrong));
    }

    // A residual block's addition (RepNBottleneck: x + cv2(cv1(x))) after the activation: oneDNN's
    // result plus the residual equals the reference's, which adds in the eager block's order; with
    // out the sum lands in the slice. A residual of another shape is refused.
    void theResidualIsAddedAfterTheActivation() {
        torch::manual_seed(6);
        const ConvGeometry g = geometry({8, 8, 3, 1, 1, 16});
        const torch::Tensor x = torch::randn({2, 8, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor w = torch::randn({8, 8, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast) * 0.2;
        const torch::Tensor b = torch::randn({8});
        const torch::Tensor residual = torch::randn({2, 8, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
        torch::InferenceMode guard;
        const torch::Tensor plain = kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::SiLU);
        const torch::Tensor want = kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::SiLU, {}, residual);
        QVERIFY(torch::equal(want, residual + plain));
        const torch::Tensor got = kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU, {}, residual);
        QCOMPARE(QString::fromStdString(kernels::conv_bias_act_slot().info().active), QString("onednn"));
        QVERIFY(relative_gap(want, got) <= 1e-5f);
        const torch::Tensor buffer = torch::zeros({2, 12, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
        kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU, buffer.slice(1, 2, 10), residual);
        QVERIFY(relative_gap(want, buffer.slice(1, 2, 10)) <= 1e-5f);
        QVERIFY(buffer.slice(1, 0, 2).eq(0).all().item<bool>() && buffer.slice(1, 10, 12).eq(0).all().item<bool>());
        const torch::Tensor wrong = torch::zeros({2, 8, 8, 8});
        QVERIFY(!kernels::onednn_conv_bias_act_accepts(x, w, b, g, ConvActivation::SiLU, {}, wrong));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::conv_bias_act(x, w, b, g, ConvActivation::SiLU, {}, wrong));
    }

    // cuDNN's timed engine choices persist across processes in a small text file: lines that do not
    // parse are ignored, a new choice is added and the file rewritten with every line.
    void fusedEngineChoicesPersist() {
        QTemporaryDir dir;
        qputenv("LIBREYOLO_CUDNN_CACHE", dir.path().toUtf8());
        const std::filesystem::path file = kernels::fused_engine_choices_file();
        QCOMPARE(QString::fromStdString(file.parent_path().string()), dir.path());
        {
            std::ofstream out(file);
            out << "H200 sm90 x 1 3 640 640\teng0_k2=1\nno tab here\n\tempty key\nempty engine\t\n";
        }
        QCOMPARE(kernels::remembered_fused_engine("H200 sm90 x 1 3 640 640").value_or(""), std::string("eng0_k2=1"));
        QVERIFY(!kernels::remembered_fused_engine("no tab here"));
        QVERIFY(!kernels::remembered_fused_engine("empty engine"));
        kernels::remember_fused_engine("H200 sm90 x 8 3 640 640", "eng4_k1=0");
        kernels::remember_fused_engine("bad\tkey", "eng1");  // not storable: ignored
        QCOMPARE(kernels::remembered_fused_engine("H200 sm90 x 8 3 640 640").value_or(""), std::string("eng4_k1=0"));
        std::ifstream in(file);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(QString::fromStdString(text),
                 QString("H200 sm90 x 1 3 640 640\teng0_k2=1\nH200 sm90 x 8 3 640 640\teng4_k1=0\n"));
        qunsetenv("LIBREYOLO_CUDNN_CACHE");
    }

    void theRegistryListsTheSlot() {
        const auto report = kernel_report();
        const KernelSlotInfo* info = slot_info(report);
        QVERIFY(info);
        // The cuDNN fusion is listed too where it was built (unavailable without a CUDA device).
        QVERIFY(info->candidates.size() >= 2);
        const auto onednn = std::find_if(info->candidates.begin(), info->candidates.end(),
                                         [](const auto& c) { return c.name == "onednn"; });
        QVERIFY(onednn != info->candidates.end());
        QCOMPARE(QString::fromStdString(onednn->provider), QString(kernels::kOneDnnProvider));
        QCOMPARE(QString::fromStdString(info->candidates.back().name), QString("portable"));
    }

    // A fused model on the CPU: channels-last weights, every folded block through oneDNN; the
    // eager network keeps NCHW and never calls the slot.
    void aFusedModelRunsItsBlocksThroughTheSlot() {
        Model model = Model::create("yolo9-t", 80, "cpu");
        model.fuse();
        const auto& conv = model.impl().fused->named_parameters()["backbone.conv0.conv.weight"];
        QVERIFY(conv.is_contiguous(torch::MemoryFormat::ChannelsLast));
        QVERIFY(!model.impl().net->named_parameters()["backbone.conv0.conv.weight"].is_contiguous(
            torch::MemoryFormat::ChannelsLast));
        torch::InferenceMode guard;
        const torch::Tensor input = torch::rand({1, 3, 64, 64});
        model.impl().forward(input, GraphMode::Off, false);
        QCOMPARE(QString::fromStdString(kernels::conv_bias_act_slot().info().active), QString("portable"));
        model.impl().forward(input, GraphMode::Off, true);
        QCOMPARE(QString::fromStdString(kernels::conv_bias_act_slot().info().active), QString("onednn"));
    }

    // ResNet's block, relu(conv(x) + bias + shortcut): with the residual joining before the
    // activation, the reference is that order, and oneDNN's result (its convolution, then the sum,
    // then the activation) agrees; an activation alone still means the residual joins after it.
    void theResidualCanJoinBeforeTheActivation() {
        torch::manual_seed(7);
        const ConvGeometry g = geometry({8, 8, 3, 1, 1, 16});
        const torch::Tensor x = torch::randn({2, 8, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor w = torch::randn({8, 8, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast) * 0.2;
        const torch::Tensor b = torch::randn({8});
        const torch::Tensor residual = torch::randn({2, 8, 16, 16}).contiguous(torch::MemoryFormat::ChannelsLast);
        const kernels::ConvEpilogue joined(ConvActivation::ReLU, kernels::ResidualJoin::BeforeActivation);
        torch::InferenceMode guard;
        const torch::Tensor plain = kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::None);
        const torch::Tensor want = kernels::conv_bias_act_reference(x, w, b, g, joined, {}, residual);
        QVERIFY(torch::equal(want, torch::relu(residual + plain)));
        QVERIFY(want.lt(0).sum().item<int64_t>() == 0 && (residual + plain).lt(0).sum().item<int64_t>() > 100);
        const torch::Tensor got = kernels::conv_bias_act(x, w, b, g, joined, {}, residual);
        QCOMPARE(QString::fromStdString(kernels::conv_bias_act_slot().info().active), QString("onednn"));
        QVERIFY(relative_gap(want, got) <= 1e-5f);
        QVERIFY(torch::equal(kernels::conv_bias_act_reference(x, w, b, g, ConvActivation::ReLU, {}, residual),
                             residual + torch::relu(plain)));
    }
};

QTEST_GUILESS_MAIN(TestConvBiasAct)
#include "test_conv_bias_act.moc"
