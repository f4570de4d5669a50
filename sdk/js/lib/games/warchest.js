// games/warchest.js - War Chest's decoding (PROTOCOL.md sections 5 and 6):
// the observation as an Observation (../observation.js), an action's parts
// kind, coin, unit, at, from, to, target.
import { str } from "../decode.js";
import { Observation } from "../observation.js";

export const observation = (m, where) => new Observation(m, where);

export function actionParts(action, m, where) {
  action.kind = str(m, "kind", where);
  // coin is "?" in another seat's face-down play; parts that do not apply are null.
  for (const k of ["coin", "unit", "at", "from", "to", "target"]) action[k] = str(m, k, where, true);
}
