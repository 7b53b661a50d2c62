/*
 * The solver page (#/solver): paint a board, pick or draw up to three pieces, ask solver-service
 * for the best sequence and step through it on a grid; in maxLines mode, the equally good
 * alternatives too. The position lives in the hash query (solver-url.ts), kept up to date with
 * history.replaceState, so the link can be shared; the steps are replayed locally (solver-steps.ts).
 */
import { ApiError, LEVELS, solver } from '../app/api';
import { h } from '../app/dom';
import { defineMessages, t } from '../app/i18n';
import type { Page, Route } from '../app/router';
import { errorText, scoreBoard } from '../app/ui';
import { pieceElement } from '../game/board-view';
import { PIECES } from '../game/pieces';
import { boardRows, emptyBoard, SIZE } from '../game/rules';
import { DRAWN_COLOUR, replaySequence, shapeOfSpec, STONE, type Frame, type SolverAnswer, type SolverSequence } from './solver-steps';
import {
  catalogue, decodePosition, drawnPiece, DRAW_SIZE, encodePosition, MAX_MISS, MAX_STREAK, SLOTS, type PieceSpec, type SolverPosition,
} from './solver-url';

const m = defineMessages({
  fr: {
    intro: 'Dessinez une position, choisissez jusqu’à trois pièces et demandez au solveur la meilleure façon de les poser.',
    board: 'Position de départ',
    boardHelp: 'Cliquez ou glissez sur les cases pour les remplir ou les vider ; au clavier : flèches, puis Espace.',
    boardLabel: 'Grille à dessiner, 8 × 8',
    slotEmpty: 'vide',
    slotLabel: 'Emplacement {n} : {piece}',
    slotRemove: 'Retirer la pièce {n}',
    slotActive: 'La prochaine pièce choisie ira dans l’emplacement {n}.',
    catalogue: 'Catalogue',
    small: 'Petites',
    medium: 'Moyennes',
    large: 'Grandes',
    pieceName: 'Pièce {id}, {cells} case(s)',
    drawn: 'Pièce dessinée, {cells} case(s)',
    drawHelp: 'Dessinez la pièce sur la grille 5 × 5, puis placez-la dans l’emplacement choisi.',
    drawLabel: 'Grille de dessin de pièce, 5 × 5',
    drawUse: 'Mettre dans l’emplacement {n}',
    drawClear: 'Effacer le dessin',
    drawEmpty: 'Dessinez au moins une case.',
    streak: 'Série avant la première pièce',
    miss: 'Pièces sans ligne depuis la dernière (0 à 2)',
    level: 'Niveau (pour la suite de la partie)',
    noPiece: 'Choisissez au moins une pièce.',
    solving: 'Le solveur réfléchit…',
    points: 'Points',
    lines: 'Lignes',
    streakAfter: 'Série après',
    gameOverPartial: 'Partie terminée : seules {placed} pièce(s) sur {total} peuvent être posées.',
    sequence: 'Séquence',
    best: 'Meilleure',
    alternative: 'Variante {n}',
    altShown: 'Les {shown} premières sont listées.',
    noAlternative: 'Aucune autre solution aussi bonne.',
    at: '{piece} en ligne {row}, colonne {col}',
    frameStart: 'Position de départ.',
    framePlaced: '{piece} posée en ligne {row}, colonne {col} : +{points} points, {lines} ligne(s).',
    frameCleared: '{lines} ligne(s) effacée(s). Total : {total} points.',
    frameFinal: 'Position finale du solveur.',
    resultGrid: 'Grille de l’étape',
    disagree: 'Attention : la relecture locale ne retrouve pas exactement la réponse du solveur.',
    bad: 'Le solveur refuse cette position : {detail}',
    busy: 'Le solveur est très sollicité. Réessayez dans {seconds} s.',
    copy: 'Copier le lien',
    copied: 'Lien copié.',
  },
  en: {
    intro: 'Paint a position, pick up to three pieces and ask the solver for the best way to place them.',
    board: 'Starting position',
    boardHelp: 'Click or drag over cells to fill or empty them; with the keyboard: arrows, then Space.',
    boardLabel: 'Board to paint, 8 × 8',
    slotEmpty: 'empty',
    slotLabel: 'Slot {n}: {piece}',
    slotRemove: 'Remove piece {n}',
    slotActive: 'The next piece you pick goes into slot {n}.',
    catalogue: 'Catalogue',
    small: 'Small',
    medium: 'Medium',
    large: 'Large',
    pieceName: 'Piece {id}, {cells} cell(s)',
    drawn: 'Drawn piece, {cells} cell(s)',
    drawHelp: 'Draw the piece on the 5 × 5 grid, then put it into the chosen slot.',
    drawLabel: 'Piece drawing grid, 5 × 5',
    drawUse: 'Put into slot {n}',
    drawClear: 'Clear the drawing',
    drawEmpty: 'Draw at least one cell.',
    streak: 'Streak before the first piece',
    miss: 'Pieces without a line since the last one (0 to 2)',
    level: 'Level (for what comes next)',
    noPiece: 'Pick at least one piece.',
    solving: 'The solver is thinking…',
    points: 'Points',
    lines: 'Lines',
    streakAfter: 'Streak after',
    gameOverPartial: 'Game over: only {placed} of {total} piece(s) can be placed.',
    sequence: 'Sequence',
    best: 'Best',
    alternative: 'Alternative {n}',
    altShown: 'The first {shown} are listed.',
    noAlternative: 'No other equally good answer.',
    at: '{piece} at row {row}, column {col}',
    frameStart: 'Starting position.',
    framePlaced: '{piece} placed at row {row}, column {col}: +{points} points, {lines} line(s).',
    frameCleared: '{lines} line(s) cleared. Total: {total} points.',
    frameFinal: 'The solver’s final position.',
    resultGrid: 'Board at this step',
    disagree: 'Warning: replaying locally does not give exactly the solver’s answer.',
    bad: 'The solver refuses this position: {detail}',
    busy: 'The solver is very busy. Try again in {seconds} s.',
    copy: 'Copy the link',
    copied: 'Link copied.',
  },
});

interface Solved {
  /** The position's query when it was solved: the answer is shown while the position is unchanged. */
  key: string;
  answer: SolverAnswer;
  board: boolean[];
  pieces: PieceSpec[];
  streak: number;
  miss: number;
  /** -1: the answer itself, i: alternatives[i]. */
  chosen: number;
  frame: number;
}

/** The last answer, kept across re-renders (the language switch) of the same position. */
let lastSolved: Solved | null = null;

const pieceLabel = (p: PieceSpec) => (p.id ? m('pieceName', { id: p.id, cells: shapeOfSpec(p).cells.length }) : m('drawn', { cells: shapeOfSpec(p).cells.length }));
const pieceShort = (p: PieceSpec) => p.id ?? m('drawn', { cells: shapeOfSpec(p).cells.length });

/** A piece drawn as blocks, sized by its cell count (`--u` per cell); drawn pieces get their own colour. */
function pieceView(spec: PieceSpec): HTMLElement {
  const shape = shapeOfSpec(spec);
  const el = pieceElement(shape);
  if (!spec.id) el.querySelectorAll('.block').forEach((b) => (b.className = `block c${DRAWN_COLOUR}`));
  el.style.width = `calc(${shape.width} * var(--u, 0.9rem))`;
  el.setAttribute('aria-hidden', 'true');
  return el;
}

interface PaintGrid {
  el: HTMLElement;
  refresh(): void;
}

/**
 * A grid of cells to paint: a click or tap toggles a cell, a drag paints (the first cell decides
 * fill or empty), arrows move a roving focus and Space or Enter toggles.
 */
function paintGrid(size: number, cells: boolean[], opts: { label: string; testid: string; className: string; onChange: () => void }): PaintGrid {
  const grid = h('div.grid', { role: 'grid', 'aria-label': opts.label, class: opts.className, dataset: { testid: opts.testid } });
  const els: HTMLElement[] = [];
  let focus = 0;
  for (let r = 0; r < size; r++) {
    const row = h('div.grid-row', { role: 'row', style: { gridTemplateColumns: `repeat(${size}, 1fr)` } });
    for (let c = 0; c < size; c++) {
      const cell = h('div.cell', { role: 'gridcell', tabindex: r === 0 && c === 0 ? '0' : '-1', dataset: { row: String(r), col: String(c) } });
      els.push(cell);
      row.append(cell);
    }
    grid.append(row);
  }
  const refresh = () =>
    els.forEach((cell, i) => {
      cell.classList.toggle('filled', cells[i]);
      cell.classList.toggle(`c${STONE}`, cells[i]);
      cell.setAttribute('aria-label', t('game.cell', { row: Math.floor(i / size) + 1, col: (i % size) + 1, state: cells[i] ? t('game.filled') : t('game.empty') }));
      cell.tabIndex = i === focus ? 0 : -1;
    });
  const indexOf = (target: EventTarget | null): number => {
    const cell = target instanceof Element ? target.closest<HTMLElement>('.cell') : null;
    return cell && grid.contains(cell) ? els.indexOf(cell) : -1;
  };
  const moveFocus = (i: number) => {
    focus = i;
    els.forEach((cell, j) => (cell.tabIndex = j === i ? 0 : -1));
    els[i].focus({ preventScroll: true });
  };

  let painting: boolean | null = null;
  grid.addEventListener('pointerdown', (e) => {
    const i = indexOf(e.target);
    if (i < 0 || e.button > 0) return;
    e.preventDefault();
    painting = !cells[i];
    cells[i] = painting;
    moveFocus(i);
    refresh();
    grid.setPointerCapture(e.pointerId);
  });
  grid.addEventListener('pointermove', (e) => {
    if (painting === null) return;
    const i = indexOf(document.elementFromPoint(e.clientX, e.clientY));
    if (i >= 0 && cells[i] !== painting) {
      cells[i] = painting;
      focus = i;
      refresh();
    }
  });
  const stop = () => {
    if (painting === null) return;
    painting = null;
    opts.onChange();
  };
  grid.addEventListener('pointerup', stop);
  grid.addEventListener('pointercancel', stop);
  grid.addEventListener('lostpointercapture', stop);
  grid.addEventListener('keydown', (e) => {
    const i = indexOf(e.target);
    if (i < 0) return;
    const r = Math.floor(i / size);
    const c = i % size;
    const to: Record<string, number> = {
      ArrowUp: Math.max(r - 1, 0) * size + c,
      ArrowDown: Math.min(r + 1, size - 1) * size + c,
      ArrowLeft: r * size + Math.max(c - 1, 0),
      ArrowRight: r * size + Math.min(c + 1, size - 1),
      Home: r * size,
      End: r * size + size - 1,
    };
    if (e.key in to) {
      e.preventDefault();
      moveFocus(to[e.key]);
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      cells[i] = !cells[i];
      refresh();
      opts.onChange();
    }
  });
  refresh();
  return { el: grid, refresh };
}

/** A read-only grid showing one frame of a replay. */
function frameGrid(frame: Frame): HTMLElement {
  const placed = new Set(frame.placed.map(([r, c]) => r * SIZE + c));
  const clearing = new Set(frame.clearing.map(([r, c]) => r * SIZE + c));
  const grid = h('div.grid', { role: 'grid', 'aria-label': m('resultGrid'), dataset: { testid: 'solver-step-board' } });
  for (let r = 0; r < SIZE; r++) {
    const row = h('div.grid-row', { role: 'row' });
    for (let c = 0; c < SIZE; c++) {
      const i = r * SIZE + c;
      const filled = frame.board[i];
      const cell = h('div.cell', {
        role: 'gridcell',
        dataset: { row: String(r), col: String(c) },
        'aria-label': t('game.cell', { row: r + 1, col: c + 1, state: filled ? t('game.filled') : t('game.empty') }),
      });
      if (filled) cell.classList.add('filled', `c${frame.colours[i] ?? STONE}`);
      if (placed.has(i)) cell.classList.add('solver-placed');
      if (clearing.has(i)) cell.classList.add('solver-clearing');
      row.append(cell);
    }
    grid.append(row);
  }
  return grid;
}

export function solverPage(main: HTMLElement, route: Route): Page {
  const pos: SolverPosition = decodePosition(route.query);
  let active = Math.max(pos.pieces.findIndex((p) => !p), 0);
  let tab: 'catalogue' | 'draw' = 'catalogue';
  const drawing = new Array<boolean>(DRAW_SIZE * DRAW_SIZE).fill(false);
  let solved: Solved | null = lastSolved && lastSolved.key === encodePosition(pos) ? lastSolved : null;
  let busy = false;
  let request = 0;

  const slotsEl = h('div.solver-slots', { role: 'group', 'aria-label': t('solver.pieces') });
  const slotNote = h('p.note.solver-slot-note', { 'aria-live': 'polite' });
  const pickerEl = h('div.solver-picker');
  const optionsEl = h('div.solver-options');
  const status = h('div.solver-status', { role: 'status', 'aria-live': 'polite', dataset: { testid: 'solver-status' } });
  const resultEl = h('section.solver-result', { 'aria-label': t('solver.title'), dataset: { testid: 'solver-result' } });
  const solveButton = h('button.primary.solver-solve', { type: 'button', dataset: { testid: 'solver-solve' }, onclick: () => void solve() }, t('solver.solve'));
  const shareNote = h('span.note', {}, t('solver.share'));

  /** The position changed: the URL follows, and an answer to the old position is dropped. */
  function changed(): void {
    const key = encodePosition(pos);
    history.replaceState(null, '', `#/solver?${key}`);
    if (solved && solved.key !== key) {
      solved = null;
      lastSolved = null;
      renderResult();
    }
  }

  const board = paintGrid(SIZE, pos.board, { label: m('boardLabel'), testid: 'solver-board', className: 'solver-paint', onChange: changed });
  const drawGrid = paintGrid(DRAW_SIZE, drawing, { label: m('drawLabel'), testid: 'solver-draw', className: 'solver-draw-grid', onChange: () => undefined });

  function setPiece(slot: number, spec: PieceSpec | null): void {
    pos.pieces[slot] = spec;
    if (spec) {
      // The next pick fills the next empty slot, or stays on this one when all are full.
      const next = [1, 2, 3].map((k) => (slot + k) % SLOTS).find((s) => !pos.pieces[s]);
      active = next ?? slot;
    } else {
      active = slot;
    }
    renderSlots();
    changed();
  }

  function renderSlots(): void {
    slotsEl.replaceChildren(
      ...pos.pieces.map((p, slot) =>
        h('div.solver-slot', { class: slot === active ? 'active' : '', dataset: { slot: String(slot), piece: p ? p.id ?? 'drawn' : '' } },
          h('button.solver-slot-pick', {
            type: 'button',
            'aria-pressed': String(slot === active),
            'aria-label': m('slotLabel', { n: slot + 1, piece: p ? pieceLabel(p) : m('slotEmpty') }),
            onclick: () => { active = slot; renderSlots(); },
          },
          // The space keeps the visible text ("1 empty") a part of the accessible name ("Slot 1: empty").
          h('span.solver-slot-n', {}, String(slot + 1)), ' ',
          p ? pieceView(p) : h('span.solver-slot-empty', {}, m('slotEmpty'))),
          p ? h('button.link.solver-slot-remove', { type: 'button', 'aria-label': m('slotRemove', { n: slot + 1 }), onclick: () => setPiece(slot, null) }, '×') : null)),
    );
    slotNote.textContent = m('slotActive', { n: active + 1 });
    const use = pickerEl.querySelector<HTMLButtonElement>('[data-testid="solver-draw-use"]');
    if (use) use.textContent = m('drawUse', { n: active + 1 });
  }

  function renderPicker(): void {
    const tabs = h('div.segmented.solver-tabs', { role: 'radiogroup', 'aria-label': t('solver.pieces') },
      ...(['catalogue', 'draw'] as const).map((k) => h('span', {},
        h('input', { type: 'radio', name: 'solver-tab', id: `solver-tab-${k}`, checked: tab === k, onchange: () => { tab = k; renderPicker(); } }),
        h('label', { for: `solver-tab-${k}` }, k === 'catalogue' ? m('catalogue') : t('solver.draw')))));
    let body: HTMLElement;
    if (tab === 'catalogue') {
      body = h('div.solver-palette', { dataset: { testid: 'solver-palette' } },
        ...(['small', 'medium', 'large'] as const).map((cls) => h('div.solver-palette-group', { role: 'group', 'aria-labelledby': `solver-cls-${cls}` },
          h('h3', { id: `solver-cls-${cls}` }, m(cls)),
          h('div.solver-palette-pieces', {},
            ...PIECES.filter((p) => p.pieceClass === cls).map((p) => {
              const spec = catalogue(p.id)!;
              return h('button.solver-palette-piece', {
                type: 'button', title: p.id, 'aria-label': pieceLabel(spec), dataset: { piece: p.id },
                onclick: () => setPiece(active, spec),
              }, pieceView(spec));
            })))));
    } else {
      const drawNote = h('p.note', { role: 'status' });
      body = h('div.solver-drawer', {},
        h('p.note', {}, m('drawHelp')),
        h('div.solver-draw-wrap', {}, drawGrid.el),
        h('div.solver-actions', {},
          h('button', {
            type: 'button', dataset: { testid: 'solver-draw-use' },
            onclick: () => {
              const spec = drawnPiece([0, 1, 2, 3, 4].map((r) => drawing.slice(r * DRAW_SIZE, r * DRAW_SIZE + DRAW_SIZE).map((f) => (f ? '#' : '.')).join('')));
              if (!spec) {
                drawNote.textContent = m('drawEmpty');
                return;
              }
              drawNote.textContent = '';
              setPiece(active, spec);
            },
          }, m('drawUse', { n: active + 1 })),
          h('button.ghost-button', { type: 'button', onclick: () => { drawing.fill(false); drawGrid.refresh(); } }, m('drawClear'))),
        drawNote);
    }
    pickerEl.replaceChildren(tabs, body);
  }

  function renderOptions(): void {
    const number = (id: string, label: string, value: number, max: number, set: (n: number) => void) => {
      const input = h('input', { type: 'number', id, min: '0', max: String(max), step: '1', inputmode: 'numeric', value: String(value), dataset: { testid: id } });
      const read = () => {
        const n = Number.parseInt(input.value, 10);
        const clamped = Number.isFinite(n) ? Math.min(Math.max(n, 0), max) : 0;
        set(clamped);
        changed();
        return clamped;
      };
      input.addEventListener('input', () => void read());
      // Leaving the field shows the value in use (an empty or out-of-range entry is clamped).
      input.addEventListener('change', () => { input.value = String(read()); });
      return h('div.field', {}, h('label.label', { for: id }, label), input);
    };
    const goal = h('div.field', {},
      h('span.label', { id: 'solver-goal-label' }, t('solver.mode')),
      h('div.segmented', { role: 'radiogroup', 'aria-labelledby': 'solver-goal-label' },
        ...(['maxLines', 'hint'] as const).map((mode) => h('span', {},
          h('input', { type: 'radio', name: 'solver-mode', id: `solver-mode-${mode}`, value: mode, checked: pos.mode === mode,
            onchange: () => { pos.mode = mode; changed(); renderOptions(); } }),
          h('label', { for: `solver-mode-${mode}` }, t(`solver.mode.${mode}`))))));
    const level = pos.mode === 'hint'
      ? h('div.field', {}, h('label.label', { for: 'solver-level' }, m('level')),
        h('select', { id: 'solver-level', dataset: { testid: 'solver-level' }, onchange: (e: Event) => { pos.level = (e.target as HTMLSelectElement).value as typeof pos.level; changed(); } },
          ...LEVELS.map((l) => h('option', { value: l, selected: l === pos.level }, t(`level.${l}`)))))
      : null;
    optionsEl.replaceChildren(
      h('div.solver-numbers', {},
        number('solver-streak', m('streak'), pos.streak, MAX_STREAK, (n) => (pos.streak = n)),
        number('solver-miss', m('miss'), pos.miss, MAX_MISS, (n) => (pos.miss = n))),
      goal, level ?? '');
  }

  function explain(e: unknown): string {
    if (e instanceof ApiError) {
      if (e.status === 0) return t('error.offline');
      if (e.status === 400) return m('bad', { detail: e.message });
      if (e.status === 429) return m('busy', { seconds: e.retryAfter ?? 1 });
    }
    return errorText(e);
  }

  async function solve(): Promise<void> {
    if (busy) return;
    const pieces = pos.pieces.filter((p): p is PieceSpec => !!p);
    if (!pieces.length) {
      status.replaceChildren(h('p.error', {}, m('noPiece')));
      return;
    }
    const ticket = ++request;
    busy = true;
    solveButton.disabled = true;
    status.replaceChildren(h('p.note', {}, m('solving')));
    const snapshot = { key: encodePosition(pos), board: [...pos.board], pieces: pieces.map((p) => ({ ...p, rows: [...p.rows] })), streak: pos.streak, miss: pos.miss };
    const body: Record<string, unknown> = {
      id: 'solver-page',
      board: boardRows(pos.board),
      pieces: pieces.map((p) => p.id ?? p.rows),
      streak: pos.streak,
      miss: pos.miss,
      mode: pos.mode,
    };
    if (pos.mode === 'hint') body.level = pos.level;
    try {
      const answer = (await solver.solve(body)) as unknown as SolverAnswer;
      if (ticket !== request || !main.isConnected) return;
      if (!answer || !Array.isArray(answer.placements) || !Array.isArray(answer.board)) throw new Error('unexpected answer');
      status.replaceChildren();
      solved = { ...snapshot, answer, chosen: -1, frame: 0 };
      lastSolved = solved;
      renderResult();
    } catch (e) {
      if (ticket !== request) return;
      status.replaceChildren(h('p.error', { role: 'alert', dataset: { testid: 'solver-error' } }, explain(e)));
    } finally {
      if (ticket === request) {
        busy = false;
        solveButton.disabled = false;
      }
    }
  }

  function sequenceText(s: Solved, seq: SolverSequence): string {
    return seq.placements.map((p) => m('at', { piece: s.pieces[p.piece] ? pieceShort(s.pieces[p.piece]) : '?', row: p.row + 1, col: p.col + 1 })).join(' → ');
  }

  function renderResult(): void {
    if (!solved) {
      resultEl.replaceChildren();
      resultEl.hidden = true;
      return;
    }
    const s = solved;
    resultEl.hidden = false;
    const { answer } = s;
    const seq: SolverSequence = s.chosen >= 0 && answer.alternatives?.[s.chosen] ? answer.alternatives[s.chosen] : answer;
    const replay = replaySequence(s.board, s.pieces, { streak: s.streak, miss: s.miss }, seq);
    const frames = [...replay.frames];
    if (!replay.agrees) {
      // The answer's own final board closes the steps, whatever the local replay found.
      const final = seq.board.flatMap((line) => [...line].map((ch) => ch === '#'));
      if (final.length === SIZE * SIZE) {
        frames.push({ kind: 'cleared', board: final, colours: final.map((f) => (f ? STONE : null)), placed: [], clearing: [], totalPoints: seq.points, totalLines: seq.lines });
      }
    }
    s.frame = Math.min(Math.max(s.frame, 0), frames.length - 1);
    const frame = frames[s.frame];
    const last = s.frame === frames.length - 1;

    let caption: string;
    if (frame.kind === 'start') caption = m('frameStart');
    else if (frame.kind === 'placed') {
      caption = m('framePlaced', { piece: pieceShort(s.pieces[frame.slot!]), row: frame.row! + 1, col: frame.col! + 1, points: frame.points ?? 0, lines: frame.lines ?? 0 });
    } else caption = frame.move === undefined ? m('frameFinal') : m('frameCleared', { lines: frame.lines ?? 0, total: frame.totalPoints });
    if (last && frames.length > 1 && frame.move !== undefined) caption += ` ${m('frameFinal')}`;

    // Stepping keeps the keyboard focus on the stepping buttons (the other one at either end).
    const go = (to: number, testid: string, other: string) => {
      s.frame = to;
      renderResult();
      const button = resultEl.querySelector<HTMLButtonElement>(`[data-testid="${testid}"]`);
      (button && !button.disabled ? button : resultEl.querySelector<HTMLButtonElement>(`[data-testid="${other}"]`))?.focus();
    };
    const prev = h('button', { type: 'button', dataset: { testid: 'solver-prev' }, disabled: s.frame === 0, onclick: () => go(s.frame - 1, 'solver-prev', 'solver-next') }, t('solver.prev'));
    const next = h('button', { type: 'button', dataset: { testid: 'solver-next' }, disabled: last, onclick: () => go(s.frame + 1, 'solver-next', 'solver-prev') }, t('solver.next'));

    const steps = h('ol.solver-sequence', { 'aria-label': m('sequence') },
      ...seq.placements.map((p, i) => {
        const spec = s.pieces[p.piece];
        const at = frames.findIndex((f) => f.kind === 'placed' && f.move === i);
        return h('li', {},
          h('button.solver-seq-step', {
            type: 'button', class: frame.move === i ? 'current' : '', disabled: at < 0,
            'aria-current': frame.move === i ? 'step' : false,
            onclick: () => { s.frame = at; renderResult(); },
          }, spec ? pieceView(spec) : null, h('span', {}, m('at', { piece: spec ? pieceShort(spec) : '?', row: p.row + 1, col: p.col + 1 }))));
      }));

    const total = answer.alternativesTotal ?? 0;
    const alternatives = answer.alternatives ?? [];
    const choice = (index: number, label: string, sq: SolverSequence) =>
      h('li', {}, h('button.solver-alt', {
        type: 'button', class: s.chosen === index ? 'current' : '', 'aria-pressed': String(s.chosen === index),
        dataset: { testid: index < 0 ? 'solver-best' : 'solver-alt', index: String(index) },
        onclick: () => { s.chosen = index; s.frame = 0; renderResult(); },
      }, h('strong', {}, label), h('span', {}, sequenceText(s, sq))));
    const altSection = s.answer.alternatives !== undefined || s.answer.alternativesTotal !== undefined
      ? h('section.solver-alternatives', { 'aria-labelledby': 'solver-alt-title' },
        h('h3', { id: 'solver-alt-title', dataset: { testid: 'solver-alt-count' } }, t('solver.alternatives', { count: total })),
        total === 0 ? h('p.note', {}, m('noAlternative')) : null,
        total > alternatives.length ? h('p.note', {}, m('altShown', { shown: alternatives.length })) : null,
        h('ol.solver-alt-list', {}, choice(-1, m('best'), answer), ...alternatives.map((alt, i) => choice(i, m('alternative', { n: i + 1 }), alt))))
      : null;

    resultEl.replaceChildren(...[
      scoreBoard([[m('points'), seq.points, 'solver-points'], [m('lines'), seq.lines, 'solver-lines'], [m('streakAfter'), seq.streak, 'solver-streak-after']]),
      seq.gameOver
        ? h('p.solver-gameover', { role: 'alert', dataset: { testid: 'solver-gameover' } },
          t('game.over'), ' — ', seq.placements.length === 0 ? t('solver.noSolution') : m('gameOverPartial', { placed: seq.placements.length, total: s.pieces.length }))
        : null,
      replay.agrees ? null : h('p.note', {}, m('disagree')),
      h('div.solver-stepper', {},
        h('div.grid-wrap.solver-step-wrap', { dataset: { kind: frame.kind } }, frameGrid(frame)),
        h('div.solver-step-side', {},
          h('p.solver-step-caption', { 'aria-live': 'polite', dataset: { testid: 'solver-step-caption' } },
            h('strong', {}, t('solver.step', { n: s.frame, total: frames.length - 1 })), ' ', caption),
          h('div.solver-actions', {}, prev, next),
          steps)),
      altSection,
    ].filter((el): el is HTMLElement => !!el));
  }

  const copyNote = h('span.note', { role: 'status' });
  main.append(
    h('section.solver-page', {},
      h('h1', {}, t('solver.title')),
      h('p.tagline', {}, m('intro')),
      h('div.solver-layout', {},
        h('section.solver-board', { 'aria-labelledby': 'solver-board-title' },
          h('h2', { id: 'solver-board-title' }, m('board')),
          h('p.note', {}, m('boardHelp')),
          h('div.grid-wrap.solver-paint-wrap', {}, board.el),
          h('div.solver-actions', {},
            h('button', { type: 'button', dataset: { testid: 'solver-clear' }, onclick: () => { pos.board.splice(0, pos.board.length, ...emptyBoard()); board.refresh(); changed(); } }, t('solver.clear')))),
        h('section.solver-setup', { 'aria-labelledby': 'solver-pieces-title' },
          h('h2', { id: 'solver-pieces-title' }, t('solver.pieces')),
          slotsEl, slotNote, pickerEl, optionsEl,
          h('div.solver-actions', {}, solveButton),
          status)),
      resultEl,
      h('p.solver-share', {}, shareNote, ' ',
        h('button.link', { type: 'button', onclick: () => {
          navigator.clipboard?.writeText(location.href).then(() => (copyNote.textContent = m('copied')), () => undefined);
        } }, m('copy')), ' ', copyNote)),
  );
  renderSlots();
  renderPicker();
  renderOptions();
  renderResult();
  // The canonical form of what was read, so the link is short and tidy from the start.
  history.replaceState(null, '', `#/solver?${encodePosition(pos)}`);
  return {
    dispose: () => {
      request++;
    },
  };
}
