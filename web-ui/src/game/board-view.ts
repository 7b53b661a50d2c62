/*
 * The grid and the tray: drawing, dragging (Pointer Events: mouse, pen and finger on one path),
 * the keyboard, the ghost with its clear preview, and the clear and score animations.
 * It never decides a move: `onPlace` asks the server and the page calls `show` with its answer.
 */
import { h } from '../app/dom';
import { motionReduced } from '../app/settings';
import { cuesFor, feedback } from '../app/sound';
import { t } from '../app/i18n';
import type { MoveOutcome, TrayPiece } from '../app/api';
import { colourOf, shapeOf, type PieceShape } from './pieces';
import { canPlaceAnywhere, fits, nearestFit, parseBoard, place, SIZE } from './rules';

export interface BoardViewOptions {
  /** Accepts a placement; resolves true when the server applied it. Absent: a board to watch. */
  onPlace?: (slot: number, row: number, col: number) => Promise<boolean>;
  label?: string;
  small?: boolean;
}

interface Selection {
  slot: number;
  piece: PieceShape;
  row: number;
  col: number;
}

const STONE = 15; // start-board cells and cells whose piece this page did not see placed

export class BoardView {
  readonly root: HTMLElement;
  private readonly grid: HTMLElement;
  private readonly tray: HTMLElement;
  private readonly fx: HTMLElement;
  private readonly cells: HTMLElement[] = [];
  private board: boolean[] = new Array(SIZE * SIZE).fill(false);
  private colours: (number | null)[] = new Array(SIZE * SIZE).fill(null);
  private pieces: TrayPiece[] = [];
  private selection: Selection | null = null;
  private busy = false;
  private enabled = true;
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);

  constructor(private readonly options: BoardViewOptions = {}) {
    this.grid = h('div.grid', { role: 'grid', tabindex: options.onPlace ? '0' : '-1', 'aria-label': options.label ?? t('game.grid') });
    for (let r = 0; r < SIZE; r++) {
      const row = h('div.grid-row', { role: 'row' });
      for (let c = 0; c < SIZE; c++) {
        const cell = h('div.cell', { role: 'gridcell', dataset: { row: String(r), col: String(c) } });
        this.cells.push(cell);
        row.append(cell);
      }
      this.grid.append(row);
    }
    this.fx = h('div.fx', { 'aria-live': 'polite' });
    this.tray = h('div.tray', { role: 'group', 'aria-label': t('game.tray') });
    this.root = h('div.board-view', { class: options.small ? 'small' : '' }, h('div.grid-wrap', {}, this.grid, this.fx), options.onPlace ? this.tray : null);
    if (options.onPlace) {
      document.addEventListener('keydown', this.keyHandler);
      this.grid.addEventListener('pointerdown', (e) => this.onGridPointer(e));
    }
  }

  /** Stops listening to the keyboard (the page is leaving). */
  dispose(): void {
    document.removeEventListener('keydown', this.keyHandler);
    document.querySelectorAll('.drag-piece').forEach((d) => d.remove());
  }

  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.root.classList.toggle('disabled', !enabled);
    if (!enabled) this.cancel();
  }

  /**
   * Shows a state from the server. With the move that led to it, the placed cells take the
   * piece's colour and the cleared lines burst, with the points popping.
   */
  show(state: { board: string[]; pieces?: TrayPiece[] }, outcome?: MoveOutcome, pieceId?: string): void {
    this.apply(state, outcome, pieceId, true);
    this.render();
  }

  /**
   * Shows the last of `states`, each reached from the one before by its move: the placed pieces keep their colours,
   * drawn once, without a sound or an effect (a jump in a replay; before, every move's sound started at once).
   */
  rebuild(states: ReadonlyArray<{ board: string[]; outcome?: MoveOutcome; pieceId?: string }>): void {
    for (const s of states) this.apply(s, s.outcome, s.pieceId, false);
    this.fx.replaceChildren();
    this.render();
  }

  /** The board and its colours after `state`; with `effects`, the move's burst, sound and points. */
  private apply(state: { board: string[]; pieces?: TrayPiece[] }, outcome: MoveOutcome | undefined,
    pieceId: string | undefined, effects: boolean): void {
    const next = parseBoard(state.board);
    if (outcome && pieceId) {
      for (const [r, c] of outcome.placed) this.colours[r * SIZE + c] = colourOf(pieceId);
      if (effects) this.burst(outcome, pieceId);
    } else if (pieceId) {
      // A change seen from outside (the other seat): its new cells are the piece just placed.
      next.forEach((filled, i) => filled && !this.board[i] && (this.colours[i] = colourOf(pieceId)));
    }
    for (let i = 0; i < next.length; i++) {
      if (!next[i]) this.colours[i] = null;
      else if (this.colours[i] === null) this.colours[i] = STONE;
    }
    this.board = next;
    if (state.pieces) this.pieces = state.pieces;
    if (this.selection && this.pieces[this.selection.slot]?.placed !== false) this.selection = null;
  }

  /** Marks a suggested placement on the grid (a hint). */
  showHint(slot: number, row: number, col: number): void {
    const p = this.pieces[slot];
    if (!p) return;
    this.clearMarks('hint');
    for (const [r, c] of shapeOf(p.id, p.rows).cells) this.cells[(row + r) * SIZE + col + c].classList.add('hint');
    this.tray.querySelector(`[data-slot="${slot}"]`)?.classList.add('hinted');
  }

  private render(): void {
    this.cells.forEach((cell, i) => {
      const colour = this.colours[i];
      cell.className = 'cell';
      if (this.board[i]) cell.classList.add('filled', `c${colour ?? STONE}`);
      cell.setAttribute('aria-label', t('game.cell', {
        row: Math.floor(i / SIZE) + 1, col: (i % SIZE) + 1, state: this.board[i] ? t('game.filled') : t('game.empty'),
      }));
    });
    if (this.options.onPlace) this.renderTray();
    this.renderGhost();
  }

  private renderTray(): void {
    this.tray.replaceChildren(
      ...[0, 1, 2].map((slot) => {
        const p = this.pieces[slot];
        if (!p || p.placed) return h('div.tray-slot.empty', { dataset: { slot: String(slot) } });
        const shape = shapeOf(p.id, p.rows);
        const playable = canPlaceAnywhere(this.board, shape);
        const button = h('button.tray-slot', {
          type: 'button',
          class: `${playable ? '' : 'blocked'} ${this.selection?.slot === slot ? 'selected' : ''}`,
          dataset: { slot: String(slot), piece: p.id },
          'aria-label': t('game.piece', { n: slot + 1, cells: shape.cells.length }),
          'aria-pressed': String(this.selection?.slot === slot),
          onpointerdown: (e: PointerEvent) => this.startDrag(e, slot, button),
          onclick: (e: MouseEvent) => { // keyboard activation of the button (Enter or Space on it): pick it, then the grid
            if (e.detail !== 0) return;
            this.select(slot);
            if (this.selection) this.grid.focus();
          },
        }, pieceElement(shape));
        return button;
      }),
    );
  }

  private renderGhost(): void {
    this.clearMarks('ghost', 'ghost-bad', 'preview-clear');
    const s = this.selection;
    if (!s || s.row < 0 || s.col < 0) return; // a dragged piece away from any legal cell
    const ok = fits(this.board, s.piece, s.row, s.col);
    for (const [r, c] of s.piece.cells) {
      const rr = s.row + r;
      const cc = s.col + c;
      if (rr < SIZE && cc < SIZE) this.cells[rr * SIZE + cc].classList.add(ok ? 'ghost' : 'ghost-bad', `g${colourOf(s.piece.id)}`);
    }
    if (!ok) return;
    // The rows and columns this drop would clear light up before it happens.
    const after = place(this.board, s.piece, s.row, s.col);
    for (const [r, c] of after.cleared) this.cells[r * SIZE + c].classList.add('preview-clear');
  }

  private clearMarks(...classes: string[]): void {
    for (const cell of this.cells) {
      cell.classList.remove(...classes);
      if (classes.includes('ghost')) [...cell.classList].filter((k) => /^g\d+$/.test(k)).forEach((k) => cell.classList.remove(k));
    }
    if (classes.includes('hint')) this.tray.querySelectorAll('.hinted').forEach((el) => el.classList.remove('hinted'));
  }

  private select(slot: number, at?: [number, number]): void {
    const p = this.pieces[slot];
    if (!this.enabled || !p || p.placed) return;
    const piece = shapeOf(p.id, p.rows);
    const centre: [number, number] = at ?? [Math.floor((SIZE - piece.height) / 2), Math.floor((SIZE - piece.width) / 2)];
    const [row, col] = nearestFit(this.board, piece, centre[0], centre[1], SIZE * 2) ?? centre;
    this.selection = { slot, piece, row, col };
    this.renderTray();
    this.renderGhost();
  }

  private cancel(): void {
    this.selection = null;
    this.renderTray();
    this.renderGhost();
  }

  private async commit(): Promise<void> {
    const s = this.selection;
    if (!s || this.busy || !this.options.onPlace) return;
    if (!fits(this.board, s.piece, s.row, s.col)) {
      this.flash(t('game.illegal'));
      return;
    }
    this.busy = true;
    try {
      const applied = await this.options.onPlace(s.slot, s.row, s.col);
      if (applied) this.selection = null;
    } finally {
      this.busy = false;
      this.render();
    }
  }

  /**
   * The keyboard (the keys help line says the same, `game.keys`): 1/2/3 pick a piece and put the focus on the grid,
   * arrows move it, Enter or Space place it, Escape puts it back. Tab and Shift+Tab are never taken: from the grid they
   * go on to the tray and to the page's buttons (Hint, Undo, Resign) like anywhere else. Enter and Space on a button
   * press that button, never place the selected piece; arrows move the piece only while the focus is on the board
   * (or nowhere).
   */
  private onKey(e: KeyboardEvent): void {
    if (!this.root.isConnected || !this.enabled || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement | null;
    if (target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)) return;
    const onBoard = !target || target === document.body || target === this.grid || this.grid.contains(target);
    if (/^[123]$/.test(e.key)) {
      this.select(Number(e.key) - 1);
      if (this.selection) this.grid.focus();
    } else if (this.selection && onBoard && e.key.startsWith('Arrow')) {
      e.preventDefault();
      const s = this.selection;
      const dr = e.key === 'ArrowUp' ? -1 : e.key === 'ArrowDown' ? 1 : 0;
      const dc = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
      s.row = Math.min(Math.max(s.row + dr, 0), SIZE - s.piece.height);
      s.col = Math.min(Math.max(s.col + dc, 0), SIZE - s.piece.width);
      this.renderGhost();
    } else if (this.selection && onBoard && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      void this.commit();
    } else if (e.key === 'Escape' && this.selection) {
      e.preventDefault();
      this.cancel();
    }
  }

  /** A tap on the grid with a piece selected moves it there. */
  private onGridPointer(e: PointerEvent): void {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('.cell');
    if (!cell || !this.selection) return;
    const s = this.selection;
    const fit = nearestFit(this.board, s.piece, Number(cell.dataset.row), Number(cell.dataset.col));
    if (fit) [s.row, s.col] = fit;
    this.renderGhost();
  }

  private startDrag(e: PointerEvent, slot: number, button: HTMLElement): void {
    if (!this.enabled || this.busy || e.button > 0) return;
    const p = this.pieces[slot];
    if (!p || p.placed) return;
    e.preventDefault();
    const piece = shapeOf(p.id, p.rows);
    const pitch = this.grid.querySelector('.cell')!.getBoundingClientRect().width + cellGap(this.grid);
    const floating = h('div.drag-piece', { style: { width: `${piece.width * pitch}px` } }, pieceElement(piece, pitch));
    document.body.append(floating);
    // A finger would hide the piece: it is held above the touch point.
    const lift = e.pointerType === 'touch' ? pitch * 1.6 : 0;
    const offsetX = (piece.width * pitch) / 2;
    const offsetY = (piece.height * pitch) / 2 + lift;
    const start = { x: e.clientX, y: e.clientY };
    let moved = false;
    button.classList.add('lifted');
    button.setPointerCapture(e.pointerId);
    this.selection = { slot, piece, row: -1, col: -1 };
    this.clearMarks('hint');

    const move = (ev: PointerEvent) => {
      moved ||= Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > 4;
      const left = ev.clientX - offsetX;
      const top = ev.clientY - offsetY;
      floating.style.transform = `translate(${left}px, ${top}px)`;
      const g = this.grid.getBoundingClientRect();
      const inset = parseFloat(getComputedStyle(this.grid).paddingLeft) || 0;
      const fit = dropAnchor(this.board, piece, left - g.left - inset, top - g.top - inset, pitch);
      if (this.selection) [this.selection.row, this.selection.col] = fit ?? [-1, -1];
      floating.classList.toggle('over', !!fit);
      this.renderGhost();
    };
    const end = (ev: PointerEvent) => {
      button.removeEventListener('pointermove', move);
      button.removeEventListener('pointerup', end);
      button.removeEventListener('pointercancel', end);
      button.classList.remove('lifted');
      floating.remove();
      const s = this.selection;
      if (!moved) {
        // A tap picks the piece up for the keyboard or a tap on the grid.
        this.select(slot);
        this.grid.focus();
      } else if (ev.type === 'pointerup' && s && s.row >= 0) {
        void this.commit();
      } else {
        this.cancel(); // an illegal drop: back to the tray
      }
    };
    button.addEventListener('pointermove', move);
    button.addEventListener('pointerup', end);
    button.addEventListener('pointercancel', end);
    move(e);
  }

  private burst(outcome: MoveOutcome, pieceId: string): void {
    feedback(cuesFor(outcome));
    const still = motionReduced(); // no flying sparks; the cleared cells still flash once (CSS keeps it short)
    for (const [r, c] of outcome.cleared) {
      const cell = this.cells[r * SIZE + c];
      const colour = this.colours[r * SIZE + c] ?? colourOf(pieceId);
      cell.classList.add('cleared');
      if (still) continue;
      const spark = h('div.spark', { class: `c${colour}`, style: { gridRow: String(r + 1), gridColumn: String(c + 1) } });
      this.fx.append(spark);
      spark.addEventListener('animationend', () => spark.remove());
    }
    const [sr, sc] = outcome.placed.reduce(([ar, ac], [r, c]) => [ar + r / outcome.placed.length, ac + c / outcome.placed.length], [0, 0]);
    const pop = h('div.points-pop', { class: outcome.lines ? 'lines' : '', style: { top: `${((sr + 0.5) / SIZE) * 100}%`, left: `${((sc + 0.5) / SIZE) * 100}%` } },
      `+${outcome.points}`, outcome.multiplier > 1 ? h('span.mult', {}, `×${outcome.multiplier}`) : null);
    this.fx.append(pop);
    pop.addEventListener('animationend', () => pop.remove());
    if (outcome.cleanBonus) {
      const clean = h('div.clean-banner', {}, t('game.clean', { bonus: outcome.cleanBonus }));
      this.fx.append(clean);
      clean.addEventListener('animationend', () => clean.remove());
    }
  }

  private flash(message: string): void {
    const note = h('div.flash', { role: 'status' }, message);
    this.fx.append(note);
    this.grid.classList.add('shake');
    setTimeout(() => this.grid.classList.remove('shake'), 300);
    note.addEventListener('animationend', () => note.remove());
  }
}

/**
 * Where a dragged piece would land: its top-left corner at (x, y) pixels from the grid's first cell, cells `pitch`
 * pixels apart. The nearest legal anchor within 1.5 cells of the cell under that corner, or null (the drop sends the
 * piece back to the tray) when there is none or the piece is not over the grid at all.
 */
export function dropAnchor(board: readonly boolean[], piece: PieceShape, x: number, y: number, pitch: number): [number, number] | null {
  const col = Math.round(x / pitch);
  const row = Math.round(y / pitch);
  const near = row > -piece.height && col > -piece.width && row < SIZE && col < SIZE;
  return near ? nearestFit(board, piece, row, col, 1.5) : null;
}

function cellGap(grid: HTMLElement): number {
  return parseFloat(getComputedStyle(grid.querySelector('.grid-row')!).columnGap) || 0;
}

/** A piece drawn as blocks, at the tray's size or at a given cell pitch. */
export function pieceElement(piece: PieceShape, pitch?: number): HTMLElement {
  const el = h('div.piece', {
    style: {
      gridTemplateColumns: `repeat(${piece.width}, ${pitch ? `${pitch}px` : '1fr'})`,
      gridTemplateRows: `repeat(${piece.height}, ${pitch ? `${pitch}px` : '1fr'})`,
      aspectRatio: `${piece.width} / ${piece.height}`,
    },
    dataset: { w: String(piece.width), h: String(piece.height) },
  });
  for (const [r, c] of piece.cells) {
    el.append(h('div.block', { class: `c${colourOf(piece.id)}`, style: { gridRow: String(r + 1), gridColumn: String(c + 1) } }));
  }
  return el;
}
