#pragma once
// An MJPEG-over-HTTP server on 127.0.0.1 for the live-source tests: every client gets
// multipart/x-mixed-replace JPEG frames at a fixed rate, frame i from make_frame(i), until the
// server stops. stop() closes the listening socket and every connection (a dropped stream);
// start() on the same port brings it back.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <opencv2/imgcodecs.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace libreyolo::testing {

class MjpegServer {
public:
    explicit MjpegServer(std::function<cv::Mat(int)> make_frame, double fps = 25)
        : make_frame_(std::move(make_frame)), fps_(fps) {}
    ~MjpegServer() { stop(); }

    // Listens on port (0: any free one); returns the port.
    int start(int port = 0) {
        listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
        const int yes = 1;
        ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(static_cast<uint16_t>(port));
        if (::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener_, 8) != 0)
            return -1;
        socklen_t len = sizeof addr;
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len);
        port_ = ntohs(addr.sin_port);
        running_ = true;
        acceptor_ = std::thread([this] { accept_loop(); });
        return port_;
    }

    void stop() {
        if (!running_.exchange(false)) return;
        ::shutdown(listener_, SHUT_RDWR);
        ::close(listener_);
        if (acceptor_.joinable()) acceptor_.join();
        for (auto& t : clients_)
            if (t.joinable()) t.join();
        clients_.clear();
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/stream.mjpg"; }
    int frames_sent() const { return sent_.load(); }
    int connections() const { return connections_.load(); }

private:
    void accept_loop() {
        while (running_) {
            pollfd p{listener_, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            const int fd = ::accept(listener_, nullptr, nullptr);
            if (fd < 0) continue;
            ++connections_;
            clients_.emplace_back([this, fd] { serve(fd); });
        }
    }

    bool send_all(int fd, const void* data, std::size_t size) {
        const char* p = static_cast<const char*>(data);
        while (size > 0) {
            const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
            if (n <= 0) return false;
            p += n;
            size -= static_cast<std::size_t>(n);
        }
        return true;
    }

    void serve(int fd) {
        char request[4096];
        (void)::recv(fd, request, sizeof request, 0);  // the GET; its details do not matter here
        const std::string header =
            "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=frame\r\n"
            "Cache-Control: no-cache\r\nConnection: close\r\n\r\n";
        bool ok = send_all(fd, header.data(), header.size());
        const auto period = std::chrono::duration<double>(1.0 / fps_);
        auto next = std::chrono::steady_clock::now();
        while (ok && running_) {
            std::vector<uchar> jpeg;
            cv::imencode(".jpg", make_frame_(frame_++), jpeg);
            const std::string part =
                "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(jpeg.size()) + "\r\n\r\n";
            ok = send_all(fd, part.data(), part.size()) && send_all(fd, jpeg.data(), jpeg.size()) &&
                 send_all(fd, "\r\n", 2);
            if (ok) ++sent_;
            next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(period);
            std::this_thread::sleep_until(next);
        }
        ::shutdown(fd, SHUT_RDWR);
        ::close(fd);
    }

    std::function<cv::Mat(int)> make_frame_;
    double fps_;
    int listener_ = -1, port_ = 0;
    std::atomic<bool> running_{false};
    std::atomic<int> frame_{0}, sent_{0}, connections_{0};
    std::thread acceptor_;
    std::list<std::thread> clients_;
};

}  // namespace libreyolo::testing
