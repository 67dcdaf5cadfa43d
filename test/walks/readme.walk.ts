import { Walk } from '../support/doc-walks';

/** README.md's walks, in its order: one reader, one shell, the server restarted where the text says. */
export const walks: Walk[] = [
  {
    name: 'README: A first session',
    document: 'README.md',
    sections: ['A first session'],
    server: { command: 'npm start' },
  },
  {
    name: 'README: From a new tenant to its first members',
    document: 'README.md',
    sections: ['From a new tenant to its first members'],
    server: { command: 'npm start' },
  },
  {
    name: 'README: Managing an organisation',
    document: 'README.md',
    sections: ['Managing an organisation'],
    server: { command: 'npm start' },
  },
  {
    name: 'README: Custom roles',
    document: 'README.md',
    sections: ['Custom roles'],
    server: { command: 'npm start' },
    continues: 'README: Managing an organisation',
  },
  {
    name: 'README: Verified domains, with the DNS server of scripts/dev-dns.js',
    document: 'README.md',
    sections: ['Verified domains'],
    server: { section: 'Verified domains' },
    freePorts: [5353],
  },
];
