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
        if let RecordAction::Detailed { seat, .. } = ra
            && *seat as usize != actor.index()
            && *seat as usize != decider.index()
        {
            return Err(err(format!("wrong seat: seat {seat} is not to act")));
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
    fn of(
        game: &str,
        players: u8,
        options: Map<String, Value>,
        first_dealer: Seat,
        hands: Vec<RecordHand>,
        meta: Option<Value>,
    ) -> Record {
        Record {
            format: FORMAT.into(),
            game: game.into(),
            players,
            options,
            first_dealer: first_dealer.index() as u8,
            hands,
            meta,
        }
    }

    /// The record of a Calabresella match so far.
    pub fn from_match(m: &Match, meta: Option<Value>) -> Record {
        let n = m.options().players;
        let hands = m
            .hands()
            .iter()
            .map(|h| {
                record_hand(
                    h.dealer(),
                    n,
                    &h.deal().hands,
                    Some(&h.deal().monte),
                    None,
                    h.actions(),
                )
            })
            .collect();
        Record::of(
            "calabresella",
            n,
            m.options().non_default(),
            m.first_dealer(),
            hands,
            meta,
        )
    }

    /// The record of a Tressette match so far.
    pub fn from_tressette(m: &tressette::Match, meta: Option<Value>) -> Record {
        let v = m.options().variant;
        let hands = m
            .hands()
            .iter()
            .map(|h| {
                let stock = h.deal().stock;
                record_hand(
                    h.dealer(),
                    v.players(),
                    &h.deal().hands,
                    None,
                    stock.as_ref().map(|s| &s[..]),
                    h.actions(),
                )
            })
            .collect();
        Record::of(
            v.game(),
            v.players(),
            m.options().non_default(),
            m.first_dealer(),
            hands,
            meta,
        )
    }
}

/// Each seat's cards of a recorded deal, refusing unknown cards and cards dealt twice.
fn parse_hands(
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
fn parse_fixed<const N: usize>(
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

fn parse_deal(h: usize, players: u8, d: &RecordDeal) -> Result<Deal, RecordError> {
    if d.stock.is_some() {
        return Err(in_hand(
            h,
            "invalid deal: calabresella has a monte, not a stock",
        ));
    }
    Ok(Deal {
        hands: parse_hands(h, players, &d.hands)?,
        monte: parse_fixed(h, "monte", d.monte.as_ref())?,
    })
}

fn parse_tressette_deal(
    h: usize,
    variant: tressette::Variant,
    d: &RecordDeal,
) -> Result<tressette::Deal, RecordError> {
    if d.monte.is_some() {
        return Err(in_hand(h, "invalid deal: tressette has no monte"));
    }
    let stock = match variant {
        tressette::Variant::Partnership if d.stock.is_some() => {
            return Err(in_hand(h, "invalid deal: tressette has no stock"));
        }
        tressette::Variant::Partnership => None,
        tressette::Variant::Due => Some(parse_fixed(h, "stock", d.stock.as_ref())?),
    };
    Ok(tressette::Deal {
        hands: parse_hands(h, variant.players(), &d.hands)?,
        stock,
    })
}

/// What the replay loop needs from a game's match beyond [`Playable`].
trait Replayable: Playable {
    type Deal;
    fn players(&self) -> u8;
    fn over(&self) -> bool;
    fn awaits_deal(&self) -> bool;
    fn start(&mut self, dealer: Seat, deal: Self::Deal) -> Result<(), crate::deals::DealRefused>;
}

impl Replayable for Match {
    type Deal = Deal;
    fn players(&self) -> u8 {
        self.options().players
    }
    fn over(&self) -> bool {
        self.is_over()
    }
    fn awaits_deal(&self) -> bool {
        self.needs_deal()
    }
    fn start(&mut self, dealer: Seat, deal: Deal) -> Result<(), crate::deals::DealRefused> {
        self.start_hand(dealer, deal)
    }
}

impl Replayable for tressette::Match {
    type Deal = tressette::Deal;
    fn players(&self) -> u8 {
        self.options().variant.players()
    }
    fn over(&self) -> bool {
        self.is_over()
    }
    fn awaits_deal(&self) -> bool {
        self.next_dealer().is_some()
    }
    fn start(
        &mut self,
        dealer: Seat,
        deal: tressette::Deal,
    ) -> Result<(), crate::deals::DealRefused> {
        self.start_hand(dealer, deal)
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

/// Replays every hand of `record` into `m`: order, dealer, deal and actions checked; `after`
/// sees the match after each hand.
fn replay_hands<M: Replayable>(
    m: &mut M,
    record: &Record,
    parse: impl Fn(usize, &RecordDeal) -> Result<M::Deal, RecordError>,
    mut after: impl FnMut(&M, Seat),
) -> Result<(), RecordError> {
    for (h, rh) in record.hands.iter().enumerate() {
        if m.over() {
            return Err(in_hand(h, "the match was already over"));
        }
        if !m.awaits_deal() {
            return Err(in_hand(h, "the previous hand is not finished"));
        }
        let dealer = Seat::new(rh.dealer)
            .filter(|s| s.index() < m.players() as usize)
            .ok_or_else(|| in_hand(h, format!("dealer {} is not a seat", rh.dealer)))?;
        let deal = parse(h, &rh.deal)?;
        m.start(dealer, deal)
            .map_err(|e| in_hand(h, e.to_string()))?;
        apply_actions(m, h, &rh.actions)?;
        after(m, dealer);
    }
    Ok(())
}

/// Replays a Calabresella record through the engine, checking every deal and action, and returns
/// the match it leads to with the report. The first fault found is returned as a [`RecordError`].
pub fn replay(record: &Record) -> Result<(Match, ReplayReport), RecordError> {
    check_format(record)?;
    if record.game != "calabresella" {
        return Err(whole(format!(
            "unknown game {:?}: calabresella, tressette or tressette-in-due",
            record.game
        )));
    }
    let opts = Options::from_record(record.players, &record.options)
        .map_err(|e| whole(format!("options: {e}")))?;
    let first = check_header(record, opts.players)?;
    let mut m = Match::new(opts, first).map_err(|e| whole(e.to_string()))?;
    let mut hands = Vec::new();
    replay_hands(
        &mut m,
        record,
        |h, d| parse_deal(h, opts.players, d),
        |m, dealer| {
            if let Some(hand) = m.hands().last() {
                hands.push(HandReport {
                    dealer,
                    soloist: hand.soloist(),
                    contract: hand.contract(),
                    called: hand.called(),
                    outcome: hand.outcome().copied(),
                    totals: m.totals(),
                });
            }
        },
    )?;
    let result = m.result().cloned();
    let report = ReplayReport {
        players: opts.players,
        hands,
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

/// Replays a Tressette or Tressette in Due record, checking every deal and card.
pub fn replay_tressette(
    record: &Record,
) -> Result<(tressette::Match, TressetteReport), RecordError> {
    check_format(record)?;
    let variant = tressette::Variant::from_game(&record.game)
        .ok_or_else(|| whole(format!("unknown game {:?}", record.game)))?;
    let opts = tressette::Options::from_record(variant, record.players, &record.options)
        .map_err(|e| whole(format!("options: {e}")))?;
    let first = check_header(record, variant.players())?;
    let mut m = tressette::Match::new(opts, first).map_err(|e| whole(e.to_string()))?;
    let mut hands = Vec::new();
    replay_hands(
        &mut m,
        record,
        |h, d| parse_tressette_deal(h, variant, d),
        |m, dealer| {
            hands.push((
                dealer,
                m.hands().last().and_then(|x| x.outcome().copied()),
                m.totals(),
            ));
        },
    )?;
    let report = TressetteReport {
        hands,
        result: m.result(),
        totals: m.totals(),
    };
    Ok((m, report))
}
