#pragma once
// Choose a pretrained model: the PretrainedCatalog in a table (model, family, parameters, input
// size, weights on disk or not). "Use model" (or a double click) emits modelChosen with the name;
// the caller fetches the weights (WeightsDownloadDialog) when they are not on disk yet.
#include <QDialog>

class PretrainedCatalog;
class QTableView;

class ModelPickerDialog : public QDialog {
    Q_OBJECT
public:
    explicit ModelPickerDialog(QWidget* parent = nullptr);
    QTableView* table() const { return table_; }
    PretrainedCatalog* catalog() const { return catalog_; }
    // Selects name's row (the model in use, say); false when it is not listed.
    bool select(const QString& name);

Q_SIGNALS:
    void modelChosen(const QString& name);

private:
    void choose();

    PretrainedCatalog* catalog_ = nullptr;
    QTableView* table_ = nullptr;
};
