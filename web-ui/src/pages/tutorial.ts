/**
 * #/tutorial: shown on the first visit to the home page (localStorage `bloc.tutorial` unset), skippable at every
 * step and replayable from the settings, the rules and the header. Played locally (game/tutorial.ts): nothing is sent.
 */
import { h } from '../app/dom';
import { defineMessages, t } from '../app/i18n';
import { go } from '../app/router';
import { scoreBoard, streakBadge } from '../app/ui';
import { BoardView } from '../game/board-view';
import { startStep, STEPS, tutorialMove, type TutorialState } from '../game/tutorial';
import { local } from '../app/store';

export const TUTORIAL_KEY = 'bloc.tutorial';

export const tm = defineMessages({
  fr: {
    title: 'Tutoriel',
    step: 'Étape {n} sur {total}',
    'goal.place': 'Faites glisser la pièce sur la grille (ou touchez-la puis une case ; au clavier : 1, les flèches, Entrée).',
    'goal.clear': 'Remplissez la ligne du bas : une ligne ou une colonne pleine disparaît et rapporte des points.',
    'goal.streak': 'Encore une ligne tout de suite : la série passe à ×2 et multiplie les points des lignes.',
    'done.place': 'Bien ! Chaque case posée vaut 1 point.',
    'done.clear': 'Ligne effacée ! Voyez la série : ×1.',
    'done.streak': 'Série ×2 : ces lignes valent le double. Elle se perd à la troisième pièce sans ligne.',
    retry: 'Pas tout à fait : essayez encore (la case entourée montre où).',
    next: 'Suivant',
    skip: 'Passer le tutoriel',
    play: 'Jouer',
    rules: 'Lire les règles',
    finished: 'Vous savez tout l’essentiel. Trois pièces par manche ; la partie s’arrête quand aucune ne rentre.',
    link: 'Tutoriel',
  },
  en: {
    title: 'Tutorial',
    step: 'Step {n} of {total}',
    'goal.place': 'Drag the piece onto the grid (or tap it, then a cell; by keyboard: 1, the arrows, Enter).',
    'goal.clear': 'Fill the bottom row: a full row or column disappears and scores.',
    'goal.streak': 'Another line straight away: the streak goes to ×2 and multiplies the lines’ points.',
    'done.place': 'Good! Each cell placed is worth 1 point.',
    'done.clear': 'Line cleared! See the streak: ×1.',
    'done.streak': 'Streak ×2: these lines count double. It is lost on the third piece without a line.',
    retry: 'Not quite: try again (the ringed cells show where).',
    next: 'Next',
    skip: 'Skip the tutorial',
    play: 'Play',
    rules: 'Read the rules',
    finished: 'You know the essentials. Three pieces a round; the game ends when none fits.',
    link: 'Tutorial',
  },
});

function remember(how: 'done' | 'skipped'): void {
  local.set(TUTORIAL_KEY, how);
}

export function tutorialSeen(): boolean {
  // storage refused: not shown at every visit to the home page, since nothing could remember it was
  return !local.available() || !!local.get(TUTORIAL_KEY);
}

export function tutorialPage(main: HTMLElement): { dispose: () => void } {
  let index = 0;
  let carried = { score: 0, streak: 0, miss: 0 };
  let state: TutorialState = startStep(STEPS[0], carried);
  let placedId: string | undefined;

  const counter = h('p.tutorial-step', { 'data-testid': 'tutorial-step' });
  const instruction = h('p.tutorial-goal', { role: 'status', 'aria-live': 'polite', 'data-testid': 'tutorial-goal' });
  const header = h('div.game-header');
  const next = h('button.primary', { type: 'button', 'data-testid': 'tutorial-next', hidden: true, onclick: () => advance() }, tm('next'));
  const skip = h('button.ghost-button', { type: 'button', 'data-testid': 'tutorial-skip', onclick: () => { remember('skipped'); go('#/'); } }, tm('skip'));

  const view = new BoardView({
    label: tm('title'),
    onPlace: async (slot, row, col) => {
      const step = STEPS[index];
      placedId = state.pieces[slot]?.id;
      const move = tutorialMove(step, state, slot, row, col);
      if (!move) return false;
      state = move.state;
      draw(move.outcome);
      if (move.passed) {
        instruction.textContent = tm(`done.${step.goal}`);
        view.setEnabled(false);
        next.hidden = false;
        next.focus();
      } else {
        instruction.textContent = tm('retry');
        setTimeout(() => restart(), 900);
      }
      return true;
    },
  });

  function draw(outcome?: Parameters<BoardView['show']>[1]): void {
    header.replaceChildren(scoreBoard([[t('game.score'), state.score, 'score']]), streakBadge(state.streak, state.miss));
    view.show(state, outcome, outcome ? placedId : undefined);
  }

  function restart(): void {
    if (!main.isConnected) return;
    const step = STEPS[index];
    state = startStep(step, carried);
    counter.textContent = tm('step', { n: index + 1, total: STEPS.length });
    instruction.textContent = tm(`goal.${step.goal}`);
    next.hidden = true;
    view.setEnabled(true);
    draw();
    const t = step.target;
    view.showHint(t.slot, t.row, t.col);
  }

  function advance(): void {
    carried = { score: state.score, streak: state.streak, miss: state.miss };
    if (++index < STEPS.length) {
      restart();
      return;
    }
    remember('done');
    view.setEnabled(false);
    counter.textContent = '';
    instruction.textContent = tm('finished');
    next.hidden = true;
    actions.replaceChildren(
      h('a.button.primary', { href: '#/', 'data-testid': 'tutorial-play' }, tm('play')),
      h('a.button', { href: '#/rules' }, tm('rules')));
    (actions.firstElementChild as HTMLElement).focus();
  }

  const actions = h('div.game-actions', {}, next, skip);
  main.append(h('h1', {}, tm('title')), counter, instruction, header, view.root, actions);
  restart();
  return { dispose: () => view.dispose() };
}
