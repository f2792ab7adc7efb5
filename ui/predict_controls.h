#pragma once
// The Predict page's settings: confidence and IoU thresholds, input size, CUDA graph mode, the
// fused inference path (BatchNorm folded, PredictOptions::fuse) and device. A change of the first four emits changed()
// so the page can predict the current image again; a device change emits deviceChanged() (the model moves first).
// Without a CUDA GPU the graph modes on and auto and the cuda devices are listed but disabled.
#include <QWidget>

#include "libreyolo/model.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

class PredictControls : public QWidget {
    Q_OBJECT
public:
    explicit PredictControls(QWidget* parent = nullptr);
    libreyolo::PredictOptions options() const;
    void setConf(double conf);
    // Any mode, even one the user cannot choose here (a saved setting from a GPU machine): the
    // engine then says what it does with it.
    void setGraphMode(libreyolo::GraphMode mode);
    void setFuse(bool fuse);
    QString device() const;
    void setDevice(const QString& device);  // without emitting deviceChanged
    QComboBox* graphModeBox() const { return graph_; }
    QComboBox* deviceBox() const { return device_; }
    QCheckBox* fuseBox() const { return fuse_; }

Q_SIGNALS:
    void changed();
    void deviceChanged(const QString& device);

private:
    QDoubleSpinBox* conf_ = nullptr;
    QDoubleSpinBox* iou_ = nullptr;
    QSpinBox* imgsz_ = nullptr;
    QComboBox* graph_ = nullptr;
    QComboBox* device_ = nullptr;
    QCheckBox* fuse_ = nullptr;
};
