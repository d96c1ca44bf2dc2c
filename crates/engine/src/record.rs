//! Game records, format v1 (`records.md`): read, validate, write and replay.
//!
//! ```
//! use calabresella_engine::calabresella::{Match, Options};
//! use calabresella_engine::record::{Record, replay};
//!
//! let mut m = Match::seeded(Options::default(), 3, None).unwrap();
//! while !m.is_over() {
//!     let a = m.legal_actions()[0];
//!     m.try_apply(a).unwrap();
//! }
//! let text = Record::from_match(&m, None).to_json();
//! let (again, report) = replay(&Record::parse(&text).unwrap()).unwrap();
//! assert_eq!(again.totals(), m.totals());
//! assert!(report.to_json()["match"]["over"].as_bool().unwrap());
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::action::Action;
use crate::calabresella::{Deal, HandOutcome, Match, Options};
use crate::card::Card;
use crate::cardset::CardSet;
use crate::playable::Playable;
use crate::seat::{PerSeat, Seat};
use crate::tressette;

/// The `format` value of version 1.
pub const FORMAT: &str = "calabresella-record/1";

/// A game record as stored: everything needed to re-derive every seat's view of a match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// `calabresella` (later also `tressette`, `tressette-in-due`).
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

fn whole(why: impl Into<String>) -> RecordError {
    RecordError {
        hand: None,
        action: None,
        seat: None,
        why: why.into(),
    }
}

fn in_hand(h: usize, why: impl Into<String>) -> RecordError {
    RecordError {
        hand: Some(h),
        action: None,
        seat: None,
        why: why.into(),
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

    /// The record of a match so far.
    pub fn from_match(m: &Match, meta: Option<Value>) -> Record {
        let opts = m.options();
        let cards = |set: CardSet| {
            set.display_order()
                .iter()
                .map(Card::to_string)
                .collect::<Vec<_>>()
        };
        let hands = m
            .hands()
            .iter()
            .map(|h| RecordHand {
                dealer: h.dealer().index() as u8,
                deal: RecordDeal {
                    hands: Seat::first_n(opts.players)
                        .map(|s| cards(h.deal().hands[s]))
                        .collect(),
                    monte: Some(h.deal().monte.iter().map(Card::to_string).collect()),
                    stock: None,
                },
                actions: h
                    .actions()
                    .map(|a| RecordAction::Plain(a.to_string()))
                    .collect(),
            })
            .collect();
        Record {
            format: FORMAT.into(),
            game: "calabresella".into(),
            players: opts.players,
            options: opts.non_default(),
            first_dealer: m.first_dealer().index() as u8,
            hands,
            meta,
        }
    }
}

/// What [`replay`] found: per hand and for the match, printable as the replay JSON of
/// `records.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayReport {
    players: u8,
    hands: Vec<HandReport>,
    over: bool,
    winners: Vec<Seat>,
    draw: bool,
    totals: PerSeat<u32>,
}

#[derive(Debug, Clone, PartialEq)]
struct HandReport {
    dealer: Seat,
    soloist: Option<Seat>,
    contract: Option<crate::Contract>,
    called: Option<Card>,
    outcome: Option<HandOutcome>,
    totals: PerSeat<u32>,
}

impl ReplayReport {
    /// The replay output as JSON (`records.md`, "Replaying a record").
    pub fn to_json(&self) -> Value {
        let n = self.players;
        let seats = |p: PerSeat<u32>| json!(p.first_n(n));
        let hands: Vec<Value> = self
            .hands
            .iter()
            .map(|h| {
                let base = json!({
                    "dealer": h.dealer.index(),
                    "void": matches!(h.outcome, Some(HandOutcome::Void)),
                    "complete": h.outcome.is_some(),
                    "soloist": h.soloist.map(Seat::index),
                    "contract": h.contract.map(|c| c.name()),
                    "called": h.called.map(|c| c.to_string()),
                });
                let mut obj = base.as_object().cloned().unwrap_or_default();
                let detail = match h.outcome {
                    Some(HandOutcome::Scored(s)) => json!({
                        "points": {"soloist": s.points[0], "defenders": s.points[1]},
                        "tricks": {"soloist": s.tricks[0], "defenders": s.tricks[1]},
                        "last_trick": s.last_trick.name(),
                        "made": s.made,
                        "multiplier": s.multiplier,
                        "award": seats(s.award),
                    }),
                    Some(HandOutcome::Void) => json!({
                        "points": null, "tricks": null, "last_trick": null, "made": null,
                        "multiplier": null, "award": seats(PerSeat::splat(0)),
                    }),
                    None => json!({
                        "points": null, "tricks": null, "last_trick": null, "made": null,
                        "multiplier": null, "award": null,
                    }),
                };
                obj.extend(detail.as_object().cloned().unwrap_or_default());
                obj.insert("totals".into(), seats(h.totals));
                Value::Object(obj)
            })
            .collect();
        json!({
            "hands": hands,
            "match": {
                "over": self.over,
                "winners": self.winners.iter().map(|s| s.index()).collect::<Vec<_>>(),
                "draw": self.draw,
                "totals": seats(self.totals),
            }
        })
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

fn parse_deal(h: usize, players: u8, d: &RecordDeal) -> Result<Deal, RecordError> {
    if d.stock.is_some() {
        return Err(in_hand(
            h,
            "invalid deal: calabresella has a monte, not a stock",
        ));
    }
    if d.hands.len() != players as usize {
        return Err(in_hand(
            h,
            format!(
                "invalid deal: {} hands listed for {players} players",
                d.hands.len()
            ),
        ));
    }
    let mut hands = PerSeat::splat(CardSet::EMPTY);
    for (i, list) in d.hands.iter().enumerate() {
        for c in parse_cards(h, &format!("seat {i}"), list)? {
            if hands.0.iter().any(|s: &CardSet| s.contains(c)) {
                return Err(in_hand(h, format!("invalid deal: card {c} dealt twice")));
            }
            hands.0[i].insert(c);
        }
    }
    let monte_list = d
        .monte
        .as_ref()
        .ok_or_else(|| in_hand(h, "invalid deal: the monte is missing"))?;
    let monte = parse_cards(h, "monte", monte_list)?;
    let monte: [Card; 4] = monte.try_into().map_err(|v: Vec<Card>| {
        in_hand(
            h,
            format!(
                "invalid deal: the monte holds {} cards, expected 4",
                v.len()
            ),
        )
    })?;
    Ok(Deal { hands, monte })
}

/// Applies one hand's recorded actions to `m`, checking each: the seat of an action object, the
/// notation, and legality. The first fault is returned with its hand, action and seat.
fn apply_actions<M: Playable>(
    m: &mut M,
    h: usize,
    actions: &[RecordAction],
) -> Result<(), RecordError> {
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
        if let RecordAction::Detailed { seat, .. } = ra {
            if *seat as usize != actor.index() && *seat as usize != decider.index() {
                return Err(err(format!("wrong seat: seat {seat} is not to act")));
            }
        }
        let action: Action = ra.text().parse().map_err(|e| err(format!("{e}")))?;
        m.act_as(decider, action)
            .map_err(|e| err(format!("illegal: {e}")))?;
    }
    Ok(())
}

/// Replays a record of any game and returns the replay JSON (`records.md`).
pub fn replay_json(record: &Record) -> Result<Value, RecordError> {
    match tressette::Variant::from_game(&record.game) {
        Some(_) => replay_tressette(record).map(|(_, r)| r.to_json()),
        None => replay(record).map(|(_, r)| r.to_json()),
    }
}

/// Replays a Calabresella record through the engine, checking every deal and action, and returns
/// the match it leads to with the report. The first fault found is returned as a [`RecordError`].
pub fn replay(record: &Record) -> Result<(Match, ReplayReport), RecordError> {
    if record.format != FORMAT {
        return Err(whole(format!(
            "unknown format {:?}, expected {FORMAT:?}",
            record.format
        )));
    }
    if record.game != "calabresella" {
        return Err(whole(format!(
            "game {:?} is not supported (this engine plays calabresella)",
            record.game
        )));
    }
    let opts = Options::from_record(record.players, &record.options)
        .map_err(|e| whole(format!("options: {e}")))?;
    let first = Seat::new(record.first_dealer)
        .filter(|s| s.index() < opts.players as usize)
        .ok_or_else(|| {
            whole(format!(
                "first_dealer {} is not a seat",
                record.first_dealer
            ))
        })?;
    let mut m = Match::new(opts, first).map_err(|e| whole(e.to_string()))?;
    let mut reports = Vec::new();
    for (h, rh) in record.hands.iter().enumerate() {
        if m.is_over() {
            return Err(in_hand(h, "the match was already over"));
        }
        if !m.needs_deal() {
            return Err(in_hand(h, "the previous hand is not finished"));
        }
        let dealer = Seat::new(rh.dealer)
            .filter(|s| s.index() < opts.players as usize)
            .ok_or_else(|| in_hand(h, format!("dealer {} is not a seat", rh.dealer)))?;
        let deal = parse_deal(h, opts.players, &rh.deal)?;
        m.start_hand(dealer, deal)
            .map_err(|e| in_hand(h, e.to_string()))?;
        apply_actions(&mut m, h, &rh.actions)?;
        let hand = m.hands().last().ok_or_else(|| in_hand(h, "no hand"))?;
        reports.push(HandReport {
            dealer,
            soloist: hand.soloist(),
            contract: hand.contract(),
            called: hand.called(),
            outcome: hand.outcome().copied(),
            totals: m.totals(),
        });
    }
    let result = m.result().cloned();
    let report = ReplayReport {
        players: opts.players,
        hands: reports,
        over: result.is_some(),
        winners: result
            .as_ref()
            .map(|r| r.winners.clone())
            .unwrap_or_default(),
        draw: result.is_some_and(|r| r.draw),
        totals: m.totals(),
    };
    Ok((m, report))
}

impl Record {
    /// The record of a Tressette match so far.
    pub fn from_tressette(m: &tressette::Match, meta: Option<Value>) -> Record {
        let opts = m.options();
        let cards = |set: CardSet| {
            set.display_order()
                .iter()
                .map(Card::to_string)
                .collect::<Vec<_>>()
        };
        let hands = m
            .hands()
            .iter()
            .map(|h| RecordHand {
                dealer: h.dealer().index() as u8,
                deal: RecordDeal {
                    hands: Seat::first_n(opts.variant.players())
                        .map(|s| cards(h.deal().hands[s]))
                        .collect(),
                    monte: None,
                    stock: h
                        .deal()
                        .stock
                        .map(|st| st.iter().map(Card::to_string).collect()),
                },
                actions: h
                    .actions()
                    .map(|a| RecordAction::Plain(a.to_string()))
                    .collect(),
            })
            .collect();
        Record {
            format: FORMAT.into(),
            game: opts.variant.game().into(),
            players: opts.variant.players(),
            options: opts.non_default(),
            first_dealer: m.first_dealer().index() as u8,
            hands,
            meta,
        }
    }
}

/// What [`replay_tressette`] found, printable as the replay JSON: `points`, `tricks`, `accusi`,
/// `award` and `totals` are per partnership (`[team0, team1]`, team 0 is seats 0 and 2) or per
/// player in Tressette in Due.
#[derive(Debug, Clone, PartialEq)]
pub struct TressetteReport {
    hands: Vec<(Seat, Option<tressette::Outcome>, [u32; 2])>,
    result: Option<tressette::MatchResult>,
    totals: [u32; 2],
}

impl TressetteReport {
    /// The replay output as JSON.
    pub fn to_json(&self) -> Value {
        let hands: Vec<Value> = self
            .hands
            .iter()
            .map(|(dealer, o, totals)| match o {
                Some(o) => json!({
                    "dealer": dealer.index(), "void": false, "complete": true,
                    "points": o.card_points, "tricks": o.tricks, "accusi": o.accusi,
                    "last_trick": o.last_trick, "award": o.points, "totals": totals,
                }),
                None => json!({
                    "dealer": dealer.index(), "void": false, "complete": false,
                    "points": null, "tricks": null, "accusi": null, "last_trick": null, "award": null,
                    "totals": totals,
                }),
            })
            .collect();
        let (over, winners, draw) = match self.result {
            Some(tressette::MatchResult::Won(w)) => (true, vec![w], false),
            Some(tressette::MatchResult::Draw) => (true, vec![], true),
            None => (false, vec![], false),
        };
        json!({"hands": hands, "match": {"over": over, "winners": winners, "draw": draw, "totals": self.totals}})
    }
}

fn parse_tressette_deal(
    h: usize,
    variant: tressette::Variant,
    d: &RecordDeal,
) -> Result<tressette::Deal, RecordError> {
    let n = variant.players() as usize;
    if d.monte.is_some() {
        return Err(in_hand(h, "invalid deal: tressette has no monte"));
    }
    if d.hands.len() != n {
        return Err(in_hand(
            h,
            format!(
                "invalid deal: {} hands listed for {n} players",
                d.hands.len()
            ),
        ));
    }
    let mut hands = PerSeat::splat(CardSet::EMPTY);
    for (i, list) in d.hands.iter().enumerate() {
        for c in parse_cards(h, &format!("seat {i}"), list)? {
            if hands.0.iter().any(|s: &CardSet| s.contains(c)) {
                return Err(in_hand(h, format!("invalid deal: card {c} dealt twice")));
            }
            hands.0[i].insert(c);
        }
    }
    let stock = match (&d.stock, variant) {
        (None, tressette::Variant::Partnership) => None,
        (Some(_), tressette::Variant::Partnership) => {
            return Err(in_hand(h, "invalid deal: tressette has no stock"));
        }
        (None, tressette::Variant::Due) => {
            return Err(in_hand(h, "invalid deal: the stock is missing"));
        }
        (Some(list), tressette::Variant::Due) => {
            let cards = parse_cards(h, "stock", list)?;
            Some(cards.try_into().map_err(|v: Vec<Card>| {
                in_hand(
                    h,
                    format!(
                        "invalid deal: the stock holds {} cards, expected 20",
                        v.len()
                    ),
                )
            })?)
        }
    };
    Ok(tressette::Deal { hands, stock })
}

/// Replays a Tressette or Tressette in Due record, checking every deal and card.
pub fn replay_tressette(
    record: &Record,
) -> Result<(tressette::Match, TressetteReport), RecordError> {
    if record.format != FORMAT {
        return Err(whole(format!(
            "unknown format {:?}, expected {FORMAT:?}",
            record.format
        )));
    }
    let variant = tressette::Variant::from_game(&record.game)
        .ok_or_else(|| whole(format!("unknown game {:?}", record.game)))?;
    let opts = tressette::Options::from_record(variant, record.players, &record.options)
        .map_err(|e| whole(format!("options: {e}")))?;
    let first = Seat::new(record.first_dealer)
        .filter(|s| s.index() < variant.players() as usize)
        .ok_or_else(|| {
            whole(format!(
                "first_dealer {} is not a seat",
                record.first_dealer
            ))
        })?;
    let mut m = tressette::Match::new(opts, first).map_err(|e| whole(e.to_string()))?;
    let mut hands = Vec::new();
    for (h, rh) in record.hands.iter().enumerate() {
        if m.is_over() {
            return Err(in_hand(h, "the match was already over"));
        }
        if m.next_dealer().is_none() {
            return Err(in_hand(h, "the previous hand is not finished"));
        }
        let dealer = Seat::new(rh.dealer)
            .filter(|s| s.index() < variant.players() as usize)
            .ok_or_else(|| in_hand(h, format!("dealer {} is not a seat", rh.dealer)))?;
        let deal = parse_tressette_deal(h, variant, &rh.deal)?;
        m.start_hand(dealer, deal)
            .map_err(|e| in_hand(h, e.to_string()))?;
        apply_actions(&mut m, h, &rh.actions)?;
        let outcome = m.hands().last().and_then(|x| x.outcome().copied());
        hands.push((dealer, outcome, m.totals()));
    }
    let report = TressetteReport {
        hands,
        result: m.result(),
        totals: m.totals(),
    };
    Ok((m, report))
}
