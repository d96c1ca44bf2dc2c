//! Scoring a finished hand: points, success, multipliers and the award (C-D12 to C-D15, C-D18,
//! C-D19).

use crate::action::Contract;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::{PerSeat, Seat};
use crate::trick::truncate_points;

use super::options::Options;

/// The two sides of a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// The soloist alone.
    Soloist = 0,
    /// The two defenders, who share one pile.
    Defenders = 1,
}

impl Side {
    /// `soloist` or `defenders`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Soloist => "soloist",
            Side::Defenders => "defenders",
        }
    }
}

/// The result of a scored hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    /// The soloist.
    pub soloist: Seat,
    /// The two defenders in play order from the eldest.
    pub defenders: [Seat; 2],
    /// The contract played.
    pub contract: Contract,
    /// The called card in Chiamo.
    pub called: Option<Card>,
    /// Points after truncation, `[soloist, defenders]`; they sum to 11.
    pub points: [u32; 2],
    /// Tricks won, `[soloist, defenders]`; they sum to 12.
    pub tricks: [u32; 2],
    /// Who won the last trick (and the set-aside monte).
    pub last_trick: Side,
    /// Whether the soloist made the contract: points at least 6 (C-D13).
    pub made: bool,
    /// 1, 2 (cappotto) or 3 (stramazzo) (C-D15).
    pub multiplier: u32,
    /// Match points each seat scores for this hand.
    pub award: PerSeat<u32>,
    /// The set-aside monte, shown to all at scoring.
    pub monte: CardSet,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandOutcome {
    /// Everybody passed (C-D4).
    Void,
    /// The hand was played and scored.
    Scored(Score),
}

impl HandOutcome {
    /// The award per seat (all zero for a void deal).
    pub fn award(&self) -> PerSeat<u32> {
        match self {
            HandOutcome::Void => PerSeat::splat(0),
            HandOutcome::Scored(s) => s.award,
        }
    }
}

/// Everything scoring needs to know about a finished hand.
pub(crate) struct Tally {
    pub(crate) soloist: Seat,
    pub(crate) defenders: [Seat; 2],
    pub(crate) contract: Contract,
    pub(crate) called: Option<Card>,
    pub(crate) thirds: [u32; 2],
    pub(crate) tricks: [u32; 2],
    pub(crate) last_trick: Side,
    pub(crate) monte: CardSet,
}

/// Scores a finished hand under `opts`.
pub(crate) fn score(opts: &Options, t: Tally) -> Score {
    let points = [truncate_points(t.thirds[0]), truncate_points(t.thirds[1])];
    let made = points[0] >= 6;
    let multiplier = if t.tricks[0] == 12 || t.tricks[1] == 12 {
        2
    } else if opts.stramazzo && (points[0] == 11 || points[1] == 11) {
        3
    } else {
        1
    };
    let value = t.contract.value() * multiplier;
    let mut award = PerSeat::splat(0);
    if made {
        award[t.soloist] = value;
    } else if opts.a_due {
        // One person plays both defender hands and is paid once (C-D19); the dummy never scores.
        let person = t.defenders.into_iter().find(|&d| d != Options::DUMMY);
        if let Some(p) = person {
            award[p] = value;
        }
    } else {
        let each = if opts.aperta {
            value.div_ceil(2)
        } else {
            value
        };
        for d in t.defenders {
            award[d] = each;
        }
    }
    Score {
        soloist: t.soloist,
        defenders: t.defenders,
        contract: t.contract,
        called: t.called,
        points,
        tricks: t.tricks,
        last_trick: t.last_trick,
        made,
        multiplier,
        award,
        monte: t.monte,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(thirds: [u32; 2], tricks: [u32; 2], contract: Contract) -> Tally {
        Tally {
            soloist: Seat::ALL[1],
            defenders: [Seat::ALL[2], Seat::ALL[0]],
            contract,
            called: None,
            thirds,
            tricks,
            last_trick: Side::Soloist,
            monte: CardSet::EMPTY,
        }
    }

    #[test]
    fn c_d13_six_points_make_the_contract() {
        let s = score(&Options::default(), tally([18, 17], [6, 6], Contract::Solo));
        assert_eq!((s.points, s.made), ([6, 5], true));
        let s = score(&Options::default(), tally([17, 18], [6, 6], Contract::Solo));
        assert_eq!(
            (s.points, s.made),
            ([5, 6], false),
            "17 thirds truncate to 5"
        );
        let s = score(&Options::default(), tally([20, 15], [6, 6], Contract::Solo));
        assert_eq!(
            s.points[0] + s.points[1],
            11,
            "35 thirds always give 11 points"
        );
    }

    #[test]
    fn c_d14_award_goes_up_only() {
        let made = score(
            &Options::default(),
            tally([20, 15], [7, 5], Contract::Dividete),
        );
        assert_eq!(made.award.first_n(4), [0, 8, 0, 0]);
        let failed = score(
            &Options::default(),
            tally([15, 20], [5, 7], Contract::Scegliete),
        );
        assert_eq!(
            failed.award.first_n(4),
            [16, 0, 16, 0],
            "each defender scores the value"
        );
    }

    #[test]
    fn c_d15_multipliers() {
        let o = Options::default();
        assert_eq!(
            score(&o, tally([35, 0], [12, 0], Contract::Solo)).multiplier,
            2,
            "cappotto"
        );
        assert_eq!(
            score(&o, tally([0, 35], [0, 12], Contract::Solo)).multiplier,
            2,
            "defenders' cappotto"
        );
        assert_eq!(
            score(&o, tally([35, 0], [11, 1], Contract::Solo)).multiplier,
            3,
            "stramazzo"
        );
        assert_eq!(
            score(&o, tally([33, 2], [11, 1], Contract::Solo)).multiplier,
            3,
            "2 thirds truncate to 0"
        );
        assert_eq!(
            score(&o, tally([2, 33], [1, 11], Contract::Solo)).multiplier,
            3,
            "defenders' stramazzo"
        );
        assert_eq!(
            score(&o, tally([32, 3], [11, 1], Contract::Solo)).multiplier,
            1,
            "3 thirds are a point"
        );
        let no = Options {
            stramazzo: false,
            ..o
        };
        assert_eq!(
            score(&no, tally([35, 0], [11, 1], Contract::Solo)).multiplier,
            1,
            "C-D20"
        );
        assert_eq!(
            score(&no, tally([35, 0], [12, 0], Contract::Solo)).multiplier,
            2
        );
    }

    #[test]
    fn c_d18_aperta_halves_rounding_up() {
        let o = Options {
            aperta: true,
            ..Options::default()
        };
        let s = score(&o, tally([10, 25], [4, 8], Contract::Chiamo));
        assert_eq!(s.award.first_n(4), [1, 0, 1, 0], "half of 1 rounds up to 1");
        let s = score(&o, tally([2, 33], [2, 10], Contract::Solissimo));
        assert_eq!(s.award.first_n(4), [6, 0, 6, 0], "4 x 3 = 12, halved");
        let s = score(&o, tally([20, 15], [7, 5], Contract::Solo));
        assert_eq!(
            s.award.first_n(4),
            [0, 2, 0, 0],
            "the soloist's award is not reduced"
        );
    }

    #[test]
    fn c_d19_a_due_pays_the_defending_person_once() {
        let o = Options {
            a_due: true,
            match_end: super::super::MatchEnd::Individual,
            ..Options::default()
        };
        let s = score(&o, tally([10, 25], [4, 8], Contract::Solo));
        assert_eq!(
            s.award.first_n(4),
            [2, 0, 0, 0],
            "seat 0 is the person, seat 2 the dummy"
        );
    }
}
