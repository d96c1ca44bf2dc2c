//! Calabresella's match: the marker the match driver plays it by (dealer rotation and seeded
//! deals are the driver's, C-D4, C-D24), its tally, and the match-end check (C-D16, C-D19).

use crate::action::Action;
use crate::error::IllegalAction;
use crate::seat::{PerSeat, Seat};

use super::options::{MatchEnd, Options};
use super::score::{HandOutcome, Score};
use crate::game::HandRules;

/// Calabresella, three-handed, four-handed and a due, as the match driver plays it
/// ([`MatchRules`](crate::game::MatchRules)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Calabresella;

/// A whole match of Calabresella as a value.
///
/// Hands come from a seeded generator ([`Match::seeded`]) or one by one from the caller
/// ([`Match::new`] and [`Match::start_hand`], as a record replay does).
pub type Match = crate::game::Match<Calabresella>;

/// What a Calabresella match keeps across hands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Match totals per seat.
    pub totals: PerSeat<u32>,
    /// The outcome of every finished hand, in order.
    pub outcomes: Vec<HandOutcome>,
}

/// The match-end check after a scored hand (C-D16, C-D19).
pub(super) fn winners_after(opts: &Options, totals: &PerSeat<u32>, s: &Score) -> Option<Vec<Seat>> {
    let target = opts.target;
    match opts.match_end {
        MatchEnd::Pooled => {
            let sol = totals[s.soloist];
            let def = totals[s.defenders[0]] + totals[s.defenders[1]];
            let soloist_wins = sol >= target && (def < target || sol > def);
            let defenders_win = def >= target && (sol < target || def > sol);
            if soloist_wins {
                Some(vec![s.soloist])
            } else if defenders_win {
                let mut d = s.defenders.to_vec();
                d.sort();
                Some(d)
            } else {
                None
            }
        }
        MatchEnd::Individual => {
            let scorers: Vec<Seat> = Seat::first_n(opts.players)
                .filter(|&p| !(opts.a_due && p == Options::DUMMY))
                .collect();
            let best = scorers.iter().map(|&p| totals[p]).max()?;
            let at_top: Vec<Seat> = scorers.into_iter().filter(|&p| totals[p] == best).collect();
            (best >= target && at_top.len() == 1).then_some(at_top)
        }
    }
}

impl Match {
    /// The outcome of every finished hand, in order.
    pub fn outcomes(&self) -> &[HandOutcome] {
        &self.tally().outcomes
    }

    /// Applies `action` for whoever is to decide; on error nothing changes.
    pub fn try_apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        self.apply_with(|h| h.try_apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Contract;
    use crate::calabresella::score::Side;
    use crate::cardset::CardSet;

    fn after(opts: Options, totals: [u32; 4]) -> Option<Vec<Seat>> {
        let totals = PerSeat::from_fn(4, |s| totals[s.index()]);
        let s = Score {
            soloist: Seat::ALL[1],
            defenders: [Seat::ALL[2], Seat::ALL[0]],
            contract: Contract::Solo,
            called: None,
            points: [6, 5],
            tricks: [6, 6],
            last_trick: Side::Soloist,
            made: true,
            multiplier: 1,
            award: PerSeat::splat(0),
            monte: CardSet::EMPTY,
        };
        winners_after(&opts, &totals, &s)
    }

    #[test]
    fn c_d16_pooled() {
        let o = Options::default();
        let s = |v: u8| Seat::ALL[v as usize];
        assert_eq!(
            after(o, [5, 21, 5, 0]),
            Some(vec![s(1)]),
            "only the soloist at the target"
        );
        assert_eq!(
            after(o, [11, 3, 10, 0]),
            Some(vec![s(0), s(2)]),
            "only D = 11 + 10 at the target"
        );
        assert_eq!(
            after(o, [11, 22, 10, 0]),
            Some(vec![s(1)]),
            "both: S 22 > D 21"
        );
        assert_eq!(
            after(o, [12, 22, 11, 0]),
            Some(vec![s(0), s(2)]),
            "both: D 23 > S 22"
        );
        assert_eq!(after(o, [11, 22, 11, 0]), None, "equal: another hand");
        assert_eq!(after(o, [5, 20, 5, 0]), None, "nobody at the target");
    }

    #[test]
    fn c_d16_individual_and_c_d17_idle_excluded() {
        let o = Options {
            match_end: MatchEnd::Individual,
            ..Options::default()
        };
        let s = |v: u8| Seat::ALL[v as usize];
        assert_eq!(after(o, [11, 22, 10, 0]), Some(vec![s(1)]));
        assert_eq!(
            after(o, [21, 21, 3, 0]),
            None,
            "a tie at the top: another hand"
        );
        assert_eq!(
            after(o, [25, 21, 3, 0]),
            Some(vec![s(0)]),
            "the unique highest, soloist or not"
        );
        let four = Options {
            players: 4,
            ..Options::default()
        };
        assert_eq!(
            after(four, [5, 10, 5, 30]),
            None,
            "pooled counts only this hand's sides"
        );
    }

    #[test]
    fn c_d19_a_due_ignores_the_dummy() {
        let o = Options {
            a_due: true,
            match_end: MatchEnd::Individual,
            ..Options::default()
        };
        assert_eq!(after(o, [21, 5, 40, 0]), Some(vec![Seat::ALL[0]]));
    }
}
