// hex.js - the War Chest board's geometry by hex name ("f4"), for bots that
// reason about distances and neighbours. Naming per sdk/BOARD.md:
// axial (q, r) with f4 = (0, 0), file letter a..k = q + 6, rank 1..7 = r + 4,
// cube s = -q - r. Names and behaviour match the Python SDK's hexes.py
// (hex_to_axial -> hexToAxial), so a bot ports between them line for line.

const FILES = "abcdefghijk";
// The six axial directions, in the order BOARD.md lists them.
const STEPS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];

/** The control points, as BOARD.md's table gives them. */
export const LOCATIONS_2P = Object.freeze(["c6", "d4", "d7", "e2", "e5", "g3", "g6", "h1",
  "h4", "i2"]);
export const LOCATIONS_4P = Object.freeze([...LOCATIONS_2P, "a7", "b5", "j3", "k1"]);

/** "f4" -> [0, 0]. Throws a RangeError for a name off the 11 x 7 grid. */
export function hexToAxial(name) {
  const q = typeof name === "string" && name.length === 2 ? FILES.indexOf(name[0]) : -1;
  const rank = q >= 0 ? "1234567".indexOf(name[1]) : -1;
  if (rank < 0) throw new RangeError(`not a hex name: ${JSON.stringify(name)}`);
  return [q - 5, rank - 3];
}

/** [0, 0] -> "f4". Throws a RangeError off the grid. */
export function axialToHex(q, r) {
  if (!(Number.isInteger(q) && Number.isInteger(r) && Math.abs(q) <= 5 && Math.abs(r) <= 3))
    throw new RangeError(`no hex at (${q}, ${r})`);
  return FILES[q + 5] + String(r + 4);
}

// The areas of BOARD.md: a radius-3 hexagon, widened to |q| <= 5 for 4 players.
function inArea(q, r, players) {
  return Math.abs(q) <= (players === 4 ? 5 : 3) && Math.abs(r) <= 3 && Math.abs(q + r) <= 3;
}

/** Whether a hex is in the play area for `players` (2 by default, or 4). */
export function onBoard(name, players = 2) {
  let qr;
  try {
    qr = hexToAxial(name);
  } catch {
    return false;
  }
  return inArea(qr[0], qr[1], players);
}

/** Every hex of the play area: 37 with 2 players, 47 with 4. */
export function boardHexes(players = 2) {
  const out = [];
  for (const f of FILES) for (let k = 1; k <= 7; k++) if (onBoard(f + k, players)) out.push(f + k);
  return out;
}

/** Steps between two hexes: hexDistance("d4", "f4") === 2. */
export function hexDistance(a, b) {
  const [q1, r1] = hexToAxial(a), [q2, r2] = hexToAxial(b);
  const dq = q1 - q2, dr = r1 - r2;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

/** The hexes next to `name` that are in the play area, in a fixed order. */
export function neighbours(name, players = 2) {
  const [q, r] = hexToAxial(name);
  return STEPS.filter(([dq, dr]) => inArea(q + dq, r + dr, players))
    .map(([dq, dr]) => axialToHex(q + dq, r + dr));
}

/** Whether two different hexes lie on one straight line (share a cube coordinate). */
export function inLine(a, b) {
  const [q1, r1] = hexToAxial(a), [q2, r2] = hexToAxial(b);
  if (q1 === q2 && r1 === r2) return false;
  return q1 === q2 || r1 === r2 || q1 + r1 === q2 + r2;
}

/** The hex between two hexes two apart in a straight line (an archer's reach), else null. */
export function between(a, b) {
  if (hexDistance(a, b) !== 2 || !inLine(a, b)) return null;
  const [q1, r1] = hexToAxial(a), [q2, r2] = hexToAxial(b);
  return axialToHex((q1 + q2) / 2, (r1 + r2) / 2);
}
