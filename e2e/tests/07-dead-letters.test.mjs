// An operator's view of the dead letters, from outside the services (docs/platform.md "Dead letters"):
// `./bloc dead-letters` lists what leaderboard-service could not take, with why, and `./bloc dead-letters redrive`
// sends a game-finished letter again once its cause is fixed, so that a game refused by the database for a reason
// since mended is not lost for good (signed by game-service or it is refused again: a redrive is no way in).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { kafkaLibs, publishAs, ROOT } from '../lib/kafka.mjs';
import { choose } from '../lib/rules.mjs';
import { call, eventually, expectStatus, GAME, LEADERBOARD } from '../lib/stack.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { loginAs } from '../lib/keycloak.mjs';

/** ./bloc dead-letters ARGS: its exit status, its lines of JSON, its error output. */
function deadLetters(...args) {
  const res = spawnSync('./bloc', ['dead-letters', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  const lines = (res.stdout ?? '').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { status: res.status, lines, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** The local stack's secrets (.bloc/secrets/bloc.env). */
function secrets() {
  return Object.fromEntries(readFileSync(resolve(ROOT, '.bloc/secrets/bloc.env'), 'utf8').split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** message in game-service's signed envelope (docs/events.md "Signed messages"), as only its key can make it. */
function signed(message) {
  const env = secrets();
  const key = createPrivateKey({ key: Buffer.from(env.BLOC_SIGNING_PRIVATE_KEY, 'base64'), format: 'der', type: 'pkcs8' });
  return JSON.stringify({
    keyId: env.BLOC_SIGNING_KEY_ID,
    signature: sign(null, Buffer.from(message, 'utf8'), key).toString('base64'),
    message,
  });
}

/** A guest's real EASY game, resigned after its first placement; its replay's text (its 64-bit seed kept as is). */
async function guestReplay() {
  const created = await expectStatus(201, `${GAME}/api/games`, { method: 'POST', body: { level: 'EASY' } });
  const game = created.json;
  const headers = { 'X-Game-Token': game.gameToken };
  const move = choose(game.board, game.pieces.filter((p) => !p.placed));
  await expectStatus(200, `${GAME}/api/games/${game.id}/moves`, {
    method: 'POST', headers, body: { moveNumber: game.nextMoveNumber, slot: move.slot, row: move.row, col: move.col },
  });
  await expectStatus(200, `${GAME}/api/games/${game.id}/resign`, { method: 'POST', headers });
  return (await expectStatus(200, `${GAME}/api/games/${game.id}/replay`, { headers })).text;
}

describe('dead letters', () => {
  let browser;
  let adminToken;
  const audit = (gameId) => call(`${LEADERBOARD}/api/leaderboards/admin/audits/${gameId}`, { token: adminToken });

  before(async () => {
    browser = await launchChromium();
    adminToken = (await loginAs(browser, 'admin')).access_token;
  });

  after(async () => {
    await browser?.close();
  });

  test('a game-finished refused for its signature is listed with its key and reason', async () => {
    const key = randomUUID();
    const sent = publishAs('game-finished', key, `{"schemaVersion":2,"gameId":"${key}","forged":true}`);
    assert.equal(sent.status, 0, sent.stderr);
    const letter = await eventually(`the dead letter of ${key}`, () => {
      const res = deadLetters();
      assert.equal(res.status, 0, res.stderr);
      return res.lines.find((l) => l.key === key);
    }, { timeoutMs: 60_000, intervalMs: 2_000 });
    assert.equal(letter.topic, 'game-finished-dlq');
    assert.match(letter.reason, /^refused: unsigned/);
    assert.equal(letter.original, sent.stdout.trim(), 'the place of the message the letter is of');
    assert.equal(letter.redrivable, true);
    assert.equal(letter.payload, undefined, 'no payload unless asked for');
    const full = deadLetters('--payload').lines.find((l) => l.key === key);
    assert.match(full.payload, /"forged":true/);
    assert.deepEqual(deadLetters('game-finished-dlq', '--payload').lines.find((l) => l.key === key), full);
  });

  test('a signed game-finished letter sent again reaches the boards\' audits; sent again, it changes nothing', async () => {
    // what leaderboard-service leaves when the database refuses a game for a reason of its own (docs/events.md):
    // the original message, signed by game-service, verbatim in the letter
    const gameId = randomUUID();
    const finishedAt = new Date();
    const message = `{"schemaVersion":2,"gameId":"${gameId}","player":null,"mode":"SOLO","seedSource":"SERVER",`
      + `"day":null,"createdAt":"${new Date(finishedAt - 60_000).toISOString()}",`
      + `"finishedAt":"${finishedAt.toISOString()}","replay":${await guestReplay()}}`;
    const letter = JSON.stringify({
      schemaVersion: 1, topic: 'game-finished', partition: 0, offset: 0, key: gameId, payload: signed(message),
      error: 'database: a constraint since mended (e2e)', failedAt: finishedAt.toISOString(),
    });
    const sent = publishAs('game-finished-dlq', gameId, letter, { user: 'leaderboard-service' });
    assert.equal(sent.status, 0, sent.stderr);
    const [, partition, offset] = sent.stdout.match(/^game-finished-dlq-(\d+)@(\d+)$/);
    const listed = deadLetters().lines.find((l) => l.key === gameId);
    assert.deepEqual([listed.partition, listed.offset, listed.reason, listed.original, listed.redrivable],
      [Number(partition), Number(offset), 'database: a constraint since mended (e2e)', 'game-finished-0@0', true]);
    assert.equal((await audit(gameId)).status, 404, 'a letter is not a game of the boards');

    const redriven = deadLetters('redrive', partition, offset);
    assert.equal(redriven.status, 0, redriven.stderr);
    assert.match(redriven.stdout, new RegExp(`^sent again: game-finished-dlq-${partition}@${offset} \\(key ${gameId}\\) `
      + 'as game-finished-\\d+@\\d+$', 'm'));
    const first = await eventually(`game ${gameId} audited`, async () => {
      const res = await audit(gameId);
      return res.status === 200 ? res.json : null;
    }, { timeoutMs: 60_000, intervalMs: 1_000 });

    // sent again, it is still the game it was (one audit a game id), judged as before
    assert.equal(deadLetters('redrive', partition, offset).status, 0);
    await new Promise((r) => setTimeout(r, 3_000));
    const again = await expectStatus(200, `${LEADERBOARD}/api/leaderboards/admin/audits/${gameId}`, { token: adminToken });
    assert.equal(again.json.summary.outcome, first.summary.outcome);
  });

  test('a broker that does not answer is exit 1 within the tool\'s wait, every call of it included', () => {
    // a port nobody listens on, and a wait of 3 s instead of 120 (docs/platform.md "Dead letters"): before, only the
    // reading loop was bounded, behind calls of 30 s each, so the tool answered after 30 s here and 3.5 min at worst
    const started = Date.now();
    const res = spawnSync('java', ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Dbloc.dead-letters.wait-seconds=3',
      '-cp', kafkaLibs(), 'platform/kafka/KafkaDeadLetters.java', 'localhost:1', 'list', 'game-finished-dlq'], {
      cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, KAFKA_ADMIN_PASSWORD: 'unused' },
    });
    const seconds = (Date.now() - started) / 1000;
    assert.equal(res.status, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /^the broker: /m);
    // the wait, plus the source's compilation and the JVM's start (a few seconds)
    assert.ok(seconds < 25, `answered after ${seconds} s`);
  });

  test('a wrong use is an error line and exit status 2, and nothing is sent', () => {
    const topic = deadLetters('game-finished');
    assert.equal(topic.status, 2, topic.stdout + topic.stderr);
    assert.match(topic.stderr, /unknown dead-letter topic 'game-finished' \(one of: game-finished-dlq bloc-canary-dlq\)/);
    const none = deadLetters('redrive', '0', String(2 ** 53));
    assert.equal(none.status, 2, none.stdout + none.stderr);
    assert.match(none.stderr, /^no letter at game-finished-dlq-0@9007199254740992 \(its letters now: /m);
    const word = deadLetters('redrive', '0', 'last');
    assert.equal(word.status, 2);
    assert.match(word.stderr, /OFFSET must be a whole number from 0, not 'last'/);
  });
});
