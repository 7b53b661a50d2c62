/** `#/me`: the player's finished games, with what leaderboard-service made of each, and their replays. */
import { login, user } from '../app/auth';
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { records } from '../app/records-api';
import type { Route } from '../app/router';
import { errorBox } from '../app/ui';
import { replayLink } from './leaderboards';
import { m, when } from './records-i18n';

export async function myGamesPage(main: HTMLElement, route: Route): Promise<void> {
  main.append(h('h1', {}, t('me.title')));
  if (!user()) {
    main.append(h('p.note', {}, m('me.loginPrompt')), h('button.primary', { type: 'button', onclick: () => void login() }, t('auth.login')));
    return;
  }
  const page = Math.max(0, Number(route.query.get('page')) || 0);
  try {
    const answer = await records.myGames(page, 20);
    if (!answer.games.length) {
      main.append(h('p.note', {}, m('me.empty')));
    } else {
      main.append(h('table.my-games', { 'data-testid': 'my-games' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('lb.date')), h('th.hide-narrow', { scope: 'col' }, m('me.level')),
          h('th.hide-narrow', { scope: 'col' }, m('me.mode')), h('th.num', { scope: 'col' }, t('lb.score')),
          h('th', { scope: 'col' }, m('me.outcome')), h('th', { scope: 'col' }, h('span.visually-hidden', {}, m('me.replay'))))),
        h('tbody', {}, ...answer.games.map((g) => h('tr', { dataset: { gameId: g.gameId, outcome: g.outcome } },
          h('td', {}, when(g.finishedAt), h('span.show-narrow', {}, ` · ${t(`level.${g.level}`)}`)),
          h('td.hide-narrow', {}, t(`level.${g.level}`)),
          h('td.hide-narrow', {}, modeName(g.mode)),
          h('td.num', {}, String(g.score)),
          h('td', {},
            h('span.outcome', { class: `o-${g.outcome.toLowerCase()}` }, m(`outcome.${g.outcome}`)),
            g.struck ? h('span.badge.struck', {}, m('me.struckYes')) : null,
            g.reason ? h('div.reason', {}, g.reason) : null),
          h('td', {}, replayLink(g.gameId, m('me.replay'))))))));
    }
    if (page > 0 || answer.more) {
      main.append(h('nav.pager', {},
        page > 0 ? h('a.button', { href: `#/me?page=${page - 1}` }, `◀ ${t('lb.prev')}`) : h('span'),
        h('span.note', {}, m('lb.page', { n: page + 1 })),
        answer.more ? h('a.button', { href: `#/me?page=${page + 1}` }, `${t('lb.more')} ▶`) : h('span')));
    }
  } catch (e) {
    main.append(errorBox(e));
  }
}

export function modeName(mode: string): string {
  return ['SOLO', 'VERSUS_AI', 'TWO_PLAYERS', 'ONLINE_RACE'].includes(mode)
    ? m(`mode.${mode}` as 'mode.SOLO')
    : mode;
}
