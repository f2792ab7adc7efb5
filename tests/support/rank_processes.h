#pragma once
// `libreyolo` processes for the distributed tests: one command, or the ranks of one run started
// together with the environment an external launcher (torchrun, Slurm) gives them.
#include <QProcess>
#include <QString>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <vector>

namespace libreyolo::testing {

struct CliRun {
    int code = -1;  // -1: killed by a signal
    QString out, err;
};

inline int free_local_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof a;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &size);
    ::close(fd);
    return ntohs(a.sin_port);
}

inline QProcessEnvironment rank_environment(int rank, int world, int port,
                                            QProcessEnvironment env = QProcessEnvironment::systemEnvironment()) {
    env.insert("RANK", QString::number(rank));
    env.insert("LOCAL_RANK", QString::number(rank));
    env.insert("WORLD_SIZE", QString::number(world));
    env.insert("MASTER_ADDR", "127.0.0.1");
    env.insert("MASTER_PORT", QString::number(port));
    return env;
}

inline CliRun finish(QProcess& p) {
    p.waitForFinished(300000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

inline CliRun run_cli(const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(LIBREYOLO_CLI_PATH, args);
    return finish(p);
}

inline std::vector<CliRun> run_ranks(const QStringList& args, int world,
                                     const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    const int port = free_local_port();
    std::vector<std::unique_ptr<QProcess>> ranks;
    for (int r = 0; r < world; ++r) {
        ranks.push_back(std::make_unique<QProcess>());
        ranks.back()->setProcessEnvironment(rank_environment(r, world, port, env));
        ranks.back()->start(LIBREYOLO_CLI_PATH, args);
    }
    std::vector<CliRun> runs;
    for (auto& p : ranks) runs.push_back(finish(*p));
    return runs;
}

// The 64 hex digits after "weights sha256 " in a rank's output, or "".
inline QString weights_digest(const CliRun& r) {
    const qsizetype at = r.out.indexOf("weights sha256 ");
    return at < 0 ? QString() : r.out.mid(at + 15, 64);
}

}  // namespace libreyolo::testing
