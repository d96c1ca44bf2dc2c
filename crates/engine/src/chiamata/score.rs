//! Scoring a hand: [`Outcome`] and the per-seat, zero-sum payout (TC-D11 to TC-D15, BC-D10 to
//! BC-D12).

use crate::action::Action;
use crate::card::{Card, Suit};
use crate::seat::{PerSeat, Seat};

/// The result of a scored hand. Sides are `[caller's side, defenders]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Seats at the table (the award's length).
    pub players: u8,
    /// The caller.
    pub caller: Seat,
    /// The partner (the holder of the called card), unless the caller played alone.
    pub partner: Option<Seat>,
    /// Whether the caller played alone (by `bid solo` or by calling his own card).
    pub alone: bool,
    /// The winning bid (none with four players).
    pub bid: Option<Action>,
    /// The called card (none after `bid solo`).
    pub called: Option<Card>,
    /// Briscola Chiamata: the trump suit.
    pub trump: Option<Suit>,
    /// What the caller's side needed: 6 points (Tressette), 61 or the bid's card points
    /// (Briscola).
    pub target: u32,
    /// Points per side: whole points after truncation (last trick included) in Tressette con la
    /// Chiamata, summing to 11; card points in Briscola Chiamata, summing to 120.
    pub points: [u32; 2],
    /// Tricks per side.
    pub tricks: [u32; 2],
    /// The side that won the last trick.
    pub last_trick: usize,
    /// Whether the caller's side reached the target.
    pub made: bool,
    /// 1, 2 for cappotto, times the bid multiplier (BC-D12).
    pub multiplier: u32,
    /// What each seat scores for the hand; the awards sum to zero.
    pub award: PerSeat<i32>,
}

impl Outcome {
    /// `caller_side` or `defenders`.
    pub const fn side_name(side: usize) -> &'static str {
        if side == 0 {
            "caller_side"
        } else {
            "defenders"
        }
    }
}

/// The payout (TC-D12, TC-D15, BC-D11): with five players the caller ±2 and the partner ±1
/// against each defender ∓1, or the caller alone ±4 against four defenders ∓1; with four, ±1 a
/// seat. Times `multiplier`; signs from the caller's side's view of `made`.
pub fn payout(
    players: u8,
    caller: Seat,
    partner: Option<Seat>,
    alone: bool,
    made: bool,
    multiplier: u32,
) -> PerSeat<i32> {
    let sign = if made { 1 } else { -1 } * multiplier as i32;
    PerSeat::from_fn(players, |s| {
        let caller_side = s == caller || (!alone && Some(s) == partner);
        sign * match (players, alone, s == caller, caller_side) {
            (4, _, _, true) => 1,
            (4, _, _, false) => -1,
            (_, true, true, _) => 4,
            (_, false, true, _) => 2,
            (_, _, false, true) => 1,
            _ => -1,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(i: u8) -> Seat {
        Seat::new(i).expect("seat")
    }

    #[test]
    fn every_payout_sums_to_zero() {
        for players in [4, 5] {
            for alone in [false, true] {
                for made in [false, true] {
                    for m in [1, 2, 5, 10] {
                        let partner = if alone && players == 5 {
                            None
                        } else {
                            Some(s(3))
                        };
                        let a = payout(players, s(1), partner, alone && players == 5, made, m);
                        assert_eq!(a.0.iter().sum::<i32>(), 0, "{players} {alone} {made} {m}");
                    }
                }
            }
        }
    }
}
