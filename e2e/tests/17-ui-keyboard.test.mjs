// A whole solo game with the keyboard alone: from the home page's Play button to the game-over dialog, picking by
// 1/2/3 and by Tab to the tray, placing with Enter and with Space, and Tab out of the grid to Hint, Undo and Resign
// (the board once kept Tab for itself while pieces remained: those buttons were out of a keyboard player's reach).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { boardOf, cellsWith, focused, numberOf, openApp, playByKeyboard, shoot, tabTo, trayOf } from '../lib/ui.mjs';

describe('web UI: keyboard', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('a solo game by keyboard only, with Hint and Undo, Tab leaving the grid', async () => {
    const { page, errors, context } = await openApp(browser);
    await page.waitForSelector('[data-testid="play-solo"]');
    await tabTo(page, 'label[for="level-EASY"], #level-EASY');
    await page.keyboard.press('Space');
    await tabTo(page, '[data-testid="play-solo"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tray button.tray-slot');
    assert.match(page.url(), /#\/solo\/[0-9a-f-]{36}$/);
    const help = page.locator('.keys-help');
    assert.ok(await help.isVisible(), 'the keys help line is on the page');
    assert.match(await help.textContent(), /1\/2\/3.*Enter or Space.*Tab/);

    // 1/2/3, arrows, Enter; then Space places like Enter.
    await playByKeyboard(page);
    await playByKeyboard(page, { place: 'Space' });
    assert.equal(await focused(page), 'div.grid', 'picking put the focus on the grid');

    // A piece is picked and the focus is on the grid: Tab leaves it for the tray, then the game's buttons.
    const [first] = await trayOf(page);
    await page.keyboard.press(String(first.slot + 1));
    assert.ok((await cellsWith(page, 'ghost')).length > 0, 'a ghost on the grid');
    await page.keyboard.press('Tab');
    assert.notEqual(await focused(page), 'div.grid', 'Tab left the grid');
    await tabTo(page, '[data-testid="hint"]', { max: 4 });
    const scoreBefore = await numberOf(page, 'score');
    const boardBefore = await boardOf(page);
    await page.keyboard.press('Enter'); // presses Hint: never places the picked piece
    await page.waitForSelector('.grid .cell.hint');
    assert.ok(await page.getByTestId('assisted-notice').isVisible());
    assert.equal(await numberOf(page, 'score'), scoreBefore, 'Enter on Hint placed nothing');
    assert.deepEqual(await boardOf(page), boardBefore);

    // Back with Shift+Tab to the tray: Enter on a piece picks it and puts the focus on the grid.
    const byTab = async (slot) => {
      await tabTo(page, `.tray-slot[data-slot="${slot}"]`, { shift: true, max: 8 });
      await page.keyboard.press('Enter');
      assert.equal(await focused(page), 'div.grid', 'Enter on a tray piece goes to the grid');
    };
    await page.getByTestId('hint').focus();
    if ((await trayOf(page)).length === 1) await playByKeyboard(page); // keep one piece for the undo below
    await page.getByTestId('hint').focus();
    const scoreBeforeUndo = await numberOf(page, 'score');
    const boardBeforeUndo = await boardOf(page);
    await playByKeyboard(page, { pick: byTab });

    // Undo by Tab and Space.
    await tabTo(page, '[data-testid="undo"]', { max: 8 });
    await page.keyboard.press('Space');
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid="score"]').textContent) === s, scoreBeforeUndo);
    assert.deepEqual(await boardOf(page), boardBeforeUndo, 'undo restored the board');
    await shoot(page, 'keyboard');

    // A few more moves, then Resign by keyboard: the game-over dialog takes the focus.
    for (let i = 0; i < 4; i++) await playByKeyboard(page, { place: i % 2 ? 'Space' : 'Enter' });
    await tabTo(page, '[data-testid="resign"]', { max: 10 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="final-score"]');
    await page.waitForFunction(() => !!document.activeElement?.closest('[role=dialog]'));
    await tabTo(page, '[role=dialog] a.button.primary', { max: 6 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.tray button.tray-slot');
    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });
});
