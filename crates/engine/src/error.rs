//! [`IllegalAction`]: why an action was refused. The state is always left unchanged.

use crate::action::{Contract, Promise};
use crate::card::{Card, Rank, Suit};
use crate::game::Phase;
use crate::seat::Seat;

/// Why an action is not legal now. `Display` gives the short reason used in replay errors,
/// e.g. `must follow suit c`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// The hand (or match) is over.
    #[error("the hand is over")]
    HandOver,
    /// Another seat must decide now.
    #[error("not your turn: seat {actor} is to act")]
    NotYourTurn {
        /// Who decides now.
        actor: Seat,
    },
    /// This kind of action does not fit the phase.
    #[error("wrong kind of action: {}", phase_hint(*phase))]
    WrongPhase {
        /// What the hand waits for.
        phase: Phase,
    },
    /// A bid not above the highest bid.
    #[error("bid too low: must be higher than {}", highest.map_or("nothing", |c| c.name()))]
    BidTooLow {
        /// The highest bid so far.
        highest: Option<Contract>,
    },
    /// With `only_chiamo` the only bid is chiamo, and only the first one.
    #[error("only chiamo may be bid (only_chiamo), and the auction closes at the first bid")]
    OnlyChiamo,
    /// The soloist named a card he holds.
    #[error("cannot call own card {0}")]
    CallOwnCard(Card),
    /// The call must be of another rank (`chiamo_threes_only`).
    #[error("only a missing {allowed} may be called (chiamo_threes_only)")]
    CallRank {
        /// The rank that may be called.
        allowed: Rank,
    },
    /// The called card cannot be given back.
    #[error("cannot return the called card {0}")]
    ReturnCalledCard(Card),
    /// The card is not in the acting player's hand.
    #[error("card {0} is not in hand")]
    NotInHand(Card),
    /// A take names a card that is not in the monte.
    #[error("card {0} is not in the monte")]
    NotInMonte(Card),
    /// The player holds a card of the led suit.
    #[error("must follow suit {0}")]
    MustFollowSuit(Suit),
    /// A bid of a kind this auction does not take (a contract in Briscola Chiamata, a rank in
    /// Tressette con la Chiamata, `bid 2 N` with `two_closes`...).
    #[error("this auction takes {expected}")]
    BidNotTaken {
        /// What the auction takes.
        expected: &'static str,
    },
    /// A Briscola Chiamata bid not above the highest bid.
    #[error("bid too low: must be higher than bid {highest}")]
    PromiseTooLow {
        /// The highest bid so far.
        highest: Promise,
    },
    /// The call must be a card of another rank (the rank bid in Briscola Chiamata, or the
    /// highest rank the caller lacks with `call_threes_only`).
    #[error("the call must be a {rank} ({why})")]
    CallMustBe {
        /// The rank that may be called.
        rank: Rank,
        /// The rule that says so.
        why: &'static str,
    },
    /// A signal on a card in a game without signals, or on a follow.
    #[error("a signal may only accompany a Tressette lead")]
    SignalNotAllowed,
}

fn phase_hint(p: Phase) -> &'static str {
    match p {
        Phase::Auction => "expected pass or bid",
        Phase::Call => "expected call <card>",
        Phase::Return => "expected return <card>",
        Phase::Discard => "expected discard <card>",
        Phase::Take => "expected take [<card> ...]",
        Phase::Play => "expected play <card>",
        Phase::Over => "the hand is over",
    }
}
