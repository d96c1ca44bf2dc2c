//! Compiles `proto/calabresella/v1/*.proto` with protox (pure Rust, no system `protoc`) and
//! generates the prost messages and tonic stubs, plus the encoded descriptor set that the
//! server's reflection service publishes.

use std::path::PathBuf;

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let files = [
        "cards.proto",
        "game.proto",
        "table_service.proto",
        "bot_service.proto",
    ]
    .map(|f| root.join("calabresella/v1").join(f));
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
    }
    let fds = protox::compile(&files, [&root])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out.join("calabresella_v1_descriptor.bin"),
        fds.encode_to_vec(),
    )?;
    // Large, rare messages are boxed so a stream's `Update` stays small: servers keep many
    // updates queued per stream.
    let mut builder = tonic_prost_build::configure();
    for path in [
        ".calabresella.v1.Update.kind.snapshot",
        ".calabresella.v1.Update.kind.hand_revealed",
        ".calabresella.v1.Update.kind.match_ended",
        ".calabresella.v1.Update.kind.seat_changed",
        ".calabresella.v1.Update.next_turn",
        ".calabresella.v1.Event.result",
        ".calabresella.v1.Event.accuso",
        ".calabresella.v1.Event.action",
    ] {
        builder = builder.boxed(path);
    }
    builder
        .codec_path("crate::codec::CompactCodec")
        .build_server(true)
        .build_client(true)
        .compile_fds(fds)?;
    Ok(())
}
