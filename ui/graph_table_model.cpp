#include "graph_table_model.h"

GraphTableModel::GraphTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void GraphTableModel::setRows(const std::vector<libreyolo::GraphInfo>& rows) {
    beginResetModel();
    rows_ = rows;
    endResetModel();
}

int GraphTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int GraphTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GraphTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const libreyolo::GraphInfo& g = rows_[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Replays && index.column() <= PoolMiB ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                      : QVariant();
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case Key:
            return QString::fromStdString(g.key);
        case Network:
            return g.fused ? tr("fused") : tr("as loaded");
        case Dtype:
            return QString::fromStdString(g.dtype);
        case Device:
            return QString::fromStdString(g.device);
        case Task:
            return QString::fromStdString(g.task);
        case Replays:
            return QVariant::fromValue<qlonglong>(g.replays);
        case Kernels:
            return g.kernels;
        case CaptureMs:
            return QString::number(g.capture_ms, 'f', 0);
        case PoolMiB:
            return QString::number(g.pool_bytes / 1048576.0, 'f', 1);
        case Stages:
            return g.eager_stages > 0 ? tr("%1 graphs + %2 eager").arg(g.graphs).arg(g.eager_stages)
                                      : tr("whole forward");
        default:
            return {};
    }
}

QVariant GraphTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
        case Key:
            return tr("Key (batch×C×H×W)");
        case Network:
            return tr("Network");
        case Dtype:
            return tr("dtype");
        case Device:
            return tr("Device");
        case Task:
            return tr("Task");
        case Replays:
            return tr("Replays");
        case Kernels:
            return tr("Kernels");
        case CaptureMs:
            return tr("Capture ms");
        case PoolMiB:
            return tr("Pool MiB");
        case Stages:
            return tr("Stages");
        default:
            return {};
    }
}
