/**
 * The frame of every mail (react-email): French, its title as the document's <title> and its <h1>, one column of at
 * most 600 pixels, the association's name on top, its address and the reason for the mail at the bottom; a mail is
 * as accessible as a page (headings, lists, link texts that say where they go: tests/unit/mail-accessibility.test.ts).
 * Colours are the site's tokens (src/styles/tokens.css): ink on white ≈ 14:1, white on teal ≈ 9:1, muted on cream ≈
 * 7:1.
 */
import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';

/** Who sends: the association's name, postal address lines and site (an https origin, `https://exemple.org`). */
export interface MailIdentity {
  name: string;
  addressLines: string[];
  siteUrl: string;
}

/** The site's colours (tokens.css). */
export const COLORS = {
  ink: '#1d2b33',
  muted: '#4a5a63',
  teal: '#0b4f5c',
  cream: '#fffaf0',
  sun: '#f6b93b',
  border: '#c9d3d6',
} as const;

const FONT = "'Atkinson Hyperlegible Next', 'Atkinson Hyperlegible', Verdana, Arial, sans-serif";

/** Body text: 18 pixels, line height 1.5. */
export const paragraph: CSSProperties = { fontSize: '18px', lineHeight: '27px', margin: '0 0 16px', color: COLORS.ink };

/** A block that stands out (a reference number): teal on light teal ≈ 8:1. */
export const highlight: CSSProperties = {
  ...paragraph,
  backgroundColor: '#e3f1f0',
  borderRadius: '8px',
  padding: '12px 16px',
  color: COLORS.teal,
};

/** The one action of a mail: a link drawn as a button, 48 pixels high, white on teal. */
export const button: CSSProperties = {
  backgroundColor: COLORS.teal,
  color: '#ffffff',
  fontSize: '18px',
  fontWeight: 700,
  lineHeight: '24px',
  borderRadius: '999px',
  padding: '12px 24px',
  textDecoration: 'none',
  display: 'inline-block',
};

/** A text link: teal, underlined. */
export const link: CSSProperties = { color: COLORS.teal, textDecoration: 'underline' };

/** A section's heading (an <h2>): 20 pixels, bold. */
export const subheading: CSSProperties = {
  fontSize: '20px',
  lineHeight: '26px',
  fontWeight: 700,
  margin: '24px 0 8px',
  color: COLORS.ink,
};

/** A list (numbered steps): body text, its markers inside the column. */
export const list: CSSProperties = { ...paragraph, paddingLeft: '28px' };

/** A list's item. */
export const listItem: CSSProperties = { margin: '0 0 8px' };

interface Props {
  /** The line mail clients show after the subject. */
  preview: string;
  /** The mail's heading. */
  title: string;
  identity: MailIdentity;
  /** Why this person gets this mail, at the bottom. */
  reason: string;
  children: ReactNode;
}

/** The frame around `children`. */
export function MailLayout({ preview, title, identity, reason, children }: Props) {
  return (
    <Html lang="fr" dir="ltr">
      <Head>
        <title>{title}</title>
        <meta name="color-scheme" content="light" />
        <meta name="supported-color-schemes" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: COLORS.cream, margin: 0, padding: '24px 12px', fontFamily: FONT }}>
        <Container style={{ maxWidth: '600px', margin: '0 auto' }}>
          <Text style={{ ...paragraph, color: COLORS.teal, fontWeight: 700, fontSize: '20px', margin: '0 0 16px' }}>
            {identity.name}
          </Text>
          <Section
            style={{
              backgroundColor: '#ffffff',
              border: `1px solid ${COLORS.border}`,
              borderRadius: '16px',
              padding: '24px',
            }}
          >
            <Heading as="h1" style={{ fontSize: '26px', lineHeight: '32px', margin: '0 0 20px', color: COLORS.ink }}>
              {title}
            </Heading>
            {children}
          </Section>
          <Hr style={{ borderColor: COLORS.border, margin: '24px 0 16px' }} />
          <Text style={{ ...paragraph, fontSize: '16px', lineHeight: '24px', color: COLORS.muted }}>
            {identity.name}
            {identity.addressLines.map((line) => (
              <span key={line}>
                <br />
                {line}
              </span>
            ))}
            <br />
            Notre site&nbsp;:{' '}
            <Link href={identity.siteUrl} style={link}>
              {identity.siteUrl.replace(/^https?:\/\//, '')}
            </Link>
          </Text>
          <Text style={{ ...paragraph, fontSize: '16px', lineHeight: '24px', color: COLORS.muted }}>{reason}</Text>
        </Container>
      </Body>
    </Html>
  );
}
