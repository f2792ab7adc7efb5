#pragma once
// A minimal HTTP/1.0 file server on 127.0.0.1 (an ephemeral port) for the hub download tests:
// GET of a registered path answers 200 with its bytes (or, when marked cut, the full
// Content-Length but only half of the body before closing; when marked slow, the body in 4 KiB
// pieces 20 ms apart, a transfer long enough to cancel); anything else answers 404. It counts the
// requests it received.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace libreyolo::testing {

class LocalHttpServer {
public:
    LocalHttpServer() {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        socklen_t len = sizeof addr;
        if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
            ::listen(listener_, 8) != 0 || ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
            throw std::runtime_error("LocalHttpServer: cannot listen on 127.0.0.1");
        port_ = ntohs(addr.sin_port);
        thread_ = std::thread([this] { serve(); });
    }
    ~LocalHttpServer() {
        stopping_ = true;
        ::shutdown(listener_, SHUT_RDWR);
        ::close(listener_);
        thread_.join();
    }

    std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    void put(const std::string& path, std::string bytes, bool cut = false, bool slow = false) {
        const std::lock_guard lock(mutex_);
        files_[path] = {std::move(bytes), cut, slow};
    }
    int requests() const { return requests_; }

private:
    struct File {
        std::string bytes;
        bool cut = false;
        bool slow = false;
    };

    void serve() {
        while (!stopping_) {
            const int client = ::accept(listener_, nullptr, nullptr);
            if (client < 0) continue;
            ++requests_;
            std::string request;
            char chunk[1024];
            while (request.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(client, chunk, sizeof chunk, 0);
                if (n <= 0) break;
                request.append(chunk, static_cast<std::size_t>(n));
            }
            const auto start = request.find(' ') + 1;
            const std::string path = request.substr(start, request.find(' ', start) - start);
            File file;
            bool found = false;
            {
                const std::lock_guard lock(mutex_);
                if (auto it = files_.find(path); it != files_.end()) {
                    file = it->second;
                    found = true;
                }
            }
            const std::string body = found ? (file.cut ? file.bytes.substr(0, file.bytes.size() / 2) : file.bytes)
                                           : std::string("not found");
            const std::string head = std::string(found ? "HTTP/1.0 200 OK" : "HTTP/1.0 404 Not Found") +
                                     "\r\nContent-Length: " + std::to_string(found ? file.bytes.size() : body.size()) +
                                     "\r\n\r\n";
            if (found && file.slow) {
                send_all(client, head);
                for (std::size_t at = 0; at < body.size() && !stopping_; at += 4096) {
                    if (!send_all(client, body.substr(at, 4096))) break;  // the client went away
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                }
            } else {
                send_all(client, head + body);
            }
            ::close(client);
        }
    }
    static bool send_all(int fd, const std::string& data) {
        for (std::size_t sent = 0; sent < data.size();) {
            const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
            if (n <= 0) return false;
            sent += static_cast<std::size_t>(n);
        }
        return true;
    }

    int listener_ = -1;
    int port_ = 0;
    std::atomic<bool> stopping_{false};
    std::atomic<int> requests_{0};
    std::mutex mutex_;
    std::map<std::string, File> files_;
    std::thread thread_;
};

}  // namespace libreyolo::testing
