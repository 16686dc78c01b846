/// @file
/// Model look-ups (contact spec by material pair, body and material by name), the names of the
/// setting enums, the invariant checks of `Model::finalize()` and `compile()`.

#include <coulomb/model/model.hpp>

#include <coulomb/collision/broadphase.hpp>
#include <coulomb/laws/registry.hpp>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace coulomb {

namespace {

bool finite(const Vec3& v) { return v.allFinite(); }

[[noreturn]] void invalid(const std::string& what) {
  throw std::invalid_argument("Model::finalize: " + what);
}

}  // namespace

const char* to_string(TimeScheme scheme) {
  switch (scheme) {
    case TimeScheme::midpoint:
      return "midpoint";
    case TimeScheme::moreau_jean:
      return "moreau_jean";
  }
  return "?";
}

const char* to_string(Formulation formulation) {
  // The registry's names (string literals, so data() is null-terminated).
  return formulation_name(formulation == Formulation::nonsmooth ? kNonsmooth : kCompliant).data();
}

const char* to_string(Integrator integrator) {
  switch (integrator) {
    case Integrator::erk:
      return "erk";
    case Integrator::dirk:
      return "dirk";
    case Integrator::bdf:
      return "bdf";
  }
  return "?";
}

const char* to_string(ActiveSetRule rule) {
  switch (rule) {
    case ActiveSetRule::predicted:
      return "predicted";
    case ActiveSetRule::siconos:
      return "siconos";
  }
  return "?";
}

const char* to_string(SolverRows rows) {
  switch (rows) {
    case SolverRows::per_output:
      return "per_output";
    case SolverRows::every_step:
      return "every_step";
  }
  return "?";
}

const char* ContactSpec::moment_law() const {
  if (rolling) return "rolling";
  if (pivoting) return "pivoting";
  if (soft_finger) return "soft_finger";
  if (contensou) return "contensou";
  return nullptr;
}

const LawSpec* ContactSpec::law(LawSection section) const {
  auto given = [](const std::optional<LawSpec>& s) { return s ? &*s : nullptr; };
  switch (section) {
    case LawSection::normal:
      return &normal;
    case LawSection::friction:
      return &friction;
    case LawSection::rolling:
      return given(rolling);
    case LawSection::pivoting:
      return given(pivoting);
    case LawSection::soft_finger:
      return given(soft_finger);
    case LawSection::contensou:
      return given(contensou);
    case LawSection::rolling_resistance:
      return given(rolling_resistance);
    case LawSection::count:
      break;
  }
  return nullptr;
}

void ContactSpec::set_law(LawSection section, LawSpec spec) {
  switch (section) {
    case LawSection::normal:
      normal = std::move(spec);
      break;
    case LawSection::friction:
      friction = std::move(spec);
      break;
    case LawSection::rolling:
      rolling = std::move(spec);
      break;
    case LawSection::pivoting:
      pivoting = std::move(spec);
      break;
    case LawSection::soft_finger:
      soft_finger = std::move(spec);
      break;
    case LawSection::contensou:
      contensou = std::move(spec);
      break;
    case LawSection::rolling_resistance:
      rolling_resistance = std::move(spec);
      break;
    case LawSection::count:
      break;
  }
}

// Linear search over the contacts: the list is short and the search allocates nothing.
int Model::contact_spec_index(int material1, int material2) const {
  if (material1 < 0 || material2 < 0) return -1;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const ContactSpec& c = contacts[i];
    if ((c.material1 == material1 && c.material2 == material2) ||
        (c.material1 == material2 && c.material2 == material1)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

const ContactSpec& Model::contact_spec(int body1, int body2) const {
  const int i = contact_spec_index(bodies[static_cast<std::size_t>(body1)].material,
                                   bodies[static_cast<std::size_t>(body2)].material);
  return i < 0 ? default_contact : contacts[static_cast<std::size_t>(i)];
}

int Model::body_index(const std::string& name) const {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int Model::material_index(const std::string& name) const {
  for (std::size_t i = 0; i < materials.size(); ++i) {
    if (materials[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool is_physical_inertia(const Mat3& inertia, std::string* why) {
  auto fail = [why](const std::string& text) {
    if (why != nullptr) *why = text;
    return false;
  };
  if (!inertia.allFinite()) return fail("it has non-finite entries");
  // Symmetry, relative to the largest entry.
  const double scale = inertia.cwiseAbs().maxCoeff();
  if (scale == 0.0) return fail("it is zero");
  if ((inertia - inertia.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale) {
    return fail("it is not symmetric");
  }
  // Principal moments (ascending) of the symmetric part.
  const Mat3 sym = 0.5 * (inertia + inertia.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(sym, Eigen::EigenvaluesOnly);
  const Vec3 p = eig.eigenvalues();
  char moments[96];
  std::snprintf(moments, sizeof moments, "(%g, %g, %g)", p(0), p(1), p(2));
  if (p(0) <= 0.0) {
    return fail(std::string("its principal moments ") + moments + " are not all > 0");
  }
  // Triangle inequality: the largest moment is at most the sum of the two others.
  if (p(0) + p(1) - p(2) < -1e-9 * (p(0) + p(1) + p(2))) {
    return fail(std::string("its principal moments ") + moments +
                " violate the triangle inequality I1 + I2 >= I3");
  }
  return true;
}

void Model::validate() {
  // Settings.
  if (!(time_step > 0.0) || !std::isfinite(time_step)) invalid("time_step must be > 0");
  if (!(end_time > 0.0) || !std::isfinite(end_time)) invalid("end_time must be > 0");
  if (!finite(gravity)) invalid("gravity must be finite");
  // Solver: no PROX where a contact has moments: the 6-unknown problem has only NSGS, and the
  // step does not switch solvers behind the user's back.
  if (solver.kind == SolverKind::prox) {
    auto check_moments = [](const ContactSpec& c, const std::string& who) {
      if (const char* law = c.moment_law())
        invalid("solver.name 'prox' cannot solve contacts with moments, and " + who + " has " +
                law + " (the six-unknown problem is solved by NSGS only); use nsgs or auto");
    };
    for (std::size_t i = 0; i < contacts.size(); ++i)
      check_moments(contacts[i], "contacts[" + std::to_string(i) + "]");
    check_moments(default_contact, "default_contact");
  }
  // Sleeping islands: the nonsmooth formulation's (the compliant engine runs no stage that would
  // wake an island), with thresholds >= 0 and a time > 0.
  if (solver.sleep.enabled) {
    if (solver.formulation != Formulation::nonsmooth)
      invalid("solver.sleep applies to the nonsmooth formulation only");
    if (!(solver.sleep.linear_velocity >= 0.0) || !(solver.sleep.angular_velocity >= 0.0) ||
        !(solver.sleep.time > 0.0) || !std::isfinite(solver.sleep.linear_velocity) ||
        !std::isfinite(solver.sleep.angular_velocity) || !std::isfinite(solver.sleep.time))
      invalid("solver.sleep needs finite velocities >= 0 and a finite time > 0");
  }
  // Joints: two distinct bodies (body 1 may be the world), finite data, a unit axis.
  const int nb = static_cast<int>(bodies.size());
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const Joint& j = joints[i];
    const std::string who = "joints[" + std::to_string(i) + "]";
    if (j.body1 < -1 || j.body1 >= nb || j.body2 < 0 || j.body2 >= nb || j.body1 == j.body2)
      invalid(who + " must join two distinct bodies (body 1 may be the world, -1)");
    if (!finite(j.anchor_W) || !finite(j.anchor2_W) || !finite(j.axis_W) ||
        std::abs(j.axis_W.norm() - 1.0) > 1e-12)
      invalid(who + " needs a finite anchor and a unit axis");
    if (!(j.friction_moment >= 0.0) || !std::isfinite(j.friction_moment) ||
        !(j.restitution >= 0.0 && j.restitution <= 1.0) || !std::isfinite(j.length) ||
        !(j.lower <= 0.0 && 0.0 <= j.upper && j.lower < j.upper))
      invalid(who +
              " needs friction_moment >= 0, restitution in [0, 1], a finite length, limits "
              "lower <= 0 <= upper");
  }
  const int nmat = static_cast<int>(materials.size());
  auto check_material = [nmat](int m, const std::string& who) {
    if (m < -1 || m >= nmat)
      invalid(who + " has material index " + std::to_string(m) + " out of range [-1, " +
              std::to_string(nmat) + ")");
  };
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const std::string who = "contacts[" + std::to_string(i) + "]";
    if (contacts[i].material1 < 0 || contacts[i].material2 < 0) {
      invalid(who + " must name two materials");
    }
    check_material(contacts[i].material1, who);
    check_material(contacts[i].material2, who);
  }
  // Bodies: contiguous shape ranges in body order, physical mass properties.
  int next_shape = 0;
  shape_body.assign(shapes.size(), -1);
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const Body& body = bodies[b];
    const std::string who = "body '" + body.name + "'";
    check_material(body.material, who);
    if (body.first_shape != next_shape || body.shape_count < 0 ||
        body.first_shape + body.shape_count > static_cast<int>(shapes.size())) {
      invalid(who + " has shapes [" + std::to_string(body.first_shape) + ", " +
              std::to_string(body.first_shape + body.shape_count) +
              ") but shapes must be stored body by body, the next one starting at " +
              std::to_string(next_shape));
    }
    for (int s = body.first_shape; s < body.first_shape + body.shape_count; ++s) {
      shape_body[static_cast<std::size_t>(s)] = static_cast<int>(b);
      if (!body.fixed && shapes[static_cast<std::size_t>(s)].kind() == ShapeKind::plane) {
        invalid(who + " is not fixed but has a plane (planes are unbounded: only fixed bodies)");
      }
    }
    next_shape += body.shape_count;
    if (!finite(body.com_B)) invalid(who + " has a non-finite centre of mass");
    if (body.fixed) continue;
    if (!(body.mass > 0.0) || !std::isfinite(body.mass)) invalid(who + " must have mass > 0");
    std::string why;
    if (!is_physical_inertia(body.inertia_B, &why)) invalid(who + ": " + why);
  }
  // Springs (both formulations) and moving surfaces (the compliant formulation's).
  const bool compliant = solver.formulation == Formulation::compliant;
  for (std::size_t i = 0; i < springs.size(); ++i) {
    const Spring& sp = springs[i];
    const std::string who = "springs[" + std::to_string(i) + "]";
    if (sp.body < 0 || sp.body >= nb || bodies[static_cast<std::size_t>(sp.body)].fixed)
      invalid(who + " must pull a free body");
    if (sp.body2 < -1 || sp.body2 >= nb || sp.body2 == sp.body)
      invalid(who + ": its other end must be the world or another body");
    if (!(sp.stiffness >= 0.0) || !std::isfinite(sp.stiffness) || !(sp.rest_length >= 0.0) ||
        !std::isfinite(sp.rest_length) || !(sp.damping >= 0.0) || !std::isfinite(sp.damping) ||
        !finite(sp.point_B) || !finite(sp.anchor_W) || !finite(sp.point2_B))
      invalid(who + " needs finite points, stiffness >= 0, damping >= 0 and rest_length >= 0");
  }
  // Driven and loaded bodies.
  for (const Body& body : bodies) {
    const std::string who = "body '" + body.name + "'";
    if (body.driven() && !body.fixed) invalid(who + ": a driven body must be fixed");
    if (body.driven() && body.motion.kind == BodyMotion::Kind::table &&
        (!body.motion.table || body.motion.table->t.size() < 2))
      invalid(who + ": a motion table needs at least two rows");
    if ((body.load.applies_force() || body.load.damps()) && body.fixed)
      invalid(who + ": forces and damping act on free bodies only");
    if (!(body.load.linear_damping >= 0.0) || !(body.load.angular_damping >= 0.0) ||
        !finite(body.load.force) || !finite(body.load.torque))
      invalid(who + ": needs finite forces and damping >= 0");
  }
  for (const Body& body : bodies) {
    if (!finite(body.surface_velocity) || (!body.fixed && !body.surface_velocity.isZero()))
      invalid("body '" + body.name + "': only a fixed body has a (finite) surface velocity");
    if (!compliant && !body.surface_velocity.isZero())
      invalid("body '" + body.name +
              "': a moving surface is taken by the compliant formulation only");
  }
  if (compliant && solver.compliant.integrator != Integrator::erk &&
      solver.compliant.analytic_jacobian && actuation_without_jacobian(*this) >= 0)
    invalid(
        "damping, body-frame or off-centre loads and springs between bodies or with a damper "
        "need solver.jacobian: difference with the implicit integrators");
  if (compliant && !(solver.compliant.rtol > 0.0 && solver.compliant.atol > 0.0 &&
                     solver.compliant.max_step >= 0.0 && solver.sharp_radius > 0.0))
    invalid("the compliant settings need rtol > 0, atol > 0, max_step >= 0, sharp_radius > 0");
  if (next_shape != static_cast<int>(shapes.size())) {
    invalid("shapes " + std::to_string(next_shape) + ".." + std::to_string(shapes.size()) +
            " belong to no body");
  }
}

void Model::finalize() {
  validate();
  compiled = compile(*this);
}

bool Model::compiled_for_sizes() const {
  return compiled.material_count == static_cast<int>(materials.size()) &&
         compiled.laws.size() == contacts.size() + 1 &&
         compiled.inv_inertia_B.size() == bodies.size() &&
         compiled.shape_reach.size() == shapes.size() && shape_body.size() == shapes.size();
}

int actuation_without_jacobian(const Model& model) {
  for (std::size_t b = 0; b < model.bodies.size(); ++b) {
    const BodyLoad& l = model.bodies[b].load;
    if (l.damps() || (l.applies_force() && (l.body_frame || l.at_point)))
      return static_cast<int>(b);
  }
  for (std::size_t i = 0; i < model.springs.size(); ++i)
    if (model.springs[i].body2 >= 0 || model.springs[i].damping > 0.0)
      return static_cast<int>(model.bodies.size() + i);
  return -1;
}

bool Model::has_actuation() const {
  for (const Body& body : bodies)
    if (body.driven() || body.load.applies_force() || body.load.damps()) return true;
  for (const Spring& sp : springs)
    if (sp.damping > 0.0 || sp.body2 >= 0) return true;
  return false;
}

CompiledModel compile(const Model& model) {
  CompiledModel c;
  const std::size_t nbodies = model.bodies.size();
  const std::size_t nshapes = model.shapes.size();
  // Shapes: fixed flag, kind, and reach (the farthest corner of the shape's AABB in the body frame
  // from the centre of mass).
  c.shape_fixed.resize(nshapes);
  c.shape_reach.resize(nshapes);
  c.shape_kind.resize(nshapes);
  c.body_material.resize(nbodies);
  for (std::size_t b = 0; b < nbodies; ++b) c.body_material[b] = model.bodies[b].material;
  for (std::size_t s = 0; s < nshapes; ++s) {
    const Body& body = model.bodies[static_cast<std::size_t>(model.shape_body[s])];
    c.shape_fixed[s] = body.fixed ? 1 : 0;
    c.shape_kind[s] = model.shapes[s].kind();
    const Aabb box = compute_aabb(model.shapes[s].geometry, model.shapes[s].pose_BS, 0.0);
    double reach = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 p((corner & 1) ? box.hi.x() : box.lo.x(), (corner & 2) ? box.hi.y() : box.lo.y(),
                   (corner & 4) ? box.hi.z() : box.lo.z());
      reach = std::max(reach, (p - body.com_B).norm());
    }
    c.shape_reach[s] = reach;
  }
  // Joints: the nonsmooth formulation's constraints (docs/joints.md); the free bodies they hold.
  if (model.solver.formulation == Formulation::compliant && !model.joints.empty()) {
    const Joint& j = model.joints.front();
    throw std::invalid_argument(
        "joint '" + j.name + "' (line " + std::to_string(j.mark.line) +
        "): joints are constraints of the nonsmooth formulation; the compliant formulation has "
        "none (use solver: {formulation: nonsmooth})");
  }
  c.body_jointed.assign(nbodies, 0);
  for (const Joint& j : model.joints)
    for (const int b : {j.body1, j.body2})
      if (b >= 0 && static_cast<std::size_t>(b) < nbodies && !model.bodies[b].fixed)
        c.body_jointed[static_cast<std::size_t>(b)] = 1;
  c.inv_inertia_B.resize(nbodies);
  for (std::size_t b = 0; b < nbodies; ++b)
    c.inv_inertia_B[b] =
        model.bodies[b].fixed ? Mat3::Zero() : Mat3(model.bodies[b].inertia_B.inverse());
  // The laws of every contact spec, resolved (and checked) once: [0] the default contact. The
  // compliant formulation builds its force laws itself (compliant/contact_laws.hpp): here it only
  // checks that every law it will meet is one it runs, and keeps neutral set-valued entries.
  if (model.solver.formulation == Formulation::compliant) {
    if (default_contact_serves_a_pair(model)) check_compliant_laws(model.default_contact, model);
    c.laws.emplace_back();
    for (const ContactSpec& spec : model.contacts) {
      check_compliant_laws(spec, model);
      c.laws.emplace_back();
    }
  } else {
    c.laws.push_back(resolve_nonsmooth_laws(model.default_contact, model));
    for (const ContactSpec& spec : model.contacts)
      c.laws.push_back(resolve_nonsmooth_laws(spec, model));
  }
  // Law index per (material, material), the default material mapped to the last index.
  const int nm = static_cast<int>(model.materials.size());
  c.material_count = nm;
  c.law_of_materials.assign(static_cast<std::size_t>((nm + 1) * (nm + 1)), 0);
  for (int a = 0; a <= nm; ++a)
    for (int b = 0; b <= nm; ++b)
      c.law_of_materials[static_cast<std::size_t>(a * (nm + 1) + b)] =
          model.contact_spec_index(a == nm ? -1 : a, b == nm ? -1 : b) + 1;
  // Six unknowns per contact when a law has moments.
  const bool moments = std::any_of(c.laws.begin(), c.laws.end(),
                                   [](const NonsmoothLaws& l) { return l.has_moments(); });
  c.unknowns = moments ? kWrench : kForce;
  return c;
}

}  // namespace coulomb
