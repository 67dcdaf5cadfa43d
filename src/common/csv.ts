/** Why a text is not CSV: a quoted field that never ends, or text right after a closing quote. */
export class MalformedCsvError extends Error {}

/**
 * The records of a CSV text (RFC 4180): fields separated by commas, records by CRLF or LF, a field
 * in double quotes may hold commas, line breaks and doubled quotes (`""`). A leading byte order mark
 * is dropped, and so are empty lines (a trailing line break, or a blank line left by a paste). Fields
 * are returned as written, spaces included.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    if (record.length > 1 || record[0] !== '' || quoted) records.push(record);
    record = [];
    field = '';
    quoted = false;
  };
  while (i < text.length) {
    const char = text[i];
    if (char === '"' && field === '' && !quoted) {
      // A quoted field: up to the quote that is not doubled.
      quoted = true;
      let end = i + 1;
      for (;;) {
        end = text.indexOf('"', end);
        if (end < 0) throw new MalformedCsvError('A quoted field is not closed');
        if (text[end + 1] !== '"') break;
        end += 2;
      }
      field = text.slice(i + 1, end).replace(/""/g, '"');
      i = end + 1;
      if (i < text.length && !',\r\n'.includes(text[i])) throw new MalformedCsvError('Text after a closing quote');
      continue;
    }
    if (char === ',') {
      record.push(field);
      field = '';
      quoted = false;
    } else if (char === '\n' || char === '\r') {
      endRecord();
      if (char === '\r' && text[i + 1] === '\n') i++;
    } else {
      if (quoted) throw new MalformedCsvError('Text after a closing quote');
      field += char;
    }
    i++;
  }
  if (field !== '' || record.length || quoted) endRecord();
  return records;
}
