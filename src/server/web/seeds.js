// A pit's seeds as the server's SVG draws them (`show --svg`): the page redraws pits
// with them while a move is animated. The drawings are the server's
// (`/api/variants` `seeds`: `drawn`, the markup of each count drawn as dots, and
// `many`, the markup of a larger count with `{n}` for it), so the page does not lay
// seeds out itself.

export class SeedDrawings {
  constructor(seeds) {
    this.drawn = seeds.drawn;
    this.many = seeds.many;
  }

  // The inside of a pit's `seeds` group for `n` seeds.
  markup(n) {
    return n < this.drawn.length ? this.drawn[n] : this.many.replace("{n}", String(n));
  }
}
