//! What every game's observation holds besides the game's own facts (its auction, contract,
//! partners), declared and filled once by [`observation!`], so that each game's observation
//! names and fills only what is its own; and [`EventFacts`], how a game's events read as the
//! history an encoding reads.

use crate::trick::CardEvents;

use super::features::HistoryFact;
use super::vocab::Viewer;

/// An event as the history an encoding reads: what each game's events say of the hand in the
/// game-neutral vocabulary of [`HistoryFact`].
pub trait EventFacts {
    /// The step of history this event is, or `None` when an encoding does not read it.
    fn fact(&self) -> Option<HistoryFact>;
}

/// The history step of a card event every game shares (a play, a trick won); `None` for a
/// deal and for the game's own events.
pub(crate) fn card_fact<E: CardEvents>(event: &E) -> Option<HistoryFact> {
    if let Some((seat, card)) = event.play() {
        return Some(HistoryFact::Played(seat, card));
    }
    event
        .trick_completed()
        .map(|number| HistoryFact::TrickWon(u32::from(number)))
}

/// `event` as `viewer` may see it where every event is public but a seat's own deal: the
/// visibility of the games without a monte or a dummy.
pub(crate) fn public_but_deals<E: CardEvents>(event: &E, viewer: Viewer) -> Option<E> {
    match event.dealt_to() {
        Some(seat) if viewer != Viewer::Seat(seat) => None,
        _ => Some(event.clone()),
    }
}

/// Declares a game module's `Observation`: the fields every game has (viewer, options, hand
/// number, dealer, totals, earlier outcomes, actor, the viewer's cards, hand sizes, the trick,
/// tricks done, events, legal actions, outcome), then the game's own. The four types in
/// parentheses are the game's options, event, hand outcome and match totals.
///
/// It also writes `Observation::assemble`, which fills the shared fields from a hand and takes
/// the game's own as an `OwnFields` value of the same names; `played`; and [`View`].
///
/// [`View`]: crate::game::View
macro_rules! observation {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($o:ty, $e:ty, $r:ty, $t:ty) {
            $( $(#[$fmeta:meta])* pub $f:ident : $ft:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name {
            /// Whose view this is.
            pub viewer: $crate::game::Viewer,
            /// The rules in force.
            pub options: $o,
            /// Hand number in the match, 0-based (every deal counts, a void one too).
            pub hand_number: u32,
            /// The dealer of this hand.
            pub dealer: $crate::seat::Seat,
            /// Match totals so far, in the game's unit (per seat, or per side); this hand's
            /// award is included once it is scored.
            pub totals: $t,
            /// Outcomes of the match's earlier hands (public; where a void deal has no
            /// outcome, the scored hands').
            pub previous: Vec<$r>,
            /// Whose decision it is (possibly a dummy's seat, where the game has one).
            pub actor: Option<$crate::seat::Seat>,
            /// The viewer's own cards now (empty for a spectator and an idle dealer).
            pub hand: $crate::cardset::CardSet,
            /// How many cards each seat holds now (public).
            pub hand_sizes: $crate::seat::PerSeat<u8>,
            /// The trick in progress, in play order.
            pub trick: Vec<($crate::seat::Seat, $crate::card::Card)>,
            /// Completed tricks.
            pub tricks_done: u8,
            /// Everything that happened this hand, as the viewer may see it.
            pub events: Vec<$e>,
            /// The viewer's legal actions when it must decide, else empty.
            pub legal_actions: Vec<$crate::action::Action>,
            /// The hand's outcome once over.
            pub outcome: Option<$r>,
            $( $(#[$fmeta])* pub $f: $ft, )*
        }

        /// The game's own fields of the observation, for `assemble`.
        struct OwnFields {
            $( $f: $ft, )*
        }

        impl $name {
            /// The view of `viewer` of `hand`: what every game shows alike read from the hand,
            /// the trick as the game seats it, the hand's outcome, and the game's own fields.
            /// The match's context (hand number, totals, earlier outcomes) starts empty: the
            /// match fills it in.
            fn assemble<H>(
                hand: &H,
                viewer: $crate::game::Viewer,
                trick: Vec<($crate::seat::Seat, $crate::card::Card)>,
                outcome: Option<$r>,
                own: OwnFields,
            ) -> $name
            where
                H: $crate::game::HandRules<Options = $o, Event = $e>,
            {
                use $crate::game::{GameOptions, HandRules};
                let players = hand.options().players();
                $name {
                    viewer,
                    options: *hand.options(),
                    hand_number: 0,
                    dealer: hand.dealer(),
                    totals: <$t>::default(),
                    previous: Vec::new(),
                    actor: HandRules::actor(hand),
                    hand: viewer
                        .seat()
                        .map_or($crate::cardset::CardSet::EMPTY, |s| hand.hand_of(s)),
                    hand_sizes: $crate::seat::PerSeat::from_fn(players, |s| {
                        hand.hand_of(s).len() as u8
                    }),
                    trick,
                    tricks_done: hand.tricks_done(),
                    events: hand.events_seen_by(viewer),
                    legal_actions: hand.legal_actions_of(viewer),
                    outcome,
                    $( $f: own.$f, )*
                }
            }

            /// Every card played to a trick so far this hand (public).
            pub fn played(&self) -> $crate::cardset::CardSet {
                $crate::trick::cards_played(&self.events)
            }
        }

        impl $crate::game::View for $name {
            fn legal_actions(&self) -> &[$crate::action::Action] {
                &self.legal_actions
            }
            fn history(&self, visit: &mut dyn FnMut($crate::game::HistoryFact)) {
                use $crate::game::EventFacts;
                self.events.iter().filter_map(|e| e.fact()).for_each(visit);
            }
        }
    };
}
pub(crate) use observation;
