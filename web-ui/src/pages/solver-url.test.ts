import { describe, expect, it } from 'vitest';
import { parseBoard } from '../game/rules';
import {
  boardFromText, boardToHex, decodePosition, drawnPiece, emptyPosition, encodePosition, pieceFromToken, pieceToToken, trimRows,
} from './solver-url';

// RULES.md worked example (golden/rules/worked-examples.json, first entry).
const WORKED = ['..######', '........', '#.......', '#.......', '#.......', '#....#..', '#.......', '#.......'];

describe('board in the URL', () => {
  it('is a byte per row in hex, column 0 the high bit', () => {
    expect(boardToHex(parseBoard(WORKED))).toBe('3f00808080848080');
    expect(boardToHex(emptyPosition().board)).toBe('0000000000000000');
  });

  it('reads back hex (any case) and 64 characters of # and .', () => {
    expect(boardFromText('3F00808080848080')).toEqual(parseBoard(WORKED));
    expect(boardFromText(WORKED.join(''))).toEqual(parseBoard(WORKED));
    expect(boardFromText(WORKED.join('/'))).toEqual(parseBoard(WORKED));
    expect(boardFromText(WORKED.join('').replace(/#/g, 'x'))).toEqual(parseBoard(WORKED));
  });

  it('refuses anything else', () => {
    for (const bad of ['', '3f0080808084808', 'zz00808080848080', '#'.repeat(63), '#'.repeat(65), 'abc']) {
      expect(boardFromText(bad)).toBeNull();
    }
  });

  it('round-trips every board of a few random fills', () => {
    let seed = 7;
    for (let n = 0; n < 50; n++) {
      const board = Array.from({ length: 64 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) & 1024) !== 0);
      expect(boardFromText(boardToHex(board))).toEqual(board);
    }
  });
});

describe('pieces in the URL', () => {
  it('writes catalogue ids as they are and drawn shapes as rows of x and .', () => {
    expect(pieceToToken({ id: 'T4U', rows: ['.#.', '###'] })).toBe('T4U');
    expect(pieceToToken({ rows: ['##', '.#', '##'] })).toBe('xx/.x/xx');
    expect(pieceToToken(null)).toBe('');
  });

  it('reads ids in any case, drawn rows with x or #, and gives a drawn catalogue shape its id', () => {
    expect(pieceFromToken('l3a')).toEqual({ id: 'L3A', rows: ['##', '#.'] });
    expect(pieceFromToken('xx/.x/xx')).toEqual({ rows: ['##', '.#', '##'] });
    expect(pieceFromToken('##/.#')).toEqual({ id: 'L3B', rows: ['##', '.#'] });
    expect(pieceFromToken('..../.xx./....')).toEqual({ id: 'I2H', rows: ['##'] });
  });

  it('drops empty, unknown or oversized entries', () => {
    for (const bad of ['', ' ', 'Q7', '..', 'x'.repeat(9), 'ab/cd']) expect(pieceFromToken(bad)).toBeNull();
  });

  it('trims a drawing to its bounding box', () => {
    expect(trimRows(['.....', '..#..', '.###.', '.....', '.....'])).toEqual(['.#.', '###']);
    expect(trimRows(['.....', '.....'])).toEqual([]);
    expect(drawnPiece(['.....', '..#..', '.###.'])).toEqual({ id: 'T4U', rows: ['.#.', '###'] });
    expect(drawnPiece(['#.#'])).toEqual({ rows: ['#.#'] });
    expect(drawnPiece(['...'])).toBeNull();
  });
});

describe('the whole position', () => {
  it('encodes the worked example compactly', () => {
    const p = { ...emptyPosition(), board: parseBoard(WORKED), pieces: [{ id: 'L3A', rows: ['##', '#.'] }, null, null], streak: 2, miss: 1 };
    expect(encodePosition(p)).toBe('b=3f00808080848080&p=L3A&s=2&m=1&mode=maxLines');
    expect(decodePosition(encodePosition(p))).toEqual(p);
  });

  it('keeps empty slots in place, the hint level, and round-trips', () => {
    const p = {
      ...emptyPosition(),
      pieces: [null, { rows: ['#.#'] }, { id: 'O9', rows: ['###', '###', '###'] }],
      streak: 12, miss: 2, mode: 'hint' as const, level: 'EXPERT' as const,
    };
    const query = encodePosition(p);
    expect(query).toBe('p=,x.x,O9&s=12&m=2&mode=hint&l=EXPERT');
    expect(decodePosition(query)).toEqual(p);
    expect(decodePosition(new URLSearchParams(query))).toEqual(p);
  });

  it('reads the form of the issue, with # left raw or percent-encoded', () => {
    const p = decodePosition('?b=' + '.'.repeat(64) + '&p=T4U,O4,##/.#&s=0&m=0&mode=maxLines');
    expect(p.pieces).toEqual([{ id: 'T4U', rows: ['.#.', '###'] }, { id: 'O4', rows: ['##', '##'] }, { id: 'L3B', rows: ['##', '.#'] }]);
    expect(decodePosition('p=T4U,O4,%23%23/%23.').pieces[2]).toEqual({ id: 'L3A', rows: ['##', '#.'] });
  });

  it('falls back to defaults for missing or bad values', () => {
    expect(decodePosition('')).toEqual(emptyPosition());
    const p = decodePosition('b=nope&p=Q7,,DOT,I2H&s=-4&m=9&mode=ai&l=NIGHTMARE');
    expect(p.board).toEqual(emptyPosition().board);
    expect(p.pieces).toEqual([null, null, { id: 'DOT', rows: ['#'] }]);
    expect([p.streak, p.miss, p.mode, p.level]).toEqual([0, 2, 'maxLines', 'HARD']);
  });
});
