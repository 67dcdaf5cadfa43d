import { AdminUpdateUserAttributesCommand, ListUsersInGroupCommand } from '@aws-sdk/client-cognito-identity-provider';
import { toAuditEvent } from '../src/audit/audit-event';
import { AuditEventEntity } from '../src/database/entities';
import { COGNITO_ATTRIBUTES } from '../src/identity/cognito/cognito-attributes';
import { tenantGroupName } from '../src/identity/cognito/cognito-groups';
import { emulatorClient } from './support/cognito-emulator';
import { CognitoTestIdentity } from './support/cognito-test-identity';
import { sessionCookie } from './support/factories';
import { useOrganisationSuite } from './support/suites';

/**
 * Cognito mode: deleting a tenant clears each member's `custom:tenant_id` and `custom:role` and takes
 * them out of the pool group `tenant_<id>` that lists the tenant (the accounts stay).
 */
describe('deleting a tenant in the Cognito pool', () => {
  const { t, factory, org } = useOrganisationSuite();
  const client = () => emulatorClient(process.env.E2E_COGNITO_ENDPOINT!);
  const pool = () => (t.testIdentity as CognitoTestIdentity).pool.userPoolId;
  const groupMembers = async (tenantId: string) => {
    const page = await client().send(
      new ListUsersInGroupCommand({ UserPoolId: pool(), GroupName: tenantGroupName(tenantId)! }),
    );
    return (page.Users ?? []).map((user) => user.Username).sort();
  };

  it("every member's attributes are cleared and they leave the group; one in the group for another tenant only leaves it", async () => {
    const admin = await factory.member(org.tenant.id, { role: 'admin' });
    const member = await factory.member(org.tenant.id, { role: 'member' });
    // In the group, but moved to another tenant outside the service: not this tenant's member.
    const moved = await factory.member(org.tenant.id, { role: 'member' });
    await client().send(
      new AdminUpdateUserAttributesCommand({
        UserPoolId: pool(),
        Username: moved.id,
        UserAttributes: [{ Name: COGNITO_ATTRIBUTES.tenantId, Value: 'elsewhere' }],
      }),
    );
    expect(await groupMembers(org.tenant.id)).toEqual([org.owner.id, admin.id, member.id, moved.id].sort());

    const rootCookie = await sessionCookie(t, await factory.superAdmin());
    const res = await t.http.delete(`/api/admin/tenants/${org.tenant.id}`).set('Cookie', rootCookie);
    expect([res.status, res.body]).toEqual([200, { success: true }]);

    expect(await groupMembers(org.tenant.id)).toEqual([]);
    for (const person of [org.owner, admin, member]) {
      expect(await t.identity.findById(person.id)).toMatchObject({
        id: person.id,
        email: person.email,
        userType: 'org',
        tenantId: null,
        role: null,
      });
    }
    expect(await t.identity.findById(moved.id)).toMatchObject({ tenantId: 'elsewhere', role: 'member' });
    const events = (await t.dataSource.getRepository(AuditEventEntity).findBy({ tenantId: org.tenant.id })).map(
      toAuditEvent,
    );
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['tenant.deleted', { name: org.tenant.name, membersDetached: 3, invitationsRevoked: 0 }],
    ]);
  });
});
