// chromium.mjs - the browser every page test drives: Debian's chromium
// (or $CHROMIUM) through playwright-core from web/node_modules, headless,
// with what a test machine cannot give it turned off.
//   const browser = await launchChromium(MODULES);
import path from 'node:path';
import { createRequire } from 'node:module';

export function launchChromium(modules) {
  const { chromium } = createRequire(path.join(path.resolve(modules), 'x.js'))('playwright-core');
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}
