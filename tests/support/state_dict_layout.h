#pragma once
// A module's state_dict against the layout LibreYOLO's fixture scripts write ("keys": name →
// shape, "parameters": count): the same keys, each with the same shape, and the same number of
// parameters. QTest checks: call from a test function.
#include <torch/torch.h>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "io/checkpoint.h"
#include "nn/flop_counter.h"

namespace libreyolo::testing {

inline void compare_layout(const torch::nn::Module& net, const nlohmann::json& want) {
    const auto ours = io::state_dict(net);
    QCOMPARE(ours.size(), want["keys"].size());
    for (const auto& [key, shape] : want["keys"].items()) {
        QVERIFY2(ours.count(key), key.c_str());
        QVERIFY2(ours.at(key).sizes().vec() == shape.get<std::vector<int64_t>>(), key.c_str());
    }
    QCOMPARE(static_cast<qint64>(nn::count_parameters(net)), want["parameters"].get<qint64>());
}

}  // namespace libreyolo::testing
