// Every component of the running stack reports healthy, checked from outside.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, expectStatus, KEYCLOAK_READY, REALM, SERVICES } from '../lib/stack.mjs';

describe('health', () => {
  test('Keycloak is ready and serves the bloc-eclat realm', async () => {
    const ready = await expectStatus(200, KEYCLOAK_READY);
    assert.equal(ready.json?.status, 'UP');
    const discovery = await expectStatus(200, `${REALM}/.well-known/openid-configuration`);
    assert.equal(discovery.json.issuer, REALM);
    assert.ok(discovery.json.code_challenge_methods_supported.includes('S256'));
  });

  for (const service of SERVICES) {
    test(`${service.name} is live and ready`, async () => {
      for (const probe of ['live', 'ready']) {
        const res = await call(`${service.url}/q/health/${probe}`);
        assert.equal(res.status, 200, `${service.name} /q/health/${probe}: ${res.status} ${res.text.slice(0, 500)}`);
        assert.equal(res.json?.status, 'UP');
      }
    });

    test(`${service.name} serves metrics and OpenAPI`, async () => {
      const metrics = await expectStatus(200, `${service.url}/q/metrics`, { headers: { Accept: 'text/plain' } });
      assert.match(metrics.text, /^# (TYPE|HELP) /m, 'Prometheus text format');
      const openapi = await expectStatus(200, `${service.url}/q/openapi?format=json`);
      assert.ok(openapi.json?.openapi, 'an OpenAPI document');
    });
  }

  // Kafka is not on a request's path (game-service's outbox holds what is to send; leaderboards are read from the
  // database): readiness and startup check the database, not the broker, so a Kafka restart takes no replica out of
  // its Service. game-service shows the broker's absence as its outbox's backlog, a wellness check.
  for (const name of ['game-service', 'leaderboard-service-1', 'leaderboard-service-2']) {
    test(`${name} readiness covers PostgreSQL, not Kafka`, async () => {
      const { url } = SERVICES.find((s) => s.name === name);
      for (const probe of ['ready', 'started']) {
        const res = await expectStatus(200, `${url}/q/health/${probe}`);
        const checks = res.json.checks.map((c) => `${c.name}: ${c.status}`);
        if (probe === 'ready') {
          assert.ok(checks.some((c) => /database|datasource/i.test(c)), `a database check among ${checks.join('; ')}`);
        }
        assert.ok(!checks.some((c) => /kafka/i.test(c)), `no Kafka check in ${probe}: ${checks.join('; ')}`);
        // the messaging check stays, with no channel in it
        assert.doesNotMatch(res.text, /game-events|game-finished|bloc-canary/, `no channel in ${probe}: ${res.text}`);
        assert.ok(res.json.checks.every((c) => c.status === 'UP'), checks.join('; '));
      }
    });
  }

  test('game-service reports its outbox backlog as a wellness check', async () => {
    const { url } = SERVICES.find((s) => s.name === 'game-service');
    const well = await expectStatus(200, `${url}/q/health/well`);
    const outbox = well.json.checks.find((c) => c.name === 'outbox');
    assert.equal(outbox?.status, 'UP', JSON.stringify(well.json));
    assert.equal(typeof outbox.data.pending, 'number');
    const metrics = await expectStatus(200, `${url}/q/metrics`, { headers: { Accept: 'text/plain' } });
    assert.match(metrics.text, /^outbox_pending /m);
    assert.match(metrics.text, /^outbox_oldest_seconds /m);
  });
});
