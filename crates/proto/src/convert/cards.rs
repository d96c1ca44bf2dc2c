//! Cards, contracts, signals and seats between the engine and the wire.

use calabresella_engine::{Card, CardSet, Contract, Rank, Seat, Signal, Suit};

use super::WireError;
use crate::v1;

/// A suit on the wire.
pub(crate) fn suit_wire(s: Suit) -> v1::Suit {
    match s {
        Suit::Bastoni => v1::Suit::Bastoni,
        Suit::Coppe => v1::Suit::Coppe,
        Suit::Denari => v1::Suit::Denari,
        Suit::Spade => v1::Suit::Spade,
    }
}

/// A rank on the wire.
pub(crate) fn rank_wire(r: Rank) -> v1::Rank {
    match r {
        Rank::Three => v1::Rank::Three,
        Rank::Two => v1::Rank::Two,
        Rank::Ace => v1::Rank::Ace,
        Rank::Re => v1::Rank::Re,
        Rank::Cavallo => v1::Rank::Cavallo,
        Rank::Fante => v1::Rank::Fante,
        Rank::Seven => v1::Rank::Seven,
        Rank::Six => v1::Rank::Six,
        Rank::Five => v1::Rank::Five,
        Rank::Four => v1::Rank::Four,
    }
}

/// A rank from the wire (`None` when unset or unknown).
pub(crate) fn rank_from_wire(v: i32) -> Option<Rank> {
    let w = v1::Rank::try_from(v).ok()?;
    Rank::ALL.into_iter().find(|&r| rank_wire(r) == w)
}

/// A card on the wire.
pub fn card(c: Card) -> v1::Card {
    v1::Card {
        suit: suit_wire(c.suit()) as i32,
        rank: rank_wire(c.rank()) as i32,
        notation: c.to_string(),
    }
}

/// Cards on the wire, in deck order.
pub fn cards(set: CardSet) -> Vec<v1::Card> {
    set.into_iter().map(card).collect()
}

/// Cards on the wire, in the given order.
pub fn card_list(list: &[Card]) -> Vec<v1::Card> {
    list.iter().copied().map(card).collect()
}

/// A wire card: its `notation` when set, else its suit and rank; both must agree when both are
/// given.
pub fn card_from_wire(w: &v1::Card) -> Result<Card, WireError> {
    let typed = match (v1::Suit::try_from(w.suit), v1::Rank::try_from(w.rank)) {
        (Ok(v1::Suit::Unspecified), Ok(v1::Rank::Unspecified)) => None,
        (Ok(s), Ok(r)) if s != v1::Suit::Unspecified && r != v1::Rank::Unspecified => {
            let suit = Suit::ALL
                .into_iter()
                .find(|&x| suit_wire(x) == s)
                .ok_or_else(|| WireError::Card(format!("suit {}", w.suit)))?;
            let rank = Rank::ALL
                .into_iter()
                .find(|&x| rank_wire(x) == r)
                .ok_or_else(|| WireError::Card(format!("rank {}", w.rank)))?;
            Some(Card::new(suit, rank))
        }
        _ => {
            return Err(WireError::Card(format!(
                "suit {} and rank {} (both must be set, or neither)",
                w.suit, w.rank
            )));
        }
    };
    let parsed = if w.notation.trim().is_empty() {
        None
    } else {
        Some(
            w.notation
                .parse::<Card>()
                .map_err(|e| WireError::Card(e.to_string()))?,
        )
    };
    match (typed, parsed) {
        (Some(a), Some(b)) if a != b => Err(WireError::Card(format!(
            "suit and rank say {a} but notation says {b}"
        ))),
        (Some(c), _) | (None, Some(c)) => Ok(c),
        (None, None) => Err(WireError::Card("empty card".into())),
    }
}

/// A contract on the wire (`CONTRACT_UNSPECIFIED` for none).
pub fn contract(c: Option<Contract>) -> i32 {
    (match c {
        None => v1::Contract::Unspecified,
        Some(Contract::Chiamo) => v1::Contract::Chiamo,
        Some(Contract::Solo) => v1::Contract::Solo,
        Some(Contract::Solissimo) => v1::Contract::Solissimo,
        Some(Contract::Dividete) => v1::Contract::Dividete,
        Some(Contract::Scegliete) => v1::Contract::Scegliete,
    }) as i32
}

/// The value among `all` (or none) whose wire number is `v`: the inverse of `to_wire`.
fn optional_from_wire<T: Copy>(
    all: impl IntoIterator<Item = T>,
    to_wire: impl Fn(Option<T>) -> i32,
    v: i32,
    what: &str,
) -> Result<Option<T>, WireError> {
    all.into_iter()
        .map(Some)
        .chain([None])
        .find(|&x| to_wire(x) == v)
        .ok_or_else(|| WireError::Action(format!("unknown {what} {v}")))
}

/// A contract from the wire (`CONTRACT_UNSPECIFIED` is none).
pub fn contract_from_wire(v: i32) -> Result<Option<Contract>, WireError> {
    optional_from_wire(Contract::ALL, contract, v, "contract")
}

/// A signal on the wire (`SIGNAL_UNSPECIFIED` for none).
pub fn signal(s: Option<Signal>) -> i32 {
    (match s {
        None => v1::Signal::Unspecified,
        Some(Signal::Busso) => v1::Signal::Busso,
        Some(Signal::Striscio) => v1::Signal::Striscio,
        Some(Signal::Volo) => v1::Signal::Volo,
    }) as i32
}

/// A signal from the wire (`SIGNAL_UNSPECIFIED` is none).
pub(crate) fn signal_from_wire(v: i32) -> Result<Option<Signal>, WireError> {
    optional_from_wire(Signal::ALL, signal, v, "signal")
}

/// The seat of a wire seat number, if `n` is below `seats`.
pub fn seat_from_wire(n: u32, seats: u8) -> Option<Seat> {
    u8::try_from(n)
        .ok()
        .filter(|&n| n < seats)
        .and_then(Seat::new)
}

/// A seat on the wire.
pub(crate) fn seat(s: Seat) -> u32 {
    s.index() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_in_each_form() {
        for c in Card::all() {
            let w = card(c);
            assert_eq!(card_from_wire(&w), Ok(c));
            let by_notation = v1::Card {
                notation: format!(" {} ", c.to_string().to_lowercase()),
                ..v1::Card::default()
            };
            assert_eq!(card_from_wire(&by_notation), Ok(c));
            let typed = v1::Card {
                notation: String::new(),
                ..w.clone()
            };
            assert_eq!(card_from_wire(&typed), Ok(c));
        }
    }

    #[test]
    fn bad_cards_are_refused_with_a_reason() {
        for bad in [
            v1::Card::default(),
            v1::Card {
                notation: "Zb".into(),
                ..v1::Card::default()
            },
            v1::Card {
                suit: 99,
                rank: 1,
                notation: String::new(),
            },
            v1::Card {
                suit: 1,
                rank: 0,
                notation: String::new(),
            },
            v1::Card {
                notation: "Ad".into(),
                ..card("3b".parse().expect("card"))
            },
        ] {
            assert!(
                matches!(card_from_wire(&bad), Err(WireError::Card(_))),
                "{bad:?}"
            );
        }
    }
}
