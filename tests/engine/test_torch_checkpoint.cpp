// LibreYOLO's .pt checkpoints read natively (io/torch_checkpoint.h): checkpoints LibreYOLO 1.6.0's
// own saving code wrote (tests/fixtures/pt_checkpoints and pt_pretrained, scripts/fixtures/
// make_pt_checkpoints.py and make_pt_pretrained.py) load to their safetensors twins' tensors and
// predict the same boxes as their twins and as LibreYOLO; views into shared storages
// come out right; hostile and broken files are refused with the file named, never executed,
// never a crash.
#include <QtTest/QtTest>

#include <caffe2/serialize/inline_container.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "io/safetensors.h"
#include "io/torch_checkpoint.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/train.h"
#include "model/model_impl.h"
#include "support/detection_compare.h"

using namespace libreyolo;
using namespace std::string_literals;  // pickles hold NUL bytes
namespace fs = std::filesystem;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/pt_checkpoints/";
const std::string kTwin = LIBREYOLO_FIXTURES_DIR "/yolox_parity/weights.safetensors";
const std::string kPretrained = LIBREYOLO_FIXTURES_DIR "/pt_pretrained/";

// What a pt_pretrained checkpoint must load to: its twin's pools seen through the views that
// LibreYOLO's side recorded, and the integer tensors as they are.
std::map<std::string, torch::Tensor> twin_tensors(const std::string& stem) {
    const io::TensorFile twin = io::read_safetensors(kPretrained + stem + ".twin.safetensors");
    std::map<std::string, torch::Tensor> tensors;
    for (const auto& [name, t] : twin.tensors)
        if (name.rfind("pool_", 0) != 0) tensors[name] = t;
    const nlohmann::json views = nlohmann::json::parse(twin.metadata.at("views"));
    for (const auto& [name, view] : views.items()) {
        const torch::Tensor& pool = twin.tensors.at("pool_" + std::to_string(view[0].get<int>()));
        tensors[name] = pool.as_strided(view[2].get<std::vector<int64_t>>(), view[3].get<std::vector<int64_t>>(),
                                        view[1].get<int64_t>());
    }
    return tensors;
}

// LibreYOLO's predictions after LibreYOLO(file) loaded the checkpoint, and the options they used.
std::pair<PredictOptions, std::vector<Detection>> libreyolo_predictions(const std::string& stem) {
    const auto j = nlohmann::json::parse(std::ifstream(kPretrained + stem + ".boxes.json"));
    PredictOptions o;
    o.imgsz = j["imgsz"];
    o.conf = j["conf"];
    o.iou = j["iou"];
    o.max_det = j["max_det"];
    return {o, testing::libreyolo_detections(j)};
}

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// A torch.save-shaped archive holding pickle as data.pkl and the given storages as data/<key>.
void write_archive(const std::string& path, const std::string& pickle,
                   const std::map<std::string, std::string>& storages = {}) {
    caffe2::serialize::PyTorchStreamWriter writer(path);
    writer.writeRecord("data.pkl", pickle.data(), pickle.size());
    writer.writeRecord("byteorder", "little", 6);
    for (const auto& [key, data] : storages) writer.writeRecord("data/" + key, data.data(), data.size());
    writer.writeEndOfFile();
}

// Pickle bytes (protocol 2, as torch.save writes) of {'w': _rebuild_tensor_v2(storage, offset, (n,),
// (1,), False, OrderedDict())}, the storage ('storage', FloatStorage, '0', 'cpu', numel).
std::string tensor_pickle(int numel, int offset, int n) {
    const auto byte = [](int v) { return std::string(1, static_cast<char>(v)); };
    return "\x80\x02}(X\x01\x00\x00\x00w"s +                                   // {'w':
           "ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storage"s +  // rebuild((
           "ctorch\nFloatStorage\nX\x01\x00\x00\x00"
           "0X\x03\x00\x00\x00"
           "cpuK"s +  // …, numel)
           byte(numel) +
           "tQK" + byte(offset) + "K" + byte(n) + "\x85K\x01\x85\x89" +  // offset, size, stride
           "ccollections\nOrderedDict\n)RtRu.";                          // hooks)}
}

std::string refusal(const std::string& path) {
    try {
        io::read_torch_checkpoint(path);
    } catch (const FormatError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

class TestTorchCheckpoint : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string temp(const char* name) const { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void libreyoloCheckpointLoadsToItsTwinsTensors() {
        const io::TensorFile pt = io::read_torch_checkpoint(kDir + "LibreYOLOXn-seeded-fp16.pt");
        const io::TensorFile twin = io::read_safetensors(kTwin);
        QCOMPARE(pt.tensors.size(), twin.tensors.size());
        for (const auto& [name, t] : twin.tensors) {
            const torch::Tensor expected = t.is_floating_point() ? t.to(torch::kFloat16) : t;
            QVERIFY2(pt.tensors.count(name) && torch::equal(pt.tensors.at(name), expected), name.c_str());
        }
        QCOMPARE(pt.metadata.at("model_family"), std::string("yolox"));
        QCOMPARE(pt.metadata.at("size"), std::string("n"));
        QCOMPARE(pt.metadata.at("nc"), std::string("80"));
        QCOMPARE(pt.metadata.at("imgsz"), std::string("416"));
        QCOMPARE(nlohmann::json::parse(pt.metadata.at("names"))["7"].get<std::string>(), std::string("thing7"));
    }

    // Model::load takes the .pt as any weights file: the same boxes as the twin whose weights took
    // the same trip through float16.
    void aPtModelPredictsAsItsTwin() {
        Model from_pt = Model::load(kDir + "LibreYOLOXn-seeded-fp16.pt", "cpu");
        QCOMPARE(from_pt.info().family, std::string("yolox"));
        QCOMPARE(from_pt.info().names.at(3), std::string("thing3"));
        QVERIFY(from_pt.info().pretrained);
        Model twin = Model::load(kTwin, "cpu");
        {
            torch::NoGradGuard no_grad;
            for (auto& t : io::state_dict(*twin.impl().net))
                if (t.second.is_floating_point()) t.second.copy_(t.second.to(torch::kFloat16).to(torch::kFloat32));
        }
        PredictOptions o;
        o.conf = 0.05f;
        const Result a = from_pt.predict(LIBREYOLO_SAMPLE_IMAGE, o).front();
        const Result b = twin.predict(LIBREYOLO_SAMPLE_IMAGE, o).front();
        QVERIFY(!a.boxes.empty());
        QCOMPARE(a.boxes.size(), b.boxes.size());
        for (std::size_t i = 0; i < a.boxes.size(); ++i) {
            QCOMPARE(a.boxes[i].cls, b.boxes[i].cls);
            QCOMPARE(a.boxes[i].conf, b.boxes[i].conf);
            QCOMPARE(a.boxes[i].x1, b.boxes[i].x1);
        }
        QCOMPARE(train_defaults(kDir + "LibreYOLOXn-seeded-fp16.pt").scheduler, libreyolo::LrScheduler::YoloxWarmCos);
    }

    // Stand-ins for LibreYOLO9t.pt and LibreRTDETRr18.pt that LibreYOLO's own BaseModel.save wrote
    // (tests/fixtures/pt_pretrained, scripts/fixtures/make_pt_pretrained.py): every tensor as in the
    // twin, and the boxes LibreYOLO predicted after loading the file, and the twin's.
    void pretrainedStandInsLoadAndPredictAsLibreYOLO_data() {
        QTest::addColumn<QString>("stem");
        QTest::addColumn<QString>("family");
        QTest::addColumn<QString>("size");
        QTest::newRow("yolo9-t") << "LibreYOLO9t-seeded"
                                 << "yolo9"
                                 << "t";
        QTest::newRow("rtdetr-r18") << "LibreRTDETRr18-seeded"
                                    << "rtdetr"
                                    << "r18";
    }
    void pretrainedStandInsLoadAndPredictAsLibreYOLO() {
        QFETCH(QString, stem);
        QFETCH(QString, family);
        QFETCH(QString, size);
        const std::string path = kPretrained + stem.toStdString() + ".pt";
        const io::TensorFile pt = io::read_torch_checkpoint(path);
        const auto expected = twin_tensors(stem.toStdString());
        QCOMPARE(pt.tensors.size(), expected.size());
        for (const auto& [name, t] : expected)
            QVERIFY2(pt.tensors.count(name) && torch::equal(pt.tensors.at(name), t), name.c_str());
        QCOMPARE(pt.metadata.at("model_family"), family.toStdString());
        QCOMPARE(pt.metadata.at("size"), size.toStdString());

        Model from_pt = Model::load(path, "cpu");
        QCOMPARE(from_pt.info().family, family.toStdString());
        Model twin = Model::create(family.toStdString() + "-" + size.toStdString(), 80, "cpu");
        io::load_state_dict(*twin.impl().net, expected, stem.toStdString() + " twin");
        const auto [options, theirs] = libreyolo_predictions(stem.toStdString());
        const Result ours = from_pt.predict(LIBREYOLO_SAMPLE_IMAGE, options).front();
        QVERIFY(!theirs.empty());
        testing::compare_detections(ours.boxes, theirs, 1e-4f);
        testing::compare_detections(ours.boxes, twin.predict(LIBREYOLO_SAMPLE_IMAGE, options).front().boxes, 0.0f);
    }

    void viewsOfSharedStoragesComeOutRight() {
        const io::TensorFile pt = io::read_torch_checkpoint(kDir + "bare_views.pt");
        QVERIFY(pt.metadata.empty());  // a bare state dict has no fields
        const auto expected = nlohmann::json::parse(std::ifstream(kDir + "bare_views.json"));
        for (const auto& [name, values] : expected.items()) {
            const torch::Tensor t = pt.tensors.at(name);
            QVERIFY2(t.is_contiguous(), name.c_str());
            const auto flat = t.flatten();
            std::vector<double> ours;
            for (int64_t i = 0; i < flat.numel(); ++i) ours.push_back(flat[i].item<double>());
            std::vector<double> theirs;
            const std::function<void(const nlohmann::json&)> collect = [&](const nlohmann::json& j) {
                if (j.is_array())
                    for (const auto& x : j) collect(x);
                else
                    theirs.push_back(j.is_boolean() ? double(j.get<bool>()) : j.get<double>());
            };
            collect(values);
            QVERIFY2(ours == theirs, name.c_str());
        }
        QCOMPARE(pt.tensors.at("transposed").sizes().vec(), (std::vector<int64_t>{6, 4}));
        QCOMPARE(pt.tensors.at("counts").scalar_type(), torch::kInt64);
        QCOMPARE(pt.tensors.at("flags").scalar_type(), torch::kBool);
    }

    void aWellFormedHandMadeArchiveLoads() {
        write_archive(temp("good.pt"), tensor_pickle(4, 1, 3), {{"0", std::string(16, '\0')}});
        const io::TensorFile f = io::read_torch_checkpoint(temp("good.pt"));
        QCOMPARE(f.tensors.at("w").sizes().vec(), (std::vector<int64_t>{3}));
    }

    void hostilePicklesAreRefusedNamingWhatTheyAskFor() {
        const struct {
            const char* name;
            std::string pickle;
            const char* says;
        } cases[] = {
            {"system.pt",
             "\x80\x02"
             "cos\nsystem\nX\x04\x00\x00\x00"
             "echo\x85R."s,
             "'os.system'"},
            {"eval.pt",
             "\x80\x02"
             "cbuiltins\neval\nX\x01\x00\x00\x00"
             "1\x85R."s,
             "'builtins.eval'"},
            {"class.pt",
             "\x80\x02"
             "clibreyolo.evil\nPayload\n)\x81."s,
             "'libreyolo.evil.Payload'"},
            {"stack_global.pt", "\x80\x04\x8c\x02os\x8c\x06system\x93."s, "'os.system'"},
            {"recursive.pt",
             "\x80\x02]q\x00h\x00"
             "a."s,
             "contains itself"},
            {"huge_string.pt",
             "\x80\x02X\xf0\xff\xff\xff"
             "abc."s,
             "truncated"},
            {"no_stop.pt", "\x80\x02}"s, "truncated"},
            {"opcode.pt", "\x80\x02I1\n."s, "opcode 0x49"},
            {"bad_memo.pt", "\x80\x02h\x07."s, "memo entry 7"},
            {"not_a_dict.pt", "\x80\x02]."s, "not a dict"},
        };
        for (const auto& c : cases) {
            write_archive(temp(c.name), c.pickle);
            const std::string message = refusal(temp(c.name));
            QVERIFY2(message.find(c.says) != std::string::npos && message.find(c.name) != std::string::npos,
                     qPrintable(QString("%1: %2").arg(c.name, QString::fromStdString(message))));
        }
    }

    // 10^5 levels: far deeper than a recursive reader or a recursive teardown could survive. Each is
    // refused while it is read, naming the file, and freeing what was built does not recurse deeply.
    void deepStructuresAreRefusedWhileRead() {
        constexpr int kLevels = 100000;
        const auto repeat = [](const std::string& s, int n) {
            std::string out;
            for (int i = 0; i < n; ++i) out += s;
            return out;
        };
        const auto memo_op = [](char op, uint32_t i) {  // LONG_BINPUT / LONG_BINGET with a 4-byte index
            std::string s(1, op);
            s.append(reinterpret_cast<const char*>(&i), sizeof i);
            return s;
        };
        const auto long_binput = [&](uint32_t i) { return memo_op('r', i); };
        const auto long_binget = [&](uint32_t i) { return memo_op('j', i); };
        // A list built from the top down: each new list is appended to the previous one, fetched
        // from the memo, and the innermost holds the outermost.
        std::string cycle = "]" + long_binput(0);
        for (uint32_t i = 1; i < kLevels; ++i) cycle += long_binget(i - 1) + "]" + long_binput(i) + "a";
        cycle += long_binget(kLevels - 1) + long_binget(0) + "a";
        const struct {
            const char* name;
            std::string pickle;
            const char* says;
        } cases[] = {
            {"deep_lists.pt", repeat("]", kLevels) + repeat("a", kLevels - 1), "nested more than 256"},
            {"deep_dicts.pt", "}" + repeat("K\x00}"s, kLevels - 1) + repeat("s", kLevels - 1), "nested more than 256"},
            {"deep_tuples.pt", ")" + repeat("\x85", kLevels), "nested more than 256"},
            {"deep_cycle.pt", cycle, "contains itself"},
        };
        for (const auto& c : cases) {
            write_archive(temp(c.name), "\x80\x02" + c.pickle + "."s);
            const std::string message = refusal(temp(c.name));
            QVERIFY2(message.find(c.says) != std::string::npos && message.find(c.name) != std::string::npos,
                     qPrintable(QString("%1: %2").arg(c.name, QString::fromStdString(message))));
        }
    }

    void storagesThatDoNotHoldTheirTensorsAreRefused() {
        // The view reaches past the storage's end.
        write_archive(temp("offset.pt"), tensor_pickle(4, 3, 3), {{"0", std::string(16, '\0')}});
        QVERIFY2(refusal(temp("offset.pt")).find("reaching element 5 of a storage of 4") != std::string::npos,
                 refusal(temp("offset.pt")).c_str());
        // The storage declares more elements than its record holds.
        write_archive(temp("short.pt"), tensor_pickle(100, 0, 3), {{"0", std::string(16, '\0')}});
        QVERIFY(refusal(temp("short.pt")).find("declares 100 elements") != std::string::npos);
        // A storage the archive lacks.
        write_archive(temp("missing.pt"), tensor_pickle(4, 0, 3));
        QVERIFY(refusal(temp("missing.pt")).find("no record 'data/0'") != std::string::npos);
    }

    void brokenArchivesGiveAClearError() {
        const std::string good = bytes_of(kDir + "bare_views.pt");
        std::ofstream(temp("truncated.pt"), std::ios::binary) << good.substr(0, good.size() / 2);
        std::ofstream(temp("text.pt"), std::ios::binary) << "not a pickle";
        std::string corrupt = good;
        const std::size_t pickle_at = good.find("PK\x03\x04") + 100;  // inside the first record, data.pkl
        for (std::size_t i = pickle_at; i < pickle_at + 40; ++i) corrupt[i] = '\x5a';
        std::ofstream(temp("corrupt.pt"), std::ios::binary) << corrupt;
        for (const char* name : {"truncated.pt", "text.pt", "corrupt.pt"}) {
            const std::string message = refusal(temp(name));
            QVERIFY2(message.find(name) != std::string::npos,
                     qPrintable(QString("%1: %2").arg(name).arg(message.c_str())));
        }
        // Through Model::load too, as every command reaches it.
        QVERIFY_THROWS_EXCEPTION(FormatError, Model::load(temp("text.pt"), "cpu"));
    }
};

QTEST_GUILESS_MAIN(TestTorchCheckpoint)
#include "test_torch_checkpoint.moc"
