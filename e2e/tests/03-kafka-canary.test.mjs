// One Kafka round trip between two services: game-service publishes a canary on
// topic bloc-canary, leaderboard-service consumes it and reports it seen.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { loginAs } from '../lib/keycloak.mjs';
import { call, eventually, expectStatus, GAME, LEADERBOARD } from '../lib/stack.mjs';

describe('kafka round trip', () => {
  let admin;
  let alice;

  before(async () => {
    const browser = await launchChromium();
    try {
      admin = await loginAs(browser, 'admin');
      alice = await loginAs(browser, 'alice');
    } finally {
      await browser.close();
    }
  });

  test('a canary sent by game-service is seen by leaderboard-service', async () => {
    const sent = await expectStatus(202, `${GAME}/api/admin/canary`, { method: 'POST', token: admin.access_token });
    const id = sent.json?.id;
    assert.ok(id, `the canary's id in ${sent.text}`);
    const seenUrl = `${LEADERBOARD}/api/leaderboards/admin/canary/${encodeURIComponent(id)}`;
    await expectStatus(401, seenUrl);
    await expectStatus(403, seenUrl, { token: alice.access_token });
    await eventually(`canary ${id} at ${seenUrl}`, async () => {
      const res = await call(seenUrl, { token: admin.access_token });
      if (res.status === 200) return true;
      if (res.status !== 404) throw new Error(`unexpected ${res.status} ${res.text.slice(0, 200)}`);
      return false;
    }, { timeoutMs: 30_000 });
  });

  test('an unknown canary is not seen', async () => {
    await expectStatus(404, `${LEADERBOARD}/api/leaderboards/admin/canary/${randomUUID()}`, { token: admin.access_token });
  });
});
