import { InvitationEntity } from '../../database/entities';

/** Shown where a tenant or its name is absent (spec section 2, Tenant). */
export const DEFAULT_TENANT_NAME = 'Organisation';

/** Spec 4.1 rule 5. */
export interface ValidInvitationResponse {
  valid: true;
  email: string;
  tenantId: string;
  tenantName: string;
  role: string;
  expiresAt: string;
}

/** Spec 4.2 rule 5. */
export interface AcceptedInvitationResponse {
  success: true;
  tenantId: string;
  role: string;
}

export const toValidInvitationResponse = (
  invitation: InvitationEntity,
  tenantName: string | null,
): ValidInvitationResponse => ({
  valid: true,
  email: invitation.email,
  tenantId: invitation.tenantId,
  tenantName: tenantName?.trim() ? tenantName : DEFAULT_TENANT_NAME,
  role: invitation.role,
  expiresAt: invitation.expiresAt.toISOString(),
});

export const toAcceptedInvitationResponse = (invitation: InvitationEntity): AcceptedInvitationResponse => ({
  success: true,
  tenantId: invitation.tenantId,
  role: invitation.role,
});
