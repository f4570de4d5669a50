/*
 * leaderboard.js - the leaderboard (/): standings per kind of match (a game
 * and its number of seats), for all matches, one tournament or one ladder, then the
 * crosstable as a heat map; a ladder's SPRT gate verdicts. Refreshes itself
 * every 5 s, drawn anew once all its data is in; says as of when. A Swiss
 * or knockout tournament's own results come first: its table (points,
 * byes, Buchholz) or its bracket. Data: /api/games, /api/standings,
 * /api/crosstable, /api/gates, /api/event.
 */
'use strict';
(() => {
  const { api, el, param, botLink, fixed, ago } = Arena;
  const EVERY_MS = 5000;
  Arena.header('/');
  const main = document.getElementById('main');
  Arena.refreshing(EVERY_MS, render);

  async function render() {
    try {
      const games = await api('/api/games');
      const tournament = param('tournament') || '', ladder = param('ladder') || '';
      const kinds = games.kinds;
      // the kind asked for, else the one played last
      const latest = kinds.reduce((a, k) => !a || k.newest > a.newest ? k : a, null);
      let kind = param('kind') || (latest ? `${latest.game}:${latest.players}` : '');
      const [game, players] = kind.split(':');
      const q = new URLSearchParams();
      if (game) q.set('game', game);
      if (players) q.set('players', players);
      if (tournament) q.set('tournament', tournament);
      if (ladder) q.set('ladder', ladder);
      const data = await api('/api/standings?' + q);

      const pick = (name, value, options) => el('select', {
        name, onchange: e => { const u = new URLSearchParams(location.search);
          u.set(name, e.target.value); location.search = u; } },
        options.map(([v, label]) => el('option', { value: v, selected: v === value }, label)));
      // which matches: all, a tournament's or a ladder's (one parameter or the other)
      const from = () => el('select', { name: 'from', onchange: e => {
        const u = new URLSearchParams(location.search), [k, v] = e.target.value.split(/=(.*)/s);
        u.delete('tournament'); u.delete('ladder');
        if (k) u.set(k, v);
        location.search = u; } },
        [['', 'all matches']].concat(
          games.ladders.map(l => ['ladder=' + l.name, `ladder ${l.name}: ${l.game}`]),
          games.tournaments.map(t => ['tournament=' + t.id, `tournament ${t.id}: ${t.format}, ${t.game}` +
            (t.finished_ms ? '' : ' (running)')]))
          .map(([v, label]) => el('option', { value: v,
            selected: v === (ladder ? 'ladder=' + ladder : tournament ? 'tournament=' + tournament : '') }, label)));
      const toolbar = el('div', { class: 'toolbar' },
        el('label', {}, 'Kind', pick('kind', kind, kinds.map(k =>
          [`${k.game}:${k.players}`, `${k.game}, ${k.players} players`]))),
        el('label', {}, 'Matches', from()));

      const bots = new Map();
      for (const b of data.bots) bots.set(b.label, b);
      const rows = data.standings;
      const lo = Math.min(...rows.map(r => r.elo - r.ci95)), hi = Math.max(...rows.map(r => r.elo + r.ci95));
      const span = hi - lo || 1;
      const errBar = r => el('span', { class: 'bar', title: `${fixed(r.elo - r.ci95, 0)} … ${fixed(r.elo + r.ci95, 0)}` },
        el('i'), el('b'));
      const table = el('table', { class: 'standings' },
        el('thead', {}, el('tr', {}, ['#', 'Bot', 'Rating', '± 95%', '', 'Live Elo', 'Games', 'W-D-L',
          'Score', 'Last active', 'Status'].map((h, i) => el('th', { class: i > 1 && i < 9 && i !== 4 ? 'num' : null }, h)))),
        el('tbody', {}, rows.map(r => {
          const b = bots.get(r.bot) || {};
          const status = b.status || 'active';
          const tr = el('tr', { 'data-bot': r.bot },
            el('td', { class: 'num' }, r.rank),
            el('td', {}, botLink(r.bot), b.version && !r.bot.includes('@') ? el('span', { class: 'muted' }, ' ' + b.version) : null),
            el('td', { class: 'num' }, fixed(r.elo, 0)),
            el('td', { class: 'num' }, '±' + fixed(r.ci95, 0)),
            el('td', {}, errBar(r)),
            el('td', { class: 'num' }, fixed(r.live_elo, 0)),
            el('td', { class: 'num' }, r.games),
            el('td', { class: 'num' }, `${r.wins}-${r.draws}-${r.losses}`),
            el('td', { class: 'num' }, fixed(r.score_pct, 1) + '%'),
            el('td', { class: 'muted' }, ago(b.last_active_ms)),
            el('td', {}, el('span', { class: 'status ' + status, title: b.status_reason || '' }, status),
              b.status_reason ? el('span', { class: 'muted' }, ' ' + b.status_reason) : null,
              b.remote ? el('span', { class: 'muted' }, ' remote, ' + b.remote) : null));
          // the error bar drawn to scale (positions set through the CSSOM, allowed by the CSP)
          const bar = tr.querySelector('.bar');
          bar.firstChild.style.left = ((r.elo - r.ci95 - lo) / span * 100) + '%';
          bar.firstChild.style.width = (2 * r.ci95 / span * 100) + '%';
          bar.lastChild.style.left = ((r.elo - lo) / span * 100) + '%';
          return tr;
        })));
      const parts = [el('h1', {}, 'Leaderboard'), Arena.asOf(data.as_of_ms, EVERY_MS), toolbar];
      if (tournament) {
        const ev = await api('/api/event?tournament=' + encodeURIComponent(tournament));
        if (ev.swiss) parts.push(swissTable(ev));
        if (ev.bracket) parts.push(bracket(ev));
        if (ev.swiss || ev.bracket) parts.push(el('h2', {}, 'Elo over its matches'));
      }
      parts.push(rows.length ? table : el('p', { class: 'muted' }, 'No rated matches yet.'),
        el('p', { class: 'muted' }, 'Rating: Bradley–Terry fit over every result, with its 95% interval; ',
          'live Elo moves match by match.'));
      if (game && players === '2') {
        const cross = await api('/api/crosstable?' + q);
        parts.push(el('h2', {}, 'Crosstable'), heatMap(rows.map(r => r.bot), cross.crosstable));
      }
      if (ladder) {
        const gates = await api('/api/gates?ladder=' + encodeURIComponent(ladder));
        parts.push(el('section', { id: 'gates' }, el('h2', {}, 'SPRT gates'), Arena.gatesTable(gates.gates)));
      }
      main.replaceChildren(...parts);
    } catch (e) { Arena.fail(main, e); }
  }

  // A Swiss event's own ranking: points (a bye counts half its games'
  // points), then Buchholz (the opponents' points), then seed.
  function swissTable(ev) {
    const num = { class: 'num' };
    return el('section', { id: 'event' },
      el('h2', {}, `Swiss, ${ev.rounds} round${ev.rounds === 1 ? '' : 's'}` + (ev.done ? '' : ' (not finished)')),
      el('table', { class: 'swiss' },
        el('thead', {}, el('tr', {}, ['#', 'Bot', 'Points', 'Buchholz', 'Byes', 'Seed'].map((h, i) =>
          el('th', i === 1 ? {} : num, h)))),
        el('tbody', {}, ev.swiss.map(r => el('tr', { 'data-bot': r.bot },
          el('td', num, r.rank), el('td', {}, botLink(r.bot)), el('td', num, fixed(r.points, 1)),
          el('td', num, fixed(r.buchholz, 1)), el('td', num, r.byes), el('td', num, r.seed))))),
      el('p', { class: 'muted' }, 'Points: 1 a win, ½ a draw; a bye scores half its games. ',
        'Buchholz: the sum of the opponents\' points.'));
  }

  // A knockout's bracket, round by round: each tie's seeds, points over its
  // games (tie-break pairs included) and who went through.
  function bracket(ev) {
    const side = (e, won) => el('span', { class: won ? 'win' : null },
      el('span', { class: 'muted' }, `[${e.seed}] `), botLink(e.bot));
    const rounds = [];
    for (const t of ev.bracket) {
      if (!rounds.length || rounds[rounds.length - 1].round !== t.round) rounds.push({ round: t.round, name: t.name, ties: [] });
      rounds[rounds.length - 1].ties.push(t);
    }
    return el('section', { id: 'event' },
      el('h2', {}, 'Knockout' + (ev.winner ? '' : ' (not finished)')),
      el('div', { class: 'bracket' }, rounds.map(r => el('div', { class: 'round', 'data-round': r.round },
        el('h3', {}, r.name),
        r.ties.map(t => el('div', { class: 'tie', 'data-hi': t.hi.bot, 'data-lo': t.lo ? t.lo.bot : '' },
          t.lo ? [side(t.hi, t.winner === t.hi.bot), el('span', { class: 'num' }, ` ${fixed(t.hi.points, 1)} – ${fixed(t.lo.points, 1)} `),
            side(t.lo, t.winner === t.lo.bot),
            el('span', { class: 'muted' }, t.winner ? (t.hi.points === t.lo.points ? ' level: the higher seed goes through' : '')
              : ` (${t.games} game${t.games === 1 ? '' : 's'} played)`)]
            : [side(t.hi, true), el('span', { class: 'muted' }, ' bye')]))))),
      ev.winner ? el('p', { class: 'winner' }, 'Winner: ', botLink(ev.winner)) : null);
  }

  // Each cell: the row bot's score against the column bot, coloured from red
  // (lost every game) through grey to green (won every game).
  function heatMap(names, cells) {
    const at = new Map(cells.map(c => [c.bot + '\u0000' + c.opponent, c]));
    const colour = f => {
      const t = Math.abs(f - 0.5) * 2, base = [243, 244, 246];
      const end = f >= 0.5 ? [22, 163, 74] : [220, 38, 38];
      return `rgb(${base.map((b, i) => Math.round(b + (end[i] - b) * t)).join(',')})`;
    };
    const table = el('table', { class: 'heat' },
      el('thead', {}, el('tr', {}, el('th', { class: 'name' }, 'Bot'),
        names.map(n => el('th', { class: 'rot' }, n)))),
      el('tbody', {}, names.map(a => el('tr', {}, el('td', { class: 'name' }, botLink(a)),
        names.map(b => {
          if (a === b) return el('td', { class: 'self' }, '');
          const c = at.get(a + '\u0000' + b);
          if (!c) return el('td', { class: 'muted' }, '·');
          const n = c.wins + c.draws + c.losses, f = (c.wins + c.draws / 2) / n;
          const td = el('td', { title: `${a} vs ${b}: ${c.wins}-${c.draws}-${c.losses}` },
            `${c.wins}-${c.draws}-${c.losses}`);
          td.style.background = colour(f);
          if (Math.abs(f - 0.5) > 0.35) td.style.color = '#fff';
          return td;
        })))));
    return el('div', {}, table, el('div', { class: 'legend' }, 'lost all', el('i'), 'won all'));
  }
})();
