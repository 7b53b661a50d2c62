import './style.css';
import { completeLogin, continueAsGuest, isAdmin, login, logout, onSessionEnded, sessionEnded, user } from './app/auth';
import { loadConfig } from './app/config';
import { h } from './app/dom';
import { lang, onLangChange, setLang, t } from './app/i18n';
import { currentRoute, go, type Page, type PageFactory } from './app/router';
import { markServerAway, watchConnection } from './app/offline';
import { applySettings } from './app/settings';
import { errorBox } from './app/ui';
import { rm } from './pages/rules';
import { sm } from './pages/settings';
import { tutorialSeen } from './pages/tutorial';
import { PAGES } from './pages';

const header = document.getElementById('header')!;
const main = document.getElementById('main')!;
let page: Page | void;
let rendering = 0;

function renderHeader(): void {
  const u = user();
  const link = (hash: string, label: string) => h('a', { href: hash, class: location.hash.startsWith(hash) ? 'active' : '' }, label);
  header.replaceChildren(...[
    h('a.logo', { href: '#/' }, h('span.logo-mark', { 'aria-hidden': 'true' }), t('app.title')),
    h('nav.top-nav', { 'aria-label': 'Navigation' },
      link('#/leaderboards', t('nav.leaderboards')),
      link('#/solver', t('nav.solver')),
      link('#/rules', rm('link')),
      u ? link('#/me', t('nav.myGames')) : null,
      isAdmin() ? link('#/admin', t('nav.admin')) : null),
    h('div.top-actions', {},
      h('button.link', { type: 'button', onclick: () => setLang(lang() === 'fr' ? 'en' : 'fr'), lang: lang() === 'fr' ? 'en' : 'fr' }, t('lang.switch')),
      link('#/settings', sm('link')),
      u
        ? h('span.user', {}, h('span', { 'data-testid': 'user-name' }, u.name), h('button.link', { type: 'button', onclick: () => logout() }, t('auth.logout')))
        : h('button.small', { type: 'button', onclick: () => void login() }, t('auth.login'))),
    sessionEnded()
      ? h('p.session-ended', { role: 'alert', 'data-testid': 'session-ended' }, t('auth.sessionEnded'), ' ',
        h('button.small', { type: 'button', onclick: () => void login() }, t('auth.login')), ' ',
        h('button.link', { type: 'button', onclick: () => { continueAsGuest(); void render(); } }, t('auth.asGuest')))
      : null,
  ].filter((e) => e !== null));
}

async function render(): Promise<void> {
  const ticket = ++rendering;
  page?.dispose?.();
  page = undefined;
  renderHeader();
  const route = currentRoute();
  if (!route.path.length && !tutorialSeen()) {
    go('#/tutorial', true); // a first visit to the home page starts with the tutorial (skippable)
    return;
  }
  const factory: PageFactory = PAGES[route.path[0] ?? ''] ?? PAGES[''];
  // Each page renders into its own element: one still loading when the player went elsewhere writes into an element
  // no longer shown, never into the next page (and knows it: its element is no longer connected).
  const own = h('div.page-root');
  main.replaceChildren(own);
  main.className = `page-${route.path[0] ?? 'home'}`;
  try {
    const p = await factory(own, route);
    if (ticket === rendering) page = p;
    else p?.dispose?.();
  } catch (e) {
    if (ticket === rendering) own.replaceChildren(errorBox(e));
  }
}

async function start(): Promise<void> {
  document.documentElement.lang = lang();
  applySettings();
  watchConnection();
  matchMedia('(prefers-reduced-motion: reduce)').addEventListener('change', () => applySettings());
  try {
    await loadConfig();
    await completeLogin();
  } catch (e) {
    if (e instanceof TypeError) markServerAway(); // fetch's network error: opened from the cache without the server
    main.replaceChildren(errorBox(e));
  }
  window.addEventListener('hashchange', () => void render());
  onSessionEnded(() => renderHeader());
  onLangChange(() => void render());
  await render();
}

void start();
