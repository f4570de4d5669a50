/*
 * matches.js - the match list (/matches): filters by bot, game, tournament,
 * ladder, result and reason, newest first, a page at a time through the API's
 * cursor (`before`), so any page costs what the first does. Data:
 * /api/matches.
 */
'use strict';
(async () => {
  const { api, el, matchesTable } = Arena;
  Arena.header('/matches');
  const main = document.getElementById('main');
  const keys = ['bot', 'game', 'players', 'tournament', 'ladder', 'result', 'reason', 'before'];
  const now = new URLSearchParams(location.search);
  const q = new URLSearchParams();
  for (const k of keys) if (now.get(k)) q.set(k, now.get(k));
  try {
    const [page, games] = await Promise.all([api('/api/matches?' + q), api('/api/games')]);
    const field = (name, input) => el('label', {}, name, input);
    const text = (name, placeholder) => el('input', { name, value: now.get(name) || '', placeholder, size: 14 });
    const choice = (name, options) => el('select', { name }, options.map(([v, l]) =>
      el('option', { value: v, selected: (now.get(name) || '') === v }, l)));
    const gameNames = [...new Set(games.kinds.map(k => k.game))];
    const form = el('form', { class: 'toolbar', method: 'get', action: '/matches' },
      field('Bot', text('bot', 'any bot')),
      field('Game', choice('game', [['', 'any']].concat(gameNames.map(g => [g, g])))),
      field('Tournament', choice('tournament', [['', 'any']].concat(games.tournaments.map(t => [String(t.id), `#${t.id} ${t.format}`])))),
      games.ladders.length ? field('Ladder', choice('ladder', [['', 'any']].concat(games.ladders.map(l => [l.name, l.name])))) : null,
      field('Result', choice('result', [['', 'any'], ['win', 'bot won'], ['draw', 'draw'], ['loss', 'bot lost']])),
      field('Reason', text('reason', 'markers, timeout…')),
      el('button', { type: 'submit' }, 'Filter'),
      el('a', { href: '/matches' }, 'clear'));
    const next = page.next !== null ? (() => { const n = new URLSearchParams(q); n.set('before', page.next); return '/matches?' + n; })() : null;
    const first = new URLSearchParams(q); first.delete('before');
    main.replaceChildren(el('h1', {}, 'Matches'), form,
      page.matches.length ? matchesTable(page.matches, now.get('bot')) :
        el('p', { class: 'muted' }, page.partial ? 'None in this stretch of matches: look further back.' : 'No match found.'),
      el('div', { class: 'pager' },
        q.get('before') ? el('a', { href: '/matches?' + first }, '← Newest') : null,
        next ? el('a', { href: next, id: 'older' }, page.partial ? 'Search further back →' : 'Older →') : null));
  } catch (e) { Arena.fail(main, e); }
})();
