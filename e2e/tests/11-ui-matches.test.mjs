// Matches in the browser: versus AI to its result with the AI's grid updating live, two players
// on one device with the hand-over, and an online race between two logged-in browser contexts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { GAME, expectStatus } from '../lib/stack.mjs';
import { boardOf, loginAs, numberOf, openApp, playByKeyboard, shoot, startFromHome, trayOf } from '../lib/ui.mjs';

const tokenOf = (page, id) => page.evaluate((i) => JSON.parse(localStorage.getItem('bloc.gameTokens'))[i], id);
const filledCells = (rows) => rows.join('').split('').filter((c) => c === '#').length;

describe('web UI: matches', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('versus AI: the AI plays its own grid live, the first blocked sets the score to beat, then the result', async () => {
    const { page, errors, context } = await openApp(browser);
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await startFromHome(page, 'versus', { strength: 1 });
    const other = page.getByTestId('other-side');

    // Three pieces: the whole of round 0, so the AI (which never starts a round before the person has been
    // dealt it) may place more than the two first pieces of round 0 while this test watches.
    await playByKeyboard(page);
    await playByKeyboard(page);
    await playByKeyboard(page);
    // The AI places about one piece a second on its own grid, pushed over the match socket.
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="other-side"] .cell.filled')].length > 0, null, { timeout: 30_000 });
    const aiCellsBefore = filledCells(await boardOf(other));
    await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid="other-side"] .cell.filled')].length !== n, aiCellsBefore, { timeout: 30_000 });
    await shoot(page, 'versus');

    // Resigning makes my score the one to beat; the AI soon beats it and wins.
    const mine = await numberOf(page, 'score');
    await page.getByTestId('resign').click();
    await page.waitForSelector('[data-testid="match-result"]', { timeout: 60_000 });
    assert.equal((await page.getByTestId('match-result').textContent()).trim(), 'You lose.');
    assert.match(await page.getByTestId('target').textContent(), new RegExp(`Score to beat: ${mine}`));
    assert.ok(await numberOf(page, 'other-score') > mine, 'the AI beat the target');
    await shoot(page, 'versus-result');
    // the guest's game token goes as a subprotocol, never in the address (which proxies and access logs keep)
    assert.ok(sockets.length > 0, 'a socket was opened');
    for (const url of sockets) assert.doesNotMatch(url, /gameToken/, url);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('versus AI: a new match resigns the one left in play, offered on the home page until then', async () => {
    const { page, errors, context } = await openApp(browser);
    const first = await startFromHome(page, 'versus', { strength: 1 });
    const match = await expectStatus(200, `${GAME}/api/matches/${first}`, { headers: { 'X-Game-Token': await tokenOf(page, first) } });
    const person = match.json.games[match.json.yourSeat ?? 0].id;
    await playByKeyboard(page);
    await page.goto(`${GAME}/#/`);
    await page.getByTestId('resume-versus').waitFor();
    assert.equal(await page.getByTestId('resume-versus').getAttribute('href'), `#/versus/${first}`);

    await page.getByTestId('play-versus').click();
    await page.waitForURL((u) => /#\/versus\/[0-9a-f-]{36}$/.test(u.hash) && !u.hash.endsWith(first));
    await page.waitForSelector('[data-testid="other-side"] [role=grid]');
    const old = await expectStatus(200, `${GAME}/api/games/${person}`, { headers: { 'X-Game-Token': await tokenOf(page, person) } });
    assert.equal(old.json.status, 'RESIGNED', "the person's game of the match left for a new one is resigned");
    await page.goto(`${GAME}/#/`);
    await page.getByTestId('resume-versus').waitFor();
    assert.notEqual(await page.getByTestId('resume-versus').getAttribute('href'), `#/versus/${first}`, 'the new match is the one offered');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('two players: a new match resigns the games of the one left in play, offered on the home page until then', async () => {
    const { page, errors, context } = await openApp(browser);
    const first = await startFromHome(page, 'two');
    const match = await expectStatus(200, `${GAME}/api/matches/${first}`, { headers: { 'X-Game-Token': await tokenOf(page, first) } });
    await playByKeyboard(page);
    await page.goto(`${GAME}/#/`);
    await page.getByTestId('resume-two').waitFor();
    assert.equal(await page.getByTestId('resume-two').getAttribute('href'), `#/two/${first}`);

    await page.getByTestId('play-two').click();
    await page.getByTestId('two-start').waitFor();
    for (const g of match.json.games) {
      const old = await expectStatus(200, `${GAME}/api/games/${g.id}`, { headers: { 'X-Game-Token': await tokenOf(page, g.id) } });
      assert.equal(old.json.status, 'RESIGNED', `seat ${g.seat ?? ''} of the match left for a new one is resigned`);
    }
    await page.goto(`${GAME}/#/`);
    await page.locator('#mode-two').waitFor();
    assert.equal(await page.getByTestId('resume-two').count(), 0, 'nothing left to resume');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('two players on one device: names, player 1, the hand-over, player 2 on the same pieces, the comparison', async () => {
    const { page, errors, context } = await openApp(browser);
    await page.locator('label[for="level-EASY"]').click();
    await page.getByTestId('play-two').click();
    await page.fill('#name-1', 'Ana');
    await page.fill('#name-2', 'Ben');
    await shoot(page, 'two-names');
    await page.getByTestId('two-start').click();
    await page.waitForSelector('.tray button.tray-slot');
    assert.equal((await page.getByTestId('turn').textContent()).trim(), 'Ana to play');
    const firstPieces = (await trayOf(page)).map((p) => p.id);

    await playByKeyboard(page);
    await playByKeyboard(page);
    await page.getByTestId('resign').click();
    await page.waitForSelector('[data-testid="handover"]');
    assert.equal((await page.getByTestId('handover').textContent()).trim(), 'Hand the device to Ben');
    await shoot(page, 'two-handover');

    await page.getByTestId('handover-go').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="turn"]')?.textContent === 'Ben to play');
    assert.deepEqual((await trayOf(page)).map((p) => p.id), firstPieces, 'player 2 gets the same pieces');
    assert.equal(await numberOf(page, 'score'), 0);
    for (let i = 0; i < 3; i++) await playByKeyboard(page);
    await page.getByTestId('resign').click();
    await page.waitForSelector('[data-testid="match-result"]');
    assert.equal((await page.getByTestId('match-result').textContent()).trim(), 'Ben wins!');
    await shoot(page, 'two-result');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('online race: two logged-in players matched from the queue see each other live', async () => {
    const alice = await openApp(browser);
    const bob = await openApp(browser);
    await loginAs(alice.page, 'alice');
    await loginAs(bob.page, 'bob');

    await alice.page.locator('label[for="level-MEDIUM"]').click();
    await alice.page.getByTestId('play-race').click();
    await alice.page.waitForSelector('[data-testid="race-waiting"]');
    await shoot(alice.page, 'race-queue');

    await bob.page.locator('label[for="level-MEDIUM"]').click();
    await bob.page.getByTestId('play-race').click();
    await bob.page.waitForURL(/#\/race\/[0-9a-f-]{36}$/);
    await alice.page.waitForURL(/#\/race\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    assert.equal(new URL(alice.page.url()).hash, new URL(bob.page.url()).hash, 'one match for both');
    await bob.page.waitForSelector('.live-dot');
    await bob.page.waitForFunction(() => !document.querySelector('.connection')?.textContent);

    // Alice's placement appears on Bob's view of her grid, and her score with it.
    const startBoard = await boardOf(bob.page.getByTestId('other-side'));
    const move = await playByKeyboard(alice.page);
    await bob.page.waitForFunction((n) => [...document.querySelectorAll('[data-testid="other-side"] .cell.filled')].length > n,
      filledCells(startBoard), { timeout: 15_000 });
    const seen = await boardOf(bob.page.getByTestId('other-side'));
    for (const [r, c] of move.placed) assert.equal(seen[r][c], '#', `Bob sees Alice's cell (${r},${c})`);
    assert.equal(await numberOf(bob.page, 'other-score'), await numberOf(alice.page, 'score'));
    await shoot(bob.page, 'race');

    // Both resign: the best score wins, and both see the same result.
    await alice.page.getByTestId('resign').click();
    await bob.page.getByTestId('resign').click();
    await alice.page.waitForSelector('[data-testid="match-result"]', { timeout: 15_000 });
    await bob.page.waitForSelector('[data-testid="match-result"]', { timeout: 15_000 });
    assert.equal((await alice.page.getByTestId('match-result').textContent()).trim(), 'You win!');
    assert.equal((await bob.page.getByTestId('match-result').textContent()).trim(), 'You lose.');
    await shoot(alice.page, 'race-result');
    assert.deepEqual(alice.errors, []);
    assert.deepEqual(bob.errors, []);
    await alice.context.close();
    await bob.context.close();
  });
});
