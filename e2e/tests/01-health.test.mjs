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

  for (const name of ['game-service', 'leaderboard-service-1', 'leaderboard-service-2']) {
    test(`${name} readiness covers PostgreSQL and Kafka`, async () => {
      const { url } = SERVICES.find((s) => s.name === name);
      const ready = await expectStatus(200, `${url}/q/health/ready`);
      const checks = ready.json.checks.map((c) => `${c.name}: ${c.status}`);
      assert.ok(checks.some((c) => /database|datasource/i.test(c)), `a database check among ${checks.join('; ')}`);
      assert.ok(checks.some((c) => /kafka|messaging/i.test(c)), `a Kafka check among ${checks.join('; ')}`);
      assert.ok(ready.json.checks.every((c) => c.status === 'UP'), checks.join('; '));
    });
  }
});
