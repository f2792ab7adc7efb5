// Training on CUDA: the YOLOv9 loss on the GPU equals LibreYOLO's (CPU) fixture; the pin-memory
// thread hands over the same batches, page-locked; the trainer runs whole epochs in float32 and
// with AMP, on PPM images so that builds without image codecs can run it.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "data/loader.h"
#include "io/safetensors.h"
#include "libreyolo/dataset.h"
#include "libreyolo/device.h"
#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/train.h"
#include "models/yolo9/loss.h"
#include "support/synthetic_shapes.h"

using namespace libreyolo;

class TestCudaTraining : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
    }

    void lossOnTheGpuMatchesLibreYOLO() {
        const io::TensorFile f = io::read_safetensors(LIBREYOLO_FIXTURES_DIR "/yolo9_loss/case.safetensors");
        std::vector<torch::Tensor> preds;
        for (const char* k : {"p3", "p4", "p5"}) preds.push_back(f.tensors.at(k).to(torch::kCUDA).requires_grad_(true));
        models::yolo9::YOLO9Loss loss(6);
        const auto parts = loss(preds, f.tensors.at("targets").to(torch::kCUDA), 256, 192);
        const float total = parts.total.item<float>(), want = f.tensors.at("loss_total").item<float>();
        qInfo("loss on CUDA %.8f, LibreYOLO on CPU %.8f", total, want);
        QVERIFY(std::abs(total - want) < 1e-4f);
        parts.total.backward();
        const torch::Tensor g = preds[0].grad().cpu(), w = f.tensors.at("grad_p3");
        QVERIFY((g - w).abs().max().item<float>() <= 1e-4f * std::max(1.0f, w.abs().max().item<float>()));
    }

    void pinMemoryThreadHandsOverTheSameBatchesPinned() {
        const SynthSummary data = shapes(20, 128);
        const data::LoadedSplit split = data::load_split(load_dataset_config(data.data_yaml), "train");
        data::LoaderOptions lo;
        lo.batch = 4;
        lo.imgsz = 128;
        lo.workers = 3;
        data::BatchLoader plain(split.items, lo);
        lo.pin_memory = true;
        data::BatchLoader pinned(split.items, lo);
        for (int epoch = 1; epoch <= 2; ++epoch) {
            plain.begin_epoch(epoch, epoch == 1);
            pinned.begin_epoch(epoch, epoch == 1);
            data::Batch a, b;
            int batches = 0;
            while (plain.next(a)) {
                QVERIFY(pinned.next(b));
                QVERIFY(b.images.is_pinned() && b.targets.is_pinned());
                QVERIFY(!a.images.is_pinned());
                QVERIFY(torch::equal(a.images, b.images) && torch::equal(a.targets, b.targets));
                ++batches;
            }
            QVERIFY(!pinned.next(b));
            QCOMPARE(batches, plain.batches_per_epoch());
        }
    }

    void trainsEpochsOnTheGpuInFloat32AndWithAmp() {
        for (const bool amp : {false, true}) {
            const SynthSummary data = shapes(40, 160);
            TrainOptions o;
            o.pretrained = false;
            o.data = data.data_yaml;
            o.epochs = 8;
            o.batch = 8;
            o.imgsz = 160;
            o.device = "cuda";
            o.amp = amp;
            o.warmup_epochs = 1;
            o.close_mosaic = 2;
            o.eval_interval = 4;
            o.project = dir_.filePath("runs").toStdString();
            o.name = amp ? "amp" : "fp32";
            std::vector<double> losses;
            const TrainResult r = train(o, [&](const TrainEvent& e) {
                if (e.kind == TrainEvent::Kind::Epoch) losses.push_back(e.loss);
            });
            QCOMPARE(r.epochs_run, 8);
            QCOMPARE(losses.size(), std::size_t(8));
            for (double l : losses) QVERIFY(std::isfinite(l) && l > 0);
            qInfo("%s: epoch loss %.3f -> %.3f, best mAP50-95 %.4f", amp ? "amp" : "fp32", losses.front(),
                  losses.back(), r.best_map50_95);
            QVERIFY(losses.back() < losses.front());
            QCOMPARE(Model::load(r.last, "cuda").info().nc, 6);

            const io::TensorFile state =
                io::read_safetensors(std::filesystem::path(r.save_dir) / "weights" / "last.train.safetensors");
            const auto scaler = nlohmann::json::parse(state.metadata.at("train_state")).at("grad_scaler");
            const double scale = scaler.at("scale");
            qInfo("grad scaler: scale %g, skipped steps %d", scale, scaler.at("skipped_steps").get<int>());
            QVERIFY(std::isfinite(scale) && scale > 0);
            // Without AMP the scaler is never used; with it the scale has moved or stayed, but
            // at most the first few steps may have been skipped.
            if (!amp) QCOMPARE(scale, 65536.0);
            QVERIFY(scaler.at("skipped_steps").get<int>() <= 10);
        }
    }

    // RT-DETR-r18 with LibreYOLO's RT-DETR recipe: a few epochs on the GPU, float32 and AMP, and
    // --cuda-graph replaying the backbone and encoder (the decoder eager).
    void rtdetrTrainsOnTheGpu() {
        const SynthSummary data = shapes(24, 160);
        for (const char* mode : {"fp32", "amp", "graph"}) {
            TrainOptions o = train_defaults("rtdetr-r18");
            o.pretrained = false;
            o.data = data.data_yaml;
            o.epochs = 4;
            o.batch = 4;
            o.imgsz = 160;
            o.device = "cuda";
            o.amp = std::string(mode) != "fp32";
            o.cuda_graph = std::string(mode) == "graph";
            o.eval_interval = 4;
            o.project = dir_.filePath("runs").toStdString();
            o.name = std::string("rtdetr-") + mode;
            std::vector<double> losses;
            const TrainResult r = train(o, [&](const TrainEvent& e) {
                if (e.kind == TrainEvent::Kind::Epoch) losses.push_back(e.loss);
            });
            QCOMPARE(r.epochs_run, 4);
            for (double l : losses) QVERIFY(std::isfinite(l) && l > 0);
            qInfo("rtdetr %s: epoch loss %.3f -> %.3f, cuda_graph %s, %lld replays", mode, losses.front(),
                  losses.back(), r.cuda_graph.summary().c_str(), static_cast<long long>(r.graph_replays));
            QVERIFY(losses.back() < losses.front());
            if (o.cuda_graph) {
                QVERIFY2(
                    r.cuda_graph.state == TrainingGraphStatus::State::Replaying && r.cuda_graph.shape == "4x3x160x160",
                    r.cuda_graph.summary().c_str());
                QVERIFY(r.graph_replays > 0);
            }
            QCOMPARE(Model::load(r.last, "cuda").info().family, std::string("rtdetr"));
        }
    }

    void ampResumeContinuesTheScaler() {
        const SynthSummary data = shapes(24, 128);
        TrainOptions o;
        o.pretrained = false;
        o.data = data.data_yaml;
        o.epochs = 2;
        o.batch = 8;
        o.imgsz = 128;
        o.device = "cuda";
        o.eval_interval = 100;
        o.project = dir_.filePath("runs").toStdString();
        o.name = "amp-resume";
        std::atomic<bool> stop{false};
        train(
            o,
            [&](const TrainEvent& e) {
                if (e.kind == TrainEvent::Kind::Epoch) stop = true;
            },
            &stop);
        TrainOptions again;
        again.resume = true;
        again.device = "cuda";
        again.project = o.project;
        again.name = o.name;
        const TrainResult r = train(again);
        QCOMPARE(r.epochs_run, 2);
        QVERIFY(!r.stopped);
    }

private:
    QTemporaryDir dir_;

    SynthSummary shapes(int n, int imgsz) { return testing::synthetic_shapes(dir_, n, imgsz); }
};

QTEST_APPLESS_MAIN(TestCudaTraining)
#include "test_cuda_training.moc"
