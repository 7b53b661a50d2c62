import { describe, expect, it } from 'vitest';
import { parseBoard } from '../game/rules';
import { replaySequence, STONE } from './solver-steps';

const WORKED = ['..######', '........', '#.......', '#.......', '#.......', '#....#..', '#.......', '#.......'];
const FINAL = ['........', '........', '........', '........', '........', '.....#..', '........', '........'];
const L3A = { id: 'L3A', rows: ['##', '#.'] };

describe('replaying an answer', () => {
  it('shows the worked example placed, then cleared, ending on the answer board', () => {
    const answer = { placements: [{ piece: 0, row: 0, col: 0 }], points: 93, lines: 2, streak: 3, miss: 0, board: FINAL, gameOver: false };
    const { frames, agrees, error } = replaySequence(parseBoard(WORKED), [L3A], { streak: 2, miss: 1 }, answer);
    expect(error).toBeUndefined();
    expect(agrees).toBe(true);
    expect(frames.map((f) => f.kind)).toEqual(['start', 'placed', 'cleared']);
    const placed = frames[1];
    expect(placed.placed).toEqual([[0, 0], [0, 1], [1, 0]]);
    expect(placed.board.every(Boolean)).toBe(false);
    expect(placed.board[0] && placed.board[1] && placed.board[8]).toBe(true);
    expect(placed.clearing).toHaveLength(15); // row 0 and column 0, their corner once
    expect(placed.colours[0]).toBe(3); // the L3 family's colour
    expect(placed.colours[2]).toBe(STONE);
    expect([placed.points, placed.lines, placed.totalPoints]).toEqual([93, 2, 93]);
    expect(frames[2].board).toEqual(parseBoard(FINAL));
    expect(frames[2].colours[5 * 8 + 5]).toBe(STONE);
  });

  it('has no cleared frame for a placement that clears nothing, and notices a disagreement', () => {
    const seq = { placements: [{ piece: 1, row: 7, col: 7 }], points: 1, lines: 0, streak: 0, miss: 1, board: FINAL, gameOver: true };
    const { frames, agrees } = replaySequence(parseBoard(FINAL), [L3A, { rows: ['#'] }], { streak: 0, miss: 0 }, seq);
    expect(frames.map((f) => f.kind)).toEqual(['start', 'placed']);
    expect(frames[1].colours[63]).toBe(11);
    expect(agrees).toBe(false); // the board has gained the dot
  });

  it('reports a placement that does not fit instead of throwing', () => {
    const seq = { placements: [{ piece: 0, row: 7, col: 7 }], points: 0, lines: 0, streak: 0, miss: 0, board: FINAL, gameOver: false };
    const r = replaySequence(parseBoard(FINAL), [L3A], { streak: 0, miss: 0 }, seq);
    expect(r.error).toMatch(/does not fit/);
  });
});
