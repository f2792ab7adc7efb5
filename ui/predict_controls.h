#pragma once
// The Predict page's settings: confidence and IoU thresholds, input size and CUDA graph mode.
// Any change emits changed() so the page can predict the current image again.
#include <QWidget>

#include "libreyolo/model.h"

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

class PredictControls : public QWidget {
    Q_OBJECT
public:
    explicit PredictControls(QWidget* parent = nullptr);
    libreyolo::PredictOptions options() const;
    void setConf(double conf);
    void setGraphMode(libreyolo::GraphMode mode);

Q_SIGNALS:
    void changed();

private:
    QDoubleSpinBox* conf_ = nullptr;
    QDoubleSpinBox* iou_ = nullptr;
    QSpinBox* imgsz_ = nullptr;
    QComboBox* graph_ = nullptr;
};
