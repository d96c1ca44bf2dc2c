//! How the [`HeuristicBot`] plays the calling games: bid on strength, call into its longest
//! suit, then the shared card play (Tressette con la Chiamata) or a trump-aware one (Briscola
//! Chiamata), with the partner it knows of.

use crate::action::{Action, Contract, Promise};
use crate::bots::cardplay::{self, Table};
use crate::bots::{Bot, HeuristicBot, play_card};
use crate::card::{Card, Rank};
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::cards::{briscola_points, briscola_points_of, briscola_strength};
use super::hand::Role;
use super::observation::Observation;
use super::options::Variant;

impl Bot<Observation> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn act(&mut self, obs: &Observation) -> Action {
        // Asked with nothing to do (the contract says it is not), it passes.
        let Some(&fallback) = obs.legal_actions.first() else {
            return Action::Pass;
        };
        let Some(me) = obs.viewer.seat() else {
            return fallback;
        };
        match fallback {
            Action::Pass => bid(obs).unwrap_or(fallback),
            Action::Call(_) => call(obs).unwrap_or(fallback),
            Action::Play(..) => match obs.options.variant {
                Variant::Tressette => tressette_play(obs, me),
                Variant::Briscola => briscola_play(obs, me),
            }
            .unwrap_or(fallback),
            _ => fallback,
        }
    }
}

/// The seat the bot knows to be on its side: the caller's revealed partner, or the caller for
/// the partner. Defenders do not know the hidden partner, so they count on nobody.
fn ally(obs: &Observation) -> Option<Seat> {
    match obs.role? {
        Role::Caller => obs.partner,
        Role::Partner => obs.caller,
        Role::Defender | Role::CallerAlone => None,
    }
}

/// Tressette strength: card thirds plus the 3s and 2s that take tricks.
fn tressette_strength(hand: CardSet) -> i32 {
    let count = |r| (hand & CardSet::rank_mask(r)).len() as i32;
    hand.thirds() as i32 + 3 * count(Rank::Three) + count(Rank::Two)
}

/// Briscola strength: card points, with the longest suit counted again as likely trumps.
fn briscola_strength_of(hand: CardSet) -> i32 {
    let best_suit = crate::card::Suit::ALL
        .into_iter()
        .map(|s| {
            let cards = hand.of_suit(s);
            briscola_points_of(cards) as i32 + 6 * cards.len() as i32
        })
        .max()
        .unwrap_or(0);
    briscola_points_of(hand) as i32 + best_suit
}

fn bid(obs: &Observation) -> Option<Action> {
    let legal = &obs.legal_actions;
    match obs.options.variant {
        Variant::Tressette => {
            let s = tressette_strength(obs.hand);
            let want = if s >= 24 {
                Some(Action::Bid(Contract::Solo))
            } else if s >= 13 {
                Some(Action::Bid(Contract::Chiamo))
            } else {
                None
            };
            // The strongest bid it wants that is legal, else pass.
            [want, Some(Action::Bid(Contract::Chiamo))]
                .into_iter()
                .flatten()
                .find(|a| legal.contains(a) && want.is_some())
        }
        Variant::Briscola => {
            let s = briscola_strength_of(obs.hand);
            // How far up the ladder the hand may go: a rank step, or the points promised.
            let lowest = legal.iter().find_map(|a| match a {
                Action::Promise(p) => Some(*p),
                _ => None,
            })?;
            let ok = match lowest {
                Promise::Rank(_) => i32::from(lowest.step()) <= (s - 55) / 6,
                Promise::TwoFor(n) | Promise::Points(n) => i32::from(n) <= 61 + (s - 60) / 2,
            };
            ok.then_some(Action::Promise(lowest))
        }
    }
}

fn call(obs: &Observation) -> Option<Action> {
    let hand = obs.hand;
    let calls = obs.legal_actions.iter().filter_map(|a| match a {
        Action::Call(c) => Some(*c),
        _ => None,
    });
    // Prefer a card it does not hold (a partner helps), then its longest, richest suit.
    let score = |c: Card| {
        let suit = hand.of_suit(c.suit());
        let own = if hand.contains(c) { -1000 } else { 0 };
        own + match obs.options.variant {
            Variant::Tressette => 10 * suit.len() as i32 + i32::from(c.rank().power()),
            Variant::Briscola => 8 * suit.len() as i32 + briscola_points_of(suit) as i32,
        }
    };
    calls.max_by_key(|&c| score(c)).map(Action::Call)
}

fn tressette_play(obs: &Observation, _me: Seat) -> Option<Action> {
    cardplay::choose(&Table::seen_by(
        obs.hand,
        &obs.legal_actions,
        &obs.trick,
        (ally(obs), obs.played()),
        usize::from(obs.options.players),
    ))
}

fn briscola_play(obs: &Observation, _me: Seat) -> Option<Action> {
    let playable: CardSet = obs.legal_actions.iter().filter_map(play_card).collect();
    let trump = obs.trump.map_or(CardSet::EMPTY, CardSet::suit);
    let points = |c: Card| briscola_points(c.rank()) as i32;
    // Cheapest: fewest points, trumps kept, low order first.
    let cheap = |c: Card| {
        -(points(c) * 10 + if trump.contains(c) { 200 } else { 0 })
            - i32::from(super::cards::briscola_order(c.rank()))
    };
    let pick = |set: CardSet, key: &dyn Fn(Card) -> i32| {
        set.iter()
            .max_by_key(|&c| key(c))
            .map(|c| Action::Play(c, None))
    };
    let Some(&(_, first)) = obs.trick.first() else {
        return pick(playable, &cheap);
    };
    let led = CardSet::suit(first.suit());
    let strength = |c: Card| briscola_strength(c, led, trump);
    let (win_seat, win_card) = obs
        .trick
        .iter()
        .copied()
        .max_by_key(|&(_, c)| strength(c))
        .unwrap_or(obs.trick[0]);
    let trick_points: i32 = obs.trick.iter().map(|&(_, c)| points(c)).sum();
    let last = obs.trick.len() + 1 == obs.options.players as usize;
    if ally(obs) == Some(win_seat) && (last || trump.contains(win_card)) {
        // Give points to the ally, never a trump.
        return pick(playable, &|c| {
            points(c) * 10 - if trump.contains(c) { 500 } else { 0 }
        });
    }
    let winners: CardSet = playable
        .iter()
        .filter(|&c| strength(c) > strength(win_card))
        .collect();
    if !winners.is_empty() && (trick_points >= 10 || (last && trick_points > 0)) {
        return pick(winners, &cheap);
    }
    pick(playable, &cheap)
}
