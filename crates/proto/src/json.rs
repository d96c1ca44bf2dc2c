//! Wire messages as proto3 JSON (the canonical JSON mapping of protocol buffers, with the
//! `.proto` field names), read from the package's own descriptors: what the submitted-bot
//! protocol sends over a bot's standard input, which any language's protobuf library reads
//! back into its generated types.
//!
//! ```
//! use calabresella_proto::{json, v1};
//! let turn = v1::Turn { decision: 7, actor: 1, decider: 1, ..Default::default() };
//! let text = json::to_json(&turn, "calabresella.v1.Turn").unwrap();
//! assert_eq!(text["decision"], "7"); // 64-bit integers are strings in proto3 JSON
//! let back: v1::Turn = json::from_json(&text, "calabresella.v1.Turn").unwrap();
//! assert_eq!(back, turn);
//! ```

use std::sync::LazyLock;

use prost_reflect::{DescriptorPool, DynamicMessage, SerializeOptions};

static POOL: LazyLock<Result<DescriptorPool, String>> = LazyLock::new(|| {
    DescriptorPool::decode(crate::v1::FILE_DESCRIPTOR_SET).map_err(|e| e.to_string())
});

/// What can go wrong between a message and its JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonError {
    /// No message of that name in the package.
    #[error("no message {0}")]
    NoSuchMessage(String),
    /// The JSON is not that message.
    #[error("not a {0}: {1}")]
    Invalid(String, String),
}

fn descriptor(name: &str) -> Result<prost_reflect::MessageDescriptor, JsonError> {
    POOL.as_ref()
        .ok()
        .and_then(|p| p.get_message_by_name(name))
        .ok_or_else(|| JsonError::NoSuchMessage(name.to_owned()))
}

/// `message`, whose full name is `name` (`calabresella.v1.Update`), as proto3 JSON with the
/// `.proto` field names; fields at their default values are left out.
pub fn to_json<M: prost::Message>(message: &M, name: &str) -> Result<serde_json::Value, JsonError> {
    let desc = descriptor(name)?;
    let dynamic = DynamicMessage::decode(desc, message.encode_to_vec().as_slice())
        .map_err(|e| JsonError::Invalid(name.to_owned(), e.to_string()))?;
    let options = SerializeOptions::new().use_proto_field_name(true);
    dynamic
        .serialize_with_options(serde_json::value::Serializer, &options)
        .map_err(|e| JsonError::Invalid(name.to_owned(), e.to_string()))
}

/// The message whose full name is `name`, from proto3 JSON (either field-name style).
pub fn from_json<M: prost::Message + Default>(
    json: &serde_json::Value,
    name: &str,
) -> Result<M, JsonError> {
    use prost_reflect::prost::Message as _;
    let desc = descriptor(name)?;
    let dynamic = DynamicMessage::deserialize(desc, json)
        .map_err(|e| JsonError::Invalid(name.to_owned(), e.to_string()))?;
    M::decode(dynamic.encode_to_vec().as_slice())
        .map_err(|e| JsonError::Invalid(name.to_owned(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1;

    #[test]
    fn an_update_goes_to_json_and_back() {
        let update = v1::Update {
            seq: 12,
            stream_epoch: "e1".into(),
            kind: Some(v1::update::Kind::HandStarted(v1::HandStarted {
                hand_number: 2,
                dealer: 1,
            })),
            next_turn: Some(Box::new(v1::Turn {
                decision: 40,
                actor: 2,
                decider: 2,
                legal_actions: vec![v1::Action {
                    notation: "play 4c".into(),
                    id: Some(3),
                    ..Default::default()
                }],
                ..Default::default()
            })),
        };
        let json = to_json(&update, "calabresella.v1.Update").expect("json");
        assert_eq!(json["hand_started"]["hand_number"], 2);
        assert_eq!(json["next_turn"]["legal_actions"][0]["notation"], "play 4c");
        let back: v1::Update = from_json(&json, "calabresella.v1.Update").expect("back");
        assert_eq!(back, update);
        assert!(matches!(
            from_json::<v1::Update>(&serde_json::json!({"seq": "x"}), "calabresella.v1.Update"),
            Err(JsonError::Invalid(..))
        ));
        assert!(matches!(
            to_json(&update, "calabresella.v1.Nothing"),
            Err(JsonError::NoSuchMessage(_))
        ));
    }
}
