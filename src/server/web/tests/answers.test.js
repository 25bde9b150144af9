// The engine's move settled with the person's answers under the retreat.

import assert from "node:assert/strict";
import test from "node:test";

import { nextAnswerAt, settleAnswers } from "../answers.js";

test("answer letters are found past the pit number", () => {
  assert.equal(nextAnswerAt("11"), -1);
  assert.equal(nextAnswerAt("11xp"), -1);
  assert.equal(nextAnswerAt("11pr"), 3);
  assert.equal(nextAnswerAt("10xpsxpr"), 4);
  assert.equal(nextAnswerAt("10xpsxpr", 5), 7);
  assert.equal(nextAnswerAt("10xpsxpr", 8), -1);
});

// A page that answers `answers` in turn, with the engine's completions in `completions`
// (a half move to the whole move) and the whole moves listed in `whole`.
function page(answers, completions = {}, whole = []) {
  const asked = [], completed = [];
  return {
    asked,
    completed,
    ask: async (prefix) => { asked.push(prefix); return answers.shift() ?? null; },
    isWhole: (move) => whole.includes(move),
    complete: async (half) => { completed.push(half); return completions[half] ?? null; },
  };
}

test("the person is asked at each pass; the engine goes on where its plan did not", async () => {
  // No answer in the move: nothing asked.
  let p = page([]);
  assert.equal(await settleAnswers("7xp", p), "7xp");
  assert.deepEqual(p.asked, []);
  // The answers the engine expected: its move as planned.
  p = page(["r", "s"]);
  assert.equal(await settleAnswers("7prxps", p), "7prxps");
  assert.deepEqual(p.asked, ["7p", "7prxp"]);
  assert.deepEqual(p.completed, []);
  // Another answer: the engine completes its move from there, and is asked again.
  p = page(["s", "r"], { "7ps": "7psxpr" });
  assert.equal(await settleAnswers("7prxps", p), "7psxpr");
  assert.deepEqual(p.asked, ["7p", "7psxp"]);
  assert.deepEqual(p.completed, ["7ps"]);
  // An answer that ends the move: no completion needed.
  p = page(["s"], {}, ["7ps"]);
  assert.equal(await settleAnswers("7prx", p), "7ps");
  assert.deepEqual(p.completed, []);
  // The game moved on while the person was asked.
  assert.equal(await settleAnswers("7prx", page([])), null);
});
