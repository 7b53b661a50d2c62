// Addresses of the local stack (./bloc up) and small HTTP helpers for the checks.
import assert from 'node:assert/strict';
import http from 'node:http';

export const KEYCLOAK = 'http://localhost:8180';
export const REALM = `${KEYCLOAK}/realms/bloc-eclat`;
export const KEYCLOAK_READY = 'http://localhost:9180/health/ready';
export const GAME = 'http://localhost:8080';
export const LEADERBOARD = 'http://localhost:8083';

// Every service process, with one endpoint that needs a bearer token and one
// that does not (docs/platform.md, "Endpoints for the e2e stage").
export const SERVICES = [
  { name: 'game-service', url: GAME, secured: '/api/players/me', open: '/api/games/info' },
  { name: 'solver-service-1', url: 'http://localhost:8081', secured: '/api/solver/whoami', open: '/api/solver/info' },
  { name: 'solver-service-2', url: 'http://localhost:8082', secured: '/api/solver/whoami', open: '/api/solver/info' },
  // two replicas of leaderboard-service, one consumer group; the web UI and the checks use the first
  { name: 'leaderboard-service-1', url: LEADERBOARD, secured: '/api/leaderboards/me', open: '/api/leaderboards/info' },
  { name: 'leaderboard-service-2', url: 'http://localhost:8084', secured: '/api/leaderboards/me', open: '/api/leaderboards/info' },
];

/**
 * One HTTP call; returns status, headers, text and the parsed JSON body when there is one. With {@code from} (a
 * loopback address such as 127.0.0.12) the request leaves from that address, so that the services key an anonymous
 * caller's limits to it as to a guest of its own (ClientKey: one budget per address), not to 127.0.0.1's.
 */
export async function call(url, { method = 'GET', token, body, headers = {}, from } = {}) {
  const h = { Accept: 'application/json', ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let payload = body;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof URLSearchParams)) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const signal = AbortSignal.timeout(15_000);
  const res = from
    ? await callFrom(from, url, { method, headers: h, body: payload === undefined ? undefined : String(payload), signal })
    : await fetch(url, { method, headers: h, body: payload, redirect: 'manual', signal })
      .then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }));
  let json;
  try { json = res.text ? JSON.parse(res.text) : undefined; } catch { json = undefined; }
  return { ...res, json };
}

// fetch cannot choose its local address (Node's own undici is not exposed): node:http can. localhost is taken as
// 127.0.0.1, since a 127.0.0.x source cannot reach ::1.
function callFrom(localAddress, url, { method, headers, body, signal }) {
  const u = new URL(url);
  if (u.hostname === 'localhost') u.hostname = '127.0.0.1';
  return new Promise((done, fail) => {
    const req = http.request(u, { method, headers, localAddress, signal }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({
        status: res.statusCode,
        headers: new Headers(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v])),
        text: Buffer.concat(chunks).toString('utf8'),
      }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** Asserts the status of a call, showing the method, URL and body when it differs. */
export async function expectStatus(expected, url, options = {}) {
  const res = await call(url, options);
  assert.equal(res.status, expected,
    `${options.method ?? 'GET'} ${url} ${options.token ? 'with a token' : 'anonymously'}: ` +
    `expected ${expected}, got ${res.status} ${res.text.slice(0, 300)}`);
  return res;
}

/** Polls fn until it returns a truthy value; fails with the last reason after timeoutMs. */
export async function eventually(what, fn, { timeoutMs = 30_000, intervalMs = 500 } = {}) {
  const start = Date.now();
  let last;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value;
      last = 'not yet';
    } catch (e) {
      last = e.message;
    }
    if (Date.now() - start > timeoutMs) {
      throw new Error(`${what}: not seen within ${timeoutMs / 1000} s (last: ${last})`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
