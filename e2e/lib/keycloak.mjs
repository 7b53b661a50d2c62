// Tokens from the real Keycloak: a person's through the browser login of the
// public web-ui client (authorization code + PKCE S256, as the web UI does it),
// a service's through the client credentials of bloc-services.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { GAME, REALM } from './stack.mjs';

export const AUTH_ENDPOINT = `${REALM}/protocol/openid-connect/auth`;
export const TOKEN_ENDPOINT = `${REALM}/protocol/openid-connect/token`;
export const REDIRECT_URI = `${GAME}/`;

const base64url = (buf) => buf.toString('base64url');

/** The claims of a JWT, unverified (the services verify; the checks only read). */
export function claims(jwt) {
  const [, payload] = jwt.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** Opens the authorization endpoint; returns the URL Keycloak sends the browser back to. */
export async function authorize(browser, params, credentials) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // The redirect back to the web UI is where the code arrives. Nothing the
    // web UI serves may load, so its scripts cannot redeem the code first.
    let redirectedTo;
    page.on('request', (req) => {
      if (!redirectedTo && req.isNavigationRequest() && req.url().startsWith(REDIRECT_URI)) {
        redirectedTo = new URL(req.url());
      }
    });
    await page.route((u) => u.origin === GAME, (route) => route.fulfill({ status: 204 }));
    const url = `${AUTH_ENDPOINT}?${new URLSearchParams({
      client_id: 'web-ui', response_type: 'code', scope: 'openid', redirect_uri: REDIRECT_URI, ...params,
    })}`;
    await page.goto(url);
    if (credentials && !redirectedTo) {
      await page.fill('#username', credentials.username);
      await page.fill('#password', credentials.password);
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(REDIRECT_URI), { timeout: 30_000 }).catch(() => {}),
        page.click('#kc-login'),
      ]);
    }
    if (!redirectedTo) {
      const text = (await page.textContent('body'))?.replace(/\s+/g, ' ').trim().slice(0, 300);
      assert.fail(`Keycloak did not redirect back to ${REDIRECT_URI}; the page at ${page.url()} says: ${text}`);
    }
    return redirectedTo;
  } finally {
    await context.close();
  }
}

/** Signs in as username in Chromium and exchanges the code (with its PKCE verifier) for tokens. */
export async function loginAs(browser, username, password = username) {
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const state = base64url(randomBytes(16));
  const back = await authorize(browser, {
    state, code_challenge: challenge, code_challenge_method: 'S256',
  }, { username, password });
  assert.equal(back.searchParams.get('state'), state, `state returned by Keycloak in ${back.href}`);
  const code = back.searchParams.get('code');
  assert.ok(code, `no code in the redirect: ${back.href}`);
  return exchange({ grant_type: 'authorization_code', client_id: 'web-ui', code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
}

/** A token for the services' own client (client credentials). */
export function serviceToken() {
  return exchange({ grant_type: 'client_credentials', client_id: 'bloc-services', client_secret: 'bloc-services-secret' });
}

/** POSTs to the token endpoint; returns the JSON answer, or throws with Keycloak's error. */
export async function exchange(form, { expectOk = true } = {}) {
  const res = await fetch(TOKEN_ENDPOINT, { method: 'POST', body: new URLSearchParams(form), signal: AbortSignal.timeout(15_000) });
  const body = await res.json();
  if (expectOk && !res.ok) {
    throw new Error(`token endpoint refused ${form.grant_type} for ${form.client_id}: ${res.status} ${JSON.stringify(body)}`);
  }
  return { status: res.status, ...body };
}
