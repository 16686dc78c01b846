#pragma once
/// @file
/// The force laws of the compliant formulation, built once per pair of materials from the
/// contact specs of a model (the compliant counterpart of model/contact_laws.hpp, which resolves
/// the set-valued laws of the nonsmooth formulation).
///
/// A contact's laws (docs/laws.md): the normal law N(δ, δ̇); the friction force from the
/// friction law F_t(v_t, N, memory), or, when `contensou` is given, the friction force and the
/// pivoting moment of the patch together (the friction law then only gives μ); the rolling
/// moment of `rolling` (or of `rolling_resistance` inside the Contensou law); the pivoting moment
/// of `pivoting` or `soft_finger`. Every law is built through the registry's factories, so its
/// parameters are checked where the scene loader checks them.
///
/// `coulomb` friction runs as its regularised slip law (coulomb/laws/coulomb.hpp) and has no
/// stick branch: a static coefficient μ_s ≠ μ_k is rejected (LawError at friction.mu_s).

#include <coulomb/laws/law.hpp>
#include <coulomb/model/model.hpp>

#include <memory>
#include <vector>

namespace coulomb {

/// The built laws of one contact spec between two materials.
struct CompliantLaws {
  std::unique_ptr<NormalLaw> normal;
  std::unique_ptr<FrictionLaw> friction;    ///< its force unless `contensou` is given
  std::unique_ptr<RollingLaw> rolling;      ///< null: none
  std::unique_ptr<PivotingLaw> pivoting;    ///< pivoting or soft finger; null: none
  std::unique_ptr<ContensouLaw> contensou;  ///< null: none (then friction gives F_t)
  /// The contact is a patch (Contensou): the narrowphase points of a shape pair become one.
  [[nodiscard]] bool patch() const { return contensou != nullptr; }
};

/// Builds the laws of `spec` between materials m1 and m2; throws LawError at the offending key
/// (a bad parameter, a law the compliant formulation does not run, coulomb with μ_s ≠ μ_k).
[[nodiscard]] CompliantLaws build_compliant_laws(const ContactSpec& spec, const Material& m1,
                                                 const Material& m2);

/// The laws of every ordered pair of materials of a model (the default material −1 included).
class CompliantLawTable {
 public:
  CompliantLawTable() = default;
  /// Builds the laws of every pair of the bodies' materials; throws std::invalid_argument naming
  /// the material pair when a law cannot be built (LawError's message).
  explicit CompliantLawTable(const Model& model);
  /// The laws between materials a and b (−1: the default material).
  [[nodiscard]] const CompliantLaws& of(int material1, int material2) const {
    return *laws_[pair_[static_cast<std::size_t>(index(material1) * (count_ + 1) +
                                                 index(material2))]];
  }

 private:
  [[nodiscard]] int index(int m) const { return m < 0 ? count_ : m; }
  int count_ = 0;
  std::vector<std::size_t> pair_;                     ///< (nm+1)² index into laws_
  std::vector<std::unique_ptr<CompliantLaws>> laws_;  ///< one per unordered pair used
};

}  // namespace coulomb
