// Addresses of the local stack (./bloc up) and small HTTP helpers for the checks.
import assert from 'node:assert/strict';

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

/** One HTTP call; returns status, headers, text and the parsed JSON body when there is one. */
export async function call(url, { method = 'GET', token, body, headers = {} } = {}) {
  const h = { Accept: 'application/json', ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  let payload = body;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof URLSearchParams)) {
    h['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(url, { method, headers: h, body: payload, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  const text = await res.text();
  let json;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: res.status, headers: res.headers, text, json };
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
