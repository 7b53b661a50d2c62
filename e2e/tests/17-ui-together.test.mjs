// Post-game analysis, rematch and a private race by link, in real Chromium against the real stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { loginAs, openApp, playByKeyboard, shoot, startFromHome } from '../lib/ui.mjs';

describe('web UI: analysis, rematch, private race', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('a finished game is analysed: the chart of the loss per placement and a jump to a mistake with the AI ghost', async () => {
    const { page, errors, context } = await openApp(browser, { hash: '#/solo/new?level=EASY' });
    await page.waitForURL(/#\/solo\/[0-9a-f-]{36}$/);
    const gameId = page.url().split('/').pop();
    for (let i = 0; i < 6; i++) await playByKeyboard(page);
    await page.getByTestId('resign').click();
    // the game-over screen shows the analysis too
    await page.waitForSelector('[data-testid="game-over-analysis"] svg.loss-chart', { timeout: 60_000 });
    await shoot(page, 'analysis-game-over');

    await page.goto(`${new URL(page.url()).origin}/#/replay/${gameId}`);
    await page.waitForFunction(() => /analysed|analysés/.test(document.querySelector('[data-testid="analysis-status"]')?.textContent ?? ''), null, { timeout: 60_000 });
    assert.ok(await page.locator('svg.loss-chart').count() === 1, 'the chart');
    const jumps = page.getByTestId('mistake-jump');
    const bars = await page.getByTestId('loss-bar').count();
    assert.ok(await jumps.count() <= 3);
    assert.equal(await jumps.count() > 0, bars > 0, 'a mistake listed for each costly placement drawn, up to three');
    if (await jumps.count() > 0) {
      const event = Number(await jumps.first().getAttribute('data-event'));
      await jumps.first().click();
      await page.waitForFunction((e) => document.querySelector('[data-testid="replay-slider"]')?.value === String(e), event);
      assert.match(await page.getByTestId('replay-advice').textContent(), /the AI plays/);
      assert.ok(await page.locator('.cell.ai-ghost').count() > 0, 'the AI choice drawn as a ghost');
    }
    await shoot(page, 'analysis-replay');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('rematch after versus AI: one click, a new match on the same level', async () => {
    const { page, errors, context } = await openApp(browser);
    await startFromHome(page, 'versus', { strength: 1 });
    const first = page.url();
    await page.getByTestId('resign').click();
    await page.waitForSelector('[data-testid="match-result"]', { timeout: 60_000 });
    await shoot(page, 'rematch-result');
    await page.getByTestId('rematch').click();
    await page.waitForFunction((u) => /#\/versus\/[0-9a-f-]{36}$/.test(location.href) && location.href !== u, first);
    await page.waitForSelector('.tray button.tray-slot');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a private race: the link races a friend in another browser context at once', async () => {
    const alice = await openApp(browser);
    const bob = await openApp(browser);
    await loginAs(alice.page, 'alice');
    await loginAs(bob.page, 'bob');
    await alice.page.goto(`${new URL(alice.page.url()).origin}/#/invite/new?level=MEDIUM`);
    const link = await alice.page.getByTestId('invite-link').inputValue({ timeout: 15_000 });
    assert.match(link, /#\/invite\/[A-Za-z0-9_-]{22}$/);
    await shoot(alice.page, 'private-race-link');
    await bob.page.goto(link);
    await bob.page.waitForURL(/#\/race\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    await alice.page.waitForURL(/#\/race\/[0-9a-f-]{36}$/, { timeout: 15_000 });
    assert.equal(new URL(alice.page.url()).hash, new URL(bob.page.url()).hash, 'one match for both');
    await bob.page.waitForSelector('.live-dot');
    await shoot(bob.page, 'private-race');
    // its maker opening it is refused (no race against oneself)
    await alice.page.goto(link);
    await alice.page.waitForSelector('.error, [role=alert]');
    assert.deepEqual(alice.errors, []);
    assert.deepEqual(bob.errors, []);
    await alice.context.close();
    await bob.context.close();
  });
});
