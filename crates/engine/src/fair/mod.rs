//! Deals nobody can choose or predict, and anyone can check afterwards: the committed deal
//! scheme `calabresella-deal/1` (docs/RECORDS.md, "Committed deals", is its specification).
//!
//! A table draws a 256-bit `secret` and publishes `commitment = SHA-256(tag || secret)`, where
//! `tag` is the ASCII bytes of [`SCHEME`]. Every player may add a contribution of 0 to 64 bytes
//! before the first deal. Hand `k`'s deal is the engine's seeded deal of the game driven by
//! [`GameRng::from_key`] with the key
//!
//! ```text
//! HMAC-SHA256(key = secret,
//!             tag || 0x00 || u32(len context) || context
//!                 || u32(seats) || for each seat in order: u32(len c) || c
//!                 || u64(k))
//! ```
//!
//! (integers big-endian; `context` is the table's id, or a tournament's deal label). Unless the
//! table names its first dealer, the first draw of hand 0's generator picks him
//! (`below(seats)`), as the seeded scheme does; the draw is made either way, so hand 0's deal
//! does not depend on whether the dealer was named.
//!
//! The server keeps the secret until the match is over, then writes it into the record with
//! the contributions; [`verify`] re-derives every hand from a record. A seed ([`Dealing::Seed`])
//! stays the fast reproducible path for simulation; it is marked as such and proves nothing.
//!
//! ```
//! use calabresella_engine::fair::{DealKeys, SCHEME};
//! use calabresella_engine::game::Rules;
//!
//! let keys = DealKeys::new([7; 32], "t-1", vec![b"alice".to_vec(), Vec::new(), Vec::new()]).unwrap();
//! let rules = Rules::defaults("calabresella").unwrap();
//! let m = keys.first_match(rules, None).unwrap();
//! assert_eq!(m.hands_dealt(), 1);
//! assert_eq!(keys.commitment().len(), 32);
//! assert_eq!(SCHEME, "calabresella-deal/1");
//! ```

use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::deals::DealRefused;
use crate::game::{AnyMatch, DealtCards, HandError, Rules};
use crate::record::Record;
use crate::rng::GameRng;
use crate::seat::Seat;

mod tournament;
pub use tournament::{
    TournamentLink, TournamentVerified, reveal_table_secret, tournament_link, verify_tournament,
};

/// The scheme's name and version; its bytes are the tag of the commitment and the derivation.
pub const SCHEME: &str = "calabresella-deal/1";

/// The `scheme` of a record dealt from a creator's seed.
pub const SEEDED: &str = "seeded";

/// The most bytes one player may contribute.
pub const MAX_CONTRIBUTION: usize = 64;

/// The longest context (a table id or a deal label), in bytes.
pub const MAX_CONTEXT: usize = 256;

/// Why keys or a record's scheme are not acceptable.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FairError {
    /// A contribution is longer than [`MAX_CONTRIBUTION`].
    #[error("seat {seat}'s contribution holds {len} bytes, at most {MAX_CONTRIBUTION}")]
    Contribution {
        /// The seat, 0-based.
        seat: usize,
        /// Its length.
        len: usize,
    },
    /// The context is longer than [`MAX_CONTEXT`].
    #[error("the context holds {0} bytes, at most {MAX_CONTEXT}")]
    Context(usize),
}

/// SHA-256(tag || secret): what a table publishes before its first deal.
pub fn commitment(secret: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(SCHEME.as_bytes());
    h.update(secret);
    h.finalize().into()
}

/// HMAC-SHA256(secret, tag || 0x00 || label || extra): the tournament derivations.
fn derive(secret: &[u8; 32], label: &[u8], extra: &[u8]) -> [u8; 32] {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(secret)
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of every length"));
    mac.update(SCHEME.as_bytes());
    mac.update(&[0]);
    mac.update(label);
    mac.update(extra);
    mac.finalize().into_bytes().into()
}

/// A tournament's schedule seed (its draw and its deal labels): the first 8 bytes,
/// little-endian, of HMAC-SHA256(secret, tag || 0x00 || "schedule").
pub fn tournament_schedule_seed(secret: &[u8; 32]) -> u64 {
    let d = derive(secret, b"schedule", &[]);
    u64::from_le_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

/// The secret of a tournament match's table: HMAC-SHA256(secret, tag || 0x00 || "table" ||
/// u64(label)), where `label` is the match's deal label (the same for every seating of one
/// duplicate deal). Revealing it reveals nothing of the tournament's secret.
pub fn tournament_table_secret(secret: &[u8; 32], label: u64) -> [u8; 32] {
    derive(secret, b"table", &label.to_be_bytes())
}

/// Everything a committed table's deals come from.
#[derive(Clone, PartialEq, Eq)]
pub struct DealKeys {
    secret: [u8; 32],
    context: String,
    contributions: Vec<Vec<u8>>,
}

impl std::fmt::Debug for DealKeys {
    // The secret never reaches a log line through a `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DealKeys")
            .field("commitment", &hex(&self.commitment()))
            .field("context", &self.context)
            .field("contributions", &self.contributions.len())
            .finish_non_exhaustive()
    }
}

impl DealKeys {
    /// Keys from the table's secret, its context and one contribution per seat in seat order
    /// (empty for a seat that gave none).
    pub fn new(
        secret: [u8; 32],
        context: impl Into<String>,
        contributions: Vec<Vec<u8>>,
    ) -> Result<DealKeys, FairError> {
        let context = context.into();
        if context.len() > MAX_CONTEXT {
            return Err(FairError::Context(context.len()));
        }
        if let Some((seat, c)) = contributions
            .iter()
            .enumerate()
            .find(|(_, c)| c.len() > MAX_CONTRIBUTION)
        {
            return Err(FairError::Contribution { seat, len: c.len() });
        }
        Ok(DealKeys {
            secret,
            context,
            contributions,
        })
    }

    /// The secret (to reveal once the match is over, never before).
    pub fn secret(&self) -> &[u8; 32] {
        &self.secret
    }

    /// The context: the table's id or a tournament's deal label.
    pub fn context(&self) -> &str {
        &self.context
    }

    /// The contributions in seat order.
    pub fn contributions(&self) -> &[Vec<u8>] {
        &self.contributions
    }

    /// The published commitment.
    pub fn commitment(&self) -> [u8; 32] {
        commitment(&self.secret)
    }

    /// Hand `hand`'s 256-bit generator key (the module docs give the message).
    pub fn hand_key(&self, hand: u64) -> [u8; 32] {
        // HMAC accepts a key of any length, so `new_from_slice` cannot fail on 32 bytes.
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.secret)
            .unwrap_or_else(|_| unreachable!("HMAC takes keys of every length"));
        mac.update(SCHEME.as_bytes());
        mac.update(&[0]);
        mac.update(&(self.context.len() as u32).to_be_bytes());
        mac.update(self.context.as_bytes());
        mac.update(&(self.contributions.len() as u32).to_be_bytes());
        for c in &self.contributions {
            mac.update(&(c.len() as u32).to_be_bytes());
            mac.update(c);
        }
        mac.update(&hand.to_be_bytes());
        mac.finalize().into_bytes().into()
    }

    /// Hand `hand`'s generator.
    pub fn rng(&self, hand: u64) -> GameRng {
        GameRng::from_key(self.hand_key(hand))
    }

    /// The first dealer hand 0's generator draws.
    pub fn drawn_dealer(&self, seats: u8) -> Seat {
        let mut rng = self.rng(0);
        draw_dealer(&mut rng, seats)
    }

    /// A new match of `rules` with hand 0 dealt (the first dealer drawn unless given).
    pub fn first_match(
        &self,
        rules: Rules,
        first_dealer: Option<Seat>,
    ) -> Result<AnyMatch, HandError> {
        let mut rng = self.rng(0);
        let drawn = draw_dealer(&mut rng, rules.seats());
        let dealer = first_dealer.unwrap_or(drawn);
        let mut m = AnyMatch::new(rules, dealer)?;
        m.start_hand_from(dealer, &mut rng).map_err(|e| match e {
            DealRefused::Hand(h) => h,
            _ => HandError::Dealer(dealer),
        })?;
        Ok(m)
    }

    /// Deals the next hand of `m` when one is due (the last hand is over and the match is
    /// not); returns whether it dealt.
    pub fn deal_due(&self, m: &mut AnyMatch) -> Result<bool, DealRefused> {
        let Some(dealer) = m.next_dealer() else {
            return Ok(false);
        };
        let k = m.hands_dealt() as u64;
        m.start_hand_from(dealer, &mut self.rng(k))?;
        Ok(true)
    }

    /// Hand `hand`'s deal by `dealer`.
    pub fn deal(&self, rules: Rules, hand: u64, dealer: Seat) -> Result<DealtCards, HandError> {
        let mut rng = self.rng(hand);
        if hand == 0 {
            // Hand 0's generator gives the first dealer's draw first.
            draw_dealer(&mut rng, rules.seats());
        }
        let mut m = AnyMatch::new(rules, dealer)?;
        m.start_hand_from(dealer, &mut rng)
            .map_err(|_| HandError::Dealer(dealer))?;
        m.dealt(0).ok_or(HandError::Dealer(dealer))
    }

    /// What a finished match's record says of its deals (`meta.deals`).
    pub fn reveal(&self, first_dealer_given: bool) -> Value {
        json!({
            "scheme": SCHEME,
            "commitment": hex(&self.commitment()),
            "secret": hex(&self.secret),
            "context": self.context,
            "contributions": self.contributions.iter().map(|c| hex(c)).collect::<Vec<_>>(),
            "first_dealer": if first_dealer_given { "given" } else { "drawn" },
        })
    }
}

/// The first dealer drawn from a hand's generator, as the seeded scheme draws it.
fn draw_dealer(rng: &mut GameRng, seats: u8) -> Seat {
    Seat::ALL[rng.below(u32::from(seats.clamp(1, Seat::MAX as u8))) as usize]
}

/// How a record's deals were made, as its `meta.deals` (or a legacy `meta.seed`) says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dealing {
    /// The committed scheme, with its secret revealed.
    Committed {
        /// The keys.
        keys: DealKeys,
        /// The published commitment, as the record quotes it.
        commitment: [u8; 32],
        /// Whether the table named its first dealer (else hand 0's generator drew him).
        first_dealer_given: bool,
    },
    /// A creator's seed: reproducible, not committed.
    Seed(u64),
}

/// What [`verify`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// How the deals were made.
    pub dealing: Dealing,
    /// Hands re-derived and found equal.
    pub hands: usize,
}

impl Verified {
    /// One line for a person.
    pub fn summary(&self) -> String {
        match &self.dealing {
            Dealing::Committed { commitment, .. } => format!(
                "deals verified: {} hand{} of {SCHEME}, commitment {}",
                self.hands,
                if self.hands == 1 { "" } else { "s" },
                hex(commitment)
            ),
            Dealing::Seed(seed) => format!(
                "seeded by the creator: reproducible, not committed (seed {seed}, {} hand{} re-derived)",
                self.hands,
                if self.hands == 1 { "" } else { "s" }
            ),
        }
    }
}

/// Why a record's deals do not check out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VerifyError {
    /// The record itself is invalid (an illegal action, a bad deal, ...).
    #[error("invalid record: {0}")]
    Record(String),
    /// The record names no scheme, or a scheme's fields are missing or malformed.
    #[error("{0}")]
    Scheme(String),
    /// The secret does not hash to the commitment.
    #[error("the secret does not match the commitment {commitment}")]
    Commitment {
        /// The commitment as quoted.
        commitment: String,
    },
    /// The first dealer is not the one hand 0's generator draws.
    #[error("first dealer: the record says seat {recorded}, the scheme draws seat {derived}")]
    FirstDealer {
        /// The record's.
        recorded: usize,
        /// The scheme's.
        derived: usize,
    },
    /// A hand's deal is not the derived one.
    #[error("hand {hand}: {what} differs from the derived deal")]
    Deal {
        /// The hand, 0-based.
        hand: usize,
        /// What differs first (`seat 1's cards`, `the monte`, `the stock`).
        what: String,
    },
}

/// Reads how a record's deals were made.
pub fn dealing(record: &Record) -> Result<Dealing, VerifyError> {
    let meta = record.meta.as_ref();
    let deals = meta.and_then(|m| m.get("deals"));
    let scheme_err = |s: &str| VerifyError::Scheme(s.to_owned());
    let Some(d) = deals else {
        // Records written before the committed scheme name only their seed.
        return match meta.and_then(|m| m.get("seed")) {
            Some(s) => seed_of(s).map(Dealing::Seed),
            None => Err(scheme_err(
                "the record names no deal scheme (meta.deals): its deals cannot be verified",
            )),
        };
    };
    match d.get("scheme").and_then(Value::as_str) {
        Some(SEEDED) => {
            let s = d
                .get("seed")
                .ok_or_else(|| scheme_err("meta.deals: a seeded record without its seed"))?;
            seed_of(s).map(Dealing::Seed)
        }
        Some(SCHEME) => {
            let field = |k: &str| {
                d.get(k)
                    .and_then(Value::as_str)
                    .ok_or_else(|| VerifyError::Scheme(format!("meta.deals.{k} is missing")))
            };
            let bytes32 = |k: &str| -> Result<[u8; 32], VerifyError> {
                unhex(field(k)?)
                    .and_then(|b| <[u8; 32]>::try_from(b).ok())
                    .ok_or_else(|| {
                        VerifyError::Scheme(format!("meta.deals.{k} is not 64 hex digits"))
                    })
            };
            let commitment = bytes32("commitment")?;
            let secret = match d.get("secret") {
                Some(Value::String(_)) => bytes32("secret")?,
                _ if d.get("tournament").is_some() => {
                    return Err(scheme_err(
                        "meta.deals.secret is not revealed yet (a tournament's tables reveal \
                         theirs when the tournament is over; `verify --tournament-secret` \
                         derives it then)",
                    ));
                }
                _ => {
                    return Err(scheme_err(
                        "meta.deals.secret is not revealed yet (the match is not over)",
                    ));
                }
            };
            let context = field("context")?;
            let contributions = d
                .get("contributions")
                .and_then(Value::as_array)
                .ok_or_else(|| scheme_err("meta.deals.contributions is missing"))?
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    c.as_str().and_then(unhex).ok_or_else(|| {
                        VerifyError::Scheme(format!(
                            "meta.deals.contributions[{i}] is not hex digits"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            if contributions.len() != usize::from(record.players) {
                return Err(VerifyError::Scheme(format!(
                    "meta.deals.contributions lists {} seats, the record {}",
                    contributions.len(),
                    record.players
                )));
            }
            let first_dealer_given = match d.get("first_dealer").and_then(Value::as_str) {
                Some("given") => true,
                Some("drawn") | None => false,
                Some(other) => {
                    return Err(VerifyError::Scheme(format!(
                        "meta.deals.first_dealer is {other:?}, not \"given\" or \"drawn\""
                    )));
                }
            };
            let keys = DealKeys::new(secret, context, contributions)
                .map_err(|e| VerifyError::Scheme(format!("meta.deals: {e}")))?;
            Ok(Dealing::Committed {
                keys,
                commitment,
                first_dealer_given,
            })
        }
        Some(other) => Err(VerifyError::Scheme(format!(
            "meta.deals.scheme {other:?} is not one this version knows ({SCHEME}, {SEEDED})"
        ))),
        None => Err(scheme_err("meta.deals.scheme is missing")),
    }
}

/// A seed written as a number or, to survive JavaScript, as a string of digits.
fn seed_of(v: &Value) -> Result<u64, VerifyError> {
    v.as_u64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .ok_or_else(|| VerifyError::Scheme(format!("the seed {v} is not a 64-bit number")))
}

/// Checks a record: it replays, its commitment matches its secret, and every hand's deal is
/// the one its scheme derives (a seeded record is re-derived from its seed). The first
/// mismatch is the error.
pub fn verify(record: &Record) -> Result<Verified, VerifyError> {
    let dealing = dealing(record)?;
    if let Dealing::Committed {
        keys, commitment, ..
    } = &dealing
        && keys.commitment() != *commitment
    {
        return Err(VerifyError::Commitment {
            commitment: hex(commitment),
        });
    }
    let (m, _) = crate::record::replay(record).map_err(|e| {
        // A changed card usually breaks the play too; the deal is the place to name.
        if let Dealing::Committed { keys, .. } = &dealing
            && let Some(mismatch) = recorded_mismatch(record, keys)
        {
            return mismatch;
        }
        VerifyError::Record(e.to_string())
    })?;
    let rules = m.rules();
    let hands = m.hands_dealt();
    match &dealing {
        Dealing::Committed {
            keys,
            first_dealer_given,
            ..
        } => {
            let drawn = keys.drawn_dealer(rules.seats());
            if !first_dealer_given && drawn != m.first_dealer() {
                return Err(VerifyError::FirstDealer {
                    recorded: m.first_dealer().index(),
                    derived: drawn.index(),
                });
            }
            for h in 0..hands {
                let dealer = m
                    .dealer(h)
                    .ok_or_else(|| VerifyError::Record(format!("hand {h} has no dealer")))?;
                let derived = keys
                    .deal(rules, h as u64, dealer)
                    .map_err(|e| VerifyError::Record(format!("hand {h}: {e}")))?;
                compare(h, m.dealt(h), &derived, rules.seats())?;
            }
        }
        Dealing::Seed(seed) => {
            let mut s = AnyMatch::seeded(rules, *seed, Some(m.first_dealer()))
                .map_err(|e| VerifyError::Record(e.to_string()))?;
            for h in 0..hands {
                compare(
                    h,
                    m.dealt(h),
                    &s.dealt(h).unwrap_or_else(empty),
                    rules.seats(),
                )?;
                // Play the recorded actions so the seeded match deals the next hand from the
                // generator as the match did.
                for a in m.hand_actions(h) {
                    let seat = s.decider().ok_or_else(|| VerifyError::Deal {
                        hand: h,
                        what: "the play after the deal".into(),
                    })?;
                    s.try_apply_as(seat, a).map_err(|_| VerifyError::Deal {
                        hand: h,
                        what: "the play after the deal".into(),
                    })?;
                }
            }
        }
    }
    Ok(Verified { dealing, hands })
}

/// The first hand whose cards, as the record writes them, are not the derived ones: read
/// straight from the record, for a record that does not replay.
fn recorded_mismatch(record: &Record, keys: &DealKeys) -> Option<VerifyError> {
    let rules = Rules::from_record(&record.game, record.players, &record.options).ok()?;
    for (h, rh) in record.hands.iter().enumerate() {
        let dealer = Seat::new(rh.dealer).filter(|s| s.index() < usize::from(rules.seats()))?;
        let derived = keys.deal(rules, h as u64, dealer).ok()?;
        let cards = |v: &[String]| -> Option<Vec<crate::Card>> {
            v.iter().map(|c| c.parse().ok()).collect()
        };
        let differs = |what: String| Some(VerifyError::Deal { hand: h, what });
        for s in Seat::first_n(rules.seats()) {
            let got: crate::CardSet = cards(rh.deal.hands.get(s.index())?)?.into_iter().collect();
            if got != derived.hands[s] {
                return differs(format!("seat {}'s cards", s.index()));
            }
        }
        if cards(rh.deal.monte.as_deref().unwrap_or_default())? != derived.monte {
            return differs("the monte".into());
        }
        if cards(rh.deal.stock.as_deref().unwrap_or_default())? != derived.stock {
            return differs("the stock".into());
        }
    }
    None
}

fn empty() -> DealtCards {
    DealtCards {
        hands: crate::PerSeat::splat(crate::CardSet::EMPTY),
        monte: Vec::new(),
        stock: Vec::new(),
    }
}

/// The first difference between a recorded and a derived deal.
fn compare(
    hand: usize,
    recorded: Option<DealtCards>,
    derived: &DealtCards,
    seats: u8,
) -> Result<(), VerifyError> {
    let recorded = recorded.unwrap_or_else(empty);
    let differs = |what: String| Err(VerifyError::Deal { hand, what });
    for s in Seat::first_n(seats) {
        if recorded.hands[s] != derived.hands[s] {
            return differs(format!("seat {}'s cards", s.index()));
        }
    }
    if recorded.monte != derived.monte {
        return differs("the monte".into());
    }
    if recorded.stock != derived.stock {
        return differs("the stock".into());
    }
    Ok(())
}

/// Lower-case hex digits of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// The bytes of an even number of hex digits (either case), or `None`.
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.as_bytes()
        .chunks_exact(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16);
            Some((d(p[0])? * 16 + d(p[1])?) as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_odd_or_foreign_digits() {
        let b: Vec<u8> = (0..=255).collect();
        assert_eq!(unhex(&hex(&b)), Some(b));
        assert_eq!(unhex("ABcd"), Some(vec![0xab, 0xcd]));
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
    }

    #[test]
    fn the_commitment_is_sha256_of_the_tag_and_the_secret() {
        // `printf 'calabresella-deal/1' | cat - <(head -c 32 /dev/zero) | sha256sum`
        assert_eq!(
            hex(&commitment(&[0; 32])),
            hex(&Sha256::digest([SCHEME.as_bytes(), &[0u8; 32]].concat()))
        );
    }

    #[test]
    fn every_input_of_the_derivation_changes_the_key() {
        let base = DealKeys::new([1; 32], "t", vec![vec![1], vec![]]).expect("keys");
        let k = base.hand_key(0);
        let others = [
            DealKeys::new([2; 32], "t", vec![vec![1], vec![]]).expect("keys"),
            DealKeys::new([1; 32], "u", vec![vec![1], vec![]]).expect("keys"),
            DealKeys::new([1; 32], "t", vec![vec![2], vec![]]).expect("keys"),
            // The lengths are part of the message: moving a byte between seats changes it.
            DealKeys::new([1; 32], "t", vec![vec![], vec![1]]).expect("keys"),
            DealKeys::new([1; 32], "t", vec![vec![1]]).expect("keys"),
        ];
        for o in &others {
            assert_ne!(o.hand_key(0), k, "{o:?}");
        }
        assert_ne!(base.hand_key(1), k);
        assert_eq!(base.clone().hand_key(0), k);
    }

    #[test]
    fn long_contributions_and_contexts_are_refused() {
        assert_eq!(
            DealKeys::new([0; 32], "t", vec![vec![0; 65]]),
            Err(FairError::Contribution { seat: 0, len: 65 })
        );
        assert!(DealKeys::new([0; 32], "t", vec![vec![0; 64]]).is_ok());
        assert_eq!(
            DealKeys::new([0; 32], "x".repeat(257), vec![]),
            Err(FairError::Context(257))
        );
    }

    #[test]
    fn debug_output_never_shows_the_secret() {
        let keys = DealKeys::new([0xab; 32], "t", vec![]).expect("keys");
        assert!(!format!("{keys:?}").contains(&hex(&[0xab; 32])));
    }
}
