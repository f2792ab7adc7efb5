#pragma once
// The check of a distributed run's distributed.json (rank 0's record of every rank) that the CPU
// and GPU distributed tests share: every rank took the same steps, its wait lies within its step
// time, its peak memory is counted, the digest is the one the ranks printed, and rank 0's log has
// its line.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

namespace libreyolo::testing {

inline void verify_rank_statistics(const QString& path, const QString& backend, const QString& digest,
                                   const QString& rank0_log) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
    const nlohmann::json doc = nlohmann::json::parse(f.readAll().toStdString());
    QCOMPARE(doc["world_size"].get<int>(), 2);
    QCOMPARE(QString::fromStdString(doc["backend"].get<std::string>()), backend);
    QCOMPARE(QString::fromStdString(doc["weights_sha256"].get<std::string>()), digest);
    QCOMPARE(doc["ranks"].size(), std::size_t(2));
    for (int r = 0; r < 2; ++r) {
        const nlohmann::json& rank = doc["ranks"][r];
        QCOMPARE(rank["rank"].get<int>(), r);
        QCOMPARE(rank["steps"].get<int>(), doc["ranks"][0]["steps"].get<int>());
        QVERIFY(rank["steps"].get<int>() > 0);
        const double step = rank["step_seconds"].get<double>(), wait = rank["allreduce_wait_seconds"].get<double>();
        QVERIFY2(step > 0 && wait >= 0 && wait <= step, qPrintable(QString("%1 of %2 s").arg(wait).arg(step)));
        QCOMPARE(rank["allreduce_wait_fraction"].get<double>(), wait / step);
        QVERIFY(rank["peak_memory_bytes"].get<double>() > 1 << 20);
        QVERIFY2(rank0_log.contains(QString("distributed: rank %1: %2 steps in").arg(r).arg(rank["steps"].get<int>())),
                 qPrintable(rank0_log));
    }
}

}  // namespace libreyolo::testing
