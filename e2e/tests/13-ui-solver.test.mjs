// The solver page in the browser, against the real solver-service: the worked example of
// RULES.md painted by drag and by clicks, solved in maxLines mode (93 points, 2 lines), stepped
// through on the grid, reopened from its URL; the alternatives of the protocol's maxLines
// example; a drawn piece and the keyboard; errors in words.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { launchChromium } from '../lib/browser.mjs';
import { GAME } from '../lib/stack.mjs';
import { openApp, PHONE, shoot } from '../lib/ui.mjs';

const GOLDEN = resolve(dirname(fileURLToPath(import.meta.url)), '../../engine/src/test/resources/golden');
// RULES.md's worked example: streak 2, miss 1, L3A at (0,0) completes row 0 and column 0.
const WORKED = JSON.parse(readFileSync(`${GOLDEN}/rules/worked-examples.json`, 'utf8'))[0];
const EMPTY = Array(8).fill('........');

/** The cells of a grid (by test id) as 8 strings of # and . */
function gridOf(page, testid) {
  return page.getByTestId(testid).evaluate((grid) => {
    const cells = [...grid.querySelectorAll('.cell')];
    const rows = [];
    for (let r = 0; r < 8; r++) rows.push(cells.slice(r * 8, r * 8 + 8).map((c) => (c.classList.contains('filled') ? '#' : '.')).join(''));
    return rows;
  });
}

/** "r,c" of the cells of a grid with a class, sorted. */
function cellsOf(page, testid, cls) {
  return page.getByTestId(testid).evaluate((grid, k) =>
    [...grid.querySelectorAll(`.cell.${k}`)].map((c) => `${c.dataset.row},${c.dataset.col}`).sort(), cls);
}

const cell = (page, testid, r, c) => page.locator(`[data-testid="${testid}"] .cell[data-row="${r}"][data-col="${c}"]`);
const text = async (page, testid) => (await page.getByTestId(testid).textContent()).trim();

async function paint(page, rows) {
  // Row 0 by one drag from its first filled cell to its last (the first cell decides: fill).
  const first = rows[0].indexOf('#');
  const last = rows[0].lastIndexOf('#');
  const a = await cell(page, 'solver-board', 0, first).boundingBox();
  const b = await cell(page, 'solver-board', 0, last).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
  // The rest one click each.
  for (let r = 1; r < 8; r++) for (let c = 0; c < 8; c++) if (rows[r][c] === '#') await cell(page, 'solver-board', r, c).click();
}

describe('web UI: solver', () => {
  let browser;
  before(async () => { browser = await launchChromium(); });
  after(() => browser?.close());

  test('the worked example: painted, solved (93 points, 2 lines), stepped through, reopened from its link', async () => {
    const { page, errors, context } = await openApp(browser, { hash: '#/solver' });
    await page.getByTestId('solver-board').waitFor();
    assert.deepEqual(await gridOf(page, 'solver-board'), EMPTY);

    await paint(page, WORKED.board);
    assert.deepEqual(await gridOf(page, 'solver-board'), WORKED.board, 'the painted board');
    await page.locator('[data-testid="solver-palette"] button[data-piece="L3A"]').click();
    assert.equal(await page.locator('.solver-slot[data-slot="0"]').getAttribute('data-piece'), 'L3A');
    await page.getByTestId('solver-streak').fill(String(WORKED.streak));
    await page.getByTestId('solver-miss').fill(String(WORKED.miss));
    assert.ok(await page.locator('#solver-mode-maxLines').isChecked(), 'most lines is the default goal');

    // The position is in the URL as the user edits.
    const query = 'b=3f00808080848080&p=L3A&s=2&m=1&mode=maxLines';
    assert.equal(new URL(page.url()).hash, `#/solver?${query}`);

    await page.getByTestId('solver-solve').click();
    await page.getByTestId('solver-points').waitFor();
    // The golden file's figures: one move, 93 points, 2 lines, streak 3 after.
    const move = WORKED.moves[0];
    assert.deepEqual([move.piece, move.row, move.col, move.points, move.lines], ['L3A', 0, 0, 93, 2]);
    assert.equal(await text(page, 'solver-points'), '93');
    assert.equal(await text(page, 'solver-lines'), '2');
    assert.equal(await text(page, 'solver-streak-after'), '3');
    assert.match(await text(page, 'solver-alt-count'), /\(0\)/, 'the only placement that clears two lines');
    assert.equal(await page.getByTestId('solver-gameover').count(), 0);

    // Step 0: the position as painted.
    assert.deepEqual(await gridOf(page, 'solver-step-board'), WORKED.board);
    // Step 1: L3A placed at (0,0) in its colour, with row 0 and column 0 about to clear.
    await page.getByTestId('solver-next').click();
    assert.deepEqual(await cellsOf(page, 'solver-step-board', 'solver-placed'), ['0,0', '0,1', '1,0']);
    assert.deepEqual(await cellsOf(page, 'solver-step-board', 'c3'), ['0,0', '0,1', '1,0'], 'the L3 colour');
    const clearing = await cellsOf(page, 'solver-step-board', 'solver-clearing');
    const expected = [];
    for (let i = 0; i < 8; i++) expected.push(`0,${i}`);
    for (let i = 1; i < 8; i++) expected.push(`${i},0`);
    assert.deepEqual(clearing, expected.sort(), 'row 0 and column 0');
    assert.match(await text(page, 'solver-step-caption'), /L3A placed at row 1, column 1: \+93 points, 2 line/);
    await shoot(page, 'solver');
    // Step 2: the lines cleared; the answer's final board, the last step.
    await page.getByTestId('solver-next').click();
    assert.deepEqual(await gridOf(page, 'solver-step-board'), WORKED.final.board);
    assert.ok(await page.getByTestId('solver-next').isDisabled(), 'the last step');
    await page.getByTestId('solver-prev').click();
    assert.deepEqual(await cellsOf(page, 'solver-step-board', 'solver-placed'), ['0,0', '0,1', '1,0']);

    // The link reopens the same position.
    await page.reload();
    await page.getByTestId('solver-board').waitFor();
    assert.deepEqual(await gridOf(page, 'solver-board'), WORKED.board, 'board from the URL');
    assert.equal(await page.locator('.solver-slot[data-slot="0"]').getAttribute('data-piece'), 'L3A');
    assert.equal(await page.getByTestId('solver-streak').inputValue(), '2');
    assert.equal(await page.getByTestId('solver-miss').inputValue(), '1');
    assert.ok(await page.locator('#solver-mode-maxLines').isChecked());
    assert.equal(new URL(page.url()).hash, `#/solver?${query}`);
    // At 375 px wide nothing sticks out sideways.
    await page.setViewportSize(PHONE);
    assert.deepEqual(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width);
    // And in a fresh browser, in French by default.
    const other = await openApp(browser, { hash: `#/solver?${query}`, lang: 'fr' });
    await other.page.getByTestId('solver-board').waitFor();
    assert.deepEqual(await gridOf(other.page, 'solver-board'), WORKED.board);
    assert.match(await other.page.locator('h1').textContent(), /Solveur/);
    await other.page.getByTestId('solver-solve').click();
    assert.equal(await text(other.page, 'solver-points'), '93');
    await other.context.close();

    assert.deepEqual(errors, [], 'no script errors');
    await context.close();
  });

  test('maxLines alternatives: the protocol example lists 48 equally good sequences, each can be stepped through', async () => {
    // SOLVER-PROTOCOL.md's example position with I2H, O4 and DOT (golden/solver/positions.jsonl).
    const board = ['........', '........', '........', '........', '........', '........', '######..', '#####.##'];
    const hex = '000000000000fcfb';
    const { page, errors, context } = await openApp(browser, { hash: `#/solver?b=${hex}&p=I2H,O4,DOT` });
    await page.getByTestId('solver-board').waitFor();
    assert.deepEqual(await gridOf(page, 'solver-board'), board);
    await page.getByTestId('solver-solve').click();
    await page.getByTestId('solver-points').waitFor();
    // I2H at (6,6) fills row 6, DOT at (7,5) fills row 7; O4 anywhere on the cleared board: 49 boards.
    assert.equal(await text(page, 'solver-points'), '437');
    assert.equal(await text(page, 'solver-lines'), '2');
    assert.match(await text(page, 'solver-alt-count'), /\(48\)/);
    assert.equal(await page.getByTestId('solver-alt').count(), 48);
    const alt = page.locator('[data-testid="solver-alt"][data-index="0"]');
    await alt.click();
    assert.equal(await alt.getAttribute('aria-pressed'), 'true');
    while (!(await page.getByTestId('solver-next').isDisabled())) await page.getByTestId('solver-next').click();
    const final = await gridOf(page, 'solver-step-board');
    assert.equal(final.join('').split('#').length - 1, 4, 'only the O4 is left');
    assert.notDeepEqual(final, ['##......', '##......', ...EMPTY.slice(2)], 'a different board than the best answer');
    await shoot(page, 'solver-alternatives');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a drawn piece, the keyboard, the hint goal, and errors in words', async () => {
    const { page, errors, context } = await openApp(browser, { hash: '#/solver' });
    await page.getByTestId('solver-board').waitFor();
    await page.getByTestId('solver-solve').click();
    assert.match(await text(page, 'solver-status'), /at least one piece/);

    // Keyboard: from the first cell, right twice and down once, Space fills (1,2).
    await cell(page, 'solver-board', 0, 0).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    assert.deepEqual(await gridOf(page, 'solver-board'), ['........', '..#.....', ...EMPTY.slice(2)]);
    assert.match(await cell(page, 'solver-board', 1, 2).getAttribute('aria-label'), /row 2, column 3, filled/);

    // A drawn piece that is not in the catalogue: a 1×3 with a hole.
    await page.locator('label[for="solver-tab-draw"]').click();
    for (const c of [1, 3]) await page.locator(`[data-testid="solver-draw"] .cell[data-row="2"][data-col="${c}"]`).click();
    await page.getByTestId('solver-draw-use').click();
    assert.equal(await page.locator('.solver-slot[data-slot="0"]').getAttribute('data-piece'), 'drawn');
    assert.match(new URL(page.url()).hash, /p=x\.x&/);
    await page.locator('label[for="solver-mode-hint"]').click();
    await page.getByTestId('solver-level').selectOption('EXPERT');
    assert.match(new URL(page.url()).hash, /mode=hint&l=EXPERT$/);
    await page.getByTestId('solver-solve').click();
    await page.getByTestId('solver-points').waitFor();
    assert.equal(await text(page, 'solver-points'), '2');
    assert.equal(await page.getByTestId('solver-alt-count').count(), 0, 'no alternatives for the hint goal');

    // Errors from the service, in words: 429 with Retry-After, 400 with its detail, unreachable.
    await page.route('**/api/solver/solve', (route) => route.fulfill({
      status: 429, headers: { 'Retry-After': '7', 'Access-Control-Allow-Origin': GAME, 'Access-Control-Expose-Headers': 'Retry-After', 'Content-Type': 'application/problem+json' },
      body: JSON.stringify({ title: 'Too Many Requests', status: 429, detail: 'slow down' }),
    }));
    await page.getByTestId('solver-solve').click();
    await page.getByTestId('solver-error').waitFor();
    assert.match(await text(page, 'solver-error'), /Try again in 7 s/);
    await page.unroute('**/api/solver/solve');
    await page.route('**/api/solver/solve', (route) => route.fulfill({
      status: 400, headers: { 'Access-Control-Allow-Origin': GAME, 'Content-Type': 'application/problem+json' },
      body: JSON.stringify({ title: 'Bad Request', status: 400, detail: 'piece 0: unknown piece id "Q7"' }),
    }));
    await page.getByTestId('solver-solve').click();
    await page.waitForFunction(() => /unknown piece id/.test(document.querySelector('[data-testid="solver-error"]')?.textContent ?? ''));
    assert.match(await text(page, 'solver-error'), /refuses this position: piece 0: unknown piece id "Q7"/);
    await page.unroute('**/api/solver/solve');
    await page.route('**/api/solver/solve', (route) => route.abort('connectionrefused'));
    await page.getByTestId('solver-solve').click();
    await page.waitForFunction(() => /unreachable/.test(document.querySelector('[data-testid="solver-error"]')?.textContent ?? ''));
    await page.unroute('**/api/solver/solve');

    // The language switch re-renders the page in French, position kept.
    await page.getByRole('button', { name: 'Français' }).click();
    await page.getByTestId('solver-board').waitFor();
    assert.match(await page.locator('h1').textContent(), /Solveur/);
    assert.deepEqual(await gridOf(page, 'solver-board'), ['........', '..#.....', ...EMPTY.slice(2)]);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
