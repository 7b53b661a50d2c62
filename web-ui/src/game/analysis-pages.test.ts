import { describe, expect, it, vi } from 'vitest';

const asked: string[] = [];
vi.mock('../app/config', () => ({ config: () => ({ solverUrl: 'http://solver' }) }));
vi.mock('../app/api', () => ({
  call: async (_base: string, path: string) => {
    asked.push(path);
    const from = Number(new URL(path, 'http://x').searchParams.get('fromRound'));
    return { totalRounds: 100, fromRound: from, nextRound: from + 10 < 100 ? from + 10 : -1, complete: from + 10 >= 100, moves: [], rounds: [] };
  },
}));

const replay = { rulesVersion: 1, seed: 7, level: 'EASY', events: [], rounds: [], claimedScore: 0, claimedRounds: 0, assisted: false } as never;

describe('the analysis asks page by page', () => {
  it('every page while someone looks, then stops', async () => {
    const { analyse } = await import('./analysis');
    asked.length = 0;
    await analyse(replay, () => undefined);
    expect(asked).toHaveLength(10);
  });

  it('no page more once the page showing it was left (the pages left behind went on asking solver-service)', async () => {
    const { analyse } = await import('./analysis');
    asked.length = 0;
    let shown = true;
    await analyse(replay, (page) => { if (page.fromRound === 20) shown = false; }, 20, () => shown);
    expect(asked).toEqual(['/api/solver/analyse?fromRound=0', '/api/solver/analyse?fromRound=10', '/api/solver/analyse?fromRound=20']);
  });
});
