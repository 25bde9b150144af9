// The engine's move settled with the person's answers under the retreat.

import assert from "node:assert/strict";
import test from "node:test";

import { settleAnswers } from "../answers.js";

// A page that answers `answers` in turn, with the engine's completions in `completions`
// (a half move to the whole move and its answers) and the whole moves listed in `whole`.
function page(answers, completions = {}, whole = []) {
  const asked = [], completed = [];
  return {
    asked,
    completed,
    ask: async (before) => { asked.push(before); return answers.shift() ?? null; },
    isWhole: (move) => whole.includes(move),
    complete: async (half) => { completed.push(half); return completions[half] ?? null; },
  };
}

// The answers the engine lists for a move, as `/api/analyse` and `/api/complete` do.
const answersOf = (...pairs) => pairs.map(([before, expected]) => ({ before, expected }));

test("the person is asked at each pass; the engine goes on where its plan did not", async () => {
  // No answer in the move: nothing asked.
  let p = page([]);
  assert.equal(await settleAnswers("7xp", [], p), "7xp");
  assert.deepEqual(p.asked, []);
  // The answers the engine expected: its move as planned.
  const planned = answersOf(["7p", "r"], ["7prxp", "s"]);
  p = page(["r", "s"]);
  assert.equal(await settleAnswers("7prxps", planned, p), "7prxps");
  assert.deepEqual(p.asked, ["7p", "7prxp"]);
  assert.deepEqual(p.completed, []);
  // Another answer: the engine completes its move from there, and is asked again at
  // the answers past it only.
  const completed = { move: "7psxpr", answers: answersOf(["7p", "s"], ["7psxp", "r"]) };
  p = page(["s", "r"], { "7ps": completed });
  assert.equal(await settleAnswers("7prxps", planned, p), "7psxpr");
  assert.deepEqual(p.asked, ["7p", "7psxp"]);
  assert.deepEqual(p.completed, ["7ps"]);
  // An answer that ends the move: no completion needed.
  p = page(["s"], {}, ["7ps"]);
  assert.equal(await settleAnswers("7prx", answersOf(["7p", "r"]), p), "7ps");
  assert.deepEqual(p.completed, []);
  // The game moved on while the person was asked.
  assert.equal(await settleAnswers("7prx", answersOf(["7p", "r"]), page([])), null);
});
