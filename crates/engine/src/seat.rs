//! [`Seat`] and the per-seat container [`PerSeat`].

use std::fmt;
use std::ops::{Index, IndexMut};

/// A seat at the table, numbered 0.. in play order: the next player is `seat + 1 mod n`
/// (play goes counter-clockwise, so the next seat sits on the right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

impl Seat {
    /// The most seats any game here uses (five in Tressette con la Chiamata and Briscola
    /// Chiamata).
    pub const MAX: usize = 5;
    /// Every possible seat, 0 to 4.
    pub const ALL: [Seat; Seat::MAX] = [Seat(0), Seat(1), Seat(2), Seat(3), Seat(4)];

    /// Seat `i`, or `None` when `i >= Seat::MAX`.
    pub const fn new(i: u8) -> Option<Seat> {
        if (i as usize) < Seat::MAX {
            Some(Seat(i))
        } else {
            None
        }
    }

    /// The seat's number.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The next seat in play order at a table of `n` seats.
    #[inline]
    pub const fn next(self, n: u8) -> Seat {
        // A compare, not `% n`: a division costs tens of cycles on every card played.
        if self.0 + 1 >= n {
            Seat(0)
        } else {
            Seat(self.0 + 1)
        }
    }

    /// The first `n` seats in order.
    pub fn first_n(n: u8) -> impl Iterator<Item = Seat> {
        (0..n.min(Seat::MAX as u8)).map(Seat)
    }

    /// The `n` seats of a table of `n` in turn order, starting with `self`.
    pub fn round(self, n: u8) -> impl Iterator<Item = Seat> {
        std::iter::successors(Some(self), move |s| Some(s.next(n))).take(usize::from(n))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Slots in a [`PerSeat`] (and a trick): [`Seat::MAX`] rounded up to a power of two, so an
/// index masked with `SLOTS - 1` needs no bounds check (the slots past the last seat stay at
/// their default). A clamp with `min` measured 3-6% slower on every game's rollout.
pub const SLOTS: usize = Seat::MAX.next_power_of_two();

/// One value per seat (up to [`Seat::MAX`], in [`SLOTS`] slots), indexed by [`Seat`] rather
/// than bare integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PerSeat<T>(pub [T; SLOTS]);

impl<T: Copy> PerSeat<T> {
    /// The same value for every seat.
    pub const fn splat(v: T) -> Self {
        PerSeat([v; SLOTS])
    }

    /// `f(seat)` for the first `n` seats, the default for the others.
    pub fn from_fn(n: u8, f: impl Fn(Seat) -> T) -> Self
    where
        T: Default,
    {
        let mut out = PerSeat([T::default(); SLOTS]);
        for s in Seat::first_n(n) {
            out[s] = f(s);
        }
        out
    }

    /// The values of the first `n` seats.
    pub fn first_n(&self, n: u8) -> &[T] {
        &self.0[..n as usize]
    }
}

impl<T> Index<Seat> for PerSeat<T> {
    type Output = T;
    #[inline]
    fn index(&self, s: Seat) -> &T {
        // A Seat is always below Seat::MAX; the mask lets the compiler drop the bounds check.
        &self.0[s.index() & (SLOTS - 1)]
    }
}

impl<T> IndexMut<Seat> for PerSeat<T> {
    #[inline]
    fn index_mut(&mut self, s: Seat) -> &mut T {
        &mut self.0[s.index() & (SLOTS - 1)]
    }
}
