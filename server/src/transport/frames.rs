//! The HTTP/2 framing layer as the connection guard reads it (RFC 9113, section 4): the
//! client's connection preface, then frames of a 9-byte header (24-bit length, type, flags,
//! 31-bit stream id) and a payload of that length. The guard needs only the headers: which
//! frames a peer sends, where each ends, and which streams a client opens; payloads are
//! skipped. Written by hand because it is a few dozen lines of a fixed format, and the guard
//! must see the bytes before the HTTP/2 library does (no library exposes its frame stream).

/// The client connection preface of HTTP/2.
pub const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Frame types (RFC 9113, section 6).
pub mod kind {
    /// DATA.
    pub const DATA: u8 = 0x0;
    /// HEADERS.
    pub const HEADERS: u8 = 0x1;
    /// PRIORITY.
    pub const PRIORITY: u8 = 0x2;
    /// RST_STREAM.
    pub const RST_STREAM: u8 = 0x3;
    /// SETTINGS.
    pub const SETTINGS: u8 = 0x4;
    /// PING.
    pub const PING: u8 = 0x6;
    /// GOAWAY.
    pub const GOAWAY: u8 = 0x7;
    /// CONTINUATION.
    pub const CONTINUATION: u8 = 0x9;
}

/// The ACK flag of SETTINGS and PING.
pub const ACK: u8 = 0x1;
/// The END_STREAM flag of DATA and HEADERS.
pub const END_STREAM: u8 = 0x1;

/// Error codes of RST_STREAM and GOAWAY (RFC 9113, section 7).
pub mod code {
    /// A graceful shutdown.
    pub const NO_ERROR: u32 = 0x0;
    /// The peer may be generating excessive load.
    pub const ENHANCE_YOUR_CALM: u32 = 0xb;
}

/// One frame's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Payload length.
    pub length: u32,
    /// Frame type ([`kind`]).
    pub kind: u8,
    /// Flags.
    pub flags: u8,
    /// Stream id (the reserved bit cleared).
    pub stream: u32,
}

impl Header {
    fn parse(b: &[u8; 9]) -> Header {
        Header {
            length: u32::from_be_bytes([0, b[0], b[1], b[2]]),
            kind: b[3],
            flags: b[4],
            stream: u32::from_be_bytes([b[5], b[6], b[7], b[8]]) & 0x7fff_ffff,
        }
    }

    /// Whether a peer sends this frame unprompted at a cost to the other side that no
    /// request pays for: a PING or SETTINGS to acknowledge, a stream reset or reprioritised,
    /// or an empty DATA or CONTINUATION frame (the floods of CVE-2019-9512, -9515, -9518 and
    /// CVE-2023-44487).
    pub fn is_control(&self) -> bool {
        match self.kind {
            kind::PING | kind::SETTINGS => self.flags & ACK == 0,
            kind::RST_STREAM | kind::PRIORITY => true,
            kind::DATA => self.length == 0 && self.flags & END_STREAM == 0,
            kind::CONTINUATION => self.length == 0,
            _ => false,
        }
    }
}

/// Reads a stream of frames as its bytes arrive in pieces of any size.
#[derive(Debug, Clone, Default)]
pub struct FrameReader {
    header: [u8; 9],
    have: usize,
    /// Payload bytes of the current frame still to come.
    payload_left: u32,
}

impl FrameReader {
    /// Feeds `bytes`; calls `on_header` with each frame header completed in them.
    pub fn feed(&mut self, mut bytes: &[u8], mut on_header: impl FnMut(Header)) {
        while !bytes.is_empty() {
            if self.payload_left > 0 {
                let skip = (self.payload_left as usize).min(bytes.len());
                self.payload_left -= skip as u32;
                bytes = &bytes[skip..];
                continue;
            }
            let take = (9 - self.have).min(bytes.len());
            self.header[self.have..self.have + take].copy_from_slice(&bytes[..take]);
            self.have += take;
            bytes = &bytes[take..];
            if self.have == 9 {
                self.have = 0;
                let h = Header::parse(&self.header);
                self.payload_left = h.length;
                on_header(h);
            }
        }
    }

    /// Whether a frame has begun and not ended (its header or payload is incomplete).
    pub fn mid_frame(&self) -> bool {
        self.have > 0 || self.payload_left > 0
    }
}

/// A GOAWAY frame on stream 0: the last stream the sender processed, and why it goes.
pub fn goaway(last_stream: u32, error: u32) -> [u8; 17] {
    let mut f = [0u8; 17];
    f[..3].copy_from_slice(&8u32.to_be_bytes()[1..]);
    f[3] = kind::GOAWAY;
    f[9..13].copy_from_slice(&(last_stream & 0x7fff_ffff).to_be_bytes());
    f[13..17].copy_from_slice(&error.to_be_bytes());
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
        let mut f = (payload.len() as u32).to_be_bytes()[1..].to_vec();
        f.extend([kind, flags]);
        f.extend(stream.to_be_bytes());
        f.extend(payload);
        f
    }

    #[test]
    fn headers_are_read_and_payloads_skipped() {
        let mut bytes = frame(kind::SETTINGS, 0, 0, &[0; 12]);
        bytes.extend(frame(kind::PING, 0, 0, &[7; 8]));
        bytes.extend(frame(kind::PING, ACK, 0, &[7; 8]));
        bytes.extend(frame(kind::HEADERS, END_STREAM, 0x8000_0003, b"hpack"));
        bytes.extend(frame(kind::DATA, 0, 3, &[]));
        let mut seen = Vec::new();
        let mut r = FrameReader::default();
        r.feed(&bytes, |h| seen.push(h));
        assert!(!r.mid_frame());
        let kinds: Vec<u8> = seen.iter().map(|h| h.kind).collect();
        assert_eq!(
            kinds,
            [
                kind::SETTINGS,
                kind::PING,
                kind::PING,
                kind::HEADERS,
                kind::DATA
            ]
        );
        assert_eq!(seen[3].stream, 3, "the reserved bit is not part of the id");
        let control: Vec<bool> = seen.iter().map(Header::is_control).collect();
        assert_eq!(control, [true, true, false, false, true]);
    }

    #[test]
    fn a_goaway_reads_back_as_one() {
        let f = goaway(0x8000_0007, code::ENHANCE_YOUR_CALM);
        let mut seen = Vec::new();
        FrameReader::default().feed(&f, |h| seen.push(h));
        assert_eq!(
            seen,
            [Header {
                length: 8,
                kind: kind::GOAWAY,
                flags: 0,
                stream: 0
            }]
        );
        assert_eq!(u32::from_be_bytes([f[9], f[10], f[11], f[12]]), 7);
        assert_eq!(u32::from_be_bytes([f[13], f[14], f[15], f[16]]), 0xb);
    }

    proptest! {
        /// However the bytes are split, the same headers come out; cutting 1 to 8 bytes off
        /// the end leaves the last frame (at least 9 bytes long) unfinished.
        #[test]
        fn pieces_of_any_size_read_the_same(
            frames in prop::collection::vec(
                (0u8..10, any::<u8>(), any::<u32>(), prop::collection::vec(any::<u8>(), 0..40)),
                0..12,
            ),
            cuts in prop::collection::vec(1usize..20, 0..30),
            short in 0usize..9,
        ) {
            let mut bytes = Vec::new();
            for (k, f, s, p) in &frames {
                bytes.extend(frame(*k, *f, *s, p));
            }
            let mut whole = Vec::new();
            FrameReader::default().feed(&bytes, |h| whole.push(h));
            prop_assert_eq!(whole.len(), frames.len());
            let mut pieces = Vec::new();
            let mut r = FrameReader::default();
            let mut rest = &bytes[..];
            for c in cuts {
                let n = c.min(rest.len());
                r.feed(&rest[..n], |h| pieces.push(h));
                rest = &rest[n..];
            }
            r.feed(rest, |h| pieces.push(h));
            prop_assert_eq!(&whole, &pieces);
            prop_assert!(!r.mid_frame());
            if !bytes.is_empty() && short > 0 {
                let mut cut = FrameReader::default();
                cut.feed(&bytes[..bytes.len() - short], |_| {});
                prop_assert!(cut.mid_frame());
            }
        }
    }
}
