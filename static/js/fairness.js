// The hand page's Verify (docs/fairness.md, scheme deck-sha256-v1): every card the page shows is
// hashed with its salt at the deck position the deal gave it, and the deck's leaves (52) must hash to the
// commitment the table published before the deal. Pure: SHA-256 is computed here, so the check
// works on any page, secure context or not, and in Node for the tests.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

// SHA-256 of an ASCII string (FIPS 180-4), as 64 lowercase hex digits.
export function sha256Hex(text) {
  const length = text.length;
  const blocks = Math.ceil((length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new Error("sha256Hex hashes ASCII text only");
    bytes[i] = code;
  }
  bytes[length] = 0x80;
  const bits = length * 8;
  const view = new DataView(bytes.buffer);
  view.setUint32(bytes.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(bytes.length - 4, bits >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block += 1) {
    for (let t = 0; t < 16; t += 1) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t += 1) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let t = 0; t < 64; t += 1) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  return Array.from(h, (word) => word.toString(16).padStart(8, "0")).join("");
}

export const leafOf = (position, card, salt) => sha256Hex(`${position}:${card}:${salt}`);

// Where the deal puts each card (RULES.md 3): two hole cards each, one at a time clockwise from the
// first seat dealt in left of the button, then burn, flop, burn, turn, burn, river.
export function dealPositions(dealtSeats, button) {
  const seats = [...dealtSeats].sort((x, y) => x - y);
  const count = seats.length;
  let first = seats.findIndex((seat) => seat > button);
  if (first < 0) first = 0;
  const positions = {};
  for (let step = 0; step < count; step += 1) {
    const seat = seats[(first + step) % count];
    positions[`${seat}:0`] = step;
    positions[`${seat}:1`] = count + step;
  }
  [1, 2, 3, 5, 7].forEach((offset, index) => { positions[`board:${index}`] = 2 * count + offset; });
  return positions;
}

// The check of a hand's reveal (the page's `fairness` JSON) against the cards the page shows:
// {ok, problems: [sentence], revealed: count of cards proven}.
export function verifyHand(fairness) {
  const problems = [];
  const cards = fairness.cards || [];
  if (cards.length === 0) problems.push("the reveal has no positions");
  const revealed = {};
  const leaves = cards.map((entry, index) => {
    if (entry.position !== index) problems.push(`entry ${index} names position ${entry.position}`);
    if (typeof entry.card === "string" && typeof entry.salt === "string") {
      revealed[index] = entry.card;
      return leafOf(index, entry.card, entry.salt);
    }
    if (typeof entry.leaf === "string") return entry.leaf;
    problems.push(`position ${index} has neither a card with its salt nor a leaf`);
    return "";
  });
  if (cards.length > 0 && sha256Hex(leaves.join("")) !== fairness.commitment) {
    problems.push("the revealed cards and hidden leaves do not hash to the commitment made before the deal");
  }
  const where = dealPositions(fairness.dealt || [], fairness.button);
  const expected = [];
  (fairness.board || []).forEach((card, i) => expected.push([where[`board:${i}`], card]));
  for (const [seat, hole] of Object.entries(fairness.holes || {})) {
    hole.forEach((card, i) => expected.push([where[`${seat}:${i}`], card]));
  }
  for (const [position, card] of expected) {
    if (revealed[position] !== card) {
      problems.push(`${card} should be at deck position ${position}; the reveal has ${revealed[position] || "nothing"} there`);
    }
  }
  return { ok: problems.length === 0, problems, revealed: Object.keys(revealed).length };
}
