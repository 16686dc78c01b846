// The coulomb replay viewer: reads the data embedded by the C++ writer, draws the bodies with
// three.js (one InstancedMesh per distinct geometry), plays the frames back with a time slider and
// speed control, shows contact points and force arrows, joints and springs (links.js), trails of
// chosen bodies and time plots (energy, the actuation's works, slip and spin).
// World frame: z up (coulomb's gravity is usually -z). State for tests: window.coulombReplay.
import './style.css';
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { loadReplay } from './data.js';
import { bodyColor, geometryKey, makeMaterials, shapeGeometry } from './shapes.js';
import { TimePlot } from './plots.js';
import { Links } from './links.js';

const api = { ready: false, error: null };
window.coulombReplay = api;
const $ = (id) => document.getElementById(id);

function fail(message) {
  api.error = message;
  $('message').textContent = message;
}

try {
  const data = loadReplay(document);
  if (!data) fail('This is the replay template: it holds no run (coulomb run writes replay.html).');
  else start(data);
} catch (e) {
  fail(`Cannot show the replay: ${e.message}`);
  console.error(e);
}

function start(data) {
  const { meta } = data;
  const nb = meta.body_names.length, nf = meta.frame_count;
  const moving = meta.moving, nm = moving.length;
  const PS = meta.pose_stride, CS = meta.contact_stride;
  const times = Float64Array.from(meta.time);
  $('title').textContent = meta.name;
  document.title = `${meta.name} — coulomb replay`;

  // Index of each body among the moving ones (-1: fixed, pose from basePoses).
  const movingIndex = new Int32Array(nb).fill(-1);
  moving.forEach((b, m) => { movingIndex[b] = m; });

  // ---- Body poses at a time: linear interpolation of positions, nlerp of quaternions. ----
  const bodyPos = new Float32Array(nb * 3), bodyQuat = new Float32Array(nb * 4);
  const frameAt = (t) => {  // last frame with time <= t (binary search)
    let lo = 0, hi = nf - 1;
    if (nf === 0 || t <= times[0]) return 0;
    if (t >= times[hi]) return hi;
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (times[mid] <= t) lo = mid; else hi = mid; }
    return lo;
  };
  function computePoses(t) {
    const f = frameAt(t), g = Math.min(f + 1, nf - 1);
    const a = g > f && times[g] > times[f] ? Math.min(1, Math.max(0, (t - times[f]) / (times[g] - times[f]))) : 0;
    for (let b = 0; b < nb; ++b) {
      const m = movingIndex[b];
      let p, q;
      if (m < 0 || nf === 0) {
        const o = b * PS;
        p = [data.basePoses[o], data.basePoses[o + 1], data.basePoses[o + 2]];
        q = [data.basePoses[o + 3], data.basePoses[o + 4], data.basePoses[o + 5], data.basePoses[o + 6]];
      } else {
        const A = data.poses, o = (f * nm + m) * PS, o2 = (g * nm + m) * PS;
        p = [A[o] + a * (A[o2] - A[o]), A[o + 1] + a * (A[o2 + 1] - A[o + 1]),
             A[o + 2] + a * (A[o2 + 2] - A[o + 2])];
        const dot = A[o + 3] * A[o2 + 3] + A[o + 4] * A[o2 + 4] + A[o + 5] * A[o2 + 5] + A[o + 6] * A[o2 + 6];
        const s = dot < 0 ? -1 : 1;
        q = [0, 1, 2, 3].map((k) => (1 - a) * A[o + 3 + k] + a * s * A[o2 + 3 + k]);
        const n = Math.hypot(...q) || 1;
        q = q.map((v) => v / n);
      }
      bodyPos.set(p, 3 * b);
      bodyQuat.set(q, 4 * b);
    }
    return f;
  }

  // ---- Scene extent: positions of all bodies over the frames (sampled) and shape sizes. ----
  const box = new THREE.Box3();
  const step = Math.max(1, Math.floor(nf / 50));
  for (let f = 0; f < nf; f += step) for (let m = 0; m < nm; ++m) {
    const o = (f * nm + m) * PS;
    box.expandByPoint(new THREE.Vector3(data.poses[o], data.poses[o + 1], data.poses[o + 2]));
  }
  for (let b = 0; b < nb; ++b) if (movingIndex[b] < 0 && !meta.shapes.some((s) => s.body === b && s.kind === 'plane')) {
    box.expandByPoint(new THREE.Vector3(data.basePoses[b * PS], data.basePoses[b * PS + 1], data.basePoses[b * PS + 2]));
  }
  let maxShape = 0;
  for (const s of meta.shapes) {
    const r = s.radius ?? 0, hl = s.half_length ?? 0, he = s.half_extents ? Math.hypot(...s.half_extents) : 0;
    const ax = s.semi_axes ? Math.max(...s.semi_axes) : 0, h = s.height ?? 0;
    maxShape = Math.max(maxShape, r + hl, he, ax, h);
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, 0), new THREE.Vector3(1, 1, 0));
  box.expandByScalar(maxShape);
  const center = box.getCenter(new THREE.Vector3());
  const size = Math.max(box.getSize(new THREE.Vector3()).length(), 0.1);

  // ---- Renderer, camera, lights. ----
  const view = $('view');
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setClearColor(0x20242b);
  view.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(45, 1, size * 1e-3, size * 100);
  camera.up.set(0, 0, 1);
  camera.position.copy(center).add(new THREE.Vector3(0.65, -0.95, 0.55).multiplyScalar(size));
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(center);
  controls.update();
  scene.add(new THREE.HemisphereLight(0xdde6ff, 0x3a3228, 1.4).translateZ(1));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8);
  sun.position.set(0.5, -0.8, 1.5);
  scene.add(sun);
  scene.add(new THREE.AxesHelper(size * 0.08));

  // ---- Shapes: one InstancedMesh per distinct geometry. ----
  const materials = makeMaterials();
  const drivenColor = new THREE.Color(0x9d6bd8);  // driven bodies (a prescribed motion): violet
  const detail = meta.shapes.length > 2000 ? 10 : meta.shapes.length > 200 ? 16 : 32;
  const planeSize = 4 * size + 2 * center.length();
  const groups = new Map();
  meta.shapes.forEach((s, i) => {
    if (s.body < 0) return;
    const key = geometryKey(s);
    if (!groups.has(key)) groups.set(key, { shape: s, members: [] });
    groups.get(key).members.push(i);
  });
  const shapeMatrix = meta.shapes.map((s) => new THREE.Matrix4().compose(
    new THREE.Vector3(s.pose[0], s.pose[1], s.pose[2]),
    new THREE.Quaternion(s.pose[4], s.pose[5], s.pose[6], s.pose[3]),
    new THREE.Vector3(1, 1, 1)));
  const meshes = [];
  for (const { shape, members } of groups.values()) {
    let geometry;
    try { geometry = shapeGeometry(shape, detail, planeSize); } catch (e) {
      console.warn(`shape skipped: ${e.message}`);
      continue;
    }
    const isPlane = shape.kind === 'plane';
    const mesh = new THREE.InstancedMesh(geometry, isPlane ? materials.plane : materials.solid, members.length);
    mesh.frustumCulled = false;
    members.forEach((si, k) => {
      const b = meta.shapes[si].body;
      mesh.setColorAt(k, isPlane ? new THREE.Color(1, 1, 1)
        : meta.body_driven?.[b] === 1 ? drivenColor : bodyColor(b, meta.body_fixed[b] === 1));
    });
    mesh.userData.members = members;
    scene.add(mesh);
    meshes.push(mesh);
  }

  // ---- Contacts: points, force arrows (shaft lines + cone heads), scaled to the largest force. ----
  const offs = data.contactOffsets, C = data.contacts;
  let maxContacts = 0, maxForce = 0;
  for (let f = 0; f < nf; ++f) maxContacts = Math.max(maxContacts, offs[f + 1] - offs[f]);
  for (let c = 0; c < C.length; c += CS) maxForce = Math.max(maxForce, Math.hypot(C[c + 6], C[c + 7], C[c + 8]));
  // Longest arrow: a quarter of the scene, at most 4 body sizes (dense scenes stay readable).
  const forceScale = maxForce > 0 ? Math.min(0.25 * size, 4 * Math.max(maxShape, 1e-3)) / maxForce : 0;  // [m/N]
  const contactGroup = new THREE.Group();
  scene.add(contactGroup);
  const dotRadius = Math.min(0.012 * size, Math.max(maxShape * 0.15, 1e-4));
  const dots = new THREE.InstancedMesh(new THREE.SphereGeometry(dotRadius, 8, 6),
    new THREE.MeshBasicMaterial({ color: 0xffd166 }), Math.max(1, maxContacts));
  const heads = new THREE.InstancedMesh(new THREE.ConeGeometry(dotRadius * 1.2, dotRadius * 4, 8),
    new THREE.MeshBasicMaterial({ color: 0xff5d5d }), Math.max(1, maxContacts));
  dots.frustumCulled = heads.frustumCulled = false;
  const shaftPos = new Float32Array(Math.max(1, maxContacts) * 6);
  const shaftGeom = new THREE.BufferGeometry();
  shaftGeom.setAttribute('position', new THREE.BufferAttribute(shaftPos, 3));
  const shafts = new THREE.LineSegments(shaftGeom, new THREE.LineBasicMaterial({ color: 0xff5d5d }));
  shafts.frustumCulled = false;
  contactGroup.add(dots, heads, shafts);

  function updateContacts(f) {
    const begin = nf ? offs[f] : 0, count = nf ? offs[f + 1] - begin : 0;
    const m = new THREE.Matrix4(), q = new THREE.Quaternion(), up = new THREE.Vector3(0, 1, 0);
    const p = new THREE.Vector3(), d = new THREE.Vector3(), one = new THREE.Vector3(1, 1, 1);
    let arrows = 0;
    for (let k = 0; k < count; ++k) {
      const o = (begin + k) * CS;
      p.set(C[o], C[o + 1], C[o + 2]);
      dots.setMatrixAt(k, m.makeTranslation(p.x, p.y, p.z));
      d.set(C[o + 6], C[o + 7], C[o + 8]).multiplyScalar(forceScale);
      const len = d.length();
      if (len > 1e-12) {
        shaftPos.set([p.x, p.y, p.z, p.x + d.x, p.y + d.y, p.z + d.z], 6 * arrows);
        q.setFromUnitVectors(up, d.clone().normalize());
        heads.setMatrixAt(arrows, m.compose(p.clone().add(d), q, one));
        ++arrows;
      }
    }
    dots.count = count;
    heads.count = arrows;
    dots.instanceMatrix.needsUpdate = heads.instanceMatrix.needsUpdate = true;
    shaftGeom.setDrawRange(0, 2 * arrows);
    shaftGeom.getAttribute('position').needsUpdate = true;
  }

  // ---- Joints and springs: marks at their anchors, carried by the bodies' poses. ----
  const links = new Links(scene, meta, 1.5 * dotRadius, nf, (f) => {
    computePoses(times[f]);
    return [bodyPos, bodyQuat];
  });

  // ---- Trails of chosen bodies: their origin's path up to the current frame. ----
  const trailGroup = new THREE.Group();
  scene.add(trailGroup);
  const trails = [];
  function setTrails(bodies) {
    for (const t of trails) { trailGroup.remove(t.line); t.line.geometry.dispose(); }
    trails.length = 0;
    for (const b of bodies) {
      const m = movingIndex[b];
      if (m < 0) continue;
      const pts = new Float32Array(nf * 3);
      for (let f = 0; f < nf; ++f) pts.set(data.poses.subarray((f * nm + m) * PS, (f * nm + m) * PS + 3), 3 * f);
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(pts, 3));
      const line = new THREE.Line(g, new THREE.LineBasicMaterial({ color: bodyColor(b, false) }));
      line.frustumCulled = false;
      trailGroup.add(line);
      trails.push({ body: b, line });
    }
  }

  // ---- Time plots: energy; slip speed and spin of the chosen contact pair. ----
  const seek = (t) => setTime(t);
  const energyPlot = new TimePlot($('plot-energy'), { title: 'energy', yLabel: 'E [J]', times, onSeek: seek });
  const slipPlot = new TimePlot($('plot-slip'), { title: 'slip speed ‖v_t‖', yLabel: '[m/s]', times, onSeek: seek });
  const spinPlot = new TimePlot($('plot-spin'), { title: 'spin ω·n', yLabel: '[rad/s]', times, onSeek: seek });
  const K = meta.kinetic, P = meta.potential, D = meta.dissipated;
  energyPlot.setSeries([
    { name: 'kinetic', color: '#4cc9f0', values: K },
    { name: 'potential', color: '#90be6d', values: P },
    { name: 'dissipated', color: '#f9844a', values: D },
    { name: 'K+P+D', color: '#e0e0e0', values: K.map((k, i) => k + P[i] + D[i]) },
  ]);
  // The actuation's works (models with driven bodies, loads, dampers or springs between bodies):
  // of the driven bodies on the others, of the applied forces, and the energy damping removed.
  const workPlot = meta.actuated
    ? new TimePlot($('plot-work'), { title: 'actuation: work', yLabel: 'W [J]', times, onSeek: seek })
    : null;
  if (workPlot) {
    $('plots').classList.add('four');
    workPlot.setSeries([
      { name: 'driven bodies', color: '#9d6bd8', values: meta.driven_work },
      { name: 'forces', color: '#ffd166', values: meta.force_work },
      { name: 'damping', color: '#ef476f', values: meta.damping },
    ]);
  } else {
    $('plot-work').style.display = 'none';
  }
  const plots = [energyPlot, slipPlot, spinPlot, ...(workPlot ? [workPlot] : [])];

  // Contact pairs present in the run (first seen first; the list is capped for huge runs).
  const pairs = new Map();
  for (let c = 0; c < C.length && pairs.size < 500; c += CS) {
    const key = `${C[c + 9]}-${C[c + 10]}`;
    if (!pairs.has(key)) pairs.set(key, [C[c + 9], C[c + 10]]);
  }
  const pairSelect = $('contact-pair');
  const bodyName = (b) => meta.body_names[b] ?? `#${b}`;
  for (const [key, [b1, b2]] of pairs) pairSelect.add(new Option(`${bodyName(b1)} – ${bodyName(b2)}`, key));
  function setPair(key) {
    const slip = new Float64Array(nf).fill(NaN), spin = new Float64Array(nf).fill(NaN);
    const [b1, b2] = pairs.get(key) ?? [-1, -1];
    for (let f = 0; f < nf; ++f) {
      for (let c = offs[f]; c < offs[f + 1]; ++c) {
        const o = c * CS;
        if (C[o + 9] === b1 && C[o + 10] === b2) { slip[f] = C[o + 11]; spin[f] = C[o + 12]; break; }
      }
    }
    slipPlot.setSeries([{ name: pairs.has(key) ? `${bodyName(b1)} – ${bodyName(b2)}` : 'no contact', color: '#f72585', values: slip }]);
    spinPlot.setSeries([{ name: pairs.has(key) ? `${bodyName(b1)} – ${bodyName(b2)}` : 'no contact', color: '#b5179e', values: spin }]);
  }
  pairSelect.addEventListener('change', () => setPair(pairSelect.value));
  // Default: the pair that slips fastest at some frame (the first pair if nothing slips).
  let bestPair = pairs.keys().next().value, bestSlip = 0;
  for (let c = 0; c < C.length; c += CS) {
    if (C[c + 11] > bestSlip) { bestSlip = C[c + 11]; bestPair = `${C[c + 9]}-${C[c + 10]}`; }
  }
  if (pairs.has(bestPair)) pairSelect.value = bestPair;
  setPair(pairSelect.value);

  // ---- Body poses -> instance matrices. ----
  const bodyMatrix = Array.from({ length: nb }, () => new THREE.Matrix4());
  const tmp = new THREE.Matrix4(), tq = new THREE.Quaternion(), tp = new THREE.Vector3(), one = new THREE.Vector3(1, 1, 1);
  let currentTime = nf ? times[0] : 0, currentFrame = 0;
  function render() {
    currentFrame = computePoses(currentTime);
    for (let b = 0; b < nb; ++b) {
      tp.set(bodyPos[3 * b], bodyPos[3 * b + 1], bodyPos[3 * b + 2]);
      tq.set(bodyQuat[4 * b + 1], bodyQuat[4 * b + 2], bodyQuat[4 * b + 3], bodyQuat[4 * b]);
      bodyMatrix[b].compose(tp, tq, one);
    }
    for (const mesh of meshes) {
      mesh.userData.members.forEach((si, k) => {
        mesh.setMatrixAt(k, tmp.multiplyMatrices(bodyMatrix[meta.shapes[si].body], shapeMatrix[si]));
      });
      mesh.instanceMatrix.needsUpdate = true;
    }
    links.group.visible = $('show-links').checked;
    links.update(bodyPos, bodyQuat);
    contactGroup.visible = $('show-contacts').checked;
    if (contactGroup.visible) updateContacts(currentFrame);
    for (const t of trails) t.line.geometry.setDrawRange(0, currentFrame + 1);
    slider.value = String(currentFrame);
    $('time-label').textContent = `t = ${currentTime.toFixed(4)} s   frame ${currentFrame + 1}/${nf}`;
    for (const p of plots) p.setCursor(currentTime);
    renderer.render(scene, camera);
  }

  // ---- Controls: slider, play/pause, speed, loop, toggles, trail choice. ----
  const slider = $('time-slider');
  slider.max = String(Math.max(0, nf - 1));
  slider.addEventListener('input', () => { playing = false; updatePlayButton(); setTime(times[Number(slider.value)] ?? 0); });
  function setTime(t) {
    currentTime = Math.min(Math.max(t, nf ? times[0] : 0), nf ? times[nf - 1] : 0);
    render();
  }
  let playing = false, lastClock = 0;
  const playButton = $('play');
  const updatePlayButton = () => { playButton.textContent = playing ? 'Pause' : 'Play'; };
  function togglePlay() {
    playing = !playing;
    if (playing && nf && currentTime >= times[nf - 1]) currentTime = times[0];
    lastClock = performance.now();
    updatePlayButton();
  }
  playButton.addEventListener('click', togglePlay);
  window.addEventListener('keydown', (ev) => {
    if (ev.code === 'Space' && ev.target.tagName !== 'SELECT') { ev.preventDefault(); togglePlay(); }
  });
  $('show-contacts').addEventListener('change', render);
  $('show-links').addEventListener('change', render);
  const trailSelect = $('trail-bodies');
  for (const b of moving.slice(0, 5000)) trailSelect.add(new Option(bodyName(b), String(b)));
  if (trailSelect.options.length) trailSelect.options[0].selected = true;
  const chosenTrails = () => Array.from(trailSelect.selectedOptions, (o) => Number(o.value));
  trailSelect.addEventListener('change', () => { setTrails(chosenTrails()); render(); });
  setTrails(chosenTrails());
  controls.addEventListener('change', () => { if (!playing) renderer.render(scene, camera); });

  // ---- Size and animation loop. ----
  function resize() {
    const w = Math.max(1, view.clientWidth), h = Math.max(1, view.clientHeight);
    renderer.setSize(w, h);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    render();
  }
  window.addEventListener('resize', resize);
  function tick(now) {
    if (playing) {
      const speed = Number($('speed').value);
      currentTime += (now - lastClock) / 1000 * speed;
      if (nf && currentTime >= times[nf - 1]) {
        if ($('loop').checked) currentTime = times[0]; else { currentTime = times[nf - 1]; playing = false; updatePlayButton(); }
      }
      render();
    }
    lastClock = now;
    requestAnimationFrame(tick);
  }

  $('info').textContent = `${nb} bodies (${nm} moving), ${meta.shapes.length} shapes in ${meshes.length} ` +
    `instanced meshes; ${nf} frames written of ${meta.frames_received} recorded (decimation stride ${meta.stride})` +
    `; ${offs[nf] ?? 0} contact points; arrows: ${forceScale > 0 ? (1 / forceScale).toPrecision(3) : '–'} N per m` +
    `; ${links.joints.length} joints, ${links.springs.length} springs` +
    `; ${(meta.body_driven ?? []).filter((d) => d === 1).length} driven bodies (violet).`;
  resize();
  requestAnimationFrame(tick);

  // ---- State for tests and scripting. ----
  Object.defineProperties(api, {
    frame: { get: () => currentFrame, enumerable: true },
    time: { get: () => currentTime, enumerable: true },
    playing: { get: () => playing, enumerable: true },
  });
  Object.assign(api, {
    frameCount: nf,
    bodyCount: nb,
    meshCount: meshes.length,
    setTime,
    setFrame: (f) => setTime(times[Math.min(Math.max(0, f), nf - 1)]),
    play: () => { if (!playing) togglePlay(); },
    pause: () => { if (playing) togglePlay(); },
    /** World position of a body frame's origin as drawn now [m]. */
    bodyPosition: (b) => Array.from(bodyPos.subarray(3 * b, 3 * b + 3)),
    /** Pixel position (CSS px, from the canvas' top left) of a body frame's origin as drawn now. */
    bodyScreenPosition(b) {
      const v = new THREE.Vector3(...bodyPos.subarray(3 * b, 3 * b + 3)).project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return [(v.x + 1) / 2 * r.width, (1 - v.y) / 2 * r.height];
    },
    jointCount: links.joints.length,
    springCount: links.springs.length,
    /** Indices of the driven bodies (a prescribed motion), drawn violet. */
    drivenBodies: (meta.body_driven ?? []).flatMap((d, b) => (d === 1 ? [b] : [])),
    /** What is drawn for joint j now: type, visible, position/line, anchors, axis, taut. */
    joint: (j) => links.drawnJoint(j),
    /** What is drawn for spring i now: first and last points of its zig-zag, colour, tension. */
    spring: (i) => links.drawnSpring(i),
    /** The instance colour (hex) a body's shapes are drawn with. */
    bodyColor(b) {
      for (const mesh of meshes) {
        const k = mesh.userData.members.findIndex((si) => meta.shapes[si].body === b);
        if (k >= 0) { const c = new THREE.Color(); mesh.getColorAt(k, c); return c.getHex(); }
      }
      return null;
    },
    /** The plots drawn (canvas ids). */
    plotIds: plots.map((p) => p.canvas.id),
    loadMs: performance.now(),  // since navigation start, after data decoding and the first render
    ready: true,
  });
}
