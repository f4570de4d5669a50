/*
 * app.js - what every page shares: the JSON API, a DOM builder that only
 * ever sets text (untrusted names and logs are never parsed as HTML), the
 * header, and number and time formats.
 */
'use strict';

const Arena = (() => {
  async function api(path) {
    const res = await fetch(path, { headers: { Accept: 'application/json' } });
    let body = null;
    try { body = await res.json(); } catch (e) { /* not JSON */ }
    if (!res.ok) throw new Error((body && body.error) || `${res.status} ${res.statusText}`);
    return body;
  }

  // el('td', {class: 'num'}, 'text', child...): strings become text nodes.
  function el(tag, attrs, ...children) {
    const svg = tag.startsWith('svg:');
    const node = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
                     : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }

  function param(name) { return new URLSearchParams(location.search).get(name); }

  function header(active) {
    const links = [['/', 'Leaderboard'], ['/matches', 'Matches'], ['/live', 'Live']];
    const nav = el('nav', {}, links.map(([href, label]) =>
      el('a', { href, class: href === active ? 'active' : null }, label)));
    document.body.prepend(el('header', {}, el('a', { href: '/', class: 'brand' },
      el('span', { class: 'logo' }), 'Arena'), nav));
  }

  function botLink(name) {
    if (name === null || name === undefined) return el('span', { class: 'muted' }, '?');
    return el('a', { href: '/bot?name=' + encodeURIComponent(name), class: 'bot' }, name);
  }
  function matchLink(id) { return el('a', { href: '/match?id=' + id }, '#' + id); }

  function ago(ms) {
    if (!ms) return '—';
    const s = Math.round((Date.now() - ms) / 1000);
    if (s < 0) return new Date(ms).toLocaleString();
    if (s < 90) return s + ' s ago';
    if (s < 5400) return Math.round(s / 60) + ' min ago';
    if (s < 129600) return Math.round(s / 3600) + ' h ago';
    return Math.round(s / 86400) + ' days ago';
  }
  // "HH:MM:SS", local time: when a page's data was read.
  function clock(ms) {
    const d = new Date(ms || Date.now()), p = n => String(n).padStart(2, '0');
    return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }
  // The line under a live page's title: "as of HH:MM:SS · refreshes every N s".
  function asOf(ms, every) {
    return el('p', { class: 'muted as-of', id: 'as-of' }, `as of ${clock(ms)} · refreshes every ${every / 1000} s`);
  }
  // Calls render now and every `ms` after the last one ended, skipped while
  // the tab is hidden or a list is open under the visitor's hand.
  function refreshing(ms, render) {
    const again = async () => {
      const a = document.activeElement;
      if (!document.hidden && !(a && (a.tagName === 'SELECT' || a.tagName === 'INPUT'))) await render();
      setTimeout(again, ms);
    };
    render().then(() => setTimeout(again, ms));
  }
  function fixed(x, d) { return x === null || x === undefined ? '—' : Number(x).toFixed(d); }

  // "1-0", "½-½", "0-1-0-1" from seat scores.
  function score(seats) {
    return seats.map(s => s.score === 0.5 ? '½' : String(s.score)).join('-');
  }

  // A match's result as a short line for a seat (win/draw/loss) or neutral.
  function resultClass(s) { return s === 1 ? 'win' : s === 0.5 ? 'draw' : 'loss'; }

  function fail(where, err) {
    where.replaceChildren(el('p', { class: 'error' }, String(err.message || err)));
  }

  // The match table every page shows: id, when, game, seats, result, reason.
  function matchesTable(matches, forBot) {
    const body = matches.map(m => {
      const me = forBot ? m.seats.find(s => s.bot === forBot) : null;
      return el('tr', {},
        el('td', {}, matchLink(m.id)),
        el('td', { class: 'muted' }, ago(m.finished_ms)),
        el('td', {}, `${m.game} ${m.players}p`),
        el('td', {}, m.seats.map((s, i) => [i ? el('span', { class: 'vs' }, ' vs ') : null,
          botLink(s.bot)])),
        el('td', { class: 'num' + (me ? ' ' + resultClass(me.score) : '') }, score(m.seats)),
        el('td', {}, m.reason, m.culprit !== null ? el('span', { class: 'muted' },
          ` (seat ${m.culprit})`) : null),
        el('td', { class: 'detail' }, m.detail || ''),
        el('td', { class: 'num' }, m.decisions));
    });
    return el('table', { class: 'matches' },
      el('thead', {}, el('tr', {}, ['Match', 'Finished', 'Game', 'Bots', 'Score', 'Reason',
        'Detail', 'Decisions'].map(h => el('th', {}, h)))),
      el('tbody', {}, body));
  }

  // The verdicts of ladders' SPRT gates (/api/gates): the new version, the
  // older one it had to beat, the verdict, LLR against its bounds, games.
  const OUTCOMES = { passed: 'passed (H1)', failed: 'failed (H0)', capped: 'inconclusive (cap)',
    overruled: 'let in by hand' };
  function gatesTable(gates) {
    if (!gates.length) return el('p', { class: 'muted' }, 'No gate has decided yet.');
    return el('table', { class: 'gates' },
      el('thead', {}, el('tr', {}, ['Decided', 'Ladder', 'New version', 'Against', 'Verdict', 'LLR',
        'Bounds', 'Games', 'W-D-L', 'Pairs', 'Test'].map((h, i) => el('th', { class: i >= 5 && i <= 9 ? 'num' : null }, h)))),
      el('tbody', {}, gates.map(g => el('tr', { 'data-gate': g.id },
        el('td', { class: 'muted' }, ago(g.decided_ms)),
        el('td', {}, el('a', { href: '/?ladder=' + encodeURIComponent(g.ladder) }, g.ladder)),
        el('td', {}, botLink(g.bot)),
        el('td', {}, botLink(g.opponent)),
        el('td', { class: 'outcome ' + g.outcome }, OUTCOMES[g.outcome] || g.outcome),
        el('td', { class: 'num' }, fixed(g.llr, 2)),
        el('td', { class: 'num' }, `[${fixed(g.lower, 2)}, ${fixed(g.upper, 2)}]`),
        el('td', { class: 'num' }, g.wins + g.draws + g.losses),
        el('td', { class: 'num' }, `${g.wins}-${g.draws}-${g.losses}`),
        el('td', { class: 'num' }, g.pairs),
        el('td', { class: 'muted' }, `H0 ${g.elo0} H1 ${g.elo1} Elo, α ${g.alpha} β ${g.beta}`)))));
  }

  return { api, el, param, matchesTable, gatesTable, header, botLink, matchLink, ago, fixed, score, resultClass, fail,
    clock, asOf, refreshing };
})();
