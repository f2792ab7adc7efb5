#pragma once
// The constant-velocity Kalman filters of LibreYOLO's trackers, over an 8-value state: a box
// measurement (4 values) and its velocity. ByteTrack's measures (centre x, centre y, aspect
// ratio w/h, height) with noise scaled by the height; BoT-SORT's measures (centre x, centre y,
// width, height) with noise scaled by width and height separately and a Joseph-form update.
#include <array>

namespace libreyolo::track {

using Vec4 = std::array<double, 4>;
using Vec8 = std::array<double, 8>;
using Mat8 = std::array<std::array<double, 8>, 8>;

enum class BoxState { CentreAspectHeight, CentreWidthHeight };

struct KalmanEstimate {
    Vec8 mean{};
    Mat8 covariance{};
};

class KalmanBoxFilter {
public:
    explicit KalmanBoxFilter(BoxState state) : state_(state) {}
    BoxState state() const { return state_; }

    KalmanEstimate initiate(const Vec4& measurement) const;
    void predict(KalmanEstimate& e) const;
    // Throws InvalidArgument when the projected covariance is not positive definite.
    void update(KalmanEstimate& e, const Vec4& measurement) const;

private:
    BoxState state_;
};

}  // namespace libreyolo::track
