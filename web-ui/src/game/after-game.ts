/*
 * What the end of a game offers (issue #15 "Play again, together"): a rematch in one click (same mode and level,
 * a new seed: every match the server makes has a new one), sharing a short text with the level, score, rounds
 * and the replay's link (the Web Share API where there is one, else the clipboard), and the analysis of the game.
 */
import { matches, type Level, type Match } from '../app/api';
import { h } from '../app/dom';
import { go } from '../app/router';
import { errorText } from '../app/ui';
import { records } from '../app/records-api';
import { m } from '../pages/together-i18n';
import { analysisPanel } from './analysis-view';
import { rememberTwoNames } from '../app/two-names';

export type RematchKind = { mode: 'VERSUS_AI'; level: Level; strength: number } | { mode: 'TWO_PLAYERS'; level: Level; names?: [string, string] }
  | { mode: 'ONLINE_RACE'; level: Level };

/** Starts the same kind of match again and opens it; an online race goes back into the level's queue (a new opponent). */
export async function rematch(kind: RematchKind): Promise<void> {
  if (kind.mode === 'ONLINE_RACE') {
    go(`#/race?level=${kind.level}`);
    return;
  }
  const made = await matches.create(kind.mode === 'VERSUS_AI' ? { mode: kind.mode, level: kind.level, strength: kind.strength } : { mode: kind.mode, level: kind.level });
  if (!('games' in made)) return;
  const match = made as Match;
  if (kind.mode === 'TWO_PLAYERS' && kind.names) rememberTwoNames(match.id, kind.names);
  go(kind.mode === 'VERSUS_AI' ? `#/versus/${match.id}` : `#/two/${match.id}`);
}

export function rematchButton(kind: RematchKind): HTMLElement {
  const status = h('span.note', { role: 'status' });
  const button = h('button.primary', { type: 'button', 'data-testid': 'rematch', onclick: async () => {
    button.disabled = true;
    try {
      await rematch(kind);
    } catch (e) {
      status.textContent = errorText(e);
      button.disabled = false;
    }
  } }, m('rematch'));
  return h('span.rematch', {}, button, status);
}

/** The short text a game is shared with. */
export function shareText(game: { level: Level; score: number; rounds: number; gameId?: string }, origin: string, levelName: string): string {
  const link = game.gameId ? `${origin}/#/replay/${game.gameId}` : origin;
  return m('shareText', { level: levelName, score: game.score, rounds: game.rounds, link });
}

/** Shares with the Web Share API when the device has it, else copies to the clipboard; says which. */
export function shareButton(text: () => string): HTMLElement {
  const status = h('span.note', { role: 'status', 'data-testid': 'share-status' });
  const button = h('button', { type: 'button', 'data-testid': 'share', onclick: async () => {
    const value = text();
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share({ text: value });
        status.textContent = m('shared');
        return;
      }
      await navigator.clipboard.writeText(value);
      status.textContent = m('copied');
    } catch (e) {
      // refused clipboard or a dismissed share sheet: show the text to copy by hand
      if (e instanceof DOMException && e.name === 'AbortError') return;
      status.textContent = value;
    }
  } }, m('share'));
  return h('span.share', {}, button, status);
}

/** The game-over screen's analysis: the chart and the biggest mistakes; "jump to" opens the replay at that placement. */
export function gameOverAnalysis(gameId: string): HTMLElement {
  const box = h('div.game-over-analysis', { 'data-testid': 'game-over-analysis' });
  void records.replay(gameId).then((replay) => {
    const panel = analysisPanel(replay, (mv) => go(`#/replay/${gameId}?at=${mv.event}`));
    box.replaceChildren(panel.root);
  }).catch((e) => box.replaceChildren(h('p.note', {}, errorText(e))));
  return box;
}
