//! A record's deal and its errors, as every game reads a recorded hand (`Game::deal_from_record`):
//! [`RecordDeal`], [`RecordError`] with its one-line message, and the parsers of a deal's cards.
//! Below the game interface, which names these types; the record itself ([`super::Record`]) is
//! above it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::{PerSeat, Seat};

/// The cards of one hand as dealt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordDeal {
    /// Seat i's cards (the idle dealer's is empty).
    pub hands: Vec<Vec<String>>,
    /// The Calabresella monte in deal order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monte: Option<Vec<String>>,
    /// The Tressette in Due stock in draw order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stock: Option<Vec<String>>,
}

/// Why a record is invalid. `Display` is the one-line message of `records.md`, e.g.
/// `hand 0, action 17 (seat 2): illegal: must follow suit c`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct RecordError {
    /// The hand index, when the fault is in a hand.
    pub hand: Option<usize>,
    /// The action index within the hand, when the fault is an action.
    pub action: Option<usize>,
    /// The seat to act at that action.
    pub seat: Option<Seat>,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.hand, self.action, self.seat) {
            (Some(h), Some(a), Some(s)) => {
                write!(f, "hand {h}, action {a} (seat {s}): {}", self.why)
            }
            (Some(h), Some(a), None) => write!(f, "hand {h}, action {a}: {}", self.why),
            (Some(h), None, _) => write!(f, "hand {h}: {}", self.why),
            _ => write!(f, "record: {}", self.why),
        }
    }
}

pub(crate) fn whole(why: impl Into<String>) -> RecordError {
    RecordError {
        hand: None,
        action: None,
        seat: None,
        why: why.into(),
    }
}

pub(crate) fn in_hand(h: usize, why: impl Into<String>) -> RecordError {
    RecordError {
        hand: Some(h),
        action: None,
        seat: None,
        why: why.into(),
    }
}

fn parse_cards(h: usize, what: &str, cards: &[String]) -> Result<Vec<Card>, RecordError> {
    cards
        .iter()
        .map(|c| {
            c.parse::<Card>()
                .map_err(|e| in_hand(h, format!("invalid deal: {what}: {e}")))
        })
        .collect()
}

/// Each seat's cards of a recorded deal, refusing unknown cards and cards dealt twice.
pub(crate) fn parse_hands(
    h: usize,
    players: u8,
    lists: &[Vec<String>],
) -> Result<PerSeat<CardSet>, RecordError> {
    if lists.len() != players as usize {
        return Err(in_hand(
            h,
            format!(
                "invalid deal: {} hands listed for {players} players",
                lists.len()
            ),
        ));
    }
    let mut hands = PerSeat::splat(CardSet::EMPTY);
    for (i, list) in lists.iter().enumerate() {
        for c in parse_cards(h, &format!("seat {i}"), list)? {
            if hands.0.iter().any(|s: &CardSet| s.contains(c)) {
                return Err(in_hand(h, format!("invalid deal: card {c} dealt twice")));
            }
            hands.0[i].insert(c);
        }
    }
    Ok(hands)
}

/// A fixed number of cards (the monte, the stock) of a recorded deal.
pub(crate) fn parse_fixed<const N: usize>(
    h: usize,
    what: &str,
    list: Option<&Vec<String>>,
) -> Result<[Card; N], RecordError> {
    let list = list.ok_or_else(|| in_hand(h, format!("invalid deal: the {what} is missing")))?;
    parse_cards(h, what, list)?
        .try_into()
        .map_err(|v: Vec<Card>| {
            in_hand(
                h,
                format!(
                    "invalid deal: the {what} holds {} cards, expected {N}",
                    v.len()
                ),
            )
        })
}
