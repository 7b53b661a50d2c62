// The admin audits in the browser against the real stack: a game-finished message with a tampered
// claimed score is published to Kafka, signed with game-service's key (as only game-service could);
// leaderboard-service rejects it; the admin finds it in #/admin, reads the validator's reason, steps
// through its replay and re-validates it. The same message unsigned is refused before it is read:
// no audit of its game id, a line in the refused trail.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { publishAs } from '../lib/kafka.mjs';
import { claims, loginAs as tokensOf } from '../lib/keycloak.mjs';
import { call, eventually, expectStatus, GAME, LEADERBOARD } from '../lib/stack.mjs';
import { loginAs, openApp, shoot } from '../lib/ui.mjs';

/** The first legal placement of a piece (rows of # and .) on a board (8 strings), or null. */
function firstFit(board, rows) {
  const cells = rows.flatMap((line, r) => [...line].flatMap((ch, c) => (ch === '#' ? [[r, c]] : [])));
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      if (cells.every(([r, c]) => row + r < 8 && col + c < 8 && board[row + r][col + c] === '.')) return { row, col };
    }
  }
  return null;
}

/** A real game of alice's through the REST API (a few placements, then resigned); its replay as text. */
async function playAndResign(token) {
  const created = await expectStatus(201, `${GAME}/api/games`, { method: 'POST', token, body: { level: 'EASY' } });
  let game = created.json;
  for (let i = 0; i < 4; i++) {
    const p = game.pieces.find((x) => !x.placed && firstFit(game.board, x.rows));
    if (!p) break;
    const at = firstFit(game.board, p.rows);
    const moved = await expectStatus(200, `${GAME}/api/games/${game.id}/moves`, {
      method: 'POST', token, body: { moveNumber: game.nextMoveNumber, slot: p.slot, ...at },
    });
    game = moved.json.game;
  }
  await expectStatus(200, `${GAME}/api/games/${game.id}/resign`, { method: 'POST', token });
  const replay = await expectStatus(200, `${GAME}/api/games/${game.id}/replay`, { token });
  return { game, replayText: replay.text };
}

/** Sends one message as game-service, signed or not; answers "topic-partition@offset". */
function publish(topic, key, value, { sign = false } = {}) {
  const res = publishAs(topic, key, value, { sign });
  assert.equal(res.status, 0, `publishing to ${topic}: ${res.stderr}`);
  return res.stdout;
}

describe('admin audits in the UI', () => {
  let browser;
  let app;
  let adminToken;
  const gameId = randomUUID();
  const forgedId = randomUUID();
  let claimed;
  let realGame;

  before(async () => {
    browser = await launchChromium();
    const alice = await tokensOf(browser, 'alice');
    adminToken = (await tokensOf(browser, 'admin')).access_token;
    const { game, replayText } = await playAndResign(alice.access_token);
    assert.ok(game.score > 0, 'the REST game scored');
    realGame = game;
    // The replay's text is kept as is (its 64-bit seed would not survive JSON.parse); only the claim changes.
    claimed = game.score + 1000;
    const tampered = replayText.replace(/"claimedScore"\s*:\s*\d+/, `"claimedScore":${claimed}`);
    assert.notEqual(tampered, replayText);
    const sub = claims(alice.access_token).sub;
    const finishedAt = new Date();
    const message = `{"schemaVersion":2,"gameId":"${gameId}","player":{"subject":"${sub}","name":"alice"},`
      + `"mode":"SOLO","seedSource":"SERVER","day":null,"createdAt":"${new Date(finishedAt - 60_000).toISOString()}",`
      + `"finishedAt":"${finishedAt.toISOString()}","replay":${tampered}}`;
    publish('game-finished', gameId, message, { sign: true });
    // The same forgery without game-service's signature, under another id (and finishedAt 2099): refused.
    publish('game-finished', forgedId, message.replace(gameId, forgedId).replace(finishedAt.toISOString(),
      '2099-01-01T00:00:00.000Z'));
    await eventually(`game ${gameId} audited`, async () => {
      const res = await call(`${LEADERBOARD}/api/leaderboards/admin/audits/${gameId}`, { token: adminToken });
      if (res.status === 404) return false;
      if (res.status !== 200) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
      assert.equal(res.json.summary.outcome, 'REJECTED');
      return true;
    }, { timeoutMs: 45_000, intervalMs: 1_000 });
    app = await openApp(browser);
  });

  after(async () => {
    await app?.context.close();
    await browser?.close();
  });

  test('an unsigned game-finished is refused: no audit of its game id, its reason in the refused trail', async () => {
    await eventually(`message ${forgedId} refused`, async () => {
      const res = await expectStatus(200, `${LEADERBOARD}/api/leaderboards/admin/audits/refused?size=100`, { token: adminToken });
      const line = res.json.refused.find((r) => r.key === forgedId);
      if (!line) return false;
      assert.match(line.reason, /^unsigned/);
      return true;
    }, { timeoutMs: 45_000, intervalMs: 1_000 });
    await expectStatus(404, `${LEADERBOARD}/api/leaderboards/admin/audits/${forgedId}`, { token: adminToken });
  });

  test('a player is told the audits are for admins', async () => {
    const other = await openApp(browser, { hash: '#/admin' });
    try {
      await loginAs(other.page, 'bob');
      assert.equal(await other.page.locator('#header a[href="#/admin"]').count(), 0, 'no Audits link for a player');
      await other.page.waitForSelector('[data-testid=admins-only]');
      assert.match(await other.page.textContent('[data-testid=admins-only]'), /Admins only/);
    } finally {
      await other.context.close();
    }
  });

  test('the admin finds the rejected game, reads why, steps its replay and re-validates it', async () => {
    const { page, errors } = app;
    await loginAs(page, 'admin');
    await page.click('#header a[href="#/admin"]');
    await page.waitForSelector('[data-testid=audits]');
    assert.equal(await page.getAttribute('[data-testid=outcome-REJECTED]', 'aria-selected'), 'true', 'rejected games by default');
    // Newest first: the game is on the first page of the rejected EASY games.
    await page.selectOption('#audit-level', 'EASY');
    await page.waitForURL(/level=EASY/);
    const row = page.locator(`[data-testid=audits] tr[data-game-id="${gameId}"]`);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-outcome'), 'REJECTED');
    assert.match(await row.textContent(), /claimed score/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'admin-audits');

    await row.locator('[data-testid=audit-open]').click();
    await page.waitForURL(new RegExp(`#/admin/${gameId}`));
    await page.waitForSelector('[data-testid=audit-outcome]');
    assert.equal((await page.textContent('[data-testid=audit-outcome]')).trim(), 'Rejected');
    assert.match(await page.textContent('[data-testid=audit-reason]'), new RegExp(`claimed score ${claimed}, replay scores \\d+`));
    assert.ok(await page.locator('[data-testid=audit-trace] li').count() > 0, 'the validator trace');

    // The embedded replay viewer: every move plays; the claim is shown not to hold.
    const total = Number((await page.textContent('[data-testid=replay-counter]')).match(/\/ (\d+)/)[1]);
    assert.ok(total >= 1);
    await page.click('[data-testid=replay-next]');
    assert.match(await page.textContent('[data-testid=replay-counter]'), /^Move 1 \//);
    await page.click('[data-testid=replay-end]');
    assert.match(await page.textContent('[data-testid=replay-counter]'), new RegExp(`^Move ${total} / ${total}$`));
    assert.match(await page.textContent('[data-testid=replay-claim]'), new RegExp(`Claimed: ${claimed} points.*not what is claimed`));
    // A rejected game is not a record: nothing to strike.
    assert.ok(await page.isDisabled('[data-testid=strike]'));

    await page.click('[data-testid=revalidate]');
    await page.waitForFunction(() => /Re-validated/.test(document.querySelector('[data-testid=audit-status]')?.textContent ?? ''));
    assert.match(await page.textContent('[data-testid=audit-status]'), /Re-validated: Rejected/);
    await page.waitForSelector('[data-testid=audit-actions] li');
    assert.match(await page.textContent('[data-testid=audit-actions]'), /admin/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'admin-audit-detail');
    assert.deepEqual(errors, [], 'no page errors');
  });

  test('the admin watches any game at #/replay/<id> and strikes a record with a reason', async () => {
    const { page, errors } = app;
    const origin = new URL(page.url()).origin;
    // Not the admin's own game: game-service refuses it, the viewer falls back to the audit's replay.
    await page.goto(`${origin}/#/replay/${gameId}`);
    await page.waitForSelector('[data-testid=replay-counter]');
    await page.click('[data-testid=replay-end]');
    assert.match(await page.textContent('[data-testid=replay-claim]'), /not what is claimed/);

    // alice's real game is a record once leaderboard-service has it.
    await eventually(`game ${realGame.id} a record`, async () => {
      const res = await call(`${LEADERBOARD}/api/leaderboards/admin/audits/${realGame.id}`, { token: adminToken });
      return res.status === 200 && res.json.summary.outcome === 'RECORD';
    }, { timeoutMs: 45_000, intervalMs: 1_000 });
    await page.goto(`${origin}/#/admin/${realGame.id}`);
    await page.waitForSelector('[data-testid=audit-outcome]');
    assert.equal((await page.textContent('[data-testid=audit-outcome]')).trim(), 'Record');
    await page.click('[data-testid=replay-end]');
    assert.equal((await page.textContent('[data-testid=replay-score]')).trim(), String(realGame.score));
    await page.click('[data-testid=strike]');
    assert.match(await page.textContent('[data-testid=audit-status]'), /Say why/);
    await page.fill('[data-testid=strike-reason]', 'e2e: struck on purpose');
    await page.click('[data-testid=strike]');
    await page.waitForSelector('[data-testid=strike-info]');
    assert.match(await page.textContent('[data-testid=strike-info]'), /by admin: e2e: struck on purpose/);
    assert.ok(await page.isDisabled('[data-testid=strike]'), 'a struck record cannot be struck again');
    assert.match(await page.textContent('[data-testid=audit-actions]'), /STRIKE/);
    assert.deepEqual(errors, [], 'no page errors');
  });

  test("a daily game of today shows its seed and replay withheld until the day is over, not as an error", async () => {
    const { page, errors } = app;
    const origin = new URL(page.url()).origin;
    // The day must not end while the test runs (the seed would then be shown): past midnight if it is near.
    const toMidnight = new Date().setUTCHours(24, 0, 0, 0) - Date.now();
    if (toMidnight < 180_000) await new Promise((r) => setTimeout(r, toMidnight + 5_000));
    // bob's HARD daily game (no other test plays that level's daily), resigned at once: audited like any other
    const bob = (await tokensOf(browser, 'bob')).access_token;
    const created = await expectStatus(201, `${GAME}/api/games`, { method: 'POST', token: bob, body: { level: 'HARD', daily: true } });
    const id = created.json.id;
    await expectStatus(200, `${GAME}/api/games/${id}/resign`, { method: 'POST', token: bob });
    let until;
    await eventually(`daily game ${id} audited`, async () => {
      const res = await call(`${LEADERBOARD}/api/leaderboards/admin/audits/${id}`, { token: adminToken });
      if (res.status === 404) return false;
      if (res.status !== 200) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
      assert.equal(res.json.seed, null, 'no seed before the day is over');
      until = res.json.withheldUntil;
      return true;
    }, { timeoutMs: 45_000, intervalMs: 1_000 });
    assert.match(until, /T00:00/, 'withheld until the next UTC midnight');
    await page.goto(`${origin}/#/admin/${id}`);
    await page.waitForSelector('[data-testid=audit-withheld]');
    assert.match(await page.textContent('[data-testid=audit-withheld]'), /daily challenge game: its seed, replay and validator trace are withheld until/);
    assert.match(await page.textContent('[data-testid=audit-facts]'), /Seed\s*withheld until/);
    assert.equal(await page.locator('.audit-replay [role=alert]').count(), 0, 'no "unreadable replay" error');
    assert.deepEqual(errors, [], 'no page errors');
  });
});
