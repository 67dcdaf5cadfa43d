import { MalformedCsvError, parseCsv } from './csv';

describe(parseCsv.name, () => {
  it('splits records on LF or CRLF and fields on commas, keeping spaces', () => {
    expect(parseCsv('email,role\r\na@example.com, member\nb@example.com,admin')).toEqual([
      ['email', 'role'],
      ['a@example.com', ' member'],
      ['b@example.com', 'admin'],
    ]);
  });

  it('drops a byte order mark, a trailing line break and blank lines', () => {
    expect(parseCsv('\ufeffemail,role\n\na@example.com,member\r\n\r\n')).toEqual([
      ['email', 'role'],
      ['a@example.com', 'member'],
    ]);
  });

  it('reads quoted fields with commas, line breaks and doubled quotes; empty fields stay', () => {
    expect(parseCsv('"a,b","line\nbreak","say ""hi""",,""\n"x"')).toEqual([
      ['a,b', 'line\nbreak', 'say "hi"', '', ''],
      ['x'],
    ]);
    expect(parseCsv('"a@example.com"\r\n')).toEqual([['a@example.com']]);
  });

  it('takes a quote inside an unquoted field as text', () => {
    expect(parseCsv('a"b,c')).toEqual([['a"b', 'c']]);
  });

  it('refuses a quoted field that is not closed, or text after its closing quote', () => {
    expect(() => parseCsv('"open,field\n')).toThrow(MalformedCsvError);
    expect(() => parseCsv('"a"b,c')).toThrow(MalformedCsvError);
  });

  it('gives nothing for an empty text', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\ufeff\r\n')).toEqual([]);
  });
});
