// Stage 4: the local frictional contact problem of the active contacts.
//
//   u = W r + q,  W_ij = Σ_b J_ib M_b⁻¹ J_jbᵀ,  q_i = Σ_b J_ib [v_free; ω_free]_b + E u_k
//
// with J_i,body2 = H2_i, J_i,body1 = −H1_i, M_b⁻¹ = diag(I/m, R I_B⁻¹ Rᵀ) (fixed bodies: 0),
// E = diag(e_n, e_t, e_t), and the
// Newton impact law u_N,k+1 + e_n u_N,k ≥ 0 folded into q (De Saxcé formulation then applies
// to the shifted velocity; Newton tangential restitution e_t likewise on the sliding velocity).
#include <algorithm>
#include <cmath>

#include "stages/stages.hpp"

namespace coulomb::stages {

namespace {

using Gmat = Eigen::Matrix<double, 6, 3>;

// M⁻¹ Jᵀ for one side of a contact (J given as ±H).
Gmat inverse_mass_times(const Jacobian36& J, double inv_mass, const Mat3& inv_inertia_W) {
  Gmat g;
  g.topRows<3>() = inv_mass * J.leftCols<3>().transpose();
  g.bottomRows<3>() = inv_inertia_W * J.rightCols<3>().transpose();
  return g;
}

}  // namespace

void assemble(const Model& model, const State& state, Workspace& ws) {
  const std::size_t nactive = ws.active.size();
  const std::size_t nbodies = model.bodies.size();
  ContactProblem& p = ws.problem;
  p.clear();
  p.contact_count = static_cast<int>(nactive);
  p.mu.resize(nactive);
  p.q.resize(nactive);
  p.diag.resize(nactive);
  ws.G1.resize(nactive);
  ws.G2.resize(nactive);

  ws.laws_of_active.resize(nactive);
  ws.r.resize(nactive);
  // Per active contact: the laws of its material pair, the memory of the last step (warm start
  // and stick/slip status), M⁻¹Jᵀ of each side, the free velocity q.
  for (std::size_t i = 0; i < nactive; ++i) {
    const int k = ws.active[i];
    const ContactPoint& c = ws.points[k];
    const Body& body1 = model.bodies[c.body1];
    const Body& body2 = model.bodies[c.body2];
    const int nm = ws.material_count;
    const int m1 = body1.material < 0 ? nm : body1.material;
    const int m2 = body2.material < 0 ? nm : body2.material;
    const int law_index = ws.spec_of_materials[m1 * (nm + 1) + m2] + 1;
    const NonsmoothLaws& laws = ws.laws[law_index];
    ws.laws_of_active[i] = law_index;

    const ContactKey key{c.shape1, c.shape2, c.feature};
    const auto memory = std::lower_bound(
        state.contacts.begin(), state.contacts.end(), key,
        [](const ContactMemory& m, const ContactKey& key_) { return m.key < key_; });
    const bool remembered = memory != state.contacts.end() && memory->key == key;
    ws.r[i] = remembered ? memory->impulse : Vec3::Zero();
    // Static/kinetic rule: μ_k for a contact that slid at the last step, or a new contact whose
    // points already slip at the start of the step; μ_s for a contact that stuck or a new one at
    // rest. So a block at rest starts to slide exactly at tan α = μ_s, and a sliding block keeps
    // μ_k until the step in which it stops, then μ_s holds it.
    const bool slid = remembered ? memory->status == ContactStatus::sliding
                                 : std::hypot(ws.u_start[k].y(), ws.u_start[k].z()) > kStickVelocity;
    p.mu[i] = slid ? laws.mu_k : laws.mu_s;

    const Jacobian36 J1 = -ws.H1[k];
    ws.G1[i] = inverse_mass_times(J1, body1.inv_mass(), ws.inv_inertia_W[c.body1]);
    ws.G2[i] = inverse_mass_times(ws.H2[k], body2.inv_mass(), ws.inv_inertia_W[c.body2]);
    Vec3 q = ws.H2[k].leftCols<3>() * ws.v_free[c.body2] +
             ws.H2[k].rightCols<3>() * ws.w_free[c.body2] -
             ws.H1[k].leftCols<3>() * ws.v_free[c.body1] -
             ws.H1[k].rightCols<3>() * ws.w_free[c.body1];
    // Newton's impact law per component: u_{k+1} + e u_k enters the complementarity.
    q.x() += laws.e_n * ws.u_start[k].x();
    q.y() += laws.e_t * ws.u_start[k].y();
    q.z() += laws.e_t * ws.u_start[k].z();
    p.q[i] = q;
  }

  // Active contacts of each dynamic body (CSR; a fixed body couples nothing).
  ws.body_contacts_start.assign(nbodies + 1, 0);
  for (std::size_t i = 0; i < nactive; ++i) {
    const ContactPoint& c = ws.points[ws.active[i]];
    if (!model.bodies[c.body1].fixed) ++ws.body_contacts_start[c.body1 + 1];
    if (!model.bodies[c.body2].fixed) ++ws.body_contacts_start[c.body2 + 1];
  }
  for (std::size_t b = 0; b < nbodies; ++b) ws.body_contacts_start[b + 1] += ws.body_contacts_start[b];
  ws.body_contacts.resize(static_cast<std::size_t>(ws.body_contacts_start[nbodies]));
  ws.scratch.assign(ws.body_contacts_start.begin(), ws.body_contacts_start.end() - 1);
  for (std::size_t i = 0; i < nactive; ++i) {
    const ContactPoint& c = ws.points[ws.active[i]];
    if (!model.bodies[c.body1].fixed) ws.body_contacts[ws.scratch[c.body1]++] = static_cast<int>(i);
    if (!model.bodies[c.body2].fixed) ws.body_contacts[ws.scratch[c.body2]++] = static_cast<int>(i);
  }

  // Block rows: for contact i, the contacts sharing a dynamic body with it (sorted, unique), then
  // W_ij = Σ over shared bodies of J_ib G_jb. Contacts are listed in increasing order per body.
  p.row_start.resize(nactive + 1);
  p.row_start[0] = 0;
  for (std::size_t i = 0; i < nactive; ++i) {
    const ContactPoint& ci = ws.points[ws.active[i]];
    const int bodies[2] = {ci.body1, ci.body2};
    // Merge the (sorted) contact lists of the two bodies.
    ws.scratch.clear();
    for (int side = 0; side < 2; ++side) {
      const int b = bodies[side];
      if (model.bodies[b].fixed) continue;
      for (int e = ws.body_contacts_start[b]; e < ws.body_contacts_start[b + 1]; ++e)
        ws.scratch.push_back(ws.body_contacts[e]);
    }
    if (ws.scratch.empty()) ws.scratch.push_back(static_cast<int>(i));  // both fixed: W_ii = 0
    std::sort(ws.scratch.begin(), ws.scratch.end());
    ws.scratch.erase(std::unique(ws.scratch.begin(), ws.scratch.end()), ws.scratch.end());

    for (const int j : ws.scratch) {
      const ContactPoint& cj = ws.points[ws.active[j]];
      Block3 w = Block3::Zero();
      // Side of body b in contact i (J) and in contact j (G).
      for (int si = 0; si < 2; ++si) {
        const int b = bodies[si];
        if (model.bodies[b].fixed) continue;
        const Jacobian36 Ji = si == 0 ? Jacobian36(-ws.H1[ws.active[i]]) : ws.H2[ws.active[i]];
        if (cj.body1 == b) w.noalias() += Ji * ws.G1[j];
        if (cj.body2 == b) w.noalias() += Ji * ws.G2[j];
      }
      if (j == static_cast<int>(i)) p.diag[i] = static_cast<std::int32_t>(p.col.size());
      p.col.push_back(j);
      p.blocks.push_back(w);
    }
    p.row_start[i + 1] = static_cast<std::int32_t>(p.col.size());
  }
}

}  // namespace coulomb::stages
