/*
 * Keycloak login by authorization code + PKCE, without a library: the redirect, the code exchange,
 * silent refresh, and logout. Tokens live in sessionStorage (one tab's session, gone with it).
 */
import { config } from './config';
import { sha256 } from './sha256';
import { session } from './store';

interface Tokens {
  access: string;
  refresh: string;
  id: string;
  expiresAt: number;
}

export interface User {
  subject: string;
  name: string;
  roles: string[];
}

const TOKENS = 'bloc.tokens';
const PENDING = 'bloc.login';
const ENDED = 'bloc.sessionEnded';

/**
 * The login session ended under the player (Keycloak refused the refresh: idle past its timeout, or past the
 * session's maximum). Until the player logs in again or chooses to go on as a guest, game-service's calls that would
 * have carried their token fail with this instead of going out without one (the boards' and the solver's go out as a
 * guest's): a player silently made a guest got a guest
 * game, which never counts, and 403 on the game they were playing.
 */
export class SessionEnded extends Error {
  constructor() {
    super('session ended');
  }
}

/** Keycloak refused the grant (400 or 401), as opposed to being unreachable, failing (5xx) or throttling (429). */
class Refused extends Error {}

let tokens: Tokens | null = readTokens();
let refreshing: Promise<void> | null = null;
let ended = session.get(ENDED) === '1';
const endedListeners: (() => void)[] = [];

/**
 * The tokens kept by the tab, or null when none are kept or those kept cannot be read (not JSON, not tokens, or an
 * access or id token that is no JWT): forgotten then, and the player is a guest. Read as they were, they threw at the
 * first drawing of the page's header and left the page blank, whatever the player did, until the tab was closed.
 */
function readTokens(): Tokens | null {
  try {
    const kept = JSON.parse(session.get(TOKENS) ?? 'null') as Tokens | null;
    if (kept === null) return null;
    if (typeof kept.access === 'string' && typeof kept.refresh === 'string' && typeof kept.id === 'string'
      && typeof kept.expiresAt === 'number' && readable(kept.access) && readable(kept.id)) {
      return kept;
    }
  } catch {
    // unreadable: forgotten below
  }
  session.remove(TOKENS);
  return null;
}

function endpoint(name: 'auth' | 'token' | 'logout'): string {
  const c = config();
  return `${c.keycloakUrl}/realms/${c.realm}/protocol/openid-connect/${name}`;
}

function redirectUri(): string {
  return `${location.origin}${location.pathname}`;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

function claims(jwt: string): Record<string, unknown> {
  const part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0))));
}

/** Whether a token is a JWT whose claims can be read. */
function readable(jwt: string): boolean {
  const c: unknown = claims(jwt);
  return typeof c === 'object' && c !== null;
}

export function user(): User | null {
  if (!tokens) return null;
  const access = claims(tokens.access);
  const id = claims(tokens.id);
  const realmAccess = access.realm_access as { roles?: string[] } | undefined;
  return {
    subject: String(access.sub),
    name: String(id.preferred_username ?? id.name ?? access.preferred_username ?? access.sub),
    roles: realmAccess?.roles ?? [],
  };
}

export function isAdmin(): boolean {
  return user()?.roles.includes('admin') ?? false;
}

/** Sends the browser to Keycloak; it comes back to this page with a code. */
export async function login(): Promise<void> {
  const verifier = randomString();
  const state = randomString();
  const bytes = new TextEncoder().encode(verifier);
  const digest = crypto.subtle ? new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)) : sha256(bytes);
  session.set(PENDING, JSON.stringify({ verifier, state, hash: location.hash }));
  const params = new URLSearchParams({
    client_id: config().clientId,
    redirect_uri: redirectUri(),
    response_type: 'code',
    scope: 'openid',
    state,
    code_challenge: base64url(digest),
    code_challenge_method: 'S256',
  });
  location.assign(`${endpoint('auth')}?${params}`);
}

async function tokenRequest(body: Record<string, string>): Promise<void> {
  const res = await fetch(endpoint('token'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: config().clientId, ...body }),
  });
  if (!res.ok) {
    // Only a refusal of the grant ends the session. Keycloak failing (5xx) or throttling (429) leaves the tokens:
    // the access token may still hold, and the next call retries.
    if (res.status !== 400 && res.status !== 401) throw new Error(`Keycloak answered ${res.status}`);
    tokens = null;
    session.remove(TOKENS);
    throw new Refused(`Keycloak answered ${res.status}`);
  }
  const json = await res.json();
  tokens = {
    access: json.access_token,
    refresh: json.refresh_token,
    id: json.id_token ?? tokens?.id,
    expiresAt: Date.now() + json.expires_in * 1000,
  };
  session.set(TOKENS, JSON.stringify(tokens));
}

/** On start: finishes a login when Keycloak sent the browser back with a code. */
export async function completeLogin(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const code = query.get('code');
  const pending = JSON.parse(session.get(PENDING) ?? 'null');
  if (code && !pending) {
    // sent back by Keycloak, but the login's check was not kept (the browser keeps no data for this site)
    history.replaceState(null, '', location.pathname + location.hash);
    throw new Error('the login could not be completed: this browser keeps no data for this site');
  }
  if (!code || !pending) return;
  session.remove(PENDING);
  // The code leaves the address bar whatever happens next.
  history.replaceState(null, '', `${location.pathname}${pending.hash ?? ''}`);
  if (query.get('state') !== pending.state) throw new Error('login answer does not match the request (state)');
  await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: pending.verifier });
  setEnded(false);
}

/**
 * A valid access token, refreshed when it is about to expire; null for a guest.
 *
 * @throws SessionEnded when the player's login session has ended (above)
 */
export async function accessToken(): Promise<string | null> {
  if (ended) throw new SessionEnded();
  if (!tokens) return null;
  if (Date.now() > tokens.expiresAt - 20_000) {
    refreshing ??= tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh })
      .catch((e) => {
        if (e instanceof Refused) setEnded(true);
      })
      .finally(() => (refreshing = null));
    await refreshing;
    if (ended) throw new SessionEnded();
  }
  return tokens?.access ?? null;
}

/** Whether the session ended under the player, kept by the tab (a reload still says so); the listeners told. */
function setEnded(value: boolean): void {
  ended = value;
  if (value) session.set(ENDED, '1');
  else session.remove(ENDED);
  endedListeners.forEach((l) => l());
}

/** Whether the player's login session ended under them and they have not yet logged in again or gone on as a guest. */
export function sessionEnded(): boolean {
  return ended;
}

export function onSessionEnded(listener: () => void): void {
  endedListeners.push(listener);
}

/** After a session ended: the player goes on as a guest, knowingly. */
export function continueAsGuest(): void {
  setEnded(false);
}

export function logout(): void {
  const id = tokens?.id;
  tokens = null;
  setEnded(false);
  session.remove(TOKENS);
  const params = new URLSearchParams({ client_id: config().clientId, post_logout_redirect_uri: redirectUri() });
  if (id) params.set('id_token_hint', id);
  location.assign(`${endpoint('logout')}?${params}`);
}
