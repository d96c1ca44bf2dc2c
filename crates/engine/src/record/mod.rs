//! Game records, format v1 (`records.md`): read, validate, write and replay, for every
//! registered game.
//!
//! ```
//! use calabresella_engine::game::{AnyMatch, Rules};
//! use calabresella_engine::record::{Record, replay};
//!
//! let mut m = AnyMatch::seeded(Rules::parse("tressette", []).unwrap(), 3, None).unwrap();
//! while let Some(seat) = m.decider() {
//!     let a = m.legal_actions()[0];
//!     m.try_apply_as(seat, a).unwrap();
//! }
//! let text = m.record(None).to_json();
//! let (again, report) = replay(&Record::parse(&text).unwrap()).unwrap();
//! assert_eq!(again.record(None), m.record(None));
//! assert!(report.to_json()["match"]["over"].as_bool().unwrap());
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::game::{AnyMatch, Game, GameHand, Rules};
use crate::seat::{PerSeat, Seat};

mod deal;

pub use deal::{RecordDeal, RecordError};
pub(crate) use deal::{in_hand, parse_fixed, parse_hands, whole};

/// The `format` value of version 1.
pub const FORMAT: &str = "calabresella-record/1";

/// A game record as stored: everything needed to re-derive every seat's view of a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// The registered name of the game (`calabresella`, `tressette`, `tressette-in-due`, ...).
    pub game: String,
    /// Number of seats.
    pub players: u8,
    /// Rule options that differ from the defaults.
    #[serde(default)]
    pub options: Map<String, Value>,
    /// The first hand's dealer.
    pub first_dealer: u8,
    /// Every hand in order; the last may be unfinished.
    pub hands: Vec<RecordHand>,
    /// Free-form metadata (player names, dates, seeds, server id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// One hand of a record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordHand {
    /// Who dealt.
    pub dealer: u8,
    /// The cards as dealt.
    pub deal: RecordDeal,
    /// The actions in order.
    #[serde(default)]
    pub actions: Vec<RecordAction>,
}

/// One action of a record: a bare string, or an object naming the seat with optional extras.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RecordAction {
    /// Just the action string.
    Plain(String),
    /// The action with the seat that took it and extra keys (`ms`, `timeout`, ...), kept as is.
    Detailed {
        /// The seat that acted; it must be the one to act.
        seat: u8,
        /// The action string.
        action: String,
        /// Any other keys.
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
}

impl RecordAction {
    /// The action string.
    pub fn text(&self) -> &str {
        match self {
            RecordAction::Plain(s) | RecordAction::Detailed { action: s, .. } => s,
        }
    }
}

impl Record {
    /// Parses a record from JSON text (syntax and shape only; [`replay`] checks the game).
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        serde_json::from_str(text).map_err(|e| whole(format!("not a valid record: {e}")))
    }

    /// The record as pretty JSON.
    pub fn to_json(&self) -> String {
        // Serialising plain maps, strings and numbers cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// What [`replay`] found: per hand and for the match, printable as the replay JSON of
/// `records.md`. Each game writes its own hand lines (its scoring differs); the match part is
/// shared.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    hands: Vec<Value>,
    over: bool,
    winners: Vec<usize>,
    winning_seats: Vec<usize>,
    draw: bool,
    totals: Vec<i32>,
}

impl ReplayReport {
    /// The replay output as JSON (`records.md`, "Replaying a record").
    pub fn to_json(&self) -> Value {
        json!({
            "hands": self.hands,
            "match": {
                "over": self.over,
                "winners": self.winners,
                "winning_seats": self.winning_seats,
                "draw": self.draw,
                "totals": self.totals,
            }
        })
    }
}

/// Applies one hand's recorded actions to `m`, checking each: the seat of an action object, the
/// notation, and legality. The first fault is returned with its hand, action and seat.
fn apply_actions(m: &mut AnyMatch, h: usize, actions: &[RecordAction]) -> Result<(), RecordError> {
    for (a, ra) in actions.iter().enumerate() {
        let (Some(actor), Some(decider)) = (m.actor(), m.decider()) else {
            return Err(RecordError {
                hand: Some(h),
                action: Some(a),
                seat: None,
                why: "the hand is already over".into(),
            });
        };
        let err = |why: String| RecordError {
            hand: Some(h),
            action: Some(a),
            seat: Some(actor),
            why,
        };
        if let RecordAction::Detailed { seat, .. } = ra
            && *seat as usize != actor.index()
            && *seat as usize != decider.index()
        {
            return Err(err(format!("wrong seat: seat {seat} is not to act")));
        }
        let action: Action = ra.text().parse().map_err(|e| err(format!("{e}")))?;
        m.try_apply_as(decider, action)
            .map_err(|e| err(format!("illegal: {e}")))?;
    }
    Ok(())
}

/// Replays a record of any game and returns the replay JSON (`records.md`).
pub fn replay_json(record: &Record) -> Result<Value, RecordError> {
    replay(record).map(|(_, r)| r.to_json())
}

/// A record's cards, written in their canonical form.
fn card_strings(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

/// One hand of a record: seats' cards by suit, strongest first, then the monte or stock as dealt.
fn record_hand(
    dealer: Seat,
    players: u8,
    hands: &PerSeat<CardSet>,
    monte: Option<&[Card]>,
    stock: Option<&[Card]>,
    actions: impl Iterator<Item = Action>,
) -> RecordHand {
    RecordHand {
        dealer: dealer.index() as u8,
        deal: RecordDeal {
            hands: Seat::first_n(players)
                .map(|s| card_strings(hands[s].display_order()))
                .collect(),
            monte: monte.map(|m| card_strings(m.iter().copied())),
            stock: stock.map(|st| card_strings(st.iter().copied())),
        },
        actions: actions
            .map(|a| RecordAction::Plain(a.to_string()))
            .collect(),
    }
}

impl Record {
    /// The record of a match of any game so far.
    pub fn of_game<G: Game>(m: &G, meta: Option<Value>) -> Record {
        let n = G::seats(m.options());
        let hands = m
            .hands()
            .iter()
            .map(|h| {
                let dealt = h.dealt();
                record_hand(
                    h.dealer(),
                    n,
                    &dealt.hands,
                    (!dealt.monte.is_empty()).then_some(&dealt.monte[..]),
                    (!dealt.stock.is_empty()).then_some(&dealt.stock[..]),
                    h.action_list().into_iter(),
                )
            })
            .collect();
        Record {
            format: FORMAT.into(),
            game: G::name(m.options()).into(),
            players: n,
            options: G::non_default(m.options()),
            first_dealer: m.first_dealer().index() as u8,
            hands,
            meta,
        }
    }
}

/// The first check of every record: its format version.
fn check_format(record: &Record) -> Result<(), RecordError> {
    if record.format != FORMAT {
        return Err(whole(format!(
            "unknown format {:?}, expected {FORMAT:?}",
            record.format
        )));
    }
    Ok(())
}

/// The first dealer, who must sit at the table.
fn check_header(record: &Record, players: u8) -> Result<Seat, RecordError> {
    Seat::new(record.first_dealer)
        .filter(|s| s.index() < players as usize)
        .ok_or_else(|| {
            whole(format!(
                "first_dealer {} is not a seat",
                record.first_dealer
            ))
        })
}

/// Replays a record of any registered game through the engine, checking every deal and
/// action, and returns the match it leads to with the report. The first fault found is
/// returned as a [`RecordError`].
pub fn replay(record: &Record) -> Result<(AnyMatch, ReplayReport), RecordError> {
    check_format(record)?;
    let rules =
        Rules::from_record(&record.game, record.players, &record.options).map_err(|e| match e {
            crate::game::RulesError::UnknownGame(_) => whole(e.to_string()),
            crate::game::RulesError::Option(e) => whole(format!("options: {e}")),
        })?;
    let first = check_header(record, rules.seats())?;
    let mut m = AnyMatch::new(rules, first).map_err(|e| whole(e.to_string()))?;
    let mut hands = Vec::with_capacity(record.hands.len());
    for (h, rh) in record.hands.iter().enumerate() {
        if m.is_over() {
            return Err(in_hand(h, "the match was already over"));
        }
        if m.next_dealer().is_none() {
            return Err(in_hand(h, "the previous hand is not finished"));
        }
        let dealer = Seat::new(rh.dealer)
            .filter(|s| s.index() < rules.seats() as usize)
            .ok_or_else(|| in_hand(h, format!("dealer {} is not a seat", rh.dealer)))?;
        m.start_recorded_hand(h, dealer, &rh.deal)?;
        apply_actions(&mut m, h, &rh.actions)?;
        hands.push(m.replay_hand(h));
    }
    let result = m.result();
    let report = ReplayReport {
        hands,
        over: result.is_some(),
        winners: m.replay_winners(),
        winning_seats: result
            .as_ref()
            .map(|r| r.winners.iter().map(|s| s.index()).collect())
            .unwrap_or_default(),
        draw: result.is_some_and(|r| r.draw),
        totals: m.totals(),
    };
    Ok((m, report))
}

macro_rules! record_dispatch {
    ($($V:ident => $m:ident),* $(,)?) => {
        impl AnyMatch {
            /// The record of the match so far.
            pub fn record(&self, meta: Option<Value>) -> Record {
                match self {
                    $(AnyMatch::$V(m) => Record::of_game(m, meta),)*
                }
            }
        }
    };
}

// Here rather than in the registry, which the record replays through: the registry names no
// record, and the record the registry.
crate::for_each_game!(record_dispatch);
