/**
 * The daily challenge: today's game of a level (the same pieces for everyone on a UTC day; the seed is never
 * shown), the home page's entry for it and `#/daily?level=HARD&day=2026-12-01`, the board of each player's first
 * started daily game of that day. A later attempt on the same day is practice: it plays the same, and does not count.
 */
import { daily, games, LEVELS, type DailyToday, type Level } from '../app/api';
import { login, user } from '../app/auth';
import { h } from '../app/dom';
import { defineMessages, t } from '../app/i18n';
import { records, type Entry } from '../app/records-api';
import { go, type Route } from '../app/router';
import { errorBox, levelPicker } from '../app/ui';
import { dailyInPlay, dailyStarted, isDay, shiftDay, utcDay } from './daily-days';
import { replayLink } from './leaderboards';
import { m, when } from './records-i18n';
import { local } from '../app/store';

export const dm = defineMessages({
  fr: {
    'daily.title': 'Défi du jour',
    'daily.desc': 'Les mêmes pièces pour tout le monde aujourd’hui. Seule votre première partie du jour à chaque niveau peut compter au classement du jour : jouez-la sans indice ni annulation.',
    'daily.day': 'Défi du {day}',
    'daily.play': 'Jouer le défi du jour',
    'daily.practice': 'S’entraîner',
    'daily.done': 'Défi du jour déjà commencé à ce niveau : les parties suivantes sont de l’entraînement.',
    'daily.inPlay': 'Votre partie du jour à ce niveau est encore en cours : terminez-la d’abord, car elle ne comptera plus si vous commencez un entraînement.',
    'daily.notYet': 'Pas encore joué à ce niveau aujourd’hui.',
    'daily.guest': 'Connectez-vous pour que votre partie compte au classement du jour.',
    'daily.board': 'Classement du jour',
    'daily.badge': 'Défi du jour · {day}',
    'daily.practiceBadge': 'Entraînement : cette partie ne compte pas au classement du jour.',
    'daily.again': 'S’entraîner sur le défi',
    'daily.boardTitle': 'Classement du défi du jour',
    'daily.rule': 'Seule la première partie commencée de chaque joueur, ce jour-là, peut y figurer.',
    'daily.empty': 'Personne n’a encore terminé ce défi.',
    'daily.prevDay': 'Jour précédent',
    'daily.nextDay': 'Jour suivant',
    'daily.pickDay': 'Jour',
    'daily.mine': 'Votre partie du jour : {score} points, rang {rank}',
  },
  en: {
    'daily.title': 'Daily challenge',
    'daily.desc': 'The same pieces for everyone today. Only your first game of the day at each level can count on the daily board: play it without hints or undo.',
    'daily.day': 'Challenge of {day}',
    'daily.play': 'Play today’s challenge',
    'daily.practice': 'Practice',
    'daily.done': 'Today’s challenge already started at this level: further games are practice.',
    'daily.inPlay': 'Your game of today at this level is still in play: finish it first, as it stops counting once you start a practice game.',
    'daily.notYet': 'Not played at this level today yet.',
    'daily.guest': 'Log in so that your game counts on the daily board.',
    'daily.board': 'Daily board',
    'daily.badge': 'Daily challenge · {day}',
    'daily.practiceBadge': 'Practice: this game does not count on the daily board.',
    'daily.again': 'Practice the challenge',
    'daily.boardTitle': 'Daily challenge board',
    'daily.rule': 'Only each player’s first started game of that day can be on it.',
    'daily.empty': 'Nobody has finished this challenge yet.',
    'daily.prevDay': 'Previous day',
    'daily.nextDay': 'Next day',
    'daily.pickDay': 'Day',
    'daily.mine': 'Your game of the day: {score} points, rank {rank}',
  },
});

/** Today as game-service says, or the browser's UTC date (with nothing known started) when it cannot say. */
export async function today(): Promise<DailyToday> {
  try {
    return await daily.today();
  } catch {
    return { day: utcDay(new Date()), levels: LEVELS.map((level) => ({ level, started: false, finished: false })) };
  }
}

export function boardHref(level: Level, day?: string): string {
  return `#/daily?level=${level}${day ? `&day=${day}` : ''}`;
}

/** The daily games started on this device: game id → its day and whether it was started as practice. */
const DAILY_GAMES = 'bloc.dailyGames';

export interface DailyGame {
  day: string;
  practice: boolean;
}

function dailyGames(): Record<string, DailyGame> {
  try {
    return JSON.parse(local.get(DAILY_GAMES) ?? '{}');
  } catch {
    return {};
  }
}

function rememberDaily(id: string, game: DailyGame): void {
  const all = dailyGames();
  const oldest = shiftDay(game.day, -7);
  for (const [gameId, g] of Object.entries(all)) if (g.day < oldest) delete all[gameId];
  all[id] = game;
  local.set(DAILY_GAMES, JSON.stringify(all));
}

/** The daily game this is, as game-service says (its day, and whether it is practice), or as started here. */
export function dailyOf(id: string, seedSource?: string, day?: string | null, practice?: boolean): DailyGame | undefined {
  const known = dailyGames()[id];
  if (seedSource === 'DAILY' && day) return { day, practice: practice ?? known?.practice ?? false };
  return known;
}

/** A daily start asked for by a button of the page. */
export interface DailyChoice {
  level: Level;
  /** The day whose card offered practice, when it did. */
  practiceDay: string | null;
}

/**
 * The Play or Practice button just pressed: its level, and the day its card showed when it offered practice. Kept in
 * memory and taken once by the game page ({@link takeDailyChoice}), never in the page's address.
 * `#/solo/new?level=X&daily=1` opened any other way (a link someone sent, a bookmark, the history) starts nothing
 * ({@link takeDailyChoice} is null: the game page shows the daily card instead), since a logged-in player's first
 * daily game of the day is the one that counts, and practice would end the count of one in play.
 */
let dailyChosen: DailyChoice | null = null;

/** Opens the game page of today's daily game of the level, as practice when the card said so. */
export function playDaily(level: Level, now: DailyToday | undefined): void {
  dailyChosen = { level, practiceDay: now && dailyStarted(now, level) ? now.day : null };
  const hash = `#/solo/new?level=${level}&daily=1`;
  go(hash, location.hash === hash); // the card shown by that very address: render it again
}

/**
 * The daily start a button of this page asked for at this level, taken (it answers it once): null when the address
 * alone opened the daily game's page. Taken before anything is awaited, so that no later render of the address (a link
 * pasted in the same tab, Back, a re-render) finds a choice left over.
 */
export function takeDailyChoice(level: Level): DailyChoice | null {
  const chosen = dailyChosen;
  dailyChosen = null;
  return chosen?.level === level ? chosen : null;
}

/**
 * Starts today's daily game of the level (practice when one was started today already); its id. Asked for as
 * practice only when the Practice button of this level and day was pressed: a counting game still in play then stops
 * counting, and without it game-service refuses the start (409) rather than take that count away.
 */
export async function startDaily(level: Level, chosen: DailyChoice): Promise<string> {
  const now = await today();
  const g = await games.createDaily(level, chosen.practiceDay === now.day);
  rememberDaily(g.id, { day: g.day ?? now.day, practice: g.practice ?? dailyStarted(now, level) });
  return g.id;
}

/** The home page's card (and the daily address's, opened by a link): today's day, whether it was played at the chosen level, play or practice, the board. */
export function dailyCard(levelOf: () => Level, title = dm('daily.title')): { root: HTMLElement; refresh: () => void } {
  const state = h('p.note', { 'data-testid': 'daily-state' });
  const button = h('button.primary', { type: 'button', 'data-testid': 'play-daily' }, dm('daily.play'));
  const board = h('a.button', { href: boardHref(levelOf()), 'data-testid': 'daily-board' }, dm('daily.board'));
  const dayLine = h('p.daily-day', { 'data-testid': 'daily-day' });
  let now: DailyToday | undefined;
  button.addEventListener('click', () => playDaily(levelOf(), now));
  const refresh = () => {
    const level = levelOf();
    board.setAttribute('href', boardHref(level, now?.day));
    if (!now) return;
    dayLine.textContent = dm('daily.day', { day: now.day });
    const done = dailyStarted(now, level);
    button.textContent = done ? dm('daily.practice') : dm('daily.play');
    state.textContent = !user() ? dm('daily.guest') : done ? dm(dailyInPlay(now, level) ? 'daily.inPlay' : 'daily.done')
      : dm('daily.notYet');
  };
  void today().then((answer) => { now = answer; refresh(); });
  const root = h('section.mode-card.daily-card', { id: 'mode-daily', 'aria-labelledby': 'mode-daily-title', 'data-testid': 'daily-card' },
    h('h2', { id: 'mode-daily-title' }, title), h('p', {}, dm('daily.desc')), dayLine, state,
    h('div.actions', {}, button, board));
  return { root, refresh };
}

/** `#/daily?level=HARD&day=2026-12-01` (today by default). */
export async function dailyPage(main: HTMLElement, route: Route): Promise<void> {
  const q = route.query;
  const wanted = (q.get('level') ?? local.get('bloc.level') ?? 'EASY').toUpperCase();
  const level: Level = (LEVELS as readonly string[]).includes(wanted) ? (wanted as Level) : 'EASY';
  const now = await today();
  const asked = q.get('day');
  const day = isDay(asked) && asked <= now.day ? asked : now.day;
  const page = Math.max(0, Math.min(100, Number(q.get('page')) || 0));
  const me = user();
  const href = (l: Level, d: string, p = 0) => `${boardHref(l, d)}${p ? `&page=${p}` : ''}`;

  const dayPicker = h('input', { type: 'date', id: 'daily-day', value: day, max: now.day, 'data-testid': 'daily-day-picker',
    onchange: (e: Event) => { const v = (e.target as HTMLInputElement).value; if (isDay(v)) go(href(level, v)); } });
  const days = h('nav.daily-days', { 'aria-label': dm('daily.pickDay') },
    h('a.button', { href: href(level, shiftDay(day, -1)), rel: 'prev' }, `◀ ${dm('daily.prevDay')}`),
    h('label.visually-hidden', { for: 'daily-day' }, dm('daily.pickDay')), dayPicker,
    day < now.day ? h('a.button', { href: href(level, shiftDay(day, 1)), rel: 'next' }, `${dm('daily.nextDay')} ▶`) : h('span'));
  // today's board offers the game; another day's only shows who played it
  const play = h('div.daily-play', {}, day === now.day ? [
    h('button.primary', { type: 'button', 'data-testid': 'play-daily', onclick: () => playDaily(level, now) },
      dailyStarted(now, level) ? dm('daily.practice') : dm('daily.play')),
    me ? null : h('p.note', {}, dm('daily.guest'), ' ', h('button.link', { type: 'button', onclick: () => void login() }, t('auth.login'))),
  ] : []);
  const table = h('div.lb-table', { 'aria-busy': 'true' }, h('p.note', {}, m('lb.loading')));
  const mine = h('p.lb-best', { 'data-testid': 'daily-mine', hidden: true });
  main.append(
    h('h1', { 'data-testid': 'daily-title' }, dm('daily.boardTitle')),
    h('p.note', {}, dm('daily.rule')),
    h('div.lb-filters', {}, levelPicker(level, (l) => go(href(l, day)), 'daily-level'), days),
    play, mine, table,
    h('p', {}, h('a', { href: `#/leaderboards?level=${level}` }, t('lb.title'))),
  );

  const row = (e: Entry) => {
    const own = !!me && e.playerId === me.subject;
    if (own) {
      mine.hidden = false;
      mine.textContent = dm('daily.mine', { score: e.score, rank: e.rank });
    }
    return h('tr', { class: own ? 'mine' : '', dataset: { gameId: e.gameId, player: e.player } },
      h('td.num', {}, String(e.rank)),
      h('td.player', {}, e.player),
      h('td.num', { 'data-testid': 'lb-score' }, String(e.score)),
      h('td.num.hide-narrow', {}, String(e.rounds)),
      h('td.hide-narrow', {}, when(e.finishedAt)),
      // replays only of days that are over: today's would show the pieces to those still to play
      h('td', {}, day < now.day ? replayLink(e.gameId, t('game.replay')) : null));
  };

  try {
    const board = await records.daily(level, day, page);
    table.removeAttribute('aria-busy');
    if (!board.entries?.length) {
      table.replaceChildren(h('p.note.lb-empty', { 'data-testid': 'daily-empty' }, dm('daily.empty')));
    } else {
      table.replaceChildren(h('table.lb', { 'data-testid': 'daily-board-table' },
        h('caption.visually-hidden', {}, `${dm('daily.boardTitle')} — ${t(`level.${level}`)} — ${day}`),
        h('thead', {}, h('tr', {},
          h('th.num', { scope: 'col' }, t('lb.rank')), h('th', { scope: 'col' }, t('lb.player')),
          h('th.num', { scope: 'col' }, t('lb.score')), h('th.num.hide-narrow', { scope: 'col' }, t('lb.rounds')),
          h('th.hide-narrow', { scope: 'col' }, t('lb.date')), h('th', { scope: 'col' }, h('span.visually-hidden', {}, t('game.replay'))))),
        h('tbody', {}, ...board.entries.map(row))));
    }
    if (page > 0 || board.more) {
      table.append(h('nav.pager', {},
        page > 0 ? h('a.button', { href: href(level, day, page - 1), rel: 'prev' }, `◀ ${t('lb.prev')}`) : h('span'),
        board.more ? h('a.button', { href: href(level, day, page + 1), rel: 'next' }, `${t('lb.more')} ▶`) : h('span')));
    }
  } catch (e) {
    table.removeAttribute('aria-busy');
    table.replaceChildren(errorBox(e));
  }
}
