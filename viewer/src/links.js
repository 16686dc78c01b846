// Joints and springs in the 3-D view (docs/replay.md). Their ends are points fixed in a body (in
// its body frame, as the C++ writer gives them; the world's points for body -1), carried by the
// body poses of the frame being drawn, so they follow the bodies without per-frame data:
//   ball       a small sphere at the anchor (body 2's side);
//   hinge      a short cylinder along the axis at the anchor;
//   prismatic  the axis as a line through body 1's anchor, a small sphere at body 2's;
//   fixed      a small cube at the anchor;
//   distance   a line between the two ends: amber when taut (|d| >= L (1 - 1e-3)), grey when slack;
//   spring     a zig-zag between the two ends, coloured by its elastic tension k (ℓ - ℓ0): red
//              pulling, blue pushing, white at rest, full colour at the largest |tension| of the run.
import * as THREE from 'three';

// The world position of point p of body b (body frame) given the bodies' positions and
// quaternions (w, x, y, z) of the frame: x_b + q_b p.
export function worldPoint(b, p, bodyPos, bodyQuat, out = new THREE.Vector3()) {
  out.set(p[0], p[1], p[2]);
  if (b < 0) return out;
  const q = new THREE.Quaternion(bodyQuat[4 * b + 1], bodyQuat[4 * b + 2], bodyQuat[4 * b + 3], bodyQuat[4 * b]);
  return out.applyQuaternion(q).add(new THREE.Vector3(bodyPos[3 * b], bodyPos[3 * b + 1], bodyPos[3 * b + 2]));
}

// The direction d of body b (body frame) in the world.
function worldDirection(b, d, bodyQuat) {
  const v = new THREE.Vector3(d[0], d[1], d[2]);
  if (b < 0) return v;
  return v.applyQuaternion(new THREE.Quaternion(bodyQuat[4 * b + 1], bodyQuat[4 * b + 2], bodyQuat[4 * b + 3], bodyQuat[4 * b]));
}

// Whether an object is in a scene with it and all its parents visible.
function shown(object) {
  for (let o = object; o; o = o.parent) {
    if (!o.visible) return false;
    if (o.isScene) return true;
  }
  return false;
}

const kCoils = 10;                 // zig-zag corners of a spring
const kTautFraction = 1 - 1e-3;    // a string is drawn taut from this fraction of its length on
const kTaut = 0xffb703, kSlack = 0x8d99ae;

export class Links {
  /**
   * meta: the replay's metadata (joints, springs); size: the joint marks' size [m];
   * samplePoses(f): sets the poses of frame f and returns [bodyPos, bodyQuat] (for the springs'
   * largest tension over the run, from up to 200 frames).
   */
  constructor(scene, meta, size, frameCount, samplePoses) {
    this.joints = meta.joints ?? [];
    this.springs = meta.springs ?? [];
    this.group = new THREE.Group();
    scene.add(this.group);
    const jointMaterial = new THREE.MeshStandardMaterial({ color: 0x06d6a0, roughness: 0.4 });
    this.jointObjects = this.joints.map((j) => {
      let object;
      switch (j.type) {
        case 'ball':
          object = new THREE.Mesh(new THREE.SphereGeometry(size, 16, 12), jointMaterial);
          break;
        case 'hinge':  // a cylinder along its local y, turned onto the axis each frame
          object = new THREE.Mesh(new THREE.CylinderGeometry(0.5 * size, 0.5 * size, 6 * size, 16), jointMaterial);
          break;
        case 'fixed':
          object = new THREE.Mesh(new THREE.BoxGeometry(1.6 * size, 1.6 * size, 1.6 * size), jointMaterial);
          break;
        case 'prismatic': {
          object = new THREE.Group();
          const line = new THREE.Line(new THREE.BufferGeometry().setAttribute('position',
            new THREE.BufferAttribute(new Float32Array(6), 3)), new THREE.LineBasicMaterial({ color: 0x06d6a0 }));
          line.frustumCulled = false;
          object.add(line, new THREE.Mesh(new THREE.SphereGeometry(0.7 * size, 12, 8), jointMaterial));
          break;
        }
        default: {  // distance (a string)
          object = new THREE.Line(new THREE.BufferGeometry().setAttribute('position',
            new THREE.BufferAttribute(new Float32Array(6), 3)), new THREE.LineBasicMaterial({ color: kTaut }));
          object.frustumCulled = false;
        }
      }
      this.group.add(object);
      return object;
    });
    this.jointState = this.joints.map(() => ({ anchor1: [0, 0, 0], anchor2: [0, 0, 0], axis: [0, 0, 0], taut: null }));

    // Springs: one zig-zag line each; the colour scale from the largest |k (ℓ - ℓ0)| sampled.
    this.springLines = this.springs.map(() => {
      const line = new THREE.Line(new THREE.BufferGeometry().setAttribute('position',
        new THREE.BufferAttribute(new Float32Array(3 * (kCoils + 2)), 3)),
      new THREE.LineBasicMaterial({ color: 0xffffff }));
      line.frustumCulled = false;
      this.group.add(line);
      return line;
    });
    this.springState = this.springs.map(() => ({ end1: [0, 0, 0], end2: [0, 0, 0], tension: 0 }));
    this.maxTension = 0;
    if (this.springs.length) {
      const step = Math.max(1, Math.floor(frameCount / 200));
      for (let f = 0; f < frameCount; f += step) {
        const [pos, quat] = samplePoses(f);
        for (const s of this.springs) this.maxTension = Math.max(this.maxTension, Math.abs(this.tension(s, pos, quat)));
      }
    }
    this.width = 0.6 * size;
  }

  // Elastic tension of spring s at the poses (positive: it pulls its ends together) [N].
  tension(s, bodyPos, bodyQuat) {
    const a = worldPoint(s.body1, s.point1, bodyPos, bodyQuat), b = worldPoint(s.body2, s.point2, bodyPos, bodyQuat);
    return s.stiffness * (a.distanceTo(b) - s.rest_length);
  }

  /** Places every joint and spring at the poses of the frame drawn. */
  update(bodyPos, bodyQuat) {
    const up = new THREE.Vector3(0, 1, 0);
    this.joints.forEach((j, i) => {
      const a1 = worldPoint(j.body1, j.anchor1, bodyPos, bodyQuat), a2 = worldPoint(j.body2, j.anchor2, bodyPos, bodyQuat);
      const axis = worldDirection(j.body1, j.axis1, bodyQuat).normalize();
      const object = this.jointObjects[i], st = this.jointState[i];
      st.anchor1 = a1.toArray();
      st.anchor2 = a2.toArray();
      st.axis = axis.toArray();
      switch (j.type) {
        case 'ball': case 'fixed':
          object.position.copy(a2);
          if (j.type === 'fixed') object.quaternion.setFromUnitVectors(new THREE.Vector3(1, 0, 0), axis);
          break;
        case 'hinge':
          object.position.copy(a2);
          object.quaternion.setFromUnitVectors(up, axis);
          break;
        case 'prismatic': {
          const [line, dot] = object.children, half = 4 * this.width / 0.6;
          line.geometry.getAttribute('position').array.set([
            a1.x - half * axis.x, a1.y - half * axis.y, a1.z - half * axis.z,
            a1.x + half * axis.x, a1.y + half * axis.y, a1.z + half * axis.z]);
          line.geometry.getAttribute('position').needsUpdate = true;
          dot.position.copy(a2);
          break;
        }
        default: {
          object.geometry.getAttribute('position').array.set([a1.x, a1.y, a1.z, a2.x, a2.y, a2.z]);
          object.geometry.getAttribute('position').needsUpdate = true;
          st.taut = a1.distanceTo(a2) >= kTautFraction * j.length;
          object.material.color.setHex(st.taut ? kTaut : kSlack);
        }
      }
    });
    this.springs.forEach((s, i) => {
      const a = worldPoint(s.body1, s.point1, bodyPos, bodyQuat), b = worldPoint(s.body2, s.point2, bodyPos, bodyQuat);
      const d = b.clone().sub(a), len = d.length();
      // A zig-zag across d: corners alternately at ± w along a unit vector normal to d.
      const u = len > 0 ? d.clone().divideScalar(len) : new THREE.Vector3(0, 0, 1);
      const n = new THREE.Vector3(1, 0, 0).cross(u);
      if (n.lengthSq() < 1e-6) n.set(0, 1, 0).cross(u);
      n.normalize().multiplyScalar(this.width);
      const pts = this.springLines[i].geometry.getAttribute('position');
      pts.array.set([a.x, a.y, a.z], 0);
      for (let k = 1; k <= kCoils; ++k) {
        const p = a.clone().addScaledVector(d, (k - 0.5) / kCoils).addScaledVector(n, k % 2 ? 1 : -1);
        pts.array.set([p.x, p.y, p.z], 3 * k);
      }
      pts.array.set([b.x, b.y, b.z], 3 * (kCoils + 1));
      pts.needsUpdate = true;
      const tension = s.stiffness * (len - s.rest_length);
      const x = this.maxTension > 0 ? Math.min(1, Math.abs(tension) / this.maxTension) : 0;
      this.springLines[i].material.color.setRGB(tension >= 0 ? 1 : 1 - x, 1 - x, tension >= 0 ? 1 - x : 1);
      this.springState[i] = { end1: a.toArray(), end2: b.toArray(), tension };
    });
  }

  /** What is drawn for joint i: its type, visibility, the drawn anchor and ends, the axis. */
  drawnJoint(i) {
    const j = this.joints[i], object = this.jointObjects[i], st = this.jointState[i];
    const out = { type: j.type, name: j.name, visible: shown(object), ...st };
    if (j.type === 'distance' || j.type === 'prismatic') {
      const a = (j.type === 'distance' ? object : object.children[0]).geometry.getAttribute('position').array;
      out.line = [Array.from(a.subarray(0, 3)), Array.from(a.subarray(3, 6))];
      if (j.type === 'prismatic') out.position = object.children[1].position.toArray();
    } else {
      out.position = object.position.toArray();
      // The drawn mark's own axis (the cylinder's y, the cube's x) in the world.
      const local = j.type === 'hinge' ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(1, 0, 0);
      out.drawnAxis = local.applyQuaternion(object.quaternion).toArray();
    }
    if (j.type === 'distance') out.color = object.material.color.getHex();
    return out;
  }

  /** What is drawn for spring i: the zig-zag's first and last points, its colour, the tension. */
  drawnSpring(i) {
    const line = this.springLines[i], a = line.geometry.getAttribute('position').array;
    return { visible: shown(line), first: Array.from(a.subarray(0, 3)),
      last: Array.from(a.subarray(3 * (kCoils + 1), 3 * (kCoils + 2))),
      color: line.material.color.getHex(), ...this.springState[i] };
  }
}
