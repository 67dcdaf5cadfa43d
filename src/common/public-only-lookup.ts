import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { LookupFunction } from 'node:net';
import { isNonPublicAddress } from './address-classifier';

/** A host resolves to (or is) a loopback, link-local or private address, and `setting` does not allow it. */
export class RefusedAddress extends Error {
  constructor(host: string, address: string, setting: string) {
    super(
      `refused: ${host} resolves to ${address}, a loopback, link-local or private address (set ${setting}=true to allow it)`,
    );
  }
}

/**
 * dns.lookup, refusing every answer that holds a non-public address (SSRF): given to a request as its
 * socket's own lookup, the connection goes to exactly the address checked, so that a name resolving to
 * a public address for a check and to a private one for the connection (DNS rebinding) cannot get
 * through. `setting`: the variable that would allow such addresses, named in the refusal.
 */
export function publicOnlyLookup(setting: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((candidate) => isNonPublicAddress(candidate.address));
      if (refused) return callback(new RefusedAddress(hostname, refused.address, setting), '', 0);
      if (options.all)
        return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
