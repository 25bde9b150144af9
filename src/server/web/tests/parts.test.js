// Unit tests of the page's clock, seed drawing and stream reading.
import assert from "node:assert/strict";
import { test } from "node:test";

import { handleLine, takeLines } from "../api.js";
import { Clocks } from "../clock.js";
import { SeedDrawings } from "../seeds.js";

test("the mover's clock runs, gains its increment and lets its flag fall", () => {
  let now = 0;
  const clocks = new Clocks({ base: 10, inc: 2 }, () => now);
  assert.ok(clocks.on);
  clocks.start("S");
  now = 4000;
  assert.equal(clocks.leftOf("S"), 6);
  assert.equal(clocks.leftOf("N"), 10);
  assert.ok(clocks.charge("S"));
  assert.equal(clocks.leftOf("S"), 8);
  clocks.start("N");
  now = 15000;
  assert.equal(clocks.expired(), "N");
  assert.equal(clocks.charge("N"), false);
  assert.equal(clocks.fallen, "N");
  clocks.start("S");
  assert.equal(clocks.running, null, "no clock runs once a flag fell");
  const none = new Clocks(null);
  assert.ok(!none.on);
  assert.ok(none.charge("S"), "a time per move has no flag to fall");
});

test("an answer inside the other side's move runs the answerer's clock, no increment", () => {
  let now = 0;
  const clocks = new Clocks({ base: 10, inc: 2 }, () => now);
  clocks.start("N");
  now = 3000;
  clocks.startAnswer("S");
  assert.equal(clocks.running, "S");
  now = 5000;
  assert.equal(clocks.leftOf("N"), 7, "the mover's clock stood still");
  assert.equal(clocks.leftOf("S"), 8);
  assert.ok(clocks.endAnswer("S"));
  assert.equal(clocks.leftOf("S"), 8, "no increment for an answer");
  assert.equal(clocks.running, "N");
  now = 6000;
  assert.ok(clocks.charge("N"));
  assert.equal(clocks.leftOf("N"), 8, "4 s of its own and the increment");
  clocks.start("S");
  clocks.startAnswer("N");
  now = 20000;
  assert.equal(clocks.endAnswer("N"), false, "a flag falls while answering");
  assert.equal(clocks.fallen, "N");
  assert.equal(clocks.running, null);
  const none = new Clocks(null);
  none.startAnswer("S");
  assert.ok(none.endAnswer("S"));
});

test("seeds are drawn as the server draws them, a count beyond", () => {
  const drawings = new SeedDrawings({ drawn: ["<a/>", "<b/>"], many: "<c>{n}</c>" });
  assert.equal(drawings.markup(0), "<a/>");
  assert.equal(drawings.markup(1), "<b/>");
  assert.equal(drawings.markup(40), "<c>40</c>");
});

test("a stream's whole lines are read and sorted", () => {
  const { values, rest } = takeLines('{"type":"progress","depth":1}\n{"type":"result","best_move":"7"}\n{"ty');
  assert.equal(values.length, 2);
  assert.equal(rest, '{"ty');
  const seen = [];
  assert.equal(handleLine(values[0], (p) => seen.push(p.depth)), undefined);
  assert.deepEqual(seen, [1]);
  assert.equal(handleLine(values[1], () => {}).best_move, "7");
  assert.throws(() => handleLine({ type: "error", error: "no slot" }, () => {}), /no slot/);
});
