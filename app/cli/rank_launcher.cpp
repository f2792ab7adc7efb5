#include "rank_launcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include "libreyolo/errors.h"

namespace libreyolo::cli {
namespace {

// A port the kernel hands out as free on 127.0.0.1 (released again for rank 0's store to take).
int free_local_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw Error("train: cannot open a socket to find a free port for the ranks");
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    if (port < 0) throw Error("train: no free TCP port on 127.0.0.1 for the ranks' rendezvous");
    return port;
}

std::string describe(int status) {
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("was killed by signal ") + std::to_string(WTERMSIG(status));
    return "ended";
}

}  // namespace

std::optional<std::vector<std::string>> device_list(const std::string& device) {
    if (device.find(',') == std::string::npos) return std::nullopt;
    std::vector<std::string> devices;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = device.find(',', start);
        const std::string item = device.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item == "cpu") {
            devices.push_back("cpu");
        } else if (!item.empty() && item.find_first_not_of("0123456789") == std::string::npos) {
            devices.push_back("cuda:" + item);
        } else if (item.rfind("cuda:", 0) == 0 && item.size() > 5 &&
                   item.find_first_not_of("0123456789", 5) == std::string::npos) {
            devices.push_back(item);
        } else {
            throw InvalidArgument("device: '" + item + "' in '" + device +
                                  "' is not a GPU number, cuda:N or cpu (e.g. device=0,1)");
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return devices;
}

int launch_local_ranks(const std::vector<std::string>& devices, const std::vector<std::string>& train_args) {
    const int world = static_cast<int>(devices.size());
    const int port = free_local_port();
    std::fprintf(stderr, "launching %d ranks on 127.0.0.1:%d\n", world, port);
    std::fflush(stderr);
    // The children take Ctrl-C themselves (they stop after the current batch); the launcher waits.
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGINT, &ignore, &previous);

    std::vector<pid_t> children;
    for (int r = 0; r < world; ++r) {
        const pid_t pid = ::fork();
        if (pid < 0) throw Error("train: cannot start rank " + std::to_string(r));
        if (pid == 0) {
            ::sigaction(SIGINT, &previous, nullptr);
            ::setenv("RANK", std::to_string(r).c_str(), 1);
            ::setenv("LOCAL_RANK", std::to_string(r).c_str(), 1);
            ::setenv("WORLD_SIZE", std::to_string(world).c_str(), 1);
            ::setenv("LOCAL_WORLD_SIZE", std::to_string(world).c_str(), 1);
            ::setenv("MASTER_ADDR", "127.0.0.1", 1);
            ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
            std::vector<std::string> args = {"libreyolo", "train"};
            args.insert(args.end(), train_args.begin(), train_args.end());
            args.push_back("device=" + devices[static_cast<std::size_t>(r)]);
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execv("/proc/self/exe", argv.data());
            std::perror("libreyolo train: cannot start a rank");
            ::_exit(127);
        }
        children.push_back(pid);
    }

    // Polled, so that ranks which do not act on SIGTERM (blocked in a collective) are killed after
    // a grace period; a child not yet reaped keeps its pid, so the signals reach only our ranks.
    int code = 0;
    std::size_t running = children.size();
    auto kill_at = std::chrono::steady_clock::time_point::max();  // no failure yet
    while (running > 0) {
        int status = 0;
        const pid_t done = ::waitpid(-1, &status, WNOHANG);
        if (done < 0) break;
        if (done == 0) {
            if (std::chrono::steady_clock::now() > kill_at) {
                for (pid_t pid : children)
                    if (pid > 0) ::kill(pid, SIGKILL);
                kill_at = std::chrono::steady_clock::time_point::max();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
        }
        int r = -1;
        for (std::size_t i = 0; i < children.size(); ++i)
            if (children[i] == done) r = static_cast<int>(i), children[i] = 0;
        if (r < 0) continue;
        --running;
        const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
        if (!failed || code != 0) continue;
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
        std::fprintf(stderr, "error: rank %d %s; stopping the other ranks\n", r, describe(status).c_str());
        for (pid_t pid : children)
            if (pid > 0) ::kill(pid, SIGTERM);
        kill_at = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    }
    ::sigaction(SIGINT, &previous, nullptr);
    return code;
}

}  // namespace libreyolo::cli
