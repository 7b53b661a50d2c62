import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PIECES, piece } from './pieces';
import { boardRows, canPlaceAnywhere, fits, nearestFit, parseBoard, place, score, type Streak } from './rules';

const GOLDEN = join(__dirname, '../../../engine/src/test/resources/golden');
const json = (path: string) => JSON.parse(readFileSync(join(GOLDEN, path), 'utf8'));

describe('piece catalogue', () => {
  it('has the 38 pieces of RULES.md with their cell counts', () => {
    const golden = json('pieces.json') as { id: string; cells: number }[];
    expect(PIECES).toHaveLength(38);
    for (const g of golden) expect(piece(g.id).cells).toHaveLength(g.cells);
    expect(piece('T4U').rows).toEqual(['.#.', '###']);
  });
});

describe('worked examples (golden/rules/worked-examples.json)', () => {
  for (const ex of json('rules/worked-examples.json')) {
    it(ex.name, () => {
      let board = parseBoard(ex.board);
      let state: Streak = { streak: ex.streak, miss: ex.miss };
      let total = 0;
      for (const m of ex.moves) {
        const p = piece(m.piece);
        const result = place(board, p, m.row, m.col);
        const lines = result.fullRows.length + result.fullCols.length;
        const s = score(state, p.cells.length, lines, result.board.every((f) => !f));
        expect({ points: s.points, lines, streak: s.streak, miss: s.miss }).toEqual({
          points: m.points, lines: m.lines, streak: m.streak, miss: m.miss,
        });
        board = result.board;
        state = s;
        total += s.points;
      }
      expect(boardRows(board)).toEqual(ex.final.board);
      expect(total).toBe(ex.final.points);
    });
  }
});

describe('recorded games (golden/vectors) replay to their claimed score', () => {
  const files = readdirSync(join(GOLDEN, 'vectors')).filter((f) => f.endsWith('.json'));
  it('finds the ten games', () => expect(files).toHaveLength(10));
  for (const file of files) {
    it(file, () => {
      const game = json(`vectors/${file}`);
      let board = parseBoard(game.start);
      let state: Streak = { streak: 0, miss: 0 };
      let total = 0;
      let completed = 0;
      const used = new Set<string>();
      for (const m of game.moves) {
        const p = piece(game.rounds[m.round][m.slot]);
        expect(fits(board, p, m.row, m.col)).toBe(true);
        const result = place(board, p, m.row, m.col);
        const s = score(state, p.cells.length, result.fullRows.length + result.fullCols.length, result.board.every((f) => !f));
        board = result.board;
        state = s;
        total += s.points;
        used.add(`${m.round}:${m.slot}`);
        if ([0, 1, 2].every((slot) => used.has(`${m.round}:${slot}`))) completed = m.round + 1;
      }
      expect(total).toBe(game.claimedScore);
      expect(completed).toBe(game.claimedRounds);
      // The game ended (RULES.md "Game over"): no unplaced piece of the round in progress fits,
      // unless it stopped at the 200-round cap.
      if (completed < 200) {
        const round = completed;
        const left = (game.rounds[round] as string[]).filter((_, slot) => !used.has(`${round}:${slot}`));
        expect(left.length).toBeGreaterThan(0);
        expect(left.some((id) => canPlaceAnywhere(board, piece(id)))).toBe(false);
      }
    });
  }
});

describe('start boards of the golden deals', () => {
  const files = readdirSync(join(GOLDEN, 'deals')).filter((f) => f.endsWith('.json'));
  for (const file of files) {
    it(`${file}: round 0 fits on the start board`, () => {
      const deal = json(`deals/${file}`);
      const board = parseBoard(deal.start);
      for (const id of deal.rounds[0]) expect(canPlaceAnywhere(board, piece(id))).toBe(true);
    });
  }
});

describe('snapping to the nearest legal cell', () => {
  it('keeps a legal anchor and moves an overlapping one to the closest free spot', () => {
    const board = parseBoard(['#.......', ...Array(7).fill('........')]);
    expect(nearestFit(board, piece('O4'), 3, 3)).toEqual([3, 3]);
    expect(nearestFit(board, piece('O4'), 0, 0)).toEqual([0, 1]);
    expect(nearestFit(board, piece('O9'), 7, 7)).toEqual([5, 5]);
    expect(nearestFit(parseBoard(Array(8).fill('########')), piece('DOT'), 3, 3)).toBeNull();
  });
});
