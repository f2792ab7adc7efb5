// The synthetic shapes dataset: layout, valid labels, determinism by seed, bad options.
#include <QtTest/QtTest>

#include "support/test_helpers.h"

#include <opencv2/imgcodecs.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "image/raw_image_codecs.h"
#include "libreyolo/errors.h"
#include "libreyolo/synth.h"

using namespace libreyolo;
using libreyolo::testing::error_of;
using libreyolo::testing::read_all;
namespace fs = std::filesystem;

class TestSynth : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fs::path root() const { return dir_.path().toStdString(); }

    SynthOptions options(const char* name, std::uint64_t seed) const {
        SynthOptions o;
        o.out = (root() / name).string();
        o.n = 10;
        o.imgsz = 160;
        o.seed = seed;
        return o;
    }

private Q_SLOTS:
    void writesAYoloDataset() {
        const SynthSummary s = render_synthetic_dataset(options("a", 7));
        QCOMPARE(s.train_images, 8);
        QCOMPARE(s.val_images, 2);
        QVERIFY(s.objects >= 10);
        const fs::path a = root() / "a";
        QVERIFY(fs::exists(a / "images/train/000000.jpg"));
        QVERIFY(fs::exists(a / "images/val/000009.jpg"));
        const std::string yaml = read_all(a / "data.yaml");
        QVERIFY(yaml.find("train: images/train") != std::string::npos);
        QVERIFY(yaml.find("  3: star") != std::string::npos);
        int rows = 0;
        for (const auto& entry : fs::recursive_directory_iterator(a / "labels")) {
            if (!entry.is_regular_file()) continue;
            std::istringstream in(read_all(entry.path()));
            int cls;
            double cx, cy, w, h;
            while (in >> cls >> cx >> cy >> w >> h) {
                ++rows;
                QVERIFY(cls >= 0 && cls < static_cast<int>(synthetic_class_names().size()));
                QVERIFY(w > 0 && h > 0 && w <= 1 && h <= 1);
                QVERIFY(cx - w / 2 >= -1e-6 && cx + w / 2 <= 1 + 1e-6 && cy - h / 2 >= -1e-6 && cy + h / 2 <= 1 + 1e-6);
            }
        }
        QCOMPARE(rows, s.objects);
        const cv::Mat img = cv::imread((a / "images/train/000001.jpg").string());
        QCOMPARE(img.cols, 160);
        QVERIFY(img.rows <= 160 && img.rows >= 96);
    }

    void sameSeedSameBytes() {
        render_synthetic_dataset(options("b1", 3));
        render_synthetic_dataset(options("b2", 3));
        render_synthetic_dataset(options("c", 4));
        for (const char* f : {"labels/train/000004.txt", "images/val/000008.jpg"})
            QVERIFY(read_all(root() / "b1" / f) == read_all(root() / "b2" / f));
        QVERIFY(read_all(root() / "b1/labels/train/000004.txt") != read_all(root() / "c/labels/train/000004.txt"));
    }

    void writesPngBmpAndPpmToo() {
        for (const char* format : {"png", "bmp", "ppm"}) {
            SynthOptions o = options(format, 1);
            o.format = format;
            render_synthetic_dataset(o);
            const fs::path image = root() / format / "images/train" / (std::string("000000.") + format);
            QVERIFY2(fs::exists(image), image.string().c_str());
            QCOMPARE(cv::imread(image.string()).cols, 160);
        }
        SynthOptions o = options("gif", 1);
        o.format = "gif";
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, render_synthetic_dataset(o));
    }

    void rawCodecsAgreeWithOpenCV() {
        // Odd width: BMP rows are padded to 4 bytes.
        cv::Mat img(17, 33, CV_8UC3);
        cv::randu(img, 0, 256);
        auto same = [](const cv::Mat& a, const cv::Mat& b) {
            return a.size() == b.size() && a.type() == b.type() && cv::norm(a, b, cv::NORM_INF) == 0;
        };
        for (const char* ext : {".bmp", ".ppm"}) {
            const fs::path ours = root() / (std::string("ours") + ext), theirs = root() / (std::string("cv") + ext);
            (std::string(ext) == ".bmp" ? image::write_bmp : image::write_ppm)(ours, img);
            cv::imwrite(theirs.string(), img);
            auto read = std::string(ext) == ".bmp" ? image::read_bmp : image::read_ppm;
            QVERIFY2(same(cv::imread(ours.string()), img), ext);
            QVERIFY2(same(read(theirs), img), ext);
        }
        // Top-down rows (negative height) read the right way up.
        std::string bytes = read_all(root() / "ours.bmp");
        const std::int32_t rows = -17;
        std::memcpy(bytes.data() + 22, &rows, 4);
        std::string flipped = bytes.substr(0, 54);
        const std::size_t stride = (33 * 3 + 3) & ~3u;
        for (int r = 16; r >= 0; --r) flipped += bytes.substr(54 + r * stride, stride);
        std::ofstream(root() / "topdown.bmp", std::ios::binary) << flipped;
        QVERIFY(same(image::read_bmp(root() / "topdown.bmp"), img));
        // Truncated or not a 24-bit BMP: empty, no crash.
        std::ofstream(root() / "short.bmp", std::ios::binary) << bytes.substr(0, 200);
        QVERIFY(image::read_bmp(root() / "short.bmp").empty());
        bytes[28] = 32;
        std::ofstream(root() / "rgba.bmp", std::ios::binary) << bytes;
        QVERIFY(image::read_bmp(root() / "rgba.bmp").empty());
        QVERIFY(image::read_bmp(root() / "missing.bmp").empty());
    }

    void badOptionsNameTheKey() {
        SynthOptions o = options("bad", 0);
        o.n = 1;
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, render_synthetic_dataset(o));
        o = options("bad", 0);
        o.out.clear();
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, render_synthetic_dataset(o));
        o = options("bad", 0);
        o.val_fraction = 1.5;
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, render_synthetic_dataset(o));
    }
};

QTEST_APPLESS_MAIN(TestSynth)
#include "test_synth.moc"
