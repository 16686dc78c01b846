/// @file
/// Scene files: the `bodies` section — shapes, mass properties and the initial state
/// (docs/scene-format.md).

#include <coulomb/geometry/mass_properties.hpp>

#include "scene/readers.hpp"

#include <fmt/format.h>
#include <Eigen/Eigenvalues>

#include <cmath>
#include <limits>
#include <set>

namespace coulomb::scene_detail {

namespace {

const std::vector<std::string> kShapeTypes = {"plane",    "sphere",    "box",  "capsule",
                                              "cylinder", "ellipsoid", "cone", "convex"};
const std::vector<std::string> kBodyKeys = {"name",
                                            "fixed",
                                            "material",
                                            "shapes",
                                            "mass",
                                            "density",
                                            "inertia",
                                            "center_of_mass",
                                            "position",
                                            "orientation",
                                            "velocity",
                                            "angular_velocity",
                                            "surface_velocity",
                                            "motion",
                                            "force",
                                            "torque",
                                            "load_frame",
                                            "force_point",
                                            "load_table",
                                            "damping"};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Shapes.

namespace {

// A convex hull needs 4 points not all in one plane: the smallest principal spread of the points
// must exceed 1e-9 of the largest.
void check_hull(const Reporter& r, const Field& f, const std::vector<Vec3>& pts) {
  if (pts.size() < 4) {
    r.fail(f, fmt::format("{} must have at least 4 points, got {}", f.path, pts.size()));
  }
  Vec3 mean = Vec3::Zero();
  for (const Vec3& p : pts) mean += p;
  mean /= static_cast<double>(pts.size());
  Mat3 cov = Mat3::Zero();
  for (const Vec3& p : pts) cov += (p - mean) * (p - mean).transpose();
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(cov, Eigen::EigenvaluesOnly);
  const Vec3 l = eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
  if (!(l(0) > 1e-9 * l(2))) {
    r.fail(f, fmt::format("{}: the points are all in one plane (or line); a convex shape needs "
                          "volume",
                          f.path));
  }
}

}  // namespace

namespace {

// Reads one shape; `type_loc` receives where its type was written.
Shape read_shape(const Reporter& r, const Field& f, bool body_fixed) {
  const MapView map(r, f);
  const Field type_f = map.require("type");
  const std::string type = one_of(r, type_f, "shape type", kShapeTypes);
  Shape shape;
  std::vector<std::string> keys = {"type", "position", "orientation"};
  auto len = [&](const char* key) {
    const Field v = map.require(key);
    return positive(r, v, number(r, v));
  };
  auto positive3 = [&](const char* key) {
    const Field v = map.require(key);
    const Vec3 x = vec3(r, v);
    if (!(x.minCoeff() > 0.0)) {
      r.fail(v, fmt::format("{} must have 3 values > 0, got [{}, {}, {}]", v.path, x.x(), x.y(),
                            x.z()));
    }
    return x;
  };
  // Keys of each type, checked before the values are read.
  if (type == "plane") keys.insert(keys.end(), {"normal", "offset"});
  if (type == "sphere") keys.insert(keys.end(), {"radius"});
  if (type == "box") keys.insert(keys.end(), {"half_extents"});
  if (type == "capsule" || type == "cylinder") keys.insert(keys.end(), {"radius", "half_length"});
  if (type == "ellipsoid") keys.insert(keys.end(), {"semi_axes"});
  if (type == "cone") keys.insert(keys.end(), {"radius", "height"});
  if (type == "convex") keys.insert(keys.end(), {"points"});
  map.allow(keys);
  if (type == "plane") {
    if (!body_fixed) {
      r.fail(type_f, fmt::format("{}: a plane is unbounded and only allowed on a fixed body "
                                 "(add 'fixed: true' to the body)",
                                 f.path));
    }
    Plane p;
    if (auto v = map.get("normal")) {
      p.normal = vec3(r, *v);
      if (!(p.normal.norm() > 0.0)) r.fail(*v, fmt::format("{} must not be zero", v->path));
      p.normal.normalize();
    }
    if (auto v = map.get("offset")) p.offset = number(r, *v);
    shape.geometry = p;
  } else if (type == "sphere") {
    shape.geometry = Sphere{len("radius")};
  } else if (type == "box") {
    shape.geometry = Box{positive3("half_extents")};
  } else if (type == "capsule") {
    const double radius = len("radius");
    shape.geometry = Capsule{radius, len("half_length")};
  } else if (type == "cylinder") {
    const double radius = len("radius");
    shape.geometry = Cylinder{radius, len("half_length")};
  } else if (type == "ellipsoid") {
    shape.geometry = Ellipsoid{positive3("semi_axes")};
  } else if (type == "cone") {
    const double radius = len("radius");
    shape.geometry = Cone{radius, len("height")};
  } else {
    const Field pts_f = map.require("points");
    std::vector<Vec3> points;
    for (const Field& p : sequence(r, pts_f)) points.push_back(vec3(r, p));
    check_hull(r, pts_f, points);
    // The hull proper (vertices, faces, normals): the narrowphase needs its faces for contact
    // manifolds (a face resting on a face gives the clipped polygon, not one point).
    try {
      shape.geometry = make_convex_hull(points);
    } catch (const std::exception& e) {
      r.fail(pts_f, fmt::format("{}: {}", pts_f.path, e.what()));
    }
  }
  if (auto v = map.get("position")) shape.pose_BS.p = vec3(r, *v);
  if (auto v = map.get("orientation")) shape.pose_BS.q = orientation(r, *v);
  return shape;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Bodies.

namespace {

// Inertia: [Ixx, Iyy, Izz] or a 3×3 matrix, checked to be a physical inertia tensor.
Mat3 read_inertia(const Reporter& r, const Field& f) {
  Mat3 inertia = Mat3::Zero();
  const bool rows = f.node.IsSequence() && f.node.size() == 3 && f.node[0].IsSequence();
  if (rows) {
    const std::vector<Field> e = sequence(r, f);
    for (int i = 0; i < 3; ++i) inertia.row(i) = vec3(r, e[static_cast<std::size_t>(i)]);
  } else if (f.node.IsSequence() && f.node.size() == 3) {
    inertia.diagonal() = vec3(r, f);
  } else {
    r.fail(f, fmt::format("{} must be 3 principal moments [Ixx, Iyy, Izz] or a 3x3 matrix "
                          "[[..], [..], [..]] (kg m^2), got {}",
                          f.path, describe(f.node)));
  }
  std::string why;
  if (!is_physical_inertia(inertia, &why)) {
    r.fail(f, fmt::format("{} (kg m^2) is not a physical inertia: {}", f.path, why));
  }
  return inertia;
}

}  // namespace

namespace {

// Mass properties of the shapes with a uniform density, in the body frame.
MassProperties shapes_mass(const Reporter& r, const std::vector<Shape>& shapes,
                           const std::vector<Field>& fields, double density) {
  MassProperties total;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    try {
      const MassProperties mp =
          transform(shape_mass_properties(shapes[i].geometry, density), shapes[i].pose_BS);
      total = i == 0 ? mp : combine(total, mp);
    } catch (const std::invalid_argument& e) {
      r.fail(fields[i],
             fmt::format("{}: cannot compute its mass properties: {}", fields[i].path, e.what()));
    }
  }
  return total;
}

}  // namespace

void read_body(const Reporter& r, const Field& f, Model& m, InitialState& init) {
  const MapView map(r, f);
  map.allow(kBodyKeys);
  Body body;
  body.mark = SourceMark{map.loc().line, map.loc().column};
  // Name (unique) and material.
  const Field name_f = map.require("name");
  body.name = string(r, name_f);
  const int previous = m.body_index(body.name);
  if (previous >= 0) {
    r.fail(name_f, fmt::format("duplicate body name '{}' (first defined at line {})", body.name,
                               m.bodies[static_cast<std::size_t>(previous)].mark.line));
  }
  if (auto v = map.get("fixed")) body.fixed = boolean(r, *v);
  // A driven body (a prescribed motion) is fixed: infinite mass for the contacts.
  std::optional<Field> motion_f = map.get("motion");
  if (motion_f) {
    if (auto v = map.get("fixed"); v && !body.fixed)
      r.fail(*v, fmt::format("{} has a motion: a driven body is fixed (remove 'fixed: false')",
                             map.path()));
    body.fixed = true;
  }
  if (auto v = map.get("material")) {
    const std::string name = string(r, *v);
    body.material = m.material_index(name);
    if (body.material < 0) {
      std::vector<std::string> defined;
      for (const Material& mat : m.materials) defined.push_back(mat.name);
      const std::string best = closest(name, defined);
      r.fail(*v, fmt::format("{}: unknown material '{}'{}; {}", v->path, name,
                             best.empty() ? "" : " (did you mean '" + best + "'?)",
                             defined.empty() ? "no materials are defined (add a 'materials' list)"
                                             : "defined materials: " + join(defined)));
    }
  }
  // Shapes.
  std::vector<Shape> shapes;
  std::vector<Field> shape_fields;
  if (auto v = map.get("shapes")) {
    shape_fields = sequence(r, *v);
    for (const Field& s : shape_fields) shapes.push_back(read_shape(r, s, body.fixed));
  }
  // Pose and twist (the velocity is that of the centre of mass).
  if (auto v = map.get("position")) init.p_WB = bounded_vec3(r, *v, kMaxPosition, "m");
  if (auto v = map.get("orientation")) init.q_WB = orientation(r, *v);
  std::optional<Field> vel = map.get("velocity");
  std::optional<Field> ang = map.get("angular_velocity");
  if (vel) init.v_WC = bounded_vec3(r, *vel, kMaxSpeed, "m/s");
  if (ang) init.w_W = bounded_vec3(r, *ang, kMaxSpeed, "rad/s");
  if (motion_f) read_motion(r, *motion_f, body, init);
  std::optional<Field> com_f = map.get("center_of_mass");
  if (com_f) body.com_B = vec3(r, *com_f);

  std::optional<Field> mass_f = map.get("mass");
  std::optional<Field> density_f = map.get("density");
  std::optional<Field> inertia_f = map.get("inertia");
  if (body.fixed) {
    // A fixed body has no mass and does not move.
    for (const auto& key : {"mass", "density", "inertia"}) {
      if (auto v = map.get(key)) {
        r.fail(v->key_loc, fmt::format("{} is fixed: it has no mass properties, remove '{}' (or "
                                       "set 'fixed: false')",
                                       map.path(), key));
      }
    }
    if (vel && init.v_WC != Vec3::Zero()) {
      r.fail(*vel, fmt::format("{} is fixed: its velocity must be zero", map.path()));
    }
    if (ang && init.w_W != Vec3::Zero()) {
      r.fail(*ang, fmt::format("{} is fixed: its angular velocity must be zero", map.path()));
    }
    for (const auto& key :
         {"force", "torque", "load_frame", "force_point", "load_table", "damping"}) {
      if (auto v = map.get(key)) {
        r.fail(v->key_loc, fmt::format("{} is {}: forces and damping act on free bodies only, "
                                       "remove '{}'",
                                       map.path(), motion_f ? "driven" : "fixed", key));
      }
    }
    // A conveyor: the surface's material moves while the body stays (compliant formulation).
    if (auto v = map.get("surface_velocity")) {
      if (m.solver.formulation != Formulation::compliant)
        r.fail(v->key_loc, fmt::format("{}.surface_velocity: a moving surface is taken by the "
                                       "compliant formulation only (solver: {{formulation: "
                                       "compliant}})",
                                       map.path()));
      body.surface_velocity = bounded_vec3(r, *v, kMaxSpeed, "m/s");
    }
  } else {
    if (auto v = map.get("surface_velocity"))
      r.fail(v->key_loc, fmt::format("{}.surface_velocity: only a fixed body has a moving surface "
                                     "(add 'fixed: true')",
                                     map.path()));
    read_load(r, map, body);
    // Mass: given, or from a density (the body's or its material's) and the shapes.
    if (mass_f && density_f) {
      r.fail(density_f->key_loc,
             fmt::format("{}: give either 'mass' or 'density', not both", map.path()));
    }
    double density = 0.0;
    if (density_f) {
      density = positive(r, *density_f, number(r, *density_f));
    } else if (!mass_f && body.material >= 0 &&
               std::isfinite(m.materials[static_cast<std::size_t>(body.material)].density)) {
      density = m.materials[static_cast<std::size_t>(body.material)].density;
    }
    if (shapes.empty()) {
      if (density_f) {
        r.fail(density_f->key_loc, fmt::format("{} has no shapes: a density cannot give its mass; "
                                               "give 'mass' and 'inertia'",
                                               map.path()));
      }
      if (!mass_f || !inertia_f) {
        r.fail(map.loc(), fmt::format("{} has no shapes: give 'mass' (kg) and 'inertia' (kg m^2)",
                                      map.path()));
      }
    } else if (!mass_f && density == 0.0) {
      r.fail(map.loc(), fmt::format("{} needs 'mass' (kg) or 'density' (kg/m^3), or a material "
                                    "with a density",
                                    map.path()));
    }
    if (mass_f) {
      body.mass = positive(r, *mass_f, number(r, *mass_f));
      if (body.mass > kMaxMass) {
        r.fail(*mass_f, fmt::format("{}.mass must be at most {:g} kg, got {}", map.path(), kMaxMass,
                                    body.mass));
      }
      if (!inertia_f) {
        // Shapes' inertia (about their own centroid) scaled to the given mass.
        const MassProperties unit = shapes_mass(r, shapes, shape_fields, 1.0);
        body.inertia_B = unit.inertia * (body.mass / unit.mass);
      }
    } else {
      const MassProperties mp = shapes_mass(r, shapes, shape_fields, density);
      body.mass = mp.mass;
      if (body.mass > kMaxMass) {
        r.fail(density_f ? density_f->loc : map.loc(),
               fmt::format("{} has a mass of {:g} kg from its density, more than {:g} kg",
                           map.path(), body.mass, kMaxMass));
      }
      body.inertia_B = mp.inertia;
      if (!com_f) body.com_B = mp.com;
    }
    if (inertia_f) body.inertia_B = read_inertia(r, *inertia_f);
  }
  // Store the shapes body by body.
  body.first_shape = static_cast<int>(m.shapes.size());
  body.shape_count = static_cast<int>(shapes.size());
  for (Shape& s : shapes) {
    m.shapes.push_back(std::move(s));
    m.shape_body.push_back(static_cast<int>(m.bodies.size()));
  }
  m.bodies.push_back(std::move(body));
}

}  // namespace coulomb::scene_detail
