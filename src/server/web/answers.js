// Under the retreat (RULES.md 3.4) the opponent answers a pass inside the mover's move.
// The engine's move carries the answers it expects of you; this settles it with the
// answers you give, asking the engine for the rest of its move where you answer
// otherwise. Pure: the page gives the asking and the completing.

// Where the first answer letter (`r` retreat, `s` stay) of `move` stands at or after
// character `from`, past the pit number; -1 if none does.
export function nextAnswerAt(move, from = 0) {
  const letters = move.match(/^\d*/)[0].length;
  for (let i = Math.max(from, letters); i < move.length; i++) {
    if (move[i] === "r" || move[i] === "s") return i;
  }
  return -1;
}

// The engine's move `plan` as the person answers it: `ask(prefix)` resolves to the
// person's letter at the pass ending `prefix` (or null when the game moved on),
// `isWhole(move)` says whether a move ends there, and `complete(half)` resolves to the
// engine's whole move from a move half made. Resolves to the move to play, or null.
export async function settleAnswers(plan, { ask, isWhole, complete }) {
  let at = nextAnswerAt(plan);
  while (at >= 0) {
    const prefix = plan.slice(0, at);
    const answer = await ask(prefix);
    if (answer === null) return null;
    if (answer !== plan[at]) {
      const given = prefix + answer;
      plan = isWhole(given) ? given : await complete(given);
      if (plan === null) return null;
    }
    at = nextAnswerAt(plan, at + 1);
  }
  return plan;
}
