//! [`Assigner`]: deals unseen cards into places of known sizes, uniformly among the deals that
//! respect what is known of each card (the places it may be in), by exact counting.
//!
//! Cards that may go to the same places are interchangeable for counting, so the count runs over
//! classes of cards, not over cards: the number of ways to finish from class `c` with capacities
//! `caps` is the sum, over each split `d` of the class among its places, of the multinomial
//! `m! / prod(d_b!)` times the ways to finish from class `c + 1` with `caps - d`. Sampling walks
//! the same sums, drawing each class's split in proportion to its completions, then which of the
//! class's cards go where uniformly. The table is built once per position and reused for every
//! sample.

use std::collections::HashMap;

use crate::cardset::CardSet;
use crate::rng::GameRng;

/// The most places a layout may have.
pub const MAX_PLACES: usize = 8;

/// Unseen cards and the places they go: each place's size, and for each card the places it may
/// be in (a bit mask over places).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// How many unseen cards each place holds.
    pub sizes: Vec<u8>,
    /// Each unseen card's allowed places.
    pub allowed: Vec<(crate::card::Card, u8)>,
}

/// Why no deal fits a layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// More places than [`MAX_PLACES`].
    #[error("too many places ({0}; at most {MAX_PLACES})")]
    TooManyPlaces(usize),
    /// The sizes do not add up to the number of cards.
    #[error("the places hold {places} cards but {cards} are unseen")]
    Sizes {
        /// The sum of the sizes.
        places: usize,
        /// The unseen cards.
        cards: usize,
    },
    /// Every way of dealing breaks a constraint.
    #[error("no deal is consistent with what the seat knows")]
    Unsatisfiable,
}

/// A layout with its counting table, ready to sample.
#[derive(Debug, Clone)]
pub struct Assigner {
    sizes: Vec<u8>,
    /// Classes: the places they may go (mask) and their cards.
    classes: Vec<(u8, Vec<crate::card::Card>)>,
    /// Completions from `(class, caps)`, caps packed 6 bits per place.
    memo: HashMap<(u8, u64), f64>,
    total: f64,
}

fn pack(caps: &[u8]) -> u64 {
    caps.iter()
        .enumerate()
        .fold(0, |k, (i, &c)| k | (u64::from(c) << (6 * i)))
}

fn factorials() -> [f64; 41] {
    let mut f = [1.0; 41];
    for i in 1..41 {
        f[i] = f[i - 1] * i as f64;
    }
    f
}

impl Assigner {
    /// Builds the counting table; errors when no deal fits.
    pub fn new(layout: &Layout) -> Result<Assigner, LayoutError> {
        let places = layout.sizes.len();
        if places > MAX_PLACES {
            return Err(LayoutError::TooManyPlaces(places));
        }
        let sum: usize = layout.sizes.iter().map(|&s| usize::from(s)).sum();
        if sum != layout.allowed.len() {
            return Err(LayoutError::Sizes {
                places: sum,
                cards: layout.allowed.len(),
            });
        }
        let mut classes: Vec<(u8, Vec<crate::card::Card>)> = Vec::new();
        for &(card, mask) in &layout.allowed {
            let mask = mask & ((1u16 << places) - 1) as u8;
            match classes.iter_mut().find(|(m, _)| *m == mask) {
                Some((_, cards)) => cards.push(card),
                None => classes.push((mask, vec![card])),
            }
        }
        // Most constrained classes first: their splits are few, which keeps the table small.
        classes.sort_by_key(|(m, cards)| (m.count_ones(), cards.len()));
        let mut a = Assigner {
            sizes: layout.sizes.clone(),
            classes,
            memo: HashMap::new(),
            total: 0.0,
        };
        let fact = factorials();
        let caps = a.sizes.clone();
        a.total = a.count(0, &caps, &fact);
        if a.total <= 0.0 {
            return Err(LayoutError::Unsatisfiable);
        }
        Ok(a)
    }

    /// How many deals fit the layout (as a float: it may exceed `u64`).
    pub fn count_deals(&self) -> f64 {
        self.total
    }

    fn count(&mut self, c: usize, caps: &[u8], fact: &[f64; 41]) -> f64 {
        if c == self.classes.len() {
            return if caps.iter().all(|&x| x == 0) {
                1.0
            } else {
                0.0
            };
        }
        let key = (c as u8, pack(caps));
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let (mask, n) = (self.classes[c].0, self.classes[c].1.len());
        let mut total = 0.0;
        let mut split = vec![0u8; caps.len()];
        self.each_split(
            mask,
            n,
            caps,
            0,
            &mut split,
            &mut |me, d| {
                let rest: Vec<u8> = caps.iter().zip(d).map(|(a, b)| a - b).collect();
                let ways = fact[n] / d.iter().map(|&k| fact[usize::from(k)]).product::<f64>();
                ways * me.count(c + 1, &rest, fact)
            },
            &mut total,
        );
        self.memo.insert(key, total);
        total
    }

    /// Calls `f` for every split of `n` cards among the places in `mask` within `caps`, adding
    /// up its results into `acc`.
    #[allow(clippy::too_many_arguments)]
    fn each_split(
        &mut self,
        mask: u8,
        n: usize,
        caps: &[u8],
        place: usize,
        split: &mut Vec<u8>,
        f: &mut dyn FnMut(&mut Assigner, &[u8]) -> f64,
        acc: &mut f64,
    ) {
        if place == caps.len() {
            if n == 0 {
                *acc += f(self, split);
            }
            return;
        }
        if mask & (1 << place) == 0 {
            split[place] = 0;
            self.each_split(mask, n, caps, place + 1, split, f, acc);
            return;
        }
        let most = n.min(usize::from(caps[place]));
        for k in 0..=most {
            split[place] = k as u8;
            self.each_split(mask, n - k, caps, place + 1, split, f, acc);
        }
        split[place] = 0;
    }

    /// One deal, uniformly among those that fit: the cards of each place.
    pub fn sample(&self, rng: &mut GameRng) -> Vec<CardSet> {
        let fact = factorials();
        let mut caps = self.sizes.clone();
        let mut out = vec![CardSet::EMPTY; caps.len()];
        for (c, (mask, cards)) in self.classes.iter().enumerate() {
            let n = cards.len();
            // Every split with its weight, then one drawn in proportion.
            let mut splits: Vec<(Vec<u8>, f64)> = Vec::new();
            let mut split = vec![0u8; caps.len()];
            collect_splits(*mask, n, &caps, 0, &mut split, &mut splits);
            let weights: Vec<f64> = splits
                .iter()
                .map(|(d, _)| {
                    let rest: Vec<u8> = caps.iter().zip(d).map(|(a, b)| a - b).collect();
                    let after = if c + 1 == self.classes.len() {
                        f64::from(u8::from(rest.iter().all(|&x| x == 0)))
                    } else {
                        self.memo
                            .get(&((c + 1) as u8, pack(&rest)))
                            .copied()
                            .unwrap_or(0.0)
                    };
                    fact[n] / d.iter().map(|&k| fact[usize::from(k)]).product::<f64>() * after
                })
                .collect();
            let total: f64 = weights.iter().sum();
            let mut x = unit(rng) * total;
            let mut pick = weights.len() - 1;
            for (i, w) in weights.iter().enumerate() {
                if *w > 0.0 {
                    pick = i;
                    if x < *w {
                        break;
                    }
                    x -= w;
                }
            }
            let d = &splits[pick].0;
            let mut order = cards.clone();
            rng.shuffle(&mut order);
            let mut it = order.into_iter();
            for (p, &k) in d.iter().enumerate() {
                for card in it.by_ref().take(usize::from(k)) {
                    out[p].insert(card);
                }
                caps[p] -= k;
            }
        }
        out
    }
}

fn collect_splits(
    mask: u8,
    n: usize,
    caps: &[u8],
    place: usize,
    split: &mut Vec<u8>,
    out: &mut Vec<(Vec<u8>, f64)>,
) {
    if place == caps.len() {
        if n == 0 {
            out.push((split.clone(), 0.0));
        }
        return;
    }
    if mask & (1 << place) == 0 {
        split[place] = 0;
        collect_splits(mask, n, caps, place + 1, split, out);
        return;
    }
    for k in 0..=n.min(usize::from(caps[place])) {
        split[place] = k as u8;
        collect_splits(mask, n - k, caps, place + 1, split, out);
    }
    split[place] = 0;
}

/// A uniform float in `[0, 1)` from 53 random bits.
fn unit(rng: &mut GameRng) -> f64 {
    let hi = u64::from(rng.next_half()) << 21;
    let lo = u64::from(rng.next_half()) >> 11;
    ((hi | lo) as f64) / (1u64 << 53) as f64
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // In tests a panic is the failure report.
mod tests {
    use super::*;
    use crate::card::Card;

    fn cards(n: usize) -> Vec<Card> {
        Card::all().take(n).collect()
    }

    /// Every assignment by brute force: the count, and each one's key.
    fn brute(layout: &Layout) -> Vec<Vec<u8>> {
        let n = layout.allowed.len();
        let mut out = Vec::new();
        let mut cur = vec![0u8; n];
        fn go(i: usize, l: &Layout, caps: &mut Vec<u8>, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            if i == l.allowed.len() {
                if caps.iter().all(|&c| c == 0) {
                    out.push(cur.clone());
                }
                return;
            }
            for p in 0..caps.len() {
                if l.allowed[i].1 & (1 << p) != 0 && caps[p] > 0 {
                    caps[p] -= 1;
                    cur[i] = p as u8;
                    go(i + 1, l, caps, cur, out);
                    caps[p] += 1;
                }
            }
        }
        let mut caps = layout.sizes.clone();
        go(0, layout, &mut caps, &mut cur, &mut out);
        out
    }

    fn small_layouts() -> Vec<Layout> {
        let c = cards(7);
        vec![
            Layout {
                sizes: vec![3, 2, 2],
                allowed: c.iter().map(|&x| (x, 0b111)).collect(),
            },
            Layout {
                sizes: vec![3, 2, 2],
                allowed: c
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| (x, if i < 3 { 0b110 } else { 0b111 }))
                    .collect(),
            },
            Layout {
                sizes: vec![2, 2, 2, 1],
                allowed: c
                    .iter()
                    .enumerate()
                    .map(|(i, &x)| (x, [0b1011, 0b0111, 0b1101, 0b1111][i % 4]))
                    .collect(),
            },
        ]
    }

    #[test]
    fn counts_equal_brute_force() {
        for l in small_layouts() {
            let a = Assigner::new(&l).unwrap();
            assert_eq!(a.count_deals(), brute(&l).len() as f64, "{l:?}");
        }
    }

    #[test]
    fn samples_respect_the_layout_and_are_uniform() {
        for l in small_layouts() {
            let a = Assigner::new(&l).unwrap();
            let all = brute(&l);
            let mut seen: HashMap<Vec<u8>, u32> = HashMap::new();
            let mut rng = GameRng::from_seed(7);
            let draws = 200 * all.len() as u32;
            for _ in 0..draws {
                let s = a.sample(&mut rng);
                let key: Vec<u8> = l
                    .allowed
                    .iter()
                    .map(|(card, mask)| {
                        let p = s.iter().position(|set| set.contains(*card)).unwrap();
                        assert!(mask & (1 << p) != 0, "a card outside its places");
                        p as u8
                    })
                    .collect();
                for (p, set) in s.iter().enumerate() {
                    assert_eq!(set.len(), usize::from(l.sizes[p]));
                }
                *seen.entry(key).or_default() += 1;
            }
            assert_eq!(seen.len(), all.len(), "every deal is reachable");
            // Chi-square against the uniform distribution over all deals.
            let expected = f64::from(draws) / all.len() as f64;
            let chi: f64 = all
                .iter()
                .map(|k| {
                    let o = f64::from(*seen.get(k).unwrap_or(&0));
                    (o - expected).powi(2) / expected
                })
                .sum();
            let dof = (all.len() - 1) as f64;
            // Mean dof, sd sqrt(2 dof): five standard deviations above is far in the tail.
            assert!(chi < dof + 5.0 * (2.0 * dof).sqrt(), "chi2 {chi} dof {dof}");
        }
    }

    #[test]
    fn refuses_impossible_layouts() {
        let c = cards(3);
        let l = Layout {
            sizes: vec![2, 1],
            allowed: c.iter().map(|&x| (x, 0b10)).collect(),
        };
        assert_eq!(Assigner::new(&l).unwrap_err(), LayoutError::Unsatisfiable);
        let l = Layout {
            sizes: vec![2, 2],
            allowed: c.iter().map(|&x| (x, 0b11)).collect(),
        };
        assert!(matches!(Assigner::new(&l), Err(LayoutError::Sizes { .. })));
    }
}
