/// @file
/// FactoredProblem<N>: the contact problem with W = J M⁻¹ Jᵀ kept factored
/// (coulomb/nonsmooth/factored_problem.hpp). Data layout: per-contact arrays (the two sides' rows
/// J and M⁻¹ Jᵀ, the diagonal block) are read in visiting order by the sweep; per-body arrays are
/// indexed by the compact body index; the contacts of each body (CSR) let ν = M⁻¹ Jᵀ r be
/// gathered body by body, so the sum has a fixed order whatever the number of threads.

#include <coulomb/nonsmooth/factored_problem.hpp>

#include <coulomb/math/parallel.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace coulomb {

namespace {

void validate_law(double mu) {
  // μ = +∞ is the no-slip law (coulomb/nonsmooth/no_slip.hpp).
  if (std::isnan(mu) || mu < 0.0) throw std::invalid_argument("mu must be >= 0 (+inf: no slip)");
}
void validate_law(const ContactLaw6& law) { law.validate(); }

template <int N>
[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument(
      std::string(N == kForce ? "FactoredForceProblem: " : "FactoredWrenchProblem: ") + what);
}

}  // namespace

template <int N>
void FactoredProblem<N>::clear() {
  contact_count = 0;
  body_count = 0;
  laws.clear();
  q.clear();
  body1.clear();
  body2.clear();
  J1.clear();
  J2.clear();
  G1.clear();
  G2.clear();
  w_diag.clear();
  inv_mass.clear();
  inv_inertia.clear();
  joint_rows.clear();
  // body_contacts_start, body_contacts, order and color_start are finish()'s, with the graph
  // they were built for (kept, or built again, by the next finish()).
}

template <int N>
void FactoredProblem<N>::finish() {
  const auto nc = static_cast<std::size_t>(contact_count);
  const auto nb = static_cast<std::size_t>(body_count);
  // M⁻¹ Jᵀ of each side and the diagonal blocks W_αα = J1 G1 + J2 G2.
  G1.resize(nc);
  G2.resize(nc);
  w_diag.resize(nc);
  const auto inverse_mass_times = [&](const Jacobian& J, std::int32_t b) {
    if (b < 0) return InvMassJt(InvMassJt::Zero());
    // Every entry is written below: no zero fill first (GCC filled the 144 bytes with `rep stos`,
    // a quarter of this loop's time on a carpet of 10⁴ spheres).
    InvMassJt g;
    g.template topRows<3>() = inv_mass[b] * J.template leftCols<3>().transpose();
    g.template bottomRows<3>() = inv_inertia[b] * J.template rightCols<3>().transpose();
    return g;
  };
  parallel_for(contact_count, kProblemLoopMin, [&](std::ptrdiff_t ia) {
    const auto a = static_cast<std::size_t>(ia);
    G1[a] = inverse_mass_times(J1[a], body1[a]);
    G2[a] = inverse_mass_times(J2[a], body2[a]);
    // (A fixed side adds nothing: its G is zero.)
    if (body1[a] >= 0 && body2[a] >= 0) {
      w_diag[a].noalias() = J1[a] * G1[a];
      w_diag[a].noalias() += J2[a] * G2[a];
    } else if (body1[a] >= 0) {
      w_diag[a].noalias() = J1[a] * G1[a];
    } else if (body2[a] >= 0) {
      w_diag[a].noalias() = J2[a] * G2[a];
    } else {
      w_diag[a].setZero();
    }
  });

  // The same contact graph as at the last finish(): its CSR and visiting order hold (a settled
  // carpet of 10⁴ spheres spent 2.7 % of its step building them again).
  if (graph_body_count == body_count && graph_body1 == body1 && graph_body2 == body2) return;
  graph_body_count = body_count;
  graph_body1 = body1;
  graph_body2 = body2;

  // The contacts of each body, in contact order (CSR).
  body_contacts_start.assign(nb + 1, 0);
  for (std::size_t a = 0; a < nc; ++a) {
    if (body1[a] >= 0) ++body_contacts_start[body1[a] + 1];
    if (body2[a] >= 0 && body2[a] != body1[a]) ++body_contacts_start[body2[a] + 1];
  }
  for (std::size_t b = 0; b < nb; ++b) body_contacts_start[b + 1] += body_contacts_start[b];
  body_contacts.resize(static_cast<std::size_t>(body_contacts_start[nb]));
  std::vector<std::int32_t>& next = scratch_next;
  next.assign(body_contacts_start.begin(), body_contacts_start.end() - 1);
  for (std::size_t a = 0; a < nc; ++a) {
    if (body1[a] >= 0) body_contacts[next[body1[a]]++] = static_cast<std::int32_t>(a);
    if (body2[a] >= 0 && body2[a] != body1[a])
      body_contacts[next[body2[a]]++] = static_cast<std::int32_t>(a);
  }

  // Visiting order: contact order, or greedy colours in contact order (the first colour no
  // earlier contact of either body has), then contacts listed colour by colour.
  order.resize(nc);
  color_start.clear();
  if (contact_count < kColorThreshold) {
    for (std::size_t a = 0; a < nc; ++a) order[a] = static_cast<std::int32_t>(a);
    color_start.assign({0, contact_count});
    return;
  }
  std::vector<std::int32_t>& color = scratch_color;
  color.assign(nc, -1);
  std::vector<std::uint8_t>& used = scratch_used;
  int colors = 0;
  for (std::size_t a = 0; a < nc; ++a) {
    used.assign(static_cast<std::size_t>(colors) + 1, 0);
    for (const std::int32_t b : {body1[a], body2[a]}) {
      if (b < 0) continue;
      for (std::int32_t e = body_contacts_start[b]; e < body_contacts_start[b + 1]; ++e) {
        const std::int32_t c = color[static_cast<std::size_t>(body_contacts[e])];
        if (c >= 0) used[static_cast<std::size_t>(c)] = 1;
      }
    }
    const auto first_free = std::find(used.begin(), used.end(), 0) - used.begin();
    color[a] = static_cast<std::int32_t>(first_free);
    colors = std::max(colors, color[a] + 1);
  }
  color_start.assign(static_cast<std::size_t>(colors) + 1, 0);
  for (std::size_t a = 0; a < nc; ++a) ++color_start[static_cast<std::size_t>(color[a]) + 1];
  for (int c = 0; c < colors; ++c) color_start[c + 1] += color_start[c];
  next.assign(color_start.begin(), color_start.end() - 1);
  for (std::size_t a = 0; a < nc; ++a) order[next[color[a]]++] = static_cast<std::int32_t>(a);
}

template <int N>
void FactoredProblem<N>::body_velocity(const std::vector<Vec>& r, std::vector<Vec6d>& nu) const {
  nu.resize(static_cast<std::size_t>(body_count));
  parallel_for(body_count, kProblemLoopMin, [&](std::ptrdiff_t ib) {
    const auto b = static_cast<std::int32_t>(ib);
    Vec6d v = Vec6d::Zero();
    for (std::int32_t e = body_contacts_start[b]; e < body_contacts_start[b + 1]; ++e) {
      const std::int32_t a = body_contacts[e];
      if (body1[a] == b) v.noalias() += G1[a] * r[a];
      if (body2[a] == b) v.noalias() += G2[a] * r[a];
    }
    nu[b] = v;
  });
}

template <int N>
void FactoredProblem<N>::contact_velocity(const std::vector<Vec6d>& nu, std::vector<Vec>& u) const {
  u.resize(static_cast<std::size_t>(contact_count));
  parallel_for(contact_count, kProblemLoopMin, [&](std::ptrdiff_t ia) {
    const auto a = static_cast<std::int32_t>(ia);
    Vec ua = q[a];
    if (body1[a] >= 0) ua.noalias() += J1[a] * nu[body1[a]];
    if (body2[a] >= 0) ua.noalias() += J2[a] * nu[body2[a]];
    u[a] = ua;
  });
}

template <int N>
void FactoredProblem<N>::velocity(const std::vector<Vec>& r, std::vector<Vec>& u,
                                  std::vector<Vec6d>& nu) const {
  body_velocity(r, nu);
  contact_velocity(nu, u);
}

template <int N>
ContactProblem<N> FactoredProblem<N>::assembled() const {
  ContactProblem<N> p;
  p.contact_count = contact_count;
  p.laws = laws;
  p.q = q;
  p.joint_rows = joint_rows;
  p.diag.resize(static_cast<std::size_t>(contact_count));
  p.row_start.assign(static_cast<std::size_t>(contact_count) + 1, 0);
  std::vector<std::int32_t> row;
  for (int i = 0; i < contact_count; ++i) {
    // The contacts sharing a dynamic body with i (itself included), in increasing order.
    row.clear();
    for (const std::int32_t b : {body1[i], body2[i]}) {
      if (b < 0) continue;
      for (std::int32_t e = body_contacts_start[b]; e < body_contacts_start[b + 1]; ++e)
        row.push_back(body_contacts[e]);
    }
    if (row.empty()) row.push_back(i);  // both bodies fixed: W_ii = 0
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    // W_ij = Σ over the shared bodies of J_i,b M_b⁻¹ J_j,bᵀ.
    for (const std::int32_t j : row) {
      Block w = Block::Zero();
      const auto add = [&](std::int32_t bi, const Jacobian& Ji) {
        if (bi < 0) return;
        if (body1[j] == bi) w.noalias() += Ji * G1[j];
        if (body2[j] == bi) w.noalias() += Ji * G2[j];
      };
      add(body1[i], J1[i]);
      if (body2[i] != body1[i]) add(body2[i], J2[i]);
      if (j == i) p.diag[i] = static_cast<std::int32_t>(p.col.size());
      p.col.push_back(j);
      p.blocks.push_back(w);
    }
    p.row_start[i + 1] = static_cast<std::int32_t>(p.col.size());
  }
  return p;
}

template <int N>
void FactoredProblem<N>::validate() const {
  const auto nc = static_cast<std::size_t>(contact_count);
  const auto nb = static_cast<std::size_t>(body_count);
  if (contact_count < 0 || body_count < 0) fail<N>("negative contact or body count");
  if (laws.size() != nc || q.size() != nc || body1.size() != nc || body2.size() != nc ||
      J1.size() != nc || J2.size() != nc || G1.size() != nc || G2.size() != nc ||
      w_diag.size() != nc)
    fail<N>("every per-contact array must have contact_count entries");
  if (inv_mass.size() != nb || inv_inertia.size() != nb)
    fail<N>("inv_mass and inv_inertia must have body_count entries");
  for (std::size_t a = 0; a < nc; ++a) {
    for (const std::int32_t b : {body1[a], body2[a]})
      if (b < -1 || b >= body_count)
        fail<N>("contact " + std::to_string(a) + ": body index out of range");
    if (!q[a].allFinite() || !J1[a].allFinite() || !J2[a].allFinite())
      fail<N>("contact " + std::to_string(a) + ": q and J must be finite");
    try {
      validate_law(laws[a]);
    } catch (const std::invalid_argument& e) {
      fail<N>("contact " + std::to_string(a) + ": " + e.what());
    }
  }
  for (std::size_t b = 0; b < nb; ++b)
    if (!(inv_mass[b] >= 0.0) || !std::isfinite(inv_mass[b]) || !inv_inertia[b].allFinite())
      fail<N>("body " + std::to_string(b) + ": inverse mass and inertia must be finite, >= 0");
  if (joint_rows.size() > nc) fail<N>("more joint blocks than blocks");
  for (std::size_t j = 0; j < joint_rows.size(); ++j)
    if (joint_rows[j].lo.hasNaN() || joint_rows[j].hi.hasNaN() ||
        (joint_rows[j].lo.array() > joint_rows[j].hi.array()).any())
      fail<N>("joint block " + std::to_string(j) + ": bounds must satisfy lo <= hi");
}

template struct FactoredProblem<kForce>;
template struct FactoredProblem<kWrench>;

}  // namespace coulomb
