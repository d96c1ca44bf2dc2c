//! `GetReplay`: one position of a record with every hand revealed.
//!
//! Only hands that are over reach here (a live table's record holds its finished hands only),
//! so showing every seat's cards reveals nothing still in play. A position is found by
//! replaying the record up to it through the engine: a record of a few thousand actions
//! replays in well under a millisecond, so nothing is cached.

use calabresella_engine::Seat;
use calabresella_engine::record::{Record, RecordAction, replay};
use calabresella_proto::convert;
use calabresella_proto::v1;

use crate::error::{Reason, ServiceError};

/// Where a step falls: hand `hand` after `actions` of its actions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Position {
    hand: usize,
    actions: usize,
}

/// The first step of each hand, and the number of steps (a hand of n actions takes n + 1).
fn hand_starts(record: &Record) -> (Vec<u32>, u32) {
    let mut starts = Vec::with_capacity(record.hands.len());
    let mut next = 0u32;
    for hand in &record.hands {
        starts.push(next);
        next = next.saturating_add(hand.actions.len() as u32 + 1);
    }
    (starts, next)
}

/// The position of `step`, if the record has it.
fn position(record: &Record, step: u32) -> Option<Position> {
    let (starts, steps) = hand_starts(record);
    if step >= steps {
        return None;
    }
    let hand = starts.partition_point(|&s| s <= step) - 1;
    Some(Position {
        hand,
        actions: (step - starts[hand]) as usize,
    })
}

/// The players' names by seat, from the record's metadata.
fn player_names(record: &Record) -> Vec<String> {
    let players = record
        .meta
        .as_ref()
        .and_then(|m| m.get("players"))
        .and_then(|p| p.as_array());
    (0..record.players as usize)
        .map(|i| {
            players
                .and_then(|p| p.get(i))
                .and_then(|p| p.get("name"))
                .and_then(|n| n.as_str())
                .unwrap_or("")
                .to_owned()
        })
        .collect()
}

/// Cards in record notation on the wire (the record replayed already, so they parse).
fn wire_cards(cards: &[String]) -> Vec<v1::Card> {
    cards
        .iter()
        .filter_map(|c| c.parse::<calabresella_engine::Card>().ok())
        .map(convert::card)
        .collect()
}

/// Position `step` of the record `json`; `match_over` as the table reports it.
pub(super) fn replay_step(
    json: &str,
    step: u32,
    match_over: bool,
) -> Result<v1::GetReplayResponse, ServiceError> {
    let record = Record::parse(json)
        .map_err(|e| ServiceError::Unavailable(format!("the stored record does not parse: {e}")))?;
    let (starts, steps) = hand_starts(&record);
    let Some(at) = position(&record, step) else {
        let why = if steps == 0 {
            "no hand of this table is over yet: there is nothing to replay".to_owned()
        } else {
            format!("step {step} is beyond the record's last step {}", steps - 1)
        };
        return Err(ServiceError::OutOfRange(Reason::NoSuchStep, why));
    };
    let mut upto = record.clone();
    upto.hands.truncate(at.hand + 1);
    upto.hands[at.hand].actions.truncate(at.actions);
    let (game, _) = replay(&upto).map_err(|e| {
        ServiceError::Unavailable(format!("the stored record does not replay: {e}"))
    })?;
    let mut observation = game
        .observation(calabresella_engine::game::Viewer::Spectator)
        .map(|o| convert::observation(&o))
        .ok_or_else(|| ServiceError::Unavailable("the record has no hand to show".into()))?;
    if let Some(places) = game.card_places(at.hand) {
        observation.visible_hands = (0..record.players)
            .filter_map(Seat::new)
            .map(|s| v1::SeatCards {
                seat: s.index() as u32,
                cards: convert::cards(places.hands[s]),
            })
            .collect();
    }
    let hand = &record.hands[at.hand];
    let taken = at.actions.checked_sub(1).map(|i| &hand.actions[i]);
    Ok(v1::GetReplayResponse {
        observation: Some(observation),
        step,
        steps,
        hand_number: at.hand as u32,
        action_index: at.actions as u32,
        hand_actions: hand.actions.len() as u32,
        action: taken.map(|a| a.text().to_owned()).unwrap_or_default(),
        seat: taken.and_then(|a| match a {
            RecordAction::Detailed { seat, .. } => Some(u32::from(*seat)),
            RecordAction::Plain(_) => None,
        }),
        deal: hand
            .deal
            .hands
            .iter()
            .enumerate()
            .map(|(i, cards)| v1::SeatCards {
                seat: i as u32,
                cards: wire_cards(cards),
            })
            .collect(),
        rest: wire_cards(
            hand.deal
                .monte
                .as_deref()
                .or(hand.deal.stock.as_deref())
                .unwrap_or_default(),
        ),
        hand_starts: starts,
        player_names: player_names(&record),
        match_over,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use calabresella_engine::record::{RecordDeal, RecordHand};

    fn record_with(actions: &[usize]) -> Record {
        Record {
            format: calabresella_engine::record::FORMAT.into(),
            game: "tressette-in-due".into(),
            players: 2,
            options: Default::default(),
            first_dealer: 0,
            hands: actions
                .iter()
                .map(|&n| RecordHand {
                    dealer: 0,
                    deal: RecordDeal {
                        hands: vec![vec![], vec![]],
                        monte: None,
                        stock: None,
                    },
                    actions: vec![RecordAction::Plain("pass".into()); n],
                })
                .collect(),
            meta: None,
        }
    }

    #[test]
    fn steps_run_through_each_hand_from_its_deal_to_its_end() {
        let r = record_with(&[2, 0, 3]);
        assert_eq!(hand_starts(&r), (vec![0, 3, 4], 8));
        let at = |step| position(&r, step).map(|p| (p.hand, p.actions));
        assert_eq!(at(0), Some((0, 0)));
        assert_eq!(at(2), Some((0, 2)));
        assert_eq!(at(3), Some((1, 0)));
        assert_eq!(at(4), Some((2, 0)));
        assert_eq!(at(7), Some((2, 3)));
        assert_eq!(at(8), None);
        assert_eq!(position(&record_with(&[]), 0), None);
    }
}
