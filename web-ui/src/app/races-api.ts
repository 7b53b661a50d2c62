/** game-service's private races by link (PrivateRaceResource): the one place that reads those answers. */
import { call, rememberGameToken, type Level, type Match } from './api';
import { segment } from './paths';

export interface PrivateRaceLink {
  code: string;
  level: Level;
  host: string;
  expiresAt: string;
  status: 'OPEN' | 'STARTED' | 'EXPIRED';
  /** For its two players only, once started. */
  matchId?: string | null;
}

export const privateRaces = {
  create: (level: Level) => call<PrivateRaceLink>('', '/api/races/private', { method: 'POST', body: { level } }),
  get: (code: string) => call<PrivateRaceLink>('', `/api/races/private/${segment(code)}`),
  async join(code: string): Promise<Match> {
    const match = await call<Match>('', `/api/races/private/${segment(code)}/join`, { method: 'POST' });
    rememberGameToken([match.id, ...match.games.map((g) => g.id)], match.gameToken);
    return match;
  },
};

/** The page a friend opens. */
export function inviteUrl(origin: string, code: string): string {
  return `${origin}/#/invite/${encodeURIComponent(code)}`;
}
