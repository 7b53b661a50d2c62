// The daily challenge in the browser against the real stack: the home page's entry names
// today's UTC day and offers the level's daily game (or practice once alice started one today);
// the game shows its day and never its seed, and a new solo game leaves it in play; once she
// resigns, its daily board (also reached from the leaderboards page) lists her first started
// daily game of the day. The daily game's address opened by itself (a link) starts nothing until its button is pressed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { loginAs as tokenOf } from '../lib/keycloak.mjs';
import { call, eventually, expectStatus, GAME, LEADERBOARD } from '../lib/stack.mjs';
import { loginAs, openApp, playByKeyboard, shoot, startFromHome } from '../lib/ui.mjs';

const LEVEL = 'EXPERT';

describe('daily challenge in the UI', () => {
  let browser;
  let app;
  let token;

  before(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
    token = (await tokenOf(browser, 'alice')).access_token;
  });

  after(async () => {
    await app?.context.close();
    await browser?.close();
  });

  test('alice plays the daily game from the home page and finds it on its daily board', async () => {
    const { page, errors } = app;
    await loginAs(page, 'alice');
    const origin = new URL(page.url()).origin;

    // What game-service says about today, as the card must show it.
    const today = await call(`${GAME}/api/daily`, { token });
    assert.equal(today.status, 200, `GET /api/daily: ${today.status} ${today.text.slice(0, 200)}`);
    const day = today.json.day;
    assert.match(day, /^\d{4}-\d{2}-\d{2}$/);
    const startedBefore = today.json.levels.find((l) => l.level === LEVEL)?.started === true;

    // A link alone starts nothing: the daily game's address opened as it is (someone sent it) shows the day's card,
    // and only its button starts the game that counts.
    // (the link's card is daily-start's: the home page's own card, still shown until the hash renders, is not it)
    await page.goto(`${origin}/#/solo/new?level=${LEVEL}&daily=1`);
    await page.waitForFunction(() => document.querySelector('[data-testid=daily-start] [data-testid=daily-day]')?.textContent.trim(),
      null, { timeout: 10_000 });
    assert.match(page.url(), /#\/solo\/new\?/);
    const afterLink = await call(`${GAME}/api/daily`, { token });
    assert.equal(afterLink.json.levels.find((l) => l.level === LEVEL)?.started === true, startedBefore, 'the address alone started no daily game');
    await page.goto(`${origin}/#/`);

    // Home: the entry, its day, play or practice for the chosen level.
    await page.waitForSelector('[data-testid=daily-card]');
    assert.match(await page.textContent('#mode-daily-title'), /Daily challenge/);
    await page.click(`label[for="level-${LEVEL}"]`);
    await page.waitForFunction((d) => document.querySelector('[data-testid=daily-day]')?.textContent.includes(d), day);
    assert.equal((await page.textContent('[data-testid=play-daily]')).trim(), startedBefore ? 'Practice' : 'Play today’s challenge');
    await shoot(page, 'daily-home');

    await page.click('[data-testid=play-daily]');
    await page.waitForURL(/#\/solo\/[0-9a-f-]{36}/, { timeout: 15_000 });
    await page.waitForSelector('[data-testid=score]');
    const gameId = page.url().match(/#\/solo\/([0-9a-f-]{36})/)[1];
    assert.match(await page.textContent('[data-testid=daily-banner]'), new RegExp(`Daily challenge · ${day}`));
    assert.equal(await page.locator('[data-testid=daily-practice]').count(), startedBefore ? 1 : 0, 'practice is said only after a daily game was started');

    // No seed while it is played: not in game-service's answer, not on the page.
    const game = await call(`${GAME}/api/games/${gameId}`, { token });
    assert.equal(game.status, 200, game.text.slice(0, 200));
    assert.equal(game.json.level, LEVEL);
    assert.equal(game.json.seed ?? null, null, `a daily game in play shows no seed: ${game.text.slice(0, 200)}`);
    assert.doesNotMatch(await page.textContent('main'), /seed|graine/i);

    await playByKeyboard(page);
    await playByKeyboard(page);

    // The home page offers it to resume without "a new game ends this one": a new solo game leaves that day's one
    // attempt in play.
    await page.goto(`${origin}/#/`);
    await page.getByTestId('resume').waitFor();
    assert.equal(await page.getByTestId('resume').getAttribute('href'), `#/solo/${gameId}`);
    assert.equal(await page.getByTestId('resume-note').count(), 0);
    const other = await startFromHome(page, 'solo', { level: LEVEL });
    assert.equal((await call(`${GAME}/api/games/${gameId}`, { token })).json.status, 'PLAYING', 'a new game leaves the daily game in play');
    await expectStatus(200, `${GAME}/api/games/${other}/resign`, { method: 'POST', token });
    await page.goto(`${origin}/#/solo/${gameId}`);
    await page.waitForSelector('[data-testid=score]');
    const score = Number(await page.textContent('[data-testid=score]'));
    await page.click('[data-testid=resign]');
    await page.waitForSelector('[data-testid=final-score]');

    // The game-over screen leads to the daily board of that level and day.
    await page.click('.overlay [data-testid=daily-board]');
    await page.waitForURL(new RegExp(`#/daily\\?level=${LEVEL}&day=${day}`));
    await page.waitForSelector('[data-testid=daily-title]');

    // Through Kafka to leaderboard-service: alice's first started daily game of the day is on it
    // (this one, unless she started one earlier today).
    const board = await eventually(`alice on the ${LEVEL} daily board of ${day}`, async () => {
      const res = await call(`${LEADERBOARD}/api/leaderboards/${LEVEL}/daily?day=${day}`);
      if (res.status !== 200) throw new Error(`daily board answered ${res.status} ${res.text.slice(0, 200)}`);
      return res.json.entries.find((e) => e.player === 'alice') ? res.json : null;
    }, { timeoutMs: 45_000, intervalMs: 1_500 });
    const entry = board.entries.find((e) => e.player === 'alice');
    if (!startedBefore) {
      assert.equal(entry.gameId, gameId, 'her first daily game of the day counts');
      assert.equal(entry.score, score);
    } else {
      assert.notEqual(entry.gameId, gameId, 'a practice game does not replace her first one');
    }
    const row = page.locator(`tr[data-game-id="${entry.gameId}"]`);
    await eventually('her row on the page', async () => {
      if (await row.count()) return true;
      await page.reload();
      await page.waitForSelector('[data-testid=daily-board-table], [data-testid=daily-empty]', { timeout: 10_000 });
      return false;
    }, { timeoutMs: 30_000, intervalMs: 1_000 });
    assert.ok(await row.evaluate((tr) => tr.classList.contains('mine')), 'her own row is marked');
    assert.equal((await row.locator('[data-testid=lb-score]').textContent()).trim(), String(entry.score));
    await shoot(page, 'daily-board');

    // Home again: today's daily game of the level was started, so it offers practice.
    await page.goto(`${origin}/#/`);
    await page.click(`label[for="level-${LEVEL}"]`);
    await page.waitForFunction(() => document.querySelector('[data-testid=play-daily]')?.textContent.trim() === 'Practice', null, { timeout: 10_000 });

    // The daily address opened as it is offers practice too, and its button starts it there.
    await page.goto(`${origin}/#/solo/new?level=${LEVEL}&daily=1`);
    await page.waitForFunction(() => document.querySelector('[data-testid=daily-start] [data-testid=play-daily]')?.textContent.trim() === 'Practice', null, { timeout: 10_000 });
    await page.click('[data-testid=daily-start] [data-testid=play-daily]');
    await page.waitForURL(/#\/solo\/[0-9a-f-]{36}/, { timeout: 15_000 });
    await page.waitForSelector('[data-testid=daily-practice]');
    const practiceId = page.url().match(/#\/solo\/([0-9a-f-]{36})/)[1];
    await expectStatus(200, `${GAME}/api/games/${practiceId}/resign`, { method: 'POST', token });

    // The leaderboards page reaches the daily board too.
    await page.goto(`${origin}/#/leaderboards?level=${LEVEL}`);
    await page.click('[data-testid=daily-board-link]');
    await page.waitForURL(new RegExp(`#/daily\\?level=${LEVEL}`));
    await page.waitForSelector('[data-testid=daily-title]');

    assert.deepEqual(errors, [], 'no page errors');
  });
});
