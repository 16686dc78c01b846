// Three.js geometry of coulomb's shapes, in the shape frame S of include/coulomb/geometry/shape.hpp
// (z up): plane = a large finite square on normal·x = offset; sphere, box, ellipsoid centred;
// capsule, cylinder and cone along z (cone apex at +height/2); convex hull of the points.
// Equal geometries share one InstancedMesh (one draw call for thousands of bodies).
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';

// Darkens the octants x·y·z < 0 so that rotation of round bodies is visible.
function octantShade(geometry) {
  const pos = geometry.getAttribute('position');
  const colors = new Float32Array(pos.count * 3);
  for (let i = 0; i < pos.count; ++i) {
    const s = pos.getX(i) * pos.getY(i) * pos.getZ(i) < 0 ? 0.55 : 1.0;
    colors[3 * i] = colors[3 * i + 1] = colors[3 * i + 2] = s;
  }
  geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
  return geometry;
}

// Plain white vertex colours (every geometry carries a colour attribute, one material for all).
function white(geometry) {
  const n = geometry.getAttribute('position').count;
  geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(n * 3).fill(1), 3));
  return geometry;
}

// Checkerboard texture for planes.
function checkerTexture() {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const g = c.getContext('2d');
  g.fillStyle = '#8d939c'; g.fillRect(0, 0, 64, 64);
  g.fillStyle = '#747a83'; g.fillRect(0, 0, 32, 32); g.fillRect(32, 32, 32, 32);
  const t = new THREE.CanvasTexture(c);
  t.wrapS = t.wrapT = THREE.RepeatWrapping;
  t.magFilter = THREE.NearestFilter;
  t.colorSpace = THREE.SRGBColorSpace;
  return t;
}

/** A key equal for shapes of equal geometry (same kind and numbers). */
export function geometryKey(shape) {
  const { body, pose, ...geom } = shape;
  return JSON.stringify(geom);
}

/**
 * Geometry of a shape in its frame S. `detail` lowers tessellation for big scenes; `planeSize` is
 * the side of the square drawn for a plane [m].
 */
export function shapeGeometry(shape, detail, planeSize) {
  const seg = detail;  // segments around a circle
  switch (shape.kind) {
    case 'plane': {
      const n = new THREE.Vector3(...shape.normal).normalize();
      const g = new THREE.PlaneGeometry(planeSize, planeSize);
      const uv = g.getAttribute('uv');
      for (let i = 0; i < uv.count; ++i) uv.setXY(i, uv.getX(i) * planeSize, uv.getY(i) * planeSize);
      g.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), n));
      g.translate(n.x * shape.offset, n.y * shape.offset, n.z * shape.offset);
      return white(g);
    }
    case 'sphere':
      return octantShade(new THREE.SphereGeometry(shape.radius, seg, Math.max(4, seg / 2)));
    case 'ellipsoid': {
      const [a, b, c] = shape.semi_axes;
      return octantShade(new THREE.SphereGeometry(1, seg, Math.max(4, seg / 2)).scale(a, b, c));
    }
    case 'box': {
      const [hx, hy, hz] = shape.half_extents;
      return white(new THREE.BoxGeometry(2 * hx, 2 * hy, 2 * hz));
    }
    case 'capsule':
      return octantShade(new THREE.CapsuleGeometry(shape.radius, 2 * shape.half_length,
                                                  Math.max(2, seg / 4), seg).rotateX(Math.PI / 2));
    case 'cylinder':
      return octantShade(new THREE.CylinderGeometry(shape.radius, shape.radius,
                                                   2 * shape.half_length, seg).rotateX(Math.PI / 2));
    case 'cone':  // three's cone: apex at +y/2 -> rotate y to z
      return white(new THREE.ConeGeometry(shape.radius, shape.height, seg).rotateX(Math.PI / 2));
    case 'convex': {
      const p = shape.points, pts = [];
      for (let i = 0; i + 2 < p.length; i += 3) pts.push(new THREE.Vector3(p[i], p[i + 1], p[i + 2]));
      return white(new ConvexGeometry(pts));
    }
    default:
      throw new Error(`unknown shape kind '${shape.kind}'`);
  }
}

/** Materials: shaded solids (vertex × instance colours) and the plane's checkerboard. */
export function makeMaterials() {
  return {
    solid: new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.55, metalness: 0.05 }),
    plane: new THREE.MeshStandardMaterial({ vertexColors: true, map: checkerTexture(),
      roughness: 0.9, side: THREE.DoubleSide }),
  };
}

/** A pleasant, deterministic colour per body (grey for fixed bodies). */
export function bodyColor(index, fixed) {
  if (fixed) return new THREE.Color(0.62, 0.64, 0.68);
  const hue = (index * 0.618033988749895 + 0.08) % 1;
  return new THREE.Color().setHSL(hue, 0.6, 0.55);
}
