//! [`Features`]: what a viewer may know of a hand, as fixed-size fields filled without
//! allocation: the input of tensor encodings (the Python package's observation tensor).

use crate::action::Contract;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::vocab::{CardPlaces, Phase};
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
    pub visible: [CardSet; 4],
    /// The current trick's card of each absolute seat.
    pub trick: [Option<Card>; 4],
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
    /// The soloist.
    pub soloist: Option<Seat>,
    /// Who decides.
    pub decider: Option<Seat>,
    /// Whose turn it is.
    pub actor: Option<Seat>,
    /// The dealer.
    pub dealer: Seat,
    /// The idle dealer.
    pub idle: Option<Seat>,
    /// Cards held per absolute seat.
    pub hand_sizes: [u8; 4],
    /// Completed tricks.
    pub tricks_done: u8,
    /// Tricks won per side: `[soloist, defenders]` in a game with a soloist, else `[the
    /// viewer's side, the other side]`.
    pub side_tricks: [u32; 2],
    /// Cards left in the stock.
    pub stock_left: u8,
}

impl Features {
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
            visible: [CardSet::EMPTY; 4],
            trick: [None; 4],
            played: CardSet::EMPTY,
            called: None,
            phase: Phase::Auction,
            contract: None,
            highest: None,
            soloist: None,
            decider: None,
            actor: None,
            dealer: Seat::ALL[0],
            idle: None,
            hand_sizes: [0; 4],
            tricks_done: 0,
            side_tricks: [0; 2],
            stock_left: 0,
        }
    }
}
