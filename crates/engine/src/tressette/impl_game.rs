//! Tressette's part of the match ([`MatchRules`] for [`Tressette`]): the totals per side and
//! the end at the target after each hand (T-D4), its option sets and partnerships, and the
//! games' record lines (the deal with its stock, the replay output's hand line per
//! partnership).

use serde_json::{Value, json};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::DealError;
use crate::game::{GameHand, MatchResult, MatchRules, earlier_outcomes};
use crate::record::{RecordDeal, RecordError, in_hand, parse_fixed, parse_hands};
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::event::Event;
use super::game::{Match, Tally, Tressette, winner};
use super::hand::{Hand, MAX_HISTORY, side_of};
use super::observation::Observation;
use super::options::{Options, Variant};

impl MatchRules for Tressette {
    type Hand = Hand;
    type Tally = Tally;

    const NAMES: &'static [&'static str] = &[Variant::Partnership.game(), Variant::Due.game()];

    /// T-D4 after each hand: the side at or above the target wins.
    fn hand_over(opts: &Options, tally: &mut Tally, hands: &[Hand]) -> Option<MatchResult> {
        let o = hands.last().and_then(Hand::outcome)?;
        tally.totals[0] += o.points[0];
        tally.totals[1] += o.points[1];
        let w = winner(tally.totals, opts.target)?;
        let seats = Seat::first_n(opts.variant.players()).filter(|s| side_of(*s) == w);
        Some(MatchResult::won(seats.collect()))
    }

    fn option_sets() -> Vec<Options> {
        let flags = |variant: Variant| {
            (0u32..8).map(move |bits| Options {
                variant,
                target: if bits & 4 != 0 { 5 } else { 21 },
                accusi: bits & 1 == 0,
                follow_suit_always: bits & 2 != 0,
                max_deals: 200,
            })
        };
        flags(Variant::Partnership)
            .chain(flags(Variant::Due))
            .collect()
    }
    fn default_options(name: &str) -> Option<Options> {
        Variant::from_game(name).map(Options::new)
    }
    fn total_index(_: &Options, seat: Seat) -> usize {
        side_of(seat)
    }
    /// The partnerships (seats 0+2 and 1+3), or the two players in Due.
    fn teams(opts: &Options) -> Vec<Vec<Seat>> {
        (0..2)
            .map(|side| {
                Seat::first_n(opts.variant.players())
                    .filter(|&s| side_of(s) == side)
                    .collect()
            })
            .collect()
    }
    /// Each deal at its longest (the safety cap counts every deal).
    fn action_bounds(_: &Options) -> (u64, u64) {
        (0, MAX_HISTORY as u64)
    }
    /// 11 card points, and accusi (T-D2): a bound rather than the greatest award, 24 for every
    /// napoletana and "all four" accuso at once, though a side's cards hold fewer.
    fn award_bounds(opts: &Options) -> (bool, i32, i32) {
        (false, 0, 11 + if opts.accusi { 24 } else { 0 })
    }
    fn deal_from_cards(
        _: &Options,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<Deal, DealError> {
        let stock = if rest.is_empty() {
            None
        } else {
            Some(
                <[Card; 20]>::try_from(rest).map_err(|_| DealError::WrongStock {
                    got: rest.len(),
                    expected: 20,
                })?,
            )
        };
        Ok(Deal { hands, stock })
    }
    fn deal_from_record(opts: &Options, h: usize, d: &RecordDeal) -> Result<Deal, RecordError> {
        if d.monte.is_some() {
            return Err(in_hand(h, "invalid deal: tressette has no monte"));
        }
        let stock = match opts.variant {
            Variant::Partnership if d.stock.is_some() => {
                return Err(in_hand(h, "invalid deal: tressette has no stock"));
            }
            Variant::Partnership => None,
            Variant::Due => Some(parse_fixed(h, "stock", d.stock.as_ref())?),
        };
        Ok(Deal {
            hands: parse_hands(h, opts.variant.players(), &d.hands)?,
            stock,
        })
    }

    fn totals(m: &Match) -> Vec<i32> {
        m.tally().totals.map(|t| t as i32).to_vec()
    }
    fn seat_points(m: &Match, hand: Option<usize>) -> PerSeat<i32> {
        let sides = match hand {
            Some(i) => Match::hands(m)
                .get(i)
                .and_then(Hand::outcome)
                .map_or([0, 0], |o| o.points),
            None => m.tally().totals,
        };
        PerSeat::from_fn(m.options().variant.players(), |s| sides[side_of(s)] as i32)
    }
    fn opponents_of(m: &Match, seat: Seat) -> Vec<Seat> {
        Seat::first_n(m.options().variant.players())
            .filter(|&s| side_of(s) != side_of(seat))
            .collect()
    }

    fn hand_summary(m: &Match, i: usize) -> Option<String> {
        let hands = Match::hands(m);
        let o = hands.get(i)?.outcome()?;
        let mut totals = [0u32; 2];
        for p in hands[..=i].iter().filter_map(Hand::outcome) {
            totals = [totals[0] + p.points[0], totals[1] + p.points[1]];
        }
        let accusi: Vec<String> = hands[i]
            .accusi()
            .iter()
            .map(|(s, a)| format!("seat {s} {a}"))
            .collect();
        let accusi = if accusi.is_empty() {
            String::new()
        } else {
            format!("  accusi: {}", accusi.join(", "))
        };
        Some(format!(
            "{}  last trick {}  totals {totals:?}{accusi}",
            Event::Scored(*o),
            o.last_trick
        ))
    }
    /// Points, tricks, accusi, award and totals per partnership (`[team0, team1]`, team 0 is
    /// seats 0 and 2), or per player in Tressette in Due.
    fn replay_hand(m: &Match, i: usize) -> Value {
        let Some(hand) = Match::hands(m).get(i) else {
            return Value::Null;
        };
        let (dealer, totals) = (hand.dealer().index(), m.tally().totals);
        match hand.outcome() {
            Some(o) => json!({
                "dealer": dealer, "void": false, "complete": true,
                "points": o.card_points, "tricks": o.tricks, "accusi": o.accusi,
                "last_trick": o.last_trick, "award": o.points, "totals": totals,
            }),
            None => json!({
                "dealer": dealer, "void": false, "complete": false,
                "points": null, "tricks": null, "accusi": null, "last_trick": null, "award": null,
                "totals": totals,
            }),
        }
    }
    /// The winning side (0 or 1), as the replay output has always given it.
    fn replay_winners(m: &Match) -> Vec<usize> {
        Match::result(m)
            .and_then(|r| r.winners.first())
            .map(|&s| vec![side_of(s)])
            .unwrap_or_default()
    }
    /// The match's context of an observation of the last hand: its number, the totals, the
    /// earlier hands' outcomes.
    fn annotate(obs: &mut Observation, tally: &Tally, hands: &[Hand]) {
        (obs.hand_number, obs.previous) = earlier_outcomes(hands, Hand::outcome);
        obs.totals = tally.totals;
    }
}
