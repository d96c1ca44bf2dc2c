//! Actions: the typed form, the canonical strings of `records.md`, and stable numeric ids.
//!
//! # Numeric ids
//!
//! Ids are stable across releases. `card` below is [`Card::index`] (`suit * 10 + power`, suits
//! b c d s, power 0 = the 4 ... 9 = the 3).
//!
//! | ids | action |
//! |---|---|
//! | 0 | `pass` |
//! | 1..=5 | `bid chiamo`, `bid solo`, `bid solissimo`, `bid dividete`, `bid scegliete` |
//! | 6..=21 | `take ...`: 6 + mask, bit `i` of the mask = the `i`-th monte card in deal order |
//! | 22..=61 | `call <card>`: 22 + card |
//! | 62..=101 | `return <card>`: 62 + card |
//! | 102..=141 | `discard <card>`: 102 + card |
//! | 142..=181 | `play <card>`: 142 + card |
//! | 182..=301 | `play <card> <signal>`: 182 + 40 * signal + card (busso 0, striscio 1, volo 2) |
//! | 302..=311 | `bid <rank>` (Briscola Chiamata): 302 + the rank's step on the ladder, `bid A` 0 ... `bid 2` 9 |
//! | 312..=370 | `bid 2 <N>` (Briscola Chiamata): 312 + N - 62, N from 62 to 120 |
//! | 371..=430 | `bid <N>` (Briscola Chiamata, points auction): 371 + N - 61, N from 61 to 120 |
//!
//! `take` ids depend on the monte's deal order, so converting them needs the monte
//! ([`Action::to_id`], [`Action::from_id`]); every other id converts on its own.

use std::fmt;
use std::str::FromStr;

use crate::card::{Card, NotationError, Rank};
use crate::cardset::CardSet;

/// The five Calabresella contracts, lowest to highest; the discriminant is the contract's value
/// in match points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Contract {
    /// Chiamo: call a card, exchange with the monte (1 point).
    Chiamo = 1,
    /// Solo: exchange with the monte (2 points).
    Solo = 2,
    /// Solissimo: play without the monte (4 points).
    Solissimo = 4,
    /// Solissimo dividete: each defender exchanges 2 cards with the monte (8 points).
    Dividete = 8,
    /// Solissimo scegliete: the defenders split the open monte (16 points).
    Scegliete = 16,
}

impl Contract {
    /// All contracts, lowest first.
    pub const ALL: [Contract; 5] = [
        Contract::Chiamo,
        Contract::Solo,
        Contract::Solissimo,
        Contract::Dividete,
        Contract::Scegliete,
    ];

    /// Value in match points before multipliers.
    #[inline]
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The name used in action strings and replay output.
    pub const fn name(self) -> &'static str {
        match self {
            Contract::Chiamo => "chiamo",
            Contract::Solo => "solo",
            Contract::Solissimo => "solissimo",
            Contract::Dividete => "dividete",
            Contract::Scegliete => "scegliete",
        }
    }

    /// 0..5 in [`Contract::ALL`] order.
    pub const fn ordinal(self) -> usize {
        match self {
            Contract::Chiamo => 0,
            Contract::Solo => 1,
            Contract::Solissimo => 2,
            Contract::Dividete => 3,
            Contract::Scegliete => 4,
        }
    }

    fn from_name(s: &str) -> Option<Contract> {
        Contract::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for Contract {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A Tressette lead signal (public, no effect on legality or score).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    /// Busso: "take this trick if you can".
    Busso = 0,
    /// Striscio: "I have more of this suit".
    Striscio = 1,
    /// Volo: "this was my last card of the suit".
    Volo = 2,
}

impl Signal {
    /// All signals in id order.
    pub const ALL: [Signal; 3] = [Signal::Busso, Signal::Striscio, Signal::Volo];

    /// The signal word in action strings.
    pub const fn name(self) -> &'static str {
        match self {
            Signal::Busso => "busso",
            Signal::Striscio => "striscio",
            Signal::Volo => "volo",
        }
    }
}

/// A Briscola Chiamata bid (BC-D3, BC-D5): a rank, which promises 61 card points, or a number
/// of card points. On the rank auction's ladder `A < 3 < K < C < F < 7 < 6 < 5 < 4 < 2 <
/// 2 62 < ... < 2 120`, each bid must be strictly higher than the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Promise {
    /// `bid <rank>`: the caller will call a card of this rank and promises 61 points.
    Rank(Rank),
    /// `bid 2 <N>`: after `bid 2`, a 2 is called and N card points (62 to 120) are promised.
    TwoFor(u8),
    /// `bid <N>` (option `auction = points`): N card points (61 to 120), any card called.
    Points(u8),
}

impl Promise {
    /// The ranks of the rank auction, lowest bid first: `A 3 K C F 7 6 5 4 2`.
    pub const RANK_LADDER: [Rank; 10] = [
        Rank::Ace,
        Rank::Three,
        Rank::Re,
        Rank::Cavallo,
        Rank::Fante,
        Rank::Seven,
        Rank::Six,
        Rank::Five,
        Rank::Four,
        Rank::Two,
    ];
    /// The fewest card points a points bid may promise.
    pub const MIN_POINTS: u8 = 61;
    /// The most card points there are.
    pub const MAX_POINTS: u8 = 120;

    /// The bid's step on its auction's ladder: rank bids 0..=9, then `bid 2 N` at 10 + N - 62;
    /// a points bid at N. Higher steps are higher bids (bids of one auction kind only).
    #[inline]
    pub fn step(self) -> u16 {
        match self {
            Promise::Rank(r) => LADDER_STEP_BY_POWER[usize::from(r.power())],
            Promise::TwoFor(n) => 10 + u16::from(n).saturating_sub(62),
            Promise::Points(n) => u16::from(n),
        }
    }

    /// The card points the caller's side must take: 61 for a rank bid, else N (BC-D10).
    #[inline]
    pub const fn target(self) -> u8 {
        match self {
            Promise::Rank(_) => 61,
            Promise::TwoFor(n) | Promise::Points(n) => n,
        }
    }

    /// The rank the caller must call: the bid rank, a 2 after `bid 2 N`, any after a points
    /// bid (BC-D5, BC-D7).
    #[inline]
    pub const fn call_rank(self) -> Option<Rank> {
        match self {
            Promise::Rank(r) => Some(r),
            Promise::TwoFor(_) => Some(Rank::Two),
            Promise::Points(_) => None,
        }
    }

    /// Whether the bid is well formed: a points figure in its range.
    pub const fn is_valid(self) -> bool {
        match self {
            Promise::Rank(_) => true,
            Promise::TwoFor(n) => n >= 62 && n <= Promise::MAX_POINTS,
            Promise::Points(n) => n >= Promise::MIN_POINTS && n <= Promise::MAX_POINTS,
        }
    }
}

/// Each rank's step on the rank ladder, by trick power (the 4 is power 0): the inverse of
/// [`Promise::RANK_LADDER`], looked up on every bid of a rollout.
const LADDER_STEP_BY_POWER: [u16; 10] = {
    let mut t = [0u16; 10];
    let mut step = 0;
    while step < 10 {
        t[Promise::RANK_LADDER[step].power() as usize] = step as u16;
        step += 1;
    }
    t
};

impl fmt::Display for Promise {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Promise::Rank(r) => write!(f, "{r}"),
            Promise::TwoFor(n) => write!(f, "2 {n}"),
            Promise::Points(n) => write!(f, "{n}"),
        }
    }
}

/// One decision of a player. Which seat takes it is always defined by the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Pass in the auction.
    Pass,
    /// Bid a contract in the auction.
    Bid(Contract),
    /// Chiamo: the soloist names a card.
    Call(Card),
    /// Chiamo: the soloist gives a card back to the holder of the called card.
    Return(Card),
    /// Put one card face down into the set-aside monte.
    Discard(Card),
    /// Scegliete: the first defender takes these monte cards (possibly none).
    Take(CardSet),
    /// Play a card to the trick, with an optional Tressette lead signal.
    Play(Card, Option<Signal>),
    /// A Briscola Chiamata bid: `bid A`, `bid 2 80`, `bid 75`.
    Promise(Promise),
}

/// A lead's choices for each card, in the order of every game's legal actions: plain, then
/// with busso, striscio and volo.
pub const LEAD_SIGNALS: [Option<Signal>; 4] = [
    None,
    Some(Signal::Busso),
    Some(Signal::Striscio),
    Some(Signal::Volo),
];

/// Number of numeric action ids (ids are `0..NUM_ACTION_IDS`).
pub const NUM_ACTION_IDS: u16 = 431;

const TAKE0: u16 = 6;
const CALL0: u16 = 22;
const RETURN0: u16 = 62;
const DISCARD0: u16 = 102;
const PLAY0: u16 = 142;
const SIGNAL0: u16 = 182;
const RANK_BID0: u16 = 302;
const TWO_FOR0: u16 = 312;
const POINTS0: u16 = 371;

/// A numeric id that names no action (or a `take` id without a known monte).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ActionIdError {
    /// The id is not below [`NUM_ACTION_IDS`].
    #[error("action id {0} is out of range: ids are 0 to {last}", last = NUM_ACTION_IDS - 1)]
    OutOfRange(u16),
    /// A `take` id or action needs the monte's deal order, which this context does not know.
    #[error("take ids are relative to the open monte, which is not known here")]
    MonteUnknown,
    /// A `take` action names a card that is not in the monte.
    #[error("take names a card that is not in the monte")]
    NotInMonte,
    /// A points bid outside its range (`bid 2 N`: 62 to 120; `bid N`: 61 to 120).
    #[error("a points bid promises 61 to 120 card points (62 to 120 after bid 2)")]
    BadPromise,
}

impl Action {
    /// The action without its lead signal: a signalled card is the same card played, since
    /// a signal changes neither legality nor score.
    #[must_use]
    pub const fn unsignalled(self) -> Action {
        match self {
            Action::Play(card, Some(_)) => Action::Play(card, None),
            other => other,
        }
    }

    /// The stable numeric id (see the module docs). `monte` is the monte in deal order, needed
    /// only for `take`.
    #[inline]
    pub fn to_id(&self, monte: Option<&[Card; 4]>) -> Result<u16, ActionIdError> {
        Ok(match *self {
            Action::Pass => 0,
            Action::Bid(c) => 1 + c.ordinal() as u16,
            Action::Take(set) => {
                let monte = monte.ok_or(ActionIdError::MonteUnknown)?;
                let mut mask = 0u16;
                for (i, c) in monte.iter().enumerate() {
                    if set.contains(*c) {
                        mask |= 1 << i;
                    }
                }
                if set - monte.iter().copied().collect() != CardSet::EMPTY {
                    return Err(ActionIdError::NotInMonte);
                }
                TAKE0 + mask
            }
            Action::Call(c) => CALL0 + u16::from(c.index()),
            Action::Return(c) => RETURN0 + u16::from(c.index()),
            Action::Discard(c) => DISCARD0 + u16::from(c.index()),
            Action::Play(c, s) => Action::play_id(c, s),
            Action::Promise(p) => {
                if !p.is_valid() {
                    return Err(ActionIdError::BadPromise);
                }
                match p {
                    Promise::Rank(_) => RANK_BID0 + p.step(),
                    Promise::TwoFor(n) => TWO_FOR0 + u16::from(n) - 62,
                    Promise::Points(n) => POINTS0 + u16::from(n) - 61,
                }
            }
        })
    }

    /// The id of `play c` with the lead signal `s`.
    #[inline]
    pub const fn play_id(c: Card, s: Option<Signal>) -> u16 {
        match s {
            None => PLAY0 + c.index() as u16,
            Some(s) => SIGNAL0 + 40 * s as u16 + c.index() as u16,
        }
    }

    /// The id of an action that needs no monte (every action but `take`), with a branch-free
    /// path for the commonest, a plain `play`: what a hand's history stores.
    #[inline]
    pub(crate) fn history_id(self) -> Option<u16> {
        match self {
            Action::Play(c, None) => Some(PLAY0 + u16::from(c.index())),
            other => other.to_id(None).ok(),
        }
    }

    /// The action with numeric id `id`; `monte` (deal order) is needed only for `take` ids.
    pub fn from_id(id: u16, monte: Option<&[Card; 4]>) -> Result<Action, ActionIdError> {
        let card =
            |base: u16| Card::from_index((id - base) as u8).ok_or(ActionIdError::OutOfRange(id));
        Ok(match id {
            0 => Action::Pass,
            1..=5 => Action::Bid(Contract::ALL[id as usize - 1]),
            TAKE0..CALL0 => {
                let monte = monte.ok_or(ActionIdError::MonteUnknown)?;
                let mask = id - TAKE0;
                Action::Take(
                    (0..4)
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| monte[i])
                        .collect(),
                )
            }
            CALL0..RETURN0 => Action::Call(card(CALL0)?),
            RETURN0..DISCARD0 => Action::Return(card(RETURN0)?),
            DISCARD0..PLAY0 => Action::Discard(card(DISCARD0)?),
            PLAY0..SIGNAL0 => Action::Play(card(PLAY0)?, None),
            SIGNAL0..RANK_BID0 => {
                let k = id - SIGNAL0;
                let c = Card::from_index((k % 40) as u8).ok_or(ActionIdError::OutOfRange(id))?;
                Action::Play(c, Some(Signal::ALL[(k / 40) as usize]))
            }
            RANK_BID0..TWO_FOR0 => Action::Promise(Promise::Rank(
                Promise::RANK_LADDER[(id - RANK_BID0) as usize],
            )),
            TWO_FOR0..POINTS0 => Action::Promise(Promise::TwoFor((id - TWO_FOR0 + 62) as u8)),
            POINTS0..NUM_ACTION_IDS => Action::Promise(Promise::Points((id - POINTS0 + 61) as u8)),
            _ => return Err(ActionIdError::OutOfRange(id)),
        })
    }
}

impl fmt::Display for Action {
    /// The canonical string of `records.md`, e.g. `bid solo`, `play Ad`, `take 3b Kd`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => f.write_str("pass"),
            Action::Bid(c) => write!(f, "bid {c}"),
            Action::Call(c) => write!(f, "call {c}"),
            Action::Return(c) => write!(f, "return {c}"),
            Action::Discard(c) => write!(f, "discard {c}"),
            Action::Take(set) => {
                f.write_str("take")?;
                for c in set.display_order() {
                    write!(f, " {c}")?;
                }
                Ok(())
            }
            Action::Play(c, None) => write!(f, "play {c}"),
            Action::Play(c, Some(s)) => write!(f, "play {c} {}", s.name()),
            Action::Promise(p) => write!(f, "bid {p}"),
        }
    }
}

/// The words after `bid`: a contract name, a rank, `2 <N>` or a number of points.
fn parse_bid(s: &str, rest: &[&str]) -> Result<Action, NotationError> {
    let points = |w: &str, lo: u8| {
        w.parse::<u8>()
            .ok()
            .filter(|n| (lo..=Promise::MAX_POINTS).contains(n))
    };
    match rest {
        [word] => {
            if let Some(c) = Contract::from_name(word) {
                return Ok(Action::Bid(c));
            }
            let mut chars = word.chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && let Some(r) = Rank::from_letter(c)
            {
                return Ok(Action::Promise(Promise::Rank(r)));
            }
            if let Some(n) = points(word, Promise::MIN_POINTS) {
                return Ok(Action::Promise(Promise::Points(n)));
            }
            Err(NotationError::new(
                s,
                "unknown bid: chiamo, solo, solissimo, dividete, scegliete, a rank (A 3 K C F 7 6 5 4 2) or 61 to 120 points",
            ))
        }
        ["2", n] => points(n, 62)
            .map(|n| Action::Promise(Promise::TwoFor(n)))
            .ok_or_else(|| NotationError::new(s, "bid 2 <N> takes N from 62 to 120")),
        _ => Err(NotationError::new(
            s,
            "bid takes a contract, a rank, 2 and a number of points, or a number of points",
        )),
    }
}

impl FromStr for Action {
    type Err = NotationError;

    /// Parses an action string in any case, with any spacing between words.
    fn from_str(s: &str) -> Result<Action, NotationError> {
        let mut words = s.split_whitespace();
        let verb = words
            .next()
            .ok_or_else(|| NotationError::new(s, "empty action"))?
            .to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        let one_card = |rest: &[&str]| -> Result<Card, NotationError> {
            match rest {
                [c] => c
                    .parse::<Card>()
                    .map_err(|_| NotationError::new(s, "bad card in action")),
                _ => Err(NotationError::new(s, "this action takes exactly one card")),
            }
        };
        match verb.as_str() {
            "pass" if rest.is_empty() => Ok(Action::Pass),
            "pass" => Err(NotationError::new(s, "pass takes no argument")),
            "bid" => parse_bid(s, &rest),
            "call" => one_card(&rest).map(Action::Call),
            "return" => one_card(&rest).map(Action::Return),
            "discard" => one_card(&rest).map(Action::Discard),
            "take" => {
                let mut set = CardSet::EMPTY;
                for w in &rest {
                    let c = w
                        .parse::<Card>()
                        .map_err(|_| NotationError::new(s, "bad card in take"))?;
                    if set.contains(c) {
                        return Err(NotationError::new(s, "take names a card twice"));
                    }
                    set.insert(c);
                }
                Ok(Action::Take(set))
            }
            "play" => match rest.as_slice() {
                [c] => Ok(Action::Play(one_card(&[c])?, None)),
                [c, sig] => {
                    let signal = Signal::ALL
                        .into_iter()
                        .find(|x| x.name().eq_ignore_ascii_case(sig))
                        .ok_or_else(|| {
                            NotationError::new(s, "unknown signal: busso, striscio or volo")
                        })?;
                    Ok(Action::Play(one_card(&[c])?, Some(signal)))
                }
                _ => Err(NotationError::new(
                    s,
                    "play takes a card and an optional signal",
                )),
            },
            _ => Err(NotationError::new(
                s,
                "unknown action: pass, bid, call, return, discard, take or play",
            )),
        }
    }
}

/// The actions of a hand's history of action ids, read without a game's context (every game
/// but Calabresella, whose ids need the hand to decode).
pub(crate) fn plain_actions(ids: &[u16]) -> impl Iterator<Item = Action> + '_ {
    ids.iter().filter_map(|&id| Action::from_id(id, None).ok())
}
