//! [`View`]: one seat's observation as the Python package holds it, built from the wire
//! `Observation`. In-process observations go engine -> wire -> view, remote ones arrive as wire
//! messages, so both kinds are the same Python objects with the same values.

use calabresella_engine::game::{AnyObservation, Rules};
use calabresella_engine::{Action, Card, CardSet, Contract, Seat};
use calabresella_proto::convert::WireError;
use calabresella_proto::{convert, v1};

/// One public event of the hand's history, as the information-state tensor reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PubEvent {
    /// The wire event kind.
    pub kind: v1::EventKind,
    /// The seat it concerns.
    pub seat: Option<Seat>,
    /// The second seat (a receiver).
    pub to_seat: Option<Seat>,
    /// The contract of a bid (`None` is a pass).
    pub contract: Option<Contract>,
    /// The card, when one is visible.
    pub card: Option<Card>,
    /// The cards, when visible.
    pub cards: CardSet,
    /// A trick number.
    pub number: u32,
    /// A Briscola Chiamata bid.
    pub promise: Option<calabresella_engine::Promise>,
}

/// A seat's (or a spectator's) view of the current hand, with everything the Python
/// `Observation` shows.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// The rules in force.
    pub rules: Rules,
    /// The viewer (`None`: a spectator).
    pub viewer: Option<Seat>,
    /// 0-based hand number.
    pub hand_number: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The idle dealer (four-player Calabresella).
    pub idle: Option<Seat>,
    /// Match totals (per seat in Calabresella and the calling games, per side in Tressette);
    /// negative only in the calling games.
    pub totals: Vec<i32>,
    /// The phase: 0 auction, 1 call, 2 return, 3 discard, 4 take, 5 play, 6 over.
    pub phase: u8,
    /// Whose decision it is.
    pub actor: Option<Seat>,
    /// Who takes it.
    pub decider: Option<Seat>,
    /// The highest bid so far.
    pub highest_bid: Option<(Seat, Contract)>,
    /// The soloist once known (the caller in the calling games).
    pub soloist: Option<Seat>,
    /// The contract once known.
    pub contract: Option<Contract>,
    /// The called card.
    pub called: Option<Card>,
    /// The viewer's cards.
    pub hand: CardSet,
    /// Other hands this viewer may see.
    pub visible_hands: Vec<(Seat, CardSet)>,
    /// Cards per seat.
    pub hand_sizes: Vec<u8>,
    /// The trick in progress, in play order.
    pub trick: Vec<(Seat, Card)>,
    /// Completed tricks.
    pub tricks_done: u8,
    /// Tricks won per side.
    pub side_tricks: [u32; 2],
    /// Whether the wire carried `side_tricks` (games with a soloist do; partnership games
    /// leave them to be counted from the history).
    pub has_side_tricks: bool,
    /// Cards left in the stock.
    pub stock_left: u8,
    /// The hand's events as structured values.
    pub history: Vec<PubEvent>,
    /// The hand's events as text.
    pub events: Vec<String>,
    /// The legal actions `(id, action)` when the viewer decides.
    pub legal: Vec<(u16, Action)>,
    /// The open monte in deal order (scegliete), which `take` ids refer to.
    pub monte: Option<[Card; 4]>,
    /// The hand's result text once over.
    pub outcome: Option<String>,
    /// The hand's award per seat (Calabresella, the calling games) or side (Tressette) once
    /// over.
    pub award: Option<Vec<i32>>,
    /// Calling games: the trump suit (Briscola Chiamata).
    pub trump: Option<calabresella_engine::Suit>,
    /// Calling games: the partner, when this viewer may know it.
    pub partner: Option<Seat>,
    /// Calling games: the caller plays alone, as far as this viewer knows.
    pub alone: bool,
    /// Calling games: what the caller's side needs.
    pub target: u32,
    /// Calling games: points captured per seat.
    pub seat_points: Vec<u32>,
    /// Briscola Chiamata: the highest bid so far.
    pub highest_promise: Option<(Seat, calabresella_engine::Promise)>,
    /// Briscola Chiamata: the winning bid.
    pub promise: Option<calabresella_engine::Promise>,
    /// Calling games: the viewer's role (`caller`, `partner`, `defender`, `caller_alone`).
    pub role: Option<&'static str>,
    /// Earlier hands' result texts.
    pub previous: Vec<String>,
}

fn bad(what: &str) -> WireError {
    WireError::Action(format!("malformed observation: {what}"))
}

fn seat_of(n: u32, seats: u8) -> Result<Seat, WireError> {
    convert::seat_from_wire(n, seats).ok_or_else(|| bad("seat out of range"))
}

fn opt_seat(n: Option<u32>, seats: u8) -> Result<Option<Seat>, WireError> {
    n.map(|n| seat_of(n, seats)).transpose()
}

fn card_set(cards: &[v1::Card]) -> Result<CardSet, WireError> {
    cards.iter().map(convert::card_from_wire).collect()
}

fn phase_of(p: i32) -> u8 {
    match v1::Phase::try_from(p).unwrap_or(v1::Phase::Unspecified) {
        v1::Phase::Auction | v1::Phase::Unspecified => 0,
        v1::Phase::Call => 1,
        v1::Phase::Return => 2,
        v1::Phase::Discard => 3,
        v1::Phase::Take => 4,
        v1::Phase::Play => 5,
        v1::Phase::Over => 6,
    }
}

/// The notation letter of a wire suit (`?` when unset).
fn suit_letter(s: v1::Suit) -> char {
    match s {
        v1::Suit::Bastoni => 'b',
        v1::Suit::Coppe => 'c',
        v1::Suit::Denari => 'd',
        v1::Suit::Spade => 's',
        v1::Suit::Unspecified => '?',
    }
}

/// Phase names by [`View::phase`].
pub const PHASES: [&str; 7] = [
    "auction", "call", "return", "discard", "take", "play", "over",
];

impl View {
    /// The view of an engine observation (through its wire form).
    pub fn from_engine(o: &AnyObservation) -> View {
        // The engine's own observations always convert back.
        View::from_wire(&convert::observation(o))
            .unwrap_or_else(|e| unreachable!("engine observation: {e}"))
    }

    /// Parses a wire observation; a malformed one is an error, never a panic.
    pub fn from_wire(w: &v1::Observation) -> Result<View, WireError> {
        let rules = convert::rules_from_wire(w.options.as_ref().ok_or_else(|| bad("no options"))?)?;
        let n = rules.seats();
        let monte = w
            .events
            .iter()
            .find(|e| e.kind == v1::EventKind::MonteShown as i32)
            .map(|e| {
                let cs: Result<Vec<Card>, _> =
                    e.cards.iter().map(convert::card_from_wire).collect();
                cs.and_then(|v| <[Card; 4]>::try_from(v).map_err(|_| bad("monte of 4")))
            })
            .transpose()?;
        let mut history = Vec::with_capacity(w.events.len());
        for e in &w.events {
            history.push(PubEvent {
                kind: v1::EventKind::try_from(e.kind).map_err(|_| bad("event kind"))?,
                seat: opt_seat(e.seat, n)?,
                to_seat: opt_seat(e.to_seat, n)?,
                contract: convert::contract_from_wire(e.contract)?,
                card: e.card.as_ref().map(convert::card_from_wire).transpose()?,
                // An accuso carries its cards inside it (the event's own list is empty).
                cards: match &e.accuso {
                    Some(a) if e.cards.is_empty() => card_set(&a.cards)?,
                    _ => card_set(&e.cards)?,
                },
                number: e.number,
                promise: match e
                    .action
                    .as_ref()
                    .map(|a| convert::action_from_wire(a, None))
                    .transpose()?
                {
                    Some(calabresella_engine::Action::Promise(p))
                        if e.kind == v1::EventKind::Bid as i32 =>
                    {
                        Some(p)
                    }
                    _ => None,
                },
            });
        }
        let mut legal = Vec::with_capacity(w.legal_actions.len());
        for a in &w.legal_actions {
            let action = convert::action_from_wire(a, monte.as_ref())?;
            let id = action
                .to_id(monte.as_ref())
                .map_err(|e| bad(&e.to_string()))?;
            legal.push((id, action));
        }
        let mut trick = Vec::with_capacity(w.trick.len());
        for p in &w.trick {
            let c = p.card.as_ref().ok_or_else(|| bad("trick card"))?;
            trick.push((seat_of(p.seat, n)?, convert::card_from_wire(c)?));
        }
        let mut visible_hands = Vec::new();
        for v in &w.visible_hands {
            visible_hands.push((seat_of(v.seat, n)?, card_set(&v.cards)?));
        }
        let highest_bid = match (
            w.highest_bidder,
            convert::contract_from_wire(w.highest_bid)?,
        ) {
            (Some(s), Some(c)) => Some((seat_of(s, n)?, c)),
            _ => None,
        };
        let side = |v: &[u32], i: usize| v.get(i).copied().unwrap_or(0);
        let promise =
            |a: Option<&v1::Action>| -> Result<Option<calabresella_engine::Promise>, WireError> {
                Ok(
                    match a.map(|a| convert::action_from_wire(a, None)).transpose()? {
                        Some(calabresella_engine::Action::Promise(p)) => Some(p),
                        _ => None,
                    },
                )
            };
        let highest_promise = match (w.highest_bidder, promise(w.highest.as_ref())?) {
            (Some(s), Some(p)) => Some((seat_of(s, n)?, p)),
            _ => None,
        };
        let trump = v1::Suit::try_from(w.trump).ok().and_then(|s| {
            calabresella_engine::Suit::ALL
                .into_iter()
                .find(|x| x.letter() == suit_letter(s))
        });
        Ok(View {
            rules,
            viewer: opt_seat(w.viewer, n)?,
            hand_number: w.hand_number,
            dealer: seat_of(w.dealer, n)?,
            idle: opt_seat(w.idle, n)?,
            totals: if w.signed_totals.is_empty() {
                w.totals.iter().map(|&t| t as i32).collect()
            } else {
                w.signed_totals.clone()
            },
            phase: phase_of(w.phase),
            actor: opt_seat(w.actor, n)?,
            decider: opt_seat(w.decider, n)?,
            highest_bid,
            // The calling games' caller takes the soloist's place.
            soloist: opt_seat(w.soloist.or(w.caller), n)?,
            contract: convert::contract_from_wire(w.contract)?,
            called: w.called.as_ref().map(convert::card_from_wire).transpose()?,
            hand: card_set(&w.hand)?,
            visible_hands,
            hand_sizes: w.hand_sizes.iter().map(|&x| x.min(40) as u8).collect(),
            trick,
            tricks_done: w.tricks_done.min(40) as u8,
            side_tricks: [side(&w.side_tricks, 0), side(&w.side_tricks, 1)],
            has_side_tricks: !w.side_tricks.is_empty(),
            stock_left: w.stock_left.min(40) as u8,
            events: w.events.iter().map(|e| e.text.clone()).collect(),
            history,
            legal,
            monte,
            outcome: w.outcome.as_ref().map(|r| r.text.clone()),
            award: w.outcome.as_ref().map(|r| {
                if r.signed_award.is_empty() {
                    r.award.iter().map(|&a| a as i32).collect()
                } else {
                    r.signed_award.clone()
                }
            }),
            trump,
            partner: opt_seat(w.partner, n)?,
            alone: w.alone,
            target: w.target.unwrap_or(0),
            seat_points: w.seat_points.clone(),
            highest_promise,
            promise: promise(w.bid.as_ref())?,
            role: match v1::Role::try_from(w.role).unwrap_or(v1::Role::Unspecified) {
                v1::Role::Unspecified => None,
                v1::Role::Caller => Some("caller"),
                v1::Role::Partner => Some("partner"),
                v1::Role::Defender => Some("defender"),
                v1::Role::CallerAlone => Some("caller_alone"),
            },
            previous: w.previous.iter().map(|r| r.text.clone()).collect(),
        })
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        self.rules.seats()
    }

    /// Cards won in completed tricks this hand, with the monte once the last trick takes it
    /// (the sides' piles, as far as they are public).
    pub fn played(&self) -> CardSet {
        let mut all = CardSet::EMPTY;
        for e in &self.history {
            match e.kind {
                v1::EventKind::Played => all |= e.card.into_iter().collect(),
                v1::EventKind::MonteRevealed => all |= e.cards,
                _ => {}
            }
        }
        for &(_, c) in &self.trick {
            all.remove(c);
        }
        all
    }
}
