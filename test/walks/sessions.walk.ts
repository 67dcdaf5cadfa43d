import { Walk } from '../support/doc-walks';

/** docs/sessions.md's walk: a single sign-on's session listed, signed out and refused, after README's domain walk. */
export const walks: Walk[] = [
  {
    name: 'docs/sessions.md: Trying it locally, a session of the OpenID provider of scripts/dev-oidc.mjs',
    document: 'docs/sessions.md',
    sections: ['Trying it locally'],
    server: { section: 'Trying it locally' },
    freePorts: [4100],
    continues: 'README: Verified domains, with the DNS server of scripts/dev-dns.js',
  },
];
