/** Small pieces of UI the pages share. */
import { ApiError, LEVELS, type Level } from './api';
import { h } from './dom';
import { t } from './i18n';

export function errorText(e: unknown): string {
  if (e instanceof ApiError && e.status === 0) return t('error.offline');
  return t('error.generic', { message: e instanceof Error ? e.message : String(e) });
}

export function errorBox(e: unknown): HTMLElement {
  return h('p.error', { role: 'alert' }, errorText(e));
}

export function levelPicker(selected: Level, onChange: (level: Level) => void, name = 'level'): HTMLElement {
  return h('div.segmented', { role: 'radiogroup', 'aria-label': t('home.level') },
    ...LEVELS.map((level) => {
      const id = `${name}-${level}`;
      const input = h('input', { type: 'radio', name, id, value: level, checked: level === selected, onchange: () => onChange(level) });
      return h('span', {}, input, h('label', { for: id, class: `lv-${level.toLowerCase()}` }, t(`level.${level}`)));
    }),
  );
}

export function scoreBoard(items: [string, string | number, string?][]): HTMLElement {
  return h('div.scores', {}, ...items.map(([label, value, test]) =>
    h('div.score-item', {}, h('span.label', {}, label), h('span.value', { dataset: test ? { testid: test } : {} }, String(value)))));
}

/** The streak as ×n and the grace left before it is lost (RULES.md: lost on the third piece without a line). */
export function streakBadge(streak: number, miss: number): HTMLElement {
  const left = 3 - miss;
  return h('div.streak', { class: streak > 0 ? 'on' : '', title: t('game.streakGrace', { left }), 'data-testid': 'streak' },
    h('span.label', {}, t('game.streak')),
    h('span.value', {}, `×${Math.min(Math.max(streak, 1), 8)}`),
    h('span.grace', { role: 'img', 'aria-label': t('game.streakGrace', { left }) },
      ...[0, 1, 2].map((i) => h('i', { class: streak > 0 && i < left ? 'pip on' : 'pip' }))));
}

const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog over the page (game over, hand-over, results). Once shown it takes the focus (its card, so a screen
 * reader reads it from its title) and keeps Tab and Shift+Tab inside it.
 */
export function overlay(...children: (Node | string | null)[]): HTMLElement {
  const card = h('div.overlay-card', { tabindex: '-1' }, ...children);
  const title = card.querySelector('h2, h3');
  if (title && !title.id) title.id = `dialog-title-${++dialogs}`;
  const el = h('div.overlay', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': title?.id }, card);
  el.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab') return;
    const items = [...card.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((x) => x.offsetParent !== null);
    if (!items.length) return;
    const [first, last] = [items[0], items[items.length - 1]];
    const at = document.activeElement;
    if (e.shiftKey && (at === first || at === card)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && at === last) {
      e.preventDefault();
      first.focus();
    }
  });
  requestAnimationFrame(() => { if (el.isConnected && !el.contains(document.activeElement)) card.focus(); });
  return el;
}
let dialogs = 0;
