#include "kernels_page.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "libreyolo/kernels.h"

KernelsPage::KernelsPage(QWidget* parent) : QWidget(parent) {
    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(4);
    tree_->setHeaderLabels({tr("Slot / implementation"), tr("Provider"), tr("Available"), tr("Status")});
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(true);
    policy_ = new QLabel(this);
    policy_->setWordWrap(true);
    auto* refreshButton = new QPushButton(tr("Refresh"), this);
    connect(refreshButton, &QPushButton::clicked, this, &KernelsPage::refresh);
    auto* top = new QHBoxLayout;
    top->addWidget(policy_, 1);
    top->addWidget(refreshButton);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(tree_, 1);
    refresh();
}

void KernelsPage::refresh() {
    const libreyolo::KernelPolicyInfo policy = libreyolo::kernel_policy();
    policy_->setText(
        tr("Override in effect: %1 · hub kernels: %2")
            .arg(QString::fromStdString(policy.override_in_effect), policy.hub_kernels ? tr("allowed") : tr("off")));
    tree_->clear();
    for (const libreyolo::KernelSlotInfo& slot : libreyolo::kernel_report()) {
        auto* item = new QTreeWidgetItem(tree_);
        item->setText(0, QString::fromStdString(slot.slot));
        item->setText(
            3, tr("uses %1 — %2").arg(QString::fromStdString(slot.active), QString::fromStdString(slot.signature)));
        for (const libreyolo::KernelCandidate& c : slot.candidates) {
            auto* child = new QTreeWidgetItem(item);
            child->setText(0, QString::fromStdString(c.name));
            child->setText(1, QString::fromStdString(c.provider));
            child->setText(2, c.available ? tr("yes") : tr("no"));
            child->setText(3, c.passed_over.empty() ? tr("in use")
                                                    : tr("passed over: %1").arg(QString::fromStdString(c.passed_over)));
        }
        item->setExpanded(true);
    }
    // The kernel plugins the manifests list (the in-tree ones, LIBREYOLO_HUB_MANIFEST's), with
    // where each comes from and what became of it.
    auto* plugins = new QTreeWidgetItem(tree_);
    plugins->setText(0, tr("Plugins"));
    const std::vector<libreyolo::KernelPluginInfo> listed = libreyolo::kernel_plugins();
    if (listed.empty()) plugins->setText(3, tr("none listed"));
    for (const libreyolo::KernelPluginInfo& p : listed) {
        auto* child = new QTreeWidgetItem(plugins);
        child->setText(0, QString::fromStdString(p.provider));
        child->setText(1, QString::fromStdString(p.source));
        child->setText(2, p.state == "loaded" ? tr("yes") : tr("no"));
        child->setText(3, QString::fromStdString(p.state + (p.build.empty() ? "" : " (" + p.build + ")")));
        child->setToolTip(3, QString::fromStdString(p.path));
    }
    plugins->setExpanded(true);
}

QString KernelsPage::policyText() const {
    return policy_->text();
}

void KernelsPage::showEvent(QShowEvent* event) {
    refresh();
    QWidget::showEvent(event);
}
