// The settings, kept on the device: sound (Web Audio tones counted where the page starts them) and vibration toggled,
// the high-contrast palette that marks the cells rather than colouring them only, and reduced motion, by the player's
// choice and by the system's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { listenToFeedback, openApp, playByKeyboard, shoot, trayOf } from '../lib/ui.mjs';

describe('web UI: settings', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('sound and vibration toggled, the palette switched, motion reduced; all kept after a reload', async () => {
    const { page, errors, context } = await openApp(browser, { hash: '#/settings' });
    await context.addInitScript(listenToFeedback);
    await page.reload();
    await page.waitForSelector('[data-testid="setting-sound"]');
    assert.equal(await page.getByTestId('setting-sound').isChecked(), true, 'sound on by default');
    assert.equal(await page.getByTestId('setting-vibration').isChecked(), true);
    assert.equal(await page.getByTestId('setting-contrast').isChecked(), false);
    assert.equal(await page.getByTestId('motion-system').isChecked(), true);
    await shoot(page, 'settings');

    // Sound on: a placement sounds and vibrates.
    const solo = async () => {
      await page.goto(`${new URL(page.url()).origin}/#/solo/new?level=EASY`);
      await page.waitForSelector('.tray button.tray-slot');
    };
    await solo();
    await playByKeyboard(page);
    assert.ok(await page.evaluate(() => window.__tones) > 0, 'a placement starts tones');
    assert.ok(await page.evaluate(() => window.__vibrations.length) > 0, 'a placement vibrates');

    // Sound and vibration off: kept, and a placement is silent.
    await page.goto(`${new URL(page.url()).origin}/#/settings`);
    await page.getByTestId('setting-sound').uncheck();
    await page.getByTestId('setting-vibration').uncheck();
    await page.reload();
    await page.waitForSelector('[data-testid="setting-sound"]');
    assert.equal(await page.getByTestId('setting-sound').isChecked(), false, 'kept after a reload');
    assert.deepEqual(JSON.parse(await page.evaluate(() => localStorage.getItem('bloc.settings'))),
      { sound: false, vibration: false, highContrast: false, motion: 'system' });
    await solo();
    await playByKeyboard(page);
    await page.waitForTimeout(300); // the cue would start with the move's answer
    assert.equal(await page.evaluate(() => window.__tones), 0, 'no tone with sound off');
    assert.deepEqual(await page.evaluate(() => window.__vibrations), [], 'no vibration with it off');

    // The palette: normal, the ghost is a colour; high contrast, the ghost is a dashed outline and blocks carry patterns.
    // Pick a piece still in the tray (the move above may have placed the first).
    const pick = async () => page.keyboard.press(String((await trayOf(page))[0].slot + 1));
    await pick();
    const ghostOutline = () => page.locator('.grid .cell.ghost').first().evaluate((c) => getComputedStyle(c).outlineStyle);
    assert.equal(await ghostOutline(), 'none');
    await page.keyboard.press('Escape');
    await page.goto(`${new URL(page.url()).origin}/#/settings`);
    await page.getByTestId('setting-contrast').check();
    assert.equal(await page.getAttribute('html', 'data-contrast'), 'high');
    await shoot(page, 'settings-high-contrast');
    await page.goBack();
    await page.waitForSelector('.tray button.tray-slot');
    await pick();
    assert.equal(await ghostOutline(), 'dashed', 'the ghost is marked, not only coloured');
    // every block, a DOT's too (its colour once had no pattern, so a tray of dots failed here); read until the tray
    // has settled (up to 5 s), as the answer to the move above can redraw it while it is read
    const patterned = (list) => list.length > 0 && list.every((p) => /gradient/.test(p));
    let patterns = [];
    for (const until = Date.now() + 5000; Date.now() < until;) {
      patterns = await page.locator('.tray .block').evaluateAll((blocks) => blocks.map((b) => getComputedStyle(b).backgroundImage));
      if (patterned(patterns)) break;
      await page.waitForTimeout(100);
    }
    assert.ok(patterned(patterns), `blocks carry patterns: ${patterns.join(' | ')}`);
    await shoot(page, 'solo-high-contrast');
    await page.keyboard.press('Escape');

    // Motion: the system's setting is followed until the player chooses.
    const reduced = () => page.evaluate(() => document.documentElement.classList.contains('reduce-motion'));
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await page.waitForSelector('.tray button.tray-slot');
    assert.equal(await reduced(), true, 'the system asks for reduced motion');
    await page.goto(`${new URL(page.url()).origin}/#/settings`);
    await page.locator('label[for="motion-full"]').click();
    assert.equal(await reduced(), false, 'the player chose full motion');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.locator('label[for="motion-reduce"]').click();
    assert.equal(await reduced(), true, 'the player chose reduced motion');
    const duration = await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.className = 'spinner';
      document.body.append(probe);
      const d = getComputedStyle(probe).animationDuration;
      probe.remove();
      return d;
    });
    assert.match(duration, /^(1e-05s|0\.00001s|0s)$/, `animations cut short (${duration})`);

    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });
});
