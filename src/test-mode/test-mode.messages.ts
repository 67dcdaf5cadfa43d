/** The test-mode routes (docs/test-mode.md): their error messages. */
export const TEST_MODE_ERRORS = {
  toRequired: 'to must be an e-mail address',
  sessionSubject: 'Give userId, or sub and email',
  sessionsNeedLocalStore: 'Test sessions are issued only with IDENTITY_STORE=local',
  clockChange: 'Give advanceSeconds (a whole number from 1 to 315360000) or reset: true',
  namePrefixRequired: 'namePrefix must be 1 to 255 characters',
} as const;
