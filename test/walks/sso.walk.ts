import { Walk } from '../support/doc-walks';

/** docs/sso.md's walk: single sign-on by OIDC with the provider of scripts/dev-oidc.mjs, after README's domain walk. */
export const walks: Walk[] = [
  {
    name: 'docs/sso.md: Trying it locally, with the OpenID provider of scripts/dev-oidc.mjs',
    document: 'docs/sso.md',
    sections: ['Trying it locally'],
    server: { section: 'Trying it locally' },
    freePorts: [4000],
    continues: 'README: Verified domains, with the DNS server of scripts/dev-dns.js',
  },
];
