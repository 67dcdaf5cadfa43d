import { NOT_ORG_USER } from '../common/messages';

/** GET /api/org/people. */
export const PEOPLE_ERRORS = {
  notOrgUser: NOT_ORG_USER,
  listFailed: 'Failed to list people',
} as const;
