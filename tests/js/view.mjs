// A table view for the tests, built from snapshot-shaped data the way static/js/table-app.js
// answers the same questions (hand, lastHand, handSeat, nameOf).

export function viewOf({ table = null, you = null, switching = false, canSit = false, lastActions = {} } = {}) {
  const rows = () => (table && table.seats) || [];
  return {
    table,
    you,
    switching,
    canSit,
    lastActions,
    get hand() {
      return table ? table.hand : null;
    },
    get lastHand() {
      return table && !table.hand ? table.last_hand : null;
    },
    handSeat(number) {
      return rows().find((s) => s.number === number && s.occupied) || null;
    },
    nameOf(seat) {
      const row = rows().find((s) => s.number === seat);
      return row && row.occupied ? row.username : `Seat ${Number(seat) + 1}`;
    },
  };
}

/** An occupied seat row as table.seats has it; `fields` override the defaults. */
export function seatRow(number, username, fields = {}) {
  return {
    number, occupied: true, user_id: 100 + number, username, stack: 5000, in_hand: true, sitting_out: false,
    waiting_for_big_blind: false, disconnected: false, bet: 0, committed: 0, folded: false, all_in: false,
    protected: false, has_cards: true, state: "waiting", ...fields,
  };
}

export const emptySeat = (number) => ({ number, occupied: false });
