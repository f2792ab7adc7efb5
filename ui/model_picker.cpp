#include "model_picker.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "libreyolo/pretrained.h"
#include "pretrained_catalog.h"

ModelPickerDialog::ModelPickerDialog(QWidget* parent) : QDialog(parent) {
    setObjectName("modelPicker");
    setWindowTitle(tr("Pretrained models"));
    catalog_ = new PretrainedCatalog(this);
    table_ = new QTableView(this);
    table_->setModel(catalog_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->resizeColumnsToContents();
    table_->selectRow(0);
    connect(table_, &QTableView::doubleClicked, this, &ModelPickerDialog::choose);

    const QString cache = QString::fromStdString(libreyolo::PretrainedOptions::from_environment().cache.string());
    auto* note = new QLabel(tr("LibreYOLO's published weights (COCO, 80 classes). Files in ./weights/ come first; "
                               "a model not on disk is downloaded once into %1.")
                                .arg(cache),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Use model"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ModelPickerDialog::choose);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(note);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    resize(720, 420);
}

bool ModelPickerDialog::select(const QString& name) {
    const int row = catalog_->rowOf(name);
    if (row >= 0) table_->selectRow(row);
    return row >= 0;
}

void ModelPickerDialog::choose() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    accept();
    Q_EMIT modelChosen(catalog_->nameAt(rows.front().row()));
}
