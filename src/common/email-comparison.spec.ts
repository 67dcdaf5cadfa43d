import { comparableEmail, emailKey, sameEmail } from './email-comparison';

describe('e-mail comparison', () => {
  describe(comparableEmail.name, () => {
    it.each([
      ['ASCII case', 'Kate@Example.COM', 'kate@example.com'],
      ['the Kelvin sign', '\u212Aate@example.com', 'kate@example.com'],
      ['full-width letters', '\uFF4Bate@\uFF25xample.com', 'kate@example.com'],
      ['a ligature', 'je\uFB00@example.com', 'jeff@example.com'],
      ['ß', 'stra\u00DFe@example.com', 'strasse@example.com'],
      ['capital ẞ', 'STRA\u1E9EE@example.com', 'strasse@example.com'],
      ['dotted İ', 'M\u0130KE@example.com', 'mike@example.com'],
      ['İ decomposed', 'MI\u0307KE@example.com', 'mike@example.com'],
      ['i with a combining dot', 'mi\u0307ke@example.com', 'mike@example.com'],
      ['dotless ı', 'm\u0131ke@example.com', 'mike@example.com'],
      ['a soft hyphen', 'ka\u00ADte@example.com', 'kate@example.com'],
      ['a zero-width space', 'ka\u200Bte@example.com', 'kate@example.com'],
      ['long s', '\u017Fam@example.com', 'sam@example.com'],
      ['micro sign', '\u00B5@example.com', '\u03BC@example.com'],
      [
        'final sigma',
        '\u03C3\u03BF\u03C6\u03BF\u03C2@example.com',
        comparableEmail('\u03A3\u039F\u03A6\u039F\u03A3@example.com'),
      ],
      ['a Greek letter with ypogegrammeni', '\u1FB3@example.com', '\u03B1\u03B9@example.com'],
      ['a titlecase digraph', '\u01C5@example.com', 'd\u017E@example.com'],
    ])('folds %s', (_, address, folded) => {
      expect(comparableEmail(address)).toBe(folded);
    });

    it.each([
      ['plus tags', 'kate+news@example.com', 'kate@example.com'],
      ['accents', 'caf\u00E9@example.com', 'cafe@example.com'],
      ['dots in the local part', 'k.ate@example.com', 'kate@example.com'],
      ['other scripts that only look alike', 'k\u0430te@example.com', 'kate@example.com'], // Cyrillic а
    ])('keeps %s apart', (_, a, b) => {
      expect(sameEmail(a, b)).toBe(false);
    });

    it('is idempotent and does not depend on how the address was lower-cased before storing', () => {
      for (const address of [
        'M\u0130KE@example.com',
        'STRA\u1E9EE@example.com',
        '\u212Aate@example.com',
        '\u13A0\u13A1@example.com',
      ]) {
        expect(comparableEmail(comparableEmail(address))).toBe(comparableEmail(address));
        expect(comparableEmail(address.toLowerCase())).toBe(comparableEmail(address));
        expect(comparableEmail(address.toUpperCase())).toBe(comparableEmail(address));
      }
    });

    it('Cherokee letters compare equal in either case', () => {
      expect(sameEmail('\u13A0@example.com', '\uAB70@example.com')).toBe(true);
    });
  });

  describe(emailKey.name, () => {
    it('is a fixed-length digest of the comparison form, equal for look-alikes', () => {
      expect(emailKey('KATE@example.com')).toMatch(/^[0-9a-f]{64}$/);
      expect(emailKey('\uFF4Bate@example.com')).toBe(emailKey('kate@example.com'));
      expect(emailKey('kate+news@example.com')).not.toBe(emailKey('kate@example.com'));
      expect(emailKey('\uFDFA'.repeat(64) + '@example.com')).toHaveLength(64);
    });
  });
});
