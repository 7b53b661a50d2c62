import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayJson, stepReplay, summary, type ReplayData } from './replay';

const GOLDEN = join(__dirname, '../../../engine/src/test/resources/golden');
const json = (path: string) => JSON.parse(readFileSync(join(GOLDEN, path), 'utf8'));
const listing = (dir: string) => readdirSync(join(GOLDEN, dir)).filter((f) => f.endsWith('.json'));

/**
 * A golden vector as a replay: moves become place events. Its start board comes from another
 * implementation's generator (vectors/README.md), so it is given rather than derived from the seed.
 */
function asReplay(game: { seed: number; start: string[]; level: ReplayData['level']; rounds: string[][]; moves: { round: number; slot: number; row: number; col: number }[]; claimedScore: number; claimedRounds: number }): ReplayData {
  return {
    rulesVersion: 1, seed: game.seed, level: game.level, assisted: false, claimedScore: game.claimedScore, claimedRounds: game.claimedRounds,
    rounds: game.rounds, events: game.moves.map((m) => ({ type: 'place', ...m })), start: game.start,
  };
}

describe('stepping the golden games (golden/vectors) reaches their claimed score', () => {
  for (const file of listing('vectors')) {
    it(file, () => {
      const game = json(`vectors/${file}`);
      const replay = asReplay(game);
      const stepped = stepReplay(replay);
      expect(stepped.error).toBeUndefined();
      expect(stepped.steps).toHaveLength(game.moves.length + 1);
      expect(stepped.steps[0].board).toEqual(game.start);
      expect(stepped.steps[0].score).toBe(0);
      const last = stepped.steps[stepped.steps.length - 1];
      expect(last.score).toBe(game.claimedScore);
      expect(last.round).toBe(game.claimedRounds);
      expect(summary(replay, stepped).matchesClaim).toBe(true);
      if (game.claimedRounds < 200) expect(last.gameOver).toBe(true);
      // Scores never go down and each step's points add up.
      for (let i = 1; i < stepped.steps.length; i++) {
        const s = stepped.steps[i];
        expect(s.score).toBe(stepped.steps[i - 1].score + (s.outcome?.points ?? 0));
      }
    });
  }
});

describe('hints, undos and tampering', () => {
  const game = json(`vectors/${listing('vectors')[0]}`);
  const base = asReplay(game);

  it('a replay without its start board is refused in words', () => {
    expect(stepReplay({ ...base, start: undefined })).toEqual({ steps: [], error: 'the replay comes without its start board' });
  });

  it('an undo takes back the last placement; a hint changes nothing but marks the game assisted', () => {
    const events = [base.events[0], { type: 'hint', round: 0 }, base.events[1], { type: 'undo', round: 0 }, base.events[1], ...base.events.slice(2)];
    const stepped = stepReplay({ ...base, events, assisted: true });
    expect(stepped.error).toBeUndefined();
    const s = stepped.steps;
    expect(s[2].board).toEqual(s[1].board);
    expect(s[2].assisted).toBe(true);
    expect(s[4].board).toEqual(s[2].board);
    expect(s[4].score).toBe(s[2].score);
    expect(s[4].pieces.map((p) => p.placed)).toEqual(s[2].pieces.map((p) => p.placed));
    expect(s[5].board).toEqual(s[3].board);
    expect(s[s.length - 1].score).toBe(game.claimedScore);
  });

  it('an undo with nothing to take back is an error', () => {
    expect(stepReplay({ ...base, events: [{ type: 'UNDO', round: 0 }] }).error).toMatch(/nothing to undo/);
  });

  it('a placement on a filled cell stops the steps with the reason', () => {
    const first = base.events[0];
    const stepped = stepReplay({ ...base, events: [first, { ...first }] });
    expect(stepped.steps).toHaveLength(2);
    expect(stepped.error).toMatch(/^move 2: .* (does not fit|already placed)/);
  });

  it('a tampered claimed score is reported by the summary, the steps still play', () => {
    const replay = { ...base, claimedScore: base.claimedScore! + 100 };
    const stepped = stepReplay(replay);
    expect(stepped.error).toBeUndefined();
    expect(summary(replay, stepped)).toMatchObject({ score: game.claimedScore, matchesClaim: false });
  });
});

describe('64-bit seeds', () => {
  it('parseReplayJson keeps a seed JSON.parse would round', () => {
    const text = '{"summary":{"gameId":"x"},"seed":-7046029254386353131,"replay":{"rulesVersion":1,"seed":-7046029254386353131,"level":"HARD"}}';
    const parsed = parseReplayJson<{ seed: string; replay: { seed: string; level: string } }>(text);
    expect(parsed.seed).toBe('-7046029254386353131');
    expect(parsed.replay.seed).toBe('-7046029254386353131');
    expect(parsed.replay.level).toBe('HARD');
  });

});
