/*
 * The analysis panel of a finished game: an SVG bar chart of the loss per placement (drawn here, no
 * chart library), the three biggest mistakes with "jump to", and the rounds whose pieces could have
 * cleared more lines. Used by the replay page (jumping steps its viewer) and the game-over screen
 * (jumping opens the replay page at that placement).
 */
import { h } from '../app/dom';
import { errorText } from '../app/ui';
import { m } from '../pages/records-i18n';
import { analyse, biggestMistakes, lossChart, type AnalysedMove, type AnalysedRound } from './analysis';
import type { ReplayData } from './replay';
import './analysis.css';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 120;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, ...children: (Node | string)[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

export interface AnalysisPanel {
  root: HTMLElement;
  /** Resolves when every page arrived (or the analysis failed: the panel says why). */
  done: Promise<void>;
}

/**
 * @param jump       what "jump to" does with a placement (step the viewer, or open the replay page)
 * @param onMoves    each page's moves, as they arrive (the viewer draws the AI's ghosts from them)
 */
export function analysisPanel(replay: ReplayData, jump: (mv: AnalysedMove) => void, onMoves?: (moves: AnalysedMove[]) => void): AnalysisPanel {
  const status = h('p.note.analysis-status', { role: 'status', 'data-testid': 'analysis-status' }, m('analysis.loading'));
  const chartBox = h('div.analysis-chart', { 'data-testid': 'analysis-chart' });
  const mistakes = h('ol.analysis-mistakes', { 'data-testid': 'analysis-mistakes' });
  const rounds = h('p.note.analysis-rounds', { 'data-testid': 'analysis-rounds' });
  const root = h('section.analysis', { 'aria-label': m('analysis.title'), 'data-testid': 'analysis' },
    h('h2', {}, m('analysis.title')), status, chartBox,
    h('h3', {}, m('analysis.mistakes')), mistakes, rounds, h('p.note', {}, m('analysis.unit')));
  const moves: AnalysedMove[] = [];
  const roundList: AnalysedRound[] = [];
  const draw = () => {
    chartBox.replaceChildren(chart(moves, jump));
    const worst = biggestMistakes(moves, 3);
    mistakes.replaceChildren(...(worst.length
      ? worst.map((mv) => h('li', {}, h('button.link', { type: 'button', 'data-testid': 'mistake-jump', dataset: { event: String(mv.event) }, onclick: () => jump(mv) },
        m('analysis.jump', { n: mv.move, loss: mv.loss }))))
      : [h('li.note', {}, m('analysis.noMistake'))]));
    rounds.textContent = m('analysis.rounds', { n: roundList.filter((r) => r.couldClearMore).length, total: roundList.length });
  };
  const done = analyse(replay, (page) => {
    moves.push(...page.moves);
    roundList.push(...page.rounds);
    onMoves?.(page.moves);
    draw();
    status.textContent = page.nextRound >= 0
      ? m('analysis.partial', { n: page.nextRound, total: page.totalRounds })
      : m('analysis.done', { moves: moves.length, loss: moves.reduce((a, mv) => a + mv.loss, 0) });
  }, undefined, () => root.isConnected).catch((e) => {
    status.textContent = m('analysis.failed', { error: errorText(e) });
    status.setAttribute('role', 'alert');
  });
  return { root, done };
}

/** The bar chart: one bar per placement, a click (or Enter on a focused bar) jumps to it. */
function chart(moves: AnalysedMove[], jump: (mv: AnalysedMove) => void): SVGSVGElement {
  const c = lossChart(moves, WIDTH, HEIGHT);
  const byMove = new Map(moves.map((mv) => [mv.move, mv]));
  const el = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: '100%', role: 'img', 'aria-label': m('analysis.chart', { scale: c.scale }), preserveAspectRatio: 'none', class: 'loss-chart' });
  for (const tick of c.ticks) el.append(svg('line', { x1: 0, x2: WIDTH, y1: tick.y, y2: tick.y, class: 'tick' }));
  el.append(svg('line', { x1: 0, x2: WIDTH, y1: HEIGHT - 0.5, y2: HEIGHT - 0.5, class: 'axis' }));
  for (const b of c.bars) {
    if (b.loss <= 0) continue;
    const rect = svg('rect', {
      x: b.x, y: b.y, width: Math.max(b.width, 1), height: b.height, class: b.fatal ? 'bar fatal' : 'bar',
      'data-move': b.move, 'data-event': b.event, 'data-testid': 'loss-bar',
    }, svg('title', {}, m('analysis.bar', { n: b.move, loss: b.loss })));
    rect.addEventListener('click', () => { const mv = byMove.get(b.move); if (mv) jump(mv); });
    el.append(rect);
  }
  return el;
}
