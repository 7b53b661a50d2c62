// The attacks on the leaderboard that once worked, tried from outside against the real stack
// (docs/security.md): each is refused, with the reason in the admin audits. The forged
// game-finished and admin-cli tokens are tried in 15-ui-admin, 05-platform-security and 02-auth.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { loginAs } from '../lib/keycloak.mjs';
import { choose } from '../lib/rules.mjs';
import { call, eventually, expectStatus, GAME, LEADERBOARD } from '../lib/stack.mjs';

/** Plays `moves` placements of a game (or match seat) with the e2e chooser; the game's view after them. */
async function play(game, token, moves) {
  for (let i = 0; i < moves && game.status === 'PLAYING'; i++) {
    const move = choose(game.board, game.pieces.filter((p) => !p.placed));
    if (!move) break;
    const res = await expectStatus(200, `${GAME}/api/games/${game.id}/moves`, {
      method: 'POST', token, body: { moveNumber: game.nextMoveNumber, slot: move.slot, row: move.row, col: move.col },
    });
    game = res.json.game;
  }
  return game;
}

/** The admin audit of a finished game, once leaderboard-service has judged it. */
async function audited(gameId, adminToken) {
  let summary;
  await eventually(`game ${gameId} audited`, async () => {
    const res = await call(`${LEADERBOARD}/api/leaderboards/admin/audits/${gameId}`, { token: adminToken });
    if (res.status === 404) return false;
    assert.equal(res.status, 200, res.text.slice(0, 200));
    summary = res.json.summary;
    return true;
  }, { timeoutMs: 45_000, intervalMs: 1_000 });
  return summary;
}

describe('integrity, attempted from outside', () => {
  let browser;
  let alice;
  let admin;

  before(async () => {
    browser = await launchChromium();
    alice = (await loginAs(browser, 'alice')).access_token;
    admin = (await loginAs(browser, 'admin')).access_token;
  });
  after(() => browser?.close());

  test('a game on a seed of the player\'s choosing plays, but is not a record', async () => {
    const created = await expectStatus(201, `${GAME}/api/games`, { method: 'POST', token: alice, body: { level: 'EASY', seed: 7 } });
    assert.equal(created.json.seedSource, 'CHOSEN');
    const game = await play(created.json, alice, 3);
    await expectStatus(200, `${GAME}/api/games/${game.id}/resign`, { method: 'POST', token: alice });
    const summary = await audited(game.id, admin);
    assert.equal(summary.outcome, 'VALID_NOT_ELIGIBLE');
    assert.match(summary.reason, /chosen seed/);
  });

  test('a server seed is in no answer while the game plays, and its replay waits for the end', async () => {
    const created = await expectStatus(201, `${GAME}/api/games`, { method: 'POST', token: alice, body: { level: 'HARD' } });
    assert.equal(created.json.seedSource, 'SERVER');
    assert.equal(created.json.seed ?? null, null);
    const game = await play(created.json, alice, 2);
    assert.equal(game.seed ?? null, null);
    assert.equal((await expectStatus(200, `${GAME}/api/games/${game.id}`, { token: alice })).json.seed ?? null, null);
    await expectStatus(409, `${GAME}/api/games/${game.id}/replay`, { token: alice });
    const resigned = await expectStatus(200, `${GAME}/api/games/${game.id}/resign`, { method: 'POST', token: alice });
    assert.notEqual(resigned.json.seed ?? null, null, 'shown once the game has ended');
  });

  test('the daily challenge shows no seed, and its replay waits for the end of the day', async () => {
    const created = await expectStatus(201, `${GAME}/api/games`, { method: 'POST', token: alice, body: { level: 'MEDIUM', daily: true } });
    assert.equal(created.json.seedSource, 'DAILY');
    const resigned = await expectStatus(200, `${GAME}/api/games/${created.json.id}/resign`, { method: 'POST', token: alice });
    assert.equal(resigned.json.seed ?? null, null, 'not even once the game has ended');
    const replay = await expectStatus(409, `${GAME}/api/games/${created.json.id}/replay`, { token: alice });
    assert.match(replay.text, /day is over/);
  });

  test('two players: while seat 1 plays, neither the match nor seat 0\'s replay shows the seed', async () => {
    const created = await expectStatus(201, `${GAME}/api/matches`, { method: 'POST', token: alice, body: { mode: 'TWO_PLAYERS', level: 'EASY' } });
    const match = created.json;
    const [first, second] = match.games;
    await expectStatus(200, `${GAME}/api/games/${first.id}/resign`, { method: 'POST', token: alice });
    const state = await expectStatus(200, `${GAME}/api/matches/${match.id}`, { token: alice });
    assert.equal(state.json.seed ?? null, null, 'no seed while seat 1 plays');
    assert.ok(state.json.games.every((g) => (g.seed ?? null) === null), 'no game shows it');
    await expectStatus(409, `${GAME}/api/games/${first.id}/replay`, { token: alice });
    await expectStatus(200, `${GAME}/api/games/${second.id}/resign`, { method: 'POST', token: alice });
    const ended = await expectStatus(200, `${GAME}/api/matches/${match.id}`, { token: alice });
    assert.notEqual(ended.json.seed ?? null, null, 'shown once every seat has ended');
    // a match's games have results, not records
    const summary = await audited(second.id, admin);
    assert.equal(summary.outcome, 'VALID_NOT_ELIGIBLE');
    assert.match(summary.reason, /matches have results/);
  });
});
