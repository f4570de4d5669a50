// hex.test.js - the board geometry of sdk/BOARD.md by hex name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hexToAxial, axialToHex, hexDistance, neighbours, onBoard, boardHexes, inLine, between,
  LOCATIONS_2P, LOCATIONS_4P } from "../index.js";

test("names and axial coordinates agree with BOARD.md's table", () => {
  assert.deepEqual(hexToAxial("f4"), [0, 0]);
  assert.deepEqual(hexToAxial("e2"), [-1, -2]);
  assert.deepEqual(hexToAxial("h1"), [2, -3]);
  assert.deepEqual(hexToAxial("c6"), [-3, 2]);
  assert.deepEqual(hexToAxial("a7"), [-5, 3]);
  assert.deepEqual(hexToAxial("k1"), [5, -3]);
  assert.equal(axialToHex(0, 0), "f4");
  assert.equal(axialToHex(1, 2), "g6");
  for (const bad of ["", "f", "f0", "f8", "l4", "F4", "f44", null, 7])
    assert.throws(() => hexToAxial(bad), RangeError, String(bad));
  assert.throws(() => axialToHex(6, 0), RangeError);
  assert.throws(() => axialToHex(0.5, 0), RangeError);
});

test("the play areas have 37 and 47 hexes", () => {
  assert.equal(boardHexes().length, 37);
  assert.equal(boardHexes(4).length, 47);
  assert.ok(!onBoard("a1", 4) && !onBoard("k7", 4) && !onBoard("zz") && !onBoard(null));
  for (const h of ["a6", "a7", "b5", "b6", "b7", "j1", "j2", "j3", "k1", "k2"])
    assert.ok(onBoard(h, 4) && !onBoard(h, 2), h);
  for (const h of LOCATIONS_2P) assert.ok(onBoard(h, 2), h);
  for (const h of LOCATIONS_4P) assert.ok(onBoard(h, 4), h);
  assert.equal(new Set(LOCATIONS_4P).size, 14);
});

test("hexDistance", () => {
  assert.equal(hexDistance("d4", "f4"), 2);
  assert.equal(hexDistance("f4", "f4"), 0);
  assert.equal(hexDistance("f1", "f7"), 6);
  assert.equal(hexDistance("c4", "i4"), 6);
  assert.equal(hexDistance("e2", "h1"), 3);
  assert.equal(hexDistance("a7", "k1"), 10);
  assert.equal(hexDistance("d4", "f4"), hexDistance("f4", "d4"));
  assert.throws(() => hexDistance("z9", "f4"), RangeError);
});

test("neighbours, clipped to the play area", () => {
  assert.deepEqual(neighbours("f4").sort(), ["e4", "e5", "f3", "f5", "g3", "g4"]);
  assert.deepEqual(neighbours("f1").sort(), ["e2", "f2", "g1"]);
  assert.deepEqual(neighbours("c4").sort(), ["c5", "d3", "d4"]);
  assert.equal(neighbours("c5", 4).length, 6);            // the wings border c5
  assert.deepEqual(neighbours("b6", 2).sort(), ["c5", "c6"]);  // a wing hex, seen from 2p
  for (const h of neighbours("f4")) assert.equal(hexDistance("f4", h), 1);
});

test("straight lines and the hex between", () => {
  assert.ok(inLine("f2", "f6"));
  assert.ok(inLine("d4", "h4"));
  assert.ok(inLine("e5", "g3"));
  assert.ok(!inLine("f4", "g5"));
  assert.ok(!inLine("f4", "f4"));
  assert.equal(between("d4", "f4"), "e4");
  assert.equal(between("f2", "f4"), "f3");
  assert.equal(between("f4", "h2"), "g3");
  assert.equal(between("f4", "g5"), null);
  assert.equal(between("f4", "f7"), null);
});
