#include "models/yolo9/config.h"

#include "libreyolo/errors.h"

namespace libreyolo::models::yolo9 {

const Config& config_for(const std::string& size) {
    static const Config t{16,
                          32,
                          true,
                          32,
                          32,
                          false,
                          {{{64, 64, 64}, {96, 96, 96}, {128, 128, 128}}},
                          128,
                          3,
                          {96, 96},
                          {64, 64},
                          48,
                          {96, 96},
                          64,
                          {128, 128},
                          {64, 96, 128}};
    static const Config s{32,
                          64,
                          true,
                          64,
                          64,
                          false,
                          {{{128, 128, 128}, {192, 192, 192}, {256, 256, 256}}},
                          256,
                          3,
                          {192, 192},
                          {128, 128},
                          96,
                          {192, 192},
                          128,
                          {256, 256},
                          {128, 192, 256}};
    static const Config m{32,
                          64,
                          false,
                          128,
                          128,
                          false,
                          {{{240, 240, 240}, {360, 360, 360}, {480, 480, 480}}},
                          480,
                          1,
                          {360, 360},
                          {240, 240},
                          184,
                          {360, 360},
                          240,
                          {480, 480},
                          {240, 360, 480}};
    static const Config c{64,
                          128,
                          false,
                          256,
                          128,
                          true,
                          {{{256, 512, 256}, {512, 512, 512}, {512, 512, 512}}},
                          512,
                          1,
                          {512, 512},
                          {256, 256},
                          256,
                          {512, 512},
                          512,
                          {512, 512},
                          {256, 512, 512}};
    if (size == "t") return t;
    if (size == "s") return s;
    if (size == "m") return m;
    if (size == "c") return c;
    throw UnknownModel("unknown YOLOv9 size '" + size + "' (sizes: t, s, m, c)");
}

}  // namespace libreyolo::models::yolo9
