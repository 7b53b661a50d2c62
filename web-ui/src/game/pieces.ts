import catalogue from '../../../engine/src/test/resources/golden/pieces.json';

/** A catalogue piece: its cells relative to its top-left corner. */
export interface PieceShape {
  id: string;
  pieceClass: 'small' | 'medium' | 'large';
  rows: string[];
  cells: [number, number][];
  height: number;
  width: number;
}

export function shapeOf(id: string, rows: string[], pieceClass: PieceShape['pieceClass'] = 'small'): PieceShape {
  const cells: [number, number][] = [];
  rows.forEach((line, r) => [...line].forEach((ch, c) => ch === '#' && cells.push([r, c])));
  return { id, pieceClass, rows, cells, height: rows.length, width: Math.max(...rows.map((l) => l.length)) };
}

/** The 38 pieces, in catalogue order, read from the engine's golden file. */
export const PIECES: readonly PieceShape[] = catalogue.map((p) =>
  shapeOf(p.id, p.rows, p.class as PieceShape['pieceClass']),
);

const BY_ID = new Map(PIECES.map((p) => [p.id, p]));

export function piece(id: string): PieceShape {
  const p = BY_ID.get(id);
  if (!p) throw new Error(`unknown piece ${id}`);
  return p;
}

/** One colour per family of shapes, bright on the dark board. */
const FAMILY_COLOURS: Record<string, number> = {
  DOT: 0, I2: 1, I3: 2, L3: 3, I4: 4, O4: 5, L4: 6, T4: 7, S4: 8, Z4: 9, I5: 10, V5: 11, R6: 12, O9: 13, X5: 14,
};

/** The colour index (0..14) used for a piece's blocks. */
export function colourOf(id: string): number {
  const family = id === 'DOT' ? 'DOT' : id.slice(0, 2);
  return FAMILY_COLOURS[family] ?? 0;
}
