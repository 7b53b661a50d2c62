import { describe, expect, it } from 'vitest';
import { BOARD_SIZE, emptyBoard } from './board';
import { MODES } from './modes';

describe('empty board', () => {
  it('has 64 distinct cells in row order', () => {
    const cells = emptyBoard();
    expect(BOARD_SIZE).toBe(8);
    expect(cells).toHaveLength(64);
    expect(new Set(cells.map((c) => `${c.row},${c.col}`)).size).toBe(64);
    expect(cells[0]).toEqual({ row: 0, col: 0 });
    expect(cells[9]).toEqual({ row: 1, col: 1 });
    expect(cells[63]).toEqual({ row: 7, col: 7 });
  });
});

describe('modes', () => {
  it('lists the four modes, the leaderboards and the solver once each', () => {
    expect(MODES.map((m) => m.id)).toEqual([
      'solo', 'versus-ai', 'two-players', 'online-race', 'leaderboards', 'solver',
    ]);
  });
});
