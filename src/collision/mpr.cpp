// libccd MPR adapter (see mpr.hpp).

#include "collision/mpr.hpp"

#include <ccd/ccd.h>

#include <algorithm>

namespace coulomb::narrow {

namespace {

// A shape as libccd sees it: geometry, pose, growth by a ball of radius `grow`, a centre point.
struct CcdShape {
  const Geometry* g;
  const Pose* X;
  double grow;
  Vec3 centre;
};

void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  const auto* s = static_cast<const CcdShape*>(obj);
  const Vec3 d(dir->v[0], dir->v[1], dir->v[2]);
  Vec3 x = s->X->apply(support_point(*s->g, s->X->q.conjugate() * d));
  if (s->grow > 0.0) {
    const double dn = d.norm();
    if (dn > 0.0) x += (s->grow / dn) * d;
  }
  vec->v[0] = x.x();
  vec->v[1] = x.y();
  vec->v[2] = x.z();
}

void ccd_centre(const void* obj, ccd_vec3_t* c) {
  const auto* s = static_cast<const CcdShape*>(obj);
  c->v[0] = s->centre.x();
  c->v[1] = s->centre.y();
  c->v[2] = s->centre.z();
}

}  // namespace

bool mpr_direction(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                   double margin, Vec3& n, Vec3& pos_W) {
  CcdShape s1{&g1, &X1, std::max(margin, 0.0), X1.apply(interior_point(g1))};
  CcdShape s2{&g2, &X2, 0.0, X2.apply(interior_point(g2))};
  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.support1 = ccd_support;
  ccd.support2 = ccd_support;
  ccd.center1 = ccd_centre;
  ccd.center2 = ccd_centre;
  ccd.max_iterations = 200;
  ccd.mpr_tolerance = 1e-12;
  ccd_real_t depth;
  ccd_vec3_t dir, pos;
  if (ccdMPRPenetration(&s1, &s2, &ccd, &depth, &dir, &pos) != 0) return false;
  n = Vec3(dir.v[0], dir.v[1], dir.v[2]);
  const double nn = n.norm();
  if (!(nn > 0.0)) return false;
  n /= nn;
  pos_W = Vec3(pos.v[0], pos.v[1], pos.v[2]);
  return true;
}

// An interior point of the shape in its frame: the origin, except for hulls (vertex mean).
Vec3 interior_point(const Geometry& g) {
  if (const auto* h = std::get_if<ConvexHull>(&g)) {
    const auto& v = hull_vertices(*h);
    Vec3 c = Vec3::Zero();
    for (const Vec3& x : v) c += x;
    return v.empty() ? c : Vec3(c / static_cast<double>(v.size()));
  }
  return Vec3::Zero();
}

bool is_smooth(const Geometry& g) {
  return std::holds_alternative<Sphere>(g) || std::holds_alternative<Ellipsoid>(g) ||
         std::holds_alternative<Capsule>(g);
}

}  // namespace coulomb::narrow
