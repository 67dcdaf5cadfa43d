import { apiFailure } from '../../test/support/api-failure';
import { PAGING_ERRORS } from '../../test/support/spec-bodies';
import { compareKeys, encodeCursor, PageQueryDto, pageRequest, toPage } from './paging';
import { validateBody } from './validate-body';

const query = (raw: Record<string, unknown>) => validateBody(PageQueryDto, raw);

describe('paging', () => {
  it('limit defaults to 50 and there is no cursor on a first page', () => {
    expect(pageRequest(query({}), 2)).toEqual({ limit: 50 });
  });

  it('a cursor made by toPage is read back as the key of the last row', () => {
    const page = toPage(
      [
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
      ],
      { limit: 2 },
      (row) => row,
    );
    expect(page).toEqual({
      items: [
        ['a', '1'],
        ['b', '2'],
      ],
      nextCursor: encodeCursor(['b', '2']),
    });
    expect(pageRequest(query({ limit: '2', cursor: page.nextCursor }), 2)).toEqual({ limit: 2, after: ['b', '2'] });
  });

  it('no nextCursor when the rows fit in the page', () => {
    expect(toPage([1, 2], { limit: 2 }, (row) => [String(row)])).toEqual({ items: [1, 2] });
  });

  it.each([
    ['padded base64url', `${encodeCursor(['a', 'b'])}=`],
    ['another spelling of the same key', Buffer.from('[ "a","b"]').toString('base64url')],
    ['a key of another length', encodeCursor(['a'])],
  ])('a cursor that is %s is 400, an invalid cursor', async (_, cursor) => {
    expect(await apiFailure(Promise.resolve().then(() => pageRequest(query({ cursor }), 2)))).toEqual({
      status: 400,
      body: PAGING_ERRORS.invalidCursor,
    });
  });

  it.each(['1', '9', '10', '99', '100'])('limit %p is accepted', (limit) => {
    expect(pageRequest(query({ limit }), 2).limit).toBe(Number(limit));
  });

  it.each(['0', '01', '101', '1000', ['5']])('limit %p is 400 with the range in the message', async (limit) => {
    expect(await apiFailure(Promise.resolve().then(() => query({ limit })))).toEqual({
      status: 400,
      body: { error: 'Invalid limit. Must be an integer from 1 to 100' },
    });
  });

  it('compareKeys orders part by part', () => {
    expect(compareKeys(['a', 'z'], ['b', 'a'])).toBeLessThan(0);
    expect(compareKeys(['a', 'b'], ['a', 'a'])).toBeGreaterThan(0);
    expect(compareKeys(['a', 'b'], ['a', 'b'])).toBe(0);
  });

  it('compareKeys is code-point order, the order of UTF-8 bytes (BINARY, utf8mb4_bin), not code-unit order', () => {
    const words = ['b', 'a_b', 'A', 'ab', 'a.b', 'café', 'cafe', '\u{1F600}', '\uFF41', 'a'];
    const byBytes = [...words].sort((x, y) => Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8')));
    expect([...words].sort((x, y) => compareKeys([x], [y]))).toEqual(byBytes);
    // `<` would put the emoji (a surrogate pair) before the full-width a (U+FF41).
    expect(compareKeys(['\uFF41'], ['\u{1F600}'])).toBeLessThan(0);
    expect(compareKeys(['a'], ['ab'])).toBeLessThan(0);
  });
});
