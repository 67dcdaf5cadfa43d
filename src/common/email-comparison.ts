import { createHash } from 'node:crypto';

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The one comparison of e-mail addresses, whatever the store (README "Comparing e-mail
 * addresses"): NFKC_Casefold, as in UTS #39 and Django's fix for CVE-2019-19844, with the
 * Turkic dotted and dotless i taken as plain i.
 *
 * - NFKC, without default-ignorable characters (soft hyphen, zero-width space and the like):
 *   `ｋ` (full-width) and `K` (Kelvin sign) become `k`, `ﬀ` becomes `ff`.
 * - Full case folding: `ß` and `ẞ` become `ss`, `ς` and `σ` one letter. JavaScript has no case
 *   folding of its own; lower-case, upper-case, lower-case again gives the same classes as
 *   Unicode's full folding (CaseFolding.txt C+F), checked over every code point, except that it
 *   also makes `ı` an `i`, which is wanted here.
 * - NFKC again, since folding can leave a string unnormalised (`ΐ`).
 * - `İ` folds to `i` + combining dot above: that dot on an `i` is dropped, so `İ`, `ı`, `I`
 *   and `i` compare equal.
 *
 * Nothing else is stripped: `kate+news@` is not `kate@`, and `café@` is not `cafe@`.
 */
export function comparableEmail(address: string): string {
  return address
    .normalize('NFKC')
    .replace(DEFAULT_IGNORABLE, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/i\u0307/g, 'i');
}

/** Whether two addresses are the same one under comparableEmail. */
export function sameEmail(a: string, b: string): boolean {
  return comparableEmail(a) === comparableEmail(b);
}

/**
 * What an indexed column stores to find an address by comparableEmail: its SHA-256, in hex.
 * Fixed-length, since folding can make an address many times longer (`ﷺ` is 18 letters).
 */
export function emailKey(address: string): string {
  return createHash('sha256').update(comparableEmail(address), 'utf8').digest('hex');
}
