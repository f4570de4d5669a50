/*
 * live.js - what is happening now (/live): matches per minute, tournaments
 * still running with their progress, the matches their arenas have taken and
 * how many arenas, the arenas at work with their workers, ladders playing,
 * the matches in play (each followed on its replay page), the latest matches. Refreshes itself
 * every two seconds; says as of when. Data: /api/live.
 */
'use strict';
(() => {
  const { api, el, fixed, ago, matchesTable } = Arena;
  Arena.header('/live');
  const main = document.getElementById('main');
  async function refresh() {
    try {
      const live = await api('/api/live');
      const card = (label, value, sub) => el('div', { class: 'card' }, el('div', { class: 'label' }, label),
        el('div', { class: 'value' }, value), sub ? el('div', { class: 'muted' }, sub) : null);
      main.replaceChildren(el('h1', {}, 'Live'), Arena.asOf(live.now_ms, 2000),
        el('div', { class: 'cards' },
          card('Matches / minute', live.per_minute, 'the minute before the latest match'),
          card('10-minute average', fixed(live.per_minute_10, 1)),
          card('Latest match', ago(live.latest_ms))),
        el('h2', {}, 'Running tournaments'),
        live.running.length ? el('table', { id: 'running' }, el('thead', {}, el('tr', {},
          ['Tournament', 'Game', 'Format', 'Progress', 'Taken', 'Queue', 'Arenas', 'Started']
            .map(h => el('th', {}, h)))), el('tbody', {},
          live.running.map(([id, game, format, planned, done, created, taken, arenas]) => {
            const bar = el('span', { class: 'progress' }, el('i'));
            bar.firstChild.style.width = (planned ? 100 * done / planned : 0) + '%';
            return el('tr', {}, el('td', {}, el('a', { href: '/?tournament=' + id }, '#' + id)), el('td', {}, game),
              el('td', {}, format), el('td', {}, bar, ` ${done} / ${planned}`),
              el('td', { class: 'num taken', title: 'handed to workers: playing or next in line' }, taken),
              el('td', { class: 'num queue' }, Math.max(0, planned - done - taken)),
              el('td', { class: 'num arenas' }, arenas), el('td', { class: 'muted' }, ago(created)));
          }))) : el('p', { class: 'muted' }, 'No tournament is running.'),
        el('h2', {}, 'Arenas at work'),
        live.arenas.length ? el('table', { id: 'arenas' }, el('thead', {}, el('tr', {},
          ['Host', 'PID', 'Playing', 'Workers', 'Taken', 'Workers connect to', 'Started', 'Seen']
            .map(h => el('th', {}, h)))), el('tbody', {},
          live.arenas.map(([host, pid, tournament, ladder, workers, taken, listening, started, seen]) =>
            el('tr', { class: live.now_ms - seen > 10000 ? 'silent' : null },
              el('td', {}, host), el('td', { class: 'num' }, pid),
              el('td', {}, tournament !== null ? el('a', { href: '/?tournament=' + tournament }, 'tournament #' + tournament)
                : el('a', { href: '/?ladder=' + encodeURIComponent(ladder) }, 'ladder ' + ladder)),
              el('td', { class: 'num workers' }, workers), el('td', { class: 'num' }, taken),
              el('td', { class: 'muted' }, listening || 'local only'), el('td', { class: 'muted' }, ago(started)),
              el('td', { class: 'muted' }, live.now_ms - seen > 10000
                ? `last seen ${ago(seen)}: killed?` : ago(seen))))))
          : el('p', { class: 'muted' }, 'No arena is at work.'),
        el('h2', {}, 'Ladders playing'),
        live.ladders.length ? el('table', { id: 'ladders' }, el('thead', {}, el('tr', {},
          ['Ladder', 'Game', 'Of the latest 1,000', 'Scheduled', 'Latest'].map(h => el('th', {}, h)))),
          el('tbody', {}, live.ladders.map(([name, game, recent, latest, scheduled]) => el('tr', {},
            el('td', {}, el('a', { href: '/?ladder=' + encodeURIComponent(name) }, name)), el('td', {}, game),
            el('td', { class: 'num' }, el('a', { href: '/matches?ladder=' + encodeURIComponent(name) }, recent)),
            el('td', { class: 'num' }, scheduled), el('td', { class: 'muted' }, ago(latest))))))
          : el('p', { class: 'muted' }, 'No ladder has played lately.'),
        el('h2', {}, 'Matches in play'),
        live.playing.length ? el('table', { id: 'playing' }, el('thead', {}, el('tr', {},
          ['Match', 'Game', 'Seats', 'Of', 'Decisions', 'Started'].map(h => el('th', {}, h)))),
          el('tbody', {}, live.playing.map(p => el('tr', { 'data-id': p.id },
            el('td', {}, el('a', { href: '/match?id=' + p.id }, 'watch')), el('td', {}, p.game),
            el('td', {}, p.seats.map((s, i) => [i ? ' vs ' : null, Arena.botLink(s.bot || '?')])),
            el('td', {}, p.tournament !== null ? el('a', { href: '/?tournament=' + p.tournament }, 'tournament #' + p.tournament)
              : 'ladder'),
            el('td', { class: 'num decisions' }, p.decisions), el('td', { class: 'muted' }, ago(p.started_ms))))))
          : el('p', { class: 'muted' }, 'No match is in play.'),
        el('h2', {}, 'Latest matches'),
        matchesTable(live.recent.matches));
    } catch (e) { Arena.fail(main, e); }
  }
  Arena.refreshing(2000, refresh);
})();
