import { Walk } from '../support/doc-walks';

export const walks: Walk[] = [
  {
    name: 'docs/organisation.md: an organisation of its own, from its members to safe retries',
    document: 'docs/organisation.md',
    sections: [
      'Listing members',
      'Changing a role',
      'Listing invitations',
      'People: members and invitations in one list',
      'Revoking an invitation',
      'Sending an invitation again',
      'Inviting a team at once',
      'Quota',
      'Safe retries',
    ],
    server: { command: 'npm start' },
  },
];
