/*
 * match.js - a match and its replay viewer (/match?id=ID), shared by every
 * game: the game's own board module (ArenaBoards[game], from
 * /static/games/GAME.js, which the build takes from games/GAME/web/GAME.js
 * and this page loads for that game's matches only) draws one state; this
 * page steps through them.
 *
 * Keys: → / l next, ← / h back, Home / End first and last, Space play or
 * pause, 0-9 a seat's view, f the full view. Clicking a decision jumps to
 * it; so does the slider. Step k shows the state after k decisions.
 *
 * The states come from the server, which re-simulated the stored record
 * with the game's engine; a seat's view (`view=N`) is computed there from
 * the game's own observation, so the page never holds what that seat could
 * not see. Data: /api/matches/ID?view=full|N.
 *
 * A match in play (`playing`: its decisions so far) is followed: asked for
 * again every two seconds, the newest step kept in view when it was shown,
 * until it ends; then the address names the stored match.
 */
'use strict';
(async () => {
  const { api, el, param, botLink, fixed } = Arena;
  Arena.header('/matches');
  const main = document.getElementById('main');
  const FOLLOW_MS = 2000;
  let id = param('id');
  let match = null, step = 0, timer = null, view = param('view') || 'full', follower = null;
  let board = null;

  async function load() {
    match = await api(`/api/matches/${encodeURIComponent(id)}?view=${encodeURIComponent(view)}`);
  }

  // The board module of the match's game: its script loaded once, here, so
  // the page holds no other game's; a game without one (or a page that
  // holds its scripts already, an exported match) draws it as text.
  async function boardOf(game) {
    if (!ArenaBoards[game] && !Arena.bundled && /^[a-z][a-z0-9_]*$/.test(game))
      await new Promise(done => document.head.append(
        el('script', { src: `/static/games/${game}.js`, onload: done, onerror: done })));
    return ArenaBoards[game] || ArenaBoards.text;
  }

  function seatName(i) { const s = match.seats[i]; return s ? s.bot : `seat ${i}`; }

  function layout() {
    document.title = `Match ${match.id} · Arena`;
    const result = match.playing ? '(in play)' : match.seats.map(s => s.score === 0.5 ? '½' : s.score).join('-');
    const title = el('h1', {}, `Match #${match.id}: `, match.seats.map((s, i) =>
      [i ? el('span', { class: 'vs' }, ' vs ') : null, botLink(s.bot)]), ` ${result}`);
    const facts = el('p', { class: 'status-line' },
      `${match.game}, ${match.players} players · ` +
      (match.playing ? `in play: ${match.decisions ? match.decisions.length : 0} decisions so far, followed as it goes`
        : match.reason) +
      (match.culprit !== null ? ` (seat ${match.culprit})` : '') +
      (match.detail ? ` · ${match.detail}` : '') + ` · seed ${match.seed} · ${match.options}` +
      (match.clock ? ` · clock ${match.clock}` : ''));
    if (match.unavailable) {
      main.replaceChildren(title, facts, el('p', { class: 'error' }, 'No replay: ' + match.unavailable));
      return;
    }
    const views = el('div', { class: 'views', id: 'views' },
      el('button', { 'data-view': 'full', class: view === 'full' ? 'on' : null, onclick: () => switchView('full') }, 'Full view'),
      match.seats.map((s, i) => el('button', { 'data-view': String(i), class: view === String(i) ? 'on' : null,
        onclick: () => switchView(String(i)) }, `What ${s.bot || 'seat ' + i} knew`)));
    const controls = el('div', { class: 'controls' },
      el('button', { id: 'first', title: 'first (Home)', onclick: () => go(0) }, '«'),
      el('button', { id: 'prev', title: 'back (←)', onclick: () => go(step - 1) }, '‹ Back'),
      el('button', { id: 'play', title: 'play / pause (Space)', onclick: toggle }, 'Play'),
      el('button', { id: 'next', title: 'next (→)', onclick: () => go(step + 1) }, 'Next ›'),
      el('button', { id: 'last', title: 'last (End)', onclick: () => go(match.states.length - 1) }, '»'),
      el('input', { id: 'slider', type: 'range', min: 0, max: match.states.length - 1, value: step,
        oninput: e => go(Number(e.target.value)) }),
      el('span', { class: 'counter', id: 'counter' }));
    const keys = el('p', { class: 'muted keys' }, '← → step · Home End · Space play · f full view · 0-9 a seat\'s view');
    // CPU and wait columns when the record measured them (records before
    // the clock line did not: null).
    const measured = match.decisions.some(d => d.cpu_ms !== null || d.wait_ms !== null);
    // A remote bot's link allowance (the round trip not charged): a column
    // when a seat played from its participant's machine.
    const linked = match.decisions.some(d => d.link_ms !== null && d.link_ms !== undefined);
    const rows = match.decisions.map((d, i) => el('tr', { 'data-step': i + 1, onclick: () => go(i + 1) },
      el('td', { class: 'num muted' }, i + 1),
      el('td', { class: 'seat' + d.seat }, seatName(d.seat)),
      el('td', {}, el('span', { class: 'act' }, d.action), d.substituted ? el('span', { class: 'sub', title: 'chosen by the referee after a strike' }, ' (substituted)') : null,
        // what the seat printed while deciding, beside the decision
        d.log ? el('pre', { class: 'dlog', title: 'printed while deciding' }, d.log.replace(/\n$/, '')) : null),
      el('td', { class: 'num muted' }, fixed(d.ms, 1)),
      measured ? [el('td', { class: 'num muted cpu' }, fixed(d.cpu_ms, 1)),
                  el('td', { class: 'num muted wait' }, fixed(d.wait_ms, 1))] : null,
      linked ? el('td', { class: 'num muted link' }, fixed(d.link_ms, 1)) : null));
    const heads = ['#', 'Seat', 'Decision', 'ms'].concat(measured ? ['CPU', 'Wait'] : [],
      linked ? ['Link'] : []);
    const list = el('div', { class: 'actions', id: 'actions' }, el('table', {},
      el('thead', {}, el('tr', {}, heads.map(h => el('th', {
        title: { ms: 'milliseconds the bot took (wall)', CPU: 'milliseconds of CPU its processes used',
                 Wait: 'milliseconds its threads waited for a CPU',
                 Link: 'a remote bot\'s network round trip, in ms: not charged' }[h] || null }, h)))),
      el('tbody', {}, rows)));
    const logs = match.logs.map(l => el('div', {}, el('h2', {}, `Log of ${seatName(l.seat)} (seat ${l.seat})`),
      l.text ? el('pre', { class: 'log' }, l.text) : el('p', { class: 'muted' }, 'Nothing printed.')));
    main.replaceChildren(title, facts,
      el('div', { class: 'replay' },
        el('div', {}, el('div', { class: 'board-wrap', id: 'board' }), el('div', { id: 'zones' })),
        el('div', {}, views, controls, keys, el('p', { class: 'status-line', id: 'now' }),
          el('pre', { class: 'printed', id: 'now-log', hidden: true }), list, logs)));
    draw();
  }

  // A decision as the view knew it at this step: a hidden action (another
  // seat's bid) shows whole from the step the game revealed it.
  function shown(d) { return d.revealed && step >= d.revealed.step ? d.revealed.action : d.action; }

  function draw() {
    const state = match.states[step];
    board.draw(document.getElementById('board'), document.getElementById('zones'), state, match);
    document.getElementById('counter').textContent = `${step} / ${match.states.length - 1}`;
    document.getElementById('slider').value = step;
    const d = match.decisions[step - 1], n = match.decisions[step];
    document.getElementById('now').textContent = (step ? `after #${step}: ${seatName(d.seat)} ${shown(d)}` : 'start') +
      (n ? ` · next: ${seatName(n.seat)} (${n.decision})` : ' · end of match');
    match.decisions.forEach((x, i) => {
      if (x.revealed) document.querySelector(`#actions tr[data-step="${i + 1}"] .act`).textContent = shown(x);
    });
    const printed = document.getElementById('now-log');
    printed.hidden = !(d && d.log);
    printed.textContent = d && d.log ? d.log : '';
    for (const tr of document.querySelectorAll('#actions tr.current')) tr.classList.remove('current');
    const cur = document.querySelector(`#actions tr[data-step="${step}"]`);
    if (cur) { cur.classList.add('current'); cur.scrollIntoView({ block: 'nearest' }); }
  }

  function go(k) {
    step = Math.max(0, Math.min(match.states.length - 1, k));
    if (step === match.states.length - 1) pause();
    draw();
  }
  function pause() { clearInterval(timer); timer = null; const b = document.getElementById('play'); if (b) b.textContent = 'Play'; }
  function toggle() {
    if (timer) return pause();
    if (step === match.states.length - 1) step = 0;
    timer = setInterval(() => go(step + 1), 450);
    document.getElementById('play').textContent = 'Pause';
  }
  async function switchView(v) {
    if (v === view) return;
    pause();
    view = v;
    const u = new URL(location); u.searchParams.set('view', v); history.replaceState(null, '', u);
    await load();
    layout();
  }

  // A match in play: asked for again until it ends, the newest step kept in
  // view if it was the one shown; a failed request is tried again.
  function follow() {
    if (follower || !match.playing) return;
    follower = setInterval(async () => {
      const atEnd = !match.states || step >= match.states.length - 1;
      try { await load(); } catch { return; }
      if (!match.playing) {
        clearInterval(follower);
        follower = null;
        id = String(match.id);            // the stored match's own id from now on
        const u = new URL(location); u.searchParams.set('id', id); history.replaceState(null, '', u);
      }
      if (match.states) step = atEnd ? match.states.length - 1 : Math.min(step, match.states.length - 1);
      layout();
      if (timer && document.getElementById('play')) document.getElementById('play').textContent = 'Pause';
    }, FOLLOW_MS);
  }

  document.addEventListener('keydown', e => {
    if (!match || match.unavailable || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    const k = e.key;
    if (k === 'ArrowRight' || k === 'l') go(step + 1);
    else if (k === 'ArrowLeft' || k === 'h') go(step - 1);
    else if (k === 'Home') go(0);
    else if (k === 'End') go(match.states.length - 1);
    else if (k === ' ') toggle();
    else if (k === 'f') switchView('full');
    else if (/^[0-9]$/.test(k) && Number(k) < match.players) switchView(k);
    else return;
    e.preventDefault();
  });

  try {
    if (!id) throw new Error('no match named in the address (/match?id=ID)');
    await load();
    board = await boardOf(match.game);
    const s = Number(param('step'));
    if (match.states && (s > 0 || match.playing))
      step = s > 0 ? Math.min(s, match.states.length - 1) : match.states.length - 1;
    layout();
    follow();
  } catch (e) { Arena.fail(main, e); }
})();

// A game without a board module of its own: its text picture.
window.ArenaBoards = window.ArenaBoards || {};
ArenaBoards.text = {
  draw(board, zones, state) {
    board.replaceChildren(Arena.el('pre', { class: 'picture' },
      typeof state === 'string' ? state : state === null ? 'hidden in this view' : JSON.stringify(state, null, 1)));
    zones.replaceChildren();
  },
};
