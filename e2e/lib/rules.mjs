// An oracle for the UI tests: which placements fit and what they clear, from the engine's golden
// piece catalogue, so the tests choose moves and predict the ghost and the clear preview.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CATALOGUE = resolve(dirname(fileURLToPath(import.meta.url)), '../../engine/src/test/resources/golden/pieces.json');
const PIECES = new Map(JSON.parse(readFileSync(CATALOGUE, 'utf8')).map((p) => [p.id, p]));

export function cellsOf(id) {
  const cells = [];
  PIECES.get(id).rows.forEach((line, r) => [...line].forEach((ch, c) => ch === '#' && cells.push([r, c])));
  return cells;
}

export function fits(board, id, row, col) {
  return cellsOf(id).every(([r, c]) => row + r < 8 && col + c < 8 && board[row + r][col + c] === '.');
}

/** The cells a placement fills and the cells it clears (every full row and column at once). */
export function outcome(board, id, row, col) {
  const grid = board.map((line) => [...line]);
  const placed = cellsOf(id).map(([r, c]) => [row + r, col + c]);
  for (const [r, c] of placed) grid[r][c] = '#';
  const cleared = [];
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      if (grid[r].every((x) => x === '#') || grid.every((line) => line[c] === '#')) cleared.push([r, c]);
    }
  }
  return { placed, cleared };
}

/**
 * A placement for one of the tray's pieces: the one that clears most, then fills the top rows
 * from the left (so a few moves lead to a clear); null when nothing fits.
 */
export function choose(board, pieces) {
  let best = null;
  for (const { slot, id } of pieces) {
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        if (!fits(board, id, row, col)) continue;
        const o = outcome(board, id, row, col);
        const value = o.cleared.length * 1000 - row * 20 - col;
        if (!best || value > best.value) best = { slot, id, row, col, value, ...o };
      }
    }
  }
  return best;
}
