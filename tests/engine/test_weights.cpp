// Loading and saving checkpoints: fields, architecture read from weights, and named mismatches.
#include <QtTest/QtTest>

#include "support/test_helpers.h"

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "models/yolo9/yolo9.h"

using namespace libreyolo;
using libreyolo::testing::error_of;
using libreyolo::testing::read_all;

namespace {

const std::string kParityWeights = LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors";

}  // namespace

class TestWeights : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

    // Writes the parity weights with edit applied to tensors and metadata.
    std::string edited(
        const char* name,
        const std::function<void(std::map<std::string, torch::Tensor>&, std::map<std::string, std::string>&)>& edit) {
        io::TensorFile f = io::read_safetensors(kParityWeights);
        edit(f.tensors, f.metadata);
        io::write_safetensors(path(name), f.tensors, f.metadata);
        return path(name);
    }

private Q_SLOTS:
    void loadsLibreYOLOWeightsAndFields() {
        Model m = Model::load(kParityWeights, "cpu");
        const ModelInfo info = m.info();
        QCOMPARE(info.family, std::string("yolo9"));
        QCOMPARE(info.size, std::string("t"));
        QCOMPARE(info.nc, 80);
        QCOMPARE(info.names[3], std::string("class_3"));
        QCOMPARE(info.imgsz, 640);
        QVERIFY(info.pretrained);
        const auto file = io::read_safetensors(kParityWeights);
        const auto loaded = io::state_dict(*m.impl().net);
        for (const auto& [k, t] : file.tensors) QVERIFY2(torch::equal(loaded.at(k), t), k.c_str());
    }

    void saveThenLoadGivesTheSameModel() {
        Model a = Model::create("yolo9-t", 3, "cpu");
        a.save(path("three.safetensors"));
        Model b = Model::load(path("three.safetensors"), "cpu");
        QCOMPARE(b.info().nc, 3);
        QCOMPARE(b.info().names, a.info().names);
        const auto meta = io::read_safetensors(path("three.safetensors")).metadata;
        for (const char* field :
             {"schema_version", "libreyolo_version", "model_family", "size", "task", "nc", "names", "imgsz"})
            QVERIFY2(meta.count(field), field);
        torch::NoGradGuard g;
        const torch::Tensor x = torch::rand({1, 3, 128, 128});
        QVERIFY(torch::equal(a.impl().net->forward(x), b.impl().net->forward(x)));
    }

    void architectureIsReadFromTheWeights() {
        // No metadata at all: size from the stem width, nc and class-tower width from the head.
        Model fine_tuned = Model::create("yolo9-t", 2, "cpu");
        {
            auto& impl = fine_tuned.impl();
            impl.net = std::make_shared<models::yolo9::YOLO9Impl>("t", 2, 80);
        }
        io::write_safetensors(path("bare.safetensors"), io::state_dict(*fine_tuned.impl().net));
        Model loaded = Model::load(path("bare.safetensors"), "cpu");
        QCOMPARE(loaded.info().size, std::string("t"));
        QCOMPARE(loaded.info().nc, 2);
        QCOMPARE(io::state_dict(*loaded.impl().net).at("head.cv3.0.0.conv.weight").size(0), int64_t(80));
    }

    void wrongShapesNameTheKeys() {
        const std::string p = edited("shape.safetensors", [](auto& t, auto&) {
            t["backbone.conv1.conv.weight"] = torch::zeros({32, 16, 5, 5});
        });
        const std::string e = error_of([&] { Model::load(p, "cpu"); });
        QVERIFY2(e.find("shape mismatch: backbone.conv1.conv.weight") != std::string::npos, e.c_str());
        QVERIFY2(e.find("32x16x5x5") != std::string::npos, e.c_str());
        QVERIFY2(e.find("shape.safetensors") != std::string::npos, e.c_str());
    }

    void missingAndUnexpectedKeysAreNamed() {
        const std::string p = edited("keys.safetensors", [](auto& t, auto&) {
            t.erase("neck.elan_up1.cv4.bn.running_mean");
            t["head.extra.weight"] = torch::zeros({1});
        });
        const std::string e = error_of([&] { Model::load(p, "cpu"); });
        QVERIFY2(e.find("missing keys: neck.elan_up1.cv4.bn.running_mean") != std::string::npos, e.c_str());
        QVERIFY2(e.find("unexpected keys: head.extra.weight") != std::string::npos, e.c_str());
    }

    void weightsOfAnotherSizeAreRefused() {
        Model s = Model::create("yolo9-s", 80, "cpu");
        s.save(path("s.safetensors"));
        const std::string p = edited("lying.safetensors", [&](auto& t, auto& md) {
            t = io::read_safetensors(path("s.safetensors")).tensors;
            md["size"] = "t";
        });
        const std::string e = error_of([&] { Model::load(p, "cpu"); });
        QVERIFY2(e.find("size='t' but the weights are yolo9-s") != std::string::npos, e.c_str());
    }

    void badFieldsAndFilesAreClearErrors() {
        const std::string fam = edited("fam.safetensors", [](auto&, auto& md) { md["model_family"] = "yolo42"; });
        QVERIFY(error_of([&] { Model::load(fam, "cpu"); }).find("unknown model family 'yolo42'") != std::string::npos);
        const std::string nc = edited("nc.safetensors", [](auto&, auto& md) { md["nc"] = "eighty"; });
        QVERIFY(error_of([&] { Model::load(nc, "cpu"); }).find("field 'nc' is 'eighty'") != std::string::npos);
        const std::string names = edited("names.safetensors", [](auto&, auto& md) { md["names"] = "{oops"; });
        QVERIFY(error_of([&] { Model::load(names, "cpu"); }).find("'names' is not JSON") != std::string::npos);

        QFile pt(dir_.filePath("model.pt"));
        QVERIFY(pt.open(QIODevice::WriteOnly));
        pt.write("pickle");
        pt.close();
        QVERIFY(error_of([&] { Model::load(path("model.pt"), "cpu"); }).find("not a readable torch.save archive") !=
                std::string::npos);
        QVERIFY_THROWS_EXCEPTION(FileNotFound, Model::load(path("absent.safetensors"), "cpu"));
        QVERIFY(error_of([&] { Model::load("yolo9-tt.safetensors", "cpu"); }).find("no such file") !=
                std::string::npos);
        QVERIFY_THROWS_EXCEPTION(UnknownModel, Model::load("yolo9-q", "cpu"));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, Model::create("yolo9-t", 0, "cpu"));
    }
};

QTEST_APPLESS_MAIN(TestWeights)
#include "test_weights.moc"
