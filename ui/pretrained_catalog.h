#pragma once
// The models whose pretrained weights LibreYOLO publishes, as the engine knows them: a table of
// one row per family and size with its parameter count, default input size, the file LibreYOLO
// publishes and where it is on disk (./weights/ or the cache), or that it is not downloaded.
// Parameter counts come from ParameterCounts, which builds each architecture once per process on a
// thread of its own; a row shows "…" until its count arrives.
#include <QAbstractTableModel>
#include <QMutex>
#include <QObject>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <map>
#include <optional>

// Counts every published model's parameters once per process, in the background, in catalog order.
// Owned by the application object, so its thread is stopped and joined before the application goes.
class ParameterCounts : public QObject {
    Q_OBJECT
public:
    static ParameterCounts& instance();
    ~ParameterCounts() override;
    std::optional<qint64> count(const QString& name) const;

Q_SIGNALS:
    void counted(const QString& name, qint64 parameters);

private:
    explicit ParameterCounts(QObject* parent);
    void countAll(const QStringList& names);

    mutable QMutex mutex_;
    std::map<QString, qint64> counts_;
    std::atomic<bool> stop_{false};
    QThread* thread_ = nullptr;
};

class PretrainedCatalog : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Family, Parameters, InputSize, Weights, ColumnCount };

    explicit PretrainedCatalog(QObject* parent = nullptr);

    QString nameAt(int row) const { return rows_.at(row).name; }
    // The weights file on disk, empty when not downloaded.
    QString localFileAt(int row) const { return rows_.at(row).localFile; }
    int rowOf(const QString& name) const;  // -1 for a name not listed
    // Looks on disk again (after a download).
    void refreshFiles();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        QString name, family, file, localFile;
        int imgsz = 0;
    };
    std::vector<Row> rows_;
};

// The names of the models LibreYOLO publishes weights for ("yolo9-t", ...), family by family.
QStringList publishedModelNames();
// Whether opening nameOrPath needs a download first: a published model name (or LibreYOLO's file
// name) that is no file here and whose weights are in neither ./weights/ nor the cache.
bool weightsNeedDownload(const QString& nameOrPath);
// name's pretrained weights file when it is already on disk, else empty.
QString localPretrainedWeights(const QString& name);
