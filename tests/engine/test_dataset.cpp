// Datasets: the data YAML, image lists, label rows and `check`'s counts, on a dataset with faults.
#include <QtTest/QtTest>

#include "support/test_helpers.h"

#include <filesystem>
#include <fstream>

#include "libreyolo/dataset.h"
#include "libreyolo/errors.h"
#include "libreyolo/synth.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

using namespace libreyolo;
using libreyolo::testing::error_of;
using libreyolo::testing::read_all;
using libreyolo::testing::write_file;
namespace fs = std::filesystem;

class TestDataset : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fs::path root() const { return dir_.path().toStdString(); }

private Q_SLOTS:
    void readsYamlWithListOrDictNames() {
        write_file(root() / "a/data.yaml",
                   "path: ds\ntrain: images/train\nval: [images/val, extra.txt]\nnames: [cat, dog]\n");
        DatasetConfig c = load_dataset_config((root() / "a/data.yaml").string());
        QCOMPARE(c.names, (std::vector<std::string>{"cat", "dog"}));
        QCOMPARE(fs::path(c.train[0]), root() / "a/ds/images/train");
        QCOMPARE(c.val.size(), std::size_t(2));
        QVERIFY(c.test.empty());
        write_file(root() / "b.yaml", "path: /abs\ntrain: t\nval: v\nnc: 3\nnames:\n  0: a\n  2: c\n  1: b\n");
        c = load_dataset_config((root() / "b.yaml").string());
        QCOMPARE(c.names, (std::vector<std::string>{"a", "b", "c"}));
        QCOMPARE(c.train[0], std::string("/abs/t"));
    }

    void badYamlNamesTheKey_data() {
        QTest::addColumn<QString>("yaml");
        QTest::addColumn<QString>("message");
        QTest::newRow("no train") << "val: v\nnames: [a]\n"
                                  << "key 'train': missing";
        QTest::newRow("no names") << "train: t\nval: v\n"
                                  << "key 'names': missing";
        QTest::newRow("names scalar") << "train: t\nval: v\nnames: a\n"
                                      << "key 'names': expected a list";
        QTest::newRow("gap in names") << "train: t\nval: v\nnames: {0: a, 2: c}\n"
                                      << "class 1 has no name";
        QTest::newRow("nc disagrees") << "train: t\nval: v\nnc: 3\nnames: [a, b]\n"
                                      << "key 'nc': 3 but names has 2";
        QTest::newRow("nc not int") << "train: t\nval: v\nnc: many\nnames: [a]\n"
                                    << "key 'nc': not an integer";
        QTest::newRow("empty train") << "train: []\nval: v\nnames: [a]\n"
                                     << "key 'train': the list is empty";
        QTest::newRow("not yaml") << "train: [unclosed\n"
                                  << "not valid YAML";
        QTest::newRow("not a map") << "- a\n- b\n"
                                   << "not a mapping";
    }
    void badYamlNamesTheKey() {
        QFETCH(QString, yaml);
        QFETCH(QString, message);
        const fs::path p = root() / "bad.yaml";
        write_file(p, yaml.toStdString());
        const std::string e = error_of([&] { load_dataset_config(p.string()); });
        QVERIFY2(e.find(message.toStdString()) != std::string::npos, e.c_str());
        QVERIFY2(e.find("bad.yaml") != std::string::npos, e.c_str());
        QVERIFY_THROWS_EXCEPTION(FileNotFound, load_dataset_config((root() / "absent.yaml").string()));
    }

    void parsesLabelRows() {
        const LabelFile f = parse_label_text(
            "0 0.5 0.5 0.2 0.2\n"
            "\n"
            "1 0.1 0.1 0.3 0.4 0.2 0.6\n"  // polygon
            "0 0.5 0.5 0.2 0.2\n"          // duplicate
            "7 0.5 0.5 0.1 0.1\n"          // unknown class
            "1 0.95 0.5 0.2 0.2\n"         // beyond the right edge
            "1 0.5 0.5\n"                  // too few fields
            "x 0.5 0.5 0.1 0.1\n"          // not a number
            "1.5 0.5 0.5 0.1 0.1\n",       // fractional class
            3);
        QCOMPARE(f.boxes.size(), std::size_t(2));
        QCOMPARE(f.polygons, 1);
        QCOMPARE(f.boxes[1].cls, 1);
        QVERIFY(std::abs(f.boxes[1].cx - 0.2f) < 1e-6f && std::abs(f.boxes[1].h - 0.5f) < 1e-6f);
        QCOMPARE(f.problems.size(), std::size_t(6));
        QCOMPARE(f.problems[0].line, 4);
        QCOMPARE(f.problems[0].kind, std::string("duplicate"));
        QCOMPARE(f.problems[1].kind, std::string("unknown class"));
        QCOMPARE(f.problems[2].kind, std::string("out of range"));
        QCOMPARE(f.problems[3].kind, std::string("malformed"));
        QCOMPARE(f.problems[5].line, 9);
    }

    void labelPathReplacesTheLastImagesFolder() {
        QCOMPARE(label_path_for("/d/images/x/images/train/a.jpg"), std::string("/d/images/x/labels/train/a.txt"));
        QCOMPARE(label_path_for("/d/photos/a.png"), std::string("/d/photos/a.txt"));
    }

    void checkCountsEveryFault() {
        SynthOptions o;
        o.out = (root() / "synth").string();
        o.n = 10;
        o.imgsz = 96;
        const SynthSummary s = render_synthetic_dataset(o);
        const fs::path ds = root() / "synth";
        write_file(ds / "images/train/corrupt.jpg", "not a jpeg");
        write_file(ds / "images/train/background.jpg", "");  // also corrupt: zero bytes
        fs::copy_file(ds / "images/train/000000.jpg", ds / "images/train/nolabel.jpg");
        write_file(ds / "labels/train/000001.txt",
                   "0 0.5 0.5 0.2 0.2\n0 0.5 0.5 0.2 0.2\n9 0.5 0.5 0.1 0.1\n0 2 2 0.1 0.1\nbad row\n");
        const DatasetReport r = check_dataset(s.data_yaml);
        QVERIFY(r.usable());
        const SplitReport& train = r.splits[0];
        QCOMPARE(train.split, std::string("train"));
        QCOMPARE(train.images, 11);
        QCOMPARE(train.corrupt_images, 2);
        QCOMPARE(train.usable, 9);
        QCOMPARE(train.backgrounds, 1);
        QCOMPARE(train.duplicates, 1);
        QCOMPARE(train.unknown_class, 1);
        QCOMPARE(train.out_of_range, 1);
        QCOMPARE(train.malformed, 1);
        QCOMPARE(train.problems.size(), std::size_t(6));
        const auto mentions = [&](const std::string& text) {
            return std::any_of(train.problems.begin(), train.problems.end(),
                               [&](const std::string& p) { return p.find(text) != std::string::npos; });
        };
        QVERIFY(mentions("corrupt.jpg: cannot decode"));
        QVERIFY(mentions("000001.txt:2: duplicate"));
        QVERIFY(mentions("000001.txt:3: unknown class"));
        const DatasetReport quick = check_dataset(s.data_yaml, /*decode_images=*/false);
        QCOMPARE(quick.splits[0].corrupt_images, 0);
    }

    void readsCocoJsonAnnotations() {
        SynthOptions o;
        o.out = (root() / "coco").string();
        o.n = 6;
        o.imgsz = 96;
        const SynthSummary s = render_synthetic_dataset(o);
        const fs::path ds = root() / "coco";
        // The same labels as COCO JSON, with category ids 10, 20, ... (not 0-based).
        nlohmann::json doc = {{"images", nlohmann::json::array()},
                              {"annotations", nlohmann::json::array()},
                              {"categories", nlohmann::json::array()}};
        for (int c = 0; c < 6; ++c)
            doc["categories"].push_back({{"id", 10 * (c + 1)}, {"name", synthetic_class_names()[c]}});
        int id = 0, ann = 0;
        for (const auto& entry : fs::directory_iterator(ds / "images/train")) {
            const cv::Mat img = cv::imread(entry.path().string());
            doc["images"].push_back({{"id", ++id},
                                     {"file_name", entry.path().filename().string()},
                                     {"width", img.cols},
                                     {"height", img.rows}});
            for (const auto& b : parse_label_text(read_all(label_path_for(entry.path().string())), 6).boxes)
                doc["annotations"].push_back(
                    {{"id", ++ann},
                     {"image_id", id},
                     {"category_id", 10 * (b.cls + 1)},
                     {"bbox",
                      {(b.cx - b.w / 2) * img.cols, (b.cy - b.h / 2) * img.rows, b.w * img.cols, b.h * img.rows}},
                     {"iscrowd", 0}});
        }
        doc["annotations"].push_back({{"id", ++ann}, {"image_id", 1}, {"category_id", 99}, {"bbox", {1, 1, 5, 5}}});
        doc["annotations"].push_back(
            {{"id", ++ann}, {"image_id", 1}, {"category_id", 10}, {"bbox", {1, 1, 5, 5}}, {"iscrowd", 1}});
        write_file(ds / "annotations/train.json", doc.dump());
        write_file(ds / "coco.yaml",
                   "path: .\ntrain: images/train\nval: images/val\nannotations: {train: annotations/train.json}\n"
                   "names: [circle, square, triangle, star, hexagon, cross]\n");
        const DatasetConfig c = load_dataset_config((ds / "coco.yaml").string());
        const auto coco = load_split_labels(c, "train");
        const auto yolo = load_split_labels(load_dataset_config(s.data_yaml), "train");
        QCOMPARE(coco.size(), yolo.size());
        int coco_boxes = 0, yolo_boxes = 0;
        for (const auto& i : coco) coco_boxes += static_cast<int>(i.labels.boxes.size());
        for (const auto& i : yolo) yolo_boxes += static_cast<int>(i.labels.boxes.size());
        QCOMPARE(coco_boxes, yolo_boxes);  // the crowd box is left out
        const DatasetReport r = check_dataset((ds / "coco.yaml").string());
        QCOMPARE(r.splits[0].unknown_class, 1);
        QCOMPARE(r.splits[1].images, s.val_images);  // val has no JSON: YOLO labels

        doc["images"] = nlohmann::json::array({{{"id", 1}}});
        write_file(ds / "annotations/train.json", doc.dump());
        const std::string e = error_of([&] { load_split_labels(c, "train"); });
        QVERIFY2(e.find("train.json: image 1 has no 'file_name'") != std::string::npos, e.c_str());
    }

    void listsImagesFromTextFiles() {
        write_file(root() / "list/images/a.png", "x");
        write_file(root() / "list/images/b.png", "x");
        write_file(root() / "list/train.txt", "images/b.png\n./images/a.png\n\n");
        const auto images = list_images({(root() / "list/train.txt").string()});
        QCOMPARE(images.size(), std::size_t(2));
        QVERIFY(images[0].ends_with("a.png"));
        QVERIFY_THROWS_EXCEPTION(FileNotFound, list_images({(root() / "nowhere").string()}));
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
