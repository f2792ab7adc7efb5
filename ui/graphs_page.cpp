#include "graphs_page.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include "graph_table_model.h"

GraphsPage::GraphsPage(QWidget* parent) : QWidget(parent) {
    model_ = new GraphTableModel(this);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->hide();

    auto* capture = new QPushButton(tr("Capture…"), this);
    auto* release = new QPushButton(tr("Release"), this);
    connect(capture, &QPushButton::clicked, this, &GraphsPage::askCapture);
    connect(release, &QPushButton::clicked, this, &GraphsPage::releaseRequested);
    summary_ = new QLabel(this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(capture);
    buttons->addWidget(release);
    buttons->addWidget(summary_, 1);

    training_ = new QLabel(tr("Training: no run"), this);
    training_->setWordWrap(true);
    auto* note = new QLabel(tr("Predicting with CUDA graph mode on or auto captures graphs (Predict page); a graph "
                               "replays the model's forward for one input key."),
                            this);
    note->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(table_, 1);
    layout->addWidget(training_);
    layout->addWidget(note);
    setGraphs({});
}

void GraphsPage::setGraphs(const std::vector<libreyolo::GraphInfo>& graphs) {
    model_->setRows(graphs);
    qlonglong replays = 0;
    double mib = 0;
    for (const auto& g : graphs) {
        replays += g.replays;
        mib += g.pool_bytes / 1048576.0;
    }
    summary_->setText(tr("%n graph(s), %1 replays, %2 MiB", nullptr, static_cast<int>(graphs.size()))
                          .arg(replays)
                          .arg(mib, 0, 'f', 1));
}

void GraphsPage::setTrainingState(const QString& state) {
    training_->setText(tr("Training: %1").arg(state));
}

QString GraphsPage::trainingState() const {
    return training_->text();
}

void GraphsPage::askCapture() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Capture a CUDA graph"));
    auto* imgsz = new QSpinBox(&dialog);
    imgsz->setRange(32, 4096);
    imgsz->setSingleStep(32);
    imgsz->setValue(640);
    auto* batch = new QSpinBox(&dialog);
    batch->setRange(1, 256);
    batch->setValue(1);
    auto* dtype = new QComboBox(&dialog);
    dtype->addItems({"float32", "float16"});
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("Image size"), imgsz);
    form->addRow(tr("Batch"), batch);
    form->addRow(tr("dtype"), dtype);
    form->addRow(buttons);
    if (dialog.exec() == QDialog::Accepted)
        Q_EMIT captureRequested(imgsz->value(), batch->value(), dtype->currentText());
}
