// Under the retreat (RULES.md 3.4) the opponent answers a pass inside the mover's move.
// The engine's move comes with the answers it expects of you (`answers`: each with the
// move before it, as the engine lists them); this settles the move with the answers you
// give, asking the engine for the rest of its move where you answer otherwise. Pure: the
// page gives the asking and the completing, and no rule is read here.

// The engine's move `plan`, whose answers are `answers` ([{before, expected}]), as the
// person answers it: `ask(before)` resolves to the person's letter at the pass ending
// `before` (or null when the game moved on), `isWhole(move)` says whether a move ends
// there, and `complete(half)` resolves to the engine's whole move from a move half made,
// with its answers ({move, answers}). Resolves to the move to play, or null.
export async function settleAnswers(plan, answers, { ask, isWhole, complete }) {
  let pending = answers;
  while (pending.length > 0) {
    const { before, expected } = pending[0];
    const answer = await ask(before);
    if (answer === null) return null;
    pending = pending.slice(1);
    if (answer === expected) continue;
    const given = before + answer;
    if (isWhole(given)) return given;
    const completed = await complete(given);
    if (completed === null) return null;
    plan = completed.move;
    // The answers still to come: those past the one just given.
    pending = completed.answers.filter((a) => a.before.length > before.length);
  }
  return plan;
}
