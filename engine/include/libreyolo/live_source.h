#pragma once
// Live sources: a camera by its index ("0"), a network stream (rtsp://, rtmp://, http(s)://, an
// HLS .m3u8 playlist) or a .streams text file naming several, one per line. Each is read on a
// capture thread of its own that keeps only the newest frame, so a consumer slower than the
// source skips frames instead of falling further and further behind, and a dropped stream is
// opened again with back-off. predict and track take these as `source=`; the studio's live view
// reads frames through LiveSource.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace libreyolo {

struct LiveOptions {
    double open_timeout_s = 10;        // opening a network stream
    double read_timeout_s = 2;         // no frame for this long: the stream counts as dropped
    double reconnect_delay_s = 0.5;    // first wait before opening a dropped stream again, doubled
    double reconnect_max_delay_s = 8;  // ... up to this
    int reconnect_attempts = 10;       // failed attempts in a row before the source ends; -1: never
};

// Whether source names a live source: a whole number (camera index), a URL with one of the
// schemes above, or a file ending in .streams.
bool is_live_source(const std::string& source);

// The sources a .streams file lists: one per line; blank lines and lines starting with # are
// skipped. Throws FileNotFound, or FormatError naming the file and line of an entry that is not a
// live source.
std::vector<std::string> read_streams_file(const std::string& path);

// The sources a live `source=` stands for: the lines of a .streams file, else source itself.
std::vector<std::string> live_source_list(const std::string& source);

struct LiveFrame {
    std::vector<std::uint8_t> rgb;  // width·3 bytes per row
    int width = 0, height = 0;
    std::int64_t index = 0;  // frames the capture thread has read before this one
};

struct LiveStats {
    std::int64_t frames_read = 0;     // by the capture thread
    std::int64_t frames_dropped = 0;  // replaced by a newer frame before anyone took them
    int reconnects = 0;               // successful re-openings after a drop
    bool connected = false;           // false while reconnecting, and after the end
    double fps = 0;                   // as the source reports it, else measured; 0 before two frames
};

class LiveCapture;  // engine-internal

class LiveSource {
public:
    // Opens source now (a camera index, a URL) and starts its capture thread. Throws FileNotFound
    // for a camera index without a device, FormatError for a stream that cannot be opened, each
    // naming the source and the reason (refused, unknown host, timed out, not a video stream),
    // NotSupported where the build has no video decoder.
    explicit LiveSource(const std::string& source, const LiveOptions& options = {});
    ~LiveSource();  // stops the thread and releases the device
    LiveSource(const LiveSource&) = delete;
    LiveSource& operator=(const LiveSource&) = delete;

    enum class Next { Frame, Timeout, Ended };
    // The newest frame not yet taken, waiting up to timeout_ms for one. Ended: stop() was called,
    // the process was interrupted (stop_on_interrupt), or reconnecting gave up.
    Next next(LiveFrame& frame, int timeout_ms);
    void stop();  // from any thread; ends the capture thread (within read_timeout_s)
    LiveStats stats() const;
    const std::string& source() const;
    std::string end_reason() const;  // why it ended; "" while it runs

    LiveCapture& capture();  // engine-internal

private:
    std::unique_ptr<LiveCapture> capture_;
};

// Ctrl-C (SIGINT) and SIGTERM then end predict, track and every live source cleanly (the video
// being written is finished); a second Ctrl-C ends the process at once. For command-line front
// ends; a GUI stops its sources with LiveSource::stop.
void stop_on_interrupt();
bool interrupt_requested();

}  // namespace libreyolo
