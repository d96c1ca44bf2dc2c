//! How the [`HeuristicBot`] plays Calabresella: bids from hand strength, calls the card that
//! fills its best suit, keeps winners, and in play takes points when it can and gives them to
//! its partner when he wins.

use crate::action::{Action, Contract};
use crate::bots::cardplay::{self, Table};
use crate::bots::{Bot, HeuristicBot};
use crate::card::{Card, Rank, Suit};
use crate::cardset::CardSet;
use crate::game::Viewer;
use crate::seat::Seat;

use super::observation::Observation;

/// Rough number of points a hand can expect to take as soloist.
pub(crate) fn strength(hand: CardSet) -> f64 {
    let mut total = 0.0;
    for suit in Suit::ALL {
        let s = hand.of_suit(suit);
        let has = |r: Rank| s.contains(Card::new(suit, r));
        let len = s.len() as f64;
        let (h3, h2, ha) = (has(Rank::Three), has(Rank::Two), has(Rank::Ace));
        if h3 {
            total += 1.0;
        }
        if h2 {
            total += if h3 { 0.9 } else { 0.5 };
        }
        if ha {
            total += if h3 && h2 {
                1.3
            } else if (h3 || h2) && len >= 3.0 {
                1.0
            } else {
                0.4
            };
        }
        if h3 && len > 3.0 {
            total += 0.35 * (len - 3.0);
        }
        // Lower figures are worth a third each if they ever win or are smeared to a partner.
        total += (s & CardSet::FIGURES).len() as f64 * 0.1;
    }
    total
}

/// How much a player wants to keep `card` in `hand` (higher: keep).
fn keep_value(card: Card, hand: CardSet, gone: CardSet) -> i32 {
    let suit_cards = hand.of_suit(card.suit());
    let higher_out = CardSet::suit(card.suit()) - hand - gone;
    let master = higher_out.iter().all(|c| c.index() < card.index());
    let mut v = i32::from(card.rank().power()) + 4 * i32::from(card.thirds());
    if master {
        v += 20;
    }
    if suit_cards.len() <= 2 && !master {
        v -= 4;
    }
    v
}

fn pick<T: Copy>(options: impl Iterator<Item = T>, mut key: impl FnMut(T) -> i32) -> Option<T> {
    options.max_by_key(|&x| key(x))
}

impl Bot<Observation> for HeuristicBot {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn act(&mut self, obs: &Observation) -> Action {
        let legal = &obs.legal_actions;
        let fallback = legal[0];
        let me = match obs.viewer {
            Viewer::Seat(s) => s,
            Viewer::Spectator => return fallback,
        };
        // In a due the bot may decide for the dummy: it then plays the dummy's cards.
        let actor = obs.actor.unwrap_or(me);
        let hand = if actor == me {
            obs.hand
        } else {
            obs.visible_hands
                .iter()
                .find(|(s, _)| *s == actor)
                .map_or(obs.hand, |(_, h)| *h)
        };
        let gone = obs.played();
        match legal[0] {
            Action::Pass | Action::Bid(_) => bid(obs, hand),
            Action::Call(_) => pick(legal.iter().copied(), |a| match a {
                Action::Call(c) => {
                    let len = hand.of_suit(c.suit()).len() as i32;
                    10 * len + i32::from(c.rank().power())
                }
                _ => i32::MIN,
            })
            .unwrap_or(fallback),
            Action::Return(_) | Action::Discard(_) => pick(legal.iter().copied(), |a| match a {
                Action::Return(c) | Action::Discard(c) => -keep_value(c, hand, gone),
                _ => i32::MIN,
            })
            .unwrap_or(fallback),
            Action::Take(_) => pick(legal.iter().copied(), |a| match a {
                Action::Take(set) => set
                    .iter()
                    .map(|c| {
                        if c.thirds() >= 1 && c.rank().power() >= 7 {
                            2
                        } else {
                            -1
                        }
                    })
                    .sum(),
                _ => i32::MIN,
            })
            .unwrap_or(fallback),
            Action::Play(..) => play(obs, actor, hand, gone).unwrap_or(fallback),
            Action::Promise(_) => fallback,
        }
    }
}

fn bid(obs: &Observation, hand: CardSet) -> Action {
    let s = strength(hand);
    let wanted = [
        (Contract::Scegliete, 9.5),
        (Contract::Dividete, 8.5),
        (Contract::Solissimo, 7.0),
        (Contract::Solo, 5.2),
        (Contract::Chiamo, 4.0),
    ];
    for (c, threshold) in wanted {
        if s >= threshold && obs.legal_actions.contains(&Action::Bid(c)) {
            return Action::Bid(c);
        }
    }
    Action::Pass
}

fn partner_of(obs: &Observation, seat: Seat) -> Option<Seat> {
    let soloist = obs.soloist?;
    if seat == soloist {
        return None;
    }
    Seat::first_n(obs.options.players).find(|&s| s != soloist && s != seat && Some(s) != obs.idle)
}

fn play(obs: &Observation, actor: Seat, hand: CardSet, gone: CardSet) -> Option<Action> {
    let partner = partner_of(obs, actor);
    cardplay::choose(&Table::seen_by(
        hand,
        &obs.legal_actions,
        &obs.trick,
        (partner, gone),
        3,
    ))
}
