/** Two players on one device: the same pieces, one after the other, then the comparison. */
import { rematchButton } from '../game/after-game';
import { games, matches, type GameState, type Match, type MoveAnswer } from '../app/api';
import { h } from '../app/dom';
import { t } from '../app/i18n';
import { rememberTwoNames, twoNames } from '../app/two-names';
import { go, type Page, type Route } from '../app/router';
import { errorBox, errorText, overlay, scoreBoard, streakBadge } from '../app/ui';
import { BoardView } from '../game/board-view';
import { chosenLevel, rememberTwo } from './home';

export async function twoPage(main: HTMLElement, route: Route): Promise<Page | void> {
  const id = route.path[1];
  if (!id) return namesForm(main, route);
  let match: Match;
  try {
    match = await matches.get(id);
  } catch (e) {
    main.append(errorBox(e));
    return;
  }
  rememberTwo(match);
  const names: [string, string] = twoNames(id) ?? [t('two.player', { n: 1 }), t('two.player', { n: 2 })];
  const seatPlaying = () => (match.games[0].status === 'PLAYING' ? 0 : 1);
  let seat = seatPlaying();
  let handedOver = seat === 0;
  let lastPiece: string | undefined;

  const turn = h('h2.turn', { 'data-testid': 'turn' });
  const header = h('div.game-header');
  const message = h('p.message', { role: 'status' });
  const resign = h('button.ghost-button', { type: 'button', 'data-testid': 'resign', onclick: () => void doResign() }, t('game.resign'));
  const view = new BoardView({
    onPlace: async (slot, row, col) => {
      const game = match.games[seat];
      lastPiece = game.pieces[slot]?.id;
      try {
        const answer: MoveAnswer = await games.move(game.id, game.nextMoveNumber, slot, row, col);
        match.games[seat] = answer.game;
        show(answer.game, answer);
        if (answer.game.status !== 'PLAYING') await next();
        return true;
      } catch (e) {
        message.textContent = errorText(e);
        return false;
      }
    },
  });
  main.append(turn, header, view.root, h('div.game-actions', {}, resign), message, h('p.keys-help', {}, t('game.keys')));

  function show(game: GameState, answer?: MoveAnswer): void {
    turn.textContent = t('two.turn', { name: names[seat] });
    header.replaceChildren(scoreBoard([[t('game.score'), game.score, 'score'], [t('game.round'), game.round + 1]]), streakBadge(game.streak, game.miss));
    view.show(game, answer?.move, lastPiece);
    view.setEnabled(game.status === 'PLAYING' && handedOver);
  }

  async function next(): Promise<void> {
    match = await matches.get(match.id);
    rememberTwo(match);
    if (match.status === 'FINISHED' || seatPlaying() === 1 && match.games[1].status !== 'PLAYING') {
      finish();
    } else if (seat === 0) {
      seat = 1;
      handedOver = false;
      handOver();
    }
  }

  function handOver(): void {
    view.setEnabled(false);
    const card = overlay(
      h('h2', { 'data-testid': 'handover' }, t('two.handover', { name: names[1] })),
      h('p.final-score', {}, `${names[0]} : ${t('game.finalScore', { score: match.games[0].score, rounds: match.games[0].round })}`),
      h('div.actions', {}, h('button.primary', { type: 'button', 'data-testid': 'handover-go', onclick: () => {
        card.remove();
        handedOver = true;
        lastPiece = undefined;
        view.show({ board: ['........', '........', '........', '........', '........', '........', '........', '........'] });
        show(match.games[1]);
      } }, t('two.handoverGo', { name: names[1] }))),
    );
    main.append(card);
  }

  function finish(): void {
    view.setEnabled(false);
    resign.disabled = true;
    const [a, b] = match.games;
    const winner = a.score === b.score ? t('match.draw') : t('two.winner', { name: names[a.score > b.score ? 0 : 1] });
    main.append(overlay(
      h('h2', {}, t('match.result')),
      h('p.result', { 'data-testid': 'match-result' }, winner),
      h('table.compare', {}, h('tbody', {},
        ...[0, 1].map((s) => h('tr', {}, h('td', {}, names[s]), h('td.num', {}, String(match.games[s].score)), h('td.num', {}, `${match.games[s].round} ${t('game.round').toLowerCase()}`))))),
      h('div.actions', {}, rematchButton({ mode: 'TWO_PLAYERS', level: match.level, names }), h('a.button', { href: `#/two?level=${match.level}` }, t('game.again')), h('a.button', { href: '#/' }, t('game.home'))),
    ));
  }

  async function doResign(): Promise<void> {
    try {
      match.games[seat] = await games.resign(match.games[seat].id);
      show(match.games[seat]);
      await next();
    } catch (e) {
      message.textContent = errorText(e);
    }
  }

  if (match.status === 'FINISHED') {
    show(match.games[1]);
    finish();
  } else if (!handedOver) {
    show(match.games[seat]);
    handOver();
  } else {
    show(match.games[seat]);
  }
  return { dispose: () => view.dispose() };
}

function namesForm(main: HTMLElement, route: Route): void {
  const level = chosenLevel(route);
  const inputs = [1, 2].map((n) => h('input', { type: 'text', id: `name-${n}`, maxlength: '20', value: t('two.player', { n }), 'aria-label': t('two.player', { n }) }));
  const status = h('div');
  const form = h('form.names', { onsubmit: async (e: Event) => {
    e.preventDefault();
    try {
      const match = await matches.create({ mode: 'TWO_PLAYERS', level });
      if (!('games' in match)) return;
      const names = inputs.map((i, n) => i.value.trim() || t('two.player', { n: n + 1 }));
      rememberTwoNames(match.id, names as [string, string]);
      if (main.isConnected) go(`#/two/${match.id}`); // not when the player went elsewhere meanwhile
    } catch (err) {
      status.replaceChildren(errorBox(err));
    }
  } },
  h('h1', {}, t('home.two')), h('div.level-badge', { class: `lv-${level.toLowerCase()}` }, t(`level.${level}`)),
  h('h2', {}, t('two.names')),
  ...inputs.map((input, n) => h('label.field', {}, h('span.label', {}, t('two.player', { n: n + 1 })), input)),
  h('button.primary', { type: 'submit', 'data-testid': 'two-start' }, t('two.start')), status);
  main.append(form);
}
