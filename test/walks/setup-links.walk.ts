import { Walk } from '../support/doc-walks';

export const walks: Walk[] = [
  {
    name: 'docs/setup-links.md: a link made, opened with curl, and a domain claimed through it',
    document: 'docs/setup-links.md',
    sections: ['A walk with curl'],
    server: { command: 'npm start' },
  },
];
