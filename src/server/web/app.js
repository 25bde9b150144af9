// isolo-ai's page: plays and analyses through the server's JSON API. The board is the
// server's SVG (the same as `show --svg`); while a move is animated this module redraws
// the seeds of its pits with the same layout (`seeds.js`). The engine's texts (scores,
// W/D/L) come with the server's JSON; the page's pure parts (`texts.js`, `seeds.js`,
// `clock.js`, `api.js`, `answers.js`) have unit tests run by Node (`tests/`).

import { api, streamed } from "./api.js";
import { settleAnswers } from "./answers.js";
import { Clocks } from "./clock.js";
import { SeedDrawings } from "./seeds.js";
import {
  MARKED, NOT_EVALUATED, barChances, barText, chancesWords, choicePrompt, choicesAfter, clockText, counted,
  delayPerSeed as speedDelay, captionHold, sownClockwise,
  endChances, expected, firstVisitLine, levelLabel, levelName, otherSide, reviewNote, reviewSummary, sideName,
  sentence, southChances, timeControl, whoText,
} from "./texts.js";

const $ = (id) => document.getElementById(id);

const S = {
  variants: [], variantName: null, rules: null, start: null, levels: null,
  moves: [],      // every move of the game line (redo keeps those after `ply`)
  ply: 0,         // moves played to reach the shown position
  state: null,    // the server's state of the shown position
  flip: false, evals: [], busy: 0, skip: false, autoEngine: true, midMove: false, shownSteps: 0,
  begun: 0,       // counts moves begun taken back: a decision shown late is dropped
  seeds: null,    // the server's drawings of a pit's seeds (SeedDrawings)
  recordsNext: 0, // the offset of the records file's next page of games (null: none left)
  agreed: "",     // the words of a game ended by a resignation or a draw agreed
  agreedResult: null, // and its result ("S", "N" or "draw")
};

function gameSpec(ply = S.ply) {
  const game = { moves: S.moves.slice(0, ply).join(" ") };
  if (S.rules) game.rules = S.rules; else game.variant = S.variantName;
  if (S.start) game.start = S.start;
  return game;
}

function say(text) { $("message").textContent = text || ""; }
function caption(text) { $("caption").textContent = text || ""; }
function busy(delta) { S.busy += delta; document.body.dataset.busy = S.busy > 0 ? "1" : "0"; }
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function humanSide() { return $("side").value; }
function enginesTurn() {
  const st = S.state;
  return st && st.result === null && humanSide() !== "both" && st.to_move !== humanSide();
}

// ---- drawing ----

function pitElement(side, pit) {
  return document.querySelector(`#board g.pit[data-side="${side}"][data-pit="${pit}"]`);
}

function setPit(side, pit, n, lit) {
  const g = pitElement(side, pit);
  if (!g) return;
  g.dataset.seeds = String(n);
  g.querySelector(".seeds").innerHTML = S.seeds.markup(n);
  if (lit !== undefined) g.classList.toggle("lit", lit);
}

// Every pit's seeds as `pits` ({S: [...], N: [...]}, pit 1 first) has them, unlit.
function drawPits(pits) {
  for (const side of ["S", "N"]) pits[side].forEach((n, i) => setPit(side, i + 1, n, false));
}

function unlightAll() {
  document.querySelectorAll("#board g.pit.lit").forEach((g) => g.classList.remove("lit"));
}

// The engine's words for a score and for win/draw/loss chances (the server's).
const scoreText = (score) => (score ? score.text : "");
const wdlText = (wdl) => (wdl ? wdl.text : "");

function drawGraph() {
  const g = $("graph"), n = Math.max(S.moves.length, 1);
  const y = (e) => (116 - e * 112).toFixed(1);
  let marks = `<line x1="0" y1="60" x2="300" y2="60" stroke="#bbb"/>` +
    `<line x1="0" y1="${y(0.75)}" x2="300" y2="${y(0.75)}" stroke="#eee"/>` +
    `<line x1="0" y1="${y(0.25)}" x2="300" y2="${y(0.25)}" stroke="#eee"/>`;
  const points = [];
  S.evals.forEach((c, ply) => {
    if (c === undefined || ply > S.moves.length) return;
    points.push(`${(ply / n * 296 + 2).toFixed(1)},${y(expected(c))}`);
  });
  if (points.length) marks += `<polyline fill="none" stroke="#5c3a1a" stroke-width="1.5" points="${points.join(" ")}"/>`;
  marks += reviewMarks(n, y);
  const x = (S.ply / n * 296 + 2).toFixed(1);
  marks += `<line x1="${x}" y1="0" x2="${x}" y2="120" stroke="#c05000" stroke-dasharray="3 2"/>`;
  g.innerHTML = marks;
  drawEvalBar();
}

// The bar beside the board: South's chances at the latest evaluated position up to the
// one shown.
function drawEvalBar() {
  let ply = Math.min(S.ply, S.evals.length - 1);
  while (ply >= 0 && S.evals[ply] === undefined) ply--;
  const bar = $("evalbar"), text = $("evalbar-text");
  const st = S.state;
  // At the end of the game the chances are certain.
  // (A game ended by a flag or an agreement has the result they gave.)
  const result = st && (st.result ?? (C.fallen ? fallResult : null) ?? S.agreedResult);
  const over = result != null && S.ply === S.moves.length;
  if (ply < 0 && !over) { bar.hidden = true; text.textContent = NOT_EVALUATED; return; }
  const c = over ? endChances(result) : S.evals[ply];
  bar.hidden = false;
  $("evalbar-south").style.width = `${c.win / 10}%`;
  $("evalbar-draw").style.width = `${c.draw / 10}%`;
  text.textContent = over ? `Game over: ${barText(c, S.ply, S.ply)}` : barText(c, ply, S.ply);
}

function drawMoveList() {
  const list = $("movelist");
  list.innerHTML = "";
  const review = currentReview();
  S.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = String(i + 1);
    // Who made it (shown before the move, not part of it): turns alternate, so the
    // side to move now made the moves an even number of plies back.
    if (S.state) li.dataset.side = sideName((S.ply - i) % 2 === 0 ? S.state.to_move : otherSide(S.state.to_move));
    if (i + 1 === S.ply) li.classList.add("current");
    const reviewed = review && review.moves[i];
    if (reviewed && MARKED.includes(reviewed.class)) {
      li.classList.add(`mark-${reviewed.class}`);
      li.title = `${reviewed.class}: better ${reviewed.best}`;
      li.addEventListener("click", () => showBetter(reviewed));
    } else {
      li.addEventListener("click", () => jumpTo(i + 1));
    }
    list.appendChild(li);
  });
  $("review-game").hidden = S.moves.length === 0 || review !== null;
}

// The line under the board: the game, your side, the engine's level by name (and what
// is proven of the start); the level's measured strength under the level choice.
function drawWho() {
  if (!S.state) return;
  const n = Number($("level").value);
  $("who").textContent = whoText(S.state.title, humanSide(), levelName(n, S.levels)) +
    (S.state.verdict ? ` \u00b7 ${S.state.verdict}` : "");
  $("level-words").textContent = S.state.levels[$("engine").value][n - 1];
}

function showState(st) {
  S.state = st;
  $("board").innerHTML = st.svg;
  $("position-text").textContent = st.position;
  const side = sideName;
  let status;
  if (S.agreed) status = `Game over: ${S.agreed}`;
  else if (C.fallen) status = `Game over: ${timeOut}`;
  else if (st.end) status = `Game over: ${st.end_words}`;
  else if (st.plies === 0 && st.to_move === humanSide()) status = firstVisitLine(humanSide(), S.flip);
  else status = `${side(st.to_move)} to move` + (enginesTurn() ? " (engine)" : "") + ` \u00b7 ply ${st.plies}`;
  if (C.on && st.plies === 0 && !C.fallen) status += " \u00b7 the clocks start with the first move";
  // (A move that sealed seeds for good: said as it is made.)
  if (st.sealed && !st.end) status += ` \u00b7 ${st.sealed}`;
  // (Where the long-game rule nears: the moves without a capture left.)
  if (st.long_game) status += ` \u00b7 ${st.long_game}`;
  $("status").textContent = status;
  drawWho();
  drawEvalBar();
  drawMoveList();
  drawGraph();
  showReview();
  showHowToPlay(st.how_to_play);
}

// The rules of the game on the board, in plain words (redrawn when they change).
function showHowToPlay(lines) {
  const text = lines.join("\n");
  if ($("how-to-play-list").dataset.text === text) return;
  $("how-to-play-list").dataset.text = text;
  $("how-to-play-list").innerHTML = "";
  for (const line of lines) {
    const li = document.createElement("li");
    li.textContent = line;
    $("how-to-play-list").appendChild(li);
  }
}

// An example move from the start, animated lap by lap on the board (the one of the
// start's moves that captures most, else the one of most laps); then the game again.
async function exampleMove() {
  if (S.busy > 0) return;
  let move;
  busy(+1);
  try {
    const listed = await api("/api/moves", { game: gameSpec(0), distinct: true });
    const best = (a, b) => (b.captured - a.captured) || (b.laps - a.laps);
    move = listed.moves.slice().sort(best)[0];
    if (!move) throw new Error("The start has no move to show");
  } catch (e) { say(e.message); return; } finally { busy(-1); }
  // (No await between: the page is never idle in between.)
  await demonstrate(0, move.move, () =>
    `An example: ${move.move} from the start, ${counted(move.laps, "lap")}, ${counted(move.captured, "seed")} captured`);
}

// Animates `move` from the position after the game's first `ply` moves, captioned by
// `words(played)`, then shows the game again.
async function demonstrate(ply, move, words) {
  if (S.busy > 0) return;
  busy(+1);
  try {
    const at = gameSpec(ply);
    const before = await api("/api/state", { game: at, flip: S.flip });
    const played = await api("/api/play", { game: at, move, flip: S.flip });
    $("board").innerHTML = before.svg;
    const wasAnimating = $("animate").checked;
    $("animate").checked = true;
    await animate(played.trace, before, played.move);
    $("animate").checked = wasAnimating;
    caption(words(played));
    $("board").innerHTML = played.state.svg;
    await sleep(1200);
  } catch (e) { say(e.message); }
  // (Still busy until the game is back on the board.)
  try {
    showState(await api("/api/state", { game: gameSpec(), flip: S.flip }));
  } catch (e) { say(e.message); } finally { busy(-1); }
}

// ---- the review of a game: each move against the engine's best ----

const R = { review: null, key: null }; // the review, and the moves it is of
const MARK_COLOURS = { inaccuracy: "#b08800", mistake: "#e06000", blunder: "#c00000" };

// The review of the moves on the board, if it is of them.
function currentReview() {
  return R.review && R.key === S.moves.join(" ") ? R.review : null;
}

async function reviewGame() {
  const key = S.moves.join(" ");
  if (!key) return;
  busy(+1);
  $("review-summary").textContent = "Reviewing the game\u2026";
  try {
    const result = await streamed("/api/review", { game: gameSpec(S.moves.length) },
      (p) => { $("review-summary").textContent = `Reviewing the game\u2026 ${p.done}/${p.total} positions`; }, slotWait);
    if (S.moves.join(" ") !== key) return; // the game moved on meanwhile
    R.review = result; R.key = key;
    result.positions.forEach((p, ply) => { S.evals[ply] = barChances(p.wdl, p.side, p.chances_why); });
    showReview();
    drawMoveList();
    drawGraph();
  } catch (e) { say(e.message); $("review-summary").textContent = ""; } finally { busy(-1); }
}

function showReview() {
  const review = currentReview();
  const notes = $("review-notes");
  notes.innerHTML = "";
  if (!review) { $("review-summary").textContent = ""; return; }
  $("review-summary").textContent = reviewSummary(review);
  for (const m of review.moves) {
    if (!MARKED.includes(m.class) && !m.turning_point) continue;
    const li = document.createElement("li");
    li.dataset.ply = String(m.ply);
    li.className = `note-${m.class}`;
    li.textContent = reviewNote(m);
    li.addEventListener("click", () => showBetter(m));
    notes.appendChild(li);
  }
}

// Shows the better move of a reviewed move, animated from the position it was played in.
async function showBetter(m) {
  if (S.busy > 0) return;
  S.ply = m.ply - 1; S.autoEngine = false;
  await demonstrate(m.ply - 1, m.best, (played) =>
    `Better than ${m.move} (${m.class}): ${played.move}, ${m.best_in_words} for ${sideName(m.side)}`);
}

// Dots on the graph at the marked moves.
function reviewMarks(n, y) {
  const review = currentReview();
  if (!review) return "";
  return review.moves.filter((m) => MARKED.includes(m.class)).map((m) => {
    const after = review.positions[m.ply];
    const e = after ? expected(southChances(after.wdl, after.side)) : 0.5;
    return `<circle class="mark mark-${m.class}" cx="${(m.ply / n * 296 + 2).toFixed(1)}" cy="${y(e)}" r="3.5" fill="${MARK_COLOURS[m.class]}"/>`;
  }).join("");
}

// ---- the game ----

async function refresh() {
  busy(+1);
  try {
    showState(await api("/api/state", { game: gameSpec(), flip: S.flip }));
  } catch (e) { say(e.message); } finally { busy(-1); }
  await afterPosition();
}

// What happens once a position is shown: the engine's move, or analysis.
async function afterPosition() {
  // (A game's clocks start with its first move: the first mover's stands till then.)
  if (S.state && S.state.result === null && S.state.plies > 0 && !S.agreed) startClock(S.state.to_move);
  else C.running = null; // (a finished game's clocks stand still)
  if (enginesTurn() && S.autoEngine) return engineMove();
  if ($("analyse").checked && S.state && S.state.result === null) analyse(3, 300, false);
}

function delayPerSeed() { return speedDelay(Number($("speed").value)); }
function holdCaption() { return captionHold(Number($("speed").value)); }

// The seeds on each side, as the board's side lines say them, while a move is animated
// (the `mover`'s counting the `hand` it sows).
function drawTotals(pits, mover, hand) {
  for (const side of ["S", "N"]) {
    const line = document.querySelector(`#board text.info[data-side="${side}"]`);
    const total = pits[side].reduce((a, b) => a + b, 0) + (side === mover ? hand : 0);
    if (line) line.textContent = line.textContent.replace(/\d+ seeds?/, counted(total, "seed"));
  }
}

// Replays a move's steps on the board from the previous position; the first `from`
// steps, already shown (up to a decision), without a pause.
async function animate(trace, before, move, from = 0) {
  if (!$("animate").checked || !trace || trace.truncated) return;
  const mover = trace.mover, other = otherSide(mover);
  $("status").textContent = `${sideName(mover)} plays ${move}\u2026`;
  const pits = { S: before.pits.S.slice(), N: before.pits.N.slice() };
  const delay = delayPerSeed(), hold = holdCaption();
  let quiet = from > 0;
  const pause = (ms) => (quiet || S.skip ? null : sleep(ms));
  const caption = (text) => { if (!quiet) $("caption").textContent = text; };
  // A lap's direction, named where it is clockwise: its first seed is not in the pit
  // after the one it is sown from.
  const direction = (i, origin) => {
    const next = trace.steps[i + 1];
    const sown = next && next.kind === "sow" && next.pits.length > 0;
    return sown && sownClockwise(origin, next.pits[0], pits[mover].length) ? " clockwise" : "";
  };
  let hand = 0, lap = 0;
  S.skip = false;
  for (const [i, step] of trace.steps.entries()) {
    if (S.skip) break;
    if (quiet && i === from) {
      // The board as the steps shown leave it (a decision's shows seeds in hand in a pit).
      quiet = false;
      drawPits(pits);
    }
    unlightAll();
    if (step.kind === "lift") {
      // Seeds still in hand are captured ones joining this pit's (lap-start-pit).
      const joining = hand;
      if (joining === 0) lap += 1;
      hand += pits[mover][step.pit - 1];
      pits[mover][step.pit - 1] = 0;
      setPit(mover, step.pit, 0, true);
      caption(joining === 0
        ? `Lap ${lap}: ${sideName(mover)} lifts ${counted(hand, "seed")} from pit ${step.pit}${direction(i, step.pit)}`
        : `The captured seeds join pit ${step.pit}'s: ${counted(hand, "seed")} to sow${direction(i, step.pit)}`);
      await pause(Math.max(delay * 2, hold));
    } else if (step.kind === "sow") {
      for (const p of step.pits) {
        if (S.skip) break;
        pits[mover][p - 1] += 1;
        hand -= 1;
        unlightAll();
        setPit(mover, p, pits[mover][p - 1], true);
        await pause(delay);
      }
    } else if (step.kind === "capture") {
      lap += 1;
      for (const p of step.pits) { pits[other][p - 1] = 0; setPit(other, p, 0, true); }
      setPit(mover, step.at, pits[mover][step.at - 1], true);
      hand = step.seeds;
      drawTotals(pits, mover, hand);
      const from = `the opponent's ${step.pits.length === 1 ? "pit" : "pits"} ${step.pits.join(" and ")}`;
      caption(`Lap ${lap}: capture at pit ${step.at}: ${counted(step.seeds, "seed")} from ${from}, sown${direction(i, step.from)} after pit ${step.from}`);
      await pause(Math.max(delay * 4, hold * 1.5));
    } else if (step.kind === "pass") {
      caption(`Passes the capture at pit ${step.at}, and relays`);
      setPit(mover, step.at, pits[mover][step.at - 1], true);
      await pause(Math.max(delay * 3, hold));
    } else if (step.kind === "retreat") {
      pits[other][step.to - 1] += pits[other][step.from - 1];
      pits[other][step.from - 1] = 0;
      setPit(other, step.from, 0, true);
      setPit(other, step.to, pits[other][step.to - 1], true);
      caption(`${sideName(other)} retreats: ${counted(step.seeds, "seed")} from pit ${step.from} to pit ${step.to}`);
      await pause(Math.max(delay * 4, hold));
    } else if (step.kind === "leave") {
      // The captured seeds are not sown: the capture's lap is the other pit's, lifted next.
      lap -= 1;
      pits[mover][step.pit - 1] += hand;
      hand = 0;
      setPit(mover, step.pit, pits[mover][step.pit - 1], true);
      const kept = step.seeds === 1 ? "The captured seed stays" : `The ${step.seeds} captured seeds stay`;
      caption(`${kept} in pit ${step.pit}; the other clockwise pit sows`);
      await pause(Math.max(delay * 3, hold));
    } else if (step.kind === "end") {
      setPit(mover, step.at, pits[mover][step.at - 1], true);
      caption(`The last seed falls in pit ${step.at}` + (pits[mover][step.at - 1] === 1 ? ", empty before: the move ends" : ": the capture ends the move"));
      await pause(Math.max(delay * 3, hold));
    }
  }
}

// Plays `text`; the board may stand at a decision inside it, its first steps shown.
// `chancesAfter`: South's chances after it, where known (the engine's best move keeps
// the chances it found), so that the bar is not a ply behind.
async function playMove(text, chancesAfter = null) {
  const before = S.state;
  const shown = S.midMove ? S.shownSteps : 0;
  if (!chargeClock(before.to_move)) return;
  busy(+1);
  try {
    const played = await api("/api/play", { game: gameSpec(), move: text, flip: S.flip });
    say("");
    S.moves = S.moves.slice(0, S.ply).concat([played.move]);
    S.evals.length = Math.min(S.evals.length, S.ply + 1);
    S.ply += 1;
    if (chancesAfter) S.evals[S.ply] = chancesAfter;
    await animate(played.trace, before, played.move, shown);
    S.midMove = false;
    showState(played.state);
    caption(`${sideName(before.to_move)} played ${played.move}: ${counted(played.laps, "lap")}, ${counted(played.captured, "seed")} captured`);
  } catch (e) {
    restoreBoard();
    say(e.message);
    return;
  } finally { busy(-1); }
  await afterPosition();
}

// Streams an analysis; calls `progress` with each progress line; returns the result.
function search(body, progress) { return streamed("/api/analyse", body, progress, slotWait); }

function slotWait() { $("thinking").textContent = "Waiting for a free search slot\u2026"; }

// While the engine thinks against a person, its search is not shown (only that it
// thinks): its scores and lines would tell them the best move.
function thinkingQuietly(p) {
  $("thinking").textContent = `The engine is thinking\u2026 (depth ${p.depth})`;
}

function thinking(p) {
  $("thinking").textContent = `depth ${p.depth} \u00b7 ${scoreText(p.score)} ${wdlText(p.wdl)} (${sideName(S.state.to_move)}'s view) \u00b7 ${p.nodes} nodes \u00b7 ${p.nps} nodes/s \u00b7 ${p.pv.join(" ")}`;
}

function showLines(result) {
  const list = $("analysis");
  list.innerHTML = "";
  for (const line of result.lines || []) {
    const li = document.createElement("li");
    li.textContent = `${line.move}  ${scoreText(line.score)}  ${wdlText(line.wdl)}  ${line.pv.join(" ")}`;
    list.appendChild(li);
  }
  const facts = [result.material && result.material.text, result.fortress && result.fortress.text];
  const said = facts.filter(Boolean).map((t) => ` \u00b7 ${t}`).join("");
  $("thinking").textContent = `scores for ${sideName(S.state.to_move)} (to move)${said} \u00b7 ${result.engine || ""} depth ${result.depth} \u00b7 ${result.nodes} nodes \u00b7 ${result.nps} nodes/s \u00b7 ${result.time_ms} ms`;
}

function recordEval(result, ply, toMove) {
  if (result && result.wdl) {
    S.evals[ply] = barChances(result.wdl, toMove, result.chances_why);
    drawGraph();
  }
}

// ---- clocks: with a clock time control both sides have one, the mover's running ----

let C = new Clocks(null);
let timeOut = ""; // the words of a flag that fell
let fallResult = null; // and its result: the other side's win, or a draw against a side that could never win

function resetClocks() {
  C = new Clocks(timeControl($("strength").value));
  timeOut = "";
  fallResult = null;
  drawClocks();
}

const startClock = (side) => C.start(side);

// Stops `side`'s clock after its move; false if its flag fell.
function chargeClock(side) {
  const inTime = C.charge(side);
  if (C.fallen) flagFell(C.fallen); else drawClocks();
  return inTime;
}

function flagFell(side) {
  // (The server's words for this position: a draw where the other side could never win.)
  const told = S.state && S.state.flag_fall ? S.state.flag_fall[side] : null;
  timeOut = told ? told.words : `${sideName(side)}'s clock ran out: ${sideName(otherSide(side))} wins on time`;
  fallResult = told ? told.result : otherSide(side);
  $("status").textContent = `Game over: ${timeOut}`;
  drawEvalBar();
  say(timeOut + ".");
  drawClocks();
}

function drawClocks() {
  const box = $("clocks");
  box.hidden = !C.on;
  if (!C.on) return;
  const side = (s) => `${sideName(s)} ${clockText(C.leftOf(s))}${C.running === s ? " (running)" : ""}`;
  box.textContent = `${side("S")} \u00b7 ${side("N")}`;
}

// Ticks the running clock, and lets a flag fall when it runs out (also while a person
// thinks, not only when they move).
setInterval(() => {
  if (!C.on) return;
  const expired = C.expired();
  if (expired) { C.fall(expired); flagFell(expired); }
  drawClocks();
}, 100);

function engineLimits() {
  const [kind, value] = $("strength").value.split(":");
  if (kind === "ms") return { time_ms: Number(value) };
  const side = S.state.to_move;
  return { tc: `${Math.max(C.leftOf(side), 0.05).toFixed(2)}+${C.inc}`, time_ms: undefined };
}

// The engine's answer ("r" or "s") to the pass ending `prefix`, the person's move so
// far, on the engine's clock.
async function engineAnswer(prefix) {
  const engine = otherSide(S.state.to_move);
  const { answer } = await onAnswerersClock(engine, () => engineOnHalfMove("/api/answer", prefix));
  caption(`${sideName(engine)} ${answer === "r" ? "retreats: its front pit's seeds go to the pit behind it" : "stays"} (after ${prefix})`);
  return answer;
}

// `answering()`'s result with `side`'s clock running while it answers inside the other
// side's move (the mover's clock stopped); its flag may fall.
async function onAnswerersClock(side, answering) {
  C.startAnswer(side);
  drawClocks();
  try {
    return await answering();
  } finally {
    const fellMeanwhile = C.fallen; // (the clock's tick says so itself)
    if (!C.endAnswer(side) && !fellMeanwhile) flagFell(side);
    drawClocks();
  }
}

// The engine's reply at `path` about `half`, a move half made, in the engine's time.
async function engineOnHalfMove(path, half) {
  busy(+1);
  try {
    const body = { game: gameSpec(), move: half, engine: $("engine").value, level: Number($("level").value) };
    const { time_ms: timeMs } = engineLimits();
    if (timeMs) body.time_ms = timeMs;
    return await api(path, body);
  } finally { busy(-1); }
}

async function engineMove() {
  if (!S.state || S.state.result !== null || C.fallen || S.agreed) return;
  const ply = S.ply, toMove = S.state.to_move;
  busy(+1);
  let result;
  try {
    const limits = engineLimits();
    const body = { game: gameSpec(), engine: $("engine").value, level: Number($("level").value) };
    if (limits.tc) body.tc = limits.tc; else body.time_ms = limits.time_ms;
    const againstPerson = $("side").value !== "both";
    result = await search(body, againstPerson ? thinkingQuietly : thinking);
  } catch (e) { say(e.message); busy(-1); return; }
  busy(-1);
  const move = result && (result.level_move || result.best_move);
  if (ply !== S.ply || !move) return; // the user moved on meanwhile
  if ($("analyse").checked || $("side").value === "both") showLines(result);
  else $("thinking").textContent = "";
  recordEval(result, ply, toMove);
  const settled = await answeredByYou(move, result.answers ?? [], ply)
    .catch((e) => { say(e.message); return null; });
  if (settled === null || ply !== S.ply) return;
  const best = settled === result.best_move && result.wdl;
  await playMove(settled, best ? barChances(result.wdl, toMove, result.chances_why) : null);
}

// The engine's move with your answers to its passes under the retreat (answers.js):
// asked under the board at each one; where you answer otherwise than it expected, the
// engine goes on from there (/api/complete).
async function answeredByYou(move, answers, ply) {
  if (humanSide() === "both" || answers.length === 0) return move;
  const pit = Number(move.match(/^\d+/)[0]);
  let listed = await api("/api/moves", { game: gameSpec(), pit });
  if (!listed.complete) listed = await api("/api/moves", { game: gameSpec(), pit, distinct: true });
  const moves = listed.moves;
  return settleAnswers(move, answers, {
    ask: (prefix) => (ply === S.ply
      ? onAnswerersClock(humanSide(), () => askAnswer(pit, prefix, moves)) : Promise.resolve(null)),
    isWhole: (m) => moves.some((listedMove) => listedMove.move === m),
    complete: (half) => (ply === S.ply ? engineCompletes(half) : Promise.resolve(null)),
  });
}

// Set while you are asked for an answer: resolves it (null when the game moves on).
let pendingAnswer = null;

// Your answer ("r" or "s") to the engine's pass ending `prefix`, asked under the board.
async function askAnswer(pit, prefix, moves) {
  const options = choicesAfter(prefix, moves);
  const met = prefix.length - String(pit).length + 1;
  // Registered before the decision is fetched, so that a game moving on meanwhile
  // (undo, a new game) resolves it too.
  let resolveAnswer;
  const answer = new Promise((resolve) => { resolveAnswer = resolve; });
  pendingAnswer = resolveAnswer;
  const question = await showDecision(prefix, () => choicePrompt(pit, met, options, S.state.to_move));
  if (pendingAnswer !== resolveAnswer || question === null) {
    // Resolved meanwhile, the game having moved on: its board, not the decision's.
    if (pendingAnswer === resolveAnswer) { pendingAnswer = null; resolveAnswer(null); }
    restoreBoard();
    return answer;
  }
  $("choice-text").textContent = question;
  for (const option of ["take", "pass", "anticlockwise", "clockwise", "sow-on", "leave"]) $(`choice-${option}`).hidden = true;
  // An answer inside the engine's move has nothing to cancel: without one the engine's
  // move never ends and the game stops. (Undo and a new game still leave it.)
  $("choice-cancel").hidden = true;
  for (const [letter, option] of [["r", "retreat"], ["s", "stay"]]) {
    const button = $(`choice-${option}`);
    // (Both are offered where the listing cannot tell: the engine checks the answer.)
    button.hidden = !options[option] && options.open.length > 0;
    button.onclick = () => { pendingAnswer = null; closeChoice(); resolveAnswer(letter); };
  }
  $("choice").hidden = false;
  return answer;
}

// The engine's whole move from `half`, its move as you answered it so far, with the
// answers it still expects of you.
async function engineCompletes(half) {
  const { move, answers } = await engineOnHalfMove("/api/complete", half);
  return { move, answers };
}

async function analyse(multipv, timeMs, hint) {
  const ply = S.ply, toMove = S.state.to_move;
  busy(+1);
  try {
    const result = await search({ game: gameSpec(), multipv, time_ms: timeMs, engine: $("engine").value }, thinking);
    if (ply !== S.ply) return;
    showLines(result);
    recordEval(result, ply, toMove);
    if (hint && result.best_move) {
      say("");
      caption(`Hint: ${result.best_move} (${result.score.words}, ${chancesWords(result.wdl)} for ${sideName(toMove)})`);
      const pit = parseInt(result.best_move, 10);
      unlightAll();
      const g = pitElement(toMove, pit);
      if (g) g.classList.add("lit");
    }
  } catch (e) { say(e.message); } finally { busy(-1); }
}

// ---- ending the game by agreement ----

// The person to move resigns, or offers a draw that the engine answers from its own
// search (/api/offer); the game then ends where it stands, its clocks stopped, until a
// move is taken back or a new game begins.
async function offerEnd(offer) {
  const st = S.state;
  if (!st || st.result !== null || C.fallen || S.agreed) return say("The game is over.");
  if (humanSide() !== "both" && st.to_move !== humanSide()) return say("Wait: it is the engine's move.");
  hideChoice();
  busy(+1);
  try {
    const answer = await api("/api/offer", { game: gameSpec(), offer, time_ms: 1000 });
    if (st !== S.state) return; // (the game moved on meanwhile)
    if (answer.accepted) {
      S.agreed = answer.words.replace(/\.$/, "");
      S.agreedResult = answer.result;
      C.running = null;
      showState(S.state);
      drawClocks();
    }
    say(sentence(answer.words));
  } catch (e) { say(e.message); } finally { busy(-1); }
}

function jumpTo(ply) {
  S.ply = Math.max(0, Math.min(ply, S.moves.length));
  S.agreed = ""; S.agreedResult = null; // (a move taken back or replayed goes on from there)
  S.autoEngine = false;
  caption("");
  say(""); // (what a tap was told belongs to the position left)
  hideChoice();
  refresh();
}

// ---- clicks on the board ----

// The move begun played up to its next decision (animated from where the board stands,
// as moves are), the lap's end and the pits at stake lit (at a direction the lap's pit,
// the pits its last seed reaches each way ringed), and the engine's question naming
// them (/api/decision); `fallback()` words it where the engine cannot.
// Null where the move was taken back meanwhile (Cancel, undo, a new game).
async function showDecision(prefix, fallback) {
  let d;
  const begun = S.begun;
  busy(+1);
  try {
    d = await api("/api/decision", { game: gameSpec(), move: prefix });
    if (!S.midMove) S.shownSteps = 0;
    if (d.trace && begun === S.begun) {
      await animate(d.trace, S.state, prefix, S.shownSteps);
      S.shownSteps = d.trace.steps.length;
    }
  } catch (e) { return begun === S.begun ? fallback() : null; } finally { busy(-1); }
  if (begun !== S.begun) return null;
  unlightAll();
  drawPits(d.pits);
  const opponent = otherSide(d.mover);
  // (At a direction, the lap's pit and what either way would capture.)
  const stakes = d.lap_stakes ? [...d.lap_stakes.anticlockwise, ...d.lap_stakes.clockwise] : [];
  const lit = d.kind === "direction" ? [[d.mover, d.lap_pit], ...stakes.map((p) => [opponent, p])]
    : [[d.mover, d.end], ...d.stake.map((p) => [opponent, p])];
  for (const [side, p] of lit) pitElement(side, p)?.classList.add("lit");
  const ends = d.lap_ends ? [d.lap_ends.anticlockwise, d.lap_ends.clockwise] : [];
  for (const p of ends) pitElement(d.mover, p)?.classList.add("lap-end");
  S.midMove = true;
  $("status").textContent = `${sideName(d.mover)} plays ${prefix}\u2026`;
  return d.question;
}

// The board as it stood before a move begun (Cancel, undo, a new game).
function restoreBoard() {
  S.begun += 1;
  if (S.midMove) S.skip = true; // (an animation up to a decision stops)
  if (S.midMove && S.state) showState(S.state);
  S.midMove = false;
  S.shownSteps = 0;
}

// Hides the question under the board, the board left as it stands.
function closeChoice() {
  $("choice").hidden = true;
  if (pendingAnswer) { const resolve = pendingAnswer; pendingAnswer = null; resolve(null); }
}

// Hides the question and takes a move begun back to its start.
function hideChoice() {
  restoreBoard();
  closeChoice();
}

// Asks take or pass at each capture met, the direction of each lap that may turn, and
// whether to leave a clockwise capture, among the moves from one pit.
function askChoices(pit, moves) {
  let prefix = String(pit);
  const box = $("choice");
  // (Asked under the board, not over it: the side's label, the last move and the
  // buttons stay in sight.)
  const next = async () => {
    // (A sequence that ends here cannot also go on: the next choice met asks again.)
    const options = choicesAfter(prefix, moves);
    const { open } = options;
    if (open.length <= 1) {
      if (open.length === 1) { closeChoice(); return playMove(open[0].move); }
      hideChoice();
      return say(`No legal move starts ${prefix}`);
    }
    const met = prefix.length - String(pit).length + 1;
    if ((options.retreat || options.stay) && humanSide() !== "both") {
      // The engine answers its opponent's pass itself: said while it thinks, and its
      // answer held long enough to read before the move goes on.
      closeChoice();
      const mover = S.state.to_move;
      $("status").textContent = `${sideName(mover)} plays ${prefix}\u2026 \u00b7 ${sideName(otherSide(mover))} answers the pass`;
      return engineAnswer(prefix).then(async (letter) => {
        await sleep(holdCaption());
        prefix += letter;
        next();
      }, (e) => say(e.message));
    }
    const question = await showDecision(prefix,
      () => choicePrompt(pit, met, options, S.state.to_move));
    if (question === null) return;
    $("choice-text").textContent = question;
    const letters = [["x", "take"], ["p", "pass"], ["a", "anticlockwise"], ["c", "clockwise"],
      ["r", "retreat"], ["s", "stay"], ["o", "sowOn", "sow-on"], ["l", "leave"]];
    for (const [letter, option, id = option] of letters) {
      const button = $(`choice-${id}`);
      button.hidden = !options[option];
      // (Not while the next decision is fetched: one letter a decision. The question
      // goes as it is answered, not left standing while the move goes on.)
      button.onclick = () => { if (S.busy === 0) { box.hidden = true; prefix += letter; next(); } };
    }
    $("choice-cancel").hidden = false;
    box.hidden = false;
  };
  next();
}

async function clickPit(event) {
  const g = event.target.closest("g.pit");
  if (!g || S.busy > 0) return;
  hideChoice();
  const st = S.state, side = g.dataset.side, pit = Number(g.dataset.pit);
  const name = sideName;
  if (st.result !== null) return say(`The game is over: ${st.end_words}.`);
  if (C.fallen) return say("The game is over: a clock ran out.");
  if (S.agreed) return say(`The game is over: ${S.agreed}.`);
  if (humanSide() !== "both" && st.to_move !== humanSide()) return say("Wait: it is the engine's move.");
  if (side !== st.to_move) return say(`That pit is ${name(side)}'s; it is ${name(st.to_move)}'s move: tap one of ${name(st.to_move)}'s pits.`);
  S.autoEngine = true;
  if (!st.optional_captures && !st.directions) return playMove(String(pit));
  busy(+1);
  try {
    let listed = await api("/api/moves", { game: gameSpec(), pit });
    if (!listed.complete) listed = await api("/api/moves", { game: gameSpec(), pit, distinct: true });
    if (listed.moves.length === 0) { busy(-1); return playMove(String(pit)); } // the server explains
    busy(-1);
    askChoices(pit, listed.moves);
  } catch (e) { busy(-1); say(e.message); }
}

// ---- set-up ----

function chosenVariant() { return S.variants.find((v) => v.name === S.variantName); }

function newGame() {
  hideChoice();
  S.moves = []; S.ply = 0; S.evals = []; S.autoEngine = true; S.agreed = ""; S.agreedResult = null; resetClocks();
  $("analysis").innerHTML = ""; $("thinking").textContent = ""; caption(""); say("");
  refresh();
}

// A start and moves typed by the user, taken only if the server accepts them.
async function loadLine(start, moves) {
  const game = gameSpec(0);
  game.moves = moves.join(" ");
  if (start) game.start = start; else delete game.start;
  busy(+1);
  try {
    await api("/api/state", { game });
    S.start = start; S.moves = moves; S.ply = moves.length; S.evals = []; S.autoEngine = false;
    S.agreed = ""; S.agreedResult = null;
    say(""); caption(""); // (the words of the game left)
  } catch (e) { say(e.message); busy(-1); return; }
  busy(-1);
  refresh();
}

async function loadRecord() {
  busy(+1);
  try {
    const r = await api(`/api/records/${$("record-game").value}`);
    const known = S.variants.find((v) => v.name === r.variant && v.rules === r.rules);
    S.variantName = known ? r.variant : null; S.rules = known ? null : r.rules;
    if (known) $("variant").value = r.variant;
    S.start = r.start; S.moves = r.moves; S.ply = 0; S.evals = [];
    $("side").value = "both";
    caption(`Game ${r.game}: ${r.south} (South) against ${r.north} (North), ${r.result}`);
    S.autoEngine = false;
  } catch (e) { say(e.message); } finally { busy(-1); }
  refresh();
}

// The next page of the records file's games, added to the list (the server pages them:
// a file of a million games is not sent whole).
async function moreRecords() {
  const page = await api(`/api/records?offset=${S.recordsNext}`);
  for (const g of page.games) {
    const option = document.createElement("option");
    option.value = g.game;
    option.textContent = `${g.game}: ${g.south} - ${g.north} ${g.result} (${g.plies} plies)`;
    $("record-game").appendChild(option);
  }
  S.recordsNext = page.next;
  $("more-records").hidden = page.next === null;
}

// The strength levels the engine offers (the server's limits.levels), each with its
// name, the engine's default chosen.
function fillLevels(levels) {
  for (let n = levels.least; n <= levels.most; n++) {
    const option = document.createElement("option");
    option.value = n;
    option.textContent = levelLabel(n, levels);
    option.selected = n === levels.default;
    $("level").appendChild(option);
  }
}

async function setup() {
  const listed = await api("/api/variants");
  fillLevels(listed.limits.levels);
  S.levels = listed.limits.levels;
  S.seeds = new SeedDrawings(listed.seeds);
  S.variants = listed.variants;
  for (const v of S.variants) {
    const option = document.createElement("option");
    option.value = v.name;
    option.textContent = v.title ? `${v.title} (${v.name})` : v.name;
    $("variant").appendChild(option);
  }
  // The first game offered (the server's recommendation): its variant and level.
  S.variantName = listed.first_game.variant || S.variants[0].name;
  $("variant").value = S.variantName;
  $("level").value = String(listed.first_game.level);
  if (listed.records) {
    $("records-box").hidden = false;
    await moreRecords();
  }
  $("board").addEventListener("click", clickPit);
  $("variant").addEventListener("change", () => { S.variantName = $("variant").value; S.rules = null; S.start = null; newGame(); });
  $("rules-file").addEventListener("change", async () => {
    const file = $("rules-file").files[0];
    if (!file) return;
    S.rules = await file.text(); S.start = null; newGame();
  });
  $("new-game").addEventListener("click", newGame);
  $("example-move").addEventListener("click", exampleMove);
  $("review-game").addEventListener("click", reviewGame);
  // Your rows nearest you: the board turns when you take North (Flip board still turns it).
  $("side").addEventListener("change", () => {
    S.autoEngine = true;
    if (humanSide() !== "both") S.flip = humanSide() === "N";
    refresh();
  });
  $("level").addEventListener("change", drawWho);
  $("engine").addEventListener("change", drawWho);
  // A new time control mid-game starts both clocks afresh (none for a time a move).
  $("strength").addEventListener("change", () => {
    resetClocks();
    if (S.state && S.state.result === null) startClock(S.state.to_move);
    drawClocks();
  });
  $("engine-move").addEventListener("click", () => { S.autoEngine = true; engineMove(); });
  $("flip").addEventListener("click", () => { S.flip = !S.flip; refresh(); });
  $("skip").addEventListener("click", () => { S.skip = true; });
  // (Cancel takes the move back, and what was said of it.)
  $("choice-cancel").addEventListener("click", () => { hideChoice(); caption(""); });
  $("hint").addEventListener("click", () => analyse(1, 1000, true));
  $("offer-draw").addEventListener("click", () => offerEnd("draw"));
  $("resign").addEventListener("click", () => offerEnd("resign"));
  $("analyse").addEventListener("change", () => refresh());
  $("undo").addEventListener("click", () => {
    let ply = S.ply - 1;
    // Back to the player's own turn when playing the engine.
    if (humanSide() !== "both" && ply > 0 && ply % 2 === 1 && S.state && S.state.to_move === humanSide()) ply -= 1;
    jumpTo(ply);
  });
  $("redo").addEventListener("click", () => jumpTo(S.ply + 1));
  $("load-position").addEventListener("click", () => loadLine($("position-input").value.trim() || null, []));
  $("copy-position").addEventListener("click", async () => {
    $("position-input").value = S.state.position;
    try { await navigator.clipboard.writeText(S.state.position); caption("Position copied"); } catch (e) { caption("Position in the box above"); }
  });
  $("load-moves").addEventListener("click", () =>
    loadLine(S.start, $("moves-input").value.split(/[\s,]+/).filter((m) => m.length > 0)));
  $("save-moves").addEventListener("click", () => { $("moves-input").value = S.moves.slice(0, S.ply).join(" "); });
  $("load-record").addEventListener("click", loadRecord);
  $("more-records").addEventListener("click", () => moreRecords().catch((e) => say(e.message)));
  newGame();
}

setup().catch((e) => say(e.message));
