//! [`SeatClock`]: a seat's time bank and timeouts; the table measures every decision with the
//! server's monotonic clock.

use std::time::Duration;

/// One seat's clock state.
#[derive(Debug, Clone)]
pub struct SeatClock {
    bank_ms: u32,
    /// Decisions of this seat that timed out.
    pub timeouts: u32,
}

impl SeatClock {
    /// A clock with a full bank.
    pub fn new(bank_ms: u32) -> SeatClock {
        SeatClock {
            bank_ms,
            timeouts: 0,
        }
    }

    /// Milliseconds left in the bank.
    pub fn bank_ms(&self) -> u32 {
        self.bank_ms
    }

    /// Time allowed for the next decision: the per-move time plus what is left in the bank.
    pub fn limit(&self, move_ms: u32) -> Duration {
        Duration::from_millis(u64::from(move_ms) + u64::from(self.bank_ms))
    }

    /// Charges a decision that took `ms`: time beyond the per-move allowance comes from the bank.
    pub fn spend(&mut self, ms: u32, move_ms: u32) {
        self.bank_ms = self.bank_ms.saturating_sub(ms.saturating_sub(move_ms));
    }

    /// The clock ran out: the bank is spent.
    pub fn timed_out(&mut self) {
        self.bank_ms = 0;
        self.timeouts += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_beyond_the_move_allowance_comes_from_the_bank() {
        let mut c = SeatClock::new(1000);
        assert_eq!(c.limit(500), Duration::from_millis(1500));
        c.spend(400, 500);
        assert_eq!(c.bank_ms(), 1000);
        c.spend(800, 500);
        assert_eq!(c.bank_ms(), 700);
        c.spend(5000, 500);
        assert_eq!(c.bank_ms(), 0);
        c.timed_out();
        assert_eq!((c.bank_ms(), c.timeouts), (0, 1));
    }
}
