import { Walk } from '../support/doc-walks';

export const walks: Walk[] = [
  {
    name: 'docs/tenant-lifecycle.md: a curl walk from a new tenant to its deletion',
    document: 'docs/tenant-lifecycle.md',
    sections: ['A curl walk'],
    server: { command: 'npm start' },
  },
];
