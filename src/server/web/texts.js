// The page's words and numbers that need no page: who is who, chances, clocks, review
// summaries. The engine's own texts (a score, its words, W/D/L, the reasons) come from
// the server's JSON (`score.text`, `score.words`, `wdl.text`, `chances_why`); this module
// only arranges them.

export const sideName = (side) => (side === "S" ? "South" : "North");
export const otherSide = (side) => (side === "S" ? "N" : "S");

// South's chances from the side to move's, as {win, draw, loss} per mille.
export function southChances(wdl, toMove) {
  return toMove === "S" ? wdl : { win: wdl.loss, draw: wdl.draw, loss: wdl.win };
}

// South's chances as the bar keeps them: `southChances`, with the reason they stand
// apart from the seeds where the engine gives one (`chances_why`).
export function barChances(wdl, toMove, why) {
  return { ...southChances(wdl, toMove), why: why || null };
}

// Chances in words, from the side whose they are: "win 74%, draw 0%, loss 26%" (whole
// percents summing to 100, rounded as the bar rounds them).
export function chancesWords(wdl) {
  const [win, draw, loss] = percents(wdl);
  return `win ${win}%, draw ${draw}%, loss ${loss}%`;
}

// Win, draw and loss in whole percents that sum to 100, as the engine rounds them: the
// draw takes what the rounded win and loss leave.
function percents(chances) {
  const win = Math.round(chances.win / 10);
  const loss = Math.min(Math.round(chances.loss / 10), 100 - win);
  return [win, 100 - win - loss, loss];
}

// South's expected result (a win 1, a draw 1/2) from its chances, 0 to 1.
export const expected = (chances) => (chances.win + chances.draw / 2) / 1000;

// The evaluation bar's words for South's chances at `ply` (shown at `shown`), with
// their reason where they have one (`barChances`).
export function barText(chances, ply, shown) {
  const [win, draw, loss] = percents(chances);
  return `South wins ${win}% \u00b7 draw ${draw}% \u00b7 North wins ${loss}%` +
    (ply === shown ? "" : ` (at ply ${ply})`) + (chances.why ? `: ${chances.why}` : "");
}

// The bar's words before any position is evaluated.
export const NOT_EVALUATED = "Chances: not evaluated yet (Analyse, or Hint)";

// South's chances when the game is over: certain, from its result ("S", "N" or "draw").
export function endChances(result) {
  if (result === "S") return { win: 1000, draw: 0, loss: 0 };
  if (result === "N") return { win: 0, draw: 0, loss: 1000 };
  return { win: 0, draw: 1000, loss: 0 };
}

// The first words a newcomer reads: which side and which rows are theirs (South's rows
// are the lower two unless the board is flipped).
export function firstVisitLine(human, flipped) {
  const lower = (human === "S") !== flipped;
  return `You are ${sideName(human)}: tap a pit in your two rows (the ${lower ? "lower" : "upper"} two) to sow its seeds.`;
}

// `text` as one sentence: its own final full stop, or one added.
export function sentence(text) {
  return text.endsWith(".") ? text : `${text}.`;
}

// Who plays what, beside the board: the game's name, your side and the engine's level
// (`human`: "S", "N" or "both").
export function whoText(title, human, level) {
  if (human === "both") return `${title} \u00b7 you play both sides`;
  return `${title} \u00b7 you are ${sideName(human)} \u00b7 engine: ${level}`;
}

// `m:ss.s`, the tenths cut (as a clock shows what is left), never rounded up to 60.
export function clockText(seconds) {
  const tenths = Math.floor(Math.max(seconds, 0) * 10), m = Math.floor(tenths / 600);
  return `${m}:${((tenths - 600 * m) / 10).toFixed(1).padStart(4, "0")}`;
}

// The animation's pause per seed sown at speed `speed` (0 slowest), in ms.
export const delayPerSeed = (speed) => Math.round(400 * Math.pow(0.95, speed));

// The speed the animation starts at: a seed every 66 ms, each caption held a second.
export const DEFAULT_SPEED = 35;

// How long a caption stays up at `speed` before the animation goes on: a second at the
// default speed (time to read a lap's words), less when faster, more when slower.
export const captionHold = (speed) => Math.round(1000 * Math.pow(0.95, speed - DEFAULT_SPEED));

// Whether a lap sown from `origin` (the pit lifted, or the pit captured seeds are sown
// after) whose first seed falls in `first` goes clockwise, on a side of `pits` pits
// numbered anticlockwise.
export const sownClockwise = (origin, first, pits) => first !== (origin % pits) + 1;

// `n thing` or `n things` (irregular plurals given).
export const counted = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// A level's label in the level choice: its number and name (`4 \u00b7 improver`).
export function levelLabel(n, levels) {
  return `${n} \u00b7 ${levels.names[n - levels.least]}`;
}

// A level as the line under the board names it, short enough for a phone's line:
// `level 4, improver` (its measured strength goes under the level choice).
export function levelName(n, levels) {
  return `level ${n}, ${levels.names[n - levels.least]}`;
}

// The moves a review marks, worst last.
export const MARKED = ["inaccuracy", "mistake", "blunder"];

// `Accuracy: South 91.2 (1 inaccuracy, 0 mistakes, 2 blunders) · North ...`
export function reviewSummary(review) {
  const accuracy = (side) => (review.accuracy[side] === null ? "-" : review.accuracy[side].toFixed(1));
  const plural = { inaccuracy: "inaccuracies", mistake: "mistakes", blunder: "blunders" };
  const classes = (side) => MARKED.map((c) => counted(review.classes[side][c], c, plural[c])).join(", ");
  return `Accuracy: South ${accuracy("S")} (${classes("S")}) \u00b7 North ${accuracy("N")} (${classes("N")})`;
}

// A marked move's note, as the review words it (`ply 14, North 4: blunder, lost 35% win
// chance (3.00 seeds); better 7`), and the tap that shows the better move.
export const reviewNote = (m) => `${m.note} (show)`;

// The time control of a strength choice `tc:BASE+INC`, `{base, inc}` in seconds, or
// null for a time per move (`ms:N`).
export function timeControl(choice) {
  const [kind, value] = choice.split(":");
  if (kind !== "tc") return null;
  const [base, inc] = value.split("+").map(Number);
  return { base, inc };
}

// Among `moves` (`{move}` texts) from one pit, those that go on from `prefix` (the pit
// and the letters chosen so far: take/pass, a lap's direction, sow on/leave), and the
// letters that can come next.
export function choicesAfter(prefix, moves) {
  const open = moves.filter((m) => m.move.startsWith(prefix));
  const next = new Set(open.filter((m) => m.move.length > prefix.length).map((m) => m.move[prefix.length]));
  return {
    open,
    take: next.has("x"),
    pass: next.has("p"),
    anticlockwise: next.has("a"),
    clockwise: next.has("c"),
    retreat: next.has("r"),
    stay: next.has("s"),
    sowOn: next.has("o"),
    leave: next.has("l"),
  };
}

// The question a pending choice of a move from `pit` puts (`met`: its place among the
// move's choices; `options`: as from choicesAfter): the mover's own, or under the
// retreat the opponent's answer to a passed capture, put to the opponent.
export function choicePrompt(pit, met, options, mover) {
  if (options.retreat || options.stay) {
    const other = mover === "S" ? "N" : "S";
    return `${sideName(other)}, answer: ${sideName(mover)} passed the capture of your front pit. ` +
      "Retreat its seeds into the pit behind it, or stay?";
  }
  if (options.sowOn || options.leave) {
    return `Pit ${pit}, choice ${met} of this move: sow the captured seeds on, or leave them in their pit and sow the other clockwise pit?`;
  }
  if (options.anticlockwise || options.clockwise) {
    return `Pit ${pit}, choice ${met} of this move: sow this lap anticlockwise as usual, or clockwise to capture?`;
  }
  return `Pit ${pit}, choice ${met} of this move: take the seeds facing the pit where it ended, or pass and relay?`;
}
