// observation.js - what a seat may know of the game (PROTOCOL.md section 5),
// decoded and camelCased, with the helpers a heuristic bot asks most. The
// helper names follow the Python SDK's Observation (my_units -> myUnits).
import { need, map, int, str, arr, strings, zone, keepRaw } from "./decode.js";
import { hexDistance } from "./hex.js";

function unitOnBoard(u, where) {
  map(u, where);
  return { hex: str(u, "hex", where), unit: str(u, "unit", where),
    coins: int(u, "coins", where), seat: int(u, "seat", where) };
}

function player(p, where) {
  map(p, where);
  return {
    seat: int(p, "seat", where), side: int(p, "side", where),
    units: strings(p, "units", where),
    supply: zone(p, "supply", where), discard: zone(p, "discard", where),
    removed: zone(p, "removed", where),
    // Hidden zones are counts here, even mine (mine in full: observation.hand...).
    bag: int(p, "bag", where), hand: int(p, "hand", where), facedown: int(p, "facedown", where),
  };
}

function pending(p, where) {
  if (p === null || p === undefined) return null;
  map(p, where);
  return { decision: str(p, "decision", where), seat: int(p, "seat", where),
    unit: str(p, "unit", where, true), hex: str(p, "hex", where, true),
    otherHex: str(p, "other_hex", where, true), coin: str(p, "coin", where, true) };
}

export class Observation {
  constructor(m, where = "observation") {
    map(m, where);
    this.seat = int(m, "seat", where);
    this.seats = int(m, "seats", where);
    this.phase = str(m, "phase", where);
    this.decision = str(m, "decision", where);
    this.toMove = int(m, "to_move", where, true);
    this.turn = int(m, "turn", where);
    this.round = int(m, "round", where);
    this.roundLimit = int(m, "round_limit", where);
    this.initiative = int(m, "initiative", where);
    this.initiativeClaimed = m.initiative_claimed === true;
    this.markers = int(m, "markers", where);
    this.royalGuard = str(m, "royal_guard", where);
    this.board = new Map();           // hex -> {hex, unit, coins, seat}
    arr(m, "board", where).forEach((u, i) => {
      const unit = unitOnBoard(u, `${where}.board[${i}]`);
      this.board.set(unit.hex, unit);
    });
    this.control = new Map();         // every location -> side, or null
    const control = map(m.control, `${where}.control`);
    for (const hex of Object.keys(control)) {
      const side = control[hex];
      need(side === null || Number.isSafeInteger(side), `${where}.control.${hex}`, "a side or nil");
      this.control.set(hex, side);
    }
    this.players = arr(m, "players", where).map((p, i) => player(p, `${where}.players[${i}]`));
    this.hand = zone(m, "hand", where);
    this.bag = zone(m, "bag", where);
    this.facedown = zone(m, "facedown", where);
    this.draftPool = Array.isArray(m.draft_pool) ? strings(m, "draft_pool", where) : [];
    this.pending = pending(m.pending, `${where}.pending`);
    keepRaw(this, m);
  }

  /** A seat's side: 0 (A) or 1 (B). With 4 seats, seats 0 and 2 are side A. */
  sideOf(seat) {
    const p = this.players.find((q) => q.seat === seat);
    return p ? p.side : seat % 2;
  }

  /** My side. */
  get side() {
    return this.sideOf(this.seat);
  }

  /** My entry of `players`, or null. */
  get me() {
    return this.players.find((p) => p.seat === this.seat) ?? null;
  }

  /** The units on the board of one seat, as {hex, unit, coins, seat}. */
  unitsOf(seat) {
    return [...this.board.values()].filter((u) => u.seat === seat);
  }

  myUnits() {
    return this.unitsOf(this.seat);
  }

  /** Units of the other side (a teammate's units are not enemies). */
  enemyUnits() {
    const mine = this.side;
    return [...this.board.values()].filter((u) => this.sideOf(u.seat) !== mine);
  }

  /** The unit on a hex, or null. */
  unitAt(hex) {
    return this.board.get(hex) ?? null;
  }

  /** Locations held by `side`, sorted; null gives the uncontrolled ones. */
  locationsControlledBy(side) {
    return [...this.control].filter(([, s]) => s === side).map(([h]) => h).sort();
  }

  /** Locations `side` (default mine) does not hold yet, sorted. */
  locationsToTake(side = this.side) {
    return [...this.control].filter(([, s]) => s !== side).map(([h]) => h).sort();
  }

  /** Distance from a hex to the closest location `side` does not hold (99 if none). */
  nearestLocationToTake(hex, side = this.side) {
    return Math.min(99, ...this.locationsToTake(side).map((h) => hexDistance(hex, h)));
  }
}
