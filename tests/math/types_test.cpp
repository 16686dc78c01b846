// The math helpers: frame completion, skew matrices, poses.
#include <coulomb/math/types.hpp>

#include <gtest/gtest.h>

#include <random>

namespace coulomb {
namespace {

TEST(CompleteFrame, RightHandedOrthonormalEverywhere) {
  // Random directions (fixed seed) plus the poles and the branch switch at n_z = 0.
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  std::vector<Vec3> normals = {Vec3::UnitZ(),
                               -Vec3::UnitZ(),
                               Vec3::UnitX(),
                               -Vec3::UnitY(),
                               Vec3(1, 1, 1e-17).normalized(),
                               Vec3(1, -2, -1e-17).normalized()};
  for (int i = 0; i < 1000; ++i) normals.push_back(Vec3(g(rng), g(rng), g(rng)).normalized());
  for (const Vec3& n : normals) {
    Vec3 t1, t2;
    complete_frame(n, t1, t2);
    // Round-off of a few operations on unit vectors.
    EXPECT_NEAR(t1.norm(), 1.0, 1e-15);
    EXPECT_NEAR(t2.norm(), 1.0, 1e-15);
    EXPECT_NEAR(t1.dot(n), 0.0, 1e-15);
    EXPECT_NEAR(t2.dot(n), 0.0, 1e-15);
    EXPECT_NEAR(t1.dot(t2), 0.0, 1e-15);
    EXPECT_LE((t1.cross(t2) - n).norm(), 1e-15);  // right-handed: t1 × t2 = n
  }
  // For n = z the frame is the world's (the contact frame of a body on a horizontal plane).
  Vec3 t1, t2;
  complete_frame(Vec3::UnitZ(), t1, t2);
  EXPECT_EQ(t1, Vec3::UnitX());
  EXPECT_EQ(t2, Vec3::UnitY());
}

TEST(Skew, IsTheCrossProduct) {
  const Vec3 a(0.3, -1.2, 2.5), b(-0.7, 0.4, 1.1);
  EXPECT_LE((skew(a) * b - a.cross(b)).norm(), 1e-15);
  EXPECT_LE((skew(a) + skew(a).transpose()).norm(), 0.0);
}

TEST(PoseTest, ApplyInverseAndCompose) {
  const Pose X_AB{Vec3(1, 2, 3), Quat(Eigen::AngleAxisd(0.7, Vec3(1, 1, 0).normalized()))};
  const Pose X_BC{Vec3(-0.5, 0.1, 0.2), Quat(Eigen::AngleAxisd(-1.3, Vec3::UnitZ()))};
  const Vec3 p_C(0.3, -0.4, 0.9);
  // Composition maps like applying one pose after the other.
  EXPECT_LE(((X_AB * X_BC).apply(p_C) - X_AB.apply(X_BC.apply(p_C))).norm(), 1e-14);
  // apply_inverse undoes apply; rotate ignores the translation.
  EXPECT_LE((X_AB.apply_inverse(X_AB.apply(p_C)) - p_C).norm(), 1e-14);
  EXPECT_LE((X_AB.rotate(p_C) - (X_AB.apply(p_C) - X_AB.p)).norm(), 1e-14);
}

}  // namespace
}  // namespace coulomb
