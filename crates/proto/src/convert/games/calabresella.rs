//! Calabresella on the wire: `CalabresellaOptions`, its events, its observation and hand
//! results.

use calabresella_engine::calabresella::{self, HandOutcome, Match, MatchEnd, Options};
use calabresella_engine::game::GameOptions;

use super::super::WireError;
use super::super::actions::action;
use super::super::any::WireGame;
use super::super::cards::{card, card_list, cards, contract, seat};
use super::super::view::{dealt_event, event_base, phase, played, played_event, trick_event};
use crate::v1;

impl WireGame for Match {
    const WIRE_GAMES: &'static [(v1::Game, &'static str)] =
        &[(v1::Game::Calabresella, "calabresella")];

    fn options_to_wire(o: &Options) -> v1::GameOptions {
        v1::GameOptions {
            game: v1::Game::Calabresella as i32,
            // Read from the typed rules, which name every option: `settings` is for input.
            settings: Default::default(),
            rules: Some(v1::game_options::Rules::Calabresella(
                v1::CalabresellaOptions {
                    players: Some(u32::from(o.players)),
                    target: Some(o.target),
                    match_end: match o.match_end {
                        MatchEnd::Pooled => v1::MatchEnd::Pooled,
                        MatchEnd::Individual => v1::MatchEnd::Individual,
                    } as i32,
                    stramazzo: Some(o.stramazzo),
                    only_chiamo: Some(o.only_chiamo),
                    chiamo_threes_only: Some(o.chiamo_threes_only),
                    aperta: Some(o.aperta),
                    a_due: Some(o.a_due),
                    max_deals: Some(o.max_deals),
                    terziglio: false,
                },
            )),
        }
    }

    fn options_from_wire(
        game: v1::Game,
        rules: Option<&v1::game_options::Rules>,
    ) -> Option<Result<Options, WireError>> {
        (game == v1::Game::Calabresella).then(|| options_from_wire(rules))
    }

    fn observation_to_wire(o: &calabresella::Observation) -> v1::Observation {
        observation(o)
    }

    fn event_to_wire(hand_number: u32, e: &calabresella::Event) -> v1::Event {
        event(hand_number, e)
    }
}

/// Calabresella options from the wire: unset fields take the defaults.
fn options_from_wire(rules: Option<&v1::game_options::Rules>) -> Result<Options, WireError> {
    let bad = |e: &dyn std::fmt::Display| WireError::Options(e.to_string());
    let o = match rules {
        None => v1::CalabresellaOptions::default(),
        Some(v1::game_options::Rules::Calabresella(o)) => *o,
        Some(_) => {
            return Err(WireError::Options(
                "calabresella takes `calabresella` options".into(),
            ));
        }
    };
    let mut opts = Options::default();
    let mut set = |k: &str, v: String| opts.set(k, &v).map_err(|e| bad(&e));
    if o.terziglio {
        set("preset", "terziglio".into())?;
    }
    if let Some(v) = o.players {
        set("players", v.to_string())?;
    }
    if let Some(v) = o.target {
        set("target", v.to_string())?;
    }
    if let Some(v) = o.a_due {
        set("a_due", v.to_string())?;
    }
    match v1::MatchEnd::try_from(o.match_end) {
        Ok(v1::MatchEnd::Unspecified) => {}
        Ok(v1::MatchEnd::Pooled) => set("match_end", "pooled".into())?,
        Ok(v1::MatchEnd::Individual) => set("match_end", "individual".into())?,
        Err(_) => return Err(WireError::Options(format!("match_end {}", o.match_end))),
    }
    for (k, v) in [
        ("stramazzo", o.stramazzo),
        ("only_chiamo", o.only_chiamo),
        ("chiamo_threes_only", o.chiamo_threes_only),
        ("aperta", o.aperta),
    ] {
        if let Some(v) = v {
            set(k, v.to_string())?;
        }
    }
    if let Some(v) = o.max_deals {
        set("max_deals", v.to_string())?;
    }
    opts.validate().map_err(|e| bad(&e))?;
    Ok(opts)
}

/// A hand's result on the wire.
fn result(hand_number: u32, o: &HandOutcome) -> v1::HandResult {
    let text = calabresella::Event::Scored(Box::new(*o)).to_string();
    match o {
        HandOutcome::Void => v1::HandResult {
            hand_number,
            void: true,
            award: vec![0; 4],
            text,
            ..v1::HandResult::default()
        },
        HandOutcome::Scored(s) => v1::HandResult {
            hand_number,
            void: false,
            soloist: Some(seat(s.soloist)),
            contract: contract(Some(s.contract)),
            called: s.called.map(card),
            made: s.made,
            multiplier: s.multiplier,
            points: s.points.to_vec(),
            tricks: s.tricks.to_vec(),
            card_points: Vec::new(),
            accusi: Vec::new(),
            last_trick_side: s.last_trick as u32,
            award: s.award.0[..4].to_vec(),
            monte: cards(s.monte),
            text,
            ..v1::HandResult::default()
        },
    }
}

/// A Calabresella event (already filtered for its viewer) on the wire.
fn event(hand_number: u32, e: &calabresella::Event) -> v1::Event {
    use calabresella::Event as E;
    use v1::EventKind as K;
    let text = e.to_string();
    match *e {
        E::Dealt { seat, cards } => dealt_event(seat, cards, text),
        E::Bid {
            seat: s,
            contract: c,
        } => v1::Event {
            seat: Some(seat(s)),
            contract: contract(c),
            ..event_base(K::Bid, text)
        },
        E::AuctionWon {
            soloist,
            contract: c,
        } => v1::Event {
            seat: Some(seat(soloist)),
            contract: contract(Some(c)),
            ..event_base(K::AuctionWon, text)
        },
        E::AllPassed => event_base(K::AllPassed, text),
        E::DummyExposed { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: cards(c),
            ..event_base(K::DummyExposed, text)
        },
        E::Called { card: c } => v1::Event {
            card: Some(card(c)),
            ..event_base(K::Called, text)
        },
        E::HandedOver { from } => v1::Event {
            seat: Some(seat(from)),
            ..event_base(K::HandedOver, text)
        },
        E::CalledInMonte => event_base(K::CalledInMonte, text),
        E::Returned { to, card: c } => v1::Event {
            to_seat: Some(seat(to)),
            card: c.map(card),
            ..event_base(K::Returned, text)
        },
        E::MonteTaken { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: c.map(|c| card_list(&c)).unwrap_or_default(),
            ..event_base(K::MonteTaken, text)
        },
        E::MonteReceived { seat: s, cards: c } => v1::Event {
            seat: Some(seat(s)),
            cards: c.map(cards).unwrap_or_default(),
            ..event_base(K::MonteReceived, text)
        },
        E::MonteShown { cards: c } => v1::Event {
            cards: card_list(&c),
            ..event_base(K::MonteShown, text)
        },
        E::MonteSplit { first, second } => v1::Event {
            seat: Some(seat(first.0)),
            cards: cards(first.1),
            to_seat: Some(seat(second.0)),
            other_cards: cards(second.1),
            ..event_base(K::MonteSplit, text)
        },
        E::Discarded { seat: s, card: c } => v1::Event {
            seat: Some(seat(s)),
            card: c.map(card),
            ..event_base(K::Discarded, text)
        },
        E::Played { seat, card, signal } => played_event(seat, card, signal, text),
        E::TrickWon {
            number,
            winner,
            cards,
        } => trick_event(number, winner, cards, text),
        E::HandShown {
            seat: s,
            to,
            cards: c,
        } => v1::Event {
            seat: Some(seat(s)),
            to_seat: Some(seat(to)),
            cards: cards(c),
            ..event_base(K::HandShown, text)
        },
        E::MonteRevealed { to, cards: c } => v1::Event {
            seat: Some(seat(to)),
            cards: cards(c),
            ..event_base(K::MonteRevealed, text)
        },
        E::Scored(ref o) => v1::Event {
            result: Some(Box::new(result(hand_number, o))),
            ..event_base(K::HandScored, text)
        },
    }
}

/// A Calabresella observation on the wire.
fn observation(o: &calabresella::Observation) -> v1::Observation {
    let monte = o.shown_monte();
    let n = o.hand_number;
    v1::Observation {
        viewer: o.viewer.seat().map(seat),
        options: Some(Match::options_to_wire(&o.options)),
        hand_number: n,
        dealer: seat(o.dealer),
        idle: o.idle.map(seat),
        totals: o.totals.first_n(o.options.players).to_vec(),
        phase: phase(o.phase),
        actor: o.actor.map(seat),
        decider: o.decider.map(seat),
        highest_bidder: o.highest_bid.map(|(s, _)| seat(s)),
        highest_bid: contract(o.highest_bid.map(|(_, c)| c)),
        soloist: o.soloist.map(seat),
        contract: contract(o.contract),
        called: o.called.map(card),
        hand: cards(o.hand),
        visible_hands: o
            .visible_hands
            .iter()
            .map(|&(s, c)| v1::SeatCards {
                seat: seat(s),
                cards: cards(c),
            })
            .collect(),
        hand_sizes: o
            .hand_sizes
            .first_n(o.options.players)
            .iter()
            .map(|&x| u32::from(x))
            .collect(),
        trick: played(&o.trick),
        tricks_done: u32::from(o.tricks_done),
        side_tricks: o.side_tricks.to_vec(),
        stock_left: 0,
        events: o.events.iter().map(|e| event(n, e)).collect(),
        legal_actions: o
            .legal_actions
            .iter()
            .map(|&a| action(a, monte.as_ref()))
            .collect(),
        outcome: o.outcome.as_ref().map(|r| result(n, r)),
        previous: o
            .previous
            .iter()
            .enumerate()
            .map(|(i, r)| result(i as u32, r))
            .collect(),
        ..v1::Observation::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_fields_take_the_defaults_and_the_terziglio_preset_sets_the_target() {
        let four = v1::CalabresellaOptions {
            players: Some(4),
            aperta: Some(true),
            terziglio: true,
            ..Default::default()
        };
        let o = options_from_wire(Some(&v1::game_options::Rules::Calabresella(four)))
            .expect("valid options");
        assert_eq!((o.players, o.aperta, o.target), (4, true, 31));
        assert_eq!(options_from_wire(None), Ok(Options::default()));
    }
}
