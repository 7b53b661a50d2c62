// The chaos stage (./bloc chaos, docs/reliability.md): plays solo games through the real services, as guests and
// as logged-in players, while it kills with kill -9, in turn, game-service, one solver-service replica, one
// leaderboard-service replica (the other takes the consumer group's partitions meanwhile), the Kafka broker and
// PostgreSQL, each started again after a few seconds. Then it checks
// that every game it finished reached leaderboard-service exactly once (one audit per game id, read through the
// admin audits API), that every game it left in play can go on, and that no request got a 5xx other than the
// documented 503s while a dependency was down. Prints the figures, writes them to .bloc/logs/chaos.json and exits
// non-zero on any loss, duplicate, unexpected answer or bad 5xx.
//
// Run by ./bloc chaos against the running stack; the settings are environment variables (defaults below).
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { launchChromium } from '../lib/browser.mjs';
import { exchange, loginAs } from '../lib/keycloak.mjs';
import { choose } from '../lib/rules.mjs';
import { GAME, LEADERBOARD, call } from '../lib/stack.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const SETTINGS = {
  minGames: env('CHAOS_GAMES', 200), // games finished at least, kills or not
  players: env('CHAOS_PLAYERS', 8), // virtual players at once
  thinkMs: env('CHAOS_THINK_MS', 150), // pause between two requests of a player
  warmupS: env('CHAOS_WARMUP_S', 20), // load before the first kill
  downS: env('CHAOS_DOWN_S', 5), // how long a killed component stays down
  gapS: env('CHAOS_GAP_S', 15), // load between a recovery and the next kill
  recoverS: env('CHAOS_RECOVER_S', 240), // a component not recovered by then is a failure
  settleS: env('CHAOS_SETTLE_S', 180), // how long finished games may take to reach the leaderboard
  maxS: env('CHAOS_MAX_S', 1200), // the load stops by then, whatever the number of games
};
const TARGETS = (process.env.CHAOS_TARGETS ?? 'game-service,solver-service-1,leaderboard-service-1,kafka,postgres').split(',');
const GRACE_MS = 15_000; // after a recovery, answers are still counted against the kill
const SOLVER_1 = 'http://localhost:8081';
const HINT_REQUEST = readFileSync(resolve(ROOT, 'engine/src/test/resources/golden/solver/positions.jsonl'), 'utf8')
  .split('\n').find((l) => l.includes('"protocol-example-hint"'));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => Date.now();
const log = (...a) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

// ---- what happened ------------------------------------------------------------------------------------------

const kills = []; // {name, killedAt, readyAt, recoveredAt, probe}
const figures = {
  requests: 0, connectionErrors: 0, documented503: 0, tooMany429: 0, retriedMoves: 0, alreadyPlayedAfterRetry: 0,
};
const bad = []; // every answer that fails the stage: {at, during, request, status, detail}
const finished = new Map(); // game id -> {status, score, owner}
const inPlay = new Map(); // game id -> {as}
let stopping = false;

/** The kill whose fault window (kill .. recovery + grace) holds the instant t, or null. */
function windowOf(t) {
  for (let i = kills.length - 1; i >= 0; i--) {
    const k = kills[i];
    if (t >= k.killedAt && (k.recoveredAt === undefined || t <= k.recoveredAt + GRACE_MS)) return k;
  }
  return null;
}

function failure(request, status, detail) {
  const at = now();
  const k = windowOf(at);
  const entry = { at: new Date(at).toISOString(), during: k ? `kill of ${k.name}` : 'no kill', request, status, detail };
  bad.push(entry);
  if (k) k.bad = (k.bad ?? 0) + 1;
  log('FAILURE', JSON.stringify(entry));
}

// ---- who plays ------------------------------------------------------------------------------------------------

const players = {}; // username -> {token, refresh, expiresAt}

async function login() {
  const browser = await launchChromium();
  try {
    for (const name of ['alice', 'bob', 'admin']) {
      const t = await loginAs(browser, name);
      players[name] = { name, token: t.access_token, refresh: t.refresh_token, expiresAt: now() + t.expires_in * 1000 };
    }
  } finally {
    await browser.close();
  }
}

/** A player's access token, refreshed (web-ui client, refresh token) a minute before it expires. */
async function bearer(name) {
  const p = players[name];
  if (p.expiresAt - now() < 60_000) {
    const t = await exchange({ grant_type: 'refresh_token', client_id: 'web-ui', refresh_token: p.refresh });
    Object.assign(p, { token: t.access_token, refresh: t.refresh_token ?? p.refresh, expiresAt: now() + t.expires_in * 1000 });
  }
  return p.token;
}

// ---- one request, retried as a real client does ---------------------------------------------------------------

const documented503 = (path, res) => res.status === 503 && (res.headers.get('retry-after') !== null || path.endsWith('/hint'));

/**
 * Sends a request until it gets an answer that is not a fault: a connection error or timeout, a 503 (documented
 * while a dependency is down: counted), a 429 (waits Retry-After) or any other 5xx (a failure, then retried like a
 * client would). Answers {res, retried}.
 */
async function send(url, options, label) {
  const deadline = now() + SETTINGS.recoverS * 1000;
  let retried = false;
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) retried = true;
    if (now() > deadline) {
      failure(label, 'gave up', `no answer but faults for ${SETTINGS.recoverS} s`);
      throw new Error(`${label}: gave up`);
    }
    const opts = { ...options };
    if (typeof opts.as === 'string') opts.token = await bearer(opts.as);
    if (opts.gameToken) opts.headers = { ...opts.headers, 'X-Game-Token': opts.gameToken };
    figures.requests++;
    let res;
    try {
      res = await call(url, opts);
    } catch (e) {
      figures.connectionErrors++;
      const k = windowOf(now());
      if (k) k.connectionErrors = (k.connectionErrors ?? 0) + 1;
      await sleep(500);
      continue;
    }
    if (res.status === 429) {
      figures.tooMany429++;
      await sleep(Math.min(5, Number(res.headers.get('retry-after') ?? 1)) * 1000);
      continue;
    }
    if (res.status >= 500) {
      if (documented503(url, res) && windowOf(now())) {
        figures.documented503++;
        const k = windowOf(now());
        k.documented503 = (k.documented503 ?? 0) + 1;
      } else {
        failure(label, res.status, `${res.headers.get('retry-after') ? `Retry-After ${res.headers.get('retry-after')}, ` : ''}${res.text.slice(0, 300)}`);
      }
      await sleep(Math.min(5, Number(res.headers.get('retry-after') ?? 1)) * 1000);
      continue;
    }
    return { res, retried };
  }
}

// ---- a game -------------------------------------------------------------------------------------------------------

// A guest game is played from its own loopback address, as a guest on the internet plays from theirs: the limit of
// open games per guest address (game-service's games-per-client) is then each virtual guest's, not one budget for all
// of them that games other runs left open on 127.0.0.1 (the e2e stage's, for 30 minutes) could fill.
const owner = (g) => (g.player ? { as: g.player } : { gameToken: g.gameToken, from: g.from });
const guestAddress = (n) => `127.0.0.${10 + n}`;

async function create(player, level, from) {
  const { res } = await send(`${GAME}/api/games`, { method: 'POST', as: player ?? undefined, from: player ? undefined : from, body: { level } }, `POST /api/games as ${player ?? `guest ${from}`}`);
  if (res.status !== 201) {
    failure(`POST /api/games as ${player ?? `guest ${from}`}`, res.status, res.text.slice(0, 300));
    return null;
  }
  const game = res.json;
  const g = { id: game.id, player, gameToken: game.gameToken, from: player ? undefined : from, state: game };
  inPlay.set(g.id, g);
  return g;
}

async function refresh(g) {
  const { res } = await send(`${GAME}/api/games/${g.id}`, owner(g), `GET /api/games/${g.id}`);
  if (res.status !== 200) {
    failure(`GET /api/games/${g.id}`, res.status, res.text.slice(0, 300));
    return false;
  }
  g.state = res.json;
  return true;
}

/** One placement chosen from the game's own state; answers false when the game cannot go on. */
async function move(g) {
  const s = g.state;
  const pick = choose(s.board, s.pieces.filter((p) => !p.placed));
  if (!pick) return false;
  const label = `POST /api/games/${g.id}/moves #${s.nextMoveNumber}`;
  const body = { moveNumber: s.nextMoveNumber, slot: pick.slot, row: pick.row, col: pick.col };
  const { res, retried } = await send(`${GAME}/api/games/${g.id}/moves`, { method: 'POST', ...owner(g), body }, label);
  if (retried) figures.retriedMoves++;
  if (res.status === 200) {
    g.state = res.json.game;
    return true;
  }
  if (res.status === 409 && retried) {
    // the first attempt may have been played before its answer was lost: the state says, and must show it played
    figures.alreadyPlayedAfterRetry++;
    if (!(await refresh(g))) return false;
    if (g.state.nextMoveNumber > body.moveNumber) return true;
    failure(label, 409, `answered 409 to a retry, but the game is still at move ${g.state.nextMoveNumber}: the placement was lost`);
    return false;
  }
  failure(label, res.status, res.text.slice(0, 300));
  return false;
}

async function hint(g) {
  const label = `POST /api/games/${g.id}/hint`;
  const { res, retried } = await send(`${GAME}/api/games/${g.id}/hint`, { method: 'POST', ...owner(g) }, label);
  if (res.status === 200) {
    g.state = res.json.game;
    return true;
  }
  if (res.status === 409 && retried) {
    // applied before its answer was lost: a game that had a hint is assisted
    if (!(await refresh(g))) return false;
    if (g.state.assisted) return true;
    failure(label, 409, 'answered 409 to a retry, but the game had no hint: the hint was lost');
    return false;
  }
  failure(label, res.status, res.text.slice(0, 300));
  return false;
}

async function resign(g) {
  const label = `POST /api/games/${g.id}/resign`;
  const { res, retried } = await send(`${GAME}/api/games/${g.id}/resign`, { method: 'POST', ...owner(g) }, label);
  if (res.status === 200) {
    g.state = res.json;
    return true;
  }
  if (res.status === 409 && retried && (await refresh(g)) && g.state.status === 'RESIGNED') return true;
  failure(label, res.status, res.text.slice(0, 300));
  return false;
}

function finish(g) {
  inPlay.delete(g.id);
  finished.set(g.id, { status: g.state.status, score: g.state.score, player: g.player ?? 'guest' });
}

/** A virtual player: games one after another, some to the game over, some resigned, a hint now and then. */
async function player(index) {
  const identities = [null, null, 'alice', 'bob', 'admin'];
  for (let n = 0; !stopping; n++) {
    const who = identities[(index + n) % identities.length];
    const g = await create(who, n % 4 === 3 ? 'HARD' : 'MEDIUM', guestAddress(index)).catch(() => null);
    if (!g) { await sleep(1000); continue; }
    const cap = 8 + Math.floor(Math.random() * 40);
    const hintAt = Math.random() < 0.25 ? 2 + Math.floor(Math.random() * 5) : -1;
    try {
      for (let m = 0; m < cap && !g.state.gameOver && !stopping; m++) {
        await sleep(SETTINGS.thinkMs);
        if (m === hintAt && !(await hint(g))) break;
        if (!(await move(g))) break;
      }
      if (stopping && !g.state.gameOver) return; // left in play, for the check that it can go on
      if (!g.state.gameOver && !(await resign(g))) continue;
      finish(g);
    } catch (e) {
      log(`player ${index}: game ${g.id} abandoned: ${e.message}`);
    }
  }
}

// ---- kills ----------------------------------------------------------------------------------------------------

const execFileP = promisify(execFile);
const bloc = (...args) => execFileP(resolve(ROOT, 'bloc'), args, { cwd: ROOT, maxBuffer: 1 << 20, env: process.env });

/**
 * A game through every service, retried until it works: created, one move, one hint, resigned, its audit at
 * leaderboard-service; for a solver replica also a hint asked of that replica directly.
 */
async function probe(name, killedAt) {
  const deadline = killedAt + SETTINGS.recoverS * 1000; // from the kill, the restart's own wait included
  if (name.startsWith('solver-service-1')) {
    for (;;) {
      const r = await call(`${SOLVER_1}/api/solver/solve`, {
        method: 'POST', body: HINT_REQUEST, headers: { 'Content-Type': 'application/json' },
      }).catch(() => null);
      if (r?.status === 200) break;
      if (now() > deadline) throw new Error('solver-service-1 answered no hint');
      await sleep(500);
    }
  }
  const g = await create(null, 'MEDIUM', guestAddress(SETTINGS.players + kills.length));
  if (!g || !(await move(g)) || !(await hint(g)) || !(await resign(g))) throw new Error('the probe game failed');
  finish(g);
  for (;;) {
    const r = await call(`${LEADERBOARD}/api/leaderboards/admin/audits/${g.id}`, { token: await bearer('admin') }).catch(() => null);
    if (r?.status === 200) return g.id;
    if (now() > deadline) throw new Error(`the probe game ${g.id} did not reach leaderboard-service`);
    await sleep(500);
  }
}

async function chaos() {
  await sleep(SETTINGS.warmupS * 1000);
  for (const name of TARGETS) {
    const k = { name, killedAt: now() };
    kills.push(k);
    try {
      log((await bloc('chaos', 'kill', name)).stdout.trim());
      await sleep(SETTINGS.downS * 1000);
      k.restartedAt = now();
      await bloc('chaos', 'start', name);
    } catch (e) {
      k.readyAt = k.recoveredAt = now();
      k.error = `./bloc chaos kill/start ${name} failed: ${e.stdout ?? ''}${e.stderr ?? e.message}`.trim();
      failure(`restart of ${name}`, 'not started', k.error);
      continue;
    }
    k.readyAt = now();
    log(`${name} ready again after ${((k.readyAt - k.killedAt) / 1000).toFixed(1)} s`);
    try {
      k.probe = await probe(name, k.killedAt);
      k.recoveredAt = now();
      // each request of the probe has its own patience: the component's is from its kill
      if (k.recoveredAt - k.killedAt > SETTINGS.recoverS * 1000) {
        throw new Error(`recovered ${((k.recoveredAt - k.killedAt) / 1000).toFixed(1)} s after its kill, past ${SETTINGS.recoverS} s`);
      }
      log(`${name} recovered after ${((k.recoveredAt - k.killedAt) / 1000).toFixed(1)} s (probe game ${k.probe})`);
    } catch (e) {
      k.recoveredAt = now();
      k.error = e.message;
      failure(`recovery of ${name}`, 'not recovered', e.message);
    }
    await sleep(SETTINGS.gapS * 1000);
  }
}

// ---- checks afterwards ---------------------------------------------------------------------------------------------

/** Every game left in play goes on: one more move (or, with none left, a resign), then it is resigned. */
async function goOn() {
  let ok = 0;
  for (const g of [...inPlay.values()]) {
    try {
      if (!(await refresh(g))) continue;
      if (g.state.status !== 'PLAYING') {
        // its player left it in play: ended by nobody the driver knows of
        failure(`game ${g.id} in play`, g.state.status, 'a game left in play was found ended');
        finish(g);
        continue;
      }
      const moved = await move(g);
      if (!g.state.gameOver && !(await resign(g))) continue;
      if (moved || g.state.status === 'RESIGNED') ok++;
      finish(g);
    } catch (e) {
      failure(`game ${g.id} in play`, 'cannot go on', e.message);
    }
  }
  return ok;
}

async function audits(since) {
  const token = await bearer('admin');
  // each finished game: its audit, waited for
  const deadline = now() + SETTINGS.settleS * 1000;
  const missing = new Set(finished.keys());
  const wrong = [];
  while (missing.size > 0 && now() < deadline) {
    for (const id of [...missing]) {
      const r = await call(`${LEADERBOARD}/api/leaderboards/admin/audits/${id}`, { token: await bearer('admin') }).catch(() => null);
      if (r?.status !== 200) continue;
      missing.delete(id);
      const s = r.json.summary;
      const f = finished.get(id);
      if (s.score !== f.score || s.outcome === 'REJECTED') {
        wrong.push({ id, played: f, audited: { outcome: s.outcome, reason: s.reason, score: s.score } });
      }
    }
    if (missing.size > 0) await sleep(2000);
  }
  // every audit since the start, counted by game id
  const seen = new Map();
  for (let page = 0; ; page++) {
    const r = await call(`${LEADERBOARD}/api/leaderboards/admin/audits?from=${encodeURIComponent(since)}&size=100&page=${page}`, { token });
    if (r.status !== 200) throw new Error(`audit list: ${r.status} ${r.text.slice(0, 200)}`);
    for (const a of r.json.audits) seen.set(a.gameId, (seen.get(a.gameId) ?? 0) + 1);
    if (!r.json.more) break;
  }
  const duplicates = [...seen].filter(([id, n]) => n > 1 && finished.has(id)).map(([id, n]) => ({ id, audits: n }));
  const listed = [...finished.keys()].filter((id) => seen.has(id)).length;
  return { missing: [...missing], duplicates, wrong, listed, listedTotal: seen.size };
}

// ---- the run -------------------------------------------------------------------------------------------------------

async function main() {
  const since = new Date(now() - 1000).toISOString();
  const started = now();
  log(`settings ${JSON.stringify(SETTINGS)}, kills: ${TARGETS.join(', ')}`);
  await login();
  log('alice, bob and admin signed in');
  const load = Array.from({ length: SETTINGS.players }, (_, i) => player(i));
  await chaos();
  while (finished.size < SETTINGS.minGames && now() - started < SETTINGS.maxS * 1000) await sleep(1000);
  if (finished.size < SETTINGS.minGames) failure('the load', 'too few games', `${finished.size} finished in ${SETTINGS.maxS} s`);
  stopping = true;
  await Promise.all(load);
  const loadSeconds = (now() - started) / 1000;
  log(`load stopped: ${finished.size} games finished, ${inPlay.size} in play`);
  const leftInPlay = inPlay.size;
  const wentOn = await goOn();
  log(`${wentOn} of ${leftInPlay} games in play went on`);
  const a = await audits(since);

  const report = {
    settings: SETTINGS,
    loadSeconds: Math.round(loadSeconds),
    games: { finished: finished.size, byOwner: countBy([...finished.values()], (f) => f.player), leftInPlay, wentOn },
    kills: kills.map((k) => ({
      name: k.name,
      readyAfterS: +((k.readyAt - k.killedAt) / 1000).toFixed(1),
      recoveredAfterS: k.error ? null : +((k.recoveredAt - k.killedAt) / 1000).toFixed(1),
      connectionErrors: k.connectionErrors ?? 0, documented503: k.documented503 ?? 0, bad: k.bad ?? 0,
      error: k.error,
    })),
    requests: figures,
    leaderboard: {
      expected: finished.size, reached: finished.size - a.missing.length, losses: a.missing.length,
      duplicates: a.duplicates.length, wrong: a.wrong.length, listed: a.listed, auditsSinceStart: a.listedTotal,
      missing: a.missing, duplicateIds: a.duplicates, wrongGames: a.wrong,
    },
    bad5xxOrUnexpected: bad,
  };
  writeFileSync(resolve(ROOT, '.bloc/logs/chaos.json'), `${JSON.stringify(report, null, 2)}\n`);
  print(report);
  const passed = report.leaderboard.losses === 0 && report.leaderboard.duplicates === 0 && report.leaderboard.wrong === 0
    && bad.length === 0 && wentOn === leftInPlay && kills.every((k) => !k.error);
  console.log(`chaos: ${passed ? 'passed' : 'FAILED'}`);
  process.exit(passed ? 0 : 1);
}

function countBy(list, key) {
  const m = {};
  for (const x of list) m[key(x)] = (m[key(x)] ?? 0) + 1;
  return m;
}

function print(r) {
  console.log('\n==> Chaos figures (also in .bloc/logs/chaos.json)');
  console.log(`    games finished ${r.games.finished} (${Object.entries(r.games.byOwner).map(([k, v]) => `${k} ${v}`).join(', ')}) in ${r.loadSeconds} s;`
    + ` left in play ${r.games.leftInPlay}, went on ${r.games.wentOn}`);
  console.log(`    requests ${r.requests.requests}: connection errors ${r.requests.connectionErrors}, documented 503 ${r.requests.documented503},`
    + ` 429 ${r.requests.tooMany429}, moves retried ${r.requests.retriedMoves} (409 after a retry ${r.requests.alreadyPlayedAfterRetry})`);
  console.log('    kill -9             ready again   recovered  | in its window: connection errors, documented 503, failures');
  for (const k of r.kills) {
    const rec = k.recoveredAfterS === null ? 'NOT' : `${k.recoveredAfterS} s`;
    console.log(`    ${k.name.padEnd(20)}${String(k.readyAfterS).padStart(8)} s ${rec.padStart(11)}  | ${k.connectionErrors}, ${k.documented503}, ${k.bad}${k.error ? `  (${k.error})` : ''}`);
  }
  console.log('    (recovered: a guest game created, a move, a hint, resigned, and its audit read at leaderboard-service)');
  const l = r.leaderboard;
  console.log(`    leaderboard: ${l.reached} of ${l.expected} games audited, losses ${l.losses}, duplicates ${l.duplicates}, wrong verdicts ${l.wrong}`);
  for (const id of l.missing.slice(0, 10)) console.log(`      lost: ${id}`);
  for (const w of l.wrongGames.slice(0, 10)) console.log(`      wrong: ${JSON.stringify(w)}`);
  console.log(`    bad 5xx or unexpected answers: ${r.bad5xxOrUnexpected.length}`);
  for (const b of r.bad5xxOrUnexpected.slice(0, 20)) console.log(`      ${b.at} during ${b.during}: ${b.request} -> ${b.status} ${b.detail}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
