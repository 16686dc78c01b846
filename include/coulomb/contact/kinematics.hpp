#pragma once
/// @file
/// Contact kinematics: the relative motion of body 2 with respect to body 1 at a contact point,
/// and the contact Jacobians that map body twists to it.
///
/// ## Definitions (DESIGN.md §1, the seed textbook's definitions)
///
/// Contact point I = c.point() (midpoint of the two surface points), unit normal n from body 1 to
/// body 2, right-handed contact frame (t1, t2, n). Body k has a reference point x_k (usually its
/// centre of mass) with velocity v_k [m/s] and angular velocity ω_k [rad/s], all in world axes.
/// The velocity of the material point of body k that is at I is v_{I∈k} = v_k + ω_k × (I − x_k).
///
///     slip velocity         v   = v_{I∈2} − v_{I∈1}                          [m/s]
///     normal rate           v_n = v·n            (> 0: separating)           [m/s]
///     sliding velocity      v_t = v − v_n n = (v·t1) t1 + (v·t2) t2          [m/s]
///     relative rotation     ω   = ω_2 − ω_1                                  [rad/s]
///     pivoting (spin)       ω_n = ω·n                                        [rad/s]
///     rolling               ω_t = n × (ω × n) = ω − ω_n n                    [rad/s]
///
/// Status: separated if gap > tol.gap, else sticking if ‖v_t‖ ≤ tol.velocity, else sliding.
/// Pivoting if |ω_n| > tol.angular, rolling if ‖ω_t‖ > tol.angular.
///
/// ## Contact Jacobians
///
/// The rows (N, T1, T2) of u = (v_n, v·t1, v·t2) are linear in the twists. With r_k = I − x_k and
/// d ∈ {n, t1, t2}: d·(v_k + ω_k × r_k) = d·v_k + (r_k × d)·ω_k, hence
///
///     u = H2 [v2; ω2] − H1 [v1; ω1],   row d of H_k = [ dᵀ , (r_k × d)ᵀ ]   (3×6 each)
///
/// and the angular rows (n, t1, t2) of ω = ω_2 − ω_1: row d of A_k = [ 0ᵀ , dᵀ ].
/// The transposes map a contact impulse/force (N, T1, T2) acting on body 2 (and its opposite on
/// body 1) to the generalised forces: H2ᵀ r on body 2, −H1ᵀ r on body 1.
/// The normal row is the time derivative of the gap for smooth convex shapes at any gap: the
/// closest points p1, p2 satisfy p2 − p1 = g n, the rate of the distance is ġ = n·(v_{p2∈2} −
/// v_{p1∈1}) (the motion of the closest points along the surfaces does not change g to first
/// order), and v_{p_k∈k}·n = v_{I∈k}·n because I − p_k is parallel to n. Tested by finite
/// differences for sphere–plane and sphere–sphere. The tangential rows at I differ from those at
/// p1 or p2 by O(g ‖ω‖).
///
/// Reference: the seed textbook's chapter on contact kinematics (slip velocity, rolling, pivoting,
/// definitions 10.3.x); examples and frame conventions in docs/kinematics.md.

#include <coulomb/collision/contact_point.hpp>
#include <coulomb/math/types.hpp>

namespace coulomb {

/// Relative motion of body 2 with respect to body 1 at the contact point I (world axes).
struct ContactKinematics {
  Vec3 v_W = Vec3::Zero();      ///< slip velocity v_{I∈2} − v_{I∈1} at I [m/s]
  double vn = 0.0;              ///< v·n (> 0 separating) [m/s]
  Vec3 vt_W = Vec3::Zero();     ///< sliding velocity v − vn n [m/s]
  double vt1 = 0.0;             ///< v·t1 [m/s]
  double vt2 = 0.0;             ///< v·t2 [m/s]
  Vec3 omega_W = Vec3::Zero();  ///< relative angular velocity ω2 − ω1 [rad/s]
  double spin = 0.0;            ///< pivoting ω_n = ω·n [rad/s]
  Vec3 roll_W = Vec3::Zero();   ///< rolling ω_t = n × (ω × n) [rad/s]
  double roll1 = 0.0;           ///< ω·t1 [rad/s]
  double roll2 = 0.0;           ///< ω·t2 [rad/s]
  ContactStatus status = ContactStatus::separated;  ///< separated | sticking | sliding
  bool pivoting = false;                            ///< |ω_n| > tol.angular
  bool rolling = false;                             ///< ‖ω_t‖ > tol.angular
};

/// Thresholds of the status flags.
struct KinematicsTolerances {
  double gap = 0.0;        ///< separated when gap > this [m]
  double velocity = 1e-9;  ///< sticking when ‖v_t‖ ≤ this [m/s]
  double angular = 1e-9;   ///< pivoting / rolling when above this [rad/s]
};

/// Relative kinematics at c.point() of body 2 (reference point x2_WC, velocity v2, angular
/// velocity w2) with respect to body 1 (x1_WC, v1, w1); all vectors in world axes, SI units.
/// Uses c.n_W, c.t1_W, c.t2_W and c.gap as given. Does not allocate or throw.
[[nodiscard]] ContactKinematics contact_kinematics(const ContactPoint& c, const Vec3& x1_WC,
                                                   const Vec3& v1, const Vec3& w1,
                                                   const Vec3& x2_WC, const Vec3& v2,
                                                   const Vec3& w2,
                                                   const KinematicsTolerances& tol = {});

/// Contact Jacobian rows: u = H2 [v2; ω2] − H1 [v1; ω1], u ordered (N, T1, T2). 3×6 each.
/// x1_WC, x2_WC are the bodies' reference points (those whose velocities v1, v2 the twists hold).
void contact_jacobians(const ContactPoint& c, const Vec3& x1_WC, const Vec3& x2_WC,
                       Eigen::Matrix<double, 3, 6>& H1, Eigen::Matrix<double, 3, 6>& H2);

/// Rolling/pivoting rows: (ω_n, ω·t1, ω·t2) = A2 [v2; ω2] − A1 [v1; ω1] with ω = ω2 − ω1;
/// A1 = A2 = [0 | (n; t1; t2)] (3×6 each, zero on the linear part).
void contact_angular_jacobians(const ContactPoint& c, Eigen::Matrix<double, 3, 6>& A1,
                               Eigen::Matrix<double, 3, 6>& A2);

}  // namespace coulomb
