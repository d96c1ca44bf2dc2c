//! Who a call is from: the API key of `authorization: Bearer <key>`, and the name a seat is
//! taken under (a registered player's for a valid key, else a guest's own). Bad keys count
//! against the caller's address; a key is never logged or echoed.

use super::{GameService, validate};
use crate::error::{Reason, ServiceError};

impl GameService {
    /// The name a seat is taken under: the registered player's for a valid API key (`key`),
    /// else the guest's own (`asked`), where the server admits guests and the name is neither
    /// reserved nor a registered player's look-alike. Bad keys count against the caller's
    /// address; the key itself is never logged or echoed.
    pub(super) async fn seat_name(
        &self,
        client: Option<std::net::IpAddr>,
        key: Option<&str>,
        asked: &str,
    ) -> Result<String, ServiceError> {
        let config = self.registry.config();
        let store = self.registry.store();
        let Some(key) = key else {
            if !config.guests {
                return Err(ServiceError::Unauthenticated(
                    Reason::KeyRequired,
                    "this server seats registered players only: send `authorization: Bearer \
                     <API key>`"
                        .into(),
                ));
            }
            let name = validate::player_name(asked)?;
            if let Some(other) = store.registered_like(name.clone()).await? {
                return Err(ServiceError::Invalid(
                    Reason::BadName,
                    format!("{other:?} is a registered player: present its API key to play as it"),
                ));
            }
            return Ok(name);
        };
        let max = config.max_bad_keys_per_client_per_minute;
        let now = std::time::Instant::now();
        let blocked = client.is_some_and(|c| self.bad_keys.blocked(c, max, now));
        // A valid key is let through from a blocked address too (another client behind the
        // same address may have failed): only bad keys are refused as blocked. Keys are 256
        // random bits, so the block slows no guesser that matters; it keeps a broken client
        // from filling the log and the store's queue.
        let found = if crate::store::players::well_formed(key) {
            store.player_by_key(key.to_owned()).await?
        } else {
            None
        };
        let bad = |why: &str| {
            if blocked {
                return ServiceError::Exhausted(
                    Reason::TooManyBadKeys,
                    format!(
                        "more than {max} calls with a bad API key in the last minute from this \
                         address"
                    ),
                );
            }
            if let Some(c) = client {
                self.bad_keys.failed(c, max, now);
            }
            if let Some(suppressed) = crate::log_limit::allow(client, "bad_api_key") {
                tracing::info!(client = ?client, suppressed, "refused an API key: {why}");
            }
            ServiceError::Unauthenticated(Reason::BadKey, format!("the API key {why}"))
        };
        match found {
            None => Err(bad("is not valid")),
            Some((_, true)) => Err(bad("is disabled")),
            Some((name, false)) => {
                if !asked.trim().is_empty()
                    && crate::names::looks(asked) != crate::names::looks(&name)
                {
                    return Err(ServiceError::Invalid(
                        Reason::BadName,
                        format!(
                            "the API key is {name:?}'s: leave player_name empty or give that name"
                        ),
                    ));
                }
                Ok(name)
            }
        }
    }
}

/// The API key of `authorization: Bearer <key>`, if the header is there.
pub(super) fn bearer(
    metadata: &tonic::metadata::MetadataMap,
) -> Result<Option<String>, ServiceError> {
    let Some(value) = metadata.get("authorization") else {
        return Ok(None);
    };
    // A malformed header can name no player: refused, and not counted as a guess.
    let malformed = || {
        ServiceError::Unauthenticated(
            Reason::BadKey,
            "the authorization header is `Bearer <API key>`".into(),
        )
    };
    let text = value.to_str().map_err(|_| malformed())?;
    let (scheme, key) = text.trim().split_once(' ').ok_or_else(malformed)?;
    if !scheme.eq_ignore_ascii_case("bearer") || key.trim().is_empty() {
        return Err(malformed());
    }
    Ok(Some(key.trim().to_owned()))
}
