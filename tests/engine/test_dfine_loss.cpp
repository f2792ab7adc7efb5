// D-FINE's and DEIM's training against LibreYOLO's own (tests/fixtures/dfine_loss, written by
// scripts/fixtures/make_dfine_loss.py from LibreYOLO 1.6.0): the criterion of each family on
// LibreYOLO's training outputs (every term, the assignment and the union assignment), and our
// training forward of dfine-n and deim-n (seeded weights, training mode, the same seeded
// denoising draws) against LibreYOLO's outputs, in float64 as the fixture, then through the
// criterion and backwards.
#include <QtTest/QtTest>

#include "support/query_pairing.h"
#include "support/seeded_weights.h"
#include "support/tensor_compare.h"

#include <nlohmann/json.hpp>

#include <fstream>

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "models/dfine_network/criterion.h"
#include "models/dfine_network/dfine_network.h"
#include "models/dfine_network/fdr.h"

using namespace libreyolo;
using namespace libreyolo::models::dfine_network;
using libreyolo::models::DetrTarget;
using libreyolo::models::MatchedPairs;
using libreyolo::testing::max_relative_difference;
using libreyolo::testing::to_vector;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/dfine_loss/";
constexpr int64_t kClasses = 3, kImgsz = 320, kSeed = 5000;

Variant variant_of(const std::string& family) {
    return family == "deim" ? Variant::DEIM : Variant::DFINE;
}

std::vector<DetrTarget> fixture_targets(torch::Dtype dtype) {
    const auto j = nlohmann::json::parse(std::ifstream(kDir + "targets.json"));
    std::vector<DetrTarget> out;
    for (const auto& t : j) {
        const auto labels = t["labels"].get<std::vector<int64_t>>();
        std::vector<double> boxes;
        for (const auto& b : t["boxes"])
            for (const double v : b) boxes.push_back(v);
        out.push_back(
            {torch::tensor(labels, torch::kLong), torch::tensor(boxes, torch::kFloat64).view({-1, 4}).to(dtype)});
    }
    return out;
}

// LibreYOLO's training outputs from the fixture, in our layout.
TrainingOutput fixture_outputs(const io::TensorFile& file, const nlohmann::json& loss) {
    const auto at = [&](const std::string& name) { return file.tensors.at(name); };
    const auto layer = [&](const std::string& prefix) {
        return LayerOutput{at(prefix + "_logits"), at(prefix + "_boxes"), at(prefix + "_corners"),
                           at(prefix + "_refs")};
    };
    TrainingOutput out;
    for (int k = 0; k < loss["layers"].get<int>(); ++k) out.layers.push_back(layer("layer" + std::to_string(k)));
    out.pre = {at("pre_logits"), at("pre_boxes")};
    out.encoder_top = {at("enc_logits"), at("enc_boxes")};
    for (int k = 0; k < loss["layers"].get<int>(); ++k) out.denoising_layers.push_back(layer("dn" + std::to_string(k)));
    out.denoising_pre = {at("dn_pre_logits"), at("dn_pre_boxes")};
    models::DenoisingGroup group;
    group.groups = loss["dn_num_group"].get<int64_t>();
    group.queries = loss["dn_num_split"][0].get<int64_t>();
    for (const auto& p : loss["dn_positive_idx"])
        group.positive_index.push_back(torch::tensor(p.get<std::vector<int64_t>>(), torch::kLong));
    out.group = group;
    return out;
}

void compare_pairs(const std::vector<MatchedPairs>& ours, const nlohmann::json& theirs, const char* what) {
    QCOMPARE(ours.size(), theirs.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
        QVERIFY2(to_vector(ours[i].queries) == theirs[i][0].get<std::vector<int64_t>>(), what);
        QVERIFY2(to_vector(ours[i].targets) == theirs[i][1].get<std::vector<int64_t>>(), what);
    }
}

void compare_terms(const LossTerms& ours, const nlohmann::json& want, double tolerance) {
    const auto& terms = want["losses"];
    QCOMPARE(ours.terms.size(), terms.size());
    for (const auto& [name, value] : terms.items()) {
        QVERIFY2(ours.terms.count(name), name.c_str());
        const double theirs = value.get<double>(), got = ours.terms.at(name).item<double>();
        QVERIFY2(std::abs(got - theirs) <= tolerance * std::abs(theirs) + 1e-6,
                 qPrintable(QString("%1: ours %2, LibreYOLO %3").arg(name.c_str()).arg(got).arg(theirs)));
    }
    const double total = want["total"].get<double>();
    QVERIFY2(std::abs(ours.total.item<double>() - total) <= tolerance * total,
             qPrintable(QString("total: ours %1, LibreYOLO %2").arg(ours.total.item<double>()).arg(total)));
}

// make_dfine_loss.py's seeded_float64: float64 draws, the constant entries as built, the affine
// blocks' scales around 1.
DFINENetwork seeded_network(const std::string& family) {
    DFINENetwork net(network_options(variant_of(family), "n", kClasses));
    testing::as_float64(*net);
    testing::seeded_fill(*net, kSeed, torch::kFloat64);
    torch::NoGradGuard no_grad;
    net->decoder->reset_constants();
    for (auto& [name, t] : io::state_dict(*net))
        if (name.ends_with(".lab.scale")) t.add_(1);
    return net;
}

torch::Tensor fixture_images() {
    const int64_t n = 3 * kImgsz * kImgsz;
    const torch::Tensor i = torch::arange(2 * n, torch::kFloat64).view({2, n});
    return (0.5 + 0.5 * torch::sin(0.07 * i + 0.3 * torch::arange(2, torch::kFloat64).view({2, 1})))
        .view({2, 3, kImgsz, kImgsz});
}

}  // namespace

class TestDfineLoss : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void criterionMatchesLibreYOLO_data() {
        QTest::addColumn<QString>("family");
        QTest::newRow("dfine") << QString("dfine");
        QTest::newRow("deim") << QString("deim");
    }
    // On LibreYOLO's own outputs (float32, as training runs the criterion): the same inputs, so the
    // same assignments exactly and every term within 1e-4.
    void criterionMatchesLibreYOLO() {
        QFETCH(QString, family);
        const std::string f = family.toStdString();
        const auto want = nlohmann::json::parse(std::ifstream(kDir + f + "_loss.json"));
        const io::TensorFile file = io::read_safetensors(kDir + f + "_outputs.safetensors");
        const TrainingOutput outputs = fixture_outputs(file, want);
        const DFINECriterion criterion(variant_of(f), kClasses);
        const LossTerms loss =
            criterion(outputs, fixture_targets(torch::kFloat32), file.tensors.at("up"), file.tensors.at("reg_scale"));
        compare_pairs(loss.matched, want["matched"], "last layer's assignment");
        compare_pairs(loss.union_matched, want["union"], "union assignment");
        compare_terms(loss, want, 1e-4);
        const std::vector<std::string> names = criterion.component_names();
        QCOMPARE(names.front(), std::string(f == "deim" ? "mal" : "vfl"));
        for (std::size_t k = 0; k < names.size(); ++k) {
            const double theirs = want["components"][names[k]].get<double>();
            QVERIFY2(std::abs(loss.components[k].item<double>() - theirs) <= 1e-4 * theirs, names[k].c_str());
        }
    }

    void trainingForwardMatchesLibreYOLO_data() { criterionMatchesLibreYOLO_data(); }
    void trainingForwardMatchesLibreYOLO() {
        QFETCH(QString, family);
        const std::string f = family.toStdString();
        const auto want = nlohmann::json::parse(std::ifstream(kDir + f + "_loss.json"));
        const io::TensorFile file = io::read_safetensors(kDir + f + "_outputs.safetensors");
        DFINENetwork net = seeded_network(f);
        net->train();
        const std::vector<DetrTarget> targets = fixture_targets(torch::kFloat64);
        torch::manual_seed(7);
        const TrainingOutput out = net->forward_train(fixture_images(), targets);

        QVERIFY(out.group.has_value());
        QCOMPARE(out.group->groups, want["dn_num_group"].get<int64_t>());
        QCOMPARE(out.group->queries, want["dn_num_split"][0].get<int64_t>());
        for (std::size_t img = 0; img < 2; ++img)
            QCOMPARE(to_vector(out.group->positive_index[img]),
                     want["dn_positive_idx"][img].get<std::vector<int64_t>>());
        QCOMPARE(out.layers.size(), want["layers"].get<std::size_t>());
        QCOMPARE(out.denoising_layers.size(), out.layers.size());

        torch::Tensor pairing;
        try {
            pairing = testing::pair_queries(out.encoder_top.boxes.detach(), file.tensors.at("enc_boxes"));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        // Outputs are compared in the fixture's float32; 1e-4 of the largest value.
        const auto check = [&](const torch::Tensor& ours, const std::string& name, bool paired) {
            const torch::Tensor theirs = file.tensors.at(name);
            const double d = max_relative_difference(ours.detach().to(torch::kFloat32),
                                                     paired ? testing::in_order(theirs, pairing) : theirs);
            QVERIFY2(d < 1e-4, qPrintable(QString("%1: %2").arg(name.c_str()).arg(d)));
        };
        check(out.encoder_top.logits, "enc_logits", true);
        check(out.encoder_top.boxes, "enc_boxes", true);
        check(out.pre.logits, "pre_logits", true);
        check(out.pre.boxes, "pre_boxes", true);
        check(out.denoising_pre.logits, "dn_pre_logits", false);
        check(out.denoising_pre.boxes, "dn_pre_boxes", false);
        for (std::size_t k = 0; k < out.layers.size(); ++k) {
            const std::string l = "layer" + std::to_string(k), d = "dn" + std::to_string(k);
            check(out.layers[k].logits, l + "_logits", true);
            check(out.layers[k].boxes, l + "_boxes", true);
            check(out.layers[k].corners, l + "_corners", true);
            check(out.layers[k].references, l + "_refs", true);
            check(out.denoising_layers[k].logits, d + "_logits", false);
            check(out.denoising_layers[k].boxes, d + "_boxes", false);
            check(out.denoising_layers[k].corners, d + "_corners", false);
            check(out.denoising_layers[k].references, d + "_refs", false);
        }

        // Through the criterion (float64 here) to every term, and backwards.
        const DFINECriterion criterion(variant_of(f), kClasses);
        const LossTerms loss = criterion(out, targets, net->decoder->up, net->decoder->reg_scale);
        compare_terms(loss, want, 1e-4);
        loss.total.backward();
        const testing::GradientCheck grads = testing::check_gradients(*net);
        QVERIFY(grads.all_finite);
        QVERIFY(grads.with_grad > 300);
    }

    // GO-LSD's union: each query once, with the partner most levels gave it.
    void unionKeepsEachQuerysMostFrequentPartner() {
        const auto pairs = [](std::vector<int64_t> q, std::vector<int64_t> t) {
            return std::vector<MatchedPairs>{{torch::tensor(q, torch::kLong), torch::tensor(t, torch::kLong)},
                                             {torch::zeros({0}, torch::kLong), torch::zeros({0}, torch::kLong)}};
        };
        const auto merged = union_of_matches({pairs({5, 9}, {0, 1}), pairs({5, 7}, {1, 0}), pairs({5, 9}, {1, 0})});
        // Query 5: partner 1 twice, 0 once; query 9: 1 once, 0 once (the first in sorted order); 7: 0.
        std::map<int64_t, int64_t> partner;
        const auto q = to_vector(merged[0].queries), t = to_vector(merged[0].targets);
        for (std::size_t k = 0; k < q.size(); ++k) QVERIFY(partner.emplace(q[k], t[k]).second);
        QCOMPARE(partner.size(), std::size_t(3));
        QCOMPARE(partner[5], int64_t(1));
        QCOMPARE(partner[7], int64_t(0));
        QCOMPARE(merged[1].queries.numel(), int64_t(0));
    }

    // The localisation targets: an offset between two bins splits by distance; beyond the ends it
    // goes whole to the end bin.
    void distanceTargetsSplitBetweenBins() {
        const torch::Tensor up = torch::tensor({0.5f}), reg_scale = torch::tensor({4.0f});
        const torch::Tensor values = weighting_function(32, up, reg_scale);
        // A reference box at the centre, size 1 x 1: an edge at distance d from it has offset
        // d · reg_scale − reg_scale / 2.
        const torch::Tensor points = torch::tensor({0.5f, 0.5f, 1.0f, 1.0f}).view({1, 4});
        const float mid = 0.5f * (values[20].item<float>() + values[21].item<float>());
        const float d = (mid + 2.0f) / 4.0f;
        const torch::Tensor boxes = torch::tensor({0.5f - d, 0.5f - 10.0f, 0.5f + 10.0f, 0.5f - 1.0f}).view({1, 4});
        const DistanceTargets t = box_to_distance(points, boxes, 32, reg_scale, up);
        QVERIFY(std::abs(t.bins[0].item<float>() - 20.0f) < 1e-5);  // left: halfway between bins 20 and 21
        QVERIFY(std::abs(t.weight_left[0].item<float>() - 0.5f) < 1e-4);
        QVERIFY(std::abs(t.weight_right[0].item<float>() - 0.5f) < 1e-4);
        QVERIFY(std::abs(t.bins[1].item<float>() - 31.9f) < 1e-5);  // top: far beyond the last bin
        QCOMPARE(t.weight_right[1].item<float>(), 1.0f);
        QCOMPARE(t.bins[3].item<float>(), 0.0f);  // bottom: below the first bin
        QCOMPARE(t.weight_left[3].item<float>(), 1.0f);
    }

    // A batch without boxes trains too: finite terms, no denoising queries.
    void imagesWithoutBoxesTrainToo() {
        DFINENetwork net(network_options(Variant::DEIM, "n", kClasses));
        net->train();
        const std::vector<DetrTarget> empty(2, {torch::zeros({0}, torch::kLong), torch::zeros({0, 4})});
        const TrainingOutput out = net->forward_train(torch::rand({2, 3, kImgsz, kImgsz}), empty);
        QVERIFY(!out.group.has_value());
        const LossTerms loss =
            DFINECriterion(Variant::DEIM, kClasses)(out, empty, net->decoder->up, net->decoder->reg_scale);
        QVERIFY(torch::isfinite(loss.total).item<bool>());
        loss.total.backward();
    }
};

QTEST_GUILESS_MAIN(TestDfineLoss)
#include "test_dfine_loss.moc"
