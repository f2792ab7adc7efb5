// The `libreyolo` command line, run as a user runs it.
#include <QtTest/QtTest>

#include <caffe2/serialize/inline_container.h>
#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "io/safetensors.h"
#include "libreyolo/options.h"

using libreyolo::OptionSpec;
using libreyolo::train_option_schema;
using libreyolo::train_options_markdown;

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

Run run_cli(const QStringList& args, const QString& cwd = QString()) {
    QProcess p;
    if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
    p.start(LIBREYOLO_CLI_PATH, args);
    p.waitForFinished(600000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

const QString kWeights = LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors";

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void versionAndHelp() {
        Run r = run_cli({"version"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("libtorch  2."), qPrintable(r.out));
        r = run_cli({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("predict"));
        for (const char* command : {"predict", "info", "convert", "quantize"}) {
            r = run_cli({command, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY(r.out.contains(QString("libreyolo %1").arg(command)));
        }
    }

    // The train command's keys, help and checks come from the options schema; `cfg` prints the
    // options a run starts from and the docs table.
    void trainOptionsComeFromTheSchema() {
        Run r = run_cli({"train", "--help"});
        QCOMPARE(r.code, 0);
        for (const OptionSpec& spec : train_option_schema())
            QVERIFY2(r.out.contains(QString::fromStdString("  " + spec.key + "=")), spec.key.c_str());
        QVERIFY2(r.out.contains("[AdamW; yolo9, yolox SGD]"), qPrintable(r.out));
        r = run_cli({"train", "data=x.yaml", "epoch=3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("did you mean 'epochs'"), qPrintable(r.err));
        r = run_cli({"train", "data=x.yaml", "lrf=0.1", "min_lr_ratio=0.2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("given twice"), qPrintable(r.err));
        r = run_cli({"train", "data=x.yaml", "optimizer=Lion"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("optimizer=Lion"), qPrintable(r.err));
        r = run_cli({"cfg", "model=rtdetr-r18", "epochs=5"});
        QCOMPARE(r.code, 0);
        const YAML::Node cfg = YAML::Load(r.out.toStdString());
        QCOMPARE(cfg["optimizer"].as<std::string>(), std::string("AdamW"));
        QCOMPARE(cfg["epochs"].as<int>(), 5);
        QCOMPARE(cfg.size(), train_option_schema().size());
        r = run_cli({"cfg", "--markdown"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out.toStdString(), train_options_markdown());
    }

    void infoPrintsTheParameterCount() {
        Run r = run_cli({"info", "model=yolo9-t"});
        QVERIFY2(r.out.contains("weights     LibreYOLO9t.pt"), qPrintable(r.out));
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("parameters  2,036,544"), qPrintable(r.out));
        QVERIFY(r.out.contains("GFLOPs"));
        r = run_cli({"info", "model=yolo9-c", "--json"});
        QCOMPARE(r.code, 0);
        QCOMPARE(nlohmann::json::parse(r.out.toStdString())["parameters"].get<long long>(), 25498736LL);
        r = run_cli({"info", "model=" + kWeights});
        QVERIFY(r.out.contains("source      " + kWeights));
    }

    // The file issue 43 reported: a valid torch.save archive whose data.pkl is 200,000 nested empty
    // lists. The process must refuse it, naming the file, not crash.
    void infoRefusesADeepPickle() {
        std::string pickle = "\x80\x02";
        pickle += std::string(200000, ']') + std::string(199999, 'a') + ".";
        const QString path = dir_.filePath("deep.pt");
        {
            caffe2::serialize::PyTorchStreamWriter writer(path.toStdString());
            writer.writeRecord("data.pkl", pickle.data(), pickle.size());
            writer.writeRecord("byteorder", "little", 6);
            writer.writeEndOfFile();
        }
        const Run r = run_cli({"info", "model=" + path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(path) && r.err.contains("nested more than 256"), qPrintable(r.err));
    }

    void predictPrintsBoxes() {
        const Run r = run_cli({"predict", "model=" + kWeights, "source=" LIBREYOLO_SAMPLE_IMAGE, "device=cpu"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("image 1 ") && r.out.contains(": 640x427 "), qPrintable(r.out));
        QVERIFY(r.out.contains("class_78"));
        QVERIFY(r.out.contains("Speed:") && r.out.contains("(median of 1)"));
        QVERIFY(r.out.count('[') > 100);  // one line per box
    }

    void predictJsonAndSave() {
        const Run r = run_cli({"predict", "model=" + kWeights, "source=" LIBREYOLO_SAMPLE_IMAGE, "imgsz=320",
                               "save=true", "project=" + dir_.filePath("runs"), "name=cli", "--json"});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j.size(), std::size_t(1));
        QVERIFY(j[0]["boxes"].size() > 0);
        QVERIFY(j[0]["boxes"][0].contains("xyxy"));
        QVERIFY(QFile::exists(dir_.filePath("runs/cli/shapes.png")));
        QVERIFY2(r.err.contains("Results saved to"), qPrintable(r.err));
    }

    void predictWithoutArgumentsUsesTheDemoModelAndSampleImage() {
        const Run r = run_cli({"predict", "device=cpu"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("shapes.png"));
        QVERIFY2(r.out.contains("circle") && r.out.contains("star") && r.out.contains("triangle"), qPrintable(r.out));
        QVERIFY2(!r.err.contains("random weights"), qPrintable(r.err));
        const Run random = run_cli({"predict", "model=yolo9-t", "pretrained=false", "device=cpu"});
        QCOMPARE(random.code, 0);
        QVERIFY2(random.err.contains("random weights"), qPrintable(random.err));
    }

    // D-FINE and DEIM from the command line: one epoch with the family's recipe, its loss columns
    // printed, and a checkpoint that predicts.
    void dfineAndDeimTrain() {
        const QString data = dir_.filePath("detr-shapes");
        Run r = run_cli({"synth", "out=" + data, "n=5", "imgsz=256", "seed=6"});
        QCOMPARE(r.code, 0);
        for (const QString family : {"dfine", "deim"}) {
            r = run_cli({"train", "model=" + family + "-n", "pretrained=false", "data=" + data + "/data.yaml",
                         "epochs=1", "batch=2", "imgsz=256", "multi_scale=false", "device=cpu", "workers=1",
                         "project=" + dir_.filePath("runs"), "name=" + family});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY2(r.out.contains(family == "deim" ? "mal" : "vfl") && r.out.contains("ddf"), qPrintable(r.out));
            // The run's options, as LibreYOLO's train_config.yaml.
            const YAML::Node cfg = YAML::LoadFile(dir_.filePath("runs/" + family + "/train_config.yaml").toStdString());
            QCOMPARE(cfg["epochs"].as<int>(), 1);
            QCOMPARE(cfg["optimizer"].as<std::string>(), std::string("AdamW"));
            QVERIFY(!cfg["multi_scale"].as<bool>());
            r = run_cli({"predict", "model=" + dir_.filePath("runs/" + family + "/weights/last.safetensors"),
                         "source=" + data + "/images/val", "imgsz=256", "device=cpu"});
            QVERIFY2(r.code == 0, qPrintable(r.err));
        }
    }

    void fusedAttentionSaysHowManyModulesItSwitched() {
        const Run r = run_cli({"predict", "device=cpu", "fused_attention=true"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.err.contains("fused_attention=true: 0 attention modules (this model has none"), qPrintable(r.err));
        QVERIFY(r.out.contains("shapes.png"));
    }

    void kernelsListsSlotsAndPlugins() {
        const Run r = run_cli({"kernels"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("nms —") && r.out.contains("fake_quant_fp8 —") && r.out.contains("plugins:"),
                 qPrintable(r.out));
    }

    void synthThenCheck() {
        const QString out = dir_.filePath("shapes");
        Run r = run_cli({"synth", "out=" + out, "n=6", "imgsz=96", "seed=2"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("wrote 5 train + 1 val images"));
        QFile label(out + "/labels/train/000000.txt");
        QVERIFY(label.open(QIODevice::Append));
        label.write("4 0.5 0.5 1.5 0.2\n");
        label.close();
        r = run_cli({"check", "data=" + out + "/data.yaml"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("000000.txt:") && r.out.contains("out of range"), qPrintable(r.out));
        r = run_cli({"val", "data=" + out + "/data.yaml", "device=cpu", "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(nlohmann::json::parse(r.out.toStdString()).contains("mAP50-95"));
        r = run_cli({"check", "data=" + dir_.filePath("nope.yaml")});
        QCOMPARE(r.code, 1);
        QVERIFY(r.err.contains("nope.yaml"));
    }

    // RT-DETR from the command line: predict on a model name, then one epoch of training with its
    // recipe, whose checkpoint predicts.
    void rtdetrPredictsAndTrains() {
        Run r = run_cli({"predict", "model=rtdetr-r18", "pretrained=false", "source=" LIBREYOLO_SAMPLE_IMAGE,
                         "imgsz=160", "device=cpu"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.out.contains("imgsz 160"));
        const QString data = dir_.filePath("rtdetr-shapes");
        r = run_cli({"synth", "out=" + data, "n=5", "imgsz=160", "seed=6"});
        QCOMPARE(r.code, 0);
        r = run_cli({"train", "model=rtdetr-r18", "pretrained=false", "data=" + data + "/data.yaml", "epochs=1",
                     "batch=2", "imgsz=160", "device=cpu", "workers=1", "project=" + dir_.filePath("runs"),
                     "name=rtdetr"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("vfl") && r.out.contains("giou"), qPrintable(r.out));
        r = run_cli({"predict", "model=" + dir_.filePath("runs/rtdetr/weights/last.safetensors"),
                     "source=" + data + "/images/val", "imgsz=160", "device=cpu"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    void quantizeWritesACheckpointThatLoadsQuantized() {
        const QString data = dir_.filePath("qshapes");
        Run r = run_cli({"synth", "out=" + data, "n=6", "imgsz=96", "seed=4"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString out = dir_.filePath("demo-fp8.safetensors");
        r = run_cli({"quantize", "calib=" + data + "/data.yaml", "imgsz=96", "device=cpu", "out=" + out, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const auto j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(j["recipe"].get<std::string>(), std::string("fp8"));
        QVERIFY(j["calibrated"].get<bool>());
        QCOMPARE(j["calib_samples"].get<int>(), 5);
        QVERIFY(j["module_counts"]["conv_fp8"].get<int>() > 50);
        r = run_cli({"info", "model=" + out});
        QVERIFY2(r.out.contains("quant       fp8, simulated"), qPrintable(r.out));
        r = run_cli({"predict", "model=" + out, "source=" + data + "/images/val", "device=cpu"});
        QVERIFY2(r.code == 0, qPrintable(r.err));

        r = run_cli({"quantize", "device=cpu"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("calib"));
        r = run_cli({"quantize", "calib=" + dir_.filePath("nowhere"), "device=cpu"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("calib: ") && r.err.contains("nowhere"), qPrintable(r.err));
        r = run_cli({"quantize", "calib=none", "recipe=int8", "device=cpu"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("'int8' is not available"), qPrintable(r.err));
    }

    void badInputIsExplained_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("not key=value") << QStringList{"predict", "photo.jpg"} << 2 << "'photo.jpg' is not key=value";
        QTest::newRow("key and value apart") << QStringList{"predict", "conf", "0.4"} << 2 << "write 'conf=0.4'";
        QTest::newRow("imgsz off the stride") << QStringList{"predict", "imgsz=100"} << 2 << "try 96 or 128";
        QTest::newRow("typo key") << QStringList{"predict", "confs=0.3"} << 2 << "did you mean 'conf'";
        QTest::newRow("bad number") << QStringList{"predict", "imgsz=big"} << 2 << "imgsz=big";
        QTest::newRow("bad device") << QStringList{"predict", "device=tpu"} << 2 << "'tpu' is not a device";
        QTest::newRow("unknown size") << QStringList{"info", "model=yolo9-x"} << 1 << "unknown size 'x'";
        QTest::newRow("typo model") << QStringList{"info", "model=yolp9-t"} << 1 << "did you mean 'yolo9-t'";
        QTest::newRow("missing source") << QStringList{"predict", "source=/no/such.jpg"} << 1 << "/no/such.jpg";
        QTest::newRow("unsupported ext") << QStringList{"predict", "source=" LIBREYOLO_SOURCE_DIR "/CMakeLists.txt"}
                                         << 1 << "unsupported file type '.txt'";
        QTest::newRow("typo command") << QStringList{"predcit"} << 2 << "did you mean 'predict'";
        QTest::newRow("convert without input") << QStringList{"convert"} << 2 << "name the input checkpoint";
        QTest::newRow("check without data") << QStringList{"check"} << 2 << "name the dataset YAML";
        QTest::newRow("val without data") << QStringList{"val"} << 2 << "name the dataset YAML";
        QTest::newRow("synth without out") << QStringList{"synth", "n=4"} << 2 << "out: name the dataset folder";
    }
    void badInputIsExplained() {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = run_cli(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void convertsALibreYOLOCheckpoint() {
        const QString python = LIBREYOLO_TEST_PYTHON;
        QProcess check;
        check.start(python, {"-c", "import torch, safetensors"});
        check.waitForFinished(120000);
        if (check.exitCode() != 0) QSKIP("the venv Python lacks torch/safetensors (run scripts/setup.sh)");

        // A checkpoint as LibreYOLO's model.save() writes it: torch.save of the wrapped state dict.
        const QString pt = dir_.filePath("LibreYOLO9t.pt");
        const QString make = QString(R"(
import torch, sys
from safetensors.torch import load_file
sd = load_file(sys.argv[1])
torch.save({"model": sd, "schema_version": "1.0", "libreyolo_version": "1.6.0", "model_family": "yolo9",
            "size": "t", "task": "detect", "nc": 80, "names": {i: f"thing{i}" for i in range(80)}, "imgsz": 640}, sys.argv[2])
)");
        QProcess p;
        p.start(python, {"-c", make, kWeights, pt});
        p.waitForFinished(120000);
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());

        const QString out = dir_.filePath("converted.safetensors");
        const Run r = run_cli({"convert", pt, out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("yolo9-t detect, 80 classes, 2,036,544 parameters"), qPrintable(r.out));
        const auto a = libreyolo::io::read_safetensors(kWeights.toStdString());
        const auto b = libreyolo::io::read_safetensors(out.toStdString());
        QCOMPARE(a.tensors.size(), b.tensors.size());
        for (const auto& [k, t] : a.tensors) QVERIFY2(torch::equal(b.tensors.at(k), t), k.c_str());
        QCOMPARE(nlohmann::json::parse(b.metadata.at("names"))["5"].get<std::string>(), std::string("thing5"));
        const Run info = run_cli({"predict", "model=" + out, "source=" LIBREYOLO_SAMPLE_IMAGE, "imgsz=320"});
        QVERIFY2(info.out.contains("thing78"), qPrintable(info.out));

        QFile bad(dir_.filePath("bad.pt"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("not a pickle");
        bad.close();
        const Run broken = run_cli({"convert", dir_.filePath("bad.pt"), dir_.filePath("bad.safetensors")});
        QCOMPARE(broken.code, 1);
        QVERIFY2(broken.err.contains("bad.pt"), qPrintable(broken.err));
        QVERIFY(!QFile::exists(dir_.filePath("bad.safetensors")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
