/** `#/admin` (audited games by outcome or suspicion, and level) and `#/admin/<gameId>` (verdict, trace, replay, re-validate, strike). */
import { LEVELS, type Level } from '../app/api';
import { isAdmin, login, user } from '../app/auth';
import { h } from '../app/dom';
import { lang, t } from '../app/i18n';
import { auditReplay, OUTCOMES, records, type AuditDetail, type Outcome } from '../app/records-api';
import { go, type Page, type Route } from '../app/router';
import { errorBox, errorText } from '../app/ui';
import { modeName } from './me';
import { m, when } from './records-i18n';
import { replayViewerOrError } from './replay';

const SIZE = 20;

export async function adminPage(main: HTMLElement, route: Route): Promise<Page | void> {
  if (!isAdmin()) {
    main.append(h('h1', {}, t('admin.title')), h('p.error', { role: 'alert', 'data-testid': 'admins-only' }, t('admin.forbidden')));
    if (!user()) main.append(h('button.primary', { type: 'button', onclick: () => void login() }, t('auth.login')));
    return;
  }
  const id = route.path[1];
  return id ? detailPage(main, id) : listPage(main, route);
}

/** An outcome, or the games the cheat detector flagged, or '' for all. */
type Filter = Outcome | 'SUSPICIOUS' | '';
const FILTERS: Filter[] = [...OUTCOMES, 'SUSPICIOUS', ''];

function listHref(outcome: Filter, level: Level | '', page = 0): string {
  const q = new URLSearchParams({ outcome: outcome || 'all' });
  if (level) q.set('level', level);
  if (page) q.set('page', String(page));
  return `#/admin?${q}`;
}

async function listPage(main: HTMLElement, route: Route): Promise<void> {
  const wanted = (route.query.get('outcome') ?? 'REJECTED').toUpperCase();
  const outcome: Filter = (FILTERS as string[]).includes(wanted) ? (wanted as Filter) : '';
  const lv = (route.query.get('level') ?? '').toUpperCase();
  const level: Level | '' = (LEVELS as readonly string[]).includes(lv) ? (lv as Level) : '';
  const page = Math.max(0, Math.min(100, Number(route.query.get('page')) || 0));

  const tabs = h('div.tabs', { role: 'tablist', 'aria-label': t('admin.outcome') },
    ...FILTERS.map((o) => h('a.tab', {
      href: listHref(o, level), role: 'tab', 'aria-selected': String(o === outcome), class: o === outcome ? 'active' : '',
      'data-testid': `outcome-${o || 'all'}`,
    }, o ? m(`outcome.${o}`) : m('outcome.all'))));
  const levelSelect = h('select', { id: 'audit-level', onchange: () => go(listHref(outcome, levelSelect.value as Level | '')) },
    h('option', { value: '', selected: level === '' }, m('admin.anyLevel')),
    ...LEVELS.map((l) => h('option', { value: l, selected: l === level }, t(`level.${l}`))));
  const body = h('div.audit-list', { 'aria-busy': 'true' }, h('p.note', {}, m('lb.loading')));
  main.append(h('h1', {}, t('admin.title')),
    h('div.lb-filters', {}, tabs, h('label.inline-field', { for: 'audit-level' }, h('span.label', {}, m('admin.level')), levelSelect)),
    body);

  try {
    const answer = await records.audits(outcome === 'SUSPICIOUS' ? { suspicious: true, level, page, size: SIZE } : { outcome, level, page, size: SIZE });
    body.removeAttribute('aria-busy');
    if (!answer.audits.length) {
      body.replaceChildren(h('p.note', {}, m('admin.empty')));
    } else {
      body.replaceChildren(h('table.audits', { 'data-testid': 'audits' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, m('admin.when')), h('th', { scope: 'col' }, m('admin.player')),
          h('th.hide-narrow', { scope: 'col' }, m('admin.level')), h('th.num.hide-narrow', { scope: 'col' }, m('admin.score')),
          h('th', { scope: 'col' }, t('admin.outcome')), h('th', { scope: 'col' }, h('span.visually-hidden', {}, m('admin.open'))))),
        h('tbody', {}, ...answer.audits.map((a) => h('tr', { dataset: { gameId: a.gameId, outcome: a.outcome } },
          h('td', {}, when(a.finishedAt)),
          h('td', {}, a.player?.name ?? h('span.note', {}, m('admin.guest')), h('span.show-narrow.note', {}, ` · ${t(`level.${a.level}`)}`)),
          h('td.hide-narrow', {}, t(`level.${a.level}`), ' · ', modeName(a.mode)),
          h('td.num.hide-narrow', {}, String(a.score), a.claimedScore !== null && a.claimedScore !== a.score ? h('span.note', {}, ` (${a.claimedScore})`) : null),
          h('td', {},
            h('span.outcome', { class: `o-${a.outcome.toLowerCase()}` }, m(`outcome.${a.outcome}`)),
            a.struck ? h('span.badge.struck', {}, m('me.struckYes')) : null,
            a.suspicious ? h('span.badge.struck', { 'data-testid': 'suspicious' }, m('admin.suspicious')) : null,
            a.reason ? h('div.reason', {}, a.reason) : null),
          h('td', {}, h('a.button.small', { href: `#/admin/${a.gameId}`, 'data-testid': 'audit-open' }, m('admin.open'))))))));
    }
    if (page > 0 || answer.more) {
      body.append(h('nav.pager', {},
        page > 0 ? h('a.button', { href: listHref(outcome, level, page - 1) }, `◀ ${t('lb.prev')}`) : h('span'),
        h('span.note', {}, m('lb.page', { n: page + 1 })),
        answer.more ? h('a.button', { href: listHref(outcome, level, page + 1) }, `${t('lb.more')} ▶`) : h('span')));
    }
  } catch (e) {
    body.removeAttribute('aria-busy');
    body.replaceChildren(errorBox(e));
  }
}

async function detailPage(main: HTMLElement, id: string): Promise<Page | void> {
  let detail: AuditDetail;
  main.append(h('p', {}, h('a', { href: '#/admin' }, `← ${m('admin.back')}`)));
  try {
    detail = await records.audit(id);
  } catch (e) {
    main.append(errorBox(e));
    return;
  }
  const facts = h('dl.facts', { 'data-testid': 'audit-facts' });
  const strikeBox = h('div.strike-info');
  const actionsBox = h('section.audit-actions');
  const traceBox = h('details.trace');
  const status = h('p.message', { role: 'status', 'data-testid': 'audit-status' });
  const reasonInput = h('input', { type: 'text', id: 'strike-reason', maxlength: '2000', placeholder: t('admin.strikeReason'), 'data-testid': 'strike-reason' });
  const revalidate = h('button.primary', { type: 'button', 'data-testid': 'revalidate', onclick: () => void act(() => records.revalidate(id), (d) => m('admin.revalidated', { outcome: m(`outcome.${d.summary.outcome}`) })) }, t('admin.revalidate'));
  const strike = h('button.danger', { type: 'button', 'data-testid': 'strike', onclick: () => {
    const reason = reasonInput.value.trim();
    if (!reason) {
      status.textContent = m('admin.reasonRequired');
      reasonInput.focus();
      return;
    }
    void act(() => records.strike(id, reason), () => m('admin.struckDone'));
  } }, t('admin.strike'));
  const verdict = h('div.verdict');
  // a daily game whose day is not over: no seed, replay or trace to show yet, and that is not an error
  const withheld = (d: AuditDetail) => (d.withheldUntil ? when(d.withheldUntil) : null);
  const viewer = withheld(detail)
    ? { el: h('p.note', { 'data-testid': 'audit-withheld' }, m('admin.withheldReplay', { until: withheld(detail)! })), dispose: undefined }
    : replayViewerOrError(auditReplay(detail));

  async function act(work: () => Promise<AuditDetail>, done: (d: AuditDetail) => string): Promise<void> {
    revalidate.disabled = strike.disabled = true;
    status.textContent = '';
    try {
      detail = await work();
      render();
      status.textContent = done(detail);
    } catch (e) {
      status.textContent = errorText(e);
      render();
    }
  }

  function render(): void {
    const s = detail.summary;
    const yes = (b: boolean) => (b ? m('admin.yes') : m('admin.no'));
    verdict.replaceChildren(
      h('span.outcome.big', { class: `o-${s.outcome.toLowerCase()}`, 'data-testid': 'audit-outcome' }, m(`outcome.${s.outcome}`)),
      s.struck ? h('span.badge.struck', {}, m('me.struckYes')) : '',
      s.suspicious ? h('span.badge.struck', {}, m('admin.suspicious')) : '',
      h('p.reason', { 'data-testid': 'audit-reason' }, h('strong', {}, `${t('admin.reason')}${lang() === 'fr' ? ' :' : ':'} `), s.reason ?? m('admin.noReason')));
    const fact = (label: string, value: string | number) => [h('dt', {}, label), h('dd', {}, String(value))];
    facts.replaceChildren(
      ...fact(m('admin.player'), s.player?.name ?? m('admin.guest')),
      ...fact(m('admin.level'), t(`level.${s.level}`)),
      ...fact(m('admin.mode'), modeName(s.mode)),
      ...fact(m('admin.score'), s.claimedScore !== null && s.claimedScore !== s.score ? `${s.score} (${s.claimedScore})` : String(s.score)),
      ...fact(m('admin.rounds'), s.rounds),
      ...fact(m('admin.assisted'), yes(s.assisted)),
      ...fact(m('admin.gameOver'), yes(s.gameOver)),
      ...fact(m('admin.validEvents'), detail.validEvents),
      ...fact(m('admin.aiAgreement'), s.aiAgreement === null || s.comparedRounds === null ? m('admin.notMeasured')
        : m('admin.agreement', { pct: Math.round(s.aiAgreement * 100), rounds: s.comparedRounds })),
      ...fact(m('admin.seed'), withheld(detail) ? m('admin.withheld', { until: withheld(detail)! }) : detail.seed ?? ''),
      ...fact(m('admin.when'), when(s.finishedAt)),
      ...fact(m('admin.processed'), when(s.processedAt)));
    strikeBox.replaceChildren(detail.strike
      ? h('p.note', { 'data-testid': 'strike-info' }, m('admin.struck', { at: when(detail.strike.at), by: detail.strike.by, reason: detail.strike.reason }))
      : s.outcome === 'RECORD' ? '' : h('p.note', {}, m('admin.strikeOnlyRecord')));
    const canStrike = s.outcome === 'RECORD' && !s.struck;
    revalidate.disabled = false;
    strike.disabled = !canStrike;
    reasonInput.disabled = !canStrike;
    traceBox.replaceChildren(h('summary', {}, `${t('admin.trace')} (${detail.trace.length})`),
      h('ol.trace-lines', { 'data-testid': 'audit-trace' }, ...detail.trace.map((line) => h('li', { class: line.startsWith('rejected') ? 'error' : '' }, line))));
    actionsBox.replaceChildren(h('h2', {}, m('admin.actions')),
      detail.actions.length
        ? h('ul.trail', { 'data-testid': 'audit-actions' }, ...detail.actions.map((a) =>
          h('li', {}, h('strong', {}, a.action), ` · ${a.actor} · ${when(a.at)}`, a.detail ? h('div.note', {}, a.detail) : null)))
        : h('p.note', {}, m('admin.noActions')));
  }

  render();
  main.append(
    h('h1.audit-title', {}, m('admin.detail', { id })),
    h('div.audit-layout', {},
      h('section.audit-summary', {}, verdict, facts, strikeBox,
        h('div.audit-buttons', {}, revalidate,
          h('div.strike-form', {}, h('label.visually-hidden', { for: 'strike-reason' }, t('admin.strikeReason')), reasonInput, strike)),
        status),
      h('section.audit-replay', {}, h('h2', {}, m('admin.replay')), viewer.el)),
    traceBox,
    actionsBox);
  return { dispose: viewer.dispose };
}
