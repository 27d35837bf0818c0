/**
 * A letter as its subscribers receive it (react-email): the subject as its heading, the editors' text (already made
 * fit for a mail by letterBodyHtml: inline styles, absolute links), then the way out, one click, with the
 * subscriber's own link.
 */
import { Link, Text } from '@react-email/components';
import { withDe } from '../../lib/french-articles';
import { link, MailLayout, paragraph, type MailIdentity } from '../mail/templates/MailLayout';

/** `bodyHtml` is trusted (letterBodyHtml's output); `unsubscribeUrl` the subscriber's own link; `preview` text. */
export function LetterMail(props: {
  identity: MailIdentity;
  subject: string;
  preview: string;
  bodyHtml: string;
  unsubscribeUrl: string;
}) {
  const { identity, subject, preview, bodyHtml, unsubscribeUrl } = props;
  return (
    <MailLayout
      identity={identity}
      preview={preview}
      title={subject}
      reason={
        'Vous recevez ce message parce que cette adresse est inscrite, après confirmation, à la lettre ' +
        `d’information ${withDe(identity.name)}.`
      }
    >
      <div dangerouslySetInnerHTML={{ __html: bodyHtml }} />
      <Text style={{ ...paragraph, margin: '24px 0 0' }}>
        Vous ne souhaitez plus recevoir cette lettre&nbsp;?{' '}
        <Link href={unsubscribeUrl} style={link}>
          Se désinscrire
        </Link>{' '}
        : un clic suffit.
      </Text>
    </MailLayout>
  );
}
