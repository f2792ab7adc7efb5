#include "kernels_page.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QThread>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <memory>
#include <vector>

#include "libreyolo/kernels.h"

namespace {

// The English the engine writes into its kernel report (engine/src/kernels: slot.h, policy.cpp,
// hub/hub.cpp, in_tree_cuda.h and the slots' definitions); %1 and %2 stand for what it fills in
// (a provider, a variable's or the application's setting, an error's own text), itself translated
// where it is one of these. The first pattern that matches wins.
constexpr const char* kEngineTexts[] = {
    // Slot descriptions.
    QT_TRANSLATE_NOOP("KernelsPage", "class-aware NMS: (boxes, scores, classes, iou) -> kept indices"),
    QT_TRANSLATE_NOOP("KernelsPage",
                      "FP8 E4M3 fake quantization: (x, broadcastable scale) -> x on the E4M3 grid, STE gradient"),
    QT_TRANSLATE_NOOP("KernelsPage",
                      "multi-scale deformable attention: (value, sampling_locations, attention_weights, levels) -> "
                      "(N, queries, heads·channels)"),
    // The implementation in use, when none is.
    QT_TRANSLATE_NOOP("KernelsPage", "unavailable"),
    // Why a candidate was passed over.
    QT_TRANSLATE_NOOP("KernelsPage", "a later registration is preferred"),
    QT_TRANSLATE_NOOP("KernelsPage", "its predicate declined the last call"),
    QT_TRANSLATE_NOOP("KernelsPage", "its predicate threw: %1"),
    QT_TRANSLATE_NOOP("KernelsPage", "an accelerated implementation applies"),
    QT_TRANSLATE_NOOP("KernelsPage", "no CUDA device"),
    QT_TRANSLATE_NOOP("KernelsPage", "failed when run: %1"),
    QT_TRANSLATE_NOOP("KernelsPage", "its provider failed: %1"),
    // The application's policy (set_kernel_policy) before the general forms, which read badly
    // around it in Italian.
    QT_TRANSLATE_NOOP("KernelsPage", "references forced by the application's setting '%1'"),
    QT_TRANSLATE_NOOP("KernelsPage", "only provider '%1' by the application's setting '%2'"),
    QT_TRANSLATE_NOOP("KernelsPage", "references forced by %1"),
    QT_TRANSLATE_NOOP("KernelsPage", "hub plugins off (%1)"),
    QT_TRANSLATE_NOOP("KernelsPage", "only provider '%1' by %2"),
    // The override in effect.
    QT_TRANSLATE_NOOP("KernelsPage", "none"),
    QT_TRANSLATE_NOOP("KernelsPage", "references only (%1)"),
    QT_TRANSLATE_NOOP("KernelsPage", "provider '%1' only (%2)"),
    // Who set the policy, when it is the application rather than the environment.
    QT_TRANSLATE_NOOP("KernelsPage", "the application's setting"),
    QT_TRANSLATE_NOOP("KernelsPage", "the application's setting '%1'"),
    // What became of a plugin.
    QT_TRANSLATE_NOOP("KernelsPage", "loaded"),
    QT_TRANSLATE_NOOP("KernelsPage", "skipped: %1"),
    QT_TRANSLATE_NOOP("KernelsPage", "not loaded: %1"),
    QT_TRANSLATE_NOOP("KernelsPage", "refused: %1"),
    QT_TRANSLATE_NOOP("KernelsPage", "disabled: %1"),
    // Why a plugin's build does not fit this machine.
    QT_TRANSLATE_NOOP("KernelsPage", "built for torch %1, this is torch %2"),
    QT_TRANSLATE_NOOP("KernelsPage", "built for CUDA %1, this LibTorch has CUDA %2"),
    QT_TRANSLATE_NOOP("KernelsPage", "built for %1, this machine's GPU is %2"),
    QT_TRANSLATE_NOOP("KernelsPage", "absent"),
};

// One of kEngineTexts as a pattern: the text around its blanks (%1, %2) must match exactly.
struct EnginePattern {
    const char* source;             // the untranslated text, tr()'s key
    QRegularExpression regex;       // the whole text, each blank captured
    std::vector<int> blank_number;  // per capture, the number of its blank (1 for %1)
};

const std::vector<EnginePattern>& enginePatterns() {
    static const std::vector<EnginePattern> patterns = [] {
        static const QRegularExpression marker(QStringLiteral("%([1-9])"));
        std::vector<EnginePattern> all;
        for (const char* source : kEngineTexts) {
            const QString text = QString::fromUtf8(source);
            EnginePattern p{source, {}, {}};
            QString regex = QStringLiteral("^");
            qsizetype from = 0;
            for (auto it = marker.globalMatch(text); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                regex += QRegularExpression::escape(text.mid(from, m.capturedStart() - from)) + QStringLiteral("(.*)");
                p.blank_number.push_back(m.captured(1).toInt());
                from = m.capturedEnd();
            }
            regex += QRegularExpression::escape(text.mid(from)) + QStringLiteral("$");
            p.regex = QRegularExpression(regex, QRegularExpression::DotMatchesEverythingOption);
            all.push_back(std::move(p));
        }
        return all;
    }();
    return patterns;
}

}  // namespace

// What one read of the registry found; filled on the reader's thread, shown on the GUI thread.
struct KernelsPage::Report {
    std::vector<libreyolo::KernelSlotInfo> kernelSlots;
    std::vector<libreyolo::KernelPluginInfo> plugins;
    libreyolo::KernelPolicyInfo policy;
    QString error;  // the registry could not be read
};

KernelsPage::KernelsPage(QWidget* parent) : QWidget(parent) {
    tree_ = new QTreeWidget(this);
    tree_->setColumnCount(4);
    tree_->setHeaderLabels({tr("Slot / implementation"), tr("Provider"), tr("Available"), tr("Status")});
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(true);
    policy_ = new QLabel(tr("reading the kernel registry…"), this);
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

KernelsPage::~KernelsPage() {
    // The read holds no pointer to the page, but the engine must not be torn down under it.
    if (reader_) reader_->wait();
}

QString KernelsPage::engineText(const std::string& english) {
    const QString text = QString::fromStdString(english);
    for (const EnginePattern& p : enginePatterns()) {
        const QRegularExpressionMatch m = p.regex.match(text);
        if (!m.hasMatch()) continue;
        QStringList fills(static_cast<qsizetype>(p.blank_number.size()));
        for (std::size_t i = 0; i < p.blank_number.size(); ++i)
            fills[p.blank_number[i] - 1] = engineText(m.captured(static_cast<int>(i) + 1).toStdString());
        const QString translated = tr(p.source);
        // One arg() call for both: a filling that itself holds "%2" must stay as it is.
        switch (fills.size()) {
            case 0:
                return translated;
            case 1:
                return translated.arg(fills[0]);
            default:
                return translated.arg(fills[0], fills[1]);
        }
    }
    return text;
}

void KernelsPage::refresh() {
    if (reader_) {
        readAgain_ = true;
        return;
    }
    auto report = std::make_shared<Report>();
    QThread* reader = QThread::create([report] {
        try {
            report->kernelSlots = libreyolo::kernel_report();
            report->plugins = libreyolo::kernel_plugins();
            report->policy = libreyolo::kernel_policy();
        } catch (const std::exception& e) {
            report->error = QString::fromUtf8(e.what());
        }
    });
    connect(reader, &QThread::finished, this, [this, report] {
        reader_ = nullptr;
        if (readAgain_) {  // the kernel policy may have changed since this read began
            readAgain_ = false;
            refresh();
            return;
        }
        showReport(*report);
        Q_EMIT refreshed();
    });
    connect(reader, &QThread::finished, reader, &QObject::deleteLater);
    reader_ = reader;
    reader->start();
}

void KernelsPage::showReport(const Report& report) {
    tree_->clear();
    if (!report.error.isEmpty()) {
        policy_->setText(tr("Cannot read the kernel registry: %1").arg(report.error));
        return;
    }
    const libreyolo::KernelPolicyInfo& policy = report.policy;
    policy_->setText(tr("Override in effect: %1 · hub kernels: %2")
                         .arg(engineText(policy.override_in_effect), policy.hub_kernels ? tr("allowed") : tr("off")));
    for (const libreyolo::KernelSlotInfo& slot : report.kernelSlots) {
        auto* item = new QTreeWidgetItem(tree_);
        item->setText(0, QString::fromStdString(slot.slot));
        item->setText(3, tr("uses %1 — %2").arg(engineText(slot.active), engineText(slot.signature)));
        for (const libreyolo::KernelCandidate& c : slot.candidates) {
            auto* child = new QTreeWidgetItem(item);
            child->setText(0, QString::fromStdString(c.name));
            child->setText(1, QString::fromStdString(c.provider));
            child->setText(2, c.available ? tr("yes") : tr("no"));
            child->setText(3,
                           c.passed_over.empty() ? tr("in use") : tr("passed over: %1").arg(engineText(c.passed_over)));
        }
        item->setExpanded(true);
    }
    // The kernel plugins the manifests list (the in-tree ones, LIBREYOLO_HUB_MANIFEST's), with
    // where each comes from and what became of it.
    auto* plugins = new QTreeWidgetItem(tree_);
    plugins->setText(0, tr("Plugins"));
    if (report.plugins.empty()) plugins->setText(3, tr("none listed"));
    for (const libreyolo::KernelPluginInfo& p : report.plugins) {
        auto* child = new QTreeWidgetItem(plugins);
        child->setText(0, QString::fromStdString(p.provider));
        child->setText(1, QString::fromStdString(p.source));
        child->setText(2, p.state == "loaded" ? tr("yes") : tr("no"));
        const QString state = engineText(p.state);
        child->setText(3, p.build.empty() ? state : tr("%1 (%2)").arg(state, QString::fromStdString(p.build)));
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
