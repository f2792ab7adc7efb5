// ONNX export (model/onnx_export.h): a YOLOv9 written by its own modules passes ONNX's checker,
// with LibreYOLO's input and output names, the declared shapes (fixed or a symbolic batch), its
// metadata, and every folded convolution's weights stored under the module's name; ONNX Runtime
// (the test venv's onnxruntime, CPU, graph rewrites off) runs the file to the engine's outputs,
// at two batch sizes when the batch is dynamic; bad requests are refused with the field named.
#include <QtTest/QtTest>

#include <QProcess>

#include <fstream>
#include <sstream>

#include "io/safetensors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "model/onnx_export.h"
#include "onnx/model_proto.h"

using namespace libreyolo;

namespace {

onnx::ModelSummary read_model(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return onnx::read_model_summary(bytes.str());
}

// ONNX Runtime's output for images, through scripts/onnx_run.py; undefined when the venv lacks
// onnxruntime.
torch::Tensor run_onnx_runtime(const std::filesystem::path& model, const torch::Tensor& images,
                               const QTemporaryDir& dir) {
    const std::filesystem::path in = dir.filePath("ort-in.safetensors").toStdString();
    const std::filesystem::path out = dir.filePath("ort-out.safetensors").toStdString();
    io::write_safetensors(in, {{"images", images}});
    QProcess p;
    p.start(LIBREYOLO_TEST_PYTHON,
            {QString(LIBREYOLO_SOURCE_DIR) + "/scripts/onnx_run.py", QString::fromStdString(model.string()),
             QString::fromStdString(in.string()), QString::fromStdString(out.string())});
    p.waitForFinished(300000);
    if (p.exitCode() != 0) {
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (err.contains("No module named 'onnxruntime'")) return {};
        throw std::runtime_error("onnx_run.py failed: " + err.toStdString());
    }
    return io::read_safetensors(out).tensors.at("output");
}

}  // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private Q_SLOTS:
    void yolo9WritesACheckedGraph_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("dynamic");
        QTest::newRow("yolo9-t fixed batch 2") << "yolo9-t" << false;
        QTest::newRow("yolo9-t dynamic") << "yolo9-t" << true;
        QTest::newRow("yolo9-s") << "yolo9-s" << false;
        QTest::newRow("yolo9-m") << "yolo9-m" << false;
        QTest::newRow("yolo9-c") << "yolo9-c" << false;
    }
    void yolo9WritesACheckedGraph() {
        QFETCH(QString, name);
        QFETCH(bool, dynamic);
        Model model = Model::create(name.toStdString(), 3, "cpu");
        OnnxExportOptions o;
        o.imgsz = 64;
        o.batch = 2;
        o.dynamic = dynamic;
        o.output = dir_.filePath(name + ".onnx").toStdString();
        QVERIFY(export_onnx(model.impl(), o) > 0);
        const onnx::ModelSummary m = read_model(o.output);
        QCOMPARE(m.inputs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(m.inputs[0].name), QString("images"));
        QCOMPARE(QString::fromStdString(m.outputs.at(0).name), QString("output"));
        QCOMPARE(m.opset, int64_t{13});
        const std::string batch = dynamic ? "batch" : "2";
        QCOMPARE(m.inputs[0].dims, (std::vector<std::string>{batch, "3", "64", "64"}));
        // 8x8 + 4x4 + 2x2 anchors at 64.
        QCOMPARE(m.outputs[0].dims, (std::vector<std::string>{batch, "7", "84"}));
        QCOMPARE(QString::fromStdString(m.metadata.at("model_family")), QString("yolo9"));
        QCOMPARE(QString::fromStdString(m.metadata.at("nc")), QString("3"));
        QCOMPARE(QString::fromStdString(m.metadata.at("imgsz")), QString("64"));
        QCOMPARE(QString::fromStdString(m.metadata.at("dynamic")), QString(dynamic ? "True" : "False"));
        QVERIFY2(m.metadata.at("names").starts_with("{\"0\": "), m.metadata.at("names").c_str());
        // The first convolution's folded weight, stored under its module's name.
        const torch::Tensor want = model.impl().fused->named_parameters()["backbone.conv0.conv.weight"].contiguous();
        const std::string& raw = m.initializers.at("backbone.conv0.conv.weight");
        QCOMPARE(raw.size(), static_cast<std::size_t>(want.numel() * 4));
        QVERIFY(std::memcmp(raw.data(), want.data_ptr(), raw.size()) == 0);
    }

    // Within 1e-4 of the engine's own forward, as exported (the fused copy), and of the eager
    // network; with a dynamic batch at two batch sizes.
    void onnxRuntimeGivesTheEngineOutputs_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("dynamic");
        for (const char* n : {"yolo9-t", "yolo9-s", "yolo9-m", "yolo9-c"}) QTest::newRow(n) << n << false;
        QTest::newRow("yolo9-t dynamic") << "yolo9-t" << true;
    }
    void onnxRuntimeGivesTheEngineOutputs() {
        QFETCH(QString, name);
        QFETCH(bool, dynamic);
        torch::manual_seed(0);
        Model model = Model::create(name.toStdString(), 5, "cpu");
        OnnxExportOptions o;
        o.imgsz = 96;
        o.batch = 2;
        o.dynamic = dynamic;
        o.output = dir_.filePath(name + "-ort.onnx").toStdString();
        export_onnx(model.impl(), o);
        for (const int64_t batch : dynamic ? std::vector<int64_t>{1, 3} : std::vector<int64_t>{2}) {
            const torch::Tensor images = torch::rand({batch, 3, 96, 96});
            const torch::Tensor got = run_onnx_runtime(o.output, images, dir_);
            if (!got.defined()) QSKIP("the venv Python lacks onnxruntime (run scripts/setup.sh)");
            torch::InferenceMode guard;
            const torch::Tensor fused = model.impl().forward(images, GraphMode::Off, true);
            const torch::Tensor eager = model.impl().net->forward(images);
            QCOMPARE(got.sizes().vec(), eager.sizes().vec());
            const float to_fused = (got - fused).abs().max().item<float>();
            const float to_eager = (got - eager).abs().max().item<float>();
            qInfo("%s batch %lld: |ORT - fused| %.3g, |ORT - eager| %.3g", qPrintable(name),
                  static_cast<long long>(batch), to_fused, to_eager);
            QVERIFY2(to_fused <= 1e-4f, qPrintable(QString::number(to_fused)));
            QVERIFY2(to_eager <= 1e-4f, qPrintable(QString::number(to_eager)));
        }
    }

    void badRequestsAreRefused() {
        Model model = Model::create("yolo9-t", 3, "cpu");
        OnnxExportOptions o;
        o.output = dir_.filePath("bad.onnx").toStdString();
        o.imgsz = 100;
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, export_onnx(model.impl(), o));
        o.imgsz = 64;
        o.opset = 11;
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, export_onnx(model.impl(), o));
        QVERIFY(!std::filesystem::exists(o.output));
    }
};

QTEST_GUILESS_MAIN(TestOnnxExport)
#include "test_onnx_export.moc"
