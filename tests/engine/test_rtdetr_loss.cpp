// RT-DETR's training loss against LibreYOLO's own (tests/fixtures/rtdetr_loss, written by
// scripts/fixtures/make_rtdetr_loss.py from LibreYOLO 1.6.0): the assignment solver against
// scipy's linear_sum_assignment, and on one batch of RT-DETR-r18 (seeded weights, training mode,
// the same seeded denoising draws) the training outputs, the denoising groups, the Hungarian
// assignment and every loss term. In float64, as the fixture: a random-weight RT-DETR amplifies
// float32's last-bit differences between CPUs' kernels past the 1e-4 compared here.
#include <QtTest/QtTest>

#include "support/query_pairing.h"
#include "support/seeded_weights.h"
#include "support/tensor_compare.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/linear_sum_assignment.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "models/rtdetr/criterion.h"
#include "models/rtdetr/rtdetr.h"

using namespace libreyolo;
using libreyolo::testing::as_float64;
using libreyolo::testing::in_order;
using libreyolo::testing::max_relative_difference;
using libreyolo::testing::pair_queries;
using libreyolo::testing::seeded_fill;
using libreyolo::testing::to_vector;
using namespace libreyolo::models::rtdetr;
using libreyolo::models::DetrTarget;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/rtdetr_loss/";

}  // namespace

class TestRtdetrLoss : public QObject {
    Q_OBJECT
    nlohmann::json want_ = nlohmann::json::parse(std::ifstream(kDir + "loss.json"));
    io::TensorFile outputs_ = io::read_safetensors(kDir + "outputs.safetensors");

private Q_SLOTS:
    void assignmentMatchesScipy() {
        const auto cases = nlohmann::json::parse(std::ifstream(kDir + "assignment.json"));
        for (const auto& [name, c] : cases.items()) {
            const auto rows = c["cost"].get<std::vector<std::vector<double>>>();
            std::vector<double> flat;
            for (const auto& r : rows) flat.insert(flat.end(), r.begin(), r.end());
            const Assignment a = linear_sum_assignment(flat, static_cast<int64_t>(rows.size()),
                                                       static_cast<int64_t>(rows.front().size()));
            QVERIFY2(a.rows == c["rows"].get<std::vector<int64_t>>(), name.c_str());
            QVERIFY2(a.cols == c["cols"].get<std::vector<int64_t>>(), name.c_str());
        }
        // Forbidden pairs (+inf) are avoided; a matrix with no finite assignment is an error.
        const double inf = INFINITY;
        const Assignment a = linear_sum_assignment({inf, 1, 2, inf}, 2, 2);
        QCOMPARE(a.cols, (std::vector<int64_t>{1, 0}));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, linear_sum_assignment({inf, inf, 1, 2}, 2, 2));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, linear_sum_assignment({NAN, 1}, 1, 2));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, linear_sum_assignment({1, 2, 3}, 2, 2));
        QVERIFY(linear_sum_assignment({}, 0, 4).rows.empty());
    }

    void trainingLossMatchesLibreYOLO() {
        RTDETRModel net("r18", 3);
        as_float64(*net);
        seeded_fill(*net, 4000, torch::kFloat64);
        net->train();
        const int64_t imgsz = 160, n = 3 * imgsz * imgsz;
        const torch::Tensor i = torch::arange(2 * n, torch::kFloat64).view({2, n});
        const torch::Tensor images =
            (0.5 + 0.5 * torch::sin(0.07 * i + 0.3 * torch::arange(2, torch::kFloat64).view({2, 1})))
                .view({2, 3, imgsz, imgsz});
        const std::vector<DetrTarget> targets = {
            {torch::tensor({0, 2, 1}, torch::kLong),
             torch::tensor({0.3f, 0.4f, 0.2f, 0.3f, 0.7f, 0.6f, 0.3f, 0.2f, 0.5f, 0.5f, 0.1f, 0.1f})
                 .to(torch::kFloat64)
                 .view({3, 4})},
            {torch::tensor({1}, torch::kLong),
             torch::tensor({0.45f, 0.55f, 0.5f, 0.4f}).to(torch::kFloat64).view({1, 4})}};
        torch::manual_seed(7);
        const TrainingOutput out = net->forward_train(images, targets);

        // Outputs: the last layer, the auxiliary levels, the denoising queries.
        QVERIFY(out.group.has_value());
        QCOMPARE(out.group->groups, want_["dn_num_group"].get<int64_t>());
        QCOMPARE(out.group->queries, want_["dn_num_split"][0].get<int64_t>());
        for (std::size_t img = 0; img < 2; ++img)
            QCOMPARE(to_vector(out.group->positive_index[img]),
                     want_["dn_positive_idx"][img].get<std::vector<int64_t>>());
        // The encoder's selection (the last auxiliary level) pairs our queries with LibreYOLO's.
        QCOMPARE(out.aux.size(), std::size_t(3));  // two earlier layers and the encoder's selection
        torch::Tensor pairing;
        try {
            pairing = pair_queries(out.aux[2].boxes.detach(), outputs_.tensors.at("aux2_boxes"));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        auto check = [&](const DecoderOutput& o, const std::string& prefix, bool paired) {
            const torch::Tensor their_logits = outputs_.tensors.at(prefix + "logits");
            const torch::Tensor their_boxes = outputs_.tensors.at(prefix + "boxes");
            const auto theirs = [&](const torch::Tensor& t) { return paired ? in_order(t, pairing) : t; };
            const double l = max_relative_difference(o.logits.detach(), theirs(their_logits));
            const double b = max_relative_difference(o.boxes.detach(), theirs(their_boxes));
            qInfo("%-8s logits %.1e boxes %.1e", prefix.c_str(), l, b);
            QVERIFY2(l < 1e-4 && b < 1e-4, prefix.c_str());
        };
        check(out.main, "", true);
        for (std::size_t k = 0; k < out.aux.size(); ++k) check(out.aux[k], "aux" + std::to_string(k) + "_", true);
        // The denoising queries come from the ground truth, in its order.
        QCOMPARE(out.denoising.size(), std::size_t(3));
        for (std::size_t k = 0; k < out.denoising.size(); ++k)
            check(out.denoising[k], "dn" + std::to_string(k) + "_", false);

        // Matching and every loss term.
        const RTDETRCriterion criterion(3);
        const LossTerms loss = criterion(out, targets);
        // The assignment: every ground truth gets the query LibreYOLO gave it (through the pairing).
        for (std::size_t img = 0; img < 2; ++img) {
            const auto their_queries = want_["matched"][0][img][0].get<std::vector<int64_t>>();
            const auto their_targets = want_["matched"][0][img][1].get<std::vector<int64_t>>();
            const std::vector<int64_t> our_queries = to_vector(loss.matched[img].queries);
            const std::vector<int64_t> our_targets = to_vector(loss.matched[img].targets);
            const std::vector<int64_t> partner = to_vector(pairing[static_cast<int64_t>(img)]);
            QCOMPARE(our_targets.size(), their_targets.size());
            for (std::size_t k = 0; k < our_targets.size(); ++k) {
                const auto j = std::find(their_targets.begin(), their_targets.end(), our_targets[k]);
                QVERIFY(j != their_targets.end());
                QVERIFY2(partner[static_cast<std::size_t>(our_queries[k])] == their_queries[j - their_targets.begin()],
                         qPrintable(QString("image %1 target %2").arg(img).arg(our_targets[k])));
            }
        }
        const auto& terms = want_["losses"];
        QCOMPARE(loss.terms.size() + 1, terms.size());  // + total_loss
        for (const auto& [name, value] : terms.items()) {
            const double theirs = value.get<double>();
            const double ours = name == "total_loss" ? loss.total.item<double>() : loss.terms.at(name).item<double>();
            QVERIFY2(std::abs(ours - theirs) <= 1e-4 * std::abs(theirs) + 1e-6,
                     qPrintable(QString("%1: ours %2, LibreYOLO %3").arg(name.c_str()).arg(ours).arg(theirs)));
        }
        const auto& parts = want_["components"];
        QVERIFY(std::abs(loss.vfl.item<double>() - parts["vfl"].get<double>()) < 1e-4 * parts["vfl"].get<double>());
        QVERIFY(std::abs(loss.bbox.item<double>() - parts["bbox"].get<double>()) < 1e-4 * parts["bbox"].get<double>());
        QVERIFY(std::abs(loss.giou.item<double>() - parts["giou"].get<double>()) < 1e-4 * parts["giou"].get<double>());

        // The loss trains: every parameter that LibreYOLO's graph reaches gets a finite gradient.
        loss.total.backward();
        const testing::GradientCheck grads = testing::check_gradients(*net);
        QVERIFY(grads.all_finite);
        QVERIFY(grads.with_grad > 300);
    }

    void imagesWithoutBoxesTrainToo() {
        RTDETRModel net("r18", 3);
        net->train();
        const std::vector<DetrTarget> targets = {
            {torch::zeros({0}, torch::kLong), torch::zeros({0, 4})},
            {torch::tensor({2}, torch::kLong), torch::tensor({0.5f, 0.5f, 0.2f, 0.2f}).view({1, 4})}};
        const TrainingOutput out = net->forward_train(torch::rand({2, 3, 160, 160}), targets);
        QCOMPARE(out.group->groups, int64_t(100));
        QCOMPARE(out.group->positive_index[0].numel(), int64_t(0));
        const LossTerms loss = RTDETRCriterion(3)(out, targets);
        QVERIFY(std::isfinite(loss.total.item<double>()));
        QCOMPARE(loss.matched[0].queries.numel(), int64_t(0));
        QCOMPARE(loss.matched[1].queries.numel(), int64_t(1));
        // No ground truth at all: no denoising queries, only the classification term pulls.
        const std::vector<DetrTarget> empty = {{torch::zeros({0}, torch::kLong), torch::zeros({0, 4})}};
        const TrainingOutput bare = net->forward_train(torch::rand({1, 3, 160, 160}), empty);
        QVERIFY(!bare.group.has_value());
        const LossTerms none = RTDETRCriterion(3)(bare, empty);
        QCOMPARE(none.bbox.item<double>(), 0.0);
        QVERIFY(none.vfl.item<double>() > 0);
    }
};

QTEST_APPLESS_MAIN(TestRtdetrLoss)
#include "test_rtdetr_loss.moc"
