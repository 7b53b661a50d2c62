// The first-visit tutorial: a new visitor lands in it, places a piece, clears a line, sees the streak at ×2, and is
// not sent there again; it can be skipped at any step and replayed from the settings. The rules page in both languages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { cellsWith, dropPoint, openApp, shoot } from '../lib/ui.mjs';

/** Plays the step's piece onto the ringed (hint) cells by dragging it with the mouse. */
async function playTheHint(page) {
  const hint = (await cellsWith(page, 'hint')).map((k) => k.split(',').map(Number));
  const row = Math.min(...hint.map(([r]) => r));
  const col = Math.min(...hint.map(([, c]) => c));
  const id = await page.locator('.tray button.tray-slot').first().getAttribute('data-piece');
  const from = await page.locator('.tray button.tray-slot').first().boundingBox();
  const to = await dropPoint(page, id, row, col);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 10 });
  await page.mouse.up();
}

describe('web UI: tutorial and rules', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('a first visit plays the tutorial to the streak; it is not forced again and can be replayed or skipped', async () => {
    const { page, errors, context } = await openApp(browser, { tutorial: true });
    await page.waitForSelector('[data-testid="tutorial-goal"]');
    assert.match(page.url(), /#\/tutorial$/, 'a first visit to the home page opens the tutorial');
    assert.match(await page.getByTestId('tutorial-step').textContent(), /Step 1 of 3/);
    await shoot(page, 'tutorial');

    await playTheHint(page); // 1: place a piece
    await page.waitForSelector('[data-testid="tutorial-next"]:visible');
    assert.match(await page.getByTestId('tutorial-goal').textContent(), /1 point/);
    await page.getByTestId('tutorial-next').click();

    await playTheHint(page); // 2: clear a line
    await page.waitForSelector('[data-testid="tutorial-next"]:visible');
    assert.match(await page.getByTestId('tutorial-goal').textContent(), /Line cleared/);
    assert.equal((await page.getByTestId('streak').locator('.value').textContent()).trim(), '×1');
    await page.getByTestId('tutorial-next').click();

    // 3: the streak. A miss first: the step says so and starts again.
    const tray = page.locator('.tray button.tray-slot').first();
    await tray.click(); // tap to pick, then a tap on a far cell moves it there
    await page.locator('.grid .cell[data-row="0"][data-col="5"]').click();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /try again/.test(document.querySelector('[data-testid="tutorial-goal"]').textContent));
    await page.waitForFunction(() => /streak goes to ×2/.test(document.querySelector('[data-testid="tutorial-goal"]').textContent));
    await playTheHint(page);
    await page.waitForSelector('[data-testid="tutorial-next"]:visible');
    assert.equal((await page.getByTestId('streak').locator('.value').textContent()).trim(), '×2');
    assert.equal(Number(await page.getByTestId('score').textContent()), 4 + 12 + 22);
    await shoot(page, 'tutorial-streak');
    await page.getByTestId('tutorial-next').click();
    await page.getByTestId('tutorial-play').click();
    await page.waitForSelector('[data-testid="play-solo"]');
    assert.equal(await page.evaluate(() => localStorage.getItem('bloc.tutorial')), 'done');
    await page.reload();
    await page.waitForSelector('[data-testid="play-solo"]');
    assert.doesNotMatch(page.url(), /tutorial/, 'not forced again');

    // Replayed from the settings, skipped at its first step.
    await page.goto(`${new URL(page.url()).origin}/#/settings`);
    await page.getByTestId('replay-tutorial').click();
    await page.waitForSelector('[data-testid="tutorial-goal"]');
    await page.getByTestId('tutorial-skip').click();
    await page.waitForSelector('[data-testid="play-solo"]');

    // The rules, with the scoring and the five levels, in English and in French.
    await page.getByRole('link', { name: 'Rules' }).click();
    await page.waitForSelector('[data-testid="rules"]');
    const en = await page.getByTestId('rules').textContent();
    for (const words of ['3 + 30 × 3 = 93', '10 × n(n+1)/2', '+400', 'Diabolical', '12 filled cells', 'lost on the third']) assert.ok(en.includes(words), words);
    assert.equal(await page.locator('table.rules-levels tbody tr').count(), 5);
    await shoot(page, 'rules');
    await page.getByRole('button', { name: 'Français' }).click();
    await page.waitForFunction(() => /Le score/.test(document.querySelector('[data-testid="rules"]')?.textContent ?? ''));
    const fr = await page.getByTestId('rules').textContent();
    for (const words of ['3 + 30 × 3 = 93', 'Diabolique', '12 cases pleines', 'se perd à la troisième']) assert.ok(fr.includes(words), words);
    await shoot(page, 'rules-fr');
    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });
});
