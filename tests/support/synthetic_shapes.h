#pragma once
// The synthetic shapes dataset for tests, rendered once per (count, size) into a test's scratch
// folder, as PPM so that builds without image codecs (the GPU host) read it.
#include <QTemporaryDir>

#include <filesystem>

#include "libreyolo/synth.h"

namespace libreyolo::testing {

inline SynthSummary synthetic_shapes(const QTemporaryDir& dir, int n, int imgsz) {
    SynthOptions s;
    s.out = dir.filePath(QString("shapes-%1-%2").arg(n).arg(imgsz)).toStdString();
    s.n = n;
    s.imgsz = imgsz;
    s.format = "ppm";
    if (!std::filesystem::exists(s.out + "/data.yaml")) return render_synthetic_dataset(s);
    SynthSummary rendered;  // by an earlier test
    rendered.data_yaml = s.out + "/data.yaml";
    return rendered;
}

}  // namespace libreyolo::testing
