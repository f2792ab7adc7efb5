#include "pretrained_catalog.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>

#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "libreyolo/model.h"
#include "libreyolo/pretrained.h"

QStringList publishedModelNames() {
    QStringList names;
    for (const libreyolo::FamilyTraits& traits : libreyolo::registered_families()) {
        if (traits.weights_prefix.empty()) continue;
        for (const std::string& size : traits.sizes)
            names << QString::fromStdString(libreyolo::ModelName{traits.family, size}.canonical());
    }
    return names;
}

QString localPretrainedWeights(const QString& name) {
    try {
        const auto local = libreyolo::find_pretrained_weights(name.toStdString());
        return local ? QString::fromStdString(local->string()) : QString();
    } catch (const std::exception&) {
        return {};  // not a published name: nothing to find
    }
}

bool weightsNeedDownload(const QString& nameOrPath) {
    const std::string text = nameOrPath.trimmed().toStdString();
    if (QFileInfo::exists(nameOrPath)) return false;
    if (!libreyolo::looks_like_model_name(text) && !libreyolo::is_pretrained_file_name(text)) return false;
    try {
        libreyolo::pretrained_file_name(text);
    } catch (const std::exception&) {
        return false;  // no such model or none published: loading it says so
    }
    return localPretrainedWeights(nameOrPath.trimmed()).isEmpty();
}

ParameterCounts& ParameterCounts::instance() {
    static ParameterCounts* counts = new ParameterCounts(QCoreApplication::instance());
    return *counts;
}

ParameterCounts::ParameterCounts(QObject* parent) : QObject(parent) {
    const QStringList names = publishedModelNames();
    thread_ = QThread::create([this, names] { countAll(names); });
    thread_->start(QThread::LowPriority);
}

ParameterCounts::~ParameterCounts() {
    stop_ = true;  // after the model being built
    thread_->wait();
    delete thread_;
}

std::optional<qint64> ParameterCounts::count(const QString& name) const {
    const QMutexLocker lock(&mutex_);
    const auto it = counts_.find(name);
    return it == counts_.end() ? std::nullopt : std::optional<qint64>(it->second);
}

void ParameterCounts::countAll(const QStringList& names) {
    for (const QString& name : names) {
        if (stop_) return;
        try {
            const qint64 n = libreyolo::Model::create(name.toStdString(), 80, "cpu").info().parameters;
            {
                const QMutexLocker lock(&mutex_);
                counts_[name] = n;
            }
            Q_EMIT counted(name, n);  // queued to the catalogs on the GUI thread
        } catch (const std::exception& e) {
            libreyolo::log_warning("studio", name.toStdString() + ": cannot count its parameters: " + e.what());
        }
    }
}

PretrainedCatalog::PretrainedCatalog(QObject* parent) : QAbstractTableModel(parent) {
    for (const QString& name : publishedModelNames()) {
        const libreyolo::ModelName parsed = libreyolo::parse_model_name(name.toStdString());
        const libreyolo::FamilyTraits& traits = libreyolo::family_traits(parsed.family);
        rows_.push_back({name, QString::fromStdString(traits.display_name),
                         QString::fromStdString(libreyolo::pretrained_file_name(name.toStdString())), QString(),
                         traits.default_imgsz_for(parsed.size)});
    }
    refreshFiles();
    connect(&ParameterCounts::instance(), &ParameterCounts::counted, this, [this](const QString& name, qint64) {
        if (const int row = rowOf(name); row >= 0) Q_EMIT dataChanged(index(row, Parameters), index(row, Parameters));
    });
}

int PretrainedCatalog::rowOf(const QString& name) const {
    const auto it = std::find_if(rows_.begin(), rows_.end(), [&](const Row& r) { return r.name == name; });
    return it == rows_.end() ? -1 : static_cast<int>(it - rows_.begin());
}

void PretrainedCatalog::refreshFiles() {
    for (Row& row : rows_) row.localFile = localPretrainedWeights(row.name);
    if (!rows_.empty()) Q_EMIT dataChanged(index(0, Weights), index(rowCount() - 1, Weights));
}

int PretrainedCatalog::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PretrainedCatalog::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PretrainedCatalog::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const Row& row = rows_.at(static_cast<std::size_t>(index.row()));
    if (role == Qt::ToolTipRole && index.column() == Weights)
        return row.localFile.isEmpty() ? tr("%1 is downloaded from LibreYOLO's hub when chosen").arg(row.file)
                                       : row.localFile;
    if (role == Qt::TextAlignmentRole && (index.column() == Parameters || index.column() == InputSize))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Name:
            return row.name;
        case Family:
            return row.family;
        case Parameters: {
            const std::optional<qint64> n = ParameterCounts::instance().count(row.name);
            return n ? QLocale().toString(*n) : QStringLiteral("…");
        }
        case InputSize:
            return row.imgsz;
        case Weights:
            return row.localFile.isEmpty() ? tr("not downloaded") : row.localFile;
    }
    return {};
}

QVariant PretrainedCatalog::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Name:
            return tr("Model");
        case Family:
            return tr("Family");
        case Parameters:
            return tr("Parameters");
        case InputSize:
            return tr("Input size");
        case Weights:
            return tr("Weights");
    }
    return {};
}
