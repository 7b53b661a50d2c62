/*
 * The replay viewer: a read-only board stepped through a replay's events, with Start / Previous /
 * Next / End, a slider, "move k of n", the score and streak after each step, and the pieces of the
 * round. Used by the replay page and embedded in the admin audit detail.
 */
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { scoreBoard, streakBadge } from '../app/ui';
import { m } from '../pages/records-i18n';
import { BoardView, pieceElement } from './board-view';
import type { AnalysedMove } from './analysis';
import { piece } from './pieces';
import { stepReplay, summary, type ReplayData, type Step, type Stepped } from './replay';
import { boardRows, emptyBoard } from './rules';

const EMPTY = boardRows(emptyBoard());

export class ReplayViewer {
  readonly root: HTMLElement;
  private readonly view = new BoardView({ label: t('replay.title') });
  private readonly stepped: Stepped;
  private readonly header = h('div.game-header.replay-header');
  private readonly piecesBox = h('div.replay-pieces');
  private readonly caption = h('p.replay-event', { 'aria-live': 'polite', 'data-testid': 'replay-event' });
  private readonly counter = h('span.replay-counter', { 'data-testid': 'replay-counter' });
  private readonly slider: HTMLInputElement;
  private readonly buttons: Record<'start' | 'prev' | 'next' | 'end', HTMLButtonElement>;
  private readonly stopped = h('p.error.replay-stopped', { role: 'alert', 'data-testid': 'replay-error' });
  private readonly advice = h('p.replay-advice', { 'aria-live': 'polite', 'data-testid': 'replay-advice', hidden: true });
  /** The analysis of each placement, by its event index (set when it arrives). */
  private readonly analysed = new Map<number, AnalysedMove>();
  private at = -1;
  private readonly keyHandler = (e: KeyboardEvent) => this.onKey(e);

  constructor(private readonly replay: ReplayData, options: { keyboard?: boolean } = {}) {
    this.stepped = stepReplay(replay);
    const last = this.total();
    const button = (key: 'start' | 'prev' | 'next' | 'end', label: string, go: () => void, primary = false) =>
      h(primary ? 'button.primary' : 'button', { type: 'button', 'data-testid': `replay-${key}`, onclick: go }, label);
    this.buttons = {
      start: button('start', `« ${t('replay.start')}`, () => this.go(0)),
      prev: button('prev', `◀ ${m('replay.prev')}`, () => this.go(this.at - 1)),
      next: button('next', `${m('replay.next')} ▶`, () => this.go(this.at + 1), true),
      end: button('end', `${t('replay.end')} »`, () => this.go(last)),
    };
    this.slider = h('input.replay-slider', {
      type: 'range', min: '0', max: String(last), value: '0', step: '1', 'aria-label': m('replay.slider'), 'data-testid': 'replay-slider',
      oninput: () => this.go(Number(this.slider.value)),
    });
    const verdict = summary(replay, this.stepped);
    const claim = typeof replay.claimedScore === 'number'
      ? h('p.note.replay-claim', { 'data-testid': 'replay-claim' },
        m('replay.claim', { score: replay.claimedScore, rounds: replay.claimedRounds ?? 0 }), ' ',
        this.stepped.error ? null : verdict.matchesClaim
          ? h('span.ok', {}, m('replay.claimOk'))
          : h('span.error', {}, m('replay.claimBad', { score: verdict.score, rounds: verdict.rounds })))
      : null;
    if (this.stepped.error) this.stopped.textContent = m('replay.stopped', { error: this.stepped.error });
    this.stopped.hidden = true;
    this.root = h('section.replay-viewer', { 'aria-label': t('replay.title') },
      this.header,
      h('div.replay-stage', {}, this.view.root, this.piecesBox),
      h('div.replay-controls', {},
        h('div.replay-buttons', {}, this.buttons.start, this.buttons.prev, this.buttons.next, this.buttons.end),
        h('div.replay-position', {}, this.slider, this.counter)),
      this.caption,
      this.advice,
      this.stopped,
      claim,
      h('p.keys-help', {}, m('replay.keys')));
    if (options.keyboard !== false) document.addEventListener('keydown', this.keyHandler);
    this.go(0);
  }

  /** Adds analysed placements: stepping onto the position before one draws the AI's choice as a ghost. */
  addAnalysis(moves: AnalysedMove[]): void {
    for (const mv of moves) this.analysed.set(mv.event, mv);
    if (this.at >= 0) this.render(this.stepped.steps[this.at]);
  }

  /** Shows the position before the placement at replay event `event` (a mistake's "jump to"). */
  jumpToEvent(event: number): void {
    this.go(event);
    this.view.root.scrollIntoView?.({ block: 'nearest' });
  }

  /** The step shown (0 = the start board). */
  position(): number {
    return this.at;
  }

  dispose(): void {
    document.removeEventListener('keydown', this.keyHandler);
    this.view.dispose();
  }

  /** Events in the replay that can be played (all of them unless it stops at an error). */
  total(): number {
    return Math.max(this.stepped.steps.length - 1, 0);
  }

  get error(): string | undefined {
    return this.stepped.error;
  }

  /** Shows the state after `index` events: stepping forward by one animates the move. */
  go(index: number): void {
    const steps = this.stepped.steps;
    if (!steps.length) return;
    const target = Math.min(Math.max(index, 0), steps.length - 1);
    if (target === this.at + 1 && this.at >= 0) {
      const s = steps[target];
      this.view.show({ board: s.board }, s.outcome, s.pieceId);
    } else if (target !== this.at) {
      // Rebuilt from an empty board so the pieces keep their colours, silently and drawn once.
      this.view.rebuild([{ board: EMPTY }, ...steps.slice(0, target + 1)
        .map(({ board, outcome, pieceId }) => ({ board, outcome, pieceId }))]);
    }
    this.at = target;
    this.render(steps[target]);
  }

  private render(s: Step): void {
    const last = this.total();
    this.header.replaceChildren(
      h('div.level-badge', { class: `lv-${this.replay.level.toLowerCase()}` }, t(`level.${this.replay.level}`)),
      scoreBoard([[t('game.score'), s.score, 'replay-score'], [t('game.round'), s.round + 1]]),
      streakBadge(s.streak, s.miss),
      s.assisted ? h('span.badge.assisted', {}, m('replay.assisted')) : '',
    );
    this.piecesBox.replaceChildren(
      h('h3', {}, m('replay.pieces', { round: s.round + 1 })),
      h('div.replay-tray', {}, ...s.pieces.map((p) => {
        let shape;
        try {
          shape = piece(p.id);
        } catch {
          return h('div.replay-piece.unknown', {}, p.id);
        }
        return h('div.replay-piece', { class: p.placed ? 'placed' : '', title: p.id, dataset: { piece: p.id } }, pieceElement(shape));
      })),
    );
    this.counter.textContent = t('replay.event', { n: s.index, total: last });
    this.slider.value = String(s.index);
    this.caption.textContent = describe(s);
    this.buttons.start.disabled = this.buttons.prev.disabled = s.index === 0;
    this.buttons.next.disabled = this.buttons.end.disabled = s.index === last;
    this.stopped.hidden = !this.stepped.error || s.index !== last;
    this.renderAdvice(s);
  }

  /** Before an analysed placement: the AI's choice as a ghost on the grid, and what the player's cost. */
  private renderAdvice(s: Step): void {
    const cells = [...this.view.root.querySelectorAll<HTMLElement>('.cell')];
    cells.forEach((c) => c.classList.remove('ai-ghost', 'played-mark'));
    const mv = this.analysed.get(s.index);
    if (!mv) {
      this.advice.hidden = true;
      return;
    }
    const mark = (p: { piece: string; row: number; col: number }, cls: string) => {
      try {
        for (const [r, c] of piece(p.piece).cells) cells[(p.row + r) * 8 + p.col + c]?.classList.add(cls);
      } catch {
        // an unknown piece id: no mark
      }
    };
    if (mv.ai && mv.loss > 0) mark(mv.ai, 'ai-ghost');
    mark(mv.played, 'played-mark');
    const where = (p: { piece: string; row: number; col: number }) => m('analysis.at', { piece: p.piece, row: p.row + 1, col: p.col + 1 });
    this.advice.hidden = false;
    this.advice.classList.toggle('costly', mv.loss > 0);
    this.advice.textContent = mv.loss === 0 || !mv.ai
      ? m('analysis.sameAsAi', { n: mv.move, played: where(mv.played) })
      : m(mv.fatal ? 'analysis.fatal' : 'analysis.costs', { n: mv.move, played: where(mv.played), ai: where(mv.ai), loss: mv.loss });
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.root.isConnected) return;
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target !== this.slider) return;
    if (target === this.slider) return; // the slider handles its own arrows
    const moves: Record<string, () => number> = {
      ArrowRight: () => this.at + 1, ArrowLeft: () => this.at - 1, Home: () => 0, End: () => this.total(),
    };
    const next = moves[e.key];
    if (!next) return;
    e.preventDefault();
    this.go(next());
  }
}

function describe(s: Step): string {
  const e = s.event;
  if (!e) return m('replay.startBoard');
  const type = String(e.type).toLowerCase();
  const round = (e.round ?? s.round) + 1;
  let text: string;
  if (type === 'hint') text = m('replay.hint', { round });
  else if (type === 'undo') text = m('replay.undo', { round });
  else {
    const o = s.outcome;
    text = m('replay.place', { piece: s.pieceId ?? '?', round, slot: (e.slot ?? 0) + 1, row: (e.row ?? 0) + 1, col: (e.col ?? 0) + 1, points: o?.points ?? 0 });
    if (o && o.lines > 0) text += ` (${m('replay.lines', { lines: o.lines, mult: o.multiplier })})`;
    if (o?.cleanBonus) text += ` · ${t('game.clean', { bonus: o.cleanBonus })}`;
  }
  return s.gameOver ? `${text} — ${m('replay.gameOver')}` : text;
}
