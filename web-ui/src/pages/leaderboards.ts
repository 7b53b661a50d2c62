/** `#/leaderboards?level=HARD&period=all&page=0`: records per level and period, my best and rank. */
import { LEVELS, type Level, type Period } from '../app/api';
import { isAdmin, login, user } from '../app/auth';
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { records, type Entry } from '../app/records-api';
import { go, type Route } from '../app/router';
import { errorBox, levelPicker } from '../app/ui';
import { boardHref, dm } from './daily';
import { m, when } from './records-i18n';
import { local } from '../app/store';

const PERIODS: Period[] = ['all', 'today', 'week'];
const SIZE = 20;

function href(level: Level, period: Period, page = 0): string {
  return `#/leaderboards?level=${level}&period=${period}${page ? `&page=${page}` : ''}`;
}

export function replayLink(gameId: string, label: string, aria?: string): HTMLElement {
  return h('a', { href: `#/replay/${encodeURIComponent(gameId)}${isAdmin() ? '?admin=1' : ''}`, 'aria-label': aria, 'data-testid': 'replay-link' }, label);
}

export async function leaderboardsPage(main: HTMLElement, route: Route): Promise<void> {
  const q = route.query;
  const wanted = (q.get('level') ?? local.get('bloc.level') ?? 'EASY').toUpperCase();
  const level: Level = (LEVELS as readonly string[]).includes(wanted) ? (wanted as Level) : 'EASY';
  const period: Period = (PERIODS as string[]).includes(q.get('period') ?? '') ? (q.get('period') as Period) : 'all';
  const page = Math.max(0, Math.min(100, Number(q.get('page')) || 0));
  const me = user();

  const tabs = h('div.tabs', { role: 'tablist', 'aria-label': m('lb.period') },
    ...PERIODS.map((p) => h('a.tab', {
      href: href(level, p), role: 'tab', 'aria-selected': String(p === period), class: p === period ? 'active' : '', 'data-testid': `period-${p}`,
    }, t(`lb.${p}`))));
  const mine = h('section.lb-mine', { 'aria-labelledby': 'lb-mine-title', 'data-testid': 'my-standing' },
    h('h2', { id: 'lb-mine-title' }, m('lb.mineTitle')));
  const table = h('div.lb-table', { 'aria-busy': 'true' }, h('p.note', {}, m('lb.loading')));
  main.append(
    h('h1', {}, t('lb.title')),
    h('div.lb-filters', {}, levelPicker(level, (l) => go(href(l, period)), 'lb-level'), tabs,
      h('a.button.daily-link', { href: boardHref(level), 'data-testid': 'daily-board-link' }, dm('daily.board'))),
    h('div.lb-layout', {}, table, mine),
  );

  const loadMine = async () => {
    if (!me) {
      mine.append(h('p.note', {}, m('lb.loginPrompt')), h('button.primary', { type: 'button', onclick: () => void login() }, t('auth.login')));
      return;
    }
    try {
      const s = await records.mine(level, period);
      mine.append(s.best
        ? h('p.lb-best', {}, t('lb.mine', { score: s.best.score, rank: s.best.rank }))
        : h('p.note', {}, t('lb.mineNone')));
      if (s.best) {
        mine.append(h('p.note', {}, m('lb.records', { count: s.records })),
          h('p', {}, replayLink(s.best.gameId, t('game.replay'))));
      }
    } catch (e) {
      mine.append(errorBox(e));
    }
  };

  const loadTable = async () => {
    try {
      const board = await records.top(level, period, page, SIZE);
      table.removeAttribute('aria-busy');
      if (!board.entries.length) {
        table.replaceChildren(h('p.note.lb-empty', {}, t('lb.empty')));
      } else {
        table.replaceChildren(h('table.lb', { 'data-testid': 'leaderboard' },
          h('caption.visually-hidden', {}, `${t('lb.title')} — ${t(`level.${level}`)} — ${t(`lb.${period}`)}`),
          h('thead', {}, h('tr', {},
            h('th.num', { scope: 'col' }, t('lb.rank')), h('th', { scope: 'col' }, t('lb.player')),
            h('th.num', { scope: 'col' }, t('lb.score')), h('th.num.hide-narrow', { scope: 'col' }, t('lb.rounds')),
            h('th.hide-narrow', { scope: 'col' }, t('lb.date')), h('th', { scope: 'col' }, h('span.visually-hidden', {}, m('lb.watch'))))),
          h('tbody', {}, ...board.entries.map((e) => row(e)))));
      }
      if (page > 0 || board.more) {
        table.append(h('nav.pager', { 'aria-label': m('lb.page', { n: page + 1 }) },
          page > 0 ? h('a.button', { href: href(level, period, page - 1), rel: 'prev' }, `◀ ${t('lb.prev')}`) : h('span'),
          h('span.note', {}, m('lb.page', { n: page + 1 })),
          board.more ? h('a.button', { href: href(level, period, page + 1), rel: 'next' }, `${t('lb.more')} ▶`) : h('span')));
      }
    } catch (e) {
      table.removeAttribute('aria-busy');
      table.replaceChildren(errorBox(e));
    }
  };

  const row = (e: Entry) => {
    const own = !!me && e.playerId === me.subject;
    return h('tr', { class: own ? 'mine' : '', dataset: { gameId: e.gameId, player: e.player } },
      h('td.num', {}, String(e.rank)),
      h('td.player', {}, e.player),
      h('td.num', { 'data-testid': 'lb-score' }, String(e.score)),
      h('td.num.hide-narrow', {}, String(e.rounds)),
      h('td.hide-narrow', {}, when(e.finishedAt)),
      // every record's replay is anyone's (a finished game's seed is shown): not only one's own
      h('td', {}, replayLink(e.gameId, m('lb.watch'), m('lb.watchGame', { player: e.player, score: e.score }))));
  };

  await Promise.all([loadTable(), loadMine()]);
}
