#pragma once
// The Train page's form, made from the training options schema (libreyolo/options.h): a row for
// every option, the basics on the form and the rest (optimisation, augmentation, the run) under
// "More options", each with its help as tooltip. The model's row types a name or file or opens the
// pretrained picker; data browses for a YAML; options that need a CUDA GPU (AMP, CUDA graph, cuda
// devices) are disabled where there is none; options of other families are hidden. resume and
// exist_ok are the page's buttons' to set, and the distributed options the CLI's (the studio trains
// in one process).
#include <QWidget>

#include <string>
#include <vector>

#include "engine_metatypes.h"
#include "option_editor.h"

class QFormLayout;
class QLineEdit;
class QToolButton;

class TrainForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainForm(QWidget* parent = nullptr);

    // The model family's defaults (libreyolo::train_defaults) with every row's value over them;
    // resume=false, exist_ok=false: a run never writes over another, the engine numbers a taken
    // name (exp, exp2, ...). A row whose text does not parse keeps the default (problem() says so).
    libreyolo::TrainOptions options() const;
    void setOptions(const libreyolo::TrainOptions& options);
    // What is wrong with the form's values, naming the option ("epochs=0: must be ..."); empty when
    // a run can start.
    QString problem() const;
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
    // The form took another model's defaults: a line for the log.
    void familyDefaultsApplied(const QString& line);

private:
    struct Row {
        const libreyolo::OptionSpec* spec;
        OptionEditor editor;
        QFormLayout* form;  // the layout holding its row
    };
    OptionEditor makeEditor(const libreyolo::OptionSpec& spec);
    // The model's defaults with every row's value over them; a row whose text does not parse keeps
    // the default, and the first such row's error goes to problem (when given).
    libreyolo::TrainOptions readRows(QString* problem) const;
    const Row* row(const std::string& key) const;
    // A model name of another family or size puts that model's defaults in the rows whose default
    // differs (RT-DETR trains with AdamW at 1e-4, YOLOv9 with SGD at 0.01) and shows only the rows
    // of options that act on its family.
    void applyFamilyDefaults();
    void showFamilyRows(const std::string& family);

    std::string defaultsModel_;  // the model whose defaults the rows were set from
    QString runBaseName_, runFolderName_;
    std::vector<Row> rows_;
    QLineEdit* model_ = nullptr;
    QLineEdit* data_ = nullptr;
    QLineEdit* name_ = nullptr;
    QToolButton* more_ = nullptr;
};
