//! Tressette and Tressette in Due on the wire: `TressetteOptions`, their events (accusi, cards
//! drawn), their observation and hand results.

use calabresella_engine::game::GameOptions;
use calabresella_engine::game::Phase;
use calabresella_engine::tressette::{self, Accuso, Match, Options, Variant};

use super::super::WireError;
use super::super::actions::action;
use super::super::any::WireGame;
use super::super::cards::{card, cards, contract, rank_wire, seat, signal, suit_wire};
use super::super::view::{dealt_event, event_base, phase, played, played_event, trick_event};
use crate::v1;

impl WireGame for Match {
    const WIRE_GAMES: &'static [(v1::Game, &'static str)] = &[
        (v1::Game::Tressette, Variant::Partnership.game()),
        (v1::Game::TressetteInDue, Variant::Due.game()),
    ];

    fn options_to_wire(o: &Options) -> v1::GameOptions {
        v1::GameOptions {
            game: match o.variant {
                Variant::Partnership => v1::Game::Tressette,
                Variant::Due => v1::Game::TressetteInDue,
            } as i32,
            // Read from the typed rules, which name every option: `settings` is for input.
            settings: Default::default(),
            rules: Some(v1::game_options::Rules::Tressette(v1::TressetteOptions {
                target: Some(o.target),
                accusi: Some(o.accusi),
                follow_suit_always: Some(o.follow_suit_always),
                max_deals: Some(o.max_deals),
            })),
        }
    }

    fn options_from_wire(
        game: v1::Game,
        rules: Option<&v1::game_options::Rules>,
    ) -> Option<Result<Options, WireError>> {
        let variant = match game {
            v1::Game::Tressette => Variant::Partnership,
            v1::Game::TressetteInDue => Variant::Due,
            _ => return None,
        };
        Some(options_from_wire(variant, rules))
    }

    fn observation_to_wire(o: &tressette::Observation) -> v1::Observation {
        observation(o)
    }

    fn event_to_wire(hand_number: u32, e: &tressette::Event) -> v1::Event {
        event(hand_number, e)
    }
}

/// Tressette options from the wire: unset fields take the defaults.
fn options_from_wire(
    variant: Variant,
    rules: Option<&v1::game_options::Rules>,
) -> Result<Options, WireError> {
    let bad = |e: &dyn std::fmt::Display| WireError::Options(e.to_string());
    let o = match rules {
        None => v1::TressetteOptions::default(),
        Some(v1::game_options::Rules::Tressette(o)) => *o,
        Some(_) => {
            return Err(WireError::Options(
                "tressette games take `tressette` options".into(),
            ));
        }
    };
    let mut opts = Options::new(variant);
    let mut set = |k: &str, v: String| opts.set(k, &v).map_err(|e| bad(&e));
    if let Some(v) = o.target {
        set("target", v.to_string())?;
    }
    if let Some(v) = o.accusi {
        set("accusi", v.to_string())?;
    }
    if let Some(v) = o.follow_suit_always {
        set("follow_suit_always", v.to_string())?;
    }
    if let Some(v) = o.max_deals {
        set("max_deals", v.to_string())?;
    }
    opts.validate().map_err(|e| bad(&e))?;
    Ok(opts)
}

/// A hand's result on the wire.
fn result(hand_number: u32, o: &tressette::Outcome) -> v1::HandResult {
    v1::HandResult {
        hand_number,
        points: o.points.to_vec(),
        tricks: o.tricks.to_vec(),
        card_points: o.card_points.to_vec(),
        accusi: o.accusi.to_vec(),
        last_trick_side: o.last_trick as u32,
        award: o.points.to_vec(),
        text: tressette::Event::Scored(*o).to_string(),
        multiplier: 1,
        ..v1::HandResult::default()
    }
}

/// An accuso on the wire.
fn accuso(a: Accuso) -> v1::Accuso {
    let mut w = v1::Accuso {
        cards: cards(a.cards()),
        points: a.points(),
        text: a.to_string(),
        ..v1::Accuso::default()
    };
    match a {
        Accuso::Napoletana(s) => {
            w.kind = v1::AccusoKind::Napoletana as i32;
            w.suit = suit_wire(s) as i32;
        }
        Accuso::Three { rank, missing } => {
            w.kind = v1::AccusoKind::Three as i32;
            w.rank = rank_wire(rank) as i32;
            w.missing = suit_wire(missing) as i32;
        }
        Accuso::Four(rank) => {
            w.kind = v1::AccusoKind::Four as i32;
            w.rank = rank_wire(rank) as i32;
        }
    }
    w
}

/// A Tressette event on the wire.
fn event(hand_number: u32, e: &tressette::Event) -> v1::Event {
    use tressette::Event as E;
    use v1::EventKind as K;
    let text = e.to_string();
    match *e {
        E::Dealt { seat, cards } => dealt_event(seat, cards, text),
        E::Declared { seat: s, accuso: a } => v1::Event {
            seat: Some(seat(s)),
            accuso: Some(Box::new(accuso(a))),
            ..event_base(K::Declared, text)
        },
        E::Played { seat, card, signal } => played_event(seat, card, signal, text),
        E::TrickWon {
            number,
            winner,
            cards,
        } => trick_event(number, winner, cards, text),
        E::Drew { seat: s, card: c } => v1::Event {
            seat: Some(seat(s)),
            card: Some(card(c)),
            ..event_base(K::Drew, text)
        },
        E::Scored(o) => v1::Event {
            result: Some(Box::new(result(hand_number, &o))),
            ..event_base(K::HandScored, text)
        },
    }
}

/// A Tressette observation on the wire.
fn observation(o: &tressette::Observation) -> v1::Observation {
    let n = o.hand_number;
    let players = o.options.variant.players();
    let mut trick = played(&o.trick);
    // The lead's signal is public: carry it onto the trick from the event that played it.
    if let Some(first) = trick.first_mut()
        && let Some(tressette::Event::Played { signal: g, .. }) = o.events.iter().rev().find(
            |e| matches!(e, tressette::Event::Played { seat: s, .. } if seat(*s) == first.seat),
        )
    {
        first.signal = signal(*g);
    }
    v1::Observation {
        viewer: o.viewer.seat().map(seat),
        options: Some(Match::options_to_wire(&o.options)),
        hand_number: n,
        dealer: seat(o.dealer),
        idle: None,
        totals: o.totals.to_vec(),
        phase: phase(if o.outcome.is_some() {
            Phase::Over
        } else {
            Phase::Play
        }),
        actor: o.actor.map(seat),
        decider: o.actor.map(seat),
        highest_bidder: None,
        highest_bid: contract(None),
        soloist: None,
        contract: contract(None),
        called: None,
        hand: cards(o.hand),
        visible_hands: Vec::new(),
        hand_sizes: o
            .hand_sizes
            .first_n(players)
            .iter()
            .map(|&x| u32::from(x))
            .collect(),
        trick,
        tricks_done: u32::from(o.tricks_done),
        side_tricks: Vec::new(),
        stock_left: u32::from(o.stock_left),
        events: o.events.iter().map(|e| event(n, e)).collect(),
        legal_actions: o.legal_actions.iter().map(|&a| action(a, None)).collect(),
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
