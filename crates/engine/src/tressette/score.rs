//! Scoring a Tressette hand (T-D1).

/// The result of a hand, per partnership (seats 0+2 and 1+3) or per player in Due.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Card points after truncation (last trick included).
    pub card_points: [u32; 2],
    /// Accusi points.
    pub accusi: [u32; 2],
    /// Total points of the hand: card points + accusi. This is what the hand awards.
    pub points: [u32; 2],
    /// Tricks won.
    pub tricks: [u32; 2],
    /// Which side won the last trick.
    pub last_trick: usize,
}
