#pragma once
// Whether two lists of detections are the same: the parity tests' comparison with LibreYOLO's boxes.
#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

#include "libreyolo/results.h"

namespace libreyolo::testing {

// The detections a fixture recorded as LibreYOLO's postprocess returns them: parallel lists
// "boxes" (xyxy), "scores" and "classes".
inline std::vector<Detection> libreyolo_detections(const nlohmann::json& j) {
    std::vector<Detection> out;
    for (std::size_t i = 0; i < j["boxes"].size(); ++i) {
        const auto& b = j["boxes"][i];
        out.push_back({b[0].get<float>(), b[1].get<float>(), b[2].get<float>(), b[3].get<float>(),
                       j["scores"][i].get<float>(), j["classes"][i].get<int>()});
    }
    return out;
}

// Boxes of equal score may come out of NMS in any order (torch's sort is not stable), so both
// lists are put in one canonical order first.
inline std::vector<Detection> canonical(std::vector<Detection> d) {
    std::sort(d.begin(), d.end(), [](const Detection& a, const Detection& b) {
        return std::tie(b.conf, a.cls, a.x1, a.y1, a.x2, a.y2) < std::tie(a.conf, b.cls, b.x1, b.y1, b.x2, b.y2);
    });
    return d;
}

// Same boxes: class exact, corners within tol × max(1, |corner|), scores within tol.
inline void compare_detections(const std::vector<Detection>& got_in, const std::vector<Detection>& want_in, float tol) {
    const std::vector<Detection> got = canonical(got_in), want = canonical(want_in);
    QCOMPARE(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        const Detection &g = got[i], &w = want[i];
        const QString where = QString("box %1").arg(i);
        QVERIFY2(g.cls == w.cls, qPrintable(where + QString(" class %1 vs %2").arg(g.cls).arg(w.cls)));
        for (auto [a, b] : {std::pair{g.x1, w.x1}, {g.y1, w.y1}, {g.x2, w.x2}, {g.y2, w.y2}})
            QVERIFY2(std::abs(a - b) <= tol * std::max(1.0f, std::abs(b)),
                     qPrintable(where + QString(" %1 vs %2").arg(a).arg(b)));
        QVERIFY2(std::abs(g.conf - w.conf) <= tol,
                 qPrintable(where + QString(" conf %1 vs %2").arg(g.conf).arg(w.conf)));
    }
}

// Share of want's detections that got has: same class, corners within tolerance pixels, score
// within 1e-5 (lists whose order may differ).
inline double fraction_found(const std::vector<Detection>& want, const std::vector<Detection>& got, float tolerance) {
    std::size_t found = 0;
    for (const auto& w : want)
        for (const auto& g : got)
            if (w.cls == g.cls && std::abs(w.x1 - g.x1) < tolerance && std::abs(w.y1 - g.y1) < tolerance &&
                std::abs(w.x2 - g.x2) < tolerance && std::abs(w.y2 - g.y2) < tolerance &&
                std::abs(w.conf - g.conf) < 1e-5f) {
                ++found;
                break;
            }
    return want.empty() ? 1.0 : static_cast<double>(found) / static_cast<double>(want.size());
}

}  // namespace libreyolo::testing
