// What the platform itself refuses, from outside the services: Kafka takes only SASL/SCRAM logins and only
// game-service may write results and game events (platform/kafka/access.conf); the topics that carry games have
// 6 partitions, shared by the two leaderboard-service replicas of one consumer group; Keycloak's brute-force protection is on in the imported realm; the services' signing key and
// daily secret were generated into .bloc/secrets (docs/platform.md).
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomUUID, sign, verify } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { acls, allowOnTopic, groupMembers, kafkaSetup, partitionCounts, publishAs, ROOT } from '../lib/kafka.mjs';
import { call, eventually, KEYCLOAK } from '../lib/stack.mjs';

const canary = () => JSON.stringify({ id: randomUUID(), sentAt: new Date().toISOString() });
/** A canary written as user, tried up to 10 times until the answer has the expected status. */
function writtenBy(user, expected) {
  let res;
  for (let i = 0; i < 10 && res?.status !== expected; i++) res = publishAs('bloc-canary', randomUUID(), canary(), { user });
  return res;
}

describe('kafka access', () => {
  test('leaderboard-service, a Kafka user of the stack, may not write game-finished or game-events', () => {
    for (const topic of ['game-finished', 'game-events']) {
      const res = publishAs(topic, randomUUID(), '{"forged":true}', { user: 'leaderboard-service' });
      assert.equal(res.status, 3, `${topic}: expected a refusal, got ${res.status} ${res.stdout} ${res.stderr}`);
      assert.match(res.stderr, /TopicAuthorizationException/, topic);
    }
  });

  test('a wrong password is refused at login', () => {
    const res = publishAs('game-finished', randomUUID(), '{"forged":true}', { password: 'not-the-password' });
    assert.equal(res.status, 3, `${res.status} ${res.stdout} ${res.stderr}`);
    assert.match(res.stderr, /SaslAuthenticationException/);
  });

  test('a client without SASL gets nothing written', () => {
    const res = publishAs('game-finished', randomUUID(), '{"forged":true}', { user: 'none', maxBlockMs: 5000 });
    assert.notEqual(res.status, 0, `written without a login: ${res.stdout}`);
  });

  test('each service writes what its ACLs allow, and leaderboard-service only its dead letters', () => {
    const letter = publishAs('bloc-canary-dlq', randomUUID(), canary(), { user: 'leaderboard-service' });
    assert.equal(letter.status, 0, letter.stderr);
    assert.match(letter.stdout, /^bloc-canary-dlq-\d+@\d+$/);
    const lb = publishAs('bloc-canary', randomUUID(), canary(), { user: 'leaderboard-service' });
    assert.equal(lb.status, 3, `a canary written by leaderboard-service: ${lb.status} ${lb.stdout} ${lb.stderr}`);
    assert.match(lb.stderr, /TopicAuthorizationException/);
    const game = publishAs('bloc-canary', randomUUID(), canary());
    assert.equal(game.status, 0, game.stderr);
  });

  test('the setup leaves the broker exactly the ACLs access.conf lists: a grant no line allows is removed', () => {
    // leaderboard-service's Write on bloc-canary: what access.conf granted before 5 December, which a broker set up
    // then kept, since the setup only added ACLs
    allowOnTopic('leaderboard-service', 'WRITE', 'bloc-canary');
    const stale = 'TOPIC LITERAL bloc-canary User:leaderboard-service * WRITE ALLOW';
    assert.ok(acls().includes(stale));
    // (an ACL reaches the broker's authorizer through the metadata log: a moment after it is committed)
    const before = writtenBy('leaderboard-service', 0);
    assert.equal(before.status, 0, `the stale grant works: ${before.stderr}`);

    assert.match(kafkaSetup(), /removed 1 no line allows/);
    const after = acls();
    assert.ok(!after.includes(stale), 'the stale grant is gone');
    assert.ok(after.includes('TOPIC LITERAL bloc-canary User:game-service * WRITE ALLOW'), 'the listed ones stay');
    const refused = writtenBy('leaderboard-service', 3);
    assert.equal(refused.status, 3, `written after the setup: ${refused.status} ${refused.stdout} ${refused.stderr}`);
    assert.doesNotMatch(kafkaSetup(), /removed/, 'applied again, it changes nothing');
  });

  test('game-finished and game-events have 6 partitions', () => {
    assert.deepEqual(partitionCounts('game-finished', 'game-events'), { 'game-finished': 6, 'game-events': 6 });
  });

  test('the two leaderboard-service replicas are the two members of one consumer group, sharing game-finished', async () => {
    // (just after ./bloc up the group may still be rebalancing: its assignment is read until it has settled)
    const members = await eventually('two members holding all 6 partitions', () => {
      const m = groupMembers('leaderboard-service-game-finished');
      const held = m.flatMap((x) => x.partitions);
      return m.length === 2 && m.every((x) => x.partitions.length > 0) && held.length === 6 ? m : null;
    }, { timeoutMs: 120_000, intervalMs: 2_000 });
    assert.deepEqual(members.flatMap((x) => x.partitions).sort(),
      [0, 1, 2, 3, 4, 5].map((p) => `game-finished-${p}`));
  });
});

describe('keycloak', () => {
  test('brute-force protection is on in the bloc-eclat realm', async () => {
    // Keycloak's bootstrap admin of the master realm (local only, docs/platform.md).
    const form = new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: 'admin' });
    const token = await fetch(`${KEYCLOAK}/realms/master/protocol/openid-connect/token`, {
      method: 'POST', body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    }).then((r) => r.json());
    assert.ok(token.access_token, `master admin token: ${JSON.stringify(token).slice(0, 200)}`);
    const realm = await call(`${KEYCLOAK}/admin/realms/bloc-eclat`, { token: token.access_token });
    assert.equal(realm.status, 200, realm.text.slice(0, 200));
    assert.equal(realm.json.bruteForceProtected, true);
    assert.equal(realm.json.permanentLockout, false);
    assert.ok(realm.json.failureFactor >= 3 && realm.json.failureFactor <= 10, `failureFactor ${realm.json.failureFactor}`);
    assert.ok(realm.json.waitIncrementSeconds >= 30, `waitIncrementSeconds ${realm.json.waitIncrementSeconds}`);
  });
});

describe('secrets', () => {
  test('./bloc up generated the signing key pair and daily secret, readable only by their owner', () => {
    const file = resolve(ROOT, '.bloc/secrets/bloc.env');
    assert.equal(statSync(file).mode & 0o077, 0, `${file} is readable by others`);
    const env = Object.fromEntries(readFileSync(file, 'utf8').split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    assert.match(env.BLOC_SIGNING_KEY_ID, /^[\w.-]+$/);
    assert.ok(Buffer.from(env.BLOC_SIGNING_PRIVATE_KEY, 'base64').length >= 48, 'a PKCS#8 Ed25519 key');
    assert.ok(env.BLOC_SIGNING_PUBLIC_KEYS.split(',').some((k) => k.startsWith(`${env.BLOC_SIGNING_KEY_ID}:`)),
      'leaderboard-service accepts the key game-service signs with');
    assert.ok(Buffer.from(env.BLOC_DAILY_SECRET, 'base64').length >= 32, 'a 256-bit daily secret');
    const priv = createPrivateKey({ key: Buffer.from(env.BLOC_SIGNING_PRIVATE_KEY, 'base64'), format: 'der', type: 'pkcs8' });
    const pubText = env.BLOC_SIGNING_PUBLIC_KEYS.split(',').find((k) => k.startsWith(`${env.BLOC_SIGNING_KEY_ID}:`));
    const pub = createPublicKey({ key: Buffer.from(pubText.slice(pubText.indexOf(':') + 1), 'base64'), format: 'der', type: 'spki' });
    assert.equal(priv.asymmetricKeyType, 'ed25519');
    const data = Buffer.from('bloc');
    assert.ok(verify(null, data, pub, sign(null, data, priv)), 'the public key is the private key\'s');
  });
});
