/**
 * Throwaway X.509 certificates for the TLS tests (mkcert, on node-forge): a CA, and server
 * certificates it signs for the names given.
 */
import { createCA, createCert } from "mkcert";

/** A certificate and its private key, as PEM. */
export interface Issued {
  cert: string;
  key: string;
}

/** A certificate authority that issues server certificates. */
export interface TestCA extends Issued {
  /** A server certificate for these DNS names and IP addresses, signed by the CA. */
  issue(names: string[]): Promise<Issued>;
}

/** A new CA named `name`, valid for a day. */
export async function newTestCA(
  name = "calabresella test CA",
): Promise<TestCA> {
  const ca = await createCA({
    organization: name,
    countryCode: "IT",
    state: "Lazio",
    locality: "Roma",
    validity: 1,
  });
  return {
    ...ca,
    issue: (names) => createCert({ ca, domains: names, validity: 1 }),
  };
}
