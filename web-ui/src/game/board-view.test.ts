import { describe, expect, it } from 'vitest';
import { dropAnchor } from './board-view';
import { piece } from './pieces';
import { parseBoard } from './rules';

/**
 * docs/web-ui.md, "Playing", Drag: "the ghost shows where it lands, snapped to the nearest legal anchor within 1.5
 * cells ... A drop away from any legal cell sends the piece back to the tray". dropAnchor is the drag's decision
 * (BoardView's pointermove): null is the tray.
 */
const PITCH = 40; // pixels from one cell to the next

/** A full board but for the cells given as [row, col]. */
function fullBut(...free: [number, number][]): boolean[] {
  const rows = Array.from({ length: 8 }, (_, r) => [...'########'].map((ch, c) => (free.some(([fr, fc]) => fr === r && fc === c) ? '.' : ch)).join(''));
  return parseBoard(rows);
}

/** The piece's top-left corner held over cell (row, col), plus a fraction of a cell. */
const at = (row: number, col: number, dy = 0, dx = 0) => [(col + dx) * PITCH, (row + dy) * PITCH] as const;

describe('the drag ghost snaps to a legal anchor within 1.5 cells', () => {
  const dot = piece('DOT');
  const board = fullBut([4, 4]);

  it('a piece held on a legal cell lands there', () => {
    expect(dropAnchor(board, dot, ...at(4, 4), PITCH)).toEqual([4, 4]);
    // within the cell under the corner (rounded to the nearest cell)
    expect(dropAnchor(board, dot, ...at(4, 4, 0.4, -0.4), PITCH)).toEqual([4, 4]);
  });

  it('one cell away, straight or diagonally (√2 ≈ 1.41 cells), it snaps to the legal cell', () => {
    for (const [r, c] of [[3, 4], [5, 4], [4, 3], [4, 5], [3, 3], [3, 5], [5, 3], [5, 5]] as const) {
      expect(dropAnchor(board, dot, ...at(r, c), PITCH), `held over ${r},${c}`).toEqual([4, 4]);
    }
  });

  it('two cells away (or √5) is too far: the drop goes back to the tray', () => {
    for (const [r, c] of [[2, 4], [6, 4], [4, 2], [4, 6], [2, 3], [5, 6], [2, 2]] as const) {
      expect(dropAnchor(board, dot, ...at(r, c), PITCH), `held over ${r},${c}`).toBeNull();
    }
  });

  it('of two legal anchors in reach, the nearer one', () => {
    const two = fullBut([2, 2], [4, 4]);
    expect(dropAnchor(two, dot, ...at(3, 4), PITCH)).toEqual([4, 4]); // 1 from (4,4), √5 from (2,2)
    expect(dropAnchor(two, dot, ...at(2, 3), PITCH)).toEqual([2, 2]); // 1 from (2,2), √5 from (4,4)
  });

  it('a piece wholly off the grid lands nowhere, even beside a free cell', () => {
    const corner = fullBut([0, 0]);
    expect(dropAnchor(corner, dot, ...at(0, 0), PITCH)).toEqual([0, 0]);
    expect(dropAnchor(corner, dot, ...at(-1, 0), PITCH)).toBeNull();
    expect(dropAnchor(corner, dot, ...at(0, -1), PITCH)).toBeNull();
    expect(dropAnchor(corner, dot, ...at(8, 7), PITCH)).toBeNull();
  });

  it('a larger piece snaps by its anchor (top-left corner) the same way', () => {
    const o4 = piece('O4');
    const hole = fullBut([3, 3], [3, 4], [4, 3], [4, 4]);
    expect(dropAnchor(hole, o4, ...at(4, 4), PITCH)).toEqual([3, 3]);
    expect(dropAnchor(hole, o4, ...at(5, 3), PITCH)).toBeNull();
  });
});
