//! [`CompactCodec`]: the prost codec with small per-call buffers. A server holds thousands of
//! long-lived streams whose updates are a few hundred bytes; tonic's default 8 KiB encode buffer
//! per stream would dominate its memory. Larger messages still encode (the buffer grows).

use std::marker::PhantomData;

use prost::Message;
use tonic::codec::{BufferSettings, Codec};
use tonic_prost::{ProstCodec, ProstDecoder, ProstEncoder};

/// Initial buffer per call, and how much is buffered before yielding to the transport.
const SETTINGS: (usize, usize) = (512, 32 * 1024);

/// The codec the generated stubs use (`application/grpc+proto`, as `tonic_prost::ProstCodec`).
#[derive(Debug, Clone, Copy)]
pub struct CompactCodec<T, U>(PhantomData<(T, U)>);

impl<T, U> Default for CompactCodec<T, U> {
    fn default() -> Self {
        CompactCodec(PhantomData)
    }
}

impl<T, U> Codec for CompactCodec<T, U>
where
    T: Message + Send + 'static,
    U: Message + Default + Send + 'static,
{
    type Encode = T;
    type Decode = U;
    type Encoder = ProstEncoder<T>;
    type Decoder = ProstDecoder<U>;

    fn encoder(&mut self) -> Self::Encoder {
        ProstCodec::<T, U>::raw_encoder(BufferSettings::new(SETTINGS.0, SETTINGS.1))
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstCodec::<T, U>::raw_decoder(BufferSettings::new(SETTINGS.0, SETTINGS.1))
    }
}
