import { m as tm } from './together-i18n';
import { ApiError, games, LEVELS, matches, type GameState, type Level, type Match } from '../app/api';
import { login, user } from '../app/auth';
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { go, type Route } from '../app/router';
import { errorBox, levelPicker } from '../app/ui';
import { dailyCard } from './daily';
import { local } from '../app/store';

const LEVEL_KEY = 'bloc.level';
const RESUME_KEY = 'bloc.resume';
/** The versus-AI match being played in this browser: its id and the person's game, JSON. */
const VERSUS_KEY = 'bloc.versus';
/** The two-player match being played on this device: its id and its two games, JSON. */
const TWO_KEY = 'bloc.twoInPlay';

export function chosenLevel(route?: Route): Level {
  const wanted = route?.query.get('level') ?? local.get(LEVEL_KEY);
  return (LEVELS as readonly string[]).includes(wanted ?? '') ? (wanted as Level) : 'EASY';
}

/**
 * Whether an answer says a remembered game or match is gone or no longer this player's (403, 404): only then is the
 * home page's offer of it forgotten. Any other failure (offline, a 503 while a service restarts) keeps it for the next
 * visit, since the game is most likely still in play.
 */
export const isGone = (e: unknown) => e instanceof ApiError && (e.status === 403 || e.status === 404);

/**
 * Resigns what the home page offered to resume ({@code resign} does it), then forgets the offer ({@code forget});
 * a failure never stops the new game: it leaves the old one as it was, forgotten only when it is gone.
 */
export async function endOffered(resign: () => Promise<void>, forget: () => void): Promise<void> {
  try {
    await resign();
    forget();
  } catch (e) {
    if (isGone(e)) forget();
  }
}

/** The solo game to offer on the home page while it is being played. */
export function rememberSolo(game: GameState): void {
  if (game.status === 'PLAYING') local.set(RESUME_KEY, game.id);
  else forgetSolo(game.id);
}

/**
 * The home page's Play, when it offers to resume a solo game (the one it showed, {@code id}, beside the note "a new
 * game ends this one"): resigns that game if it is still in play, so that it is published with its score, as the games
 * of this family keep one game at a time. Left in play, every game given up for a new one would count against the
 * player's open games for 30 minutes (game-service's games-per-client, 10), and a guest could not even reach it to
 * resign it. A daily game is never offered with that note, so never ended here: it is that day's one attempt. Never
 * stops the new game: a failure leaves the old one as it was (the offer is forgotten only when the game is gone or
 * no longer ours).
 */
async function endResumable(id: string): Promise<void> {
  await endOffered(async () => {
    if ((await games.get(id)).status === 'PLAYING') await games.resign(id);
  }, () => forgetSolo(id));
}

function forgetSolo(id: string): void {
  if (local.get(RESUME_KEY) === id) local.remove(RESUME_KEY);
}

/** The versus-AI match to offer on the home page while its person's game is being played (match.ts keeps it). */
export function rememberVersus(matchId: string, mine: GameState, finished: boolean): void {
  if (!finished && mine.status === 'PLAYING') local.set(VERSUS_KEY, JSON.stringify({ match: matchId, game: mine.id }));
  else forgetVersus(matchId);
}

function forgetVersus(matchId: string): void {
  if (versusInPlay()?.match === matchId) local.remove(VERSUS_KEY);
}

function versusInPlay(): { match: string; game: string } | undefined {
  try {
    const v = JSON.parse(local.get(VERSUS_KEY) ?? 'null');
    return typeof v?.match === 'string' && typeof v?.game === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The two-player match to offer on the home page while one of its games is being played (two.ts keeps it). */
export function rememberTwo(match: Match): void {
  if (match.status !== 'FINISHED' && match.games.some((g) => g.status === 'PLAYING')) {
    local.set(TWO_KEY, JSON.stringify({ match: match.id, games: match.games.map((g) => g.id) }));
  } else {
    forgetTwo(match.id);
  }
}

function forgetTwo(matchId: string): void {
  if (twoInPlay()?.match === matchId) local.remove(TWO_KEY);
}

function twoInPlay(): { match: string; games: string[] } | undefined {
  try {
    const v = JSON.parse(local.get(TWO_KEY) ?? 'null');
    return typeof v?.match === 'string' && Array.isArray(v?.games) && v.games.every((g: unknown) => typeof g === 'string') ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The home page's Play for two players, when it offers to resume a match: resigns its games still in play, as
 * {@link endResumable} does for solo (a two-player match is two of the player's 10 open games).
 */
async function endTwo(v: { match: string; games: string[] }): Promise<void> {
  await endOffered(async () => {
    for (const id of v.games) {
      if ((await games.get(id)).status === 'PLAYING') await games.resign(id);
    }
  }, () => forgetTwo(v.match));
}

/**
 * The home page's Play for versus AI, when it offers to resume a match (the one it showed): resigns the person's game
 * of it, as {@link endResumable} does for solo. A client may have 3 versus-AI matches open (game-service's
 * ai-matches-per-client); a resigned match still counts until the AI has beaten its score or is blocked (its
 * searches go on until then), which frees it sooner than the 30 minutes a match left in play counts.
 */
async function endVersus(v: { match: string; game: string }): Promise<void> {
  await endOffered(async () => {
    if ((await games.get(v.game)).status === 'PLAYING') await games.resign(v.game);
  }, () => forgetVersus(v.match));
}

export async function homePage(main: HTMLElement, route: Route): Promise<void> {
  let level = chosenLevel(route);
  let strength = Number(local.get('bloc.strength') ?? 3);
  const status = h('div.status');

  const card = (id: string, title: string, desc: string, ...body: (Node | null)[]) =>
    h('section.mode-card', { id: `mode-${id}`, 'aria-labelledby': `mode-${id}-title` },
      h('h2', { id: `mode-${id}-title` }, title), h('p', {}, desc), ...body);

  const strengthPicker = h('div.segmented.strength', { role: 'radiogroup', 'aria-label': t('home.strength') },
    ...[1, 2, 3, 4, 5].map((s) => h('span', {},
      h('input', { type: 'radio', name: 'strength', id: `strength-${s}`, value: String(s), checked: s === strength,
        onchange: () => { strength = s; local.set('bloc.strength', String(s)); } }),
      h('label', { for: `strength-${s}` }, String(s)))));

  const act = async (work: () => Promise<void>) => {
    status.replaceChildren();
    try {
      await work();
    } catch (e) {
      status.replaceChildren(errorBox(e));
    }
  };

  const dailyEntry = dailyCard(() => level);
  // the games this page offers to resume, beside the note that a new one ends them (set once they are read below)
  let offeredSolo: string | undefined;
  let offeredVersus: { match: string; game: string } | undefined;
  let offeredTwo: { match: string; games: string[] } | undefined;

  main.append(
    h('section.hero', {}, h('h1', {}, t('app.title')), h('p.tagline', {}, t('home.tagline'))),
    h('div.level-choice', {}, h('h2.visually-hidden', {}, t('home.level')),
      levelPicker(level, (l) => { level = l; local.set(LEVEL_KEY, l); dailyEntry.refresh(); })),
    h('div.resume-slot'),
    h('div.modes', {},
      dailyEntry.root,
      card('solo', t('home.solo'), t('home.solo.desc'),
        h('button.primary', { type: 'button', 'data-testid': 'play-solo', onclick: () => act(async () => {
          if (offeredSolo) await endResumable(offeredSolo);
          go(`#/solo/new?level=${level}`);
        }) }, t('home.play'))),
      card('versus', t('home.versus'), t('home.versus.desc'),
        h('div.field', {}, h('span.label', {}, t('home.strength')), strengthPicker),
        h('div.versus-resume-slot'),
        h('button.primary', { type: 'button', 'data-testid': 'play-versus', onclick: () => act(async () => {
          if (offeredVersus) await endVersus(offeredVersus);
          const m = await matches.create({ mode: 'VERSUS_AI', level, strength });
          if ('id' in m && main.isConnected) go(`#/versus/${m.id}`); // not when the player went elsewhere meanwhile
        }) }, t('home.play'))),
      card('two', t('home.two'), t('home.two.desc'),
        h('div.two-resume-slot'),
        h('button.primary', { type: 'button', 'data-testid': 'play-two', onclick: () => act(async () => {
          if (offeredTwo) await endTwo(offeredTwo);
          go(`#/two?level=${level}`);
        }) }, t('home.play'))),
      card('race', t('home.race'), t('home.race.desc'),
        user()
          ? h('div.actions', {}, h('button.primary', { type: 'button', 'data-testid': 'play-race', onclick: () => go(`#/race?level=${level}`) }, t('race.join')),
            h('button', { type: 'button', 'data-testid': 'race-friend', onclick: () => go(`#/invite/new?level=${level}`) }, tm('invite.make')))
          : h('div', {}, h('p.note', {}, t('auth.required')), h('button', { type: 'button', onclick: () => void login() }, t('auth.login'))))),
    status,
  );

  const versus = versusInPlay();
  if (versus) {
    try {
      const g = await games.get(versus.game);
      if (g.status === 'PLAYING') {
        offeredVersus = versus;
        main.querySelector('.versus-resume-slot')!.append(
          h('a.button.resume', { href: `#/versus/${versus.match}`, 'data-testid': 'resume-versus' }, t('home.resumeVersus', { score: g.score })),
          h('p.note', {}, t('home.resumeVersusNote')));
      } else {
        forgetVersus(versus.match);
      }
    } catch (e) {
      if (isGone(e)) forgetVersus(versus.match);
    }
  }

  const two = twoInPlay();
  if (two) {
    try {
      const m = await matches.get(two.match);
      rememberTwo(m);
      if (twoInPlay()?.match === m.id) {
        offeredTwo = two;
        main.querySelector('.two-resume-slot')!.append(
          h('a.button.resume', { href: `#/two/${m.id}`, 'data-testid': 'resume-two' }, t('home.resumeTwo')),
          h('p.note', {}, t('home.resumeVersusNote')));
      }
    } catch (e) {
      if (isGone(e)) forgetTwo(two.match);
    }
  }

  const resumeId = local.get(RESUME_KEY);
  if (resumeId) {
    try {
      const g = await games.get(resumeId);
      rememberSolo(g);
      if (g.status === 'PLAYING') {
        if (g.seedSource !== 'DAILY') offeredSolo = g.id;
        main.querySelector('.resume-slot')!.append(h('a.button.resume', { href: `#/solo/${g.id}`, 'data-testid': 'resume' },
          t('home.resume', { level: t(`level.${g.level}`), score: g.score })),
        g.seedSource === 'DAILY' ? '' : h('p.note', { 'data-testid': 'resume-note' }, t('home.resumeNote')));
      }
    } catch (e) {
      if (isGone(e)) forgetSolo(resumeId);
    }
  }
}
