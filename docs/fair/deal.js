// The deal of chinese_poker.fair (docs/FAIR.md) in Node.js, with its crypto module only.
// Reads a JSON list of vectors on stdin; prints the list of their deals (seats of card codes).
const crypto = require("crypto");

function deal(serverSeed, clientSeeds, nonce, extraSuits, jokers, players) {
  const parts = [Buffer.from("chinese-poker/deal/v1"), Buffer.from([clientSeeds.length])];
  for (const seed of clientSeeds) parts.push(Buffer.from([seed.length]), seed);
  const nonceBytes = Buffer.alloc(8);
  nonceBytes.writeBigUInt64BE(BigInt(nonce));
  const prefix = Buffer.concat([...parts, nonceBytes]);
  let counter = 0, block = Buffer.alloc(0);
  function word() { // the next big-endian 32-bit word of the HMAC-SHA256 stream
    if (block.length === 0) {
      const c = Buffer.alloc(4);
      c.writeUInt32BE(counter++);
      block = crypto.createHmac("sha256", serverSeed).update(Buffer.concat([prefix, c])).digest();
    }
    const x = block.readUInt32BE(0);
    block = block.subarray(4);
    return x;
  }
  const cards = [];
  for (let c = 0; c < 52; c++) cards.push(c);
  for (let c = 0; c < 52; c++) if (extraSuits.includes("cdhs"[c % 4])) cards.push(c);
  for (let k = 0; k < jokers; k++) cards.push(52 + k);
  const n = cards.length;
  for (let i = 0; i < Math.min(13 * players, n - 1); i++) {
    const m = n - i, limit = 2 ** 32 - (2 ** 32 % m); // words at or past limit are rejected
    let x = word();
    while (x >= limit) x = word();
    const j = i + (x % m);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return Array.from({ length: players }, (_, s) => cards.slice(13 * s, 13 * s + 13));
}

const hex = (text) => Buffer.from(text, "hex");
const vectors = JSON.parse(require("fs").readFileSync(0, "utf8"));
const deals = vectors.map((v) =>
  deal(hex(v.server_seed), v.client_seeds.map(hex), v.nonce, v.extra_suits, v.jokers, v.players));
console.log(JSON.stringify(deals));
