/** The site's canonical address: the configured one, Netlify's, or the local server's; never another site's. */
import { describe, expect, it } from 'vitest';
import { siteAddress } from '../../scripts/lib/site-address';

describe('siteAddress', () => {
  it('takes SITE_URL first, then the URL Netlify sets in its builds, then the local server', () => {
    const netlify = 'https://association-ecole.netlify.app';
    expect(siteAddress({ SITE_URL: 'https://www.association.fr', URL: netlify })).toBe('https://www.association.fr');
    expect(siteAddress({ SITE_URL: '', URL: netlify })).toBe(netlify);
    expect(siteAddress({ SITE_URL: ' ' })).toBe('http://localhost:4321');
  });
});
