/** Setup links' settings (docs/setup-links.md). */

import { Env, integer } from './env-values';

export interface SetupLinksConfig {
  /** Open links per organisation (422 SETUP_LINK_LIMIT beyond). */
  perOrg: number;
}

export function setupLinkSettings(env: Env): SetupLinksConfig {
  return { perOrg: integer(env, 'SETUP_LINKS_PER_ORG', 5, 1, 100) };
}
