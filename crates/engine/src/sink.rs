//! Where a game sends its events while it applies actions. The fast path uses [`NoEvents`],
//! whose `ACTIVE = false` lets the compiler drop event construction entirely; replaying for an
//! observation collects them in a `Vec`.

/// A destination for events of type `E` ([`crate::game::HandRules::apply`] sends them here).
pub trait EventSink<E> {
    /// Whether events are wanted at all (checked before building one).
    const ACTIVE: bool;
    /// Takes one event.
    fn push(&mut self, e: E);
}

/// Discards events (the fast path).
pub struct NoEvents;

impl<E> EventSink<E> for NoEvents {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn push(&mut self, _: E) {}
}

impl<E> EventSink<E> for Vec<E> {
    const ACTIVE: bool = true;
    fn push(&mut self, e: E) {
        Vec::push(self, e);
    }
}
