// games/index.js - which game module decodes a match's requests and
// updates: the one the welcome's `game` names. A module gives the game's
// observation (`observation(m, where)`) and its actions' parts
// (`actionParts(action, m, where)`); the transport (../messages.js) names
// no game. A game without a module here is still played: its observation
// is the plain object sent and each action keeps its map in `fields`.
import { map } from "../decode.js";
import * as warchest from "./warchest.js";
import * as goofspiel from "./goofspiel.js";

const GAMES = new Map([["warchest", warchest], ["goofspiel", goofspiel]]);

// A welcome that names no game (or a message decoded before any welcome):
// protocol 1 began as War Chest's alone.
const DEFAULT_GAME = "warchest";

const anyGame = {
  observation: (m, where) => map(m, where),
  actionParts(action, m) {
    action.fields = m;
  },
};

/** The module that decodes `game`'s messages (a welcome's `game`). */
export function gameModule(game) {
  if (game === undefined || game === null || game === "") return GAMES.get(DEFAULT_GAME);
  return GAMES.get(game) ?? anyGame;
}
