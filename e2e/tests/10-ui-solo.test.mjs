// A solo game in the browser: played by drag and by keyboard, with the ghost and the clear
// preview checked against the rules, hint and undo with the "no record" notice, and game over.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { choose } from '../lib/rules.mjs';
import { GAME, expectStatus } from '../lib/stack.mjs';
import { boardOf, cellsWith, dropPoint, expectGhost, openApp, playByKeyboard, shoot, startFromHome, trayOf, waitForScoreAbove, numberOf } from '../lib/ui.mjs';

describe('web UI: solo', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('a solo game by drag and by keyboard, hint and undo, then game over', async () => {
    const { page, errors, context } = await openApp(browser);
    await shoot(page, 'home');
    await startFromHome(page, 'solo');
    assert.equal(await page.getByTestId('assisted-notice').isVisible(), false);

    // By drag: the ghost follows the pointer, snaps to the cell, and the drop is applied.
    let board = await boardOf(page);
    let move = choose(board, await trayOf(page));
    const from = await page.locator(`.tray-slot[data-slot="${move.slot}"]`).boundingBox();
    const to = await dropPoint(page, move.id, move.row, move.col);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 7, to.y - 6, { steps: 12 }); // a little off: it snaps to the nearest cell
    await expectGhost(page, move);
    await page.mouse.up();
    await waitForScoreAbove(page, 0);
    board = await boardOf(page);
    for (const [r, c] of move.placed) assert.equal(board[r][c], '#', `drop filled (${r},${c})`);

    // An illegal drop (onto filled cells, far from any fit) returns the piece to the tray.
    const tray = await trayOf(page);
    const filled = await page.locator(`.grid .cell[data-row="${move.row}"][data-col="${move.col}"]`).boundingBox();
    const slot = page.locator(`.tray-slot[data-slot="${tray[0].slot}"]`);
    const sb = await slot.boundingBox();
    await page.mouse.move(sb.x + sb.width / 2, sb.y + sb.height / 2);
    await page.mouse.down();
    await page.mouse.move(filled.x - 300, filled.y - 300, { steps: 6 });
    assert.deepEqual(await cellsWith(page, 'ghost'), [], 'no ghost off the board');
    await page.mouse.up();
    assert.deepEqual(await trayOf(page), tray, 'the piece is back in the tray');

    // By keyboard, until a move clears a line (its preview checked before Enter).
    let cleared = false;
    for (let i = 0; i < 30 && !cleared; i++) {
      move = await playByKeyboard(page);
      cleared = move.cleared.length > 0;
      if (cleared) await shoot(page, 'solo-clear');
    }
    assert.ok(cleared, 'a line was cleared within 30 moves');
    await shoot(page, 'solo');

    // Esc cancels a selection.
    await page.keyboard.press('1');
    await page.keyboard.press('Escape');
    assert.deepEqual(await cellsWith(page, 'ghost'), []);

    // Hint: a suggestion on the grid and the notice that no record can be set any more.
    await page.getByTestId('hint').click();
    await page.waitForSelector('.grid .cell.hint');
    assert.ok(await page.getByTestId('assisted-notice').isVisible());
    assert.match(await page.getByTestId('assisted-notice').textContent(), /no longer set a record/);

    // Undo takes the last placement back (never across a deal: so not the round's last piece).
    if ((await trayOf(page)).length === 1) await playByKeyboard(page);
    board = await boardOf(page);
    const beforeUndo = await numberOf(page, 'score');
    move = await playByKeyboard(page);
    await page.getByTestId('undo').click();
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid="score"]').textContent) === s, beforeUndo);
    assert.deepEqual(await boardOf(page), board, 'undo restored the board');
    await shoot(page, 'solo-assisted');

    // Resigning ends the game: the score and what to do next.
    await page.getByTestId('resign').click();
    await page.waitForSelector('[data-testid="final-score"]');
    assert.match(await page.getByTestId('final-score').textContent(), new RegExp(`^${beforeUndo} points`));
    await shoot(page, 'game-over');

    // French by default for a new visitor, and the switch sticks.
    const fr = await browser.newContext();
    const p2 = await fr.newPage();
    await p2.goto(`${new URL(page.url()).origin}/#/`);
    await p2.getByTestId('tutorial-skip').click(); // a first visit opens the tutorial, in French
    await p2.waitForSelector('[data-testid="play-solo"]');
    assert.equal(await p2.getAttribute('html', 'lang'), 'fr');
    assert.match(await p2.textContent('#mode-solo'), /Partie sans fin/);
    await p2.getByRole('button', { name: 'English' }).click();
    await p2.waitForSelector('text=Endless, with hint and undo.');
    await p2.reload();
    await p2.waitForSelector('text=Endless, with hint and undo.');
    await fr.close();

    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });

  test('a new game ends the one the home page offered to resume: resigned, so it does not stay open', async () => {
    const { page, errors, context } = await openApp(browser);
    const first = await startFromHome(page, 'solo');
    await playByKeyboard(page);
    await page.goto(`${GAME}/#/`);
    await page.getByTestId('resume').waitFor();
    assert.equal(await page.getByTestId('resume').getAttribute('href'), `#/solo/${first}`);
    assert.match(await page.getByTestId('resume-note').textContent(), /A new game ends this one/);

    await page.getByTestId('play-solo').click();
    await page.waitForURL((u) => /#\/solo\/[0-9a-f-]{36}$/.test(u.hash) && !u.hash.endsWith(first));
    await page.waitForSelector('.tray button.tray-slot');
    const token = await page.evaluate((id) => JSON.parse(localStorage.getItem('bloc.gameTokens'))[id], first);
    const old = await expectStatus(200, `${GAME}/api/games/${first}`, { headers: { 'X-Game-Token': token } });
    assert.equal(old.json.status, 'RESIGNED', 'the game given up for a new one is resigned');
    await page.goto(`${GAME}/#/`);
    await page.getByTestId('resume').waitFor();
    assert.notEqual(await page.getByTestId('resume').getAttribute('href'), `#/solo/${first}`, 'the new game is the one to resume');

    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });

  test('the offer to resume outlives a failed read of the game (a 503, offline): only a game gone or not ours is forgotten', async () => {
    const { page, errors, context } = await openApp(browser);
    const id = await startFromHome(page, 'solo');
    await page.goto(`${GAME}/#/`);
    await page.getByTestId('resume').waitFor();

    // game-service restarting, then the player offline: the home page cannot read the game and offers nothing,
    // but keeps it for the next visit
    const game = `**/api/games/${id}`;
    const stored = () => page.evaluate(() => localStorage.getItem('bloc.resume'));
    const visitWith = async (answer, event) => {
      await page.route(game, answer);
      const seen = page.waitForEvent(event, (r) => r.url().endsWith(`/api/games/${id}`));
      await page.reload();
      await seen;
      await page.getByTestId('play-solo').waitFor();
      await page.waitForTimeout(500); // the page's handling of the answer (nothing to wait for when nothing changes)
      await page.unroute(game);
    };
    const problem = (status) => (route) => route.fulfill({ status, contentType: 'application/problem+json',
      body: JSON.stringify({ title: `status ${status}`, status }) });
    await visitWith(problem(503), 'requestfinished');
    assert.equal(await page.getByTestId('resume').count(), 0);
    assert.equal(await stored(), id, 'kept after a 503');
    await visitWith((route) => route.abort('internetdisconnected'), 'requestfailed');
    assert.equal(await stored(), id, 'kept while offline');
    await page.reload();
    await page.getByTestId('resume').waitFor();
    assert.equal(await page.getByTestId('resume').getAttribute('href'), `#/solo/${id}`, 'offered again once it can be read');

    // a game that is not ours (403) is forgotten
    await visitWith(problem(403), 'requestfinished');
    assert.equal(await stored(), null, 'forgotten once refused');

    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });

  test('a page still loading when the player went elsewhere neither writes into the next page nor takes them back', async () => {
    const { page, errors, context } = await openApp(browser);
    // the new game's creation answers late: first a refusal, then a game
    for (const answer of ['refused', 'made']) {
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      await page.route('**/api/games', async (route) => {
        await held;
        if (answer === 'refused') {
          await route.fulfill({ status: 429, contentType: 'application/problem+json', headers: { 'Retry-After': '1' },
            body: JSON.stringify({ title: 'Too Many Requests', status: 429, detail: 'slow down' }) });
        } else {
          await route.continue();
        }
      });
      const asked = page.waitForRequest((r) => r.url().endsWith('/api/games') && r.method() === 'POST');
      await page.goto(`${GAME}/#/solo/new?level=EASY`);
      await asked;
      await page.goto(`${GAME}/#/rules`);
      await page.locator('main h1').waitFor();
      const answered = page.waitForResponse((r) => r.url().endsWith('/api/games'));
      release();
      await answered;
      await page.waitForTimeout(500); // the late page's handling of its answer
      assert.match(page.url(), /#\/rules$/, `${answer}: the player stays where they went`);
      assert.equal(await page.locator('main .error').count(), 0, `${answer}: no error of the page they left`);
      await page.unroute('**/api/games');
    }
    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });
});
