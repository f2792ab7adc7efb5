#pragma once
// The Kernels page: per kernel slot the implementation in use, the candidates with their provider
// (reference, in-tree, hub), whether each is available and why it was passed over, the kernel
// plugins with their state, and the override in effect; read from the engine's registry whenever
// the page is shown or refreshed.
#include <QWidget>

class QLabel;
class QTreeWidget;

class KernelsPage : public QWidget {
    Q_OBJECT
public:
    explicit KernelsPage(QWidget* parent = nullptr);
    QTreeWidget* tree() const { return tree_; }
    QString policyText() const;

public Q_SLOTS:
    void refresh();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QTreeWidget* tree_ = nullptr;
    QLabel* policy_ = nullptr;
};
