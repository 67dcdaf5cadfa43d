import { Walk } from '../support/doc-walks';

export const walks: Walk[] = [
  {
    name: 'docs/invitations.md: inviting, validating and accepting, removing a member',
    document: 'docs/invitations.md',
    sections: ['Inviting members', 'Validating and accepting through the API', 'Removing a member'],
    server: { command: 'npm start' },
    // "Continuing the README's first session": its $TOKEN, BASE and json.
    continues: 'README: A first session',
  },
];
