/** Where the browser finds the other services and Keycloak: game-service's /config.json. */
export interface UiConfig {
  solverUrl: string;
  leaderboardUrl: string;
  keycloakUrl: string;
  realm: string;
  clientId: string;
}

let loaded: UiConfig | null = null;

export async function loadConfig(): Promise<UiConfig> {
  if (!loaded) {
    const res = await fetch('/config.json', { cache: 'no-cache' });
    if (!res.ok) throw new Error(`/config.json: HTTP ${res.status}`);
    const c = (await res.json()) as UiConfig;
    const trim = (u: string) => u.replace(/\/+$/, '');
    loaded = { ...c, solverUrl: trim(c.solverUrl), leaderboardUrl: trim(c.leaderboardUrl), keycloakUrl: trim(c.keycloakUrl) };
  }
  return loaded;
}

export function config(): UiConfig {
  if (!loaded) throw new Error('configuration not loaded yet');
  return loaded;
}
