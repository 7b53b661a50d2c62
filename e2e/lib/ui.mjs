// The web UI in Chromium: a fresh context per player, the Keycloak login through the UI,
// and screenshots of each screen at phone and desktop size under web-ui/target/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GAME } from './stack.mjs';

export const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../web-ui/target/screenshots');
export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * A new browser context on the game, in a given language (the UI's switch is stored in
 * localStorage; English keeps the assertions readable), collecting page errors.
 */
export async function openApp(browser, { viewport = DESKTOP, lang = 'en', hash = '#/' } = {}) {
  const context = await browser.newContext({ viewport, hasTouch: false });
  await context.addInitScript((l) => { if (!localStorage.getItem('bloc.lang')) localStorage.setItem('bloc.lang', l); }, lang);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${GAME}/${hash}`);
  await page.waitForSelector('#header .logo');
  return { context, page, errors };
}

/** Logs in through the UI's button and Keycloak's form; back on the UI with the name shown. */
export async function loginAs(page, username, password = username) {
  await page.getByRole('button', { name: /log in|se connecter/i }).first().click();
  await page.waitForSelector('#username', { timeout: 30_000 });
  await page.fill('#username', username);
  await page.fill('#password', password);
  await page.click('#kc-login');
  await page.waitForSelector('[data-testid="user-name"]', { timeout: 30_000 });
  assert.equal((await page.textContent('[data-testid="user-name"]')).trim(), username);
}

/** The screen as it is, at phone and at desktop size: `<name>-phone.png`, `<name>-desktop.png`. */
export async function shoot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const [label, size] of [['phone', PHONE], ['desktop', DESKTOP]]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150); // layout and transitions settle
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${label}.png`, fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** The 64 cells of a grid (the first `[role=grid]` in `scope`) as 8 strings of # and . */
export async function boardOf(scope) {
  return scope.locator('[role=grid]').first().evaluate((grid) => {
    const cells = [...grid.querySelectorAll('.cell')];
    const rows = [];
    for (let r = 0; r < 8; r++) rows.push(cells.slice(r * 8, r * 8 + 8).map((c) => (c.classList.contains('filled') ? '#' : '.')).join(''));
    return rows;
  });
}
