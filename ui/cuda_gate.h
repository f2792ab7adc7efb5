#pragma once
// Options that need a CUDA GPU (graph modes, mixed precision, cuda devices) are offered only where
// LibTorch sees one: elsewhere they stay listed, so the user learns they exist, but disabled, with
// a tooltip saying why. Shared by the Predict controls, the Train page and the Settings page.
//
// Header-only and without Q_OBJECT: free functions, translated through QCoreApplication::translate
// under the context "CudaGate" (lupdate reads that form).
#include <QAbstractButton>
#include <QComboBox>
#include <QCoreApplication>
#include <QStandardItemModel>

#include "libreyolo/device.h"

namespace cuda_gate {

// Asked once: LibTorch's answer does not change while the process runs.
inline bool available() {
    static const bool yes = libreyolo::cuda_available();
    return yes;
}

inline int deviceCount() {
    static const int count = available() ? libreyolo::cuda_device_count() : 0;
    return count;
}

inline QString noGpuForGraphs() {
    return QCoreApplication::translate("CudaGate", "No CUDA GPU: CUDA graphs need one");
}
inline QString noGpuForAmp() {
    return QCoreApplication::translate("CudaGate", "No CUDA GPU: mixed precision needs one");
}
inline QString noGpuForDevice(const QString& device) {
    return available() ? QCoreApplication::translate("CudaGate", "No GPU %1 here: LibTorch sees %n GPU(s)", nullptr,
                                                     deviceCount())
                             .arg(device)
                       : QCoreApplication::translate("CudaGate", "No CUDA GPU: %1 needs one").arg(device);
}

// The item at index of box is shown but cannot be chosen; its tooltip says why.
inline void disableItem(QComboBox* box, int index, const QString& why) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    if (!model || index < 0 || index >= model->rowCount()) return;
    QStandardItem* item = model->item(index);
    item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
    item->setToolTip(why);
}

// Whether text names a CUDA device this machine does not have ("cuda", "cuda:N", "N").
inline bool missingDevice(const QString& text) {
    const QString d = text.trimmed().toLower();
    bool isIndex = false;
    int index = d.toInt(&isIndex);
    if (d == QLatin1String("cuda")) {
        index = 0;
    } else if (d.startsWith(QLatin1String("cuda:"))) {
        index = d.mid(5).toInt(&isIndex);
        if (!isIndex) return false;  // malformed: the engine's error says so
    } else if (!isIndex) {
        return false;  // "auto", "cpu"
    }
    return index >= deviceCount();
}

// Disables the device items of box that name a GPU this machine does not have.
inline void disableMissingDevices(QComboBox* box) {
    for (int i = 0; i < box->count(); ++i)
        if (missingDevice(box->itemText(i))) disableItem(box, i, noGpuForDevice(box->itemText(i)));
}

// Disables the graph-mode items of box other than offValue ("on", "auto") when there is no GPU.
inline void disableGraphModesWithoutGpu(QComboBox* box, const QVariant& offValue) {
    if (available()) return;
    for (int i = 0; i < box->count(); ++i)
        if (box->itemData(i) != offValue) disableItem(box, i, noGpuForGraphs());
    box->setToolTip(box->toolTip().isEmpty() ? noGpuForGraphs() : box->toolTip() + "\n" + noGpuForGraphs());
}

// A check box for a CUDA-only feature: unchecked and disabled when there is no GPU.
inline void disableWithoutGpu(QAbstractButton* box, const QString& why) {
    if (available()) return;
    box->setChecked(false);
    box->setEnabled(false);
    box->setToolTip(why);
}

}  // namespace cuda_gate
