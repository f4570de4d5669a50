// choice.test.js - Request.indexOf: what a bot may answer (an Action, an
// index, notation text), and InvalidChoice for anything else.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Request, Action, InvalidChoice } from "../index.js";
import * as fx from "./fixtures.js";

const req = () => new Request(fx.request());

test("an index is used as is", () => {
  const r = req();
  assert.equal(r.indexOf(0), 0);
  assert.equal(r.indexOf(3), 3);
});

test("an Action of the list resolves to its position", () => {
  const r = req();
  r.actions.forEach((a, i) => assert.equal(r.indexOf(a), i));
});

test("an equal Action from elsewhere resolves by its text", () => {
  const r = req();
  const copy = new Action(fx.request().actions[2]);          // index -1
  assert.equal(r.indexOf(copy), 2);
});

test("notation text resolves, with spaces folded", () => {
  const r = req();
  assert.equal(r.indexOf("claim knight"), 1);
  assert.equal(r.indexOf("  recruit   knight berserker "), 2);
});

test("a bad index throws", () => {
  const r = req();
  for (const bad of [-1, 4, 1.5, NaN, Infinity])
    assert.throws(() => r.indexOf(bad), InvalidChoice, String(bad));
});

test("text that is not a legal action throws, listing some legal ones", () => {
  assert.throws(() => req().indexOf("deploy knight f4"), { name: "InvalidChoice",
    message: '"deploy knight f4" is not a legal action now (request 10); ' +
      'e.g. "deploy knight d7", "claim knight", "recruit knight berserker"' });
});

test("an Action that is not legal here throws", () => {
  const other = new Action({ text: "stop", kind: "stop", coin: null, unit: null, at: null,
    from: null, to: null, target: null });
  assert.throws(() => req().indexOf(other), /action "stop" is not offered in request 10/);
});

test("anything else throws, saying what to return", () => {
  for (const bad of [undefined, null, {}, [0], true, 1n])
    assert.throws(() => req().indexOf(bad),
      /a choice must be an Action from request\.actions, an integer index or notation text/);
});

test("find looks an action up by its text", () => {
  const r = req();
  assert.equal(r.find(" pass  pikeman"), r.actions[3]);
  assert.equal(r.find("pass archer"), null);
});
