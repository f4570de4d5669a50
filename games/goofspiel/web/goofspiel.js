/*
 * goofspiel.js - Goofspiel's table for the replay viewer (served at
 * /static/games/goofspiel.js, loaded for Goofspiel's matches only): the prize
 * turned up and those still face down, each seat's points, bid and hand as
 * cards, then the rounds played (prize, bids, winner). It draws the JSON
 * the engine writes (games/goofspiel/gs_json.c): in a seat's view another
 * seat's hand is null with a count, and a bid made but not shown is
 * `has_bid` without its card.
 */
'use strict';
window.ArenaBoards = window.ArenaBoards || {};
ArenaBoards.goofspiel = (() => {
  const el = (...a) => Arena.el(...a);
  const SIDE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea'];
  const card = (v, cls) => el('span', { class: 'gs-card' + (cls ? ' ' + cls : '') }, v === null ? '?' : String(v));
  const seatName = (match, p) => match.seats[p] ? match.seats[p].bot : `seat ${p}`;

  function drawTable(box, state, match) {
    const prize = state.prize === null ? el('span', { class: 'muted' }, 'no prize: the game is over')
      : card(state.prize, 'prize');
    const seats = state.seats.map((s, p) => {
      const dot = el('span', { class: 'dot' });
      dot.style.background = SIDE[p % SIDE.length];
      const bid = s.bid !== null ? card(s.bid, 'bid') : s.has_bid ? card(null, 'bid back') : el('span', { class: 'muted' }, '—');
      return el('div', { class: 'seatcard' + (state.to_move === p ? ' to-move' : ''), 'data-seat': p },
        el('h3', {}, dot, `Seat ${p}: `, seatName(match, p),
          el('span', { class: 'muted', 'data-points': s.points }, ` ${s.points} points`),
          state.to_move === p ? el('span', { class: 'status' }, 'to bid') : null),
        el('div', { class: 'zone', 'data-zone': 'bid' }, el('span', { class: 'zname' }, 'bid'), bid),
        el('div', { class: 'zone', 'data-zone': 'hand' }, el('span', { class: 'zname' }, 'hand'),
          s.hand === null ? el('span', { class: 'hidden' }, `${s.hand_count} hidden`)
            : s.hand.length ? s.hand.map(v => card(v)) : el('span', { class: 'muted' }, '—')));
    });
    box.replaceChildren(el('div', { class: 'gs-table', id: 'gs-table' },
      el('div', { class: 'gs-prize' },
        el('div', {}, el('div', { class: 'label' }, `Round ${state.round} of ${state.rounds}`), prize),
        el('div', { 'data-zone': 'prizes-left' }, el('div', { class: 'label' },
          match.view < 0 ? 'Prizes to come, in order' : 'Prizes to come (order hidden)'),
          state.prizes_left.length ? state.prizes_left.map(v => card(v, 'small')) : el('span', { class: 'muted' }, '—'))),
      el('div', { class: 'seats' }, seats)));
  }

  function drawHistory(box, state, match) {
    if (!state.history.length) { box.replaceChildren(); return; }
    const heads = ['Round', 'Prize'].concat(state.seats.map((_, p) => seatName(match, p)), ['Taken by']);
    box.replaceChildren(el('table', { class: 'gs-history' },
      el('thead', {}, el('tr', {}, heads.map(h => el('th', {}, h)))),
      el('tbody', {}, state.history.map((h, r) => el('tr', {},
        el('td', { class: 'num muted' }, r + 1),
        el('td', { class: 'num' }, h.prize),
        h.bids.map((b, p) => el('td', { class: 'num' + (h.winner === p ? ' won' : '') }, b === null ? '?' : b)),
        el('td', {}, h.winner === null ? el('span', { class: 'muted' }, 'tie') : seatName(match, h.winner)))))));
  }

  return {
    draw(board, zones, state, match) {
      drawTable(board, state, match);
      drawHistory(zones, state, match);
    },
  };
})();
