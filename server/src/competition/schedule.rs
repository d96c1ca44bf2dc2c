//! Drawing up a tournament's matches: which entrants sit where, with which deal. Pure
//! functions of the entrants, the game's seats and the tournament's seed, so the same
//! tournament always draws the same schedule.

use calabresella_proto::v1::TournamentFormat;

/// The seats of the game: how many, and which of them take an entrant (Calabresella a due
/// has a dummy seat nobody takes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Seats at the table.
    pub seats: usize,
    /// The seats entrants take, in order.
    pub open: Vec<usize>,
}

/// One match as drawn up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The Swiss round (0 otherwise).
    pub round: u32,
    /// The entrant at each seat ("" where nobody sits).
    pub seats: Vec<String>,
    /// The deal seed.
    pub seed: u64,
}

/// The entrant name of a built-in heuristic bot that fills a Swiss group short of entrants:
/// it takes no place in the standings.
pub const FILLER: &str = "~heuristic";

/// Whether `entrant` is a Swiss filler bot.
pub fn is_filler(entrant: &str) -> bool {
    entrant.starts_with('~')
}

/// The seed of one deal: SHA-256 of the tournament's seed and two indices. One-way, so the
/// seed a finished match's record shows says nothing about the tournament's seed or its other
/// deals.
pub fn mix(seed: u64, a: u64, b: u64) -> u64 {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(b"calabresella-tournament-deal");
    h.update(seed.to_le_bytes());
    h.update(a.to_le_bytes());
    h.update(b.to_le_bytes());
    let d = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    u64::from_le_bytes(first)
}

/// Every `k`-subset of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k == 0 || k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        let mut i = k;
        while i > 0 && c[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        c[i - 1] += 1;
        for j in i..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// How many matches a format draws (Swiss: all its rounds), to refuse huge tournaments
/// before drawing them.
pub fn count(format: TournamentFormat, entrants: usize, layout: &Layout, deals: u32) -> u128 {
    let k = layout.open.len() as u128;
    let n = entrants as u128;
    let groups = if n < k || k == 0 {
        0
    } else {
        (0..k).fold(1u128, |acc, i| acc * (n - i) / (i + 1))
    };
    match format {
        TournamentFormat::Swiss => n.div_ceil(k.max(1)) * u128::from(deals),
        TournamentFormat::Duplicate => groups * u128::from(deals) * k,
        _ => groups * u128::from(deals),
    }
}

/// The seats of one match: group `group` seated with its rotation `rotation` on the open
/// seats.
fn seated(layout: &Layout, group: &[&str], rotation: usize) -> Vec<String> {
    let mut seats = vec![String::new(); layout.seats];
    let k = group.len();
    for (j, &s) in layout.open.iter().enumerate() {
        seats[s] = group[(j + rotation) % k].to_owned();
    }
    seats
}

/// Every match of a round-robin or duplicate tournament (Swiss: none; its rounds are drawn
/// one at a time by [`swiss_round`]).
pub fn draw(
    format: TournamentFormat,
    entrants: &[String],
    layout: &Layout,
    deals: u32,
    seed: u64,
) -> Vec<Planned> {
    let k = layout.open.len();
    let mut out = Vec::new();
    if format == TournamentFormat::Swiss {
        return out;
    }
    for (g, c) in combinations(entrants.len(), k).iter().enumerate() {
        let group: Vec<&str> = c.iter().map(|&i| entrants[i].as_str()).collect();
        for d in 0..deals {
            if format == TournamentFormat::Duplicate {
                // One deal for every group and every rotation: the cards are the same for all.
                let deal = mix(seed, 0, u64::from(d));
                for r in 0..k {
                    out.push(Planned {
                        round: 0,
                        seats: seated(layout, &group, r),
                        seed: deal,
                    });
                }
            } else {
                // The rotation moves with the group too, so that with fewer deals than seats
                // the entrants listed first do not always sit first.
                out.push(Planned {
                    round: 0,
                    seats: seated(layout, &group, (g + d as usize) % k),
                    seed: mix(seed, g as u64 + 1, u64::from(d)),
                });
            }
        }
    }
    out
}

/// One Swiss round: `ranked` (best first) seated in groups of that order, the last group
/// filled with [`FILLER`] bots; each group's seats rotate with the round.
pub fn swiss_round(ranked: &[String], layout: &Layout, round: u32, seed: u64) -> Vec<Planned> {
    let k = layout.open.len();
    if k == 0 {
        return Vec::new();
    }
    ranked
        .chunks(k)
        .enumerate()
        .map(|(g, chunk)| {
            let mut group: Vec<&str> = chunk.iter().map(String::as_str).collect();
            while group.len() < k {
                group.push(FILLER);
            }
            Planned {
                round,
                seats: seated(layout, &group, round as usize % k),
                seed: mix(seed, (u64::from(round) + 1) << 20, g as u64),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("e{i}")).collect()
    }

    fn three() -> Layout {
        Layout {
            seats: 3,
            open: vec![0, 1, 2],
        }
    }

    proptest! {
        /// Round robin: every group of entrants meets `deals` times, each match with its own
        /// seed, and the count matches what `count` announced.
        #[test]
        fn round_robin_meets_every_group(n in 3usize..8, deals in 1u32..4, seed: u64) {
            let e = names(n);
            let m = draw(TournamentFormat::RoundRobin, &e, &three(), deals, seed);
            prop_assert_eq!(m.len() as u128, count(TournamentFormat::RoundRobin, n, &three(), deals));
            let mut groups = std::collections::HashMap::new();
            for p in &m {
                let mut g = p.seats.clone();
                g.sort();
                g.dedup();
                prop_assert_eq!(g.len(), 3, "an entrant twice at one table");
                *groups.entry(g).or_insert(0u32) += 1;
            }
            prop_assert_eq!(groups.len(), n * (n - 1) * (n - 2) / 6);
            prop_assert!(groups.values().all(|&c| c == deals));
            let seeds: std::collections::HashSet<u64> = m.iter().map(|p| p.seed).collect();
            prop_assert_eq!(seeds.len(), m.len());
        }

        /// Duplicate: within a group every deal is played once from every seat by every
        /// entrant, and every group gets the same deals.
        #[test]
        fn duplicate_plays_each_deal_from_every_seat(n in 3usize..7, deals in 1u32..4, seed: u64) {
            let e = names(n);
            let m = draw(TournamentFormat::Duplicate, &e, &three(), deals, seed);
            prop_assert_eq!(m.len() as u128, count(TournamentFormat::Duplicate, n, &three(), deals));
            let mut seen = std::collections::HashSet::new();
            for p in &m {
                for (s, who) in p.seats.iter().enumerate() {
                    let mut g = p.seats.clone();
                    g.sort();
                    prop_assert!(seen.insert((g, p.seed, s, who.clone())), "a seat of a deal twice");
                }
            }
            let seeds: std::collections::HashSet<u64> = m.iter().map(|p| p.seed).collect();
            prop_assert_eq!(seeds.len(), deals as usize);
        }

        /// A Swiss round seats every entrant exactly once, fillers only in the last group.
        #[test]
        fn swiss_round_seats_everyone_once(n in 1usize..12, round in 0u32..5, seed: u64) {
            let e = names(n);
            let m = swiss_round(&e, &three(), round, seed);
            prop_assert_eq!(m.len(), n.div_ceil(3));
            let mut all: Vec<String> = m.iter().flat_map(|p| p.seats.clone()).filter(|s| !is_filler(s)).collect();
            all.sort();
            let mut want = e.clone();
            want.sort();
            prop_assert_eq!(all, want);
            for p in &m[..m.len() - 1] {
                prop_assert!(p.seats.iter().all(|s| !is_filler(s)));
            }
        }
    }

    #[test]
    fn the_a_due_dummy_seat_takes_no_entrant() {
        let layout = Layout {
            seats: 3,
            open: vec![0, 1],
        };
        let m = draw(TournamentFormat::RoundRobin, &names(3), &layout, 2, 7);
        assert_eq!(m.len(), 6);
        assert!(
            m.iter()
                .all(|p| p.seats[2].is_empty() && !p.seats[0].is_empty())
        );
        // The rotation puts each pair's first entrant in seat 0, then in seat 1.
        assert_eq!(m[0].seats[0], m[1].seats[1]);
    }
}
