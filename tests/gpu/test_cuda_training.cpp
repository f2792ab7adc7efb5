// Training on CUDA: the YOLOv9 loss on the GPU equals LibreYOLO's (CPU) fixture, and the trainer
// runs whole epochs on the GPU, on PPM images so that builds without image codecs can run it.
#include <QtTest/QtTest>

#include "io/safetensors.h"
#include "libreyolo/device.h"
#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/train.h"
#include "models/yolo9/loss.h"

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

    void trainsEpochsOnTheGpu() {
        QTemporaryDir dir;
        SynthOptions s;
        s.out = dir.filePath("shapes").toStdString();
        s.n = 40;
        s.imgsz = 160;
        s.format = "ppm";
        const SynthSummary data = render_synthetic_dataset(s);
        TrainOptions o;
        o.data = data.data_yaml;
        o.epochs = 3;
        o.batch = 8;
        o.imgsz = 160;
        o.device = "cuda";
        o.close_mosaic = 1;
        o.project = dir.filePath("runs").toStdString();
        std::vector<double> losses;
        const TrainResult r = train(o, [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Epoch) losses.push_back(e.loss);
        });
        QCOMPARE(r.epochs_run, 3);
        QCOMPARE(losses.size(), std::size_t(3));
        for (double l : losses) QVERIFY(std::isfinite(l) && l > 0);
        QCOMPARE(Model::load(r.last, "cuda").info().nc, 6);
    }
};

QTEST_APPLESS_MAIN(TestCudaTraining)
#include "test_cuda_training.moc"
