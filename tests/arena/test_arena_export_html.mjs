// test_arena_export_html.mjs - `arena export ID --html FILE` in a real
// browser (Debian's chromium through playwright-core), opened as a file
// with every other request refused: the replay viewer draws the board,
// steps through every decision, switches to a seat's view (the other
// seat's hand hidden), shows each seat's log, and a log that holds
// "</script>" is shown as text, never run or parsed.
//   node test_arena_export_html.mjs PAGE DECISIONS LOGLINE NODE_MODULES
import assert from 'node:assert/strict';
import path from 'node:path';
import { launchChromium } from '../web/chromium.mjs';

const [file, decisions, logline, modules] = process.argv.slice(2);
const browser = await launchChromium(modules);
const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
const outside = [], errors = [], dialogs = [];
await page.route('**/*', route => {
  if (route.request().url().startsWith('file:')) return route.continue();
  outside.push(route.request().url());
  return route.abort();
});
page.on('pageerror', e => errors.push(String(e)));
page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
page.on('dialog', d => { dialogs.push(d.message()); d.dismiss(); });
let failed = 0;
try {
  await page.goto('file://' + path.resolve(file));
  await page.waitForSelector('#wc-board g.hex');
  const last = Number(decisions);
  assert.equal(await page.textContent('#counter'), `0 / ${last}`);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent('#counter'), `1 / ${last}`);
  await page.keyboard.press('End');
  assert.equal(await page.textContent('#counter'), `${last} / ${last}`);
  assert.equal(await page.locator('#actions tbody tr').count(), last);
  // each seat's log; the one that prints "</script>" is text
  const heads = await page.$$eval('h2', h => h.map(x => x.textContent).filter(t => t.startsWith('Log of')));
  assert.equal(heads.length, 2, heads.join('|'));
  const logs = await page.$$eval('pre.log', p => p.map(x => x.textContent));
  assert.ok(logs.some(t => t.includes(logline)), logs.map(t => t.slice(0, 80)).join('|'));
  assert.equal(await page.locator('b.injected').count(), 0, 'a log made an element');
  // a seat's view: the other seat's hand hidden, from the page's own data
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.click('#views button[data-view="0"]');
  await page.waitForSelector('#views button[data-view="0"].on');
  await page.waitForSelector('.seatcard[data-seat="1"] [data-zone="hand"] .hidden');
  assert.equal(await page.locator('.seatcard[data-seat="0"] [data-zone="hand"] .hidden').count(), 0);
  assert.deepEqual(outside, [], 'requests outside the file');
  assert.deepEqual(errors, [], 'errors on the page');
  assert.deepEqual(dialogs, [], 'a script of the log ran');
  console.log('ok   the exported page replays offline');
} catch (e) {
  failed = 1;
  console.log('FAIL the exported page\n     ' + (e.stack || e));
}
await browser.close();
process.exit(failed);
