/** Issue 12 route 6: GET /api/org/people. */
export const PEOPLE_ERRORS = {
  notOrgUser: 'Only organisation users can access this',
  listFailed: 'Failed to list people',
} as const;
