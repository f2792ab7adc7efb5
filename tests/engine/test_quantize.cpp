// Simulated FP8 quantization (LibreYOLO's model.quantize): QuantConv2d's arithmetic against the
// fake_quant_fp8 reference and a plain convolution, both range observers, which convolutions a
// keep list selects, calibration on real images, quantized checkpoints that load quantized,
// dequantize giving the float model back bit for bit, the graphs released, and every refusal.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "support/synthetic_shapes.h"
#include "support/test_helpers.h"

#include "io/safetensors.h"
#include "kernels/fake_quant_slot.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/train.h"
#include "libreyolo/validate.h"
#include "model/model_impl.h"
#include "quant/fake_quant.h"
#include "quant/quant_conv2d.h"
#include "quant/quantize_network.h"

using namespace libreyolo;
using testing::error_of;
namespace F = torch::nn::functional;

namespace {

torch::Tensor conv(const torch::Tensor& x, const torch::Tensor& w, const torch::Tensor& b) {
    return F::conv2d(x, w, F::Conv2dFuncOptions().bias(b).padding(1));
}

torch::Tensor per_channel_weight_scale(const torch::Tensor& w) {
    return (w.abs().amax({1, 2, 3}) / 448.0).clamp_min(1e-12).reshape({-1, 1, 1, 1});
}

// Every convolution weight of a network (4-D ".weight" tensors), by module name.
std::vector<std::string> conv_modules(const torch::nn::Module& net) {
    std::vector<std::string> names;
    for (const auto& p : net.named_parameters())
        if (p.value().dim() == 4 && p.key().size() > 7 && p.key().compare(p.key().size() - 7, 7, ".weight") == 0)
            names.push_back(p.key().substr(0, p.key().size() - 7));
    return names;
}

std::vector<std::string> keys_of(const Model& model) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : io::state_dict(*model.impl().net)) keys.push_back(k);
    return keys;
}

torch::Tensor forward(Model& model, const torch::Tensor& x) {
    torch::NoGradGuard no_grad;
    return model.impl().net->forward(x);
}

}  // namespace

class TestQuantize : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string data_;

private Q_SLOTS:
    void initTestCase() { data_ = testing::synthetic_shapes(dir_, 10, 128).data_yaml; }

    void aPreparedConvSimulatesFp8WeightsThenCalibratedInputs() {
        torch::manual_seed(0);
        quant::QuantConv2d q(torch::nn::Conv2dOptions(3, 8, 3).padding(1));
        const torch::Tensor x = torch::randn({2, 3, 9, 9}) * 3;
        const torch::Tensor w = q->weight.detach(), b = q->bias.detach();
        QVERIFY(torch::equal(q->forward(x), conv(x, w, b)));  // unprepared: a Conv2d

        q->prepare_fp8();
        const torch::Tensor wq = kernels::fake_quant_fp8_reference(w, per_channel_weight_scale(w));
        QVERIFY(!torch::equal(wq, w));
        QVERIFY(torch::equal(q->forward(x), conv(x, wq, b)));  // uncalibrated: weight-only

        const torch::Tensor second = torch::randn({1, 3, 9, 9}) * 5;
        q->begin_observation(quant::RangeAlgorithm::MinMax);
        QVERIFY(torch::equal(q->forward(x), conv(x, wq, b)));  // observing leaves the input float
        q->forward(second);
        q->end_observation();
        QVERIFY(q->calibrated());
        const auto& buffers = q->named_buffers();
        QCOMPARE(buffers["_q_act_lo"].item<float>(), std::min(x.min().item<float>(), second.min().item<float>()));
        QCOMPARE(buffers["_q_act_hi"].item<float>(), std::max(x.max().item<float>(), second.max().item<float>()));
        QCOMPARE(buffers["_q_calibrated"].item<int>(), 1);

        const float amax = std::max(std::abs(buffers["_q_act_lo"].item<float>()), buffers["_q_act_hi"].item<float>());
        const torch::Tensor xq = kernels::fake_quant_fp8_reference(x, torch::full({1}, amax / 448.0f));
        QVERIFY(!torch::equal(xq, x));
        QVERIFY(torch::equal(q->forward(x), conv(xq, wq, b)));

        // Straight-through: the weight's gradient is the convolution's at the quantized values.
        torch::Tensor leaf = wq.clone().requires_grad_(true);
        conv(xq, leaf, b).square().sum().backward();
        q->zero_grad();
        q->forward(x).square().sum().backward();
        QVERIFY(torch::allclose(q->weight.grad(), leaf.grad(), 1e-5, 1e-6));
    }

    void percentileRangesAreTheMeanOfEachBatchsQuantiles() {
        torch::manual_seed(1);
        quant::QuantConv2d q(torch::nn::Conv2dOptions(2, 4, 3).padding(1));
        q->prepare_fp8();
        const torch::Tensor a = torch::randn({1, 2, 16, 16}), b = torch::randn({1, 2, 16, 16}) * 2 + 1;
        q->begin_observation(quant::RangeAlgorithm::Percentile);
        q->forward(a);
        q->forward(b);
        QVERIFY(!q->calibrated());  // written when the observation ends
        q->end_observation();
        const torch::Tensor levels = torch::tensor({0.001, 0.999});
        const torch::Tensor expected =
            (torch::quantile(a.flatten(), levels) + torch::quantile(b.flatten(), levels)) / 2;
        QVERIFY(q->calibrated());
        QVERIFY(std::abs(q->named_buffers()["_q_act_lo"].item<double>() - expected[0].item<double>()) < 1e-6);
        QVERIFY(std::abs(q->named_buffers()["_q_act_hi"].item<double>() - expected[1].item<double>()) < 1e-6);
    }

    void theKeepListDecidesWhichConvolutionsAreQuantized() {
        Model model = Model::create("yolo9-t", 6, "cpu");
        const std::vector<std::string> all = conv_modules(*model.impl().net);
        std::vector<std::string> expected;
        for (const auto& name : all)
            if (name.rfind("head.", 0) != 0 && name.rfind("backbone.conv0.", 0) != 0) expected.push_back(name);
        QVERIFY(expected.size() > 50 && expected.size() < all.size());

        testing::WarningCapture warnings;
        const QuantInfo info = model.quantize({});  // no calibration
        QVERIFY(warnings.mentions("without calibration"));
        QCOMPARE(info.recipe, std::string("fp8"));
        QVERIFY(!info.calibrated);
        QCOMPARE(info.keep_high_precision, (std::vector<std::string>{"head.", "backbone.conv0."}));
        QCOMPARE(info.module_count, static_cast<int>(expected.size()));
        QCOMPARE(info.module_counts.at("conv_fp8"), info.module_count);
        std::vector<std::string> prepared;
        for (const auto& c : quant::prepared_convs(*model.impl().net)) prepared.push_back(c.name);
        QCOMPARE(prepared, expected);
        const std::vector<std::string> keys = keys_of(model);
        for (const auto& name : expected)
            for (const char* buffer : {"._q_act_lo", "._q_act_hi", "._q_calibrated", "._q_w_scale"})
                QVERIFY2(std::count(keys.begin(), keys.end(), name + buffer) == 1,
                         qPrintable(QString::fromStdString(name)));

        Model everything = Model::create("yolo9-t", 6, "cpu");
        QuantizeOptions none_kept;
        none_kept.keep_high_precision = std::vector<std::string>{};
        QCOMPARE(everything.quantize(none_kept).module_count, static_cast<int>(all.size()));
        QVERIFY(quant::keeps_high_precision("head.dfl.conv", {}));
    }

    void calibrationOnImagesKeepsTheDetectionsAndDequantizeRestoresTheFloatModel() {
        Model model = Model::load(default_model(), "cpu");
        const std::vector<std::string> float_keys = keys_of(model);
        const torch::Tensor x = torch::rand({1, 3, 128, 128});
        const torch::Tensor float_out = forward(model, x);
        ValOptions vo;
        vo.imgsz = 128;
        const double float_map = validate(model, data_, vo).metrics.map50;
        QVERIFY2(float_map > 0.3, qPrintable(QString::number(float_map)));

        const std::int64_t releases = model.impl().graphs.releases();
        QuantizeOptions o;
        o.calib = data_;
        o.imgsz = 128;
        o.batch = 3;
        const QuantInfo info = model.quantize(o);
        QVERIFY(model.impl().graphs.releases() > releases);
        QVERIFY(info.calibrated);
        QCOMPARE(info.calib_samples, 8);  // the train split
        QCOMPARE(info.calib_algorithm, std::string("minmax"));
        for (const auto& c : quant::prepared_convs(*model.impl().net)) QVERIFY(c.module->calibrated());

        const torch::Tensor quant_out = forward(model, x);
        QVERIFY(!torch::equal(quant_out, float_out));
        const double relative = ((quant_out - float_out).norm() / float_out.norm()).item<double>();
        QVERIFY2(relative < 0.05, qPrintable(QString::number(relative)));
        const double quant_map = validate(model, data_, vo).metrics.map50;
        QVERIFY2(std::abs(quant_map - float_map) < 0.05,
                 qPrintable(QString("float %1, fp8 %2").arg(float_map).arg(quant_map)));

        const std::int64_t before_dequantize = model.impl().graphs.releases();
        model.dequantize();
        QVERIFY(model.impl().graphs.releases() > before_dequantize);
        QVERIFY(!model.quant_info());
        QCOMPARE(keys_of(model), float_keys);
        QVERIFY(torch::equal(forward(model, x), float_out));
    }

    void aQuantizedCheckpointLoadsQuantized() {
        Model model = Model::load(default_model(), "cpu");
        QuantizeOptions o;
        o.calib = data_;
        o.imgsz = 128;
        o.samples = 4;
        o.algorithm = "percentile";
        const QuantInfo info = model.quantize(o);
        QCOMPARE(info.calib_samples, 4);
        const std::string path = dir_.filePath("fp8.safetensors").toStdString();
        model.save(path);

        const io::TensorFile file = io::read_safetensors(path);
        const auto manifest = nlohmann::json::parse(file.metadata.at("quant"));
        for (const char* key : {"schema", "recipe", "keep_high_precision", "execution", "calibrated", "calib_data",
                                "calib_samples", "calib_algorithm", "module_count"})
            QVERIFY2(manifest.contains(key), key);
        QCOMPARE(manifest["execution"].get<std::string>(), std::string("simulated"));
        QVERIFY(file.tensors.count("backbone.elan1.cv1.conv._q_act_lo"));
        QVERIFY(!file.tensors.count("backbone.conv0.conv._q_act_lo"));

        Model loaded = Model::load(path, "cpu");
        QVERIFY(loaded.quant_info());
        QCOMPARE(loaded.quant_info()->module_count, info.module_count);
        QCOMPARE(loaded.quant_info()->calib_algorithm, std::string("percentile"));
        QVERIFY(loaded.quant_info()->calibrated);
        const torch::Tensor x = torch::rand({2, 3, 96, 128});
        QVERIFY(torch::equal(forward(loaded, x), forward(model, x)));
        // A quantized model predicts like any other.
        PredictOptions po;
        po.imgsz = 128;
        const auto results = loaded.predict(dir_.filePath("shapes-10-128/images/val").toStdString(), po);
        QCOMPARE(results.size(), std::size_t(2));
        QVERIFY(!results[0].boxes.empty());

        TrainOptions t;
        t.model = path;
        t.data = data_;
        t.epochs = 1;
        t.device = "cpu";
        t.project = dir_.filePath("runs").toStdString();
        const std::string refused = error_of([&] { train(t); });
        QVERIFY2(QString::fromStdString(refused).contains("quantized checkpoint"), refused.c_str());
    }

    void badRequestsAreRefusedAndLeaveTheModelFloat() {
        Model model = Model::create("yolo9-t", 6, "cpu");
        QuantizeOptions o;
        o.recipe = "int8";
        QVERIFY(QString::fromStdString(error_of([&] { model.quantize(o); })).contains("'int8' is not available"));
        o.recipe = "fp4";
        QVERIFY(QString::fromStdString(error_of([&] { model.quantize(o); })).contains("unknown 'fp4'"));
        o = {};
        o.algorithm = "entropy";
        QVERIFY_THROWS_EXCEPTION(NotSupported, model.quantize(o));
        o = {};
        o.calib = dir_.filePath("missing.yaml").toStdString();
        QVERIFY(QString::fromStdString(error_of([&] { model.quantize(o); })).contains("missing.yaml"));
        o = {};
        o.keep_high_precision = std::vector<std::string>{"backbone.", "neck.", "head."};
        QVERIFY(QString::fromStdString(error_of([&] { model.quantize(o); })).contains("no quantizable modules"));
        o = {};
        o.samples = 0;
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, model.quantize(o));
        QVERIFY(!model.quant_info());
        QVERIFY(quant::prepared_convs(*model.impl().net).empty());

        model.quantize({});
        QVERIFY(QString::fromStdString(error_of([&] { model.quantize({}); })).contains("already quantized"));

        const std::string path = dir_.filePath("bad-manifest.safetensors").toStdString();
        model.save(path);
        io::TensorFile file = io::read_safetensors(path);
        file.metadata["quant"] = R"({"recipe": "fp8"})";
        io::write_safetensors(path, file.tensors, file.metadata);
        const QString bad = QString::fromStdString(error_of([&] { Model::load(path, "cpu"); }));
        QVERIFY2(bad.contains("bad-manifest.safetensors") && bad.contains("keep_high_precision"), qPrintable(bad));
    }
};

QTEST_APPLESS_MAIN(TestQuantize)
#include "test_quantize.moc"
