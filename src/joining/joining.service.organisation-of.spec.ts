/** JoiningService.organisationOf: the organisation a person is in as a join judges it, a grant on its way counting first. */

import { ORG_USER_TYPE } from '../identity/identity-store';
import { JoiningService } from './joining.service';
import { JoiningFakes, OTHER_TENANT, TENANT } from './joining.service.spec-fixtures';

describe(JoiningService.name, () => {
  let fakes: JoiningFakes;
  const service = (store?: 'local' | 'pool') => fakes.service(store);
  beforeEach(() => (fakes = new JoiningFakes()));

  describe('organisationOf', () => {
    it('local store: the users row’s organisation as read', async () => {
      expect(await service().organisationOf({ id: 'u-1', tenantId: TENANT })).toBe(TENANT);
    });

    it('user pool: a grant on its way counts first, then the pool, then none', async () => {
      fakes.identity.add({ id: 'u-1', userType: ORG_USER_TYPE, tenantId: TENANT, role: 'member' });
      fakes.grants.pending.set('u-1', { tenantId: OTHER_TENANT, role: 'member' });
      expect(await service('pool').organisationOf({ id: 'u-1', tenantId: null })).toBe(OTHER_TENANT);
      fakes.grants.pending.clear();
      expect(await service('pool').organisationOf({ id: 'u-1', tenantId: null })).toBe(TENANT);
      expect(await service('pool').organisationOf({ id: 'u-unknown', tenantId: TENANT })).toBeNull();
    });
  });
});
