#include "weights_download.h"

#include <QMessageBox>

#include "libreyolo/pretrained.h"

namespace {

QString megabytes(qint64 bytes) {
    return QString::number(static_cast<double>(bytes) / 1e6, 'f', 1);
}

}  // namespace

WeightsDownloadDialog::WeightsDownloadDialog(const QString& name, QWidget* parent)
    : QProgressDialog(parent), name_(name) {
    setObjectName("weightsDownload");
    setWindowTitle(tr("Downloading %1").arg(name));
    setAutoClose(false);
    setAutoReset(false);
    setMinimumDuration(0);
    setRange(0, 0);  // busy until the size is known
    const libreyolo::PretrainedOptions options = libreyolo::PretrainedOptions::from_environment();
    try {
        url_ = QString::fromStdString(libreyolo::pretrained_url(name.toStdString(), options.base_url));
    } catch (const std::exception&) {
        // Not a published name: start() says so.
    }
    setLabelText(tr("Downloading %1\nfrom %2").arg(name, url_));
    connect(this, &QProgressDialog::canceled, this, [this] {
        cancel_ = true;
        setLabelText(tr("Cancelling…"));
    });
}

WeightsDownloadDialog::~WeightsDownloadDialog() {
    cancel_ = true;
    if (thread_) {
        thread_->wait();
        delete thread_;
    }
}

void WeightsDownloadDialog::start() {
    show();
    thread_ = QThread::create([this] {
        libreyolo::PretrainedOptions options = libreyolo::PretrainedOptions::from_environment();
        options.progress = [this](std::int64_t received, std::int64_t total) {
            QMetaObject::invokeMethod(
                this, [this, received, total] { showProgress(received, total); }, Qt::QueuedConnection);
            return !cancel_;
        };
        QString path, error;
        try {
            path = QString::fromStdString(libreyolo::pretrained_weights(name_.toStdString(), options).string());
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this, [this, path, error] { finish(path, error); }, Qt::QueuedConnection);
    });
    thread_->start();
}

void WeightsDownloadDialog::showProgress(qint64 received, qint64 total) {
    if (cancel_) return;
    if (total > 0) {
        setRange(0, 1000);
        setValue(static_cast<int>(1000 * received / total));
        setLabelText(
            tr("Downloading %1\nfrom %2\n%3 of %4 MB").arg(name_, url_, megabytes(received), megabytes(total)));
    } else {
        setLabelText(tr("Downloading %1\nfrom %2\n%3 MB").arg(name_, url_, megabytes(received)));
    }
}

void WeightsDownloadDialog::finish(const QString& path, const QString& error) {
    thread_->wait();
    hide();
    if (!path.isEmpty()) {
        Q_EMIT downloaded(name_, path);
    } else if (cancel_) {
        Q_EMIT cancelled(name_);
    } else {
        if (reportsErrors_) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot download %1").arg(name_), error,
                                        QMessageBox::Ok, parentWidget());
            box->setObjectName("weightsDownloadError");
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        Q_EMIT failed(name_, error);
    }
    deleteLater();
}
