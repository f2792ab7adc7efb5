// Training on the CPU: a short run lowers the loss and beats the untrained model, resume repeats
// the uninterrupted run, a stop request leaves a resumable checkpoint, bad data is skipped.
#include <QtTest/QtTest>

#include "support/test_helpers.h"

#include <filesystem>
#include <fstream>

#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "libreyolo/synth.h"
#include "libreyolo/train.h"
#include "libreyolo/validate.h"

using namespace libreyolo;
namespace fs = std::filesystem;

class TestTrain : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string data_;

    TrainOptions options(const char* name, int epochs) const {
        TrainOptions o;
        o.pretrained = false;
        o.data = data_;
        o.epochs = epochs;
        o.batch = 8;
        o.imgsz = 128;
        o.workers = 2;
        o.device = "cpu";
        o.warmup_epochs = 1;
        o.close_mosaic = 2;
        o.eval_interval = 100;  // validate after the last epoch only
        o.project = dir_.filePath("runs").toStdString();
        o.name = name;
        return o;
    }

private Q_SLOTS:
    void initTestCase() {
        SynthOptions s;
        s.out = dir_.filePath("shapes").toStdString();
        s.n = 40;
        s.imgsz = 128;
        s.seed = 3;
        data_ = render_synthetic_dataset(s).data_yaml;
    }

    void shortTrainingLowersTheLossAndBeatsTheUntrainedModel() {
        std::vector<double> epoch_loss;
        TrainOptions o = options("short", 30);
        o.close_mosaic = 5;
        const TrainResult r = train(o, [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Epoch) epoch_loss.push_back(e.loss);
        });
        QCOMPARE(r.epochs_run, 30);
        QCOMPARE(epoch_loss.size(), std::size_t(30));
        qInfo("epoch loss %.3f → %.3f, best mAP50-95 %.4f", epoch_loss.front(), epoch_loss.back(), r.best_map50_95);
        QVERIFY(epoch_loss.back() < epoch_loss.front() - 2.0);
        QVERIFY(fs::exists(r.last) && fs::exists(r.best));
        QVERIFY(fs::exists(fs::path(r.save_dir) / "results.csv"));

        Model untrained = Model::create("yolo9-t", 6, "cpu");
        Model trained = Model::load(r.best, "cpu");
        ValOptions vo;
        vo.imgsz = 128;
        const double before = validate(untrained, data_, vo).metrics.map50;
        const double after = validate(trained, data_, vo).metrics.map50;
        qInfo("mAP50 untrained %.4f, trained %.4f", before, after);
        QVERIFY(after > before);
        QCOMPARE(trained.info().names.front(), std::string("circle"));
    }

    void resumeGivesTheSameLossAsAnUninterruptedRun() {
        double uninterrupted = 0, resumed = 0;
        train(options("straight", 3), [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Batch && e.epoch == 3 && e.batch == 1) uninterrupted = e.loss;
        });
        std::atomic<bool> stop{false};
        const TrainResult first = train(
            options("interrupted", 3),
            [&](const TrainEvent& e) {
                if (e.kind == TrainEvent::Kind::Batch && e.epoch == 3) stop = true;
            },
            &stop);
        QVERIFY(first.stopped);
        QCOMPARE(first.epochs_run, 2);
        TrainOptions again = options("interrupted", 3);
        again.resume = true;
        const TrainResult second = train(again, [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Batch && e.epoch == 3 && e.batch == 1) resumed = e.loss;
        });
        QCOMPARE(second.epochs_run, 3);
        qInfo("epoch 3 batch 1 loss: uninterrupted %.8f, resumed %.8f", uninterrupted, resumed);
        QVERIFY(uninterrupted > 0);
        QVERIFY(std::abs(uninterrupted - resumed) < 1e-5 * uninterrupted);
        std::ifstream csv(fs::path(second.save_dir) / "results.csv");
        int lines = 0;
        for (std::string line; std::getline(csv, line);) ++lines;
        QCOMPARE(lines, 4);  // header + 3 epochs, none twice
    }

    void stopInTheFirstEpochLeavesAResumableCheckpoint() {
        std::atomic<bool> stop{false};
        const TrainResult first = train(
            options("first-epoch", 2), [&](const TrainEvent& e) { stop = e.kind == TrainEvent::Kind::Batch; }, &stop);
        QVERIFY(first.stopped);
        QCOMPARE(first.epochs_run, 0);
        QVERIFY(fs::exists(fs::path(first.save_dir) / "weights" / "last.train.safetensors"));
        QVERIFY(fs::exists(first.last));
        TrainOptions again = options("first-epoch", 2);
        again.resume = true;
        const TrainResult second = train(again);
        QCOMPARE(second.epochs_run, 2);
        QVERIFY(!second.stopped);
    }

    // Spec "Due risposte diverse": a configuration that cannot use graphs trains eager and says so once.
    void cudaGraphOnTheCpuTrainsEagerAndSaysSoOnce() {
        TrainOptions o = options("graph-on-cpu", 1);
        o.cuda_graph = true;
        std::vector<TrainEvent> graph_events;
        const TrainResult r = train(o, [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Graph) graph_events.push_back(e);
        });
        QCOMPARE(r.epochs_run, 1);
        QCOMPARE(graph_events.size(), std::size_t(1));
        const std::string& line = graph_events[0].message;
        QVERIFY2(line.find("CUDA device") != std::string::npos && line.find("training eager") != std::string::npos,
                 line.c_str());
        QVERIFY(graph_events[0].graph.state == TrainingGraphStatus::State::RuledOut);
        QVERIFY(r.cuda_graph.state == TrainingGraphStatus::State::RuledOut);
        QVERIFY2(r.cuda_graph.reason.find("CUDA device") != std::string::npos, r.cuda_graph.reason.c_str());
        QCOMPARE(r.cuda_graph.summary(), "eager: " + r.cuda_graph.reason);
        QCOMPARE(r.graph_replays, std::int64_t{0});
    }

    void resultsCsvHasLibreYOLOsColumns() {
        TrainOptions o = options("csv", 2);
        o.eval_interval = 2;
        const TrainResult r = train(o);
        bool crlf = true;
        auto rows_of = [&crlf](const fs::path& file) {
            std::vector<std::vector<std::string>> rows;
            std::ifstream in(file);
            for (std::string line; std::getline(in, line);) {
                crlf = crlf && line.ends_with('\r');
                if (line.ends_with('\r')) line.pop_back();
                std::vector<std::string> cells(1);
                for (char c : line)
                    if (c == ',')
                        cells.emplace_back();
                    else
                        cells.back().push_back(c);
                rows.push_back(cells);
            }
            return rows;
        };
        // The header of a results.csv that LibreYOLO 1.6 itself wrote (the demo model's training).
        const auto theirs = rows_of(LIBREYOLO_SOURCE_DIR "/docs/demo-model-training-libreyolo.csv");
        const auto ours = rows_of(fs::path(r.save_dir) / "results.csv");
        QCOMPARE(ours.size(), std::size_t(3));
        QCOMPARE(ours[0], theirs[0]);
        QVERIFY2(crlf, "rows end in CRLF, as Python's csv module writes them");
        auto cell = [&](int row, const std::string& column) {
            const auto at = std::find(ours[0].begin(), ours[0].end(), column);
            return ours[row][static_cast<std::size_t>(at - ours[0].begin())];
        };
        for (const auto& row : ours) QCOMPARE(row.size(), ours[0].size());
        QCOMPARE(cell(1, "validated"), std::string("0"));
        QCOMPARE(cell(1, "metrics/mAP50-95"), std::string());
        QCOMPARE(cell(1, "best_epoch"), std::string());
        QVERIFY(std::stod(cell(1, "time")) > 0);
        QVERIFY(std::stod(cell(1, "lr/group1")) > 0);
        QCOMPARE(cell(2, "validated"), std::string("1"));
        QCOMPARE(cell(2, "is_best"), std::string("1"));
        QCOMPARE(cell(2, "best_epoch"), std::string("2"));
        QCOMPARE(cell(2, "current_metric_name"), std::string("metrics/mAP50-95"));
        QCOMPARE(std::stod(cell(2, "metrics/mAP50-95")), r.best_map50_95);
        QCOMPARE(cell(2, "metrics/max_det"), std::string("100.0"));
        QCOMPARE(cell(2, "speed/images_seen"), std::string("8.0"));
        QVERIFY(std::stod(cell(2, "speed/total_s")) > 0);
    }

    void badImagesAndRowsAreSkippedAndCounted() {
        const fs::path root = fs::path(data_).parent_path();
        std::ofstream(root / "images/train/broken.jpg") << "not an image";
        std::ofstream(root / "labels/train/000000.txt", std::ios::app) << "9 0.5 0.5 0.1 0.1\nnonsense\n";
        testing::WarningCapture warnings;
        const TrainResult r = train(options("dirty", 1));
        QCOMPARE(r.epochs_run, 1);
        QVERIFY(warnings.mentions("skipped 1 unreadable image(s) and 2 bad label row(s)"));
        // A newcomer training a model name for one epoch hears that from scratch it will detect next to
        // nothing, and how to fine-tune instead.
        QVERIFY(warnings.mentions("starts from random weights"));
        QVERIFY(warnings.mentions("fine-tune"));
    }

    void badOptionsNameTheKey() {
        TrainOptions o = options("bad", 0);
        QVERIFY(testing::error_of([&] { train(o); }).find("epochs") != std::string::npos);
        o = options("bad", 1);
        o.imgsz = 100;
        QVERIFY(testing::error_of([&] { train(o); }).find("imgsz") != std::string::npos);
        o = options("bad", 1);
        o.mosaic_scale = {2.0f, 1.0f};
        QVERIFY(testing::error_of([&] { train(o); }).find("mosaic_scale") != std::string::npos);
        o = options("nothing-here", 1);
        o.resume = true;
        QVERIFY_THROWS_EXCEPTION(FileNotFound, train(o));
    }

    // A run that fails before its first epoch leaves no run folder (no `exp2` with an empty weights/),
    // while a folder that was there before it stays.
    void aRunThatFailsBeforeItsFirstEpochLeavesNoFolder() {
        TrainOptions o = options("no-data", 1);
        o.data = dir_.filePath("missing.yaml").toStdString();
        QVERIFY(testing::error_of([&] { train(o); }).find("missing.yaml") != std::string::npos);
        QVERIFY(!fs::exists(fs::path(o.project) / "no-data"));
        o = options("mistyped-model", 1);
        o.model = "yolp9-t";
        QVERIFY(testing::error_of([&] { train(o); }).find("yolo9-t") != std::string::npos);
        QVERIFY(!fs::exists(fs::path(o.project) / "mistyped-model"));
        const fs::path kept = fs::path(o.project) / "kept";
        fs::create_directories(kept / "weights");
        o = options("kept", 1);
        o.exist_ok = true;
        o.data = dir_.filePath("missing.yaml").toStdString();
        QVERIFY(!testing::error_of([&] { train(o); }).empty());
        QVERIFY(fs::exists(kept / "weights"));
    }
};

QTEST_APPLESS_MAIN(TestTrain)
#include "test_train.moc"
