//! The card-play heuristic every game's bot shares: lead winners, take points cheaply, give
//! points to a partner who is winning, throw away what is worth least.

use crate::action::Action;
use crate::card::Card;
use crate::cardset::CardSet;
use crate::seat::Seat;

use super::heuristic::play_card;

/// What the heuristic needs to know about the table, in any game.
pub(crate) struct Table<'a> {
    /// The player's own cards.
    pub(crate) hand: CardSet,
    /// The cards it may play now.
    pub(crate) playable: CardSet,
    /// The trick so far, in play order.
    pub(crate) trick: &'a [(Seat, Card)],
    /// The partner in this hand, if any.
    pub(crate) partner: Option<Seat>,
    /// Cards whose place is known to be out of the opponents' hands (played, own, in the trick).
    pub(crate) seen: CardSet,
    /// Cards in a complete trick.
    pub(crate) trick_size: usize,
}

impl<'a> Table<'a> {
    /// The table as a seat holding `hand` sees it: the cards its `legal` actions play, the
    /// `trick` so far, its `partner`, the cards `gone` before this trick, and `trick_size`.
    pub(crate) fn seen_by(
        hand: CardSet,
        legal: &[Action],
        trick: &'a [(Seat, Card)],
        (partner, gone): (Option<Seat>, CardSet),
        trick_size: usize,
    ) -> Table<'a> {
        let trick_cards: CardSet = trick.iter().map(|(_, c)| *c).collect();
        Table {
            hand,
            playable: legal.iter().filter_map(play_card).collect(),
            trick,
            partner,
            seen: gone | hand | trick_cards,
            trick_size,
        }
    }
}

fn pick(set: CardSet, key: impl Fn(Card) -> i32) -> Option<Action> {
    set.iter()
        .max_by_key(|&c| key(c))
        .map(|c| Action::Play(c, None))
}

/// The card to play.
pub(crate) fn choose(t: &Table<'_>) -> Option<Action> {
    let hand = t.hand;
    let playable = t.playable;
    // A card is a sure winner when no higher card of its suit is still out.
    let is_master = |c: Card| {
        (CardSet::suit(c.suit()) - t.seen)
            .iter()
            .all(|o| o.index() < c.index())
    };
    let cheap = |c: Card| -(i32::from(c.thirds()) * 10 + i32::from(c.rank().power()));
    let suit_len = |c: Card| hand.of_suit(c.suit()).len() as i32;
    let Some(&(first_seat, first_card)) = t.trick.first() else {
        let masters: CardSet = playable.iter().filter(|&c| is_master(c)).collect();
        if !masters.is_empty() {
            return pick(masters, |c| i32::from(c.thirds()) * 3 + suit_len(c));
        }
        return pick(playable, |c| cheap(c) + 3 * suit_len(c));
    };
    let led = first_card.suit();
    let (win_seat, win_card) =
        t.trick.iter().copied().fold(
            (first_seat, first_card),
            |w, x| if x.1.beats(w.1) { x } else { w },
        );
    let partner_winning = t.partner == Some(win_seat);
    let last = t.trick.len() + 1 == t.trick_size;
    let trick_points: i32 = t.trick.iter().map(|(_, c)| i32::from(c.thirds())).sum();
    if !hand.of_suit(led).is_empty() {
        let winners: CardSet = playable.iter().filter(|c| c.beats(win_card)).collect();
        if partner_winning && (last || is_master(win_card)) {
            return pick(playable, |c| {
                i32::from(c.thirds()) * 10 - i32::from(c.rank().power())
            });
        }
        if !winners.is_empty() && !partner_winning {
            if last {
                return pick(winners, |c| {
                    i32::from(c.thirds()) * 10 - i32::from(c.rank().power())
                });
            }
            let sure: CardSet = winners.iter().filter(|&c| is_master(c)).collect();
            if !sure.is_empty() {
                return pick(sure, |c| -i32::from(c.rank().power()));
            }
            if trick_points >= 3 {
                return pick(winners, |c| i32::from(c.rank().power()));
            }
        }
        return pick(playable, cheap);
    }
    if partner_winning {
        return pick(playable, |c| {
            i32::from(c.thirds()) * 10 - if is_master(c) { 50 } else { 0 }
        });
    }
    pick(playable, |c| {
        cheap(c) - if is_master(c) { 50 } else { 0 } + 4 - suit_len(c)
    })
}
