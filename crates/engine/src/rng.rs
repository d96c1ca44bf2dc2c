//! The engine's random-number algorithms, fixed so that a seed or a key means the same thing on
//! every platform and in every release (golden tests pin them).
//!
//! **Two sources of 64-bit outputs.** A seed ([`GameRng::from_seed`], for simulation, tests and
//! bots): `Xoshiro256PlusPlus::seed_from_u64(seed)` (the state is filled by SplitMix64, as in the
//! reference implementation). A 256-bit key ([`GameRng::from_key`], for the committed deals of
//! [`crate::fair`]): the ChaCha20 keystream (20 rounds, RFC 8439's block function) of that key
//! with a zero nonce and the block counter from 0, read as consecutive 8-byte little-endian
//! words; this is `rand_chacha`'s `ChaCha20Rng::from_seed(key)`, and any RFC 8439 ChaCha20 with
//! a 12-byte zero nonce gives the same bytes. Everything below is the same for both sources.
//!
//! **Draws.** The 64-bit outputs are split into a stream of 32-bit
//! values: the low half of an output first, then its high half. A number below `n` is drawn with
//! Lemire's nearly divisionless method on the next 32-bit value `x`: `m = x * n` as a 64-bit
//! product; while the low 32 bits of `m` are below `(2^32 - n) mod n`, `m` is drawn again from the
//! next value; the result is the high 32 bits of `m`.
//!
//! A shuffle is Fisher–Yates from the top: for `i` from `len - 1` down to `1`, swap item `i` with
//! item `j_i`, where `j_i < i + 1` is uniform. The `j_i` are drawn in batches with Lemire's batched
//! ranged integers (Brackett-Rozinsky and Lemire, 2024): a batch takes consecutive bounds
//! `b_1 = i + 1, b_2 = i, ...` while their product `P` stays at most 2^48 (a batch always takes
//! at least one bound, and never more than 15), so that the exact rejection test below is rarely
//! needed; it draws one 64-bit output
//! `r` (with no 32-bit half pending: the spare half, if any, is dropped), and for each bound in
//! turn takes the high 64 bits of the 128-bit product `r * b_k` as `j` and keeps the low 64 bits
//! as the next `r`. If the final `r` is below `(2^64 - P) mod P`, the whole batch is drawn again.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The random source used for deals and for the built-in bots: seeded (fast, reproducible) or
/// keyed (a cryptographic generator whose outputs reveal nothing of its key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRng {
    inner: Source,
    /// The high half of the last 64-bit output, not yet used.
    spare: Option<u32>,
}

/// Where the 64-bit outputs come from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    Seed(Xoshiro256PlusPlus),
    // Boxed: the ChaCha state and its block buffer are large, and keyed generators are made
    // once per hand, while seeded ones run in every playout.
    Key(Box<ChaCha20Rng>),
}

impl Source {
    #[inline]
    fn next_u64(&mut self) -> u64 {
        match self {
            Source::Seed(x) => x.next_u64(),
            Source::Key(c) => c.next_u64(),
        }
    }
}

impl GameRng {
    /// The generator for `seed` (see the module docs for the exact algorithm).
    pub fn from_seed(seed: u64) -> GameRng {
        GameRng {
            inner: Source::Seed(Xoshiro256PlusPlus::seed_from_u64(seed)),
            spare: None,
        }
    }

    /// The keyed generator: the ChaCha20 keystream of `key` (see the module docs).
    pub fn from_key(key: [u8; 32]) -> GameRng {
        GameRng {
            inner: Source::Key(Box::new(ChaCha20Rng::from_seed(key))),
            spare: None,
        }
    }

    /// The next 32-bit value of the stream (low half of an output, then its high half).
    #[inline]
    pub fn next_half(&mut self) -> u32 {
        match self.spare.take() {
            Some(x) => x,
            None => {
                let v = self.inner.next_u64();
                self.spare = Some((v >> 32) as u32);
                v as u32
            }
        }
    }

    /// A uniform number in `0..n`; `n` of 0 is treated as 1.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        let mut m = u64::from(self.next_half()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_half()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Shuffles `items` in place with Fisher–Yates from the top, indices drawn in batches (see
    /// the module docs).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.shuffle_above(items, 0);
    }

    /// Fisher–Yates from the top that stops once positions `keep..` are drawn: they hold a
    /// uniformly random sequence, and positions `..keep` the remaining items (as a set).
    /// `shuffle` is `shuffle_above(items, 0)`; a stop at `keep` skips the draws for bounds
    /// `keep` and below (the batches are planned as usual, then cut at `keep`).
    pub fn shuffle_above<T>(&mut self, items: &mut [T], keep: usize) {
        self.spare = None;
        let mut i = items.len();
        let stop = keep.max(1);
        while i > stop {
            let (mut end, mut product) = if i <= DECK { DECK_PLAN[i] } else { batch(i) };
            if end < stop {
                // Cut the batch at the stop: the product of the bounds that remain.
                end = stop;
                product = (end + 1..=i).fold(1u64, |p, b| p.saturating_mul(b as u64));
            }
            self.shuffle_batch(items, i, end, product);
            i = end;
        }
    }

    /// Draws one batch of indices (bounds `i` down to `end + 1`) and applies its swaps. The
    /// swaps are made as the indices are drawn and undone in the rare case the batch is redrawn.
    #[inline(always)]
    fn shuffle_batch<T>(&mut self, items: &mut [T], i: usize, end: usize, product: u64) {
        let mut picks = [0usize; MAX_BATCH];
        loop {
            let mut r = self.inner.next_u64();
            let mut bound = i;
            let mut k = 0;
            while bound > end {
                let m = u128::from(r) * bound as u128;
                let j = (m >> 64) as usize;
                r = m as u64;
                items.swap(bound - 1, j);
                picks[k & (MAX_BATCH - 1)] = j;
                bound -= 1;
                k += 1;
            }
            if r >= product || r >= product.wrapping_neg() % product {
                return;
            }
            // Rejected: undo the swaps, last first, and draw the batch again.
            while bound < i {
                bound += 1;
                k -= 1;
                items.swap(bound - 1, picks[k & (MAX_BATCH - 1)]);
            }
        }
    }
}

/// Largest product of bounds in one batch.
const CAP: u64 = 1 << 48;
/// Most bounds in one batch. Under the 2^48 cap a batch never holds more than 15 bounds
/// (16! < 2^48 < 17!), so this limit never binds; it sizes the scratch array.
const MAX_BATCH: usize = 16;
/// Slices up to this length use the precomputed plan.
const DECK: usize = 40;

/// The batch that starts at bound `i`: `(end, product)`, covering bounds `i` down to `end + 1`.
const fn batch(i: usize) -> (usize, u64) {
    let mut product = i as u64;
    let mut end = i - 1;
    while end > 1 && i - end < MAX_BATCH - 1 {
        match product.checked_mul(end as u64) {
            Some(p) if p <= CAP => product = p,
            _ => break,
        }
        end -= 1;
    }
    (end, product)
}

/// [`batch`] for every start up to [`DECK`], computed at compile time.
static DECK_PLAN: [(usize, u64); DECK + 1] = {
    let mut plan = [(0usize, 1u64); DECK + 1];
    let mut i = 2;
    while i <= DECK {
        plan[i] = batch(i);
        i += 1;
    }
    plan
};

impl RngCore for GameRng {
    fn next_u32(&mut self) -> u32 {
        self.next_half()
    }
    fn next_u64(&mut self) -> u64 {
        let lo = u64::from(self.next_half());
        lo | (u64::from(self.next_half()) << 32)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(4) {
            let v = self.next_half().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_at_most_fifteen_bounds_so_the_scratch_limit_never_binds() {
        for i in 2..5000 {
            let (end, product) = batch(i);
            assert!(i - end <= 15 && end < i, "batch({i}) = {end}");
            assert!(product <= CAP || i - end == 1);
        }
    }

    #[test]
    fn below_is_in_range_and_shuffles_are_permutations() {
        let mut r = GameRng::from_seed(9);
        for n in 1..200u32 {
            assert!(r.below(n) < n);
        }
        for len in 0..120usize {
            let mut v: Vec<usize> = (0..len).collect();
            r.shuffle(&mut v);
            v.sort_unstable();
            assert_eq!(v, (0..len).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_keyed_generator_is_the_rfc_8439_chacha20_keystream_with_a_zero_nonce() {
        // RFC 8439 appendix A.1, test vector #1: key 0, nonce 0, block counter 0; its keystream
        // opens 76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28.
        let mut r = GameRng::from_key([0; 32]);
        let first = [r.inner.next_u64(), r.inner.next_u64()];
        assert_eq!(
            first,
            [
                u64::from_le_bytes([0x76, 0xb8, 0xe0, 0xad, 0xa0, 0xf1, 0x3d, 0x90]),
                u64::from_le_bytes([0x40, 0x5d, 0x6a, 0xe5, 0x53, 0x86, 0xbd, 0x28]),
            ]
        );
    }
}
