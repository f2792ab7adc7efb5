// Distributed training with CUDA ranks on the one GPU this host has: two ranks share cuda:0
// through gloo (LIBREYOLO_DIST_BACKEND=gloo carries CUDA tensors via the host), with AMP, the
// GradScaler and SyncBatchNorm, and end bit-identical; NCCL, which wants a GPU per rank, either
// runs or ends both ranks with an error, never a hang. On a host with two GPUs, the launcher's two
// ranks train one on each through NCCL.
#include <QtTest/QtTest>

#include <QRegularExpression>

#include <chrono>

#include "support/rank_processes.h"
#include "support/rank_statistics_check.h"
#include "support/synthetic_shapes.h"

#include "libreyolo/device.h"

using namespace libreyolo::testing;

class TestCudaDistributed : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString data_;
    QStringList args(const QString& name) const {
        return {"train",
                "data=" + data_,
                "epochs=2",
                "batch=8",
                "imgsz=64",
                "workers=2",
                "device=cuda:0",
                "amp=true",
                "sync_bn=true",
                "dist_timeout=60",
                "project=" + dir_.filePath("runs"),
                "name=" + name,
                "pretrained=false"};
    }

private Q_SLOTS:
    void initTestCase() {
        if (!libreyolo::cuda_available()) QSKIP("no usable CUDA device");
        data_ = QString::fromStdString(synthetic_shapes(dir_, 20, 64).data_yaml);
    }

    void twoRanksShareTheGpuThroughGlooWithAmp() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("LIBREYOLO_DIST_BACKEND", "gloo");
        const std::vector<CliRun> ranks = run_ranks(args("gloo"), 2, env);
        for (const CliRun& r : ranks) QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(ranks[0].err.contains("rank 0 of 2 on cuda:0 (gloo"), qPrintable(ranks[0].err));
        QVERIFY2(ranks[0].err.contains("amp: float16 autocast"), qPrintable(ranks[0].err));
        QVERIFY(!weights_digest(ranks[0]).isEmpty());
        QCOMPARE(weights_digest(ranks[1]), weights_digest(ranks[0]));
        QVERIFY(QFile::exists(dir_.filePath("runs/gloo/weights/last.safetensors")));
        verify_rank_statistics(dir_.filePath("runs/gloo/distributed.json"), "gloo", weights_digest(ranks[0]),
                               ranks[0].err);
    }

    // The launcher's ranks on two GPUs, NCCL between them (NVLink multicast left off): identical
    // weights, and rank 0's record of both ranks' steps, waits and memory on their own GPUs.
    void ncclBetweenTwoGpusEndsIdentical() {
        if (libreyolo::cuda_device_count() < 2) QSKIP("one GPU here: the two-GPU case needs two");
        QStringList two = args("nccl-two-gpus");
        two.replaceInStrings(QRegularExpression("^device=.*"), "device=0,1");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("NCCL_NVLS_ENABLE", "0");
        const CliRun run = run_cli(two, env);
        QVERIFY2(run.code == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("rank 0 of 2 on cuda:0 (nccl"), qPrintable(run.err));
        const QString digest = weights_digest(run);
        QVERIFY(!digest.isEmpty());
        QCOMPARE(run.out.count("weights sha256 " + digest), qsizetype(2));
        verify_rank_statistics(dir_.filePath("runs/nccl-two-gpus/distributed.json"), "nccl", digest, run.err);
    }

    void ncclOnOneGpuRunsOrFailsCleanly() {
        const auto start = std::chrono::steady_clock::now();
        const std::vector<CliRun> ranks = run_ranks(args("nccl"), 2);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        qInfo("NCCL, two ranks on cuda:0: exit codes %d and %d after %.1f s", ranks[0].code, ranks[1].code, seconds);
        if (ranks[0].code == 0 && ranks[1].code == 0) {
            QCOMPARE(weights_digest(ranks[1]), weights_digest(ranks[0]));
        } else {
            for (const CliRun& r : ranks) QVERIFY2(r.code != 0 && r.err.contains("distributed: "), qPrintable(r.err));
            QVERIFY(seconds < 120);
        }
    }
};

QTEST_APPLESS_MAIN(TestCudaDistributed)
#include "test_cuda_distributed.moc"
