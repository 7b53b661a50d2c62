import { gameOverAnalysis, shareButton, shareText } from '../game/after-game';
import { games, type GameState, type MoveAnswer } from '../app/api';
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { go, type Page, type Route } from '../app/router';
import { errorBox, errorText, overlay, scoreBoard, streakBadge } from '../app/ui';
import { BoardView } from '../game/board-view';
import { boardHref, dailyCard, dailyOf, dm, playDaily, startDaily, takeDailyChoice } from './daily';
import { chosenLevel, rememberSolo } from './home';
import { local } from '../app/store';

const bestKey = (level: string) => `bloc.best.${level}`;
/** Whether a game may set the device's personal best: unassisted, and on a seed nobody chose (as a record). */
const counts = (game: GameState) => !game.assisted && game.seedSource !== 'CHOSEN';

export async function soloPage(main: HTMLElement, route: Route): Promise<Page | void> {
  const id = route.path[1];
  if (!id || id === 'new') {
    const level = chosenLevel(route);
    const daily = route.query.get('daily') ? takeDailyChoice(level) : undefined;
    if (daily === null) {
      // the address alone (a link someone sent): offer the day's game, which counts once, rather than start it
      main.append(h('div', { 'data-testid': 'daily-start' },
        dailyCard(() => level, `${dm('daily.title')} · ${t(`level.${level}`)}`).root));
      return;
    }
    const seed = route.query.get('seed');
    const made = daily ? await startDaily(level, daily) : (await games.create(level, seed?.trim() || undefined)).id;
    if (main.isConnected) go(`#/solo/${made}`, true); // not when the player went elsewhere meanwhile
    return;
  }
  let game: GameState;
  try {
    game = await games.get(id);
  } catch (e) {
    main.append(errorBox(e), h('a.button', { href: '#/' }, t('game.home')));
    return;
  }

  // A daily game: its day, and whether it is practice; never its seed (game-service hides it until the day is over).
  const dailyGame = dailyOf(game.id, game.seedSource, game.day, game.practice);
  const header = h('div.game-header');
  const dailyBanner = dailyGame
    ? h('p.daily-banner', { role: 'status', 'data-testid': 'daily-banner' },
      h('strong', {}, dm('daily.badge', { day: dailyGame.day })),
      dailyGame.practice ? h('span.daily-practice', { 'data-testid': 'daily-practice' }, ` — ${dm('daily.practiceBadge')}`) : null)
    : null;
  const notice = h('p.assisted-notice', { role: 'status', 'data-testid': 'assisted-notice' }, t('game.assisted'));
  const message = h('p.message', { role: 'status' });
  const hintButton = h('button', { type: 'button', 'data-testid': 'hint', onclick: () => void hint() }, t('game.hint'));
  const undoButton = h('button', { type: 'button', 'data-testid': 'undo', onclick: () => void undo() }, t('game.undo'));
  const resignButton = h('button.ghost-button', { type: 'button', 'data-testid': 'resign', onclick: () => void resign() }, t('game.resign'));
  let lastMovedPiece: string | undefined;

  const view = new BoardView({
    onPlace: async (slot, row, col) => {
      lastMovedPiece = game.pieces[slot]?.id;
      try {
        const answer: MoveAnswer = await games.move(game.id, game.nextMoveNumber, slot, row, col);
        update(answer.game, answer);
        return true;
      } catch (e) {
        message.textContent = errorText(e);
        return false;
      }
    },
  });

  main.append(header, dailyBanner ?? '', notice, view.root, h('div.game-actions', {}, hintButton, undoButton, resignButton), message,
    h('p.keys-help', {}, t('game.keys')));

  function update(next: GameState, answer?: MoveAnswer): void {
    game = next;
    rememberSolo(game);
    message.textContent = '';
    const kept = Number(local.get(bestKey(game.level)) ?? 0);
    const best = Number.isFinite(kept) ? kept : 0; // a value that is no number (edited, cut short) counts as none
    header.replaceChildren(
      h('div.level-badge', { class: `lv-${game.level.toLowerCase()}` }, t(`level.${game.level}`)),
      scoreBoard([[t('game.score'), game.score, 'score'], [t('game.best'), Math.max(best, counts(game) ? game.score : 0)], [t('game.round'), game.round + 1]]),
      streakBadge(game.streak, game.miss),
    );
    notice.hidden = !game.assisted;
    view.show(game, answer?.move, lastMovedPiece);
    const playing = game.status === 'PLAYING';
    view.setEnabled(playing);
    hintButton.disabled = resignButton.disabled = !playing;
    undoButton.disabled = !playing || !game.undoMoveNumber;
    if (!playing) gameOver(best);
  }

  function gameOver(previousBest: number): void {
    const record = counts(game) && game.score > previousBest;
    if (record) local.set(bestKey(game.level), String(game.score));
    main.append(overlay(
      h('h2', {}, game.status === 'RESIGNED' ? t('game.resigned') : t('game.over')),
      h('p.final-score', { 'data-testid': 'final-score' }, t('game.finalScore', { score: game.score, rounds: game.round })),
      record ? h('p.record', {}, t('game.newRecord')) : null,
      game.assisted ? h('p.note', {}, t('game.assisted')) : null,
      h('div.actions', {},
        dailyGame
          ? h('button.primary', { type: 'button', 'data-testid': 'daily-again', onclick: () => playDaily(game.level, undefined) }, dm('daily.again'))
          : h('a.button.primary', { href: `#/solo/new?level=${game.level}` }, t('game.again')),
        dailyGame ? h('a.button', { href: boardHref(game.level, dailyGame.day), 'data-testid': 'daily-board' }, dm('daily.board')) : null,
        // a daily game's replay would show the day's pieces to others still to play it: watched from my games later
        dailyGame ? null : h('a.button', { href: `#/replay/${game.id}` }, t('game.replay')),
        dailyGame ? null : shareButton(() => shareText({ level: game.level, score: game.score, rounds: game.round, gameId: game.id }, location.origin, t(`level.${game.level}`))),
        h('a.button', { href: '#/' }, t('game.home'))),
      dailyGame ? null : gameOverAnalysis(game.id),
    ));
  }

  async function hint(): Promise<void> {
    try {
      const answer = await games.hint(game.id);
      update(answer.game);
      const first = answer.placements[0];
      if (first) view.showHint(first.slot, first.row, first.col);
      message.textContent = t('game.hintShown');
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  async function undo(): Promise<void> {
    try {
      lastMovedPiece = undefined;
      if (game.undoMoveNumber) update(await games.undo(game.id, game.undoMoveNumber));
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  async function resign(): Promise<void> {
    try {
      update(await games.resign(game.id));
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  update(game);
  return { dispose: () => view.dispose() };
}
