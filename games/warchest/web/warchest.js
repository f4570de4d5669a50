/*
 * warchest.js - War Chest's board view for the replay viewer (served at
 * /static/games/warchest.js, loaded for War Chest's matches only): the
 * hex board in SVG (units with their stack height, control markers, the
 * locations), a legend of its two-letter unit codes, and each seat's
 * zones. It draws the JSON that the engine writes (games/warchest/
 * wc_json.c): whatever a seat's view leaves out (another seat's hand, bag,
 * face-down discards) arrives as null and a count, and is drawn as such.
 *
 * Geometry (shared/warchest/board.md): flat-topped hexes at axial (q, r);
 * centre x = 1.5 q, y = sqrt(3) (r + q / 2), in hex radii.
 */
'use strict';
window.ArenaBoards = window.ArenaBoards || {};
ArenaBoards.warchest = (() => {
  const R = 34, SQ3 = Math.sqrt(3);
  const CODES = {
    archer: 'AR', berserker: 'BE', cavalry: 'CA', crossbowman: 'CR', ensign: 'EN', footman: 'FO',
    knight: 'KN', lancer: 'LA', light_cavalry: 'LC', marshall: 'MA', mercenary: 'ME', pikeman: 'PI',
    royal_guard: 'RG', scout: 'SC', swordsman: 'SW', warrior_priest: 'WP', royal: 'RC',
  };
  const SIDE = ['#2563eb', '#dc2626'], SIDE_LIGHT = ['#dbeafe', '#fee2e2'];
  const el = (...a) => Arena.el(...a);
  const pretty = s => s.replace(/_/g, ' ');
  const sideOf = (state, seat) => state.players === 4 ? seat & 1 : seat;

  function centre(h) { return [R * 1.5 * h.q, R * SQ3 * (h.r + h.q / 2)]; }
  function hexPoints(x, y, r) {
    const p = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 3 * i;
      p.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`);
    }
    return p.join(' ');
  }

  // A hex's JSON leaves out what is not there (wc_json.c): the defaults.
  const EMPTY_HEX = { location: false, control: null, unit: null, coins: 0, side: null };

  function drawBoard(box, state) {
    const hexes = state.hexes.map(h => ({ ...EMPTY_HEX, ...h }));
    const xs = hexes.map(h => centre(h)[0]), ys = hexes.map(h => centre(h)[1]);
    const pad = R + 6, minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    const w = Math.max(...xs) + pad - minX, hgt = Math.max(...ys) + pad - minY;
    const svg = el('svg:svg', { viewBox: `${minX} ${minY} ${w} ${hgt}`, role: 'img',
      'aria-label': 'War Chest board', id: 'wc-board' });
    for (const h of hexes) {
      const [x, y] = centre(h);
      const g = el('svg:g', { class: 'hex', 'data-hex': h.hex, 'data-unit': h.unit || '',
        'data-coins': h.coins, 'data-side': h.side === null ? '' : h.side,
        'data-control': h.control === null ? (h.location ? 'neutral' : '') : h.control });
      const fill = h.control !== null ? SIDE_LIGHT[h.control] : h.location ? '#fef9c3' : '#f3f4f6';
      g.append(el('svg:polygon', { points: hexPoints(x, y, R - 1.5), fill, stroke: '#9ca3af', 'stroke-width': 1.2 }));
      g.append(el('svg:text', { x: x - R * 0.55, y: y - R * 0.5, 'font-size': 9, fill: '#6b7280' }, h.hex));
      if (h.location) {
        // the control marker: a ring on a neutral location, filled by its owner's colour
        g.append(el('svg:circle', { cx: x + R * 0.5, cy: y - R * 0.5, r: 6,
          fill: h.control === null ? '#fff' : SIDE[h.control], stroke: h.control === null ? '#a16207' : '#fff',
          'stroke-width': 2, class: 'marker' }));
      }
      if (h.unit) {
        const c = SIDE[h.side === null ? 0 : h.side];
        g.append(el('svg:circle', { cx: x, cy: y + 3, r: R * 0.52, fill: c, stroke: '#fff', 'stroke-width': 2 }),
          el('svg:text', { x, y: y + 7, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 700,
            fill: '#fff' }, CODES[h.unit] || '?'),
          el('svg:title', {}, `${pretty(h.unit)}, ${h.coins} coin${h.coins > 1 ? 's' : ''}, side ${'AB'[h.side]}`));
        // the stack's height: a badge
        g.append(el('svg:circle', { cx: x + R * 0.42, cy: y + R * 0.42, r: 8, fill: '#111827' }),
          el('svg:text', { x: x + R * 0.42, y: y + R * 0.42 + 4, 'text-anchor': 'middle', 'font-size': 11,
            'font-weight': 700, fill: '#fff', class: 'height' }, h.coins));
      }
      svg.append(g);
    }
    // the two-letter codes of this match's units (every seat's, drafted or
    // dealt), spelt out
    const units = [...new Set(state.seats.flatMap(s => s.units).concat(hexes.map(h => h.unit).filter(Boolean)))]
      .filter(u => CODES[u]).sort((a, b) => CODES[a].localeCompare(CODES[b]));
    const legend = el('div', { class: 'unit-legend', id: 'wc-legend' },
      units.map(u => el('span', { 'data-code': CODES[u] }, el('b', {}, CODES[u]), ' ' + pretty(u))));
    box.replaceChildren(svg, legend, el('p', { class: 'status-line' },
      `Round ${state.round}` + (state.phase === 'over' ? ', over' : `, ${state.decision}` +
        (state.to_move !== null ? ` for seat ${state.to_move}` : '')) +
      ` · initiative: seat ${state.initiative}${state.claimed ? ' (claimed)' : ''}` +
      (state.pending ? ` · pending: ${state.pending.decision} (${pretty(state.pending.unit || '')} ${state.pending.hex || ''})` : '') +
      (state.draft_pool.length ? ` · draft pool: ${state.draft_pool.map(pretty).join(', ')}` : '')));
  }

  function coins(zone) {
    const names = Object.keys(zone);
    if (!names.length) return [el('span', { class: 'muted' }, '—')];
    return names.map(c => el('span', { class: 'coin' + (c === 'royal' ? ' royal' : '') }, `${pretty(c)} ×${zone[c]}`));
  }
  function zoneRow(label, zone, count, key) {
    return el('div', { class: 'zone', 'data-zone': key },
      el('span', { class: 'zname' }, label),
      zone === null ? el('span', { class: 'hidden' }, `${count} hidden`) : coins(zone));
  }

  function drawZones(box, state, match) {
    box.replaceChildren(el('div', { class: 'seats' }, state.seats.map(s => {
      const side = sideOf(state, s.seat), bot = match.seats[s.seat] ? match.seats[s.seat].bot : '';
      const dot = el('span', { class: 'dot' });
      dot.style.background = SIDE[side];
      return el('div', { class: 'seatcard', 'data-seat': s.seat },
        el('h3', {}, dot, `Seat ${s.seat}: `, bot, el('span', { class: 'muted' }, ` side ${'AB'[side]}`),
          state.view === s.seat ? el('span', { class: 'status' }, 'this view') : null),
        el('div', { class: 'zone' }, el('span', { class: 'zname' }, 'units'),
          s.units.map(u => el('span', { class: 'coin' }, pretty(u)))),
        zoneRow('hand', s.hand, s.hand_count, 'hand'),
        zoneRow('bag', s.bag, s.bag_count, 'bag'),
        zoneRow('discard', s.discard, 0, 'discard'),
        zoneRow('face down', s.facedown, s.facedown_count, 'facedown'),
        zoneRow('supply', s.supply, 0, 'supply'),
        zoneRow('removed', s.removed, 0, 'removed'));
    })));
  }

  return {
    draw(board, zones, state, match) { drawBoard(board, state); drawZones(zones, state, match); },
  };
})();
