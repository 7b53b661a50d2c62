/** Versus AI and online races: your grid large, the other side's beside it, live over the match socket. */
import { gameOverAnalysis, rematchButton, shareButton, shareText } from '../game/after-game';
import { m as tm } from './together-i18n';
import { ApiError, games, matches, type GameState, type Match, type MoveAnswer, type Ticket } from '../app/api';
import { h } from '../app/dom';
import { defineMessages, t } from '../app/i18n';
import { MatchLive, type GameUpdate } from '../app/live';
import { poll } from '../app/poll';
import { go, type Page, type Route } from '../app/router';
import { errorBox, errorText, overlay, scoreBoard, streakBadge } from '../app/ui';
import { BoardView } from '../game/board-view';
import { chosenLevel, rememberVersus } from './home';

const m = defineMessages({
  fr: { connecting: 'Connexion…', offline: 'Connexion perdue, reconnexion…', waitingSince: 'En file depuis {s} s', aiThinking: 'L’IA joue…', blocked: 'Bloqué', playing: 'En jeu', resigned: 'Abandon', won: 'A battu le score' },
  en: { connecting: 'Connecting…', offline: 'Connection lost, reconnecting…', waitingSince: 'Waiting for {s} s', aiThinking: 'The AI is playing…', blocked: 'Blocked', playing: 'Playing', resigned: 'Resigned', won: 'Beat the score' },
});

function statusText(status: GameState['status']): string {
  return { PLAYING: m('playing'), OVER: m('blocked'), RESIGNED: m('resigned'), WON: m('won') }[status];
}

export async function versusPage(main: HTMLElement, route: Route): Promise<Page | void> {
  return duel(main, route.path[1], 'versus');
}

export async function racePage(main: HTMLElement, route: Route): Promise<Page | void> {
  const id = route.path[1];
  if (id) return duel(main, id, 'race');
  return queue(main, route);
}

/** Joins the race queue of a level and waits for a second player. */
async function queue(main: HTMLElement, route: Route): Promise<Page | void> {
  const level = chosenLevel(route);
  const status = h('p.waiting', { role: 'status', 'data-testid': 'race-waiting' }, t('race.waiting'));
  let ticket: Ticket | undefined;
  let asking: { stop(): void } | undefined;
  const since = Date.now();
  /** Leaves the queue unless matched; a closed tab is passed over by the server once it stops asking. */
  const leaveQueue = async () => {
    asking?.stop();
    const waiting = ticket;
    ticket = undefined;
    if (waiting) await matches.leave(waiting.ticket).catch(() => undefined);
  };
  const leave = h('button', { type: 'button', onclick: async () => {
    await leaveQueue();
    go('#/');
  } }, t('race.leave'));
  main.append(h('section.queue', {}, h('h1', {}, t('home.race')), h('div.level-badge', { class: `lv-${level.toLowerCase()}` }, t(`level.${level}`)),
    h('div.spinner', { 'aria-hidden': 'true' }), status, leave));
  try {
    const answer = await matches.create({ mode: 'ONLINE_RACE', level });
    if ('games' in answer) {
      if (main.isConnected) go(`#/race/${answer.id}`, true); // not when the player went elsewhere meanwhile
      return;
    }
    ticket = answer;
  } catch (e) {
    main.append(errorBox(e));
    return;
  }
  const current = ticket;
  asking = poll(() => {
    status.textContent = `${t('race.waiting')} ${m('waitingSince', { s: Math.round((Date.now() - since) / 1000) })}`;
    return matches.ticket(current.ticket);
  }, 1000, (now) => {
    if (!now.matchId) return false;
    ticket = undefined;
    go(`#/race/${now.matchId}`, true);
    return true;
  }, (e) => {
    status.textContent = errorText(e);
    return !(e instanceof ApiError && e.status === 404); // the ticket is no more: asking again cannot help
  });
  return { dispose: () => void leaveQueue() };
}

async function duel(main: HTMLElement, matchId: string, kind: 'versus' | 'race'): Promise<Page | void> {
  let match: Match;
  try {
    match = await matches.get(matchId);
  } catch (e) {
    main.append(errorBox(e), h('a.button', { href: '#/' }, t('game.home')));
    return;
  }
  const mine = match.yourSeat ?? 0;
  const other = 1 - mine;
  let me: GameState = match.games[mine];
  let lastPiece: string | undefined;

  const myHeader = h('div.game-header');
  const otherHeader = h('div.game-header.small');
  const target = h('p.target', { 'data-testid': 'target', hidden: true });
  const message = h('p.message', { role: 'status' });
  const connection = h('p.connection', { role: 'status' }, m('connecting'));
  const resign = h('button.ghost-button', { type: 'button', 'data-testid': 'resign', onclick: () => void doResign() }, t('game.resign'));
  let resultShown = false;

  const myView = new BoardView({
    onPlace: async (slot, row, col) => {
      lastPiece = me.pieces[slot]?.id;
      try {
        const answer: MoveAnswer = await games.move(me.id, me.nextMoveNumber, slot, row, col);
        live.seen(mine, answer.game.version);
        showMine(answer.game, answer);
        return true;
      } catch (e) {
        message.textContent = errorText(e);
        return false;
      }
    },
  });
  const otherView = new BoardView({ small: true, label: kind === 'versus' ? t('versus.ai', { strength: match.strength ?? 3 }) : t('race.opponent') });
  const otherTitle = kind === 'versus' ? t('versus.ai', { strength: match.strength ?? 3 }) : t('race.opponent');

  main.append(
    h('div.duel', {},
      h('section.side.mine', { 'aria-label': t('versus.you') }, h('h2', {}, t('versus.you')), myHeader, myView.root),
      h('section.side.other', { 'aria-label': otherTitle, 'data-testid': 'other-side' }, h('h2', {}, otherTitle, kind === 'race' ? h('span.live-dot', {}, t('race.live')) : null), otherHeader, otherView.root)),
    target, h('div.game-actions', {}, resign), message, connection, h('p.keys-help', {}, t('game.keys')),
  );

  function showMine(shown: GameState, answer?: MoveAnswer): void {
    // A state frame or a fetch can be older than a move answer that arrived before it: never step my own game back
    // (its nextMoveNumber would be stale and the next move refused).
    const game = (shown.version ?? -1) >= (me.version ?? -1) ? shown : me;
    me = game;
    myHeader.replaceChildren(scoreBoard([[t('game.score'), game.score, 'score'], [t('game.round'), game.round + 1]]), streakBadge(game.streak, game.miss));
    myView.show(game, answer?.move, lastPiece);
    myView.setEnabled(game.status === 'PLAYING' && match.status === 'PLAYING');
    resign.disabled = game.status !== 'PLAYING' || match.status !== 'PLAYING';
  }

  function showOther(game: { board: string[]; score: number; status: GameState['status']; round: number; piece?: string }): void {
    otherHeader.replaceChildren(scoreBoard([[t('game.score'), game.score, 'other-score'], [t('game.round'), game.round + 1]]),
      h('span.other-status', { 'data-testid': 'other-status' }, statusText(game.status)));
    otherView.show(game, undefined, game.piece);
  }

  function showMatch(next: Match): void {
    match = next;
    if (match.mode === 'VERSUS_AI') rememberVersus(match.id, match.games[mine], match.status === 'FINISHED');
    showMine(match.games[mine]);
    showOther(match.games[other]);
    if (match.targetScore !== null && match.targetScore !== undefined) {
      target.hidden = false;
      target.textContent = t('versus.target', { score: match.targetScore });
    }
    if (match.status === 'FINISHED' && !resultShown) {
      resultShown = true;
      const verdict = match.winnerSeat === null || match.winnerSeat === undefined ? t('match.draw') : match.winnerSeat === mine ? t('match.win') : t('match.lose');
      main.append(overlay(
        h('h2', {}, t('match.result')),
        h('p.result', { 'data-testid': 'match-result' }, verdict),
        h('p', {}, `${t('versus.you')} ${match.games[mine].score} — ${otherTitle} ${match.games[other].score}`),
        match.result ? h('p.note', {}, match.result) : null,
        h('div.actions', {},
          rematchButton(kind === 'versus' ? { mode: 'VERSUS_AI', level: match.level, strength: match.strength ?? 3 } : { mode: 'ONLINE_RACE', level: match.level }),
          kind === 'race' ? h('a.button', { href: `#/invite/new?level=${match.level}`, 'data-testid': 'race-friend' }, tm('invite.make')) : null,
          h('a.button', { href: '#/' }, t('game.home')),
          h('a.button', { href: `#/replay/${match.games[mine].id}` }, t('game.replay')),
          shareButton(() => shareText({ level: match.level, score: match.games[mine].score, rounds: match.games[mine].round, gameId: match.games[mine].id }, location.origin, t(`level.${match.level}`)))),
        gameOverAnalysis(match.games[mine].id),
      ));
    }
  }

  async function doResign(): Promise<void> {
    try {
      await games.resign(me.id);
      showMatch(await matches.get(match.id));
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  const live = new MatchLive(match.id, {
    state: (s) => showMatch(s),
    update: (g: GameUpdate) => {
      if (g.seat === other) showOther(g);
      // A change of my own game made elsewhere (another tab): fetch it whole.
      else if (g.version > (me.version ?? -1)) void games.get(me.id).then((fresh) => fresh.version! >= g.version && showMine(fresh));
    },
    error: (_, text) => (message.textContent = text),
    connection: (open) => (connection.textContent = open ? '' : m('offline')),
  });
  showMatch(match);
  return { dispose: () => { live.close(); myView.dispose(); } };
}
