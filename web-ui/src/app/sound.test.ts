import { describe, expect, it } from 'vitest';
import { cuesFor, notesFor, vibrationFor } from './sound';

const outcome = (lines: number, multiplier: number, cleanBonus = 0, gameOver = false) => ({ lines, multiplier, cleanBonus, gameOver });

describe('sound scheduling', () => {
  it('a placement without a line is one short note; a clear adds its arpeggio; a clean board and game over follow', () => {
    expect(cuesFor(outcome(0, 0))).toEqual([{ kind: 'place' }]);
    expect(cuesFor(outcome(2, 3))).toEqual([{ kind: 'place' }, { kind: 'clear', lines: 2, multiplier: 3 }]);
    expect(cuesFor(outcome(1, 1, 400, true)).map((c) => c.kind)).toEqual(['place', 'clear', 'clean', 'over']);
    expect(notesFor({ kind: 'place' })).toHaveLength(1);
  });

  it('a clear sounds one note per line (at most five), rising within the arpeggio', () => {
    for (const lines of [1, 2, 3, 4, 5, 7]) {
      const notes = notesFor({ kind: 'clear', lines, multiplier: 1 });
      expect(notes).toHaveLength(Math.min(lines, 5));
      for (let i = 1; i < notes.length; i++) {
        expect(notes[i].freq).toBeGreaterThan(notes[i - 1].freq);
        expect(notes[i].at).toBeGreaterThan(notes[i - 1].at);
      }
    }
  });

  it('the pitch rises with the streak, two semitones a step, up to ×8', () => {
    const first = (multiplier: number) => notesFor({ kind: 'clear', lines: 1, multiplier })[0].freq;
    expect(first(1)).toBeCloseTo(440, 6);
    for (let m = 2; m <= 8; m++) {
      expect(first(m)).toBeGreaterThan(first(m - 1));
      expect(first(m) / first(m - 1)).toBeCloseTo(Math.pow(2, 2 / 12), 9);
    }
    expect(first(9)).toBe(first(8)); // the multiplier stops at ×8 (RULES.md), so does the pitch
  });

  it('game over falls; every note is audible, short and starts after the cue', () => {
    const over = notesFor({ kind: 'over' });
    for (let i = 1; i < over.length; i++) expect(over[i].freq).toBeLessThan(over[i - 1].freq);
    for (const cue of [{ kind: 'place' }, { kind: 'clear', lines: 3, multiplier: 4 }, { kind: 'clean' }, { kind: 'over' }] as const) {
      for (const n of notesFor(cue)) {
        expect(n.at).toBeGreaterThanOrEqual(0);
        expect(n.duration).toBeGreaterThan(0);
        expect(n.duration).toBeLessThanOrEqual(0.5);
        expect(n.gain).toBeGreaterThan(0);
        expect(n.gain).toBeLessThanOrEqual(0.3);
        expect(n.freq).toBeGreaterThan(60);
        expect(n.freq).toBeLessThan(5000);
      }
      expect(vibrationFor(cue).every((ms) => ms > 0 && ms <= 300)).toBe(true);
    }
  });
});
