// The letterbox slot (the fused path's preprocessing on the device): its reference gives OpenCV's
// letterbox and stretch (the host path's canvases) within one 8-bit intensity level, with the same
// geometry and exactly the border value; layouts, dtypes and pixel strides give the same values;
// `libreyolo kernels` lists the slot.
#include <QtTest/QtTest>
#include <opencv2/imgproc.hpp>

#include "image/letterbox.h"
#include "kernels/letterbox_slot.h"
#include "libreyolo/kernels.h"

using namespace libreyolo;
using kernels::InputCanvas;

namespace {

cv::Mat random_image(int h, int w, int seed) {
    cv::Mat image(h, w, CV_8UC3);
    cv::RNG rng(static_cast<uint64_t>(seed));
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    // Smooth regions too, where rounding differences would show as bands.
    cv::GaussianBlur(image(cv::Rect(0, 0, w / 2 + 1, h)), image(cv::Rect(0, 0, w / 2 + 1, h)), cv::Size(5, 5), 0);
    return image;
}

// (1, 3, H, W) uint8: a channels-last view of the image's rows, as predict uploads them.
torch::Tensor pixels_of(const cv::Mat& image) {
    return torch::from_blob(image.data, {1, image.rows, image.cols, 3}, torch::kUInt8).clone().permute({0, 3, 1, 2});
}

// The host path's canvas as (1, 3, H, W) float32 in [0, 1].
torch::Tensor host_canvas(const cv::Mat& canvas) {
    return pixels_of(canvas).to(torch::kFloat32).contiguous() / 255.0f;
}

}  // namespace

class TestLetterboxSlot : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theReferenceIsOpenCvsLetterbox_data() {
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("input");
        QTest::newRow("480x640 -> 640") << 480 << 640 << 640;
        QTest::newRow("640x480 -> 640") << 640 << 480 << 640;
        QTest::newRow("720x1280 -> 320") << 720 << 1280 << 320;
        QTest::newRow("37x53 -> 320 (upscale)") << 37 << 53 << 320;
        QTest::newRow("320x320 -> 320 (same size)") << 320 << 320 << 320;
        QTest::newRow("1x5 -> 64") << 1 << 5 << 64;
    }
    void theReferenceIsOpenCvsLetterbox() {
        QFETCH(int, h);
        QFETCH(int, w);
        QFETCH(int, input);
        const cv::Mat image = random_image(h, w, h * 7 + w);
        const InputCanvas canvas = kernels::input_canvas(h, w, input, input, false, torch::kFloat32, false);
        const image::LetterboxGeometry g = image::letterbox_geometry(h, w, input, input);
        QCOMPARE(canvas.image_height, static_cast<int64_t>(g.new_h));
        QCOMPARE(canvas.image_width, static_cast<int64_t>(g.new_w));
        const torch::Tensor got = kernels::letterbox_reference(pixels_of(image), canvas);
        QCOMPARE(got.sizes().vec(), (std::vector<int64_t>{1, 3, input, input}));
        const torch::Tensor want = host_canvas(image::letterbox(image, input, input));
        const float gap = (got - want).abs().max().item<float>() * 255.0f;
        QVERIFY2(gap <= 1.01f, qPrintable(QString("%1 intensity levels").arg(gap)));
        // The border is the fill itself, as the host path's canvas.
        using torch::indexing::None;
        using torch::indexing::Slice;
        const torch::Tensor border_right = got.index({Slice(), Slice(), Slice(), Slice(g.new_w, None)});
        const torch::Tensor border_below = got.index({Slice(), Slice(), Slice(g.new_h, None), Slice()});
        const float fill = 114.0f * kernels::kPixelScale;
        QVERIFY(border_right.numel() == 0 || (border_right == fill).all().item<bool>());
        QVERIFY(border_below.numel() == 0 || (border_below == fill).all().item<bool>());
    }

    void theReferenceIsOpenCvsStretch() {
        const cv::Mat image = random_image(480, 640, 3);
        const InputCanvas canvas = kernels::input_canvas(480, 640, 320, 320, true, torch::kFloat32, false);
        QCOMPARE(canvas.image_height, int64_t{320});
        QCOMPARE(canvas.image_width, int64_t{320});
        cv::Mat resized;
        cv::resize(image, resized, cv::Size(320, 320), 0, 0, cv::INTER_LINEAR);
        const float gap =
            (kernels::letterbox_reference(pixels_of(image), canvas) - host_canvas(resized)).abs().max().item<float>();
        QVERIFY2(gap * 255.0f <= 1.01f, qPrintable(QString::number(gap * 255.0f)));
    }

    void layoutsDtypesAndStridesGiveTheSameValues() {
        std::vector<torch::Tensor> images;
        for (int i = 0; i < 3; ++i) images.push_back(pixels_of(random_image(90, 120, i)));
        const torch::Tensor interleaved = torch::cat(images, 0);  // channels-last view, batch 3
        const torch::Tensor planar = interleaved.contiguous();
        InputCanvas canvas = kernels::input_canvas(90, 120, 96, 96, false, torch::kFloat32, false);
        const torch::Tensor want = kernels::letterbox_reference(planar, canvas);
        QVERIFY(torch::equal(kernels::letterbox_reference(interleaved, canvas), want));
        QVERIFY(torch::equal(kernels::letterbox_reference(images[1], canvas), want.slice(0, 1, 2)));
        canvas.channels_last = true;
        const torch::Tensor nhwc = kernels::letterbox_reference(interleaved, canvas);
        QVERIFY(nhwc.is_contiguous(torch::MemoryFormat::ChannelsLast));
        QVERIFY(torch::equal(nhwc, want));
        canvas.dtype = torch::kFloat16;
        const torch::Tensor half = kernels::letterbox_reference(interleaved, canvas);
        QCOMPARE(half.scalar_type(), torch::kFloat16);
        QVERIFY(torch::equal(half, want.to(torch::kFloat16)));
    }

    void badRequestsAreRefused() {
        const torch::Tensor pixels = pixels_of(random_image(10, 10, 1));
        InputCanvas canvas = kernels::input_canvas(10, 10, 32, 32, false, torch::kFloat32, false);
        canvas.image_width = 40;  // wider than the canvas
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::letterbox_reference(pixels, canvas));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::input_canvas(0, 10, 32, 32, false, torch::kFloat32, false));
        QVERIFY_THROWS_EXCEPTION(
            InvalidArgument,
            kernels::letterbox_reference(pixels.to(torch::kFloat32),
                                         kernels::input_canvas(10, 10, 32, 32, false, torch::kFloat32, false)));
    }

    void kernelsListTheSlot() {
        bool listed = false;
        for (const KernelSlotInfo& slot : kernel_report())
            if (slot.slot == "letterbox") listed = true;
        QVERIFY(listed);
    }
};

QTEST_GUILESS_MAIN(TestLetterboxSlot)
#include "test_letterbox_slot.moc"
