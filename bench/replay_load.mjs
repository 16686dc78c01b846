// Benchmark: how long a large replay.html takes to load in a browser (docs/benchmarks.md).
// Not a test (ctest does not run it): a timing depends on the machine and its load.
//
// 1. The C++ helper coulomb_replay_demo (built with the tests, viewer/tests/make_replay.cpp) writes
//    the replay of a synthetic run of NBODIES bouncing, spinning spheres over NFRAMES frames
//    (default 10^4 bodies, 10^3 frames: the size issue 5 asked to open in under 5 s).
// 2. Debian's chromium, headless through playwright-core (viewer/node_modules), opens it from disk
//    with every non-file request blocked, REPEAT times in fresh pages; the time from navigation to
//    `window.coulombReplay.ready` is measured, with the page's own clock (`loadMs`) alongside.
// Prints one line per load and a JSON summary (min, median, max [ms]); with --limit-ms L the exit
// status is 1 when the median exceeds L (for a manual check against a target), 0 otherwise.
// Exit 77: no chromium or no playwright-core.
//
// Usage (from the repository root, after building the tests in build/):
//   node bench/replay_load.mjs --demo build/viewer/coulomb_replay_demo [--out DIR]
//        [--bodies 10000] [--frames 1000] [--repeat 5] [--limit-ms 5000] [--chromium PATH]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const demo = arg('--demo');
const out = resolve(arg('--out', join(tmpdir(), 'coulomb-replay-bench')));
const bodies = arg('--bodies', '10000');
const frames = arg('--frames', '1000');
const repeat = Math.max(1, Number(arg('--repeat', '5')));
const limitMs = arg('--limit-ms') === undefined ? undefined : Number(arg('--limit-ms'));
const chromiumPath = arg('--chromium', '/usr/bin/chromium');

if (!demo) {
  console.error('usage: node bench/replay_load.mjs --demo PATH/coulomb_replay_demo [--out DIR] ' +
                '[--bodies N] [--frames N] [--repeat N] [--limit-ms MS] [--chromium PATH]');
  process.exit(2);
}
if (!existsSync(chromiumPath)) {
  console.log(`SKIPPED: no chromium at ${chromiumPath}`);
  process.exit(77);
}
// playwright-core is a dependency of the viewer (npm ci in viewer/).
const viewerDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'viewer');
let chromium;
try {
  ({ chromium } = createRequire(join(viewerDir, 'package.json'))('playwright-core'));
} catch {
  console.log('SKIPPED: playwright-core is not installed (npm ci in viewer/)');
  process.exit(77);
}

// Write the large replay.
mkdirSync(out, { recursive: true });
const page = join(out, 'large.html');
const written = JSON.parse(execFileSync(demo, ['large', page, bodies, frames], { encoding: 'utf8' }));
console.log(`replay: ${bodies} bodies, ${written.frames} frames written of ${written.received}, ` +
            `${(statSync(page).size / 2 ** 20).toFixed(1)} MiB, viewer embedded: ${written.viewer}`);

// A fresh profile, no network: only file: URLs are served.
const profile = mkdtempSync(join(tmpdir(), 'coulomb-replay-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: chromiumPath,
  headless: true,
  viewport: { width: 1280, height: 800 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--use-angle=swiftshader', '--enable-unsafe-swiftshader'],
});
await context.route('**/*', (route) => {
  const url = route.request().url();
  if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
  return route.abort();
});

const times = [];
try {
  for (let k = 0; k < repeat; ++k) {
    const tab = await context.newPage();
    const start = performance.now();
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load', timeout: 600000 });
    await tab.waitForFunction(() => window.coulombReplay?.ready || window.coulombReplay?.error,
                              null, { timeout: 600000 });
    const ms = performance.now() - start;
    const state = await tab.evaluate(() => ({ ...window.coulombReplay }));
    if (state.error) throw new Error(`the replay did not load: ${state.error}`);
    console.log(`load ${k + 1}/${repeat}: ${ms.toFixed(0)} ms (page's own clock ` +
                `${Number(state.loadMs).toFixed(0)} ms; ${state.bodyCount} bodies, ` +
                `${state.frameCount} frames)`);
    times.push(ms);
    await tab.close();
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}

times.sort((a, b) => a - b);
const median = times[Math.floor((times.length - 1) / 2)];
const summary = { bodies: Number(bodies), frames: written.frames, repeat, min_ms: times[0],
                  median_ms: median, max_ms: times[times.length - 1] };
console.log(JSON.stringify(summary));
if (limitMs !== undefined && median > limitMs) {
  console.log(`median ${median.toFixed(0)} ms is above --limit-ms ${limitMs}`);
  process.exit(1);
}
