/**
 * Throwaway X.509 certificates for the TLS tests, made with node:crypto alone (Node has no
 * certificate generator): ECDSA P-256 keys, the certificate's DER written out here and signed
 * with SHA-256. Enough for a CA and the server certificates it signs, nothing more.
 */
import {
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from "node:crypto";
import { isIPv4 } from "node:net";

/** A certificate and its private key, as PEM. */
export interface Issued {
  cert: string;
  key: string;
}

/** A certificate authority that issues server certificates. */
export interface TestCA extends Issued {
  /** A server certificate for these DNS names and IPv4 addresses, signed by the CA. */
  issue(names: string[]): Issued;
}

/** A DER element: tag, length, content. */
function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  let len: Buffer;
  if (n < 0x80) len = Buffer.from([n]);
  else {
    const bytes: number[] = [];
    for (let m = n; m > 0; m >>= 8) bytes.unshift(m & 0xff);
    len = Buffer.from([0x80 | bytes.length, ...bytes]);
  }
  return Buffer.concat([Buffer.from([tag]), len, body]);
}

const seq = (...c: Buffer[]) => tlv(0x30, ...c);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const out = [a! * 40 + b!];
  for (const v of rest) {
    const part = [v & 0x7f];
    for (let m = v >> 7; m > 0; m >>= 7) part.unshift(0x80 | (m & 0x7f));
    out.push(...part);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A positive INTEGER from big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  return tlv(
    0x02,
    bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes,
  );
}

function time(d: Date): Buffer {
  // UTCTime, YYMMDDHHMMSSZ (valid until 2049).
  const s = d.toISOString().replace(/[-:T]/g, "").slice(2, 14) + "Z";
  return tlv(0x17, Buffer.from(s, "ascii"));
}

function name(cn: string): Buffer {
  return seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0c, Buffer.from(cn)))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(
    oid(id),
    ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []),
    tlv(0x04, value),
  );
}

const ECDSA_WITH_SHA256 = seq(oid("1.2.840.10045.4.3.2"));

function pem(label: string, der: Buffer): string {
  const b64 = der.toString("base64").replace(/.{64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${b64.replace(/\n$/, "")}\n-----END ${label}-----\n`;
}

/** A certificate of `subject`'s key, signed by `issuerKey`. */
function certificate(
  subject: string,
  publicKey: KeyObject,
  issuer: string,
  issuerKey: KeyObject,
  extensions: Buffer[],
): string {
  const now = Date.now();
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))), // v3
    integer(randomBytes(8)),
    ECDSA_WITH_SHA256,
    name(issuer),
    seq(time(new Date(now - 60_000)), time(new Date(now + 3_600_000))),
    name(subject),
    publicKey.export({ type: "spki", format: "der" }),
    tlv(0xa3, seq(...extensions)),
  );
  const signature = sign("sha256", tbs, issuerKey); // DER ECDSA-Sig-Value
  return pem(
    "CERTIFICATE",
    seq(tbs, ECDSA_WITH_SHA256, tlv(0x03, Buffer.from([0]), signature)),
  );
}

const keyPair = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" });

const keyPem = (k: KeyObject) =>
  k.export({ type: "pkcs8", format: "pem" }).toString();

/** A self-signed CA certificate, valid for an hour. */
export function newTestCA(cn = "calabresella test CA"): TestCA {
  const ca = keyPair();
  const cert = certificate(cn, ca.publicKey, cn, ca.privateKey, [
    // basicConstraints cA; keyUsage keyCertSign, cRLSign.
    extension("2.5.29.19", true, seq(tlv(0x01, Buffer.from([0xff])))),
    extension("2.5.29.15", true, tlv(0x03, Buffer.from([1, 0x06]))),
  ]);
  return {
    cert,
    key: keyPem(ca.privateKey),
    issue(names) {
      const server = keyPair();
      const alt = names.map(
        (n) =>
          isIPv4(n)
            ? tlv(0x87, Buffer.from(n.split(".").map(Number))) // iPAddress
            : tlv(0x82, Buffer.from(n, "ascii")), // dNSName
      );
      return {
        cert: certificate(
          "calabresella test server",
          server.publicKey,
          cn,
          ca.privateKey,
          [
            extension("2.5.29.17", false, seq(...alt)), // subjectAltName
            extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"))), // serverAuth
          ],
        ),
        key: keyPem(server.privateKey),
      };
    },
  };
}
