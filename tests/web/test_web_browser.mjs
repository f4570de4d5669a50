// test_web_browser.mjs - the pages in a real browser (Debian's chromium,
// driven by playwright-core): the leaderboard lists the tournament's bots,
// a bot page draws its plot, the replay viewer steps with the keyboard and
// draws what `referee show` prints at three decisions, a War Chest and a
// Goofspiel match each draw their own board (their game's script loaded,
// no other's), the seat view hides the other seat's hand, and a hostile
// bot name is shown as text. Saves a screenshot of every page into SHOTS.
//   node test_web_browser.mjs BASE_URL SHOW_TXT SHOTS_DIR NODE_MODULES
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium } from './chromium.mjs';

const [base, showFile, shots, modules] = process.argv.slice(2);
const EVIL = '<script>alert(1)</script>';
const CODES = { archer: 'AR', berserker: 'BE', cavalry: 'CA', crossbowman: 'CR', ensign: 'EN',
  footman: 'FO', knight: 'KN', lancer: 'LA', light_cavalry: 'LC', marshall: 'MA', mercenary: 'ME',
  pikeman: 'PI', royal_guard: 'RG', scout: 'SC', swordsman: 'SW', warrior_priest: 'WP' };

// `referee show`: the board after each decision, as {hex: "AR2A"-like cell}.
function boardsFromShow(text) {
  const lines = text.split('\n'), boards = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^round \d+/.test(lines[i])) continue;
    const cells = {};
    for (let y = 0; y <= 12; y++) {
      const line = lines[i + 1 + y];
      for (const m of line.matchAll(/\S+/g)) {
        const q = m.index / 4 - 5, r = (y - q - 6) / 2;
        const name = String.fromCharCode(97 + q + 5) + (r + 4);
        const tok = m[0];
        if (/^[a-k][1-7]/.test(tok)) cells[name] = { unit: '', control: tok.slice(2) };
        else cells[name] = { unit: tok.slice(0, 2).toUpperCase(), side: tok[0] === tok[0].toUpperCase() ? 0 : 1,
          coins: Number(tok[2]), control: tok.slice(3) };
      }
    }
    boards.push(cells);
  }
  return boards;
}
// The board modules a match page holds, and the board scripts it loaded:
// those of the match's game only (match.js loads it; no page lists one).
function boardsLoaded(page) {
  return page.evaluate(() => [Object.keys(window.ArenaBoards).sort(),
    [...document.scripts].map(s => s.getAttribute('src')).filter(s => s && s.startsWith('/static/games/'))]);
}
async function boardFromPage(page) {
  return page.$$eval('#wc-board g.hex', gs => gs.map(g => ({ hex: g.dataset.hex, unit: g.dataset.unit,
    side: g.dataset.side, coins: g.dataset.coins, control: g.dataset.control }))).then(list => {
    const cells = {};
    for (const h of list) {
      const control = h.control === 'neutral' ? '*' : h.control === '0' ? 'A' : h.control === '1' ? 'B' : '';
      cells[h.hex] = h.unit ? { unit: CODES[h.unit], side: Number(h.side), coins: Math.min(9, Number(h.coins)), control }
                            : { unit: '', control };
    }
    return cells;
  });
}

const browser = await launchChromium(modules);
let failures = 0;
const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
const dialogs = [], errors = [];
page.on('dialog', d => { dialogs.push(d.message()); d.dismiss(); });
page.on('pageerror', e => errors.push(String(e)));
page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
async function test(name, fn) {
  try { await fn(); console.log('ok   ' + name); }
  catch (e) { failures++; console.log('FAIL ' + name + '\n     ' + (e.stack || e)); }
}
const shot = name => page.screenshot({ path: path.join(shots, name + '.png'), fullPage: true });

await test('leaderboard lists the bots of the tournament', async () => {
  await page.goto(base + '/?kind=warchest:2');
  await page.waitForSelector('table.standings tbody tr');
  const names = await page.$$eval('table.standings tbody tr td:nth-child(2) a', as => as.map(a => a.textContent));
  assert.deepEqual([...names].sort(), [EVIL, 'greedy', 'random'].sort());
  await page.waitForSelector('table.heat');
  await shot('leaderboard');
});
await test('the leaderboard says as of when, and refreshes itself', async () => {
  const asOf = () => page.textContent('#as-of');
  const first = await asOf();
  assert.match(first, /^as of \d\d:\d\d:\d\d · refreshes every 5 s$/);
  let asked = 0;
  const count = req => { if (req.url().includes('/api/standings')) asked++; };
  page.on('request', count);
  // no reload: the page asks again and shows the newer time (the data is
  // current, so its "as of" is the time it was asked for)
  await page.waitForFunction(t => document.getElementById('as-of').textContent !== t, first, { timeout: 12000 });
  page.off('request', count);
  assert.ok(asked >= 1, 'it asked the standings again');
  assert.equal(await page.locator('table.standings tbody tr').count(), 3, 'the table is drawn again');
});
await test('a bot on trial is badged trial, as the CLI says', async () => {
  await page.goto(base + '/?ladder=' + encodeURIComponent('<b>night</b> & day'));
  await page.waitForSelector('table.standings tbody tr[data-bot="random3"]');
  const badge = page.locator('tr[data-bot="random3"] .status');
  assert.equal(await badge.textContent(), 'trial');
  assert.equal(await badge.getAttribute('class'), 'status trial');
  await shot('leaderboard-trial');
});
await test('a ladder\'s leaderboard, chosen from the list, its hostile name as text', async () => {
  const ladder = '<b>night</b> & day';
  await page.goto(base + '/');                            // the kind played last
  await page.waitForSelector('table.standings tbody tr');
  assert.equal(await page.$eval('select[name=kind]', s => s.value), 'goofspiel:2');
  await Promise.all([page.waitForNavigation(), page.selectOption('select[name=from]', 'ladder=' + ladder)]);
  assert.equal(new URL(page.url()).searchParams.get('ladder'), ladder);
  await page.waitForSelector('table.standings tbody tr');
  assert.deepEqual(await page.$$eval('table.standings tbody tr td:nth-child(7)', t => t.map(x => x.textContent)),
    ['4', '4', '4']);
  const chosen = await page.$eval('select[name=from]', s => s.selectedOptions[0].textContent);
  assert.equal(chosen, `ladder ${ladder}: goofspiel`);
  assert.equal(await page.locator('select[name=from] b').count(), 0, 'no markup from a name');
  // its SPRT gates, newest first, names as text
  const gates = await page.$$eval('#gates tbody tr', trs => trs.map(tr => [...tr.cells].map(td => td.textContent)));
  assert.deepEqual(gates.map(r => [r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9]]), [
    [ladder, EVIL, 'random', 'passed (H1)', '3.02', '[-2.94, 2.94]', '12', '11-1-0', '6'],
    [ladder, 'random3', 'random2', 'failed (H0)', '-3.01', '[-2.94, 2.94]', '12', '2-0-10', '6']]);
  assert.equal(await page.locator('#gates script, #gates b').count(), 0, 'no markup from a name');
  await shot('leaderboard-ladder');
  await page.goto(base + '/?kind=warchest:2');
  await page.waitForSelector('table.standings tbody tr');
});
await test('a bot named <script>alert(1)</script> is shown as text', async () => {
  const link = page.locator('table.standings a', { hasText: EVIL });
  assert.equal(await link.count(), 1);
  assert.equal(await link.textContent(), EVIL);
  await link.click();
  await page.waitForSelector('h1');
  assert.ok((await page.textContent('h1')).includes(EVIL));
  await page.waitForSelector('#plot canvas');
  await shot('bot-hostile-name');
  assert.deepEqual(dialogs, [], 'no script ran');
});
await test('a bot page shows its rating plot', async () => {
  await page.goto(base + '/bot?name=greedy');
  await page.waitForSelector('#plot .uplot canvas');
  const box = await page.locator('#plot canvas').first().boundingBox();
  assert.ok(box.width > 300 && box.height > 200, JSON.stringify(box));
  assert.ok(await page.locator('#plot .u-legend').count() === 1);
  await shot('bot');
  // an SPRT against an opponent, on request
  await page.locator('tr', { has: page.locator('a', { hasText: /^random$/ }) }).locator('button', { hasText: 'SPRT' }).click();
  await page.waitForSelector('#sprt-result .verdict');
  assert.match(await page.textContent('#sprt-result'), /^greedy vs random: \d+ games \d+-\d+-\d+, 1 seed pair, LLR -?\d+\.\d\d in \[-2\.94, 2\.94\]: /);
  const first = await page.textContent('#sprt-result');
  await page.fill('#elo1', '60');                         // another H1: another LLR
  await page.locator('tr', { has: page.locator('a', { hasText: /^random$/ }) }).locator('button', { hasText: 'SPRT' }).click();
  await page.waitForFunction(t => document.getElementById('sprt-result').textContent !== t, first);
  assert.match(await page.textContent('#sprt-result'), /stronger by 60 Elo|no verdict yet/);
  await shot('bot-sprt');
  // the page refreshes itself (a newer "as of") and keeps the SPRT's fields
  // and answer
  const sprt = await page.textContent('#sprt-result'), asOf = await page.textContent('#as-of');
  assert.match(asOf, /^as of \d\d:\d\d:\d\d · refreshes every 10 s$/);
  await page.locator('#elo1').blur();
  await page.waitForFunction(t => document.getElementById('as-of').textContent !== t, asOf, { timeout: 16000 });
  assert.equal(await page.textContent('#sprt-result'), sprt);
  assert.equal(await page.inputValue('#elo1'), '60');
  assert.equal(await page.locator('#plot .uplot').count(), 1, 'one plot, drawn anew');
});
await test('a plot whose points share one time spans minutes, not years', async () => {
  // tournament 1's matches were stored in one millisecond (test_web.sh)
  await page.goto(base + '/bot?name=greedy');
  await page.waitForSelector('#plot .uplot canvas');
  const [lo, hi] = await page.$eval('#plot', b => [Number(b.dataset.xMin), Number(b.dataset.xMax)]);
  const bot = await (await fetch(base + '/api/bots/greedy')).json();
  const t = bot.history[0][0] / 1000;
  assert.ok(bot.history.every(p => p[0] === bot.history[0][0]), 'the points share one time');
  assert.ok(lo < t && t < hi && hi - lo <= 3600, `the axis spans ${lo} to ${hi} around ${t}`);
  await shot('bot-one-time');
});
await test('a bot page lists the SPRT gates it met', async () => {
  await page.goto(base + '/bot?name=random2');
  await page.waitForSelector('#gates tbody tr');
  assert.deepEqual(await page.$$eval('#gates tbody tr td:nth-child(4), #gates tbody tr td:nth-child(5)',
    t => t.map(x => x.textContent)), ['random2', 'failed (H0)']);
  await shot('bot-gates');
  await page.goto(base + '/bot?name=greedy');
  await page.waitForSelector('#plot');
  assert.equal(await page.locator('#gates').count(), 0, 'none met: no section');
});
await test('match list', async () => {
  await page.goto(base + '/matches?bot=greedy');
  await page.waitForSelector('table.matches tbody tr');
  assert.equal(await page.locator('table.matches tbody tr').count(), 4);
  await shot('matches');
});
await test('the replay steps with the keyboard and matches `referee show`', async () => {
  const boards = boardsFromShow(fs.readFileSync(showFile, 'utf8'));
  await page.goto(base + '/match?id=1');
  await page.waitForSelector('#wc-board');
  assert.deepEqual(await boardsLoaded(page), [['text', 'warchest'], ['/static/games/warchest.js']]);
  const last = boards.length - 1;
  // the match's clock, and each decision's wall time, with CPU and wait
  // where the platform measured them (the CPU clock needs them)
  const clock = (await page.textContent('p.status-line')).match(/ · clock (cpu|wall) /);
  assert.ok(clock, 'the clock is shown');
  if (clock[1] === 'cpu') {
    assert.deepEqual(await page.$$eval('#actions th', t => t.map(x => x.textContent)),
      ['#', 'Seat', 'Decision', 'ms', 'CPU', 'Wait']);
    assert.equal(await page.locator('#actions td.cpu').count(), last);
    assert.match(await page.textContent('#actions td.cpu'), /^\d+\.\d$/);
  }
  const counter = () => page.textContent('#counter');
  assert.equal(await counter(), `0 / ${last}`);
  assert.deepEqual(await boardFromPage(page), boards[0]);
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await counter(), `12 / ${last}`);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await counter(), `11 / ${last}`);
  assert.deepEqual(await boardFromPage(page), boards[11]);
  const mid = Math.floor(last / 2);
  await page.click(`#actions tr[data-step="${mid}"]`);
  assert.equal(await counter(), `${mid} / ${last}`);
  assert.deepEqual(await boardFromPage(page), boards[mid]);
  await shot('replay');
  // what the hostile-named bot (ismcts --verbose) printed, beside each of its
  // decisions, and in full above the list for the decision stepped to
  const rows = await page.$$eval('#actions tbody tr', trs => trs.map(tr =>
    [Number(tr.dataset.step), tr.querySelector('pre.dlog') ? tr.querySelector('pre.dlog').textContent : null]));
  const printed = rows.filter(([, t]) => t !== null), quiet = rows.filter(([, t]) => t === null);
  assert.ok(printed.length > 10 && quiet.length > 10);
  assert.ok(printed.every(([k, t]) => t.startsWith(`ismcts: decision ${k}: `)), JSON.stringify(printed[0]));
  await page.click(`#actions tr[data-step="${printed[3][0]}"]`);
  assert.ok(await page.isVisible('#now-log'));
  assert.equal(await page.textContent('#now-log'), printed[3][1] + '\n');
  await shot('replay-printed');
  await page.click(`#actions tr[data-step="${quiet[3][0]}"]`);
  assert.ok(!(await page.isVisible('#now-log')), 'nothing printed: no box');
  await page.keyboard.press('End');
  assert.equal(await counter(), `${last} / ${last}`);
  assert.deepEqual(await boardFromPage(page), boards[last]);
  // the units' two-letter codes are spelt out under the board
  const codes = await page.$$eval('#wc-legend [data-code]', t => t.map(x => x.dataset.code));
  const onBoard = Object.values(await boardFromPage(page)).map(c => c.unit).filter(Boolean);
  assert.ok(onBoard.length > 0 && onBoard.every(c => codes.includes(c)), `${onBoard} in ${codes}`);
  assert.match(await page.textContent('#wc-legend'), /[A-Z]{2} [a-z]/);
  await page.keyboard.press('Home');
  assert.equal(await counter(), `0 / ${last}`);
  // the decision list's column heads stay in sight as it scrolls
  await page.$eval('#actions', a => { a.scrollTop = a.scrollHeight / 2; });
  const list = await page.$eval('#actions', a => a.getBoundingClientRect().top);
  const head = await page.$eval('#actions thead th', h => h.getBoundingClientRect().top);
  assert.ok(await page.$eval('#actions', a => a.scrollTop) > 100, 'the list scrolled');
  assert.ok(Math.abs(head - list) <= 2, `the heads at ${head}, the list's top at ${list}`);
  await shot('replay-scrolled');
  await page.keyboard.press(' ');            // play
  await page.waitForFunction(() => !document.getElementById('counter').textContent.startsWith('0 /'));
  await page.keyboard.press(' ');            // pause
  const stopped = await counter();
  await page.waitForTimeout(700);
  assert.equal(await counter(), stopped);
});
await test('a second game draws its own table, in full and a seat\'s view', async () => {
  await page.goto(base + '/match?id=7');
  await page.waitForSelector('#gs-table');
  assert.deepEqual(await boardsLoaded(page), [['goofspiel', 'text'], ['/static/games/goofspiel.js']]);
  assert.equal(await page.locator('#wc-board').count(), 0);
  await page.keyboard.press('End');
  const points = await page.$$eval('#gs-table [data-points]', t => t.map(x => x.dataset.points));
  const detail = await page.textContent('p.status-line');
  assert.ok(detail.includes('points ' + points.join('-')), `${detail} vs ${points}`);
  assert.equal(await page.locator('table.gs-history tbody tr').count(), 5);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');                // seat 0 has bid
  await page.keyboard.press('2');                         // seat 2's view
  await page.waitForSelector('#views button.on[data-view="2"]');
  await page.waitForSelector('#gs-table');
  assert.equal(await page.textContent('[data-seat="0"] [data-zone="hand"]'), 'hand4 hidden'  /* 5 cards, one bid */);
  assert.equal(await page.textContent('[data-seat="0"] [data-zone="bid"] .gs-card'), '?');
  assert.match(await page.textContent('[data-seat="2"] [data-zone="hand"]'), /^hand(\d+)+$/);
  // seat 0's first bid: hidden until its round is settled (step 3), then shown
  const first = '#actions tr[data-step="1"] .act', full = (await (await fetch(base + '/api/matches/7')).json()).decisions;
  assert.equal(await page.textContent(first), 'bid ?');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.textContent(first), 'bid ?');
  await page.keyboard.press('ArrowRight');
  assert.match(full[0].action, /^bid \d+$/);
  assert.equal(await page.textContent(first), full[0].action);
  assert.equal(await page.textContent('#actions tr[data-step="2"] .act'), full[1].action);
  assert.equal(await page.textContent('#actions tr[data-step="4"] .act'), 'bid ?');   // round 2's
  await shot('replay-goofspiel-revealed');
  await page.keyboard.press('Home');
  assert.equal(await page.textContent(first), 'bid ?');
  await page.keyboard.press('ArrowRight');
  await shot('replay-goofspiel');
});
await test('a hostile log and detail are shown as text', async () => {
  await page.goto(base + '/match?id=2');
  await page.waitForSelector('pre.log');
  assert.equal(await page.textContent('pre.log'), '<img src=x onerror=alert(2)>\n</pre><script>alert(3)</script>\ufffd\n');
  assert.equal(await page.locator('#main img, #main script').count(), 0);
  assert.ok((await page.textContent('p.status-line')).includes('<img src=x onerror=alert(4)>'));
  await shot('replay-hostile-log');
  assert.deepEqual(dialogs, [], 'no script ran');
});
await test('the seat view hides the other seat\'s hand', async () => {
  await page.goto(base + '/match?id=1&step=9');
  await page.waitForSelector('#wc-board');
  const full = await page.$$eval('.seatcard [data-zone="hand"] .hidden', x => x.length);
  assert.equal(full, 0);
  await page.click('#views button[data-view="0"]');
  await page.waitForSelector('#views button[data-view="0"].on');
  await page.waitForSelector('.seatcard[data-seat="1"] [data-zone="hand"] .hidden');
  assert.match(await page.textContent('.seatcard[data-seat="1"] [data-zone="hand"]'), /hidden/);
  assert.match(await page.textContent('.seatcard[data-seat="1"] [data-zone="bag"]'), /hidden/);
  assert.equal(await page.locator('.seatcard[data-seat="0"] [data-zone="hand"] .hidden').count(), 0);
  await shot('replay-seat0');
  await page.keyboard.press('1');
  await page.waitForSelector('#views button[data-view="1"].on');
  await page.waitForSelector('.seatcard[data-seat="0"] [data-zone="hand"] .hidden');
  assert.equal(await page.locator('.seatcard[data-seat="1"] [data-zone="hand"] .hidden').count(), 0);
});
await test('live page', async () => {
  await page.goto(base + '/live');
  await page.waitForSelector('table.matches tbody tr');
  assert.match(await page.textContent('#as-of'), /^as of \d\d:\d\d:\d\d · refreshes every 2 s$/);
  assert.deepEqual(await page.$$eval('#ladders tbody td', t => t.map(x => x.textContent)).then(t => t.slice(0, 4)),
    ['<b>night</b> & day', 'goofspiel', '6', '6']);
  assert.equal(await page.locator('#ladders b').count(), 0, 'the ladder\'s name is text');
  // the arena killed long ago: shown silent, its host name as text
  const arena = await page.$$eval('#arenas tbody td', t => t.map(x => x.textContent));
  assert.deepEqual(arena.slice(0, 6), ['<i>box</i>', '4242', 'tournament #1', '3', '2', 'tcp://127.0.0.1:7000']);
  assert.match(arena[7], /^last seen .+ ago: killed\?$/);
  assert.equal(await page.locator('#arenas i').count(), 0, 'the host name is text');
  await shot('live');
});
await test('no script errors, no dialogs', async () => {
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors.filter(e => !/favicon/.test(e)), []);
});
await browser.close();
if (failures) { console.log(`${failures} failed`); process.exit(1); }
console.log('all passed');
