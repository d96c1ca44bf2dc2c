//! [`Features`]: what a viewer may know of a hand, as fixed-size fields filled without
//! allocation: the input of tensor encodings (the Python package's observation tensor).

use crate::action::{Contract, Promise};
use crate::card::{Card, Suit};
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::hand_core::HandCore;
use super::option_spec::GameOptions;
use super::vocab::{CardPlaces, Phase, Viewer};
use crate::trick::Trick;

/// What one viewer may know of a hand, by absolute seat. Every game fills the fields it has and
/// leaves the rest empty (a game without an auction has no contract).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Seats at the table.
    pub players: u8,
    /// The viewer (`None`: a spectator).
    pub viewer: Option<Seat>,
    /// The viewer's cards.
    pub own: CardSet,
    /// Other seats' hands the viewer sees, by absolute seat.
    pub visible: [CardSet; Seat::MAX],
    /// The current trick's card of each absolute seat.
    pub trick: [Option<Card>; Seat::MAX],
    /// Cards won in completed tricks (with the monte once the last trick takes it).
    pub played: CardSet,
    /// The called card.
    pub called: Option<Card>,
    /// What the hand waits for.
    pub phase: Phase,
    /// The contract.
    pub contract: Option<Contract>,
    /// The highest bid.
    pub highest: Option<(Seat, Contract)>,
    /// The soloist, or the caller in the calling games.
    pub soloist: Option<Seat>,
    /// Briscola Chiamata: the highest bid so far.
    pub highest_promise: Option<(Seat, Promise)>,
    /// Briscola Chiamata: the winning bid.
    pub promise: Option<Promise>,
    /// Briscola Chiamata: the trump suit.
    pub trump: Option<Suit>,
    /// The calling games: the partner, once the viewer may know it (the called card is out, or
    /// the viewer holds it).
    pub partner: Option<Seat>,
    /// The calling games: the caller plays alone, as far as the viewer knows.
    pub alone: bool,
    /// The calling games: what the caller's side needs (6 points; 61 or N card points).
    pub target: u32,
    /// The calling games: points each seat has captured (thirds, or Briscola card points).
    pub seat_points: [u32; Seat::MAX],
    /// Who decides.
    pub decider: Option<Seat>,
    /// Whose turn it is.
    pub actor: Option<Seat>,
    /// The dealer.
    pub dealer: Seat,
    /// The idle dealer.
    pub idle: Option<Seat>,
    /// Cards held per absolute seat.
    pub hand_sizes: [u8; Seat::MAX],
    /// Completed tricks.
    pub tricks_done: u8,
    /// Tricks won per side: `[soloist, defenders]` in a game with a soloist, else `[the
    /// viewer's side, the other side]`; in the calling games, whose sides are secret, `[the
    /// viewer's own, everyone else's]`.
    pub side_tricks: [u32; 2],
    /// Cards left in the stock.
    pub stock_left: u8,
}

impl Features {
    /// What every game fills alike from its hand: the seats, the viewer and its cards, the
    /// phase, who acts and who decides, the dealer and the tricks done; the rest empty.
    pub(crate) fn common<O: GameOptions, D>(
        core: &HandCore<O, D>,
        viewer: Viewer,
        phase: Phase,
        (actor, decider): (Option<Seat>, Option<Seat>),
    ) -> Features {
        Features {
            players: core.options().players(),
            viewer: viewer.seat(),
            own: viewer.seat().map_or(CardSet::EMPTY, |s| core.hand_of(s)),
            phase,
            actor,
            decider,
            dealer: core.dealer(),
            tricks_done: core.tricks_done(),
            ..Features::default()
        }
    }

    /// Fills what every trick-taking hand shows alike: the trick's cards by seat (play moving
    /// from the leader by `next`), each seat's card count, and the cards won so far.
    pub(crate) fn fill_table(
        &mut self,
        trick: &Trick,
        next: impl Fn(Seat) -> Seat,
        places: &CardPlaces,
    ) {
        let mut seat = trick.leader();
        for c in trick.cards() {
            self.trick[seat.index()] = Some(c);
            seat = next(seat);
        }
        for s in Seat::ALL {
            self.hand_sizes[s.index()] = places.hands[s].len() as u8;
        }
        self.played = places.won[0] | places.won[1];
    }
}

impl Default for Features {
    fn default() -> Features {
        Features {
            players: 0,
            viewer: None,
            own: CardSet::EMPTY,
            visible: [CardSet::EMPTY; Seat::MAX],
            trick: [None; Seat::MAX],
            played: CardSet::EMPTY,
            called: None,
            phase: Phase::Auction,
            contract: None,
            highest: None,
            soloist: None,
            highest_promise: None,
            promise: None,
            trump: None,
            partner: None,
            alone: false,
            target: 0,
            seat_points: [0; Seat::MAX],
            decider: None,
            actor: None,
            dealer: Seat::ALL[0],
            idle: None,
            hand_sizes: [0; Seat::MAX],
            tricks_done: 0,
            side_tricks: [0; 2],
            stock_left: 0,
        }
    }
}

/// One step of a hand's history as a viewer knows it, reduced to what an encoding of the
/// history (the information-state tensor) reads: each game's observation lists its own
/// events as these ([`crate::game::View::history`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryFact {
    /// A card played to a trick.
    Played(Seat, Card),
    /// Trick `number` (1-based) was completed.
    TrickWon(u32),
    /// A seat spoke in the auction: a contract, a Briscola bid, or a pass (both `None`).
    Bid(Seat, Option<Contract>, Option<Promise>),
    /// A card went into the set-aside monte (only its owner sees which).
    Discarded(Seat, Card),
    /// Monte cards the viewer saw (taken, received, shown or revealed).
    MonteSeen(CardSet),
    /// A card drawn from the stock (Tressette in Due).
    Drew(Card),
    /// A Tressette accuso and the cards it made public.
    Declared(Seat, CardSet),
}
