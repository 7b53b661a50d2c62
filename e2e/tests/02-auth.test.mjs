// Tokens come from the real Keycloak, and every service accepts them and refuses
// anonymous or forged calls, and tokens Keycloak issued to another client of the
// realm (admin-cli's password grant) or ID tokens.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { authorize, claims, exchange, loginAs, serviceToken } from '../lib/keycloak.mjs';
import { expectStatus, GAME, LEADERBOARD, REALM, SERVICES } from '../lib/stack.mjs';

describe('auth', () => {
  let browser;
  let alice;
  let admin;
  let aliceAdminCli;
  let adminAdminCli;

  before(async () => {
    browser = await launchChromium();
    alice = await loginAs(browser, 'alice');
    admin = await loginAs(browser, 'admin');
    // The same people through another client of the realm: admin-cli, which every
    // Keycloak realm has, grants tokens for a username and password.
    const viaAdminCli = (username) => exchange({ grant_type: 'password', client_id: 'admin-cli', username, password: username, scope: 'openid' });
    aliceAdminCli = await viaAdminCli('alice');
    adminAdminCli = await viaAdminCli('admin');
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

  test("admin-cli's password grant gives a valid Keycloak access token issued to admin-cli", () => {
    const c = claims(aliceAdminCli.access_token);
    assert.equal(c.iss, REALM);
    assert.equal(c.azp, 'admin-cli');
    assert.equal(c.typ, 'Bearer');
    assert.equal(claims(alice.id_token).typ, 'ID', 'the web-ui login also gave an ID token');
  });

  for (const service of SERVICES) {
    test(`${service.name}: refuses with 401 and a problem body a token issued to admin-cli, and an ID token`, async () => {
      const url = `${service.url}${service.secured}`;
      for (const [what, token] of [['admin-cli access token', aliceAdminCli.access_token], ['web-ui ID token', alice.id_token]]) {
        const res = await expectStatus(401, url, { token });
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/, `${what} at ${url}: ${res.text.slice(0, 200)}`);
        assert.equal(res.json?.status, 401, `${what} at ${url}: ${res.text.slice(0, 200)}`);
        // the public endpoint too: a refused token does not pass for a guest
        await expectStatus(401, `${service.url}${service.open}`, { token });
      }
    });
  }

  test("an admin's token through admin-cli opens no admin API", async () => {
    await expectStatus(401, `${GAME}/api/admin/canary`, { method: 'POST', token: adminAdminCli.access_token });
    await expectStatus(401, `${LEADERBOARD}/api/leaderboards/admin/audits`, { token: adminAdminCli.access_token });
  });

  test('game-service keeps its admin API to the admin role', async () => {
    await expectStatus(401, `${GAME}/api/admin/canary`, { method: 'POST' });
    await expectStatus(403, `${GAME}/api/admin/canary`, { method: 'POST', token: alice.access_token });
  });
});
