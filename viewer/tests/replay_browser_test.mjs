// Browser test of replay.html (registered in ctest as viewer_replay_browser).
// 1. The C++ helper (coulomb_replay_demo) writes the replay of a sphere rolling on a plane and a
//    box sliding to rest, one of the five joint types and a spring on bodies in closed-form 3-D
//    motion (with a driven turntable), and a 10^4-body, 10^3-frame synthetic run.
// 2. Debian's chromium, driven headless by playwright-core, opens them from disk with every
//    non-file request blocked, and checks: no page error; the 3-D canvas is not blank; moving the
//    time slider moves the bodies (the ball's drawn position and the canvas pixels); the three
//    plots are drawn; each joint and spring is drawn where the closed forms put it (anchors, axes,
//    a string's slack or taut state, a spring's ends and tension colour), the driven body is
//    marked, the actuation's work plot is drawn, and hiding the joints changes the picture; the
//    large replay opens with every body and draws. Screenshots go to --out.
//    No timing is asserted (a loaded machine must not fail a test): the load time of the large
//    replay is measured by bench/replay_load.mjs (docs/benchmarks.md).
// Exit 0: pass, 1: fail, 77: skipped (no chromium or no playwright-core), as ctest's SKIP code.
// Usage: node replay_browser_test.mjs --demo PATH/coulomb_replay_demo --out DIR [--chromium PATH]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const demo = arg('--demo');
const out = resolve(arg('--out', 'browser-test'));
const chromiumPath = arg('--chromium', '/usr/bin/chromium');

function skip(why) {
  console.log(`SKIPPED: ${why}`);
  process.exit(77);
}
if (!demo) { console.error('usage: --demo PATH --out DIR'); process.exit(2); }
if (!existsSync(chromiumPath)) skip(`no chromium at ${chromiumPath} (apt-get install chromium)`);
let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  skip('playwright-core is not installed (npm ci in viewer/)');
}

let failures = 0;
function check(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? `: ${detail}` : ''}`);
  if (!ok) ++failures;
}

// Write the replays.
mkdirSync(out, { recursive: true });
const small = join(out, 'small.html'), large = join(out, 'large.html'), joints = join(out, 'joints.html');
const runDemo = (...a) => JSON.parse(execFileSync(demo, a, { encoding: 'utf8' }));
const smallInfo = runDemo('small', small);
check(smallInfo.viewer, 'the viewer is embedded in the library', JSON.stringify(smallInfo));
const jointsInfo = runDemo('joints', joints);
const largeInfo = runDemo('large', large, '10000', '1000');
console.log(`large replay written: ${(statSync(large).size / 2 ** 20).toFixed(1)} MiB, ` +
            `${JSON.stringify(largeInfo)}`);

// A fresh profile, no network: only file: URLs are served.
const profile = mkdtempSync(join(tmpdir(), 'coulomb-replay-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         // WebGL without a GPU: SwiftShader through ANGLE.
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
const blocked = [];
await context.route('**/*', (route) => {
  const url = route.request().url();
  if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
  blocked.push(url);
  return route.abort();
});

// Opens a replay and waits until it is ready (the 60 s waits only keep a broken page from hanging
// the test; they are not a performance limit); returns the page.
async function open(file) {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 60000 });
  await page.waitForFunction(() => window.coulombReplay?.ready || window.coulombReplay?.error,
                             null, { timeout: 60000 });
  const error = await page.evaluate(() => window.coulombReplay.error);
  check(!error && errors.length === 0, `${file} opens without errors`, [error, ...errors].filter(Boolean).join('; '));
  return { page };
}

// Pixels of a canvas differing from a background colour by more than 24 (sum over RGB).
async function foreground(page, selector, bg) {
  return page.evaluate(([sel, bgc]) => {
    const c = document.querySelector(sel);
    const t = document.createElement('canvas');
    t.width = c.width; t.height = c.height;
    const g = t.getContext('2d');
    g.drawImage(c, 0, 0);
    const px = g.getImageData(0, 0, t.width, t.height).data;
    let n = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (Math.abs(px[i] - bgc[0]) + Math.abs(px[i + 1] - bgc[1]) + Math.abs(px[i + 2] - bgc[2]) > 24) ++n;
    }
    return { n, total: px.length / 4 };
  }, [selector, bg]);
}

// Canvas pixels as a data URL (for before/after comparisons).
const canvasPixels = (page) => page.evaluate(() => {
  const c = document.querySelector('#view canvas');
  const t = document.createElement('canvas');
  t.width = c.width; t.height = c.height;
  t.getContext('2d').drawImage(c, 0, 0);
  return Array.from(t.getContext('2d').getImageData(0, 0, t.width, t.height).data);
});

try {
  // ---- The small run. ----
  {
    const { page } = await open(small);
    const state = await page.evaluate(() => ({ ...window.coulombReplay }));
    check(state.frameCount === 201, 'all 201 frames are in the page', String(state.frameCount));
    check(state.meshCount === 8, 'one mesh per shape kind (8 kinds)', String(state.meshCount));

    // The 3-D canvas is not blank (background #20242b).
    const fg = await foreground(page, '#view canvas', [0x20, 0x24, 0x2b]);
    check(fg.n > 0.02 * fg.total, '3-D view is not blank', `${fg.n} of ${fg.total} pixels drawn`);

    // The slider moves the bodies: ball (body 1) from x = -1 m at t = 0 to x = +1 m at t = 2 s.
    const slider = page.locator('#time-slider');
    await slider.fill('0');
    const before = await page.evaluate(() => ({
      world: window.coulombReplay.bodyPosition(1), screen: window.coulombReplay.bodyScreenPosition(1),
      time: window.coulombReplay.time }));
    const pixelsBefore = await canvasPixels(page);
    await slider.fill('200');
    const after = await page.evaluate(() => ({
      world: window.coulombReplay.bodyPosition(1), screen: window.coulombReplay.bodyScreenPosition(1),
      time: window.coulombReplay.time }));
    const pixelsAfter = await canvasPixels(page);
    // Float32 positions: 1e-6 m is far below anything the ball moves.
    check(Math.abs(after.time - 2) < 1e-9 && Math.abs(before.time) < 1e-9, 'slider sets the time',
          `${before.time} -> ${after.time}`);
    check(Math.abs(after.world[0] - before.world[0] - 2) < 1e-5, 'ball moved 2 m along x',
          `${before.world} -> ${after.world}`);
    const moved = Math.hypot(after.screen[0] - before.screen[0], after.screen[1] - before.screen[1]);
    check(moved > 50, 'ball moved on screen', `${moved.toFixed(1)} px`);
    let changed = 0;
    for (let i = 0; i < pixelsBefore.length; i += 4) {
      if (Math.abs(pixelsBefore[i] - pixelsAfter[i]) + Math.abs(pixelsBefore[i + 1] - pixelsAfter[i + 1]) +
          Math.abs(pixelsBefore[i + 2] - pixelsAfter[i + 2]) > 24) ++changed;
    }
    check(changed > 1000, 'the picture changed with the slider', `${changed} pixels`);

    // The plots are present and drawn (background #15181d): energy, slip, spin.
    for (const id of ['plot-energy', 'plot-slip', 'plot-spin']) {
      const p = await foreground(page, `#${id}`, [0x15, 0x18, 0x1d]);
      check(p.total > 10000 && p.n > 500, `plot #${id} is drawn`, `${p.n} of ${p.total} pixels`);
    }
    // Mid-run frame for the screenshot (contacts, trail and plot cursors visible).
    await slider.fill('60');
    await page.screenshot({ path: join(out, 'replay-small.png') });
    await page.close();
  }

  // ---- Joints and springs: drawn where the closed forms put them, following the bodies. ----
  {
    const { page } = await open(joints);
    const state = await page.evaluate(() => ({ ...window.coulombReplay }));
    check(state.jointCount === 5 && state.springCount === 1, 'joints page: 5 joints and 1 spring',
          `${state.jointCount}, ${state.springCount}`);
    // Poses are Float32 (7 digits): a point 1-2 m from the origin carried by a Float32 rotation is
    // off by ~1e-6 m; 1e-4 m is far below a misplaced anchor (the smallest lever is 0.06 m).
    const tol = 1e-4;
    const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    const near = (a, b) => dist(a, b) < tol;
    const fmt = (a) => `[${a.map((x) => x.toFixed(5)).join(', ')}]`;
    const tautSeen = new Set();
    for (const e of jointsInfo.expect) {
      const drawn = await page.evaluate((f) => {
        window.coulombReplay.setFrame(f);
        const r = window.coulombReplay;
        return { joints: [0, 1, 2, 3, 4].map((j) => r.joint(j)), spring: r.spring(0), frame: r.frame };
      }, e.frame);
      const [hinge, fixed, ball, prismatic, string] = drawn.joints;
      const at = `frame ${e.frame}`;
      check(drawn.frame === e.frame, `${at}: frame set`, String(drawn.frame));
      check(drawn.joints.every((j) => j.visible), `${at}: every joint is drawn`,
            drawn.joints.filter((j) => !j.visible).map((j) => j.name).join(', '));
      check(hinge.type === 'hinge' && near(hinge.position, e.hinge.anchor) && near(hinge.drawnAxis, e.hinge.axis),
            `${at}: hinge at its anchor, along its axis`,
            `${fmt(hinge.position)} vs ${fmt(e.hinge.anchor)}, axis ${fmt(hinge.drawnAxis)} vs ${fmt(e.hinge.axis)}`);
      check(fixed.type === 'fixed' && near(fixed.position, e.fixed.anchor), `${at}: fixed joint at its anchor`,
            `${fmt(fixed.position)} vs ${fmt(e.fixed.anchor)}`);
      check(ball.type === 'ball' && near(ball.position, e.ball.anchor), `${at}: ball joint at its anchor`,
            `${fmt(ball.position)} vs ${fmt(e.ball.anchor)}`);
      // The prismatic axis: a line through anchor 1 along the axis; the mark at anchor 2.
      const [p0, p1] = prismatic.line, mid = p0.map((x, i) => 0.5 * (x + p1[i]));
      const dir = p1.map((x, i) => x - p0[i]), dl = Math.hypot(...dir);
      check(near(mid, e.prismatic.anchor1) && near(dir.map((x) => x / dl), e.prismatic.axis) &&
            near(prismatic.position, e.prismatic.anchor2), `${at}: prismatic axis and slider mark`,
            `${fmt(mid)} vs ${fmt(e.prismatic.anchor1)}, ${fmt(prismatic.position)} vs ${fmt(e.prismatic.anchor2)}`);
      check(near(string.line[0], e.string.ends[0]) && near(string.line[1], e.string.ends[1]),
            `${at}: string between its ends`, `${fmt(string.line[1])} vs ${fmt(e.string.ends[1])}`);
      // Taut and slack: the frames chosen are > 1 mm away from the string's length.
      check(string.taut === e.string.taut, `${at}: string drawn ${e.string.taut ? 'taut' : 'slack'}`,
            `distance ${e.string.distance.toFixed(4)} m, L = ${jointsInfo.length} m, color ${string.color.toString(16)}`);
      tautSeen.add(`${string.taut}:${string.color}`);
      const sp = drawn.spring;
      check(sp.visible && near(sp.first, e.spring.ends[0]) && near(sp.last, e.spring.ends[1]),
            `${at}: spring between its ends`, `${fmt(sp.first)}-${fmt(sp.last)} vs ${fmt(e.spring.ends[0])}-${fmt(e.spring.ends[1])}`);
      // Tension k (ℓ - ℓ0): Float32 ends, 40 N/m x 1e-5 m.
      check(Math.abs(sp.tension - e.spring.tension) < 1e-3 && (Math.abs(sp.tension) < 1 || sp.color !== 0xffffff),
            `${at}: spring tension and colour`, `${sp.tension.toFixed(4)} vs ${e.spring.tension.toFixed(4)} N, color ${sp.color.toString(16)}`);
    }
    check(tautSeen.size === 2, 'the string is drawn both slack and taut, in two colours', [...tautSeen].join(' '));
    // The driven turntable (body 1) is marked: listed, and drawn violet (#9d6bd8), unlike the
    // fixed ground's grey.
    const driven = await page.evaluate(() => ({ list: window.coulombReplay.drivenBodies,
      table: window.coulombReplay.bodyColor(1), arm: window.coulombReplay.bodyColor(2) }));
    const rgb = (h) => [(h >> 16) & 255, (h >> 8) & 255, h & 255];
    check(JSON.stringify(driven.list) === '[1]' && rgb(driven.table).every((c, i) => Math.abs(c - rgb(0x9d6bd8)[i]) <= 2),
          'the driven turntable is listed and drawn violet', `${JSON.stringify(driven.list)}, #${driven.table?.toString(16)}`);
    // The actuation's work plot.
    check(state.plotIds.includes('plot-work'), 'work plot present', state.plotIds.join(', '));
    const wp = await foreground(page, '#plot-work', [0x15, 0x18, 0x1d]);
    check(wp.total > 10000 && wp.n > 500, 'plot #plot-work is drawn', `${wp.n} of ${wp.total} pixels`);
    // Hiding the joints and springs changes the picture (they are really drawn).
    await page.evaluate(() => window.coulombReplay.setFrame(43));
    const withLinks = await canvasPixels(page);
    await page.locator('#show-links').uncheck();
    const withoutLinks = await canvasPixels(page);
    let changed = 0;
    for (let i = 0; i < withLinks.length; i += 4) {
      if (Math.abs(withLinks[i] - withoutLinks[i]) + Math.abs(withLinks[i + 1] - withoutLinks[i + 1]) +
          Math.abs(withLinks[i + 2] - withoutLinks[i + 2]) > 24) ++changed;
    }
    check(changed > 100, 'joints and springs are visible in the picture', `${changed} pixels change when hidden`);
    const hidden = await page.evaluate(() => window.coulombReplay.joint(0).visible);
    check(hidden === false, 'the checkbox hides them');
    await page.locator('#show-links').check();
    await page.screenshot({ path: join(out, 'replay-joints.png') });
    await page.close();
  }

  // ---- The large run: it opens with every body and draws (its load time: bench/replay_load.mjs). ----
  {
    const { page } = await open(large);
    const state = await page.evaluate(() => ({ ...window.coulombReplay }));
    check(state.bodyCount === 10001, 'large run: 10^4 bodies + ground', String(state.bodyCount));
    check(state.frameCount === largeInfo.frames, 'large run: every written frame is in the page',
          `${state.frameCount} of ${largeInfo.frames}`);
    const fg = await foreground(page, '#view canvas', [0x20, 0x24, 0x2b]);
    check(fg.n > 0.02 * fg.total, 'large run: 3-D view is not blank', `${fg.n} of ${fg.total} pixels`);
    await page.screenshot({ path: join(out, 'replay-large.png') });
    await page.close();
  }
  check(blocked.length === 0, 'no network request', blocked.slice(0, 3).join(', '));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

console.log(failures ? `${failures} check(s) failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
