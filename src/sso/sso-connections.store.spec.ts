import { SsoConnectionEntity } from '../database/entities';
import { primaryAmong } from './sso-connections.store';

const at = (minute: number | null) => (minute === null ? null : new Date(Date.UTC(2026, 0, 1, 0, minute)));
const active = (id: string, activated: number, primary: number | null = null) =>
  ({ id, status: 'active', activatedAt: at(activated), primaryAt: at(primary) }) as SsoConnectionEntity;

describe('primaryAmong', () => {
  it('none active: no primary', () => {
    expect(primaryAmong([])).toBeNull();
  });

  it('none made primary: the first to become active', () => {
    expect(primaryAmong([active('b', 5), active('a', 9), active('c', 2)])?.id).toBe('c');
  });

  it('one made primary by an owner wins over one active longer', () => {
    expect(primaryAmong([active('a', 1), active('b', 5, 6)])?.id).toBe('b');
  });

  it('of several made primary, the latest', () => {
    expect(primaryAmong([active('a', 1, 8), active('b', 2, 6), active('c', 3)])?.id).toBe('a');
  });

  it('a tie in time: the smaller id, so that every instance picks the same', () => {
    expect(primaryAmong([active('b', 1), active('a', 1)])?.id).toBe('a');
  });
});
