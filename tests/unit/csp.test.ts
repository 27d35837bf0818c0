/** The per-page additions to the Content-Security-Policy (src/lib/csp.ts), with a recording stand-in for Astro.csp. */
import { describe, expect, it } from 'vitest';
import {
  allowSources,
  allowStripe,
  allowStripeFormRedirect,
  allowWasm,
  remoteOrigin,
  STRIPE_SOURCES,
  type PageCsp,
} from '../../src/lib/csp';
import { contentFrameOrigins } from '../../src/lib/content-csp';

/** What a page asked Astro.csp for. */
function recordingCsp() {
  const calls: string[] = [];
  const csp = {
    insertDirective: (directive: string) => calls.push(`directive ${directive}`),
    insertScriptResource: (resource: unknown) => calls.push(`script ${String(resource)}`),
  } as unknown as NonNullable<PageCsp>;
  return { csp, calls };
}

describe('remoteOrigin', () => {
  it('gives the origin of an http(s) URL and nothing for a site path, data: or garbage', () => {
    expect(remoteOrigin('https://docs.google.com/presentation/d/x/embed?start=false')).toBe('https://docs.google.com');
    expect(remoteOrigin(' https://img.exemple.fr:8443/a.jpg ')).toBe('https://img.exemple.fr:8443');
    expect(remoteOrigin('/contenu/schema/index.html')).toBeUndefined();
    expect(remoteOrigin('data:image/png;base64,AAAA')).toBeUndefined();
    expect(remoteOrigin('https://')).toBeUndefined();
    expect(remoteOrigin('')).toBeUndefined();
  });
});

describe('contentFrameOrigins', () => {
  it('collects the origins of the iframes the sanitiser keeps, never of pictures (served from the site)', () => {
    const documents = [
      {
        liens: [
          {
            titre: 'Don',
            href: 'https://ailleurs.fr/page',
            picto: { src: 'https://pictos.exemple.fr/coeur.svg', alt: '' },
          },
        ],
      },
      { schema: { src: 'https://docs.google.com/embed' } },
      {
        titre: 'Course',
        img: { src: 'https://photos.exemple.org/a.jpg', alt: '' },
        picto: { src: '', alt: '' },
        imgContenu: { src: '/contenu/local.jpg' },
        contenu:
          '<p><img src="https://photos.exemple.org/b.jpg"><img src="https://autres.exemple.net/c.jpg"></p>' +
          '<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe>' +
          '<iframe src="https://pistage.exemple.com/x"></iframe>',
      },
    ];
    expect(contentFrameOrigins(documents)).toEqual(['https://www.youtube-nocookie.com']);
  });

  it('finds nothing remote in local content', () => {
    expect(contentFrameOrigins([{ img: { src: '/contenu/a.svg', alt: '' }, contenu: '<p>Texte</p>' }])).toEqual([]);
  });
});

describe('what pages add with Astro.csp', () => {
  it('adds sources to one directive, once each, and nothing for an empty list or without a policy (astro dev)', () => {
    const { csp, calls } = recordingCsp();
    allowSources(csp, 'frame-src', ['https://a.fr', 'https://a.fr', 'https://b.fr']);
    allowSources(csp, 'img-src', []);
    allowSources(undefined, 'img-src', ['https://a.fr']);
    expect(calls).toEqual(['directive frame-src https://a.fr https://b.fr']);
  });

  it("allows Stripe's script, frames and API", () => {
    const { csp, calls } = recordingCsp();
    allowStripe(csp);
    expect(calls).toEqual([
      ...STRIPE_SOURCES.script.map((source) => `script ${source}`),
      `directive frame-src ${STRIPE_SOURCES.frame.join(' ')}`,
      `directive connect-src ${STRIPE_SOURCES.connect.join(' ')}`,
    ]);
  });

  it('lets a form follow its redirect to Stripe’s hosted page (form-action)', () => {
    const { csp, calls } = recordingCsp();
    allowStripeFormRedirect(csp);
    expect(calls).toEqual(['directive form-action https://checkout.stripe.com']);
  });

  it("lets a page run WebAssembly with 'wasm-unsafe-eval', never 'unsafe-eval'", () => {
    const { csp, calls } = recordingCsp();
    allowWasm(csp);
    expect(calls).toEqual(["script 'wasm-unsafe-eval'"]);
  });
});
