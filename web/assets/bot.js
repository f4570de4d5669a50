/*
 * bot.js - a bot's page (/bot?name=NAME): its ratings, the rating history
 * plotted with uPlot (the live Elo match by match; the Bradley-Terry rating
 * with its 95% band, from the ladder's refreshed fits when the database
 * has them, else the current fit's band), results by opponent, recent
 * matches, forfeits with their reasons, matches whose logs are kept, and
 * the SPRT gates it met; an SPRT against any opponent on request (its
 * fields and result kept across refreshes). Refreshes itself every 10 s,
 * drawn anew once all its data is in; says as of when. Data:
 * /api/bots/NAME, /api/standings, /api/gates, /api/sprt.
 */
'use strict';
(() => {
  const { api, el, param, botLink, matchLink, fixed, ago, matchesTable } = Arena;
  const EVERY_MS = 10000;
  Arena.header('');
  const main = document.getElementById('main');
  const name = param('name');
  // The SPRT's fields and answer: made once, so a refresh keeps them.
  const sprtBox = el('div', { class: 'sprt', id: 'sprt' }, 'SPRT (fishtest\'s test over their games): H0 elo ',
    el('input', { id: 'elo0', type: 'number', step: 'any', value: 0 }), ' H1 elo ',
    el('input', { id: 'elo1', type: 'number', step: 'any', value: 10 }),
    el('p', { id: 'sprt-result', class: 'muted' }, 'Press SPRT beside an opponent.'));
  let chart = null;
  Arena.refreshing(EVERY_MS, render);

  async function render() {
    try {
      if (!name) throw new Error('no bot named in the address (/bot?name=NAME)');
      const asked = Date.now();
      const bot = await api('/api/bots/' + encodeURIComponent(name));
      const standings = await api('/api/standings').catch(() => ({ standings: [], bots: [] }));
      const gates = (await api('/api/gates?bot=' + encodeURIComponent(bot.label))).gates;
      const rows = standings.standings.filter(r => r.bot === bot.label);
      const info = standings.bots.filter(b => b.name === bot.name);
      const me = info.find(b => b.id === bot.id) || bot;
      document.title = bot.label + ' · Arena';
      const card = (label, value, sub) => el('div', { class: 'card' }, el('div', { class: 'label' }, label),
        el('div', { class: 'value' }, value), sub ? el('div', { class: 'muted' }, sub) : null);
      const best = rows[0];
      const box = el('div', { class: 'plot', id: 'plot' });
      main.replaceChildren(
        el('h1', {}, bot.label, me.version ? el('span', { class: 'muted' }, ' ' + me.version) : null, ' ',
          el('span', { class: 'status ' + (me.status || 'active') }, me.status || 'active')),
        Arena.asOf(Math.min(asked, standings.as_of_ms || asked), EVERY_MS),
        me.status_reason ? el('p', { class: 'muted' }, me.status_reason) : '',
        el('div', { class: 'cards' },
          best ? card('Rating', fixed(best.elo, 0), `±${fixed(best.ci95, 0)} (95%), rank ${best.rank}, ${best.game} ${best.players}p`) : null,
          card('Live Elo', fixed(bot.live_elo, 0)),
          card('Games', bot.games),
          best ? card('W-D-L', `${best.wins}-${best.draws}-${best.losses}`, fixed(best.score_pct, 1) + '%') : null,
          card('Last active', ago(me.last_active_ms)),
          me.plays && me.plays.length ? card('Plays', me.plays.join(', ')) : null),
        info.length > 1 ? el('p', {}, 'Versions: ', info.map((b, i) => [i ? ', ' : '',
          botLink(b.label), ` (${b.status})`])) : '',
        el('h2', {}, 'Rating history'),
        bot.history_step > 1 ? el('p', { class: 'muted', id: 'plot-step' },
          `One point every ${bot.history_step} rated matches (${bot.history_total} in all) and the` +
          ' last; arena history has them all.') : '',
        box,
        el('div', { class: 'two' },
          el('div', {}, el('h2', {}, 'Results by opponent'), opponents(bot.opponents, bot.label),
            bot.opponents.length ? sprtBox : null),
          el('div', {}, el('h2', {}, 'Forfeits'), forfeits(bot.forfeits || []),
            bot.logs && bot.logs.length ? [el('h2', {}, 'Logs kept'), logs(bot.logs)] : null)),
        gates.length ? el('section', { id: 'gates' }, el('h2', {}, 'SPRT gates'), Arena.gatesTable(gates)) : '',
        el('h2', {}, 'Recent matches'),
        bot.recent.matches.length ? matchesTable(bot.recent.matches, bot.label) : el('p', { class: 'muted' }, 'None yet.'),
        el('p', {}, el('a', { href: '/matches?bot=' + encodeURIComponent(bot.label) }, 'All matches of ' + bot.label + ' →')));
      if (chart) chart.destroy();
      chart = plot(box, bot, best);
    } catch (e) { Arena.fail(main, e); }
  }

  function opponents(list, me) {
    if (!list.length) return el('p', { class: 'muted' }, 'No games yet.');
    return el('table', {}, el('thead', {}, el('tr', {}, ['Opponent', 'W', 'D', 'L', 'Score', '']
      .map((h, i) => el('th', { class: i ? 'num' : null }, h)))),
    el('tbody', {}, list.map(([oname, , w, d, l]) => el('tr', {}, el('td', {}, botLink(oname)),
      el('td', { class: 'num' }, w), el('td', { class: 'num' }, d), el('td', { class: 'num' }, l),
      el('td', { class: 'num' }, fixed(100 * (w + d / 2) / (w + d + l), 1) + '%'),
      el('td', { class: 'num' }, el('button', { class: 'small', onclick: () => sprt(me, oname) }, 'SPRT'))))));
  }
  // `arena sprt ME OPPONENT` on request (/api/sprt): the whole record.
  async function sprt(me, opponent) {
    const out = document.getElementById('sprt-result');
    try {
      const s = await api('/api/sprt?' + new URLSearchParams({ a: me, b: opponent,
        elo0: document.getElementById('elo0').value, elo1: document.getElementById('elo1').value }));
      const verdict = { H1: `H1: ${me} is stronger by ${s.elo1} Elo or more`,
        H0: `H0: ${me} is not stronger by ${s.elo1} Elo`, continue: 'no verdict yet' }[s.verdict];
      out.replaceChildren(el('b', {}, `${me} vs ${opponent}: `),
        `${s.wins + s.draws + s.losses} games ${s.wins}-${s.draws}-${s.losses}, ` +
        `${s.pairs} seed pair${s.pairs === 1 ? '' : 's'}, ` +
        `LLR ${fixed(s.llr, 2)} in [${fixed(s.lower, 2)}, ${fixed(s.upper, 2)}]: `,
        el('span', { class: 'verdict ' + s.verdict }, verdict));
    } catch (e) { out.replaceChildren(el('span', { class: 'error' }, e.message)); }
  }
  function forfeits(list) {
    if (!list.length) return el('p', { class: 'muted' }, 'None.');
    return el('table', {}, el('thead', {}, el('tr', {}, ['Match', 'When', 'Reason', 'Detail'].map(h => el('th', {}, h)))),
      el('tbody', {}, list.map(([id, at, reason, detail]) => el('tr', {}, el('td', {}, matchLink(id)),
        el('td', { class: 'muted' }, ago(at)), el('td', {}, reason), el('td', { class: 'detail' }, detail)))));
  }
  function logs(list) {
    return el('ul', {}, list.map(([id, seat, bytes]) => el('li', {}, matchLink(id),
      ` seat ${seat}, ${bytes} bytes`)));
  }

  // uPlot: x in seconds. The band is filled between two hidden series.
  function plot(box, bot, best) {
    const h = bot.history;
    if (!h.length) { box.append(el('p', { class: 'muted' }, 'No rated games yet.')); return null; }
    const xs = h.map(p => p[0] / 1000), live = h.map(p => p[1]);
    let fitMid, fitLo, fitHi, label;
    if (bot.fits && bot.fits.length) {
      // the ladder's fits, stepped onto the match times
      let k = -1;
      const at = x => { while (k + 1 < bot.fits.length && bot.fits[k + 1][0] / 1000 <= x) k++; return k; };
      const f = xs.map(x => bot.fits[at(x)]);
      fitMid = f.map(p => p ? p[1] : null); fitLo = f.map(p => p ? p[1] - p[2] : null);
      fitHi = f.map(p => p ? p[1] + p[2] : null); label = 'Bradley–Terry (fits)';
    } else if (best) {
      fitMid = xs.map(() => best.elo); fitLo = xs.map(() => best.elo - best.ci95);
      fitHi = xs.map(() => best.elo + best.ci95); label = 'Bradley–Terry now';
    }
    // two scales: the live Elo starts at 1500, the fit is centred on 0
    const data = [xs, live], series = [{}, { label: 'Live Elo', scale: 'elo', stroke: '#2563eb', width: 2 }];
    const axes = [{}, { scale: 'elo', label: 'live Elo', stroke: '#2563eb' }];
    if (fitMid) {
      data.push(fitLo, fitHi, fitMid);
      series.push({ label: '95% low', scale: 'bt', stroke: 'rgba(245,158,11,0.5)', width: 1 },
        { label: '95% high', scale: 'bt', stroke: 'rgba(245,158,11,0.5)', width: 1 },
        { label, scale: 'bt', stroke: '#b45309', width: 1.5, dash: [6, 4] });
      axes.push({ scale: 'bt', side: 1, label: 'Bradley–Terry', stroke: '#b45309', grid: { show: false } });
    }
    const opts = {
      width: Math.max(360, box.clientWidth - 20), height: 280, series, axes,
      bands: fitMid ? [{ series: [3, 2], fill: 'rgba(245,158,11,0.16)' }] : [],
      // the time axis's span on the box, for the tests
      hooks: { setScale: [(u, key) => { if (key === 'x') Object.assign(box.dataset,
        { xMin: u.scales.x.min, xMax: u.scales.x.max }); }] },
      // points that share one time (matches stored in the same second):
      // uPlot (1.6.32) stretches a zero-width time range over 1,000 days;
      // the range is taken from the points, a minute around them if they
      // span less than a second
      scales: { x: { time: true, range: () => xs[xs.length - 1] - xs[0] >= 1 ? [xs[0], xs[xs.length - 1]]
        : [xs[0] - 30, xs[xs.length - 1] + 30] } },
    };
    return new uPlot(opts, data, box);
  }
})();
