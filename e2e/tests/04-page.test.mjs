// The game's page at / loads in headless Chromium with its scripts and styles.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { GAME } from '../lib/stack.mjs';

const SCREENSHOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../.bloc/logs/e2e-home.png');

describe('web UI', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('the page at / loads in Chromium without errors', async () => {
    const page = await browser.newPage();
    const errors = [];
    const failed = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('requestfailed', (r) => failed.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.url().startsWith(GAME) && r.status() >= 400) failed.push(`${r.url()}: ${r.status()}`); });

    const res = await page.goto(`${GAME}/`, { waitUntil: 'load' });
    assert.equal(res.status(), 200);
    assert.match(res.headers()['content-type'] ?? '', /text\/html/);
    await page.waitForLoadState('networkidle');
    assert.ok((await page.title()).trim(), 'a page title');
    assert.ok(await page.locator('script[src], script[type=module]').count() > 0, 'the built UI scripts');
    const text = (await page.textContent('body'))?.trim() ?? '';
    assert.ok(text.length > 0, 'the page shows something');
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    assert.deepEqual(errors, [], 'no script errors');
    assert.deepEqual(failed, [], 'no failed requests to the stack');
  });
});
