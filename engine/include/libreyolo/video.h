#pragma once
// A video's frames as RGB pixels, for front ends that show them while predicting (the studio's
// player): each frame goes to Model::predict as an ImageView.
#include <memory>
#include <string>
#include <vector>

namespace libreyolo {

class VideoFrames {
public:
    // Throws FileNotFound, FormatError (cannot be decoded) or NotSupported (a build without a
    // video decoder), each naming the file.
    explicit VideoFrames(const std::string& path);
    ~VideoFrames();
    VideoFrames(const VideoFrames&) = delete;
    VideoFrames& operator=(const VideoFrames&) = delete;

    // The next frame as RGB8 with rows of width·3 bytes; false at the end.
    bool next(std::vector<unsigned char>& rgb, int& width, int& height);
    double fps() const;
    int frames_read() const;

    // Whether path names a video by its extension (.mp4, .avi, .mov, .mkv, ...).
    static bool is_video_file(const std::string& path);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace libreyolo
