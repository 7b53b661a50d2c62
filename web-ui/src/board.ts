export const BOARD_SIZE = 8;

/** The cells of an empty board, row by row, each with its row and column. */
export function emptyBoard(): { row: number; col: number }[] {
  const cells: { row: number; col: number }[] = [];
  for (let row = 0; row < BOARD_SIZE; row++) {
    for (let col = 0; col < BOARD_SIZE; col++) {
      cells.push({ row, col });
    }
  }
  return cells;
}

export function renderBoard(container: HTMLElement): void {
  container.replaceChildren();
  for (let row = 0; row < BOARD_SIZE; row++) {
    const line = document.createElement('div');
    line.setAttribute('role', 'row');
    line.className = 'row';
    for (let col = 0; col < BOARD_SIZE; col++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.className = 'cell';
      cell.dataset.row = String(row);
      cell.dataset.col = String(col);
      cell.setAttribute('aria-label', `ligne ${row + 1}, colonne ${col + 1}, vide`);
      line.append(cell);
    }
    container.append(line);
  }
}
