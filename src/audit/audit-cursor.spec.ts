import { apiFailure } from '../../test/support/api-failure';
import { PAGING_ERRORS } from '../../test/support/spec-bodies';
import { decodeCursor, encodeCursor } from '../common/paging';
import { auditCursorKey, auditCursorOf } from './audit-cursor';

describe('audit cursor', () => {
  it('reads back the (occurredAt, id) of the event it was made from', () => {
    const event = { occurredAt: new Date('2026-03-01T12:00:00.123Z'), id: '0b6f2f4e-8d5a-4c1e-9f0a-2b3c4d5e6f70' };
    expect(auditCursorOf(decodeCursor(encodeCursor(auditCursorKey(event)), 2))).toEqual(event);
  });

  it.each([
    ['a time that is not epoch milliseconds', ['2026-03-01', '0b6f2f4e-8d5a-4c1e-9f0a-2b3c4d5e6f70']],
    ['an id that is not an event id', ['1772366400000', 'not-an-id']],
  ])('a key with %s is 400, an invalid cursor', async (_, key) => {
    expect(await apiFailure(Promise.resolve().then(() => auditCursorOf(key)))).toEqual({
      status: 400,
      body: PAGING_ERRORS.invalidCursor,
    });
  });
});
