#pragma once
// The Kernels page: per kernel slot the implementation in use, the candidates with their provider
// (reference, in-tree, hub), whether each is available and why it was passed over, the kernel
// plugins with their state, and the override in effect; read from the engine's registry whenever
// the page is shown or refreshed. The read runs on a thread of its own (its first one loads the
// kernel plugins, which may take a while); the engine's English is shown in the user's language
// where the studio knows the sentence.
#include <QPointer>
#include <QThread>
#include <QWidget>

#include <string>

class QLabel;
class QTreeWidget;

class KernelsPage : public QWidget {
    Q_OBJECT
public:
    explicit KernelsPage(QWidget* parent = nullptr);
    ~KernelsPage() override;
    QTreeWidget* tree() const { return tree_; }
    QString policyText() const;

    // A sentence of the engine's kernel report (a slot description, why a candidate was passed
    // over, a plugin state, the override in effect), translated when it is one the engine is known
    // to write (what it fills in kept as it is); any other text as the engine wrote it.
    static QString engineText(const std::string& english);

public Q_SLOTS:
    // Reads the registry in the background; refreshed() follows once the page shows the state as
    // of the last call.
    void refresh();

Q_SIGNALS:
    void refreshed();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Report;
    void showReport(const Report& report);

    QTreeWidget* tree_ = nullptr;
    QLabel* policy_ = nullptr;
    QPointer<QThread> reader_;  // the read in progress, if any
    bool readAgain_ = false;    // refresh() came during that read: its result may be stale
};
