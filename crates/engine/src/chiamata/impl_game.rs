//! The calling games' part of the match ([`MatchRules`] for [`Chiamata`]): a fixed number of
//! scored hands with individual, zero-sum totals, its option sets, and the record lines
//! (CH-D4).

use serde_json::{Value, json};

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::deals::DealError;
use crate::game::{GameHand, MatchResult, MatchRules, earlier_outcomes};
use crate::record::{RecordDeal, RecordError, in_hand, parse_hands};
use crate::seat::{PerSeat, Seat};

use super::deal::Deal;
use super::event::Event;
use super::game::{Chiamata, Match, Tally, leaders};
use super::hand::{Hand, MAX_ACTIONS};
use super::observation::Observation;
use super::options::{Auction, FirstLead, Options, Variant};
use super::score::Outcome;

impl MatchRules for Chiamata {
    type Hand = Hand;
    type Tally = Tally;

    const NAMES: &'static [&'static str] = &[Variant::Tressette.game(), Variant::Briscola.game()];

    /// TC-D14, CH-D5 after each hand: a scored hand adds its awards; the match ends after its
    /// number of scored hands (the highest totals win).
    fn hand_over(opts: &Options, tally: &mut Tally, hands: &[Hand]) -> Option<MatchResult> {
        match hands.last().and_then(Hand::outcome) {
            Some(o) => {
                for s in Seat::first_n(opts.players) {
                    tally.totals[s] += o.award[s];
                }
                tally.scored += 1;
            }
            None => tally.voids += 1,
        }
        (tally.scored >= opts.match_hands())
            .then(|| MatchResult::won(leaders(&tally.totals, opts.players)))
    }
    /// Only void deals count toward the safety cap: scored hands end the match by themselves.
    fn deals_toward_cap(tally: &Tally, _hands: &[Hand]) -> usize {
        tally.voids as usize
    }

    fn option_sets() -> Vec<Options> {
        let mut out = Vec::new();
        let tc = Options::new(Variant::Tressette);
        out.push(tc);
        out.push(Options {
            players: 4,
            hands: Some(3),
            call_threes_only: true,
            ..tc
        });
        out.push(Options {
            solo_bid: true,
            call_own_card: true,
            hands: Some(4),
            ..tc
        });
        out.push(Options {
            call_threes_only: true,
            call_own_card: true,
            hands: Some(3),
            ..tc
        });
        let bc = Options::new(Variant::Briscola);
        out.push(bc);
        out.push(Options {
            auction: Auction::Points,
            bid_multiplier: true,
            hands: Some(3),
            ..bc
        });
        out.push(Options {
            two_closes: true,
            first_lead: FirstLead::Caller,
            hands: Some(3),
            ..bc
        });
        out.push(Options {
            bid_multiplier: true,
            hands: Some(4),
            ..bc
        });
        out
    }
    fn default_options(name: &str) -> Option<Options> {
        Variant::from_game(name).map(Options::new)
    }
    fn total_index(_: &Options, seat: Seat) -> usize {
        seat.index()
    }
    /// Every seat alone: the partnerships change every hand and are secret.
    fn teams(opts: &Options) -> Vec<Vec<Seat>> {
        Seat::first_n(opts.players).map(|s| vec![s]).collect()
    }
    /// The scored hands at their longest, and a round of passes for each void deal the
    /// safety cap allows.
    fn action_bounds(opts: &Options) -> (u64, u64) {
        (
            u64::from(opts.match_hands()) * MAX_ACTIONS as u64,
            u64::from(opts.players),
        )
    }
    /// The payout (TC-D12, BC-D11) sums to zero: a lone caller wins or pays 4 against four
    /// defenders (five players), 1 a seat with four; cappotto doubles it, and Briscola's bid
    /// multiplier (up to 5) multiplies it again.
    fn award_bounds(opts: &Options) -> (bool, i32, i32) {
        let lone = if opts.players == 5 { 4 } else { 1 };
        let mut worst = lone * 2;
        if opts.variant == Variant::Briscola && opts.bid_multiplier {
            worst *= 5;
        }
        (true, -worst, worst)
    }
    fn deal_from_cards(
        _: &Options,
        hands: PerSeat<CardSet>,
        rest: &[Card],
    ) -> Result<Deal, DealError> {
        if !rest.is_empty() {
            return Err(DealError::WrongStock {
                got: rest.len(),
                expected: 0,
            });
        }
        Ok(Deal { hands })
    }
    fn deal_from_record(opts: &Options, h: usize, d: &RecordDeal) -> Result<Deal, RecordError> {
        if d.monte.is_some() || d.stock.is_some() {
            return Err(in_hand(
                h,
                "invalid deal: every card is dealt to the players (no monte, no stock)",
            ));
        }
        Ok(Deal {
            hands: parse_hands(h, opts.players, &d.hands)?,
        })
    }

    fn totals(m: &Match) -> Vec<i32> {
        m.tally().totals.first_n(m.options().players).to_vec()
    }
    fn seat_points(m: &Match, hand: Option<usize>) -> PerSeat<i32> {
        match hand {
            Some(i) => Match::hands(m)
                .get(i)
                .and_then(Hand::outcome)
                .map_or(PerSeat::splat(0), |o| o.award),
            None => m.tally().totals,
        }
    }
    /// Everyone else: with individual totals a forfeit is a loss to every other seat.
    fn opponents_of(m: &Match, seat: Seat) -> Vec<Seat> {
        Seat::first_n(m.options().players)
            .filter(|&s| s != seat)
            .collect()
    }

    fn hand_summary(m: &Match, i: usize) -> Option<String> {
        let hands = Match::hands(m);
        let hand = hands.get(i)?;
        if hand.is_void() {
            return Some("all passed: void deal".into());
        }
        let o = hand.outcome()?;
        Some(format!(
            "{}  totals {:?}",
            Event::Scored(Box::new(*o)),
            totals_through(m, i)
        ))
    }
    /// CH-D4: caller, partner, alone, bid, called, trump, target, points and tricks per side
    /// (`caller_side`, `defenders`), last trick, made, multiplier, award and totals per seat.
    fn replay_hand(m: &Match, i: usize) -> Value {
        let hands = Match::hands(m);
        let Some(hand) = hands.get(i) else {
            return Value::Null;
        };
        let n = m.options().players;
        let totals = totals_through(m, i);
        let dealer = hand.dealer().index();
        if hand.is_void() {
            return json!({"dealer": dealer, "void": true, "complete": true,
                "caller": null, "partner": null, "alone": null, "bid": null, "called": null,
                "trump": null, "target": null, "points": null, "tricks": null,
                "last_trick": null, "made": null, "multiplier": null,
                "award": vec![0; n as usize], "totals": totals});
        }
        let Some(o) = hand.outcome() else {
            return json!({"dealer": dealer, "void": false, "complete": false,
                "caller": hand.caller().map(Seat::index), "partner": null, "alone": null,
                "bid": hand.bid().map(bid_text), "called": hand.called().map(|c| c.to_string()),
                "trump": hand.trump().map(|s| s.letter().to_string()), "target": hand.target(),
                "points": null, "tricks": null, "last_trick": null, "made": null,
                "multiplier": null, "award": null, "totals": totals});
        };
        json!({
            "dealer": dealer, "void": false, "complete": true,
            "caller": o.caller.index(), "partner": o.partner.map(Seat::index), "alone": o.alone,
            "bid": o.bid.map(bid_text), "called": o.called.map(|c| c.to_string()),
            "trump": o.trump.map(|s| s.letter().to_string()), "target": o.target,
            "points": {"caller_side": o.points[0], "defenders": o.points[1]},
            "tricks": {"caller_side": o.tricks[0], "defenders": o.tricks[1]},
            "last_trick": Outcome::side_name(o.last_trick),
            "made": o.made, "multiplier": o.multiplier,
            "award": o.award.first_n(n), "totals": totals,
        })
    }
    /// The match's context of an observation of the last hand: its number, the totals, the
    /// earlier hands' outcomes.
    fn annotate(obs: &mut Observation, tally: &Tally, hands: &[Hand]) {
        (obs.hand_number, obs.previous) = earlier_outcomes(hands, Hand::outcome);
        obs.totals = tally.totals;
    }
}

/// The bid as the replay output gives it: `chiamo`, `solo`, `A`, `2 80`, `75`.
fn bid_text(a: Action) -> String {
    match a {
        Action::Bid(c) => c.name().to_owned(),
        Action::Promise(p) => p.to_string(),
        other => other.to_string(),
    }
}

/// The match totals per seat after hand `i` (the running totals a record's replay shows).
fn totals_through(m: &Match, i: usize) -> Vec<i32> {
    let n = m.options().players;
    let mut totals = PerSeat::splat(0i32);
    for o in Match::hands(m).iter().take(i + 1).filter_map(Hand::outcome) {
        for s in Seat::first_n(n) {
            totals[s] += o.award[s];
        }
    }
    totals.first_n(n).to_vec()
}
