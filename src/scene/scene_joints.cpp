/// @file
/// The `joints` section of a scene (docs/scene-format.md, "Joints"; docs/joints.md): one Joint
/// per entry, after the bodies; its body-frame data are attached from the initial state by the
/// loader (attach_joints).

#include <coulomb/scene/scene.hpp>

#include "scene/readers.hpp"

#include <fmt/format.h>

namespace coulomb::scene_detail {

namespace {

// A body of a joint by name: "world" is the fixed frame (−1).
int joint_body(const Reporter& r, const Field& f, const Model& m) {
  const std::string name = string(r, f);
  if (name == "world") return -1;
  const int b = m.body_index(name);
  if (b < 0) {
    std::vector<std::string> names{"world"};
    for (const Body& body : m.bodies) names.push_back(body.name);
    const std::string best = closest(name, names);
    r.fail(f, fmt::format("{}: unknown body '{}'{}", f.path, name,
                          best.empty() ? "" : " (did you mean '" + best + "'?)"));
  }
  return b;
}

}  // namespace

void read_joints(const Reporter& r, const Field& f, Model& m) {
  const std::vector<std::string> types = {"ball", "hinge", "prismatic", "fixed", "distance"};
  for (const Field& e : sequence(r, f)) {
    const MapView map(r, e);
    map.allow({"name", "type", "bodies", "anchor", "anchors", "axis", "friction_moment", "limits",
               "length", "restitution"});
    if (m.solver.formulation != Formulation::nonsmooth)
      r.fail(e, fmt::format("{}: joints are constraints of the nonsmooth formulation; the "
                            "compliant formulation has none (solver: {{formulation: nonsmooth}})",
                            e.path));
    Joint j;
    j.mark = SourceMark{map.loc().line, map.loc().column};
    j.name = fmt::format("joint{}", m.joints.size());
    if (auto v = map.get("name")) j.name = string(r, *v);
    const Field type_f = map.require("type");
    (void)parse_joint_type(one_of(r, type_f, "joint types", types), j.type);
    // bodies: [body 1, body 2]; body 1 may be the world, body 2 must move.
    const Field bodies_f = map.require("bodies");
    const std::vector<Field> bodies = sequence(r, bodies_f);
    if (bodies.size() != 2)
      r.fail(bodies_f, fmt::format("{}: a joint joins two bodies, [body1, body2] ('world' for the "
                                   "fixed frame)",
                                   bodies_f.path));
    j.body1 = joint_body(r, bodies[0], m);
    j.body2 = joint_body(r, bodies[1], m);
    if (j.body2 < 0) {
      if (j.body1 < 0)
        r.fail(bodies_f, fmt::format("{}: a joint needs a body besides the world", bodies_f.path));
      std::swap(j.body1, j.body2);
    }
    if (j.body1 == j.body2)
      r.fail(bodies_f, fmt::format("{}: a joint joins two different bodies", bodies_f.path));
    const bool free1 = j.body1 >= 0 && !m.bodies[static_cast<std::size_t>(j.body1)].fixed;
    const bool free2 = !m.bodies[static_cast<std::size_t>(j.body2)].fixed;
    if (!free1 && !free2)
      r.fail(bodies_f,
             fmt::format("{}: both bodies are fixed; a joint holds a free body", bodies_f.path));
    // Anchors: one point (anchor) or, for a string, its two ends (anchors).
    if (j.type == JointType::distance) {
      if (map.has("anchor"))
        r.fail(*map.get("anchor"), fmt::format("{}: a distance joint takes anchors: [[end on "
                                               "body 1], [end on body 2]]",
                                               map.get("anchor")->path));
      const Field anchors_f = map.require("anchors");
      const std::vector<Field> ends = sequence(r, anchors_f);
      if (ends.size() != 2)
        r.fail(anchors_f, fmt::format("{}: two points, [[x, y, z], [x, y, z]]", anchors_f.path));
      j.anchor_W = bounded_vec3(r, ends[0], kMaxPosition, "m");
      j.anchor2_W = bounded_vec3(r, ends[1], kMaxPosition, "m");
      if (auto v = map.get("length")) j.length = positive(r, *v, number(r, *v));
      if (!(j.length > 0.0) && (j.anchor2_W - j.anchor_W).norm() == 0.0)
        r.fail(anchors_f,
               fmt::format("{}: the two ends coincide; give a length > 0", anchors_f.path));
      if (auto v = map.get("restitution")) j.restitution = in_range(r, *v, number(r, *v), 0, 1);
    } else {
      for (const char* key : {"anchors", "length", "restitution"})
        if (auto v = map.get(key))
          r.fail(*v, fmt::format("{}: only a distance joint takes '{}'", v->path, key));
      j.anchor_W = bounded_vec3(r, map.require("anchor"), kMaxPosition, "m");
    }
    // Axis: hinge and prismatic need one; unit after normalisation.
    const bool needs_axis = j.type == JointType::hinge || j.type == JointType::prismatic;
    if (auto v = map.get("axis")) {
      if (!needs_axis && j.type != JointType::fixed)
        r.fail(*v, fmt::format("{}: only hinge, prismatic and fixed joints take an axis", v->path));
      const Vec3 axis = vec3(r, *v);
      if (!(axis.norm() > 0.0)) r.fail(*v, fmt::format("{}: the axis must not be zero", v->path));
      j.axis_W = axis.normalized();
    } else if (needs_axis) {
      r.fail(e, fmt::format("{}: a {} joint needs an axis", e.path, to_string(j.type)));
    }
    if (auto v = map.get("friction_moment")) {
      if (j.type != JointType::hinge)
        r.fail(*v, fmt::format("{}: only a hinge takes a friction moment", v->path));
      j.friction_moment = non_negative(r, *v, number(r, *v));
    }
    // limits: [lower, upper] about (hinge, rad) or along (prismatic, m) the axis, from t = 0.
    if (auto v = map.get("limits")) {
      if (j.type != JointType::hinge && j.type != JointType::prismatic)
        r.fail(*v, fmt::format("{}: only hinge and prismatic joints take limits", v->path));
      const std::vector<Field> ends = sequence(r, *v);
      if (ends.size() != 2)
        r.fail(*v, fmt::format("{}: [lower, upper], from the start's position", v->path));
      j.lower = number(r, ends[0]);
      j.upper = number(r, ends[1]);
      if (!(j.lower <= 0.0 && 0.0 <= j.upper && j.lower < j.upper))
        r.fail(*v, fmt::format("{}: lower <= 0 <= upper and lower < upper (the start lies "
                               "within the limits), got [{}, {}]",
                               v->path, j.lower, j.upper));
      if (j.type == JointType::hinge && (j.lower < -kPi || j.upper > kPi))
        r.fail(*v, fmt::format("{}: a hinge's limits lie within [-pi, pi] rad", v->path));
    }
    m.joints.push_back(j);
  }
  // Names are unique (joints.csv columns).
  for (std::size_t a = 0; a < m.joints.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (m.joints[a].name == m.joints[b].name)
        r.fail(Loc{m.joints[a].mark.line, m.joints[a].mark.column},
               fmt::format("joints[{}]: the name '{}' is taken by joints[{}]", a, m.joints[a].name,
                           b));
}

}  // namespace coulomb::scene_detail
