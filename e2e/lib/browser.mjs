// Debian's Chromium driven by Playwright: no browser download, a fresh profile per launch.
import { chromium } from 'playwright-core';
import { GAME, call } from './stack.mjs';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The background-networking flags keep Chromium from calling out of this closed network.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Chromium, whose contexts resign the guest games they still hold when they close (also those a failed test left
 * open, when the browser closes): every guest of these tests is 127.0.0.1, and game-service counts a guest address's
 * games in play against its limit (games-per-client, 10) until they are 30 minutes without a move, so the games
 * one run left in play would refuse the next run's guests their games (seen: 10 tests failed on a second run).
 */
export async function launchChromium() {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 60_000 });
  const newContext = browser.newContext.bind(browser);
  const closeBrowser = browser.close.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    const closeContext = context.close.bind(context);
    context.close = async (closeOptions) => {
      await resignGuestGames(context);
      return closeContext(closeOptions);
    };
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.close = () => context.close(); // as Playwright's own newPage: the page's context goes with it
    return page;
  };
  browser.close = async (options) => {
    for (const context of browser.contexts()) await resignGuestGames(context);
    return closeBrowser(options);
  };
  return browser;
}

/**
 * Resigns every game whose guest token the web UI keeps in the context's local storage ('bloc.gameTokens', by game
 * and match id): a finished game answers 409 and a match id 404, both left as they are. Never fails the test; says
 * so when it could not read the tokens (the next run may then meet 127.0.0.1's limit).
 */
async function resignGuestGames(context) {
  const origin = new URL(GAME).origin;
  let tokens;
  try {
    // from a page still open on the game's origin; else Playwright's storage state (which opens a page to read it)
    const page = context.pages().find((p) => p.url().startsWith(origin));
    const held = page
      ? await within(page.evaluate(() => localStorage.getItem('bloc.gameTokens')), 15_000)
      : (await within(context.storageState(), 15_000)).origins.find((o) => o.origin === origin)?.localStorage
        .find((e) => e.name === 'bloc.gameTokens')?.value;
    tokens = held ? JSON.parse(held) : {};
  } catch (e) {
    console.warn(`e2e: the guest games of a closing browser context were not resigned (${e.message})`);
    return;
  }
  await Promise.all(Object.entries(tokens).map(([id, token]) => call(`${GAME}/api/games/${encodeURIComponent(id)}/resign`,
    { method: 'POST', headers: { 'X-Game-Token': token } }).catch(() => null)));
}

// bounded: a page on a failed navigation's error page can leave Playwright waiting (20-ui-install)
function within(promise, ms) {
  return Promise.race([promise, new Promise((_, fail) => setTimeout(() => fail(new Error(`no answer in ${ms} ms`)), ms).unref())]);
}
