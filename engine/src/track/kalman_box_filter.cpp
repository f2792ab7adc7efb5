#include "track/kalman_box_filter.h"

#include <algorithm>
#include <cmath>

#include "libreyolo/errors.h"

namespace libreyolo::track {
namespace {

constexpr double kStdPosition = 1.0 / 20;
constexpr double kStdVelocity = 1.0 / 160;

using Mat4 = std::array<std::array<double, 4>, 4>;

Mat8 diagonal_of_squares(const Vec8& std) {
    Mat8 m{};
    for (int i = 0; i < 8; ++i) m[i][i] = std[i] * std[i];
    return m;
}

// BoT-SORT's width and height scales: |value| floored at 1e-2.
std::array<double, 2> scales(double w, double h) {
    return {std::max(std::abs(w), 1e-2), std::max(std::abs(h), 1e-2)};
}

// x ← F x with F the constant-velocity motion (position += velocity).
void move(Vec8& mean) {
    for (int i = 0; i < 4; ++i) mean[i] += mean[i + 4];
}

// P ← F P Fᵀ, F = [[I, I], [0, I]].
Mat8 propagate(const Mat8& p) {
    Mat8 fp{};  // F P
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) fp[r][c] = r < 4 ? p[r][c] + p[r + 4][c] : p[r][c];
    Mat8 out{};  // (F P) Fᵀ
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) out[r][c] = c < 4 ? fp[r][c] + fp[r][c + 4] : fp[r][c];
    return out;
}

// Cholesky factor L of a symmetric positive-definite 4×4 (S = L Lᵀ).
Mat4 cholesky(const Mat4& s) {
    Mat4 l{};
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j <= i; ++j) {
            double sum = s[i][j];
            for (int k = 0; k < j; ++k) sum -= l[i][k] * l[j][k];
            if (i == j) {
                if (!(sum > 0))
                    throw InvalidArgument("Kalman update: the projected covariance is not positive definite");
                l[i][i] = std::sqrt(sum);
            } else {
                l[i][j] = sum / l[j][j];
            }
        }
    }
    return l;
}

// Solves S x = b for x with S = L Lᵀ.
Vec4 solve(const Mat4& l, Vec4 b) {
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < i; ++k) b[i] -= l[i][k] * b[k];
        b[i] /= l[i][i];
    }
    for (int i = 3; i >= 0; --i) {
        for (int k = i + 1; k < 4; ++k) b[i] -= l[k][i] * b[k];
        b[i] /= l[i][i];
    }
    return b;
}

}  // namespace

KalmanEstimate KalmanBoxFilter::initiate(const Vec4& m) const {
    KalmanEstimate e;
    for (int i = 0; i < 4; ++i) e.mean[i] = m[i];
    Vec8 std{};
    if (state_ == BoxState::CentreAspectHeight) {
        const double h = m[3];
        std = {2 * kStdPosition * h,  2 * kStdPosition * h,  1e-2, 2 * kStdPosition * h,
               10 * kStdVelocity * h, 10 * kStdVelocity * h, 1e-5, 10 * kStdVelocity * h};
    } else {
        const auto [w, h] = scales(m[2], m[3]);
        std = {2 * kStdPosition * w,  2 * kStdPosition * h,  2 * kStdPosition * w,  2 * kStdPosition * h,
               10 * kStdVelocity * w, 10 * kStdVelocity * h, 10 * kStdVelocity * w, 10 * kStdVelocity * h};
    }
    e.covariance = diagonal_of_squares(std);
    return e;
}

void KalmanBoxFilter::predict(KalmanEstimate& e) const {
    Vec8 std{};
    if (state_ == BoxState::CentreAspectHeight) {
        const double h = std::max(e.mean[3], 1e-2);
        std = {kStdPosition * h, kStdPosition * h, 1e-2, kStdPosition * h,
               kStdVelocity * h, kStdVelocity * h, 1e-5, kStdVelocity * h};
    } else {
        const auto [w, h] = scales(e.mean[2], e.mean[3]);
        std = {kStdPosition * w, kStdPosition * h, kStdPosition * w, kStdPosition * h,
               kStdVelocity * w, kStdVelocity * h, kStdVelocity * w, kStdVelocity * h};
    }
    move(e.mean);
    // LibreYOLO clamps the covariance before propagating it, so that a track predicted for many
    // frames without a measurement cannot overflow.
    for (auto& row : e.covariance)
        for (double& v : row) v = std::clamp(v, -1e10, 1e10);
    e.covariance = propagate(e.covariance);
    for (int i = 0; i < 8; ++i) e.covariance[i][i] += std[i] * std[i];
}

void KalmanBoxFilter::update(KalmanEstimate& e, const Vec4& measurement) const {
    Vec4 r{};  // measurement noise variances
    if (state_ == BoxState::CentreAspectHeight) {
        const double h = e.mean[3];
        r = {kStdPosition * h, kStdPosition * h, 1e-1, kStdPosition * h};
    } else {
        const auto [w, h] = scales(e.mean[2], e.mean[3]);
        r = {kStdPosition * w, kStdPosition * h, kStdPosition * w, kStdPosition * h};
    }
    for (double& v : r) v *= v;
    const Mat8& p = e.covariance;
    Mat4 s{};  // H P Hᵀ + R: the position block of P
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s[i][j] = p[i][j] + (i == j ? r[i] : 0.0);
    const Mat4 l = cholesky(s);
    // Gain K = P Hᵀ S⁻¹ (8×4), one row at a time: S kᵣ = (P Hᵀ)ᵣ since S is symmetric.
    std::array<Vec4, 8> k{};
    for (int row = 0; row < 8; ++row) k[row] = solve(l, {p[row][0], p[row][1], p[row][2], p[row][3]});
    Vec4 innovation{};
    for (int i = 0; i < 4; ++i) innovation[i] = measurement[i] - e.mean[i];
    for (int row = 0; row < 8; ++row)
        for (int i = 0; i < 4; ++i) e.mean[row] += innovation[i] * k[row][i];

    Mat8 out{};
    if (state_ == BoxState::CentreAspectHeight) {
        // P - K S Kᵀ
        for (int a = 0; a < 8; ++a)
            for (int b = 0; b < 8; ++b) {
                double ksk = 0;
                for (int i = 0; i < 4; ++i) {
                    double sk = 0;
                    for (int j = 0; j < 4; ++j) sk += s[i][j] * k[b][j];
                    ksk += k[a][i] * sk;
                }
                out[a][b] = p[a][b] - ksk;
            }
    } else {
        // Joseph form (I - K H) P (I - K H)ᵀ + K R Kᵀ: stays symmetric over long sequences.
        Mat8 a{};  // I - K H
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) a[i][j] = (i == j ? 1.0 : 0.0) - (j < 4 ? k[i][j] : 0.0);
        Mat8 ap{};
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) {
                double v = 0;
                for (int t = 0; t < 8; ++t) v += a[i][t] * p[t][j];
                ap[i][j] = v;
            }
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) {
                double v = 0;
                for (int t = 0; t < 8; ++t) v += ap[i][t] * a[j][t];
                double krk = 0;
                for (int t = 0; t < 4; ++t) krk += k[i][t] * r[t] * k[j][t];
                out[i][j] = v + krk;
            }
    }
    e.covariance = out;
}

}  // namespace libreyolo::track
