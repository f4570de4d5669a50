// games/goofspiel.js - Goofspiel's decoding (PROTOCOL.md section 12): the
// observation is the plain object sent (seat, round, prize, hand, points,
// history...); an action's `card` is its bid, null for another seat's
// hidden one, and `fields` keeps its map as any game's action does.
import { map, int } from "../decode.js";

export const observation = (m, where) => map(m, where);

export function actionParts(action, m, where) {
  action.card = int(m, "card", where, true);
  action.fields = m;
}
