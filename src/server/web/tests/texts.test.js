// Unit tests of the page's pure parts: `node --test src/server/web/tests/` (run by .ci/run).
import assert from "node:assert/strict";
import { test } from "node:test";

import { readFileSync } from "node:fs";

import {
  DEFAULT_SPEED, NOT_EVALUATED, barChances, barText, chancesWords, captionHold, sownClockwise, choicePrompt, choicesAfter, clockText, counted, delayPerSeed, endChances, expected,
  firstVisitLine, levelLabel, levelName, reviewNote, reviewSummary, sentence, sideName, southChances, timeControl, whoText,
} from "../texts.js";

test("the engine's words end as one sentence", () => {
  assert.equal(sentence("South resigns: North wins"), "South resigns: North wins.");
  assert.equal(sentence("a draw by agreement."), "a draw by agreement.");
});

test("sides and chances are turned to South's view", () => {
  assert.equal(sideName("S"), "South");
  assert.equal(sideName("N"), "North");
  const mover = { win: 700, draw: 200, loss: 100 };
  assert.deepEqual(southChances(mover, "S"), mover);
  assert.deepEqual(southChances(mover, "N"), { win: 100, draw: 200, loss: 700 });
  assert.equal(expected({ win: 700, draw: 200, loss: 100 }), 0.8);
  assert.equal(barText({ win: 700, draw: 200, loss: 100 }, 3, 3),
    "South wins 70% \u00b7 draw 20% \u00b7 North wins 10%");
  assert.match(barText({ win: 0, draw: 1000, loss: 0 }, 2, 5), /\(at ply 2\)$/);
  // Rounded, they still sum to 100 (61% and 40% once made 101%).
  assert.equal(barText({ win: 605, draw: 0, loss: 395 }, 1, 1),
    "South wins 61% \u00b7 draw 0% \u00b7 North wins 39%");
  assert.equal(barText({ win: 5, draw: 990, loss: 5 }, 1, 1),
    "South wins 1% \u00b7 draw 98% \u00b7 North wins 1%");
});

test("chances apart from the seeds carry their reason to the bar", () => {
  const why = "North's 2 seeds can never be captured: South cannot win";
  const chances = barChances({ win: 0, draw: 1000, loss: 0 }, "N", why);
  assert.deepEqual(chances, { win: 0, draw: 1000, loss: 0, why });
  assert.equal(barText(chances, 4, 4), `South wins 0% \u00b7 draw 100% \u00b7 North wins 0%: ${why}`);
  assert.equal(barChances({ win: 700, draw: 200, loss: 100 }, "N", undefined).why, null);
});

test("chances beside the board are words, not W/D/L", () => {
  assert.equal(chancesWords({ win: 740, draw: 0, loss: 260 }), "win 74%, draw 0%, loss 26%");
  assert.equal(chancesWords({ win: 605, draw: 0, loss: 395 }), "win 61%, draw 0%, loss 39%");
});

test("a clock shows the tenths left, cut, never 60 seconds", () => {
  assert.equal(clockText(0), "0:00.0");
  assert.equal(clockText(59.99), "0:59.9");
  assert.equal(clockText(60), "1:00.0");
  assert.equal(clockText(125.46), "2:05.4");
  assert.equal(clockText(-3), "0:00.0");
});

test("words are counted and levels labelled", () => {
  assert.equal(counted(1, "lap"), "1 lap");
  assert.equal(counted(3, "lap"), "3 laps");
  assert.equal(counted(2, "inaccuracy", "inaccuracies"), "2 inaccuracies");
  const names = ["beginner", "novice", "casual", "improver", "club player", "strong", "expert", "full strength"];
  const levels = { least: 1, most: 8, default: 4, names };
  assert.equal(levelLabel(1, levels), "1 \u00b7 beginner");
  assert.equal(levelLabel(8, levels), "8 \u00b7 full strength");
  assert.equal(delayPerSeed(0), 400);
  assert.ok(delayPerSeed(10) < delayPerSeed(5));
});

test("a review is summed up and its notes name their ply once", () => {
  const classes = { inaccuracy: 1, mistake: 0, blunder: 2 };
  const review = { accuracy: { S: 91.24, N: null }, classes: { S: classes, N: classes } };
  assert.equal(reviewSummary(review),
    "Accuracy: South 91.2 (1 inaccuracy, 0 mistakes, 2 blunders) \u00b7 North - (1 inaccuracy, 0 mistakes, 2 blunders)");
  const note = { note: "ply 14, North 4: blunder, lost 35% win chance (3.00 seeds); better 7" };
  assert.equal(reviewNote(note), "ply 14, North 4: blunder, lost 35% win chance (3.00 seeds); better 7 (show)");
});

test("time controls and take/pass choices are read", () => {
  assert.deepEqual(timeControl("tc:300+2"), { base: 300, inc: 2 });
  assert.equal(timeControl("ms:1000"), null);
  const moves = [{ move: "3xp" }, { move: "3xx" }, { move: "3p" }];
  const first = choicesAfter("3", moves);
  assert.equal(first.open.length, 3);
  assert.ok(first.take && first.pass);
  const taken = choicesAfter("3x", moves);
  assert.equal(taken.open.length, 2);
  assert.ok(taken.take && taken.pass);
  const passed = choicesAfter("3p", moves);
  assert.deepEqual(passed.open, [{ move: "3p" }]);
  assert.ok(!passed.take && !passed.pass);
  // A lap's direction (Kubuguza's clockwise laps).
  const turns = [{ move: "1a" }, { move: "1ca" }, { move: "1cc" }];
  const start = choicesAfter("1", turns);
  assert.ok(start.anticlockwise && start.clockwise && !start.take);
  const clockwise = choicesAfter("1c", turns);
  assert.equal(clockwise.open.length, 2);
  assert.ok(clockwise.anticlockwise && clockwise.clockwise);
  assert.match(choicePrompt(1, 1, clockwise, "S"), /^Pit 1, choice 1 .* clockwise to capture\?$/);
  assert.match(choicePrompt(3, 2, taken, "S"), /^Pit 3, choice 2 .* pass and relay\?$/);
  // The retreat: the opponent answers a pass, and is the one asked.
  const answers = [{ move: "3x" }, { move: "3pr" }, { move: "3ps" }];
  const answer = choicesAfter("3p", answers);
  assert.ok(answer.retreat && answer.stay && !answer.take && !answer.pass);
  assert.match(choicePrompt(3, 2, answer, "S"), /^North, answer: South passed .* or stay\?$/);
  assert.match(choicePrompt(3, 2, answer, "N"), /^South, answer: North passed/);
  // Ikibuguzo's leave (`clockwise_leave`): sow a clockwise capture on, or leave it.
  const leaving = [{ move: "15a" }, { move: "15co" }, { move: "15cl" }];
  const left = choicesAfter("15c", leaving);
  assert.ok(left.sowOn && left.leave && !left.anticlockwise && !left.take);
  assert.match(choicePrompt(15, 2, left, "S"), /^Pit 15, choice 2 .* sow the other clockwise pit\?$/);
});

test("the bar says what it shows from the first moment to the end", () => {
  assert.match(NOT_EVALUATED, /not evaluated yet/);
  assert.deepEqual(endChances("S"), { win: 1000, draw: 0, loss: 0 });
  assert.deepEqual(endChances("N"), { win: 0, draw: 0, loss: 1000 });
  assert.deepEqual(endChances("draw"), { win: 0, draw: 1000, loss: 0 });
});

test("a newcomer is told which side and rows are theirs", () => {
  assert.equal(firstVisitLine("S", false),
    "You are South: tap a pit in your two rows (the lower two) to sow its seeds.");
  assert.match(firstVisitLine("N", false), /North: .*the upper two/);
  assert.match(firstVisitLine("N", true), /the lower two/);
});

test("the game, your side and the level are named beside the board", () => {
  assert.equal(whoText("Igisoro", "N", "level 3, casual"), "Igisoro \u00b7 you are North \u00b7 engine: level 3, casual");
  assert.equal(whoText("Kubuguza", "both", "8"), "Kubuguza \u00b7 you play both sides");
});

test("the line under the board names the level short, for a phone's line", () => {
  const levels = { least: 1, most: 8, default: 3, names: ["beginner", "novice", "casual", "improver", "club", "strong", "expert", "full strength"] };
  assert.equal(levelName(4, levels), "level 4, improver");
  assert.ok(whoText("Igisoro with the retreat", "S", levelName(8, levels)).length <= 80);
});

test("the animation's pace: captions held a second by default, clockwise laps told", () => {
  assert.equal(captionHold(DEFAULT_SPEED), 1000);
  assert.ok(captionHold(100) < 100 && captionHold(1) > 4000);
  // The page's speed control starts at the default.
  const page = readFileSync(new URL("../index.html", import.meta.url), "utf8");
  assert.match(page, new RegExp(`id="speed"[^>]*value="${DEFAULT_SPEED}"`));
  // On a side of 16 pits: from pit 16 anticlockwise is pit 1; from 1 clockwise is 16.
  assert.equal(sownClockwise(16, 1, 16), false);
  assert.equal(sownClockwise(3, 4, 16), false);
  assert.equal(sownClockwise(1, 16, 16), true);
  assert.equal(sownClockwise(9, 8, 16), true);
});
