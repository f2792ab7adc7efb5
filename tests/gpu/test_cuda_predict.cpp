// YOLOv9 on CUDA: the same weights give the same network output as on the CPU (up to cuDNN's
// arithmetic) and the same detections through the public predict API.
#include <QtTest/QtTest>

#include "io/safetensors.h"
#include "libreyolo/device.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

using namespace libreyolo;

namespace {
const std::string kDir = LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/";
}

class TestCudaPredict : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
    }

    void autoPicksTheGpu() {
        QCOMPARE(resolve_device(parse_device("auto")).str(), std::string("cuda:0"));
        QVERIFY_THROWS_EXCEPTION(DeviceError,
                                 resolve_device(parse_device("cuda:" + std::to_string(cuda_device_count()))));
    }

    void forwardMatchesTheCpu() {
        const io::TensorFile io_file = io::read_safetensors(kDir + "io.safetensors");
        const torch::Tensor input = io_file.tensors.at("input_u8").to(torch::kFloat32) / 255.0;
        Model gpu = Model::load(kDir + "weights.safetensors", "cuda");
        QCOMPARE(gpu.info().device, std::string("cuda:0"));
        torch::NoGradGuard g;
        const torch::Tensor out = gpu.impl().net->forward(input.to(torch::kCUDA)).cpu();
        const torch::Tensor ref = io_file.tensors.at("output");
        const float box_diff = (out.slice(1, 0, 4) - ref.slice(1, 0, 4)).abs().max().item<float>();
        const float score_diff = (out.slice(1, 4) - ref.slice(1, 4)).abs().max().item<float>();
        qInfo("CUDA vs LibreYOLO CPU output: max |Δbox| %g px, max |Δscore| %g", box_diff, score_diff);
        QVERIFY2(box_diff < 0.05f, qPrintable(QString::number(box_diff)));
        QVERIFY2(score_diff < 1e-3f, qPrintable(QString::number(score_diff)));
    }

    void predictsInMemoryImagesOnTheGpu() {
        Model cpu = Model::load(kDir + "weights.safetensors", "cpu");
        Model gpu = Model::load(kDir + "weights.safetensors", "cuda:0");
        const torch::Tensor hwc = torch::randint(0, 256, {480, 640, 3}, torch::kUInt8).contiguous();
        ImageView view{hwc.data_ptr<std::uint8_t>(), 640, 480, 640 * 3, PixelFormat::RGB8};
        PredictOptions o;
        o.conf = 0.3f;
        o.iou = 1.0f;  // keep every candidate: ties between equal scores cannot reorder anything
        o.max_det = 5000;
        o.batch = 2;
        const auto a = cpu.predict(std::vector<ImageView>{view, view}, o);
        const auto b = gpu.predict(std::vector<ImageView>{view, view}, o);
        QCOMPARE(b.size(), std::size_t(2));
        QVERIFY(!a[0].boxes.empty());
        const double ratio = static_cast<double>(b[0].boxes.size()) / a[0].boxes.size();
        QVERIFY2(ratio > 0.99 && ratio < 1.01,
                 qPrintable(QString("%1 vs %2").arg(b[0].boxes.size()).arg(a[0].boxes.size())));
        QVERIFY(b[0].speed.inference_ms > 0);
    }
};

QTEST_APPLESS_MAIN(TestCudaPredict)
#include "test_cuda_predict.moc"
