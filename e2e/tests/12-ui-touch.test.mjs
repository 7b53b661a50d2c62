// A piece dragged with a finger on a phone: the same Pointer Events path as the mouse, with the
// piece held above the finger, the ghost and the drop checked against the rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { choose } from '../lib/rules.mjs';
import { boardOf, dropPoint, expectGhost, PHONE, trayOf, waitForScoreAbove } from '../lib/ui.mjs';
import { GAME } from '../lib/stack.mjs';

describe('web UI: touch', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('a finger drags a piece from the tray to the grid on a 375 px phone', async () => {
    const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    await context.addInitScript(() => localStorage.setItem('bloc.lang', 'en'));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${GAME}/#/solo/new?level=EASY`);
    await page.waitForSelector('.tray button.tray-slot');
    const cdp = await context.newCDPSession(page);
    const touch = (type, x, y) => cdp.send('Input.dispatchTouchEvent', {
      type, touchPoints: type === 'touchEnd' ? [] : [{ x: Math.round(x), y: Math.round(y), id: 1 }],
    });

    for (let i = 0; i < 3; i++) {
      const board = await boardOf(page);
      const move = choose(board, await trayOf(page));
      const before = Number(await page.getByTestId('score').textContent());
      const from = await page.locator(`.tray-slot[data-slot="${move.slot}"]`).boundingBox();
      const to = await dropPoint(page, move.id, move.row, move.col, 1.6); // the piece rides 1.6 cells above the finger
      await touch('touchStart', from.x + from.width / 2, from.y + from.height / 2);
      for (let k = 1; k <= 8; k++) {
        const f = k / 8;
        await touch('touchMove', from.x + from.width / 2 + (to.x - from.x - from.width / 2) * f, from.y + from.height / 2 + (to.y - from.y - from.height / 2) * f);
      }
      // Touch moves reach the page with the next frame: wait for the last one before checking.
      const want = move.placed.map(([r, c]) => `${r},${c}`).sort().join(' ');
      await page.waitForFunction((w) => [...document.querySelectorAll('.grid .cell')]
        .map((c, i) => (c.classList.contains('ghost') ? `${Math.floor(i / 8)},${i % 8}` : null)).filter(Boolean).sort().join(' ') === w,
      want, { timeout: 5_000 }).catch(() => undefined);
      await expectGhost(page, move);
      await touch('touchEnd', to.x, to.y);
      await waitForScoreAbove(page, before);
      const after = await boardOf(page);
      for (const [r, c] of move.placed.filter(([r, c]) => !move.cleared.some(([x, y]) => x === r && y === c))) {
        assert.equal(after[r][c], '#', `the finger's drop filled (${r},${c})`);
      }
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
