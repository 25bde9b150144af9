// Two players' clocks under a time control (base and increment in seconds), the
// mover's running; `now` gives the time in ms (Date.now on the page, a fake in tests).

export class Clocks {
  constructor(control, now = Date.now) {
    this.now = now;
    this.left = control ? { S: control.base, N: control.base } : null;
    this.inc = control ? control.inc : 0;
    this.running = null;
    this.since = 0;
    this.fallen = null;
    this.paused = null; // the mover, while the other side answers inside its move
  }

  // Whether there are clocks at all (a time per move has none).
  get on() { return this.left !== null; }

  // Seconds `side` has left now.
  leftOf(side) {
    return this.left[side] - (this.running === side ? (this.now() - this.since) / 1000 : 0);
  }

  // Starts the clock of the side to move (once per position).
  start(side) {
    if (!this.on || this.fallen || this.running === side) return;
    this.running = side;
    this.since = this.now();
  }

  // Stops `side`'s clock after its move, adding the increment; false if its flag fell.
  charge(side) {
    if (!this.on || this.running !== side) return !this.fallen;
    this.left[side] = this.leftOf(side);
    this.running = null;
    if (this.left[side] <= 0) { this.fall(side); return false; }
    this.left[side] += this.inc;
    return true;
  }

  // Under the retreat, `side` answers inside the other side's move: the mover's clock
  // stops and `side`'s runs.
  startAnswer(side) {
    if (!this.on || this.fallen || this.running === side) return;
    const mover = this.running;
    if (mover) this.left[mover] = this.leftOf(mover);
    this.paused = mover;
    this.running = side;
    this.since = this.now();
  }

  // `side` answered: its time comes off its clock, with no increment, and the mover's
  // clock runs again; false if `side`'s flag fell.
  endAnswer(side) {
    if (!this.on || this.running !== side) return !this.fallen;
    this.left[side] = this.leftOf(side);
    if (this.left[side] <= 0) { this.fall(side); return false; }
    this.running = this.paused;
    this.paused = null;
    this.since = this.now();
    return true;
  }

  // The running side, if its time is up.
  expired() {
    return this.running && this.leftOf(this.running) <= 0 ? this.running : null;
  }

  // `side` lost on time.
  fall(side) {
    this.left[side] = 0;
    this.running = null;
    this.paused = null;
    this.fallen = side;
  }
}
