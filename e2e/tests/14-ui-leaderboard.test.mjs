// The leaderboards and the replay viewer in the browser against the real stack: alice plays a
// solo game with the keyboard and resigns; the game goes through Kafka to leaderboard-service and
// shows up on the level's leaderboard; its replay steps back to the score she had, for her and for
// anyone else who follows the link.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { call, eventually, LEADERBOARD } from '../lib/stack.mjs';
import { listenToFeedback, loginAs, openApp, shoot } from '../lib/ui.mjs';

const LEVEL = 'HARD';

/** The page of the all-time leaderboard holding the game, once leaderboard-service has it. */
async function pageOf(gameId) {
  for (let page = 0; page < 50; page++) {
    const res = await call(`${LEADERBOARD}/api/leaderboards/${LEVEL}?period=all&page=${page}&size=20`);
    if (res.status === 429) { // past this address's rate of reads (ReadRate): the same page again after the wait
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers?.get?.('retry-after') ?? 1)));
      page--;
      continue;
    }
    if (res.status !== 200) throw new Error(`leaderboard answered ${res.status} ${res.text.slice(0, 200)}`);
    const entry = res.json.entries.find((e) => e.gameId === gameId);
    if (entry) return { page, entry };
    if (!res.json.more) return null;
  }
  return null;
}

describe('leaderboards and replays in the UI', () => {
  let browser;
  let app;

  before(async () => {
    browser = await launchChromium();
    app = await openApp(browser);
  });

  after(async () => {
    await app?.context.close();
    await browser?.close();
  });

  test('alice plays, resigns, finds her game on the leaderboard and watches its replay', async () => {
    const { page, errors, context } = app;
    await context.addInitScript(listenToFeedback);
    await page.reload();
    await loginAs(page, 'alice');

    // Home → level → Solo "Play".
    await page.click(`label[for="level-${LEVEL}"]`);
    await page.click('[data-testid=play-solo]');
    await page.waitForURL(/#\/solo\/[0-9a-f-]{36}/, { timeout: 15_000 });
    await page.waitForSelector('[data-testid=score]');
    const gameId = page.url().match(/#\/solo\/([0-9a-f-]{36})/)[1];

    // A few pieces with the keyboard: 1/2/3 picks one, Enter drops it at the ghost.
    let score = Number(await page.textContent('[data-testid=score]'));
    for (const key of ['1', '2', '3', '1', '2']) {
      const slot = Number(key) - 1;
      const free = await page.locator(`.tray button.tray-slot[data-slot="${slot}"]:not(.blocked)`).count();
      if (!free) continue;
      await page.keyboard.press(key);
      await page.keyboard.press('Enter');
      await page.waitForFunction((before) => Number(document.querySelector('[data-testid=score]').textContent) > before, score, { timeout: 10_000 });
      score = Number(await page.textContent('[data-testid=score]'));
    }
    assert.ok(score > 0, 'the placements scored');

    await page.click('[data-testid=resign]');
    await page.waitForSelector('[data-testid=final-score]');

    // Through Kafka to leaderboard-service: wait for the record, then find it in the UI.
    const { page: lbPage, entry } = await eventually(`game ${gameId} on the ${LEVEL} leaderboard`, () => pageOf(gameId), { timeoutMs: 45_000, intervalMs: 1_500 });
    assert.equal(entry.score, score);
    assert.equal(entry.player, 'alice');
    const hash = `#/leaderboards?level=${LEVEL}&period=all${lbPage ? `&page=${lbPage}` : ''}`;
    await page.goto(`${new URL(page.url()).origin}/${hash}`);
    const row = page.locator(`tr[data-game-id="${gameId}"]`);
    await eventually('the row in the table', async () => {
      if (await row.count()) return true;
      await page.reload();
      await page.waitForSelector('[data-testid=leaderboard], .lb-empty', { timeout: 10_000 });
      return false;
    }, { timeoutMs: 30_000, intervalMs: 1_000 });
    assert.equal((await row.locator('[data-testid=lb-score]').textContent()).trim(), String(score));
    assert.equal((await row.locator('td.player').textContent()).trim(), 'alice');
    assert.ok(await row.evaluate((tr) => tr.classList.contains('mine')), 'her own row is marked');
    // My best and rank.
    await page.waitForSelector('[data-testid=my-standing] .lb-best');
    assert.match(await page.textContent('[data-testid=my-standing]'), /My best: \d+ points, rank \d+/);
    // The period tabs and the level picker keep working.
    await page.click('[data-testid=period-today]');
    await page.waitForURL(/period=today/);
    await page.waitForSelector('[data-testid=leaderboard]');
    assert.ok(await page.locator(`tr[data-game-id="${gameId}"]`).count() || lbPage > 0, 'today lists the game (or it is past the first page)');
    await page.goto(`${new URL(page.url()).origin}/${hash}`);
    await page.waitForSelector(`tr[data-game-id="${gameId}"]`);
    await shoot(page, 'leaderboards');

    // The replay: step through it to the end, where the score is the game's.
    await page.locator(`tr[data-game-id="${gameId}"] [data-testid=replay-link]`).click();
    await page.waitForURL(new RegExp(`#/replay/${gameId}`));
    await page.waitForSelector('[data-testid=replay-counter]');
    assert.match(await page.textContent('[data-testid=replay-counter]'), /^Move 0 \/ \d+$/);
    assert.equal((await page.textContent('[data-testid=replay-score]')).trim(), '0');
    await page.evaluate(() => { window.__tones = 0; });
    await page.click('[data-testid=replay-next]');
    assert.match(await page.textContent('[data-testid=replay-counter]'), /^Move 1 \//);
    await page.waitForFunction(() => window.__tones > 0, null, { timeout: 5_000 }); // a step forward sounds its move
    assert.match(await page.textContent('[data-testid=replay-event]'), /Piece .* at row \d+, column \d+/);
    assert.ok(Number(await page.textContent('[data-testid=replay-score]')) > 0);
    await page.keyboard.press('ArrowRight');
    assert.match(await page.textContent('[data-testid=replay-counter]'), /^Move 2 \//);
    await page.click('[data-testid=replay-prev]');
    assert.match(await page.textContent('[data-testid=replay-counter]'), /^Move 1 \//);
    await page.evaluate(() => { window.__tones = 0; });
    await page.click('[data-testid=replay-end]');
    assert.equal((await page.textContent('[data-testid=replay-score]')).trim(), String(score));
    // a jump is drawn silently: before, every move up to it started its sound at once
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => window.__tones), 0, 'no sound for a jump');
    assert.match(await page.textContent('[data-testid=replay-claim]'), /reaches exactly the claimed score/);
    assert.equal(await page.locator('[data-testid=replay-error]:visible').count(), 0);
    await page.click('[data-testid=replay-prev]');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'replay');

    // Anyone else who follows the link (the leaderboard's, or the one she shares) watches it too, logged in or not.
    const stranger = await openApp(browser, { hash });
    try {
      await stranger.page.locator(`tr[data-game-id="${gameId}"] [data-testid=replay-link]`).click();
      await stranger.page.waitForURL(new RegExp(`#/replay/${gameId}`));
      await stranger.page.waitForSelector('[data-testid=replay-counter]');
      await stranger.page.click('[data-testid=replay-end]');
      assert.equal((await stranger.page.textContent('[data-testid=replay-score]')).trim(), String(score));
      assert.deepEqual(stranger.errors, [], 'no page errors for a stranger');
    } finally {
      await stranger.context.close();
    }

    // My games lists it as a record with a replay link.
    await page.goto(`${new URL(page.url()).origin}/#/me`);
    await page.waitForSelector(`[data-testid=my-games] tr[data-game-id="${gameId}"][data-outcome=RECORD]`);
    await shoot(page, 'my-games');

    assert.deepEqual(errors, [], 'no page errors');
  });
});
