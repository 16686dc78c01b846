// GJK enclosing of the origin and EPA (see penetration.hpp for the method and its sources).

#include "collision/penetration.hpp"

#include "collision/support.hpp"

#include <array>
#include <cmath>

namespace coulomb::narrow {

namespace {

// A vertex of M = A1 − A2 with the two support points it came from (for witness points).
struct SupportPoint {
  Vec3 w = Vec3::Zero();  // a − b
  Vec3 a = Vec3::Zero();  // on shape 1
  Vec3 b = Vec3::Zero();  // on shape 2
};

struct Minkowski {
  const Geometry& g1;
  const Pose& X1;
  const Geometry& g2;
  const Pose& X2;
  double grow = 0.0;  // shape 1 grown by a ball of this radius [m]
  // Support point of M along d: s1(d) − s2(−d).
  SupportPoint operator()(const Vec3& d) const {
    SupportPoint s;
    s.a = world_support(g1, X1, d);
    if (grow > 0.0) s.a += (grow / d.norm()) * d;
    s.b = world_support(g2, X2, -d);
    s.w = s.a - s.b;
    return s;
  }
};

// ---------------------------------------------------------------------------------------------
// GJK, boolean form: the simplex is reduced to its feature nearest the origin and the search
// direction points from it to the origin; the newest point is last (A).
struct Simplex {
  std::array<SupportPoint, 4> p;
  int n = 0;
};

Vec3 triple(const Vec3& a, const Vec3& b, const Vec3& c) { return a.cross(b).cross(c); }

// (The points are taken by value: they may alias the simplex being rewritten.)
// Segment (B, A): the origin is beyond A's region or towards the segment.
void line_case(Simplex& s, const SupportPoint B, const SupportPoint A, Vec3& d) {
  const Vec3 ab = B.w - A.w, ao = -A.w;
  if (ab.dot(ao) > 0.0) {
    s.p[0] = B;
    s.p[1] = A;
    s.n = 2;
    d = triple(ab, ao, ab);
  } else {
    s.p[0] = A;
    s.n = 1;
    d = ao;
  }
}

// Triangle (C, B, A): Voronoi regions of A's edges and of the two sides of the face.
void triangle_case(Simplex& s, const SupportPoint C, const SupportPoint B, const SupportPoint A,
                   Vec3& d) {
  const Vec3 ab = B.w - A.w, ac = C.w - A.w, ao = -A.w;
  const Vec3 abc = ab.cross(ac);
  if (abc.cross(ac).dot(ao) > 0.0) {
    if (ac.dot(ao) > 0.0) {
      s.p[0] = C;
      s.p[1] = A;
      s.n = 2;
      d = triple(ac, ao, ac);
    } else {
      line_case(s, B, A, d);
    }
  } else if (ab.cross(abc).dot(ao) > 0.0) {
    line_case(s, B, A, d);
  } else if (abc.dot(ao) > 0.0) {
    s.p[0] = C;
    s.p[1] = B;
    s.p[2] = A;
    s.n = 3;
    d = abc;
  } else {
    s.p[0] = B;  // other side: swap the winding so that the next point closes a tetrahedron
    s.p[1] = C;
    s.p[2] = A;
    s.n = 3;
    d = -abc;
  }
}

// Tetrahedron (D, C, B, A): the origin is outside one of the three faces through A (outward
// normals oriented away from the opposite vertex), or enclosed.
bool tetrahedron_case(Simplex& s, Vec3& d) {
  const SupportPoint D = s.p[0], C = s.p[1], B = s.p[2], A = s.p[3];
  const Vec3 ao = -A.w;
  auto outward = [&](const SupportPoint& P, const SupportPoint& Q, const SupportPoint& opposite) {
    Vec3 m = (P.w - A.w).cross(Q.w - A.w);
    if (m.dot(opposite.w - A.w) > 0.0) m = -m;
    return m;
  };
  if (outward(B, C, D).dot(ao) > 0.0) {
    triangle_case(s, C, B, A, d);
    return false;
  }
  if (outward(C, D, B).dot(ao) > 0.0) {
    triangle_case(s, D, C, A, d);
    return false;
  }
  if (outward(D, B, C).dot(ao) > 0.0) {
    triangle_case(s, B, D, A, d);
    return false;
  }
  return true;
}

// Encloses the origin in a tetrahedron of M's support points. False when M does not contain the
// origin (or only on its boundary, or GJK stalls): no EPA then.
bool gjk_enclose(const Minkowski& M, const Vec3& hint, double size, Simplex& s) {
  const double tiny = 1e-14 * size;
  Vec3 d = hint.squaredNorm() > 0.0 ? hint : Vec3(Vec3::UnitZ());
  s.p[0] = M(d);
  s.n = 1;
  d = -s.p[0].w;
  for (int it = 0; it < 64; ++it) {
    const double dn = d.norm();
    if (!(dn > tiny * tiny)) return false;  // origin on the simplex: on M's boundary or degenerate
    const SupportPoint P = M(d);
    if (P.w.dot(d) <= tiny * dn) return false;  // a separating (or touching) plane
    s.p[s.n++] = P;
    bool enclosed = false;
    if (s.n == 2) {
      line_case(s, s.p[0], s.p[1], d);
    } else if (s.n == 3) {
      triangle_case(s, s.p[0], s.p[1], s.p[2], d);
    } else {
      enclosed = tetrahedron_case(s, d);
    }
    if (enclosed) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// EPA polytope: triangles with outward normals, each knowing its neighbour across each edge
// (edge k runs from v[k] to v[k+1]).
struct Face {
  std::array<int, 3> v{};
  std::array<int, 3> adj{};       // neighbour face across edge k
  std::array<int, 3> adj_edge{};  // the same edge's index in that neighbour
  Vec3 n = Vec3::Zero();          // outward unit normal
  double d = 0.0;                 // n·v: distance of the face plane from the origin
  bool alive = false;
};

struct Polytope {
  std::array<SupportPoint, kMaxEpaVertices> vert;
  int nv = 0;
  std::array<Face, kMaxEpaFaces> face;
  std::array<int, kMaxEpaFaces> free_list{};
  int nfree = 0;
  int nf = 0;  // slots ever used
  // Horizon: (face, edge) pairs seen from the new vertex, in loop order.
  std::array<int, kMaxEpaFaces> hor_face{}, hor_edge{};
  int nhor = 0;

  int new_face_slot() {
    if (nfree > 0) return free_list[--nfree];
    if (nf < kMaxEpaFaces) return nf++;
    return -1;
  }
  // Sets the vertices, normal and distance of face f; false when it is degenerate.
  bool set_face(int f, int a, int b, int c) {
    Face& F = face[f];
    F.v = {a, b, c};
    const Vec3 m = (vert[b].w - vert[a].w).cross(vert[c].w - vert[a].w);
    const double mn = m.norm();
    F.alive = true;
    if (!(mn > 0.0)) return false;
    F.n = m / mn;
    F.d = F.n.dot(vert[a].w);
    return true;
  }
  // The faces visible from w (n·w − d > eps), marked dead, and the horizon edges of the region,
  // found by a depth-first walk from face f entered through its edge e.
  void silhouette(int f, int e, const Vec3& w, double eps) {
    Face& F = face[f];
    if (!F.alive) return;
    if (F.n.dot(w) - F.d <= eps) {
      hor_face[nhor] = f;
      hor_edge[nhor] = e;
      ++nhor;
      return;
    }
    F.alive = false;
    free_list[nfree++] = f;
    const int e1 = (e + 1) % 3, e2 = (e + 2) % 3;
    silhouette(F.adj[e1], F.adj_edge[e1], w, eps);
    silhouette(F.adj[e2], F.adj_edge[e2], w, eps);
  }
};

// Links two faces across their edges ea (of fa) and eb (of fb).
void link(Polytope& P, int fa, int ea, int fb, int eb) {
  P.face[fa].adj[ea] = fb;
  P.face[fa].adj_edge[ea] = eb;
  P.face[fb].adj[eb] = fa;
  P.face[fb].adj_edge[eb] = ea;
}

// Barycentric coordinates of the projection of point p on triangle (a, b, c), clamped to it.
Vec3 barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 v0 = b - a, v1 = c - a, v2 = p - a;
  const double d00 = v0.dot(v0), d01 = v0.dot(v1), d11 = v1.dot(v1);
  const double d20 = v2.dot(v0), d21 = v2.dot(v1);
  const double den = d00 * d11 - d01 * d01;
  if (!(den > 0.0)) return Vec3(1.0, 0.0, 0.0);
  const double l1 = (d11 * d20 - d01 * d21) / den;
  const double l2 = (d00 * d21 - d01 * d20) / den;
  Vec3 l(1.0 - l1 - l2, l1, l2);
  l = l.cwiseMax(0.0);
  return l / l.sum();
}

// ---------------------------------------------------------------------------------------------
// GJK distance: the point of a simplex nearest the origin, by the Voronoi regions of its features
// (Ericson, "Real-Time Collision Detection", §5.1.5 for the triangle), and the simplex reduced to
// the feature that holds it.

// Nearest point of segment s.p[0], s.p[1] to the origin; s reduced to the feature holding it.
Vec3 nearest_on_segment(Simplex& s) {
  const SupportPoint A = s.p[0], B = s.p[1];
  const Vec3 ab = B.w - A.w;
  const double den = ab.squaredNorm();
  const double t = den > 0.0 ? -A.w.dot(ab) / den : 0.0;
  if (t <= 0.0) {
    s.n = 1;
    return A.w;
  }
  if (t >= 1.0) {
    s.p[0] = B;
    s.n = 1;
    return B.w;
  }
  return A.w + t * ab;
}

// Nearest point of triangle (a, b, c) to the origin; keeps in `s` the vertices of its feature.
Vec3 nearest_on_triangle(const SupportPoint& A, const SupportPoint& B, const SupportPoint& C,
                         Simplex& s) {
  const Vec3 &a = A.w, &b = B.w, &c = C.w;
  const Vec3 ab = b - a, ac = c - a, ap = -a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    s.p[0] = A;
    s.n = 1;
    return a;
  }
  const Vec3 bp = -b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) {
    s.p[0] = B;
    s.n = 1;
    return b;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double t = d1 / (d1 - d3);
    s.p[0] = A;
    s.p[1] = B;
    s.n = 2;
    return a + t * ab;
  }
  const Vec3 cp = -c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) {
    s.p[0] = C;
    s.n = 1;
    return c;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double t = d2 / (d2 - d6);
    s.p[0] = A;
    s.p[1] = C;
    s.n = 2;
    return a + t * ac;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    s.p[0] = B;
    s.p[1] = C;
    s.n = 2;
    return b + t * (c - b);
  }
  if (!(va + vb + vc > 0.0)) {  // degenerate (collinear) triangle: its nearest edge
    Simplex e1, e2, e3;
    e1.p[0] = A, e1.p[1] = B, e1.n = 2;
    e2.p[0] = A, e2.p[1] = C, e2.n = 2;
    e3.p[0] = B, e3.p[1] = C, e3.n = 2;
    const Vec3 x1 = nearest_on_segment(e1), x2 = nearest_on_segment(e2),
               x3 = nearest_on_segment(e3);
    if (x1.squaredNorm() <= x2.squaredNorm() && x1.squaredNorm() <= x3.squaredNorm()) {
      s = e1;
      return x1;
    }
    s = x2.squaredNorm() <= x3.squaredNorm() ? e2 : e3;
    return x2.squaredNorm() <= x3.squaredNorm() ? x2 : x3;
  }
  const double den = 1.0 / (va + vb + vc);
  s.p[0] = A;
  s.p[1] = B;
  s.p[2] = C;
  s.n = 3;
  return a + (vb * den) * ab + (vc * den) * ac;
}

// Nearest point of the simplex to the origin, the simplex reduced to its feature; false when the
// origin is inside a tetrahedron (the shapes overlap).
bool nearest_on_simplex(Simplex& s, Vec3& v) {
  if (s.n == 1) {
    v = s.p[0].w;
    return true;
  }
  if (s.n == 2) {
    v = nearest_on_segment(s);
    return true;
  }
  if (s.n == 3) {
    const SupportPoint A = s.p[0], B = s.p[1], C = s.p[2];
    v = nearest_on_triangle(A, B, C, s);
    return true;
  }
  // Tetrahedron: the nearest of the faces whose plane has the origin on the outer side.
  const std::array<SupportPoint, 4> P = s.p;
  constexpr int kFace[4][4] = {{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}};
  bool outside = false;
  double best = kInf;
  for (const auto& f : kFace) {
    const Vec3 m = (P[f[1]].w - P[f[0]].w).cross(P[f[2]].w - P[f[0]].w);
    const double side_o = -m.dot(P[f[0]].w), side_d = m.dot(P[f[3]].w - P[f[0]].w);
    if (!(side_o * side_d < 0.0)) continue;  // the origin is on the fourth vertex's side
    outside = true;
    Simplex t;
    const Vec3 x = nearest_on_triangle(P[f[0]], P[f[1]], P[f[2]], t);
    if (x.squaredNorm() < best) {
      best = x.squaredNorm();
      v = x;
      s = t;
    }
  }
  return outside;
}

}  // namespace

bool penetration(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                 const Vec3& n_hint, double tolerance, Penetration& out, double grow) {
  const Minkowski M{g1, X1, g2, X2, grow};
  const double size = shape_size(g1) + shape_size(g2) + (X2.p - X1.p).norm();
  Simplex s;
  if (!gjk_enclose(M, n_hint, size, s)) return false;

  // Initial polytope: the tetrahedron, faces oriented away from the opposite vertex.
  Polytope P;  // fixed arrays on the stack (about 32 kB): no allocation
  P.nv = 4;
  P.nf = 0;
  P.nfree = 0;
  for (int i = 0; i < 4; ++i) P.vert[i] = s.p[i];
  if ((P.vert[1].w - P.vert[0].w).cross(P.vert[2].w - P.vert[0].w).dot(P.vert[3].w - P.vert[0].w) >
      0.0)
    std::swap(P.vert[1], P.vert[2]);
  // With (0, 1, 2) facing away from 3: faces (0,1,2), (0,3,1), (1,3,2), (2,3,0).
  constexpr int kTet[4][3] = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  // The origin may lie on a face (GJK stops as soon as it is not strictly outside): that face is
  // the nearest and is expanded first, which puts the origin inside.
  const double eps = 1e-15 * size;  // visibility: faces this close to coplanar stay
  for (int f = 0; f < 4; ++f) {
    const int slot = P.new_face_slot();
    if (!P.set_face(slot, kTet[f][0], kTet[f][1], kTet[f][2])) return false;
    if (!(P.face[slot].d > -eps)) return false;  // origin outside: not a start
  }
  // Adjacency of the tetrahedron by matching reversed edges.
  for (int f = 0; f < 4; ++f) {
    for (int e = 0; e < 3; ++e) {
      const int a = P.face[f].v[e], b = P.face[f].v[(e + 1) % 3];
      for (int g = 0; g < 4; ++g) {
        for (int k = 0; k < 3; ++k) {
          if (P.face[g].v[k] == b && P.face[g].v[(k + 1) % 3] == a) {
            P.face[f].adj[e] = g;
            P.face[f].adj_edge[e] = k;
          }
        }
      }
    }
  }

  double best = kInf;
  std::array<int, 3> best_v{-1, -1, -1};  // vertices of the face that gave the best direction
  Vec3 best_n = Vec3::Zero();
  out.converged = false;
  out.iterations = 0;
  for (;;) {
    // The face plane nearest the origin (lower bound of the depth).
    int f = -1;
    for (int i = 0; i < P.nf; ++i) {
      if (P.face[i].alive && (f < 0 || P.face[i].d < P.face[f].d)) f = i;
    }
    if (f < 0) break;
    const Vec3 n = P.face[f].n;
    const SupportPoint w = M(n);
    const double upper = n.dot(w.w);  // h_M(n): depth along n
    if (upper < best) {
      best = upper;
      best_n = n;
      best_v = P.face[f].v;
    }
    if (upper - P.face[f].d <= tolerance) {
      out.converged = true;
      break;
    }
    if (P.nv == kMaxEpaVertices) break;
    // Add w: remove the faces it sees, join the horizon to it.
    const int iw = P.nv;
    P.vert[P.nv++] = w;
    ++out.iterations;
    P.nhor = 0;
    Face& F = P.face[f];
    F.alive = false;
    P.free_list[P.nfree++] = f;
    for (int e = 0; e < 3; ++e) P.silhouette(F.adj[e], F.adj_edge[e], w.w, eps);
    if (P.nhor < 3) break;
    // The walk lists the horizon as a loop: each edge starts where the next one ends.
    bool ok = true;
    for (int h = 0; h < P.nhor; ++h) {
      const int g = P.hor_face[h], e = P.hor_edge[h];
      const int g2 = P.hor_face[(h + 1) % P.nhor], e2 = P.hor_edge[(h + 1) % P.nhor];
      if (P.face[g].v[e] != P.face[g2].v[(e2 + 1) % 3]) ok = false;
    }
    if (!ok) break;
    int first = -1, previous = -1;
    for (int h = 0; h < P.nhor && ok; ++h) {
      const int g = P.hor_face[h], e = P.hor_edge[h];
      const int a = P.face[g].v[e], b = P.face[g].v[(e + 1) % 3];
      const int nf = P.new_face_slot();
      if (nf < 0) {
        ok = false;
        break;
      }
      // New face (b, a, w): its edge 0 (b → a) is g's edge e reversed.
      ok = P.set_face(nf, b, a, iw) && P.face[nf].d > -eps;
      link(P, nf, 0, g, e);
      // Consecutive horizon edges share a vertex: the previous face's edge 1 (a' → w) meets this
      // face's edge 2 (w → b) when a' == b.
      if (previous >= 0) link(P, previous, 1, nf, 2);
      if (first < 0) first = nf;
      previous = nf;
    }
    if (!ok) break;
    link(P, previous, 1, first, 2);
  }
  if (best_v[0] < 0) return false;
  // Witness points: the origin's projection on the best face, in its vertices' support points.
  const SupportPoint &A = P.vert[best_v[0]], &B = P.vert[best_v[1]], &C = P.vert[best_v[2]];
  const Vec3 l = barycentric(best * best_n, A.w, B.w, C.w);
  out.n = best_n;
  out.depth = best;
  out.p1 = l[0] * A.a + l[1] * B.a + l[2] * C.a;
  out.p2 = l[0] * A.b + l[1] * B.b + l[2] * C.b;
  return true;
}

bool closest_direction(const Geometry& g1, const Pose& X1, const Geometry& g2, const Pose& X2,
                       const Vec3& n_hint, double tolerance, Penetration& out) {
  const Minkowski M{g1, X1, g2, X2, 0.0};
  Simplex s;
  // M lies on the −n side of the origin: its support along n is near its nearest point.
  s.p[0] = M(n_hint.squaredNorm() > 0.0 ? n_hint : Vec3(Vec3::UnitZ()));
  s.n = 1;
  Vec3 v = s.p[0].w;
  out.converged = false;
  out.iterations = 0;
  for (int it = 0; it < kMaxGjkIterations; ++it) {
    const double vn = v.norm();
    if (!(vn > tolerance)) return false;  // touching or overlapping
    // The support point towards the origin: |v| − v·w/|v| bounds the error of the distance.
    const SupportPoint w = M(-v);
    if (vn - v.dot(w.w) / vn <= tolerance) {
      out.converged = true;
      break;
    }
    bool known = false;
    for (int i = 0; i < s.n; ++i) known |= s.p[i].w == w.w;
    if (known) break;  // no progress: converged to round-off
    s.p[s.n++] = w;
    ++out.iterations;
    if (!nearest_on_simplex(s, v)) return false;  // the origin inside: overlap
  }
  const double distance = v.norm();
  if (!(distance > tolerance)) return false;
  out.n = -v / distance;  // M = A1 − A2: v points from shape 2's point to shape 1's
  out.depth = -distance;
  // Witness points: v in the barycentric coordinates of the simplex's feature.
  Vec3 l(1.0, 0.0, 0.0);
  if (s.n == 2) {
    const Vec3 ab = s.p[1].w - s.p[0].w;
    const double t = (v - s.p[0].w).dot(ab) / ab.squaredNorm();
    l = Vec3(1.0 - t, t, 0.0);
  } else if (s.n == 3) {
    l = barycentric(v, s.p[0].w, s.p[1].w, s.p[2].w);
  }
  out.p1 = Vec3::Zero();
  out.p2 = Vec3::Zero();
  for (int i = 0; i < s.n; ++i) {
    out.p1 += l[i] * s.p[i].a;
    out.p2 += l[i] * s.p[i].b;
  }
  return true;
}

}  // namespace coulomb::narrow
