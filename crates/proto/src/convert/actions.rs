//! Actions between the engine and the wire: every form (notation, id, typed fields) out, and
//! whichever forms a client gives in, checked to agree.

use calabresella_engine::action::ActionIdError;
use calabresella_engine::{Action, Card, CardSet, Promise};

use super::WireError;
use super::cards::{
    card, card_from_wire, cards, contract, contract_from_wire, rank_from_wire, rank_wire, signal,
    signal_from_wire,
};
use crate::v1;

/// An action on the wire with every form filled. `monte` is the open monte in deal order
/// (Calabresella scegliete), which `take` ids need; without it a `take` carries no id.
pub fn action(a: Action, monte: Option<&[Card; 4]>) -> v1::Action {
    use v1::ActionKind as K;
    let mut w = v1::Action {
        id: a.to_id(monte).ok().map(u32::from),
        notation: a.to_string(),
        ..v1::Action::default()
    };
    let kind = match a {
        Action::Pass => K::Pass,
        Action::Bid(c) => {
            w.contract = contract(Some(c));
            K::Bid
        }
        Action::Call(c) | Action::Return(c) | Action::Discard(c) => {
            w.card = Some(card(c));
            match a {
                Action::Call(_) => K::Call,
                Action::Return(_) => K::Return,
                _ => K::Discard,
            }
        }
        Action::Take(set) => {
            w.cards = match monte {
                Some(m) => m
                    .iter()
                    .copied()
                    .filter(|c| set.contains(*c))
                    .map(card)
                    .collect(),
                None => cards(set),
            };
            K::Take
        }
        Action::Play(c, s) => {
            w.card = Some(card(c));
            w.signal = signal(s);
            K::Play
        }
        Action::Promise(Promise::Rank(r)) => {
            w.rank = rank_wire(r) as i32;
            K::BidRank
        }
        Action::Promise(Promise::TwoFor(n)) => {
            w.points = Some(u32::from(n));
            K::BidTwoFor
        }
        Action::Promise(Promise::Points(n)) => {
            w.points = Some(u32::from(n));
            K::BidPoints
        }
    };
    w.kind = kind as i32;
    w
}

fn typed_action(w: &v1::Action) -> Result<Option<Action>, WireError> {
    use v1::ActionKind as K;
    let kind = K::try_from(w.kind).map_err(|_| WireError::Action(format!("kind {}", w.kind)))?;
    let one_card = || -> Result<Card, WireError> {
        w.card
            .as_ref()
            .ok_or_else(|| WireError::Action(format!("{} needs `card`", kind.as_str_name())))
            .and_then(card_from_wire)
    };
    Ok(Some(match kind {
        K::Unspecified => return Ok(None),
        K::Pass => Action::Pass,
        K::Bid => Action::Bid(
            contract_from_wire(w.contract)?
                .ok_or_else(|| WireError::Action("a bid needs `contract`".into()))?,
        ),
        K::Call => Action::Call(one_card()?),
        K::Return => Action::Return(one_card()?),
        K::Discard => Action::Discard(one_card()?),
        K::Take => Action::Take(
            w.cards
                .iter()
                .map(card_from_wire)
                .collect::<Result<CardSet, _>>()?,
        ),
        K::Play => Action::Play(one_card()?, signal_from_wire(w.signal)?),
        K::BidRank => Action::Promise(Promise::Rank(
            rank_from_wire(w.rank)
                .ok_or_else(|| WireError::Action("a rank bid needs `rank`".into()))?,
        )),
        K::BidTwoFor | K::BidPoints => {
            let n = w
                .points
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| WireError::Action("a points bid needs `points`".into()))?;
            let p = if kind == K::BidTwoFor {
                Promise::TwoFor(n)
            } else {
                Promise::Points(n)
            };
            if !p.is_valid() {
                return Err(WireError::Action(
                    "a points bid promises 61 to 120 (62 to 120 after bid 2)".into(),
                ));
            }
            Action::Promise(p)
        }
    }))
}

/// The action a client sent: its `notation`, its `id` and its typed fields, whichever are given;
/// they must agree. `monte` is the open monte (for `take` ids).
pub fn action_from_wire(w: &v1::Action, monte: Option<&[Card; 4]>) -> Result<Action, WireError> {
    let mut forms: Vec<(&str, Action)> = Vec::with_capacity(3);
    if !w.notation.trim().is_empty() {
        let a = w
            .notation
            .parse::<Action>()
            .map_err(|e| WireError::Action(e.to_string()))?;
        forms.push(("notation", a));
    }
    if let Some(id) = w.id {
        let id = u16::try_from(id).map_err(|_| ActionIdError::OutOfRange(u16::MAX));
        let a = id
            .and_then(|id| Action::from_id(id, monte))
            .map_err(|e| WireError::Action(e.to_string()))?;
        forms.push(("id", a));
    }
    if let Some(a) = typed_action(w)? {
        forms.push(("typed fields", a));
    }
    let Some(&(first_name, first)) = forms.first() else {
        return Err(WireError::Action(
            "empty action: give `notation`, `id` or `kind`".into(),
        ));
    };
    if let Some((name, other)) = forms.iter().find(|(_, a)| *a != first) {
        return Err(WireError::Mismatch(format!(
            "{first_name} says `{first}` but {name} says `{other}`"
        )));
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_action() -> impl Strategy<Value = u16> {
        0..calabresella_engine::NUM_ACTION_IDS
    }

    proptest! {
        #[test]
        fn actions_round_trip_through_every_form(id in any_action(), m in 0u8..36) {
            let monte: [Card; 4] = std::array::from_fn(|i| Card::from_index(m + i as u8).expect("card"));
            let a = Action::from_id(id, Some(&monte)).expect("id");
            let w = action(a, Some(&monte));
            prop_assert_eq!(w.id, Some(u32::from(id)));
            prop_assert_eq!(action_from_wire(&w, Some(&monte)), Ok(a));
            let only_text = v1::Action { notation: w.notation.clone(), ..v1::Action::default() };
            prop_assert_eq!(action_from_wire(&only_text, Some(&monte)), Ok(a));
            let only_id = v1::Action { id: w.id, ..v1::Action::default() };
            prop_assert_eq!(action_from_wire(&only_id, Some(&monte)), Ok(a));
            let only_typed = v1::Action { id: None, notation: String::new(), ..w.clone() };
            prop_assert_eq!(action_from_wire(&only_typed, Some(&monte)), Ok(a));
        }

        #[test]
        fn disagreeing_forms_are_refused(a in any_action(), b in any_action()) {
            let monte: [Card; 4] = std::array::from_fn(|i| Card::from_index(i as u8).expect("card"));
            let x = Action::from_id(a, Some(&monte)).expect("id");
            let y = Action::from_id(b, Some(&monte)).expect("id");
            let w = v1::Action { notation: x.to_string(), id: Some(u32::from(b)), ..v1::Action::default() };
            let got = action_from_wire(&w, Some(&monte));
            if x == y {
                prop_assert_eq!(got, Ok(x));
            } else {
                prop_assert!(matches!(got, Err(WireError::Mismatch(_))));
            }
        }

        #[test]
        fn arbitrary_wire_actions_never_panic(kind in -2i32..13, contract in -2i32..8, sig in -2i32..6,
                                              id in proptest::option::of(0u32..500), text in ".{0,20}",
                                              suit in -1i32..6, rank in -1i32..12,
                                              points in proptest::option::of(0u32..300)) {
            let w = v1::Action {
                kind, contract, signal: sig, id, notation: text,
                card: Some(v1::Card { suit, rank, notation: String::new() }),
                cards: vec![],
                rank, points,
            };
            let _ = action_from_wire(&w, None);
        }
    }
}
