/*
 * Installable and offline: registers the service worker (dist/sw.js, made by vite.config.ts) and shows a banner
 * whenever the server is out of reach: the page opens from the cache, but play needs the server.
 */
import { h } from './dom';
import { defineMessages } from './i18n';

const om = defineMessages({
  fr: { offline: 'Hors ligne : la page s’ouvre, mais pour jouer il faut le serveur de Bloc Éclat. Le tutoriel et les règles marchent sans lui ; reconnectez-vous pour jouer.' },
  en: { offline: 'Offline: the page opens, but play needs the Bloc Éclat server. The tutorial and the rules work without it; reconnect to play.' },
});

let banner: HTMLElement | null = null;
let serverAway = false;

function refresh(): void {
  const away = serverAway || (typeof navigator !== 'undefined' && navigator.onLine === false);
  if (away && !banner) {
    banner = h('p.offline-banner', { role: 'alert', 'data-testid': 'offline' }, om('offline'));
    document.body.insertBefore(banner, document.getElementById('main'));
  } else if (!away && banner) {
    banner.remove();
    banner = null;
  } else if (banner) {
    banner.textContent = om('offline');
  }
}

/** The server did not answer (a network error, not an HTTP error). */
export function markServerAway(away = true): void {
  serverAway = away;
  refresh();
}

export function watchConnection(): void {
  window.addEventListener('online', () => { serverAway = false; refresh(); });
  window.addEventListener('offline', refresh);
  refresh();
  if ('serviceWorker' in navigator && import.meta.env.PROD) {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined); // no worker (private mode, http): the page still works online
  }
}
