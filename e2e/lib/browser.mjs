// Debian's Chromium driven by Playwright: no browser download, a fresh profile per launch.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The background-networking flags keep Chromium from calling out of this closed network.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 60_000 });
}
