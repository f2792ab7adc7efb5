#pragma once
// The Train page's form: model (typed, or chosen from the pretrained models), whether a name starts
// from LibreYOLO's pretrained weights, data, epochs, batch, imgsz, device, optimizer, lr0, AMP, CUDA
// graph, project folder and run name, as libreyolo::TrainOptions over the model family's defaults
// (libreyolo::train_defaults) for what the form does not show. Options that need a CUDA GPU (AMP,
// CUDA graph, cuda devices) are disabled where there is none.
#include <QWidget>

#include <string>

#include "engine_metatypes.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

class TrainForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainForm(QWidget* parent = nullptr);

    // resume=false, exist_ok=false: a run never writes over another, the engine numbers a taken
    // name (exp, exp2, ...).
    libreyolo::TrainOptions options() const;
    void setOptions(const libreyolo::TrainOptions& options);
    // options() for a new run. Run name may still show the folder a run reported: the new run
    // starts from the name typed before it, so the engine numbers exp3 after exp2, not exp22.
    libreyolo::TrainOptions newRunOptions();
    // A run reported its folder: Run name shows its actual name, which Resume continues.
    void showRunFolder(const QString& dir);
    // The folder name showRunFolder put in Run name for the current run (empty until then).
    QString runFolderName() const { return runFolderName_; }
    void focusData();
    // The pretrained-model picker (a ModelPickerDialog); choosing a model whose weights are not on
    // disk downloads them behind a progress dialog when Pretrained is checked.
    void choosePretrainedModel();

Q_SIGNALS:
    // The form took another family's defaults: a line for the log.
    void familyDefaultsApplied(const QString& line);

private:
    // A model name of another family puts that family's defaults in the form (epochs, batch,
    // optimizer, lr0): RT-DETR trains with AdamW at 1e-4, YOLOv9 with SGD at 0.01.
    void applyFamilyDefaults();

    std::string family_;  // of the model the form's defaults are for
    QString runBaseName_, runFolderName_;

    QLineEdit* model_ = nullptr;
    QCheckBox* pretrained_ = nullptr;
    QLineEdit* data_ = nullptr;
    QSpinBox* epochs_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* imgsz_ = nullptr;
    QComboBox* device_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    QDoubleSpinBox* lr0_ = nullptr;
    QCheckBox* amp_ = nullptr;
    QCheckBox* cudaGraph_ = nullptr;
    QLineEdit* project_ = nullptr;
    QLineEdit* name_ = nullptr;
};
