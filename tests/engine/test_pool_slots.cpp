// The pool slots of YOLOv9's fused copy on the CPU (their references; the CUDA kernels are checked
// against them in tests/gpu/test_cuda_kernels.cpp): spp_max_pool writes SPPELAN's cascade into the
// buffer's parts, equal to the eager block's three max_pool2d calls and torch::cat, also on a
// channels-last buffer; avg_pool_2x2 is LibTorch's avg_pool2d(x, 2, 1); bad shapes are refused by
// name; `libreyolo kernels` lists both slots.
#include <QtTest/QtTest>

#include "kernels/pool_slots.h"
#include "libreyolo/errors.h"
#include "libreyolo/kernels.h"

using namespace libreyolo;
namespace F = torch::nn::functional;

class TestPoolSlots : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sppMaxPoolIsTheEagerCascade() {
        torch::manual_seed(0);
        for (const auto format : {torch::MemoryFormat::Contiguous, torch::MemoryFormat::ChannelsLast}) {
            const torch::Tensor x = torch::randn({2, 8, 11, 9});
            std::vector<torch::Tensor> parts{x};
            for (int i = 0; i < 3; ++i)
                parts.push_back(F::max_pool2d(parts.back(), F::MaxPool2dFuncOptions(5).stride(1).padding(2)));
            const torch::Tensor expected = torch::cat(parts, 1);
            torch::Tensor buffer = torch::empty({2, 32, 11, 9}, torch::TensorOptions().memory_format(format));
            buffer.slice(1, 0, 8).copy_(x);
            QVERIFY(torch::equal(kernels::spp_max_pool_slot()(buffer, 8), expected));
            QVERIFY(torch::equal(buffer, expected));
        }
    }

    void avgPool2x2IsLibTorchsSmoothing() {
        const torch::Tensor x = torch::randn({1, 5, 7, 6}).contiguous(torch::MemoryFormat::ChannelsLast);
        const torch::Tensor y = kernels::avg_pool_2x2_slot()(x);
        QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{1, 5, 6, 5}));
        QVERIFY(
            torch::equal(y, F::avg_pool2d(x, F::AvgPool2dFuncOptions(2).stride(1).padding(0).count_include_pad(true))));
    }

    void badShapesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::spp_max_pool_reference(torch::zeros({1, 12, 4, 4}), 4));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::spp_max_pool_reference(torch::zeros({12, 4, 4}), 3));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::avg_pool_2x2_reference(torch::zeros({1, 3, 1, 4})));
    }

    void kernelsListTheSlots() {
        int found = 0;
        for (const KernelSlotInfo& slot : kernel_report())
            if (slot.slot == "spp_max_pool" || slot.slot == "avg_pool_2x2") ++found;
        QCOMPARE(found, 2);
    }
};

QTEST_GUILESS_MAIN(TestPoolSlots)
#include "test_pool_slots.moc"
