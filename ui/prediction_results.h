#pragma once
// The last prediction of every image predicted so far (video frames are not kept), and their
// saving: <stem>.png with the detections drawn, and predictions.json with all of them.
#include <QCoreApplication>
#include <QHash>
#include <QString>

#include "libreyolo/results.h"

class PredictionResults {
    Q_DECLARE_TR_FUNCTIONS(PredictionResults)
public:
    void add(const libreyolo::Result& result);
    bool isEmpty() const { return byPath_.isEmpty(); }
    // Writes each file atomically into folder (created if needed). Returns the images written, or
    // -1 with the reason in error.
    int save(const QString& folder, QString* error = nullptr) const;

private:
    QHash<QString, libreyolo::Result> byPath_;
};
