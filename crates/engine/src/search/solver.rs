//! [`Solver`]: the exact value of one world's remaining play, by alpha-beta search with a
//! transposition table and the table's best move tried first.
//!
//! Sides are known in a world, so the search is two-sided: seats on the root seat's side
//! maximise the hand's [`Searchable::value`] for that side, the others minimise it. The table
//! keeps bounds (a value found inside the window is exact; one at or past an edge bounds the
//! true value), so later searches of the same position reuse it whatever their window.

use std::collections::HashMap;

use crate::action::Action;
use crate::seat::Seat;

use super::Searchable;

/// What the table knows of a position: bounds on its value and the move that did best.
#[derive(Debug, Clone, Copy)]
struct Entry {
    lower: i32,
    upper: i32,
    best: u8,
}

/// An alpha-beta solver; keep one per world (its table is valid for one world and root side).
#[derive(Debug, Default)]
pub struct Solver {
    table: HashMap<u64, Entry>,
    nodes: u64,
    /// When set, the search gives up at this instant (checked every 1,024 positions).
    deadline: Option<std::time::Instant>,
    aborted: bool,
}

impl Solver {
    /// A solver with an empty table.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Positions searched so far (for speed figures).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the table (before a search in another world or for another side).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Gives up searching at `deadline`: values found after it are meaningless, and
    /// [`Solver::aborted`] says so.
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    /// Whether a search ran past the deadline (its values are not to be used).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// The exact value of `hand` for `seat`'s side, both sides playing perfectly with every
    /// card seen.
    pub fn solve<H: Searchable>(&mut self, hand: &H, seat: Seat) -> i32 {
        let side = hand.side(seat);
        self.search(hand, seat, side, i32::MIN + 1, i32::MAX - 1)
    }

    /// The exact value of each legal action of `hand` for `seat`'s side, in legal order.
    pub fn solve_actions<H: Searchable>(&mut self, hand: &H, seat: Seat) -> Vec<(Action, i32)> {
        let side = hand.side(seat);
        (0..hand.num_legal_actions())
            .filter_map(|i| hand.legal_action(i))
            .map(|a| {
                let mut child = hand.clone();
                child.apply_unchecked(a);
                (
                    a,
                    self.search(&child, seat, side, i32::MIN + 1, i32::MAX - 1),
                )
            })
            .collect()
    }

    fn search<H: Searchable>(
        &mut self,
        hand: &H,
        seat: Seat,
        side: u8,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        if hand.is_over() {
            return hand.value(seat);
        }
        if self.aborted {
            return 0;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024)
            && let Some(d) = self.deadline
            && std::time::Instant::now() >= d
        {
            self.aborted = true;
            return 0;
        }
        let n = hand.num_legal_actions();
        let maximise = hand.to_move().is_some_and(|m| hand.side(m) == side);
        if n == 1 {
            // A forced move: no choice to remember.
            let mut child = hand.clone();
            if let Some(a) = hand.legal_action(0) {
                child.apply_unchecked(a);
            }
            return self.search(&child, seat, side, alpha, beta);
        }
        let key = hand.key();
        let mut first = 0usize;
        if let Some(e) = self.table.get(&key) {
            if e.lower >= beta {
                return e.lower;
            }
            if e.upper <= alpha {
                return e.upper;
            }
            if e.lower == e.upper {
                return e.lower;
            }
            alpha = alpha.max(e.lower);
            beta = beta.min(e.upper);
            first = usize::from(e.best);
        }
        let (a0, b0) = (alpha, beta);
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        let mut best_i = first;
        let order = std::iter::once(first).chain((0..n).filter(|&i| i != first));
        for i in order {
            let Some(a) = hand.legal_action(i) else {
                continue;
            };
            let mut child = hand.clone();
            child.apply_unchecked(a);
            let v = self.search(&child, seat, side, alpha, beta);
            if maximise {
                if v > best {
                    best = v;
                    best_i = i;
                }
                alpha = alpha.max(v);
            } else {
                if v < best {
                    best = v;
                    best_i = i;
                }
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let (lower, upper) = if best <= a0 {
            (i32::MIN, best)
        } else if best >= b0 {
            (best, i32::MAX)
        } else {
            (best, best)
        };
        let e = self.table.entry(key).or_insert(Entry {
            lower: i32::MIN,
            upper: i32::MAX,
            best: 0,
        });
        e.lower = e.lower.max(lower);
        e.upper = e.upper.min(upper);
        e.best = best_i as u8;
        best
    }
}
