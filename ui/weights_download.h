#pragma once
// Downloads a model's pretrained weights (libreyolo::pretrained_weights) on a thread of its own
// behind a progress dialog with Cancel: the bytes received of the total, the file and the URL. A
// finished download emits downloaded() with the local file; a failure opens an error dialog (the
// URL, why, and where to put the file by hand; unless setReportsErrors(false)) and emits failed(); Cancel stops the
// transfer, leaves no file behind and emits cancelled(). The dialog deletes itself when done.
#include <QProgressDialog>
#include <QThread>

#include <atomic>

class QMessageBox;

class WeightsDownloadDialog : public QProgressDialog {
    Q_OBJECT
public:
    WeightsDownloadDialog(const QString& name, QWidget* parent);
    // Stops the transfer and waits for the thread.
    ~WeightsDownloadDialog() override;
    void start();
    // Whether a failure opens its own error dialog (default) or is left to failed()'s receiver.
    void setReportsErrors(bool reports) { reportsErrors_ = reports; }
    QString name() const { return name_; }

Q_SIGNALS:
    void downloaded(const QString& name, const QString& path);
    void failed(const QString& name, const QString& message);
    void cancelled(const QString& name);

private:
    void showProgress(qint64 received, qint64 total);
    void finish(const QString& path, const QString& error);

    QString name_;
    QString url_;
    QThread* thread_ = nullptr;
    std::atomic<bool> cancel_{false};
    bool reportsErrors_ = true;
};
