#pragma once
/// @file
/// The set-valued laws of a material pair, resolved once for the nonsmooth formulation by
/// compile() (coulomb/model/model.hpp), which keeps one per contact spec in CompiledModel.
#include <coulomb/laws/contensou.hpp>

#include <cstdint>

namespace coulomb {

struct ContactSpec;
struct Model;

/// What the nonsmooth step (midpoint or Moreau–Jean scheme) needs of a contact's laws (see
/// docs/nonsmooth.md).
struct NonsmoothLaws {
  double mu_s = 0.0;  ///< static Coulomb coefficient: contacts that stuck (or are new) [-]
  double mu_k = 0.0;  ///< kinetic coefficient: contacts that slid at the last step [-]
  double e_n = 0.0;   ///< Newton normal restitution [-]
  double e_t = 0.0;   ///< Newton tangential restitution [-]
  double h = 0.0;     ///< pivoting friction length, |M_n| ≤ h N (soft finger: μ r_t) [m]
  double k = 0.0;     ///< rolling friction length, ‖M_t‖ ≤ k N [m]
  /// Coupled sliding–spinning friction (Coulomb–Contensou) instead of the separate pivoting law.
  enum class Coupling : std::uint8_t { none, ellipsoid, exact } coupling = Coupling::none;
  double patch_radius = 0.0;  ///< a [m]; 0 = from Hertz theory and the last normal force
  contensou::Pressure pressure = contensou::Pressure::hertz;
  /// Hertz data for a patch radius from the normal force: a = (3 N R* / (4 E*))^{1/3}.
  double e_star = 0.0;  ///< [Pa]

  /// True when the contact carries moments (pivoting, rolling or Contensou): 6 unknowns.
  [[nodiscard]] bool has_moments() const {
    return h > 0.0 || k > 0.0 || coupling != Coupling::none;
  }
};

/// Resolves a contact spec through the laws module. Throws std::invalid_argument naming the
/// material pair when a law is not set-valued (e.g. Stribeck friction in the nonsmooth
/// formulation).
[[nodiscard]] NonsmoothLaws resolve_nonsmooth_laws(const ContactSpec& spec, const Model& model);

/// Checks that the compliant formulation runs every law of a contact spec (the registry's
/// formulations, coulomb::formulation_error); throws std::invalid_argument naming the material
/// pair otherwise (e.g. Signorini in the compliant formulation). The force laws themselves are
/// built by the compliant module (coulomb/compliant/contact_laws.hpp).
void check_compliant_laws(const ContactSpec& spec, const Model& model);

/// True when two distinct bodies of materials a and b (−1: the default material), one of them
/// free, exist: the only pairs of materials whose laws a run can meet.
[[nodiscard]] bool materials_can_meet(const Model& model, int a, int b);

/// True when some pair of materials that can meet (materials_can_meet) has no `contacts` entry,
/// so that Model::default_contact serves it.
[[nodiscard]] bool default_contact_serves_a_pair(const Model& model);

}  // namespace coulomb
