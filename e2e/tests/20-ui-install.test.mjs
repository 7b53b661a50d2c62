// Installable: the web app manifest (typed application/manifest+json by game-service) with its icons, the service
// worker registered, Chromium's own installability check clean, and the page opening offline with the notice that
// play needs the server.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { openApp, shoot } from '../lib/ui.mjs';
import { GAME } from '../lib/stack.mjs';

describe('web UI: installable', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('the manifest and its icons are served with their types', async () => {
    const res = await fetch(`${GAME}/manifest.webmanifest`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/manifest\+json/);
    const manifest = await res.json();
    assert.equal(manifest.name, 'Bloc Éclat');
    assert.equal(manifest.display, 'standalone');
    assert.ok(manifest.icons.some((i) => i.sizes === '512x512' && i.purpose === 'maskable'));
    for (const icon of manifest.icons) {
      const r = await fetch(new URL(icon.src, GAME));
      assert.equal(r.status, 200, icon.src);
      assert.equal((r.headers.get('content-type') ?? '').split(';')[0], icon.type, icon.src);
    }
    const sw = await fetch(`${GAME}/sw.js`);
    assert.equal(sw.status, 200);
    assert.match(sw.headers.get('content-type') ?? '', /javascript/);
  });

  test('the service worker is registered, Chromium finds the page installable, and it opens offline', async () => {
    const { page, errors, context } = await openApp(browser);
    const script = await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.scriptURL));
    assert.equal(script, `${GAME}/sw.js`);
    const cdp = await context.newCDPSession(page);
    const { errors: manifestErrors } = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifestErrors, [], 'the manifest parses cleanly');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    // A Playwright context is an incognito profile, which Chromium never offers to install from; nothing else may fail.
    assert.deepEqual(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), [], JSON.stringify(installabilityErrors));

    // Wait until the worker controls the page (its cache is full once it is active), then cut the network.
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('#header .logo');
    await page.waitForSelector('[data-testid="offline"]');
    assert.match(await page.getByTestId('offline').textContent(), /play needs the Bloc Éclat server/);
    await shoot(page, 'offline');
    // The worker never answers for the server's own paths, not even a navigation to them: no shell where an API
    // answer or a health check is expected. From a page of their own under the same worker, left open until the
    // context closes: a failed navigation's error page interrupts the next navigation, and closing the page on it
    // hangs.
    const probe = await context.newPage();
    for (const path of ['/api/leaderboards/easy', '/q/health/ready', '/config.json']) {
      await assert.rejects(probe.goto(`${GAME}${path}`), /ERR_INTERNET_DISCONNECTED|ERR_FAILED/, path);
    }
    // The tutorial plays without the server.
    await page.goto(`${GAME}/#/tutorial`);
    await page.waitForSelector('[data-testid="tutorial-goal"]');
    await context.setOffline(false);
    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });
});
