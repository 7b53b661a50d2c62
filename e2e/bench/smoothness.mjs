// Smoothness of the solo page, measured (never asserted): a scripted drag of a tray piece across the grid and back on
// a 375 × 812 phone viewport with Chromium's CPU throttled ×4 (CDP Emulation.setCPUThrottlingRate), frame intervals
// taken from requestAnimationFrame in the page (p50, p95, worst), and the page's JavaScript size gzipped.
//
//   node bench/smoothness.mjs                 the built web-ui/dist, served here with a scripted game (no stack)
//   node bench/smoothness.mjs --url http://localhost:8080   against the running stack (a real solo game)
//
// The drag itself never asks the server anything (only the drop does), so both modes measure the same work.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../lib/browser.mjs';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../web-ui/dist');
const args = process.argv.slice(2);
const urlArg = args.includes('--url') ? args[args.indexOf('--url') + 1] : null;
const THROTTLE = 4;
const STEPS = 240;

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json' };
const game = {
  id: '00000000-0000-4000-8000-000000000001', mode: 'SOLO', level: 'MEDIUM', status: 'PLAYING',
  board: ['........', '..#.....', '........', '.....#..', '........', '.#......', '........', '......#.'],
  score: 0, streak: 0, miss: 0, round: 0, assisted: false, gameOver: false, nextMoveNumber: 1, undoMoveNumber: null,
  pieces: [{ slot: 0, id: 'L4A', rows: ['#.', '#.', '##'], placed: false }, { slot: 1, id: 'O4', rows: ['##', '##'], placed: false }, { slot: 2, id: 'I3H', rows: ['###'], placed: false }],
};

function serve() {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ solverUrl: 'http://127.0.0.1:9', leaderboardUrl: 'http://127.0.0.1:9', keycloakUrl: 'http://127.0.0.1:9', realm: 'x', clientId: 'x' }));
      return;
    }
    if (path.startsWith('/api/games')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(game));
      return;
    }
    const file = join(DIST, path === '/' ? 'index.html' : path);
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

function gzippedJs() {
  const dir = join(DIST, 'assets');
  return readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => {
    const raw = readFileSync(join(dir, f));
    return { file: f, bytes: statSync(join(dir, f)).size, gzip: gzipSync(raw, { level: 9 }).length };
  });
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

const server = urlArg ? null : await serve();
const base = urlArg ?? `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2 });
  await context.addInitScript(() => { localStorage.setItem('bloc.lang', 'en'); localStorage.setItem('bloc.tutorial', 'skipped'); });
  const page = await context.newPage();
  await page.goto(`${base}/#/solo/${urlArg ? 'new?level=MEDIUM' : game.id}`);
  await page.waitForSelector('.tray button.tray-slot');
  await page.waitForTimeout(500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });

  await page.evaluate(() => {
    window.__frames = [];
    let last = performance.now();
    const tick = (t) => { window.__frames.push(t - last); last = t; window.__raf = requestAnimationFrame(tick); };
    window.__raf = requestAnimationFrame(tick);
  });
  const from = await page.locator('.tray button.tray-slot').first().boundingBox();
  const grid = await page.locator('.grid').boundingBox();
  const sx = from.x + from.width / 2;
  const sy = from.y + from.height / 2;
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  // Up into the grid, a sweep over it left and right, then back down to the tray: the ghost and the clear preview move
  // with every step.
  const path = [];
  for (let i = 0; i < STEPS; i++) {
    const f = i / (STEPS - 1);
    const x = grid.x + grid.width * (0.5 + 0.45 * Math.sin(f * Math.PI * 4));
    const y = grid.y + grid.height * (0.1 + 0.8 * Math.abs(Math.sin(f * Math.PI)));
    path.push([x, y]);
  }
  for (const [x, y] of path) await page.mouse.move(x, y);
  await page.mouse.move(sx, sy, { steps: 10 });
  await page.mouse.up();
  const frames = await page.evaluate(() => { cancelAnimationFrame(window.__raf); return window.__frames.slice(1); });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  const js = gzippedJs();
  const result = {
    when: new Date().toISOString(),
    mode: urlArg ? `stack at ${urlArg}` : 'built dist, scripted game',
    viewport: '375x812 @2x', cpuThrottling: THROTTLE, pointerMoves: STEPS + 10,
    frames: frames.length,
    frameMs: { p50: +quantile(frames, 0.5).toFixed(1), p95: +quantile(frames, 0.95).toFixed(1), worst: +Math.max(...frames).toFixed(1) },
    over33ms: frames.filter((f) => f > 33.4).length,
    js: js.map((j) => ({ file: j.file, kB: +(j.bytes / 1024).toFixed(1), gzipKB: +(j.gzip / 1024).toFixed(1) })),
    load: readFileSync('/proc/loadavg', 'utf8').trim(),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await browser.close();
  server?.close();
}
