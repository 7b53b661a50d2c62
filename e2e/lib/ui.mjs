// The web UI in Chromium: a fresh context per player, the Keycloak login through the UI,
// and screenshots of each screen at phone and desktop size under web-ui/target/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { choose } from './rules.mjs';
import { GAME } from './stack.mjs';

export const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../web-ui/target/screenshots');
export const PHONE = { width: 375, height: 812 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * A new browser context on the game, in a given language (the UI's switch is stored in
 * localStorage; English keeps the assertions readable), collecting page errors and what the page's policy
 * refused. The first-visit tutorial counts as seen unless `tutorial: true` (a first visit as a new player
 * makes it).
 */
export async function openApp(browser, { viewport = DESKTOP, lang = 'en', hash = '#/', tutorial = false } = {}) {
  const context = await browser.newContext({ viewport, hasTouch: false });
  await context.addInitScript(([l, seen]) => {
    if (!localStorage.getItem('bloc.lang')) localStorage.setItem('bloc.lang', l);
    if (seen && !localStorage.getItem('bloc.tutorial')) localStorage.setItem('bloc.tutorial', 'skipped');
  }, [lang, !tutorial]);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // what the page's Content-Security-Policy refused (a style, a font, a frame, a call): only a console message
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  await page.goto(`${GAME}/${hash}`);
  await page.waitForSelector('#header .logo');
  return { context, page, errors };
}

/**
 * Starts a game from the home page as a player does: the level (and the AI's strength), the mode's
 * Play (and Start for two players), then waits for the board. The game's or match's id, from the address.
 */
export async function startFromHome(page, mode, { level = 'EASY', strength } = {}) {
  await page.locator(`label[for="level-${level}"]`).click();
  if (strength) await page.locator(`label[for="strength-${strength}"]`).click();
  await page.getByTestId(`play-${mode}`).click();
  if (mode === 'two') await page.getByTestId('two-start').click();
  await page.waitForSelector(mode === 'versus' ? '[data-testid="other-side"] [role=grid]' : '.tray button.tray-slot');
  const id = page.url().match(new RegExp(`#/${mode}/([0-9a-f-]{36})$`))?.[1];
  assert.ok(id, `the address of a ${mode} game: ${page.url()}`);
  return id;
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
    await page.evaluate(() => window.scrollTo(0, 0)); // else the sticky header is drawn mid-page
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

/** The unplaced pieces of the tray: slot and catalogue id. */
export async function trayOf(scope) {
  return scope.locator('.tray button.tray-slot').evaluateAll((buttons) =>
    buttons.map((b) => ({ slot: Number(b.dataset.slot), id: b.dataset.piece })));
}

/** Cells carrying a class in the first grid of `scope`, as "r,c" strings, sorted. */
export async function cellsWith(scope, cls) {
  return scope.locator('[role=grid]').first().evaluate((grid, k) =>
    [...grid.querySelectorAll('.cell')].map((c, i) => (c.classList.contains(k) ? `${Math.floor(i / 8)},${i % 8}` : null))
      .filter(Boolean).sort(), cls);
}

export const keyOf = (cells) => cells.map(([r, c]) => `${r},${c}`).sort();

/** Reads the number shown in a `[data-testid=...]` element. */
export async function numberOf(scope, testid) {
  return Number((await scope.locator(`[data-testid="${testid}"]`).first().textContent()).trim());
}

export async function expectGhost(page, move) {
  assert.deepEqual(await cellsWith(page, 'ghost'), keyOf(move.placed), `ghost of ${move.id} at (${move.row},${move.col})`);
  assert.deepEqual(await cellsWith(page, 'preview-clear'), keyOf(move.cleared), 'the lines that would clear light up');
}

export async function waitForScoreAbove(page, score) {
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid="score"]')?.textContent) > s, score);
}

/**
 * Plays the oracle's choice with the keyboard: 1/2/3 (or `pick(slot)`, which must leave the piece picked and the focus
 * on the grid), arrows from where the ghost appears, then Enter (or `place: 'Space'`).
 */
export async function playByKeyboard(page, { place = 'Enter', pick } = {}) {
  const board = await boardOf(page);
  const move = choose(board, await trayOf(page));
  assert.ok(move, 'some piece fits');
  const before = await numberOf(page, 'score');
  if (pick) await pick(move.slot);
  else await page.keyboard.press(String(move.slot + 1));
  const ghost = (await cellsWith(page, 'ghost')).concat(await cellsWith(page, 'ghost-bad')).map((k) => k.split(',').map(Number));
  let row = Math.min(...ghost.map(([r]) => r));
  let col = Math.min(...ghost.map(([, c]) => c));
  for (; row < move.row; row++) await page.keyboard.press('ArrowDown');
  for (; row > move.row; row--) await page.keyboard.press('ArrowUp');
  for (; col < move.col; col++) await page.keyboard.press('ArrowRight');
  for (; col > move.col; col--) await page.keyboard.press('ArrowLeft');
  await expectGhost(page, move);
  await page.keyboard.press(place);
  await waitForScoreAbove(page, before);
  return move;
}

/**
 * Where the pointer must be for the dragged piece's top-left block to sit on (row, col); `lift` cells lower when the
 * piece rides above the pointer (a finger).
 */
export async function dropPoint(page, id, row, col, lift = 0) {
  const [a, b] = await Promise.all([
    page.locator('.grid .cell[data-row="0"][data-col="0"]').boundingBox(),
    page.locator('.grid .cell[data-row="1"][data-col="1"]').boundingBox(),
  ]);
  const pitch = b.x - a.x;
  const shape = await page.locator(`.tray-slot[data-piece="${id}"] .piece`).first().evaluate((p) => ({ w: Number(p.dataset.w), h: Number(p.dataset.h) }));
  return { x: a.x + col * pitch + (shape.w * pitch) / 2, y: a.y + row * pitch + (shape.h * pitch) / 2 + lift * pitch };
}

/** What has the keyboard focus: its test id, else its tag and classes. */
export async function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    return el.dataset.testid ? `[data-testid="${el.dataset.testid}"]` : `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
  });
}

/** Presses Tab (or Shift+Tab) until the focus is on an element matching `selector`; fails after `max` presses. */
export async function tabTo(page, selector, { shift = false, max = 30 } = {}) {
  const path = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return i + 1;
    path.push(await focused(page));
  }
  assert.fail(`${selector} not reached by ${shift ? 'Shift+Tab' : 'Tab'} in ${max} presses (focus went ${path.join(' → ')})`);
}

/**
 * An init script (context.addInitScript) that counts the oscillators the page starts (`window.__tones`) and the
 * vibrations it asks for (`window.__vibrations`); the real APIs still run underneath.
 */
export function listenToFeedback() {
  window.__tones = 0;
  window.__vibrations = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__tones++; return start.apply(this, args); };
  navigator.vibrate = (pattern) => { window.__vibrations.push(pattern); return true; };
}
