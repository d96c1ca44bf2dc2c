//! Calabresella's part of the match ([`MatchRules`] for [`Calabresella`]): the tally and the
//! match's end after each hand (C-D16, C-D17), its option sets, teams and the a due dummy, and
//! the game's record lines (the deal with its monte, the replay output's hand line).

use serde_json::{Value, json};

use crate::action::Contract;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::DealError;
use crate::game::{GameHand, MatchResult, MatchRules, earlier_outcomes};
use crate::record::{RecordDeal, RecordError, in_hand, parse_fixed, parse_hands};
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::game::{Calabresella, Match, Tally, winners_after};
use super::hand::Hand;
use super::hand::MAX_HISTORY;
use super::observation::Observation;
use super::options::{MatchEnd, Options};
use super::score::HandOutcome;

/// The registered name.
const NAME: &str = "calabresella";

impl MatchRules for Calabresella {
    type Hand = Hand;
    type Tally = Tally;

    const NAMES: &'static [&'static str] = &[NAME];

    /// C-D16, C-D17 after each hand: its award added, then the match-end check.
    fn hand_over(opts: &Options, tally: &mut Tally, hands: &[Hand]) -> Option<MatchResult> {
        let outcome = *hands.last().and_then(Hand::outcome)?;
        let award = outcome.award();
        for seat in Seat::ALL {
            tally.totals[seat] += award[seat];
        }
        tally.outcomes.push(outcome);
        let winners = match outcome {
            HandOutcome::Scored(s) => winners_after(opts, &tally.totals, &s),
            HandOutcome::Void => None,
        };
        winners.map(MatchResult::won)
    }

    fn option_sets() -> Vec<Options> {
        let flags = |players: u8| {
            (0u32..64).map(move |bits| Options {
                players,
                target: [21, 31, 5][(bits as usize) % 3],
                match_end: if bits & 1 != 0 {
                    MatchEnd::Individual
                } else {
                    MatchEnd::Pooled
                },
                stramazzo: bits & 2 == 0,
                only_chiamo: bits & 4 != 0,
                chiamo_threes_only: bits & 8 != 0,
                aperta: bits & 16 != 0,
                a_due: bits & 32 != 0,
                max_deals: 200,
            })
        };
        flags(3).chain(flags(4)).collect()
    }
    fn default_options(name: &str) -> Option<Options> {
        (name == NAME).then(Options::default)
    }
    fn total_index(_: &Options, seat: Seat) -> usize {
        seat.index()
    }
    /// A due: the dummy is played by the defending person (C-D19).
    fn dummy_seats(opts: &Options) -> Vec<Seat> {
        if opts.a_due {
            vec![Options::DUMMY]
        } else {
            Vec::new()
        }
    }
    fn teams(opts: &Options) -> Vec<Vec<Seat>> {
        let dummies = Self::dummy_seats(opts);
        Seat::first_n(opts.players)
            .filter(|s| !dummies.contains(s))
            .map(|s| vec![s])
            .collect()
    }
    /// Each deal at its longest (the safety cap counts every deal).
    fn action_bounds(_: &Options) -> (u64, u64) {
        (0, MAX_HISTORY as u64)
    }
    /// Nobody loses points (C-D15); the most is scegliete (16) times stramazzo (3), or times
    /// cappotto (2) without stramazzo.
    fn award_bounds(opts: &Options) -> (bool, i32, i32) {
        (false, 0, 16 * if opts.stramazzo { 3 } else { 2 })
    }
    fn deal_from_cards(
        _: &Options,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<Deal, DealError> {
        let monte: [Card; 4] = rest
            .try_into()
            .map_err(|_| DealError::WrongMonte(rest.len()))?;
        Ok(Deal { hands, monte })
    }
    fn deal_from_record(opts: &Options, h: usize, d: &RecordDeal) -> Result<Deal, RecordError> {
        if d.stock.is_some() {
            return Err(in_hand(
                h,
                "invalid deal: calabresella has a monte, not a stock",
            ));
        }
        Ok(Deal {
            hands: parse_hands(h, opts.players, &d.hands)?,
            monte: parse_fixed(h, "monte", d.monte.as_ref())?,
        })
    }

    fn id_monte(m: &Match) -> Option<[Card; 4]> {
        // The last hand once the match is over: its observation still names take actions.
        m.current()
            .or_else(|| m.hands().last())
            .filter(|h| h.contract() == Some(Contract::Scegliete))
            .map(|h| h.deal().monte)
    }
    fn totals(m: &Match) -> Vec<i32> {
        m.tally()
            .totals
            .first_n(m.options().players)
            .iter()
            .map(|&t| t as i32)
            .collect()
    }
    fn seat_points(m: &Match, hand: Option<usize>) -> PerSeat<i32> {
        let points = match hand {
            Some(i) => m
                .outcomes()
                .get(i)
                .map(HandOutcome::award)
                .unwrap_or_default(),
            None => m.tally().totals,
        };
        PerSeat::from_fn(m.options().players, |s| points[s] as i32)
    }
    fn opponents_of(m: &Match, seat: Seat) -> Vec<Seat> {
        let opts = m.options();
        // A due: the dummy is nobody's; the other person wins.
        Seat::first_n(opts.players)
            .filter(|&s| s != seat && !(opts.a_due && s == Options::DUMMY))
            .collect()
    }

    fn hand_summary(m: &Match, i: usize) -> Option<String> {
        let n = usize::from(m.options().players);
        let outcome = m.outcomes().get(i)?;
        let mut totals = vec![0u32; n];
        for o in &m.outcomes()[..=i] {
            for (t, a) in totals.iter_mut().zip(o.award().0) {
                *t += a;
            }
        }
        Some(match outcome {
            HandOutcome::Void => "void: all passed".to_owned(),
            HandOutcome::Scored(s) => format!(
                "seat {} {:<9} called {:<2}  points {:>2}-{:<2} tricks {:>2}-{:<2} {} x{}  award {:?}  totals {:?}",
                s.soloist,
                s.contract.name(),
                s.called.map_or("-".to_string(), |c| c.to_string()),
                s.points[0],
                s.points[1],
                s.tricks[0],
                s.tricks[1],
                if s.made { "made  " } else { "failed" },
                s.multiplier,
                &s.award.0[..n],
                totals,
            ),
        })
    }
    fn replay_hand(m: &Match, i: usize) -> Value {
        let Some(hand) = Match::hands(m).get(i) else {
            return Value::Null;
        };
        let n = m.options().players;
        let seats = |p: PerSeat<u32>| json!(p.first_n(n));
        let outcome = hand.outcome().copied();
        let mut line = json!({
            "dealer": hand.dealer().index(),
            "void": matches!(outcome, Some(HandOutcome::Void)),
            "complete": outcome.is_some(),
            "soloist": hand.soloist().map(Seat::index),
            "contract": hand.contract().map(|c| c.name()),
            "called": hand.called().map(|c| c.to_string()),
        });
        let detail = match outcome {
            Some(HandOutcome::Scored(s)) => json!({
                "points": {"soloist": s.points[0], "defenders": s.points[1]},
                "tricks": {"soloist": s.tricks[0], "defenders": s.tricks[1]},
                "last_trick": s.last_trick.name(),
                "made": s.made,
                "multiplier": s.multiplier,
                "award": seats(s.award),
            }),
            Some(HandOutcome::Void) => json!({
                "points": null, "tricks": null, "last_trick": null, "made": null,
                "multiplier": null, "award": seats(PerSeat::splat(0)),
            }),
            None => json!({
                "points": null, "tricks": null, "last_trick": null, "made": null,
                "multiplier": null, "award": null,
            }),
        };
        if let (Some(obj), Value::Object(detail)) = (line.as_object_mut(), detail) {
            obj.extend(detail);
            obj.insert("totals".into(), seats(m.tally().totals));
        }
        line
    }
    /// The match's context of an observation of the last hand: its number, the totals, the
    /// earlier hands' outcomes.
    fn annotate(obs: &mut Observation, tally: &Tally, hands: &[Hand]) {
        (obs.hand_number, obs.previous) = earlier_outcomes(hands, Hand::outcome);
        obs.totals = tally.totals;
    }
}
