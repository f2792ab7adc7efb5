#pragma once
// How detections are drawn: `predict save=true`, the studio's view and its saved images use these,
// so every picture of a result looks the same.
#include <cstdint>
#include <string>

#include "libreyolo/results.h"

namespace libreyolo {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb&) const = default;
};

// The box colour of a class: Ultralytics' 20-colour palette, cycled.
Rgb class_colour(int cls);

// A box's colour and label text: a tracked box (track_id >= 0) takes its track's colour and
// "#id conf", as LibreYOLO draws tracks; any other its class's colour and "name conf".
Rgb box_colour(const Detection& box);
std::string box_label(const Result& result, const Detection& box);

// Black or white, whichever reads better on background (by its relative luminance).
Rgb label_text_colour(Rgb background);

// Where a label of size (width, height) goes for a box whose top-left corner is (x1, y1), in an
// image of image_width x image_height pixels: above the box when it fits, otherwise just inside its
// top edge; shifted left so that it ends inside the image at the right edge. Returns its top-left.
struct LabelPlace {
    int x = 0, y = 0;
};
LabelPlace place_label(int x1, int y1, int width, int height, int image_width, int image_height);

// Draws result's boxes and labels (class name and confidence; a tracked box "#id confidence" in its
// track's colour) onto an RGB8 image in place.
// bytes_per_line 0 means tightly packed.
void draw_detections(std::uint8_t* rgb, int width, int height, int bytes_per_line, const Result& result);

}  // namespace libreyolo
