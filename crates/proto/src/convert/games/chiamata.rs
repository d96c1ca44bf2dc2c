//! Tressette con la Chiamata and Briscola Chiamata on the wire: `ChiamataOptions`, the auction
//! and call events, the partner once known, signed per-seat results. Nothing here names the
//! holder of the called card unless the engine's observation does (CH-D2).

use calabresella_engine::chiamata::{self, Auction, FirstLead, Match, Options, Role, Variant};
use calabresella_engine::game::GameOptions;

use super::super::WireError;
use super::super::actions::action;
use super::super::any::WireGame;
use super::super::cards::{card, cards, contract, seat, signal, suit_wire};
use super::super::view::{dealt_event, event_base, phase, played, played_event, trick_event};
use crate::v1;

impl WireGame for Match {
    const WIRE_GAMES: &'static [(v1::Game, &'static str)] = &[
        (v1::Game::TressetteChiamata, Variant::Tressette.game()),
        (v1::Game::BriscolaChiamata, Variant::Briscola.game()),
    ];
    const SIGNED_TOTALS: bool = true;

    fn options_to_wire(o: &Options) -> v1::GameOptions {
        v1::GameOptions {
            game: match o.variant {
                Variant::Tressette => v1::Game::TressetteChiamata,
                Variant::Briscola => v1::Game::BriscolaChiamata,
            } as i32,
            // Read from the typed rules, which name every option: `settings` is for input.
            settings: Default::default(),
            rules: Some(v1::game_options::Rules::Chiamata(v1::ChiamataOptions {
                players: Some(u32::from(o.players)),
                hands: Some(o.match_hands()),
                solo_bid: Some(o.solo_bid),
                call_threes_only: Some(o.call_threes_only),
                call_own_card: Some(o.call_own_card),
                auction: match o.auction {
                    Auction::Ranks => v1::ChiamataAuction::Ranks,
                    Auction::Points => v1::ChiamataAuction::Points,
                } as i32,
                two_closes: Some(o.two_closes),
                first_lead: match o.first_lead {
                    FirstLead::Eldest => v1::FirstLead::Eldest,
                    FirstLead::Caller => v1::FirstLead::Caller,
                } as i32,
                bid_multiplier: Some(o.bid_multiplier),
                max_deals: Some(o.max_deals),
            })),
        }
    }

    fn options_from_wire(
        game: v1::Game,
        rules: Option<&v1::game_options::Rules>,
    ) -> Option<Result<Options, WireError>> {
        let variant = match game {
            v1::Game::TressetteChiamata => Variant::Tressette,
            v1::Game::BriscolaChiamata => Variant::Briscola,
            _ => return None,
        };
        Some(options_from_wire(variant, rules))
    }

    fn observation_to_wire(o: &chiamata::Observation) -> v1::Observation {
        observation(o)
    }

    fn event_to_wire(hand_number: u32, e: &chiamata::Event) -> v1::Event {
        event(hand_number, e)
    }
}

/// Options from the wire: unset fields take the defaults; the result is validated.
fn options_from_wire(
    variant: Variant,
    rules: Option<&v1::game_options::Rules>,
) -> Result<Options, WireError> {
    let bad = |e: &dyn std::fmt::Display| WireError::Options(e.to_string());
    let o = match rules {
        None => v1::ChiamataOptions::default(),
        Some(v1::game_options::Rules::Chiamata(o)) => *o,
        Some(_) => {
            return Err(WireError::Options(
                "the calling games take `chiamata` options".into(),
            ));
        }
    };
    let mut opts = Options::new(variant);
    let mut set = |k: &str, v: String| opts.set(k, &v).map_err(|e| bad(&e));
    let numbers = [
        ("players", o.players),
        ("hands", o.hands),
        ("max_deals", o.max_deals),
    ];
    for (k, v) in numbers {
        if let Some(v) = v {
            set(k, v.to_string())?;
        }
    }
    let flags = [
        ("solo_bid", o.solo_bid),
        ("call_threes_only", o.call_threes_only),
        ("call_own_card", o.call_own_card),
        ("two_closes", o.two_closes),
        ("bid_multiplier", o.bid_multiplier),
    ];
    for (k, v) in flags {
        if let Some(v) = v {
            set(k, v.to_string())?;
        }
    }
    match v1::ChiamataAuction::try_from(o.auction) {
        Ok(v1::ChiamataAuction::Unspecified) => {}
        Ok(v1::ChiamataAuction::Ranks) => set("auction", "ranks".into())?,
        Ok(v1::ChiamataAuction::Points) => set("auction", "points".into())?,
        Err(_) => return Err(WireError::Options(format!("auction {}", o.auction))),
    }
    match v1::FirstLead::try_from(o.first_lead) {
        Ok(v1::FirstLead::Unspecified) => {}
        Ok(v1::FirstLead::Eldest) => set("first_lead", "eldest".into())?,
        Ok(v1::FirstLead::Caller) => set("first_lead", "caller".into())?,
        Err(_) => return Err(WireError::Options(format!("first_lead {}", o.first_lead))),
    }
    // Output fills `hands` in full; the default (two per seat) reads back as the default.
    if opts.hands == Some(2 * u32::from(opts.players)) {
        opts.hands = None;
    }
    opts.validate().map_err(|e| bad(&e))?;
    Ok(opts)
}

/// The contract of a Tressette con la Chiamata bid (`chiamo`, `solo`) on the wire; unset for a
/// pass, a Briscola bid or no bid.
fn bid_contract(a: Option<calabresella_engine::Action>) -> i32 {
    contract(match a {
        Some(calabresella_engine::Action::Bid(c)) => Some(c),
        _ => None,
    })
}

/// A role on the wire.
fn role(r: Option<Role>) -> i32 {
    (match r {
        None => v1::Role::Unspecified,
        Some(Role::Caller) => v1::Role::Caller,
        Some(Role::Partner) => v1::Role::Partner,
        Some(Role::Defender) => v1::Role::Defender,
        Some(Role::CallerAlone) => v1::Role::CallerAlone,
    }) as i32
}

/// A scored hand on the wire: sides are `[caller's side, defenders]`, the award signed.
fn result(hand_number: u32, o: &chiamata::Outcome) -> v1::HandResult {
    v1::HandResult {
        hand_number,
        caller: Some(seat(o.caller)),
        partner: o.partner.map(seat),
        alone: o.alone,
        bid: o.bid.map(|b| action(b, None)),
        contract: bid_contract(o.bid),
        called: o.called.map(card),
        trump: o.trump.map_or(0, |s| suit_wire(s) as i32),
        target: o.target,
        made: o.made,
        multiplier: o.multiplier,
        points: o.points.to_vec(),
        tricks: o.tricks.to_vec(),
        last_trick_side: o.last_trick as u32,
        signed_award: o.award.first_n(o.players).to_vec(),
        text: chiamata::Event::Scored(Box::new(*o)).to_string(),
        ..v1::HandResult::default()
    }
}

/// An event on the wire.
fn event(hand_number: u32, e: &chiamata::Event) -> v1::Event {
    use chiamata::Event as E;
    use v1::EventKind as K;
    let text = e.to_string();
    match *e {
        E::Dealt { seat, cards } => dealt_event(seat, cards, text),
        E::Spoke { seat: s, action: a } => v1::Event {
            seat: Some(seat(s)),
            contract: bid_contract(Some(a)),
            action: Some(Box::new(action(a, None))),
            ..event_base(K::Bid, text)
        },
        E::AuctionWon { seat: s, bid } => v1::Event {
            seat: Some(seat(s)),
            contract: bid_contract(Some(bid)),
            action: Some(Box::new(action(bid, None))),
            ..event_base(K::AuctionWon, text)
        },
        E::AllPassed => event_base(K::AllPassed, text),
        E::Called { seat: s, card: c } => v1::Event {
            seat: Some(seat(s)),
            card: Some(card(c)),
            ..event_base(K::Called, text)
        },
        E::Played { seat, card, signal } => played_event(seat, card, signal, text),
        E::PartnerKnown { partner } => v1::Event {
            seat: partner.map(seat),
            ..event_base(K::PartnerKnown, text)
        },
        E::TrickWon {
            number,
            winner,
            cards,
        } => trick_event(number, winner, cards, text),
        E::Scored(ref o) => v1::Event {
            result: Some(Box::new(result(hand_number, o))),
            ..event_base(K::HandScored, text)
        },
    }
}

/// An observation on the wire.
fn observation(o: &chiamata::Observation) -> v1::Observation {
    let n = o.hand_number;
    let players = o.options.players;
    let mut trick = played(&o.trick);
    // The lead's signal is public: carry it onto the trick from the event that played it.
    if let Some(first) = trick.first_mut()
        && let Some(chiamata::Event::Played { signal: g, .. }) = o.events.iter().rev().find(
            |e| matches!(e, chiamata::Event::Played { seat: s, .. } if seat(*s) == first.seat),
        )
    {
        first.signal = signal(*g);
    }
    v1::Observation {
        viewer: o.viewer.seat().map(seat),
        options: Some(Match::options_to_wire(&o.options)),
        hand_number: n,
        dealer: seat(o.dealer),
        phase: phase(o.phase),
        actor: o.actor.map(seat),
        decider: o.actor.map(seat),
        highest_bidder: o.highest.map(|(s, _)| seat(s)),
        highest_bid: bid_contract(o.highest.map(|(_, a)| a)),
        highest: o.highest.map(|(_, a)| action(a, None)),
        contract: bid_contract(o.bid),
        caller: o.caller.map(seat),
        bid: o.bid.map(|b| action(b, None)),
        called: o.called.map(card),
        trump: o.trump.map_or(0, |s| suit_wire(s) as i32),
        target: o.target,
        partner: o.partner.map(seat),
        alone: o.alone,
        role: role(o.role),
        hand: cards(o.hand),
        hand_sizes: o
            .hand_sizes
            .first_n(players)
            .iter()
            .map(|&x| u32::from(x))
            .collect(),
        trick,
        tricks_done: u32::from(o.tricks_done),
        seat_points: o.seat_points.first_n(players).to_vec(),
        signed_totals: o.totals.first_n(players).to_vec(),
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
