// fixtures.js - the messages of PROTOCOL.md section 9, built key for key as
// the referee sends them (nil is null), shared by the tests. The request's
// action list is the four actions the example shows.

export const welcome = {
  type: "welcome", protocol: 1, game: "warchest",
  options: "players=2 setup=dealt royal_guard=2018 round_limit=100",
  seat: 0, seats: 2, team: 0, time: { move_ms: 1000, bank_ms: 10000 },
};

const act = (text, kind, coin, unit = null, to = null) =>
  ({ text, kind, coin, unit, at: null, from: null, to, target: null });

export function request() {
  return {
    type: "request", id: 10, decision: "turn",
    time: { move_ms: 1000, bank_ms: 9500 },
    observation: {
      seat: 1, seats: 2, phase: "play", decision: "turn", to_move: 1,
      turn: 1, round: 2, round_limit: 100, initiative: 0, initiative_claimed: false,
      markers: 6, royal_guard: "2018",
      board: [{ hex: "e2", unit: "crossbowman", coins: 1, seat: 0 },
        { hex: "g6", unit: "berserker", coins: 1, seat: 1 }],
      control: { c6: null, d4: null, d7: 1, e2: 0, e5: null, g3: null, g6: 1,
        h1: 0, h4: null, i2: null },
      players: [
        { seat: 0, side: 0, units: ["crossbowman", "ensign", "lancer", "swordsman"],
          supply: { crossbowman: 3, ensign: 3, lancer: 1 },
          discard: { lancer: 1, swordsman: 3 }, removed: {},
          bag: 3, hand: 1, facedown: 4 },
        { seat: 1, side: 1, units: ["berserker", "knight", "pikeman", "royal_guard"],
          supply: { berserker: 2, knight: 2, pikeman: 1, royal_guard: 3 },
          discard: { berserker: 1, pikeman: 1 }, removed: {},
          bag: 3, hand: 2, facedown: 3 }],
      hand: { knight: 1, pikeman: 1 },
      bag: { knight: 1, royal_guard: 1, royal: 1 },
      facedown: { berserker: 1, pikeman: 1, royal_guard: 1 },
      draft_pool: [], pending: null,
    },
    actions: [
      act("deploy knight d7", "deploy", "knight", null, "d7"),
      act("claim knight", "claim", "knight"),
      act("recruit knight berserker", "recruit", "knight", "berserker"),
      act("pass pikeman", "pass", "pikeman"),
    ],
  };
}

// The update after the request above: to seat 0 (public view), then to seat 1.
export const updatePublic = {
  type: "update", id: 10, seat: 1, decision: "turn",
  action: act("recruit ? footman", "recruit", "?", "footman"),
};
export const updateOwn = {
  type: "update", id: 10, seat: 1, decision: "turn",
  action: act("recruit archer footman", "recruit", "archer", "footman"),
};

export const endMarkers = {
  type: "end", scores: [1.0, 0.0], reason: "markers", culprit: null,
  detail: "all markers placed",
};
export const error = {
  type: "error", code: "timeout", message: "seat 1: no action within 11002 ms",
};
export const endTimeout = {
  type: "end", scores: [1.0, 0.0], reason: "timeout", culprit: 1,
  detail: "seat 1: no action within 11002 ms",
};
