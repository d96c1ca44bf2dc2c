//! The `calabresella.v1` wire contract: generated protobuf messages and gRPC stubs, and every
//! conversion between them and the engine's types (the only crate that knows both).
//!
//! ```
//! use calabresella_proto::{convert, v1};
//! let card: calabresella_engine::Card = "Ad".parse().unwrap();
//! let wire: v1::Card = convert::card(card);
//! assert_eq!(wire.notation, "Ad");
//! assert_eq!(convert::card_from_wire(&wire).unwrap(), card);
//! ```

pub mod codec;
pub mod convert;
pub mod json;

/// Generated types of package `calabresella.v1`.
#[allow(missing_docs, clippy::all)]
pub mod v1 {
    tonic::include_proto!("calabresella.v1");

    /// The encoded `FileDescriptorSet` of the package, for gRPC reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/calabresella_v1_descriptor.bin"));
}
