// safetensors: round trip, and every kind of broken or hostile file gives a FormatError.
#include <QtTest/QtTest>

#include "support/test_helpers.h"

#include <fstream>

#include "io/safetensors.h"
#include "libreyolo/errors.h"

using namespace libreyolo;
using libreyolo::testing::error_of;
using libreyolo::testing::read_all;

namespace {

std::string file_with_header(const std::string& json, const std::string& data) {
    std::string bytes(8, '\0');
    const std::uint64_t n = json.size();
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    return bytes + json + data;
}

}  // namespace

class TestSafetensors : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void roundTripsTensorsAndMetadata() {
        const std::string path = dir_.filePath("a.safetensors").toStdString();
        std::map<std::string, torch::Tensor> tensors = {{"w", torch::randn({3, 4})},
                                                        {"h", torch::randn({5}).to(torch::kFloat16)},
                                                        {"n", torch::tensor(int64_t(7))},
                                                        {"b", torch::tensor({1, 0, 1}).to(torch::kBool)},
                                                        {"empty", torch::empty({0, 3})}};
        io::write_safetensors(path, tensors, {{"nc", "80"}, {"names", "{\"0\": \"a\"}"}});
        const io::TensorFile f = io::read_safetensors(path);
        QCOMPARE(f.tensors.size(), tensors.size());
        for (const auto& [k, t] : tensors) {
            QVERIFY2(torch::equal(f.tensors.at(k), t), k.c_str());
            QCOMPARE(f.tensors.at(k).scalar_type(), t.scalar_type());
        }
        QCOMPARE(f.metadata.at("nc"), std::string("80"));
        // The data section starts 8-byte aligned, as the reference writer leaves it.
        const std::string bytes = read_all(path);
        std::uint64_t n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
        QCOMPARE(n % 8, std::uint64_t(0));
        QVERIFY(!QDir(dir_.path()).entryList(QDir::Hidden | QDir::Files).join(",").contains(".tmp"));

        // The layout alone: names, dtypes, shapes and metadata from the header, no data read.
        const io::TensorFile layout = io::read_safetensors_layout(path);
        QCOMPARE(layout.tensors.size(), tensors.size());
        for (const auto& [k, t] : tensors) {
            QVERIFY2(layout.tensors.at(k).is_meta(), k.c_str());
            QCOMPARE(layout.tensors.at(k).sizes().vec(), t.sizes().vec());
            QCOMPARE(layout.tensors.at(k).scalar_type(), t.scalar_type());
        }
        QCOMPARE(layout.metadata.at("names"), std::string("{\"0\": \"a\"}"));
        // A file cut inside its data section still fails: the header's offsets point past its end.
        const std::string cut = dir_.filePath("cut.safetensors").toStdString();
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 4);
        QVERIFY_THROWS_EXCEPTION(FormatError, io::read_safetensors_layout(cut));
    }

    void readsFilesWrittenByPythonSafetensors() {
        const io::TensorFile f = io::read_safetensors(LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/io.safetensors");
        QCOMPARE(f.tensors.at("input_u8").scalar_type(), torch::kUInt8);
        QCOMPARE(f.tensors.at("output").sizes().vec(), (std::vector<int64_t>{1, 84, 8400}));
    }

    void rejectsBrokenFiles_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string ok_entry = R"({"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
        auto row = [](const char* name, const std::string& b, const char* expected) {
            QTest::newRow(name) << QByteArray(b.data(), static_cast<qsizetype>(b.size())) << QString(expected);
        };
        row("empty", "", "shorter than the 8-byte header");
        row("huge header length", std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + "{}", "too large");
        row("header past end", file_with_header(ok_entry, "").substr(0, 20), "exceeds the file size");
        row("not json", file_with_header("{not json", ""), "not JSON");
        row("not object", file_with_header("[1,2]", ""), "not a JSON object");
        row("truncated data", file_with_header(ok_entry, "1234"), "outside");
        row("bad dtype", file_with_header(R"({"t":{"dtype":"F31","shape":[2],"data_offsets":[0,8]}})", "12345678"),
            "unsupported dtype 'F31'");
        row("negative shape",
            file_with_header(R"({"t":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", "12345678"), "negative");
        row("size mismatch", file_with_header(R"({"t":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", "12345678"),
            "do not hold");
        row("reversed offsets",
            file_with_header(R"({"t":{"dtype":"U8","shape":[0],"data_offsets":[8,0]}})", "12345678"), "outside");
        row("overlap",
            file_with_header(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                             R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                             "12345678"),
            "share bytes");
        row("missing fields", file_with_header(R"({"t":{"dtype":"F32"}})", ""), "lacks");
        row("metadata not strings", file_with_header(R"({"__metadata__":{"nc":80}})", ""), "not a string");
        row("giant shape",
            file_with_header(R"({"t":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,8]}})",
                             "12345678"),
            "implausibly large");
    }
    void rejectsBrokenFiles() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        try {
            io::parse_safetensors(bytes.toStdString(), "bad.safetensors");
            QFAIL("accepted a broken file");
        } catch (const FormatError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("bad.safetensors") != std::string::npos, e.what());
            QVERIFY2(message.find(expected.toStdString()) != std::string::npos, e.what());
        }
    }

    void truncatedRealFileIsAClearError() {
        const std::string bytes = read_all(LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors");
        const std::string path = dir_.filePath("cut.safetensors").toStdString();
        std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
        QVERIFY_THROWS_EXCEPTION(FormatError, io::read_safetensors(path));
        QVERIFY_THROWS_EXCEPTION(FileNotFound, io::read_safetensors(dir_.filePath("absent.safetensors").toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
