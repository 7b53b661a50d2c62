// axe-core on every page and dialog of the game: no serious or critical violation (in both palettes for the game).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { launchChromium } from '../lib/browser.mjs';
import { openApp, playByKeyboard } from '../lib/ui.mjs';

async function check(page, name, found) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  for (const v of violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
    found.push(`${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }
}

describe('web UI: accessibility (axe-core)', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('every page and dialog: 0 serious or critical violations', async () => {
    const found = [];
    const { page, errors, context } = await openApp(browser, { tutorial: true });
    const origin = new URL(page.url()).origin;
    const visit = async (hash, ready, name) => {
      await page.goto(`${origin}/${hash}`);
      await page.waitForSelector(ready);
      await check(page, name, found);
    };
    await page.waitForSelector('[data-testid="tutorial-goal"]');
    await check(page, 'tutorial', found);
    await page.getByTestId('tutorial-skip').click();
    await page.waitForSelector('[data-testid="play-solo"]');
    await check(page, 'home', found);
    await visit('#/rules', '[data-testid="rules"]', 'rules');
    await visit('#/settings', '[data-testid="setting-sound"]', 'settings');
    await visit('#/leaderboards', 'table, .lb-empty, .note', 'leaderboards');
    await visit('#/solver', '.solver-page, .solver-layout', 'solver');
    await visit('#/daily', 'main h1, main h2', 'daily');

    for (const contrast of [false, true]) {
      await page.evaluate((c) => localStorage.setItem('bloc.settings', JSON.stringify({ highContrast: c })), contrast);
      await visit('#/solo/new?level=EASY', '.tray button.tray-slot', `solo${contrast ? ' (high contrast)' : ''}`);
      await playByKeyboard(page);
      await page.keyboard.press('1'); // a ghost on the grid
      await check(page, `solo with a piece picked${contrast ? ' (high contrast)' : ''}`, found);
      await page.keyboard.press('Escape');
      await page.getByTestId('hint').click();
      await page.waitForSelector('.grid .cell.hint');
      await check(page, `solo with a hint${contrast ? ' (high contrast)' : ''}`, found);
    }
    await page.getByTestId('resign').click();
    await page.waitForSelector('[data-testid="final-score"]');
    await check(page, 'game-over dialog', found);
    const replay = await page.locator('[role=dialog] a[href^="#/replay/"]').getAttribute('href');
    await visit(replay, '[role=grid]', 'replay');

    await visit('#/two?level=EASY', 'main input, main button', 'two players: names');
    await page.locator('main button.primary').first().click();
    await page.waitForSelector('.tray button.tray-slot');
    await check(page, 'two players: board', found);

    await visit('#/nowhere', 'main', 'unknown route');
    assert.deepEqual(found, [], `axe violations:\n${found.join('\n')}`);
    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });
});
