// What an `event` frame changes in the table the client holds (docs/protocol.md, "event"): the
// top-level keys it names are replaced whole; `seat_updates` replaces the seat entries it carries
// (by seat number); a private part without `balance` keeps the balance we have. Pure functions:
// holdem/realtime/delta.py does the same for the Python clients of the tests and the benchmarks.

/** The table after `changes` (a new object; `table` is left as it was). */
export function applyChanges(table, changes) {
  const { seat_updates: updates, ...replaced } = changes || {};
  const next = { ...(table || {}), ...replaced };
  if (Array.isArray(updates) && Array.isArray(next.seats)) {
    const seats = next.seats.slice();
    for (const seat of updates) seats[seat.number] = seat;
    next.seats = seats;
  }
  return next;
}

/** Our private part after a new one: mid-hand parts leave the unchanged balance out. */
export function applyYou(you, fresh) {
  if (fresh && !("balance" in fresh) && you && "balance" in you) return { ...fresh, balance: you.balance };
  return fresh;
}
