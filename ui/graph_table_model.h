#pragma once
// The captured CUDA graphs of the studio's model as a table: key, dtype, device, task, replays,
// capture time, pool memory and, for a family split at seams, its graphs and eager stages.
#include <QAbstractTableModel>

#include <vector>

#include "libreyolo/cuda_graph.h"

class GraphTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Key, Network, Dtype, Device, Task, Replays, Kernels, CaptureMs, PoolMiB, Stages, ColumnCount };

    explicit GraphTableModel(QObject* parent = nullptr);
    void setRows(const std::vector<libreyolo::GraphInfo>& rows);
    const std::vector<libreyolo::GraphInfo>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<libreyolo::GraphInfo> rows_;
};
