//! A committed tournament's records, checked together: once the tournament's secret is
//! revealed, every table's secret must be the one it derives for the table's deal label, and
//! in duplicate every seating of one label must have been dealt the same cards.

use serde_json::Value;

use super::{Dealing, VerifyError, commitment, hex, tournament_table_secret, unhex, verify};
use crate::record::Record;

/// A table's place in a committed tournament, as its record's `meta.deals.tournament` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentLink {
    /// The tournament's id.
    pub id: String,
    /// The table's deal label (shared by every seating of one duplicate deal).
    pub label: u64,
    /// The tournament's published commitment.
    pub commitment: [u8; 32],
}

/// Reads `meta.deals.tournament`, if the record has one.
pub fn tournament_link(record: &Record) -> Result<Option<TournamentLink>, VerifyError> {
    let Some(t) = record
        .meta
        .as_ref()
        .and_then(|m| m.get("deals"))
        .and_then(|d| d.get("tournament"))
    else {
        return Ok(None);
    };
    let bad = |what: &str| VerifyError::Scheme(format!("meta.deals.tournament.{what}"));
    let id = t
        .get("id")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("id is missing"))?;
    let label = t
        .get("label")
        .and_then(|l| {
            l.as_u64()
                .or_else(|| l.as_str().and_then(|s| s.parse().ok()))
        })
        .ok_or_else(|| bad("label is not a 64-bit number"))?;
    let commitment = t
        .get("commitment")
        .and_then(Value::as_str)
        .and_then(unhex)
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .ok_or_else(|| bad("commitment is not 64 hex digits"))?;
    Ok(Some(TournamentLink {
        id: id.to_owned(),
        label,
        commitment,
    }))
}

/// Fills in the table secret of a tournament's record from the tournament's revealed
/// `secret`, where the record withholds it (a tournament's tables reveal their secrets only
/// when the tournament ends). Returns whether it filled one in. A record that names no
/// tournament, or already shows a secret, is left as it is: [`verify_tournament`] still
/// checks that a shown secret is the derived one, and [`verify`] that it hashes to the
/// table's commitment.
pub fn reveal_table_secret(record: &mut Record, secret: &[u8; 32]) -> bool {
    let Ok(Some(link)) = tournament_link(record) else {
        return false;
    };
    let Some(deals) = record
        .meta
        .as_mut()
        .and_then(|m| m.get_mut("deals"))
        .and_then(Value::as_object_mut)
    else {
        return false;
    };
    if deals.get("secret").is_some_and(Value::is_string) {
        return false;
    }
    let table = tournament_table_secret(secret, link.label);
    deals.insert("secret".into(), Value::String(hex(&table)));
    true
}

/// What [`verify_tournament`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentVerified {
    /// The tournament's id.
    pub id: String,
    /// Records checked.
    pub records: usize,
    /// Distinct deal labels among them.
    pub labels: usize,
    /// Duplicate labels whose seatings were compared with each other.
    pub shared: usize,
}

impl TournamentVerified {
    /// One line for a person.
    pub fn summary(&self) -> String {
        format!(
            "tournament {} verified: {} record{}, {} deal label{}, every table secret derived \
             from the committed tournament secret{}",
            self.id,
            self.records,
            if self.records == 1 { "" } else { "s" },
            self.labels,
            if self.labels == 1 { "" } else { "s" },
            if self.shared > 0 {
                format!(
                    "; {} duplicate deals identical at every seating",
                    self.shared
                )
            } else {
                String::new()
            }
        )
    }
}

/// Checks the records of one committed tournament together, given its revealed `secret`:
/// each record verifies on its own ([`verify`]); each names the tournament, and the secret
/// hashes to the tournament commitment it quotes; each table's secret is
/// [`tournament_table_secret`] of its label; a duplicate seating's context is
/// `<tournament>/deal/<label>` with no contributions, and every seating of a label was dealt
/// the same cards as the first. The error carries the index of the first record that fails.
pub fn verify_tournament(
    secret: &[u8; 32],
    records: &[Record],
) -> Result<TournamentVerified, (usize, VerifyError)> {
    let committed = commitment(secret);
    let mut id: Option<String> = None;
    // Per label: the first seating's record index and deals, for the duplicate comparison.
    let mut first_of: std::collections::BTreeMap<u64, usize> = Default::default();
    let mut shared = std::collections::BTreeSet::new();
    for (i, record) in records.iter().enumerate() {
        let fail = |e: VerifyError| (i, e);
        let scheme = |s: String| (i, VerifyError::Scheme(s));
        let verified = verify(record).map_err(fail)?;
        let link = tournament_link(record).map_err(fail)?.ok_or_else(|| {
            scheme("the record names no tournament (meta.deals.tournament)".into())
        })?;
        match &id {
            None => id = Some(link.id.clone()),
            Some(t) if *t != link.id => {
                return Err(scheme(format!(
                    "the record is of tournament {}, the others of {t}",
                    link.id
                )));
            }
            Some(_) => {}
        }
        if link.commitment != committed {
            return Err(scheme(format!(
                "the tournament secret does not match the commitment {} the record quotes",
                hex(&link.commitment)
            )));
        }
        let Dealing::Committed { keys, .. } = &verified.dealing else {
            return Err(scheme("a committed tournament's table is seeded".into()));
        };
        if *keys.secret() != tournament_table_secret(secret, link.label) {
            return Err(scheme(format!(
                "the table's secret is not the one the tournament secret derives for label {}",
                link.label
            )));
        }
        let duplicate = format!("{}/deal/{}", link.id, link.label);
        if keys.context() == duplicate {
            if keys.contributions().iter().any(|c| !c.is_empty()) {
                return Err(scheme(
                    "a duplicate seating carries contributions (its deals would differ)".into(),
                ));
            }
            match first_of.get(&link.label) {
                None => {
                    first_of.insert(link.label, i);
                }
                Some(&j) => {
                    same_deals(&records[j], record).map_err(fail)?;
                    shared.insert(link.label);
                }
            }
        } else {
            let table = record
                .meta
                .as_ref()
                .and_then(|m| m.get("table_id"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            if keys.context() != table {
                return Err(scheme(format!(
                    "the context {:?} is neither the table's id nor the deal label {duplicate:?}",
                    keys.context()
                )));
            }
            first_of.entry(link.label).or_insert(i);
        }
    }
    let id = id.ok_or_else(|| (0, VerifyError::Scheme("no records".into())))?;
    Ok(TournamentVerified {
        id,
        records: records.len(),
        labels: first_of.len(),
        shared: shared.len(),
    })
}

/// Two seatings of one duplicate deal: the same first dealer and cards at every hand both
/// played.
fn same_deals(a: &Record, b: &Record) -> Result<(), VerifyError> {
    let replay = |r: &Record| {
        crate::record::replay(r)
            .map(|(m, _)| m)
            .map_err(|e| VerifyError::Record(e.to_string()))
    };
    let (ma, mb) = (replay(a)?, replay(b)?);
    for h in 0..ma.hands_dealt().min(mb.hands_dealt()) {
        if ma.dealer(h) != mb.dealer(h) || ma.dealt(h) != mb.dealt(h) {
            return Err(VerifyError::Deal {
                hand: h,
                what: "the deal of another seating of the same duplicate deal".into(),
            });
        }
    }
    Ok(())
}
