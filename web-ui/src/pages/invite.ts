/**
 * Private races: `#/invite/new?level=HARD` makes a link and waits for the friend (then opens the race);
 * `#/invite/<code>` is the link a friend opens: logged in, they join the race at once.
 */
import { ApiError, type Level } from '../app/api';
import { login, user } from '../app/auth';
import { h } from '../app/dom';
import { poll } from '../app/poll';
import { t } from '../app/i18n';
import { privateRaces, inviteUrl, type PrivateRaceLink } from '../app/races-api';
import { go, type Page, type Route } from '../app/router';
import { errorBox } from '../app/ui';
import { chosenLevel } from './home';
import { m } from './together-i18n';

export async function invitePage(main: HTMLElement, route: Route): Promise<Page | void> {
  const code = route.path[1] ?? 'new';
  main.append(h('h1', {}, m('invite.title')));
  if (!user()) {
    main.append(h('p.note', {}, m('invite.loginFirst')), h('button.primary', { type: 'button', onclick: () => void login() }, t('auth.login')));
    return;
  }
  return code === 'new' ? make(main, chosenLevel(route)) : join(main, code);
}

async function make(main: HTMLElement, level: Level): Promise<Page | void> {
  let link: PrivateRaceLink;
  try {
    link = await privateRaces.create(level);
  } catch (e) {
    main.append(errorBox(e));
    return;
  }
  const url = inviteUrl(location.origin, link.code);
  const copied = h('span.note', { role: 'status' });
  const status = h('p.waiting', { role: 'status', 'data-testid': 'invite-status' }, m('invite.waiting'));
  main.append(
    h('div.level-badge', { class: `lv-${level.toLowerCase()}` }, t(`level.${level}`)),
    h('p', {}, m('invite.link')),
    h('p', {}, h('input.invite-link', { type: 'text', readonly: true, value: url, 'aria-label': m('invite.title'), 'data-testid': 'invite-link', size: 48 })),
    h('p', {}, h('button', { type: 'button', 'data-testid': 'invite-copy', onclick: async () => {
      try {
        await navigator.clipboard.writeText(url);
        copied.textContent = m('copied');
      } catch {
        copied.textContent = url;
      }
    } }, m('invite.copy')), ' ', copied),
    h('p.note', {}, m('invite.expires', { time: new Date(link.expiresAt).toLocaleTimeString() })),
    h('div.spinner', { 'aria-hidden': 'true' }), status,
  );
  // The friend's join makes the match: ask until it is there, or the link expired (a lost answer: asked again).
  const asking = poll(() => privateRaces.get(link.code), 1000, (now) => {
    if (now.status === 'STARTED' && now.matchId) {
      go(`#/race/${now.matchId}`, true);
      return true;
    }
    if (now.status === 'EXPIRED') {
      status.textContent = m('invite.expired');
      main.append(h('a.button.primary', { href: `#/invite/new?level=${level}&n=${Date.now()}` }, m('invite.again')));
      return true;
    }
    return false;
  }, (e) => !(e instanceof ApiError && e.status === 404));
  return { dispose: () => asking.stop() };
}

async function join(main: HTMLElement, code: string): Promise<Page | void> {
  const status = h('p.waiting', { role: 'status', 'data-testid': 'invite-status' });
  main.append(status);
  try {
    const link = await privateRaces.get(code);
    status.textContent = m('invite.joining', { host: link.host });
    const match = await privateRaces.join(code);
    if (main.isConnected) go(`#/race/${match.id}`, true); // not when the player went elsewhere meanwhile
  } catch (e) {
    if (e instanceof ApiError && e.status === 410) status.textContent = m('invite.expired');
    else main.append(errorBox(e));
    main.append(h('p', {}, h('a.button', { href: '#/invite/new' }, m('invite.make'))));
  }
}
