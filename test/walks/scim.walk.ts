import { Walk } from '../support/doc-walks';

export const walks: Walk[] = [
  {
    name: 'docs/scim.md: a walk with curl, then the role mapping of Roles from groups',
    document: 'docs/scim.md',
    // Roles from groups reads the walk's $OWNER.
    sections: ['A walk with curl', 'Roles from groups'],
    server: { command: 'npm start' },
  },
];
