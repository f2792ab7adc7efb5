// Distributed training on c10d's gloo backend, as a user runs it: two `libreyolo train` processes
// on 127.0.0.1, started by an external launcher's environment (RANK, WORLD_SIZE, ...) and by
// `device=cpu,cpu`, end with bit-identical weights on both ranks and train like one process with
// the same global batch; a rank killed mid-run makes the other stop with an error well within the
// timeout instead of hanging; malformed launches are explained.
#include <QtTest/QtTest>

#include <QScopeGuard>

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>

#include "distributed/process_group.h"
#include "support/rank_processes.h"
#include "support/rank_statistics_check.h"
#include "support/synthetic_shapes.h"

#include "distributed/gradient_reducer.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"

using namespace libreyolo::testing;

namespace {

QProcessEnvironment with_fault(const QString& fault) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LIBREYOLO_DIST_FAULT", fault);
    return env;
}

std::vector<double> column(const QString& csv, const QString& name) {
    QFile f(csv);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    std::vector<double> values;
    const qsizetype index = lines.isEmpty() ? -1 : lines[0].split(',').indexOf(name);
    if (index < 0) return values;
    for (qsizetype i = 1; i < lines.size(); ++i) values.push_back(lines[i].split(',')[index].toDouble());
    return values;
}

}  // namespace

class TestDistributed : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString data_;
    QStringList common(const QString& name, int epochs = 1, int batch = 4) const {
        return {"train",
                "data=" + data_,
                "epochs=" + QString::number(epochs),
                "batch=" + QString::number(batch),
                "imgsz=64",
                "workers=1",
                "sync_bn=true",
                "dist_timeout=60",
                "project=" + dir_.filePath("runs"),
                "name=" + name,
                "seed=3",
                "pretrained=false"};
    }

private Q_SLOTS:
    void initTestCase() { data_ = QString::fromStdString(synthetic_shapes(dir_, 10, 64).data_yaml); }

    void twoRanksEndIdenticalAndTrainLikeOneProcess() {
        const CliRun single = run_cli(common("single") << "device=cpu");
        QVERIFY2(single.code == 0, qPrintable(single.err));

        const std::vector<CliRun> ranks = run_ranks(common("two") << "device=cpu"
                                                                  << "--cuda-graph",
                                                    2);
        for (const CliRun& r : ranks) QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(!weights_digest(ranks[0]).isEmpty());
        QCOMPARE(weights_digest(ranks[1]), weights_digest(ranks[0]));  // bit-identical weights
        QVERIFY2(ranks[0].err.contains("rank 0 of 2 on cpu (gloo"), qPrintable(ranks[0].err));
        QVERIFY2(ranks[0].err.contains("cuda_graph: a distributed run (2 ranks) is not captured"),
                 qPrintable(ranks[0].err));
        QVERIFY(ranks[0].out.contains("Results saved to"));
        QVERIFY(!ranks[1].out.contains("Results saved to"));  // rank 0 speaks for the run
        QVERIFY(!ranks[1].err.contains("training yolo9-t"));
        verify_rank_statistics(dir_.filePath("runs/two/distributed.json"), "gloo", weights_digest(ranks[0]),
                               ranks[0].err);
        if (QTest::currentTestFailed()) return;

        // The same global batches: the losses agree to float precision, and the weights after the
        // two steps differ by a small fraction of what the steps changed.
        const auto loss_one = column(dir_.filePath("runs/single/results.csv"), "train/loss");
        const auto loss_two = column(dir_.filePath("runs/two/results.csv"), "train/loss");
        QCOMPARE(loss_one.size(), std::size_t(1));
        QCOMPARE(loss_two.size(), std::size_t(1));
        QVERIFY2(std::abs(loss_two[0] - loss_one[0]) < 1e-4 * loss_one[0],
                 qPrintable(QString("%1 vs %2").arg(loss_one[0], 0, 'g', 9).arg(loss_two[0], 0, 'g', 9)));

        torch::manual_seed(3);  // the trainer's seed: the initial weights of both runs
        libreyolo::Model init = libreyolo::Model::create("yolo9-t", 6, "cpu");
        const auto start = libreyolo::io::state_dict(*init.impl().net);
        const auto one =
            libreyolo::io::read_safetensors(dir_.filePath("runs/single/weights/last.train.safetensors").toStdString());
        const auto two =
            libreyolo::io::read_safetensors(dir_.filePath("runs/two/weights/last.train.safetensors").toStdString());
        double moved = 0, apart = 0;
        for (const auto& p : init.impl().net->named_parameters()) {
            const torch::Tensor a = one.tensors.at(p.key()).to(torch::kFloat64);
            const torch::Tensor initial = start.at(p.key()).to(torch::kFloat64);
            const torch::Tensor b = two.tensors.at(p.key()).to(torch::kFloat64);
            moved += (a - initial).square().sum().template item<double>();
            apart += (a - b).square().sum().template item<double>();
        }
        QVERIFY(moved > 0);
        QVERIFY2(std::sqrt(apart / moved) < 1e-2, qPrintable(QString::number(std::sqrt(apart / moved))));

        // The launcher's own ranks train exactly what the external launcher's did.
        const CliRun launched = run_cli(common("launched") << "device=cpu,cpu");
        QVERIFY2(launched.code == 0, qPrintable(launched.err));
        QVERIFY2(launched.err.contains("launching 2 ranks on 127.0.0.1:"), qPrintable(launched.err));
        QCOMPARE(weights_digest(launched), weights_digest(ranks[0]));
        QCOMPARE(launched.out.count("weights sha256 " + weights_digest(ranks[0])), qsizetype(2));
    }

    void aKilledRankEndsTheOtherWithAnErrorNotAHang() {
        const auto start = std::chrono::steady_clock::now();
        const std::vector<CliRun> ranks = run_ranks(common("killed", 3) << "device=cpu", 2, with_fault("kill:1:2"));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QCOMPARE(ranks[1].code, -1);  // SIGKILL
        QCOMPARE(ranks[0].code, 1);
        QVERIFY2(ranks[0].err.contains("distributed: ") && ranks[0].err.contains("another rank stopped"),
                 qPrintable(ranks[0].err));
        QVERIFY2(seconds < 60, qPrintable(QString::number(seconds)));  // within dist_timeout

        const CliRun launched = run_cli(common("killed-launched", 3) << "device=cpu,cpu", with_fault("kill:0:2"));
        QVERIFY(launched.code != 0);
        QVERIFY2(launched.err.contains("rank 0 was killed by signal 9; stopping the other ranks"),
                 qPrintable(launched.err));
    }

    // Gloo writes with writev: to a peer that died, that raises SIGPIPE, which would kill a C++ rank
    // (PyTorch's Python ignores it). Every process group ignores it first, so the write fails instead.
    void aWriteToADeadPeerFailsInsteadOfKillingTheRank() {
        libreyolo::distributed::ignore_broken_pipes();
        int fds[2];
        QCOMPARE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
        ::close(fds[1]);
        char byte = 1;
        iovec part{&byte, 1};
        QCOMPARE(::writev(fds[0], &part, 1), ssize_t{-1});  // and this process is still here
        QCOMPARE(errno, EPIPE);
        ::close(fds[0]);
    }

    void theReducerStartsItsBucketsWhileBackwardRuns() {
        namespace dist = libreyolo::distributed;
        dist::RankInfo alone;
        alone.master_port = free_local_port();
        dist::ProcessGroup group(alone, torch::kCPU, std::chrono::seconds(20));
        // One intra-op thread: a matrix product split over however many threads a loaded machine
        // gives it sums in another order, and the gradients are compared bit for bit.
        const int threads = torch::get_num_threads();
        torch::set_num_threads(1);
        const auto restore_threads = qScopeGuard([threads] { torch::set_num_threads(threads); });
        torch::manual_seed(0);
        torch::nn::Sequential net(torch::nn::Linear(256, 256), torch::nn::Tanh(), torch::nn::Linear(256, 256),
                                  torch::nn::Tanh(), torch::nn::Linear(256, 256), torch::nn::Linear(256, 4));
        torch::nn::Linear unused(8, 8);
        std::vector<torch::Tensor> parameters = unused->parameters();
        for (const auto& p : net->parameters()) parameters.push_back(p);
        const torch::Tensor x = torch::randn({16, 256});
        net->forward(x).square().sum().backward();
        std::vector<torch::Tensor> plain;
        for (const auto& p : net->parameters()) plain.push_back(p.grad().clone());
        net->zero_grad();

        // 300 kB buckets, filled in backward order: the last two Linears, the second, then the first
        // with the never-used layer (its parameters come first, so last in backward order).
        dist::GradientReducer reducer(group, parameters, 300 << 10, 300 << 10);
        QCOMPARE(reducer.buckets(), std::size_t(3));
        reducer.begin_step();
        net->forward(x).square().sum().backward();
        // All but the bucket holding the never-used layer started during backward.
        QCOMPARE(reducer.started_during_backward(), static_cast<int>(reducer.buckets()) - 1);
        reducer.finish_step();
        const auto after = net->parameters();
        for (std::size_t i = 0; i < plain.size(); ++i) QVERIFY(torch::equal(after[i].grad(), plain[i]));  // one rank
        QVERIFY(unused->weight.grad().defined() && unused->weight.grad().abs().sum().item<float>() == 0);
    }

    void badLaunchesAreExplained() {
        CliRun r = run_cli(common("bad") << "device=cpu", rank_environment(5, 2, free_local_port()));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("RANK: 5 is outside [0, 2)"), qPrintable(r.err));
        r = run_cli(common("bad") << "device=0,x");
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("device: 'x' in '0,x'"), qPrintable(r.err));
        r = run_cli(common("bad", 1, 1) << "device=cpu,cpu");
        QVERIFY(r.code != 0);
        QVERIFY2(r.err.contains("batch: 1 images cannot be split over 2 ranks"), qPrintable(r.err));
    }
};

QTEST_APPLESS_MAIN(TestDistributed)
#include "test_distributed.moc"
