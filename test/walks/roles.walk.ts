import { Walk } from '../support/doc-walks';

export const walks: Walk[] = [
  {
    name: 'docs/roles.md: an organisation’s roles, from the product’s permissions to what the portal asks',
    document: 'docs/roles.md',
    sections: [
      'A walk',
      "The product's permissions",
      "An organisation's roles",
      "Members' roles",
      'Roles on invitations',
      'How the portal asks',
    ],
    server: { command: 'npm start' },
  },
];
