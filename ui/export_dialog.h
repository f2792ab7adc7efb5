#pragma once
// File ▸ Export model…: `libreyolo export`'s options in a form (the file, input size, batch,
// dynamic batch, float16, embedded NMS with its thresholds, opset). The export itself runs on the
// Predict page's worker thread (MainWindow::exportModel).
#include <QDialog>

#include "libreyolo/export.h"

class QCheckBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    // model: the loaded model's file or name, for the default file name the form shows.
    explicit ExportDialog(const QString& model, QWidget* parent = nullptr);

    libreyolo::ExportOptions options() const;
    void setOptions(const libreyolo::ExportOptions& options);

    QLineEdit* outputEdit() const { return output_; }
    QCheckBox* dynamicBox() const { return dynamic_; }
    QCheckBox* nmsBox() const { return nms_; }

private:
    void browse();
    void updateEnabled();

    QLineEdit* output_ = nullptr;
    QSpinBox* imgsz_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QCheckBox* dynamic_ = nullptr;
    QCheckBox* half_ = nullptr;
    QCheckBox* nms_ = nullptr;
    QDoubleSpinBox* conf_ = nullptr;
    QDoubleSpinBox* iou_ = nullptr;
    QSpinBox* maxDet_ = nullptr;
    QSpinBox* opset_ = nullptr;
};
