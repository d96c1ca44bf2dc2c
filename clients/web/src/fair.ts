/**
 * Checks a record's deals in the browser, from the record alone (docs/RECORDS.md, "Deals:
 * committed or seeded"): the committed scheme `calabresella-deal/1` (the secret hashes to the
 * commitment, hand 0's generator draws the first dealer, and every hand's cards are the ones
 * HMAC-SHA256 and ChaCha20 derive) and the seeded one (xoshiro256++ from the creator's seed).
 * A port of scripts/deal_reference.py; 64-bit words are BigInts. Nothing here touches the page.
 */
import { chacha20 } from "@noble/ciphers/chacha.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";

/** The committed scheme's name; its bytes are the tag of the commitment and the derivation. */
export const SCHEME = "calabresella-deal/1";
/** The `scheme` of a record dealt from its creator's seed. */
export const SEEDED = "seeded";

const TAG = new TextEncoder().encode(SCHEME);
const M32 = (1n << 32n) - 1n;
const M64 = (1n << 64n) - 1n;
const TWO64 = 1n << 64n;
const ZERO_NONCE = new Uint8Array(12);
/** The most seats a game has (the first dealer's draw is below this many). */
const MAX_SEATS = 5;

// ---------------------------------------------------------------------------------------------
// Bytes.

/** Lower-case hex digits of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** The bytes of an even number of hex digits (either case), or undefined. */
export function fromHex(s: string): Uint8Array | undefined {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) return undefined;
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u32be(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}

function u64be(n: number): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
}

/** SHA-256(tag || secret): what a committed table publishes at its creation. */
export function commitmentOf(secret: Uint8Array): string {
  return toHex(sha256(concat([TAG, secret])));
}

/**
 * Hand `hand`'s generator key: HMAC-SHA256(secret, tag || 0x00 || u32 len || context ||
 * u32 seats || (u32 len || contribution)* || u64 hand), integers big-endian.
 */
export function handKey(
  secret: Uint8Array,
  context: string,
  contributions: readonly Uint8Array[],
  hand: number,
): Uint8Array {
  const ctx = new TextEncoder().encode(context);
  const parts = [TAG, new Uint8Array([0]), u32be(ctx.length), ctx];
  parts.push(u32be(contributions.length));
  for (const c of contributions) parts.push(u32be(c.length), c);
  parts.push(u64be(hand));
  return hmac(sha256, secret, concat(parts));
}

// ---------------------------------------------------------------------------------------------
// The generators: 64-bit words.

/** A source of 64-bit words. */
interface Words {
  next(): bigint;
}

/** The ChaCha20 keystream of `key` (zero nonce, block counter from 0), as little-endian words. */
class ChaChaWords implements Words {
  #block = 0;
  #buf = new Uint8Array(0);
  #at = 0;
  constructor(private readonly key: Uint8Array) {}
  next(): bigint {
    if (this.#at >= this.#buf.length) {
      this.#buf = chacha20(
        this.key,
        ZERO_NONCE,
        new Uint8Array(64),
        undefined,
        this.#block++,
      );
      this.#at = 0;
    }
    const v = new DataView(
      this.#buf.buffer,
      this.#buf.byteOffset + this.#at,
      8,
    ).getBigUint64(0, true);
    this.#at += 8;
    return v;
  }
}

/** xoshiro256++ seeded through SplitMix64, as `Xoshiro256PlusPlus::seed_from_u64`. */
class Xoshiro implements Words {
  readonly #s: bigint[] = [];
  constructor(seed: bigint) {
    let st = seed & M64;
    for (let i = 0; i < 4; i++) {
      st = (st + 0x9e3779b97f4a7c15n) & M64;
      let z = st;
      z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
      z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
      this.#s.push(z ^ (z >> 31n));
    }
  }
  next(): bigint {
    const s = this.#s as [bigint, bigint, bigint, bigint];
    const rotl = (x: bigint, k: bigint) => ((x << k) | (x >> (64n - k))) & M64;
    const result = (rotl((s[0] + s[3]) & M64, 23n) + s[0]) & M64;
    const t = (s[1] << 17n) & M64;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45n);
    return result;
  }
}

/** The first dealer's draw: Lemire's draw below `n` on the low half, then the high half. */
function below(words: Words, n: number): number {
  let spare: bigint | undefined;
  const half = (): bigint => {
    if (spare !== undefined) {
      const v = spare;
      spare = undefined;
      return v;
    }
    const v = words.next();
    spare = v >> 32n;
    return v & M32;
  };
  const bn = BigInt(Math.max(n, 1));
  let m = half() * bn;
  if ((m & M32) < bn) {
    const threshold = ((1n << 32n) - bn) % bn;
    while ((m & M32) < threshold) m = half() * bn;
  }
  // The spare half is dropped: every shuffle starts on a fresh word.
  return Number(m >> 32n);
}

// ---------------------------------------------------------------------------------------------
// The shuffle and the deal.

const CAP = 1n << 48n;
const MAX_BATCH = 15;

/** The batch starting at bound `i`: bounds `i` down to `end + 1`, and their product. */
function batch(i: number): [number, bigint] {
  let product = BigInt(i);
  let end = i - 1;
  while (end > 1 && i - end < MAX_BATCH) {
    const p = product * BigInt(end);
    if (p > CAP) break;
    product = p;
    end--;
  }
  return [end, product];
}

/** Fisher–Yates from the top in batches, stopped once positions `keep..` are drawn. */
function shuffleAbove(words: Words, items: number[], keep: number): void {
  let i = items.length;
  const stop = Math.max(keep, 1);
  while (i > stop) {
    let [end, product] = batch(i);
    if (end < stop) {
      end = stop;
      product = 1n;
      for (let b = end + 1; b <= i; b++) product *= BigInt(b);
    }
    let picks: number[];
    for (;;) {
      let r = words.next();
      picks = [];
      for (let bound = i; bound > end; bound--) {
        const m = r * BigInt(bound);
        picks.push(Number(m >> 64n));
        r = m & M64;
      }
      if (r >= product || r >= (TWO64 - product) % product) break;
    }
    picks.forEach((j, k) => {
      const top = i - k - 1;
      const x = items[top]!;
      items[top] = items[j]!;
      items[j] = x;
    });
    i = end;
  }
}

/** The games whose deals this knows. */
export type GameName =
  | "calabresella"
  | "tressette"
  | "tressette-in-due"
  | "tressette-chiamata"
  | "briscola-chiamata";

const GAMES: readonly string[] = [
  "calabresella",
  "tressette",
  "tressette-in-due",
  "tressette-chiamata",
  "briscola-chiamata",
];

const RANKS_BY_POWER = "4567FCKA23";
const SUITS = "bcds";

/** Card `i` of the deck in index order (power, then suit), in the records' notation. */
function card(i: number): string {
  return RANKS_BY_POWER[i % 10]! + SUITS[Math.floor(i / 10)]!;
}

/** One hand's cards: each seat's (empty for an idle dealer), then the monte or the stock. */
export interface Dealt {
  hands: string[][];
  monte: string[];
  stock: string[];
}

/** The engine's seeded deal of one hand by `dealer`, from `words`. */
function dealFrom(
  words: Words,
  players: number,
  dealer: number,
  game: GameName,
): Dealt {
  const deck = Array.from({ length: 40 }, (_, i) => i);
  const block =
    game === "calabresella"
      ? 12
      : game === "tressette-chiamata" || game === "briscola-chiamata"
        ? Math.floor(40 / players)
        : 10;
  shuffleAbove(words, deck, block);
  const active = game === "calabresella" ? 3 : players;
  const hands: string[][] = Array.from({ length: players }, () => []);
  for (let b = 0; b < active; b++) {
    const seat = (dealer + 1 + b) % players;
    hands[seat] = deck.slice(block * b, block * b + block).map(card);
  }
  const rest = deck.slice(block * active).map(card);
  return game === "calabresella"
    ? { hands, monte: rest, stock: [] }
    : { hands, monte: [], stock: rest };
}

/**
 * Hand `hand` of the committed scheme by `dealer` (and, for hand 0, the first dealer its
 * generator draws), as `deal_reference.py --committed` prints it.
 */
export function committedDeal(
  secret: Uint8Array,
  context: string,
  contributions: readonly Uint8Array[],
  hand: number,
  players: number,
  dealer: number,
  game: GameName,
): Dealt & { drawnDealer?: number } {
  const words = new ChaChaWords(handKey(secret, context, contributions, hand));
  const drawn =
    hand === 0 ? below(words, Math.min(players, MAX_SEATS)) : undefined;
  const d = dealFrom(words, players, dealer, game);
  return drawn === undefined ? d : { ...d, drawnDealer: drawn };
}

/**
 * The deals of a match seeded with `seed`: hand 0's first dealer is drawn first (given or
 * not), then each hand in turn is dealt from the same generator by its dealer.
 */
export function seededDeals(
  seed: bigint,
  players: number,
  dealers: readonly number[],
  game: GameName,
): Dealt[] {
  const words = new Xoshiro(seed);
  below(words, Math.min(players, MAX_SEATS));
  return dealers.map((d) => dealFrom(words, players, d, game));
}

// ---------------------------------------------------------------------------------------------
// Checking a record.

/** What is wrong with a record's deals: the first mismatch found. */
export type Problem =
  /** A field of `meta.deals` (or the record) is missing or malformed. */
  | { kind: "field"; field: string }
  /** The scheme is not one this page knows. */
  | { kind: "scheme"; scheme: string }
  /** The secret does not hash to the commitment. */
  | { kind: "commitment"; commitment: string }
  /** The first dealer is not the one hand 0's generator draws. */
  | { kind: "firstDealer"; recorded: number; derived: number }
  /** A hand's deal is not the derived one: a seat's cards, the monte or the stock. */
  | {
      kind: "deal";
      hand: number;
      part: "seat" | "monte" | "stock";
      seat?: number;
    };

/** What the check of a record's deals found. */
export type DealsCheck =
  /** Committed, and every hand is the derived one. */
  | { status: "verified"; hands: number; commitment: string }
  /** Dealt from the creator's seed (re-derived when the seed is shown): not committed. */
  | { status: "seeded"; hands: number; seed: string | undefined }
  /** Committed, the match still in play: the secret is not revealed yet. */
  | { status: "pending"; commitment: string }
  /** Something does not check out. */
  | { status: "failed"; problem: Problem };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const isSeat = (v: unknown, players: number): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) < players;

const failed = (problem: Problem): DealsCheck => ({
  status: "failed",
  problem,
});

/** A recorded hand: its dealer and its cards. */
interface RecordedHand {
  dealer: number;
  dealt: Dealt;
}

function strings(v: unknown): string[] | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === "string")
    ? (v as string[])
    : undefined;
}

/** The record's hands, or the field that is malformed. */
function recordedHands(
  record: Json,
  players: number,
): RecordedHand[] | { field: string } {
  if (!Array.isArray(record.hands)) return { field: "hands" };
  const out: RecordedHand[] = [];
  for (const [k, h] of record.hands.entries()) {
    const field = `hands[${k}]`;
    if (!isObject(h) || !isSeat(h.dealer, players)) {
      return { field: `${field}.dealer` };
    }
    const deal = h.deal;
    if (!isObject(deal) || !Array.isArray(deal.hands)) {
      return { field: `${field}.deal` };
    }
    const hands = deal.hands.map(strings);
    if (hands.some((x) => x === undefined)) {
      return { field: `${field}.deal.hands` };
    }
    const monte = deal.monte === undefined ? [] : strings(deal.monte);
    const stock = deal.stock === undefined ? [] : strings(deal.stock);
    if (!monte) return { field: `${field}.deal.monte` };
    if (!stock) return { field: `${field}.deal.stock` };
    out.push({
      dealer: h.dealer,
      dealt: { hands: hands as string[][], monte, stock },
    });
  }
  return out;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The first difference between a recorded and a derived deal of hand `hand`. */
function compare(
  hand: number,
  recorded: Dealt,
  derived: Dealt,
  players: number,
): Problem | undefined {
  for (let s = 0; s < players; s++) {
    if (!sameSet(recorded.hands[s] ?? [], derived.hands[s] ?? [])) {
      return { kind: "deal", hand, part: "seat", seat: s };
    }
  }
  if (!sameList(recorded.monte, derived.monte)) {
    return { kind: "deal", hand, part: "monte" };
  }
  if (!sameList(recorded.stock, derived.stock)) {
    return { kind: "deal", hand, part: "stock" };
  }
  return undefined;
}

/** A seed written as a number or, to survive JavaScript, as a string of digits. */
function seedOf(v: unknown): bigint | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) {
    return BigInt(v);
  }
  if (typeof v === "string" && /^\d{1,20}$/.test(v)) {
    const b = BigInt(v);
    return b <= M64 ? b : undefined;
  }
  return undefined;
}

/**
 * Checks the deals of `record` (a parsed `calabresella-record/1`): what its `meta.deals` says
 * (or a legacy `meta.seed`), re-derived hand by hand. The first mismatch fails the check.
 */
export function checkDeals(record: unknown): DealsCheck {
  if (!isObject(record)) return failed({ kind: "field", field: "record" });
  const game = record.game;
  if (typeof game !== "string" || !GAMES.includes(game)) {
    return failed({ kind: "field", field: "game" });
  }
  const players = record.players;
  if (!Number.isInteger(players) || (players as number) < 2) {
    return failed({ kind: "field", field: "players" });
  }
  const n = players as number;
  const meta = isObject(record.meta) ? record.meta : {};
  const deals = meta.deals;
  if (!isObject(deals)) {
    // Records written before the committed scheme name only their seed.
    if (meta.seed !== undefined) return seeded(record, n, game, meta.seed);
    return failed({ kind: "field", field: "meta.deals" });
  }
  if (deals.scheme === SEEDED) return seeded(record, n, game, deals.seed);
  if (deals.scheme !== SCHEME) {
    return typeof deals.scheme === "string"
      ? failed({ kind: "scheme", scheme: deals.scheme })
      : failed({ kind: "field", field: "meta.deals.scheme" });
  }

  const commitment =
    typeof deals.commitment === "string"
      ? fromHex(deals.commitment)
      : undefined;
  if (commitment?.length !== 32) {
    return failed({ kind: "field", field: "meta.deals.commitment" });
  }
  const quoted = toHex(commitment);
  if (deals.secret === null || deals.secret === undefined) {
    return { status: "pending", commitment: quoted };
  }
  const secret =
    typeof deals.secret === "string" ? fromHex(deals.secret) : undefined;
  if (secret?.length !== 32) {
    return failed({ kind: "field", field: "meta.deals.secret" });
  }
  if (commitmentOf(secret) !== quoted) {
    return failed({ kind: "commitment", commitment: quoted });
  }
  if (typeof deals.context !== "string") {
    return failed({ kind: "field", field: "meta.deals.context" });
  }
  const context = deals.context;
  const raw = deals.contributions;
  if (!Array.isArray(raw) || raw.length !== n) {
    return failed({ kind: "field", field: "meta.deals.contributions" });
  }
  const contributions: Uint8Array[] = [];
  for (const [i, c] of raw.entries()) {
    const b = typeof c === "string" ? fromHex(c) : undefined;
    if (!b || b.length > 64) {
      return failed({ kind: "field", field: `meta.deals.contributions[${i}]` });
    }
    contributions.push(b);
  }
  const given = deals.first_dealer;
  if (given !== undefined && given !== "given" && given !== "drawn") {
    return failed({ kind: "field", field: "meta.deals.first_dealer" });
  }
  if (!isSeat(record.first_dealer, n)) {
    return failed({ kind: "field", field: "first_dealer" });
  }
  const hands = recordedHands(record, n);
  if (!Array.isArray(hands)) return failed({ kind: "field", ...hands });
  if (hands.length > 0 && hands[0]!.dealer !== record.first_dealer) {
    return failed({ kind: "field", field: "hands[0].dealer" });
  }
  for (const [k, h] of hands.entries()) {
    const derived = committedDeal(
      secret,
      context,
      contributions,
      k,
      n,
      h.dealer,
      game as GameName,
    );
    if (
      k === 0 &&
      given !== "given" &&
      derived.drawnDealer !== record.first_dealer
    ) {
      return failed({
        kind: "firstDealer",
        recorded: record.first_dealer,
        derived: derived.drawnDealer ?? -1,
      });
    }
    const p = compare(k, h.dealt, derived, n);
    if (p) return failed(p);
  }
  return { status: "verified", hands: hands.length, commitment: quoted };
}

/** A seeded record: re-derived from its seed once the seed is shown. */
function seeded(
  record: Json,
  players: number,
  game: string,
  rawSeed: unknown,
): DealsCheck {
  const hands = recordedHands(record, players);
  if (!Array.isArray(hands)) return failed({ kind: "field", ...hands });
  // The seed stays hidden while the match is played.
  if (rawSeed === null || rawSeed === undefined) {
    return { status: "seeded", hands: 0, seed: undefined };
  }
  const seed = seedOf(rawSeed);
  if (seed === undefined) return failed({ kind: "field", field: "seed" });
  const derived = seededDeals(
    seed,
    players,
    hands.map((h) => h.dealer),
    game as GameName,
  );
  for (const [k, h] of hands.entries()) {
    const p = compare(k, h.dealt, derived[k]!, players);
    if (p) return failed(p);
  }
  return { status: "seeded", hands: hands.length, seed: seed.toString() };
}

/** The check as one line in English, worded as `calabresella verify` words it. */
export function summary(c: DealsCheck): string {
  switch (c.status) {
    case "verified":
      return `deals verified: ${c.hands} hand${c.hands === 1 ? "" : "s"} of ${SCHEME}, commitment ${c.commitment}`;
    case "seeded":
      return "seeded by the creator: reproducible, not committed";
    case "pending":
      return "deals are verified when the match ends";
    case "failed":
      return problemText(c.problem);
  }
}

/** A problem in English. */
export function problemText(p: Problem): string {
  switch (p.kind) {
    case "field":
      return `the record's ${p.field} is missing or malformed`;
    case "scheme":
      return `the deal scheme ${JSON.stringify(p.scheme)} is not one this page knows`;
    case "commitment":
      return `the secret does not match the commitment ${p.commitment}`;
    case "firstDealer":
      return `first dealer: the record says seat ${p.recorded}, the scheme draws seat ${p.derived}`;
    case "deal": {
      const what =
        p.part === "seat"
          ? `seat ${p.seat}'s cards`
          : p.part === "monte"
            ? "the monte"
            : "the stock";
      return `hand ${p.hand}: ${what} differs from the derived deal`;
    }
  }
}
