//! How a table's deals are made ([`DealSpec`]): the creator's seed, or committed deals from a
//! server secret that nobody sees before the match is over.

use crate::error::ServiceError;

use super::session;

/// How a table's deals are made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DealSpec {
    /// The creator's seed (simulation): reproducible, not committed. The table's open seats
    /// are the creator's own ([`TableSpec::creator_key`](super::TableSpec::creator_key)).
    Seeded(u64),
    /// Committed deals (`calabresella_engine::fair`): a server secret, published as its hash
    /// at creation and revealed in the record once the match is over.
    Committed {
        /// The secret.
        secret: Secret,
        /// The derivation's context when it is not the table's id (the deal label a
        /// duplicate tournament gives every seating of one deal).
        context: Option<String>,
        /// Whether the players' contributions count (not where every seating of a deal must
        /// get the same cards).
        contributions: bool,
        /// The tournament whose secret this table's derives from, if any.
        origin: Option<Origin>,
    },
}

/// A tournament table's place in the tournament's committed deals, quoted in its record so
/// that the tournament's records can be checked together once its secret is revealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The tournament's id.
    pub tournament: String,
    /// The match's deal label (every seating of one duplicate deal shares it).
    pub label: u64,
    /// The tournament's commitment in hex.
    pub commitment: String,
}

impl Origin {
    /// As the record's `meta.deals.tournament` (the label as a string: JavaScript numbers
    /// lose 64-bit ones).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "id": self.tournament,
            "label": self.label.to_string(),
            "commitment": self.commitment,
        })
    }
}

impl DealSpec {
    /// Fresh committed deals: a secret from the operating system.
    pub fn fresh() -> Result<DealSpec, ServiceError> {
        Ok(DealSpec::Committed {
            secret: Secret(session::os_random::<32>()?),
            context: None,
            contributions: true,
            origin: None,
        })
    }

    /// The published commitment in hex (empty when seeded).
    pub fn commitment(&self) -> String {
        match self {
            DealSpec::Seeded(_) => String::new(),
            DealSpec::Committed { secret, .. } => {
                calabresella_engine::fair::hex(&calabresella_engine::fair::commitment(&secret.0))
            }
        }
    }

    /// The scheme's name on the wire.
    pub fn scheme(&self) -> &'static str {
        match self {
            DealSpec::Seeded(_) => calabresella_engine::fair::SEEDED,
            DealSpec::Committed { .. } => calabresella_engine::fair::SCHEME,
        }
    }
}

/// A 256-bit secret whose `Debug` shows nothing, so no log line can carry it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub [u8; 32]);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}
