/** `#/replay/<gameId>`: a finished game step by step; anyone's once its seed may be shown (a shared link) via game-service, any game for admins via the audit. */
import { ApiError } from '../app/api';
import { isAdmin, login, user } from '../app/auth';
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { auditReplay, records } from '../app/records-api';
import type { Page, Route } from '../app/router';
import { errorBox } from '../app/ui';
import type { ReplayData } from '../game/replay';
import { analysisPanel } from '../game/analysis-view';
import { ReplayViewer } from '../game/replay-viewer';
import { m } from './records-i18n';

/** The replay viewer for a replay as received, or a message saying why it cannot be shown. */
export function replayViewerOrError(replay: ReplayData | string | null | undefined): { el: HTMLElement; dispose?: () => void; viewer?: ReplayViewer } {
  if (!replay || typeof replay !== 'object' || !Array.isArray(replay.events) || !Array.isArray(replay.rounds)) {
    const why = typeof replay === 'string' ? replay.slice(0, 200) : 'no rounds or events';
    return { el: h('p.error', { role: 'alert' }, m('replay.unreadable', { error: why })) };
  }
  try {
    const viewer = new ReplayViewer(replay);
    return { el: viewer.root, dispose: () => viewer.dispose(), viewer };
  } catch (e) {
    return { el: h('p.error', { role: 'alert' }, m('replay.unreadable', { error: e instanceof Error ? e.message : String(e) })) };
  }
}

async function load(id: string, admin: boolean): Promise<ReplayData | string | null> {
  if (admin && isAdmin()) return auditReplay(await records.audit(id));
  try {
    return await records.replay(id);
  } catch (e) {
    if (isAdmin() && e instanceof ApiError && (e.status === 403 || e.status === 404)) return auditReplay(await records.audit(id));
    throw e;
  }
}

export async function replayPage(main: HTMLElement, route: Route): Promise<Page | void> {
  const id = route.path[1] ?? '';
  const admin = route.query.get('admin') === '1';
  const back = admin && isAdmin()
    ? h('a.button', { href: `#/admin/${encodeURIComponent(id)}` }, m('admin.back'))
    : h('a.button', { href: user() ? '#/me' : '#/' }, user() ? t('me.title') : t('game.home'));
  main.append(h('h1', {}, t('replay.title')), h('p.note.game-id', {}, id));
  let replay: ReplayData | string | null;
  try {
    replay = await load(id, admin);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 403 || e.status === 404)) main.append(h('p.error', { role: 'alert' }, m('replay.notFound')));
    else if (e instanceof ApiError && e.status === 401) {
      main.append(h('p.note', {}, m('replay.loginFirst')), h('button.primary', { type: 'button', onclick: () => void login() }, t('auth.login')));
    } else main.append(errorBox(e));
    main.append(h('p', {}, back));
    return;
  }
  const viewer = replayViewerOrError(replay);
  main.append(viewer.el);
  const shown = viewer.viewer;
  if (shown && !shown.error && replay && typeof replay === 'object') {
    // The analysis asks solver-service with the replay game-service (or the audit) just let this viewer see.
    const at = Number(route.query.get('at'));
    const panel = analysisPanel(replay, (mv) => shown.jumpToEvent(mv.event), (moves) => shown.addAnalysis(moves));
    if (Number.isInteger(at) && at > 0) shown.go(at);
    main.append(panel.root);
  }
  main.append(h('p', {}, back));
  return { dispose: viewer.dispose };
}
