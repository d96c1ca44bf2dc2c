/**
 * The player's contribution to a table's committed deals (docs/RECORDS.md, "Deals: committed
 * or seeded"): random bytes sent with `JoinTable`, `Seek` and `Compete` that enter every
 * hand's key, so not even the server's operator could have chosen the deals. The client sends
 * {@link DEFAULT_ENTROPY_BYTES} fresh random bytes by default (the Web Crypto API, which Node 20
 * and every browser have as `globalThis.crypto`); a caller may pass its own (1 to
 * {@link MAX_ENTROPY_BYTES} bytes) or opt out with `false`.
 */
import { OptionsError } from "./errors.js";

/** `Table.deal_scheme` of a table whose deals are committed (docs/RECORDS.md). */
export const DEAL_SCHEME = "calabresella-deal/1";

/** `Table.deal_scheme` of a table its creator seeded: reproducible, not committed. */
export const SEEDED_SCHEME = "seeded";

/** How many random bytes the client contributes by default. */
export const DEFAULT_ENTROPY_BYTES = 32;

/** The most bytes the server takes (more is refused with INVALID_ARGUMENT, BAD_ENTROPY). */
export const MAX_ENTROPY_BYTES = 64;

/**
 * A contribution as a call takes it: absent (`undefined`) for
 * {@link DEFAULT_ENTROPY_BYTES} fresh random bytes, the caller's own bytes (1 to
 * {@link MAX_ENTROPY_BYTES}), or `false` to contribute none.
 */
export type EntropyInput = Uint8Array | false | undefined;

/** `n` random bytes from the platform's cryptographic generator. */
export function randomEntropy(n = DEFAULT_ENTROPY_BYTES): Uint8Array {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (!c || typeof c.getRandomValues !== "function") {
    throw new Error(
      "no cryptographic random generator (globalThis.crypto.getRandomValues): pass entropy yourself, or false",
    );
  }
  return c.getRandomValues(new Uint8Array(n));
}

/**
 * The bytes to send for `input` (see {@link EntropyInput}); an empty array for `false`.
 * Throws `OptionsError`, before any call, for bytes that are not a `Uint8Array` of 1 to
 * {@link MAX_ENTROPY_BYTES} bytes.
 */
export function entropyBytes(input: EntropyInput): Uint8Array {
  if (input === undefined) return randomEntropy();
  if (input === false) return new Uint8Array(0);
  if (!(input instanceof Uint8Array)) {
    throw new OptionsError(
      `entropy is a Uint8Array of 1 to ${MAX_ENTROPY_BYTES} bytes, or false for none, not ${typeof input}`,
    );
  }
  if (input.length < 1 || input.length > MAX_ENTROPY_BYTES) {
    throw new OptionsError(
      `entropy holds ${input.length} bytes: it must hold 1 to ${MAX_ENTROPY_BYTES} (or pass false to contribute none)`,
    );
  }
  return input;
}
