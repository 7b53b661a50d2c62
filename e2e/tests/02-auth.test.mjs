// Tokens come from the real Keycloak, and every service accepts them and refuses
// anonymous or forged calls.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { authorize, claims, loginAs, serviceToken } from '../lib/keycloak.mjs';
import { expectStatus, GAME, REALM, SERVICES } from '../lib/stack.mjs';

describe('auth', () => {
  let browser;
  let alice;
  let admin;

  before(async () => {
    browser = await launchChromium();
    alice = await loginAs(browser, 'alice');
    admin = await loginAs(browser, 'admin');
  });
  after(() => browser?.close());

  test('the demo player signs in through the web-ui client and gets a token with sub and roles', () => {
    const c = claims(alice.access_token);
    assert.equal(c.iss, REALM);
    assert.equal(c.azp, 'web-ui');
    assert.equal(c.preferred_username, 'alice');
    assert.ok(c.sub, 'sub claim');
    assert.deepEqual(c.realm_access?.roles?.filter((r) => ['player', 'admin'].includes(r)), ['player']);
  });

  test('the demo admin has the player and admin roles', () => {
    const roles = claims(admin.access_token).realm_access?.roles ?? [];
    assert.ok(roles.includes('admin') && roles.includes('player'), `roles: ${roles}`);
  });

  test('the web-ui client requires PKCE', async () => {
    const back = await authorize(browser, { state: 'no-pkce' });
    assert.equal(back.searchParams.get('error'), 'invalid_request', back.href);
    assert.match(back.searchParams.get('error_description') ?? '', /code_challenge/);
  });

  test('the services client gets a token by client credentials', async () => {
    const token = await serviceToken();
    const c = claims(token.access_token);
    assert.equal(c.azp, 'bloc-services');
    assert.ok(c.sub, 'sub claim');
    assert.ok(c.realm_access?.roles?.includes('service'), `roles: ${c.realm_access?.roles}`);
  });

  test("solver-service accepts a service's own token (client credentials)", async () => {
    const token = await serviceToken();
    const solver = SERVICES.find((s) => s.name === 'solver-service-1');
    const me = await expectStatus(200, `${solver.url}${solver.secured}`, { token: token.access_token });
    assert.match(me.text, /"service"/, `the service role, read from realm_access.roles, in ${me.text.slice(0, 200)}`);
  });

  for (const service of SERVICES) {
    test(`${service.name}: ${service.secured} refuses anonymous and forged calls and accepts the player's token`, async () => {
      const url = `${service.url}${service.secured}`;
      await expectStatus(401, url);
      const [h, p] = alice.access_token.split('.');
      await expectStatus(401, url, { token: `${h}.${p}.${Buffer.from('forged').toString('base64url')}` });
      const me = await expectStatus(200, url, { token: alice.access_token });
      assert.match(me.text, /"alice"/, `${url} should name the caller: ${me.text.slice(0, 200)}`);
      assert.match(me.text, /"player"/, `${url} should see the player role from realm_access.roles: ${me.text.slice(0, 200)}`);
    });

    test(`${service.name}: ${service.open} answers without a token`, async () => {
      await expectStatus(200, `${service.url}${service.open}`);
    });
  }

  test('game-service keeps its admin API to the admin role', async () => {
    await expectStatus(401, `${GAME}/api/admin/canary`, { method: 'POST' });
    await expectStatus(403, `${GAME}/api/admin/canary`, { method: 'POST', token: alice.access_token });
  });
});
