/** The newsletter's confirmation mail (double opt-in): one button to the site's confirmation page, and the way out. */
import { Button, Link, Text } from '@react-email/components';
import { button, link, MailLayout, paragraph, type MailIdentity } from '../mail/templates/MailLayout';
import { withDe } from '../../lib/french-articles';

/** `confirmUrl` leads to the page whose button confirms; `unsubscribeUrl` to the one that unsubscribes. */
export function NewsletterConfirmation(props: { identity: MailIdentity; confirmUrl: string; unsubscribeUrl: string }) {
  const { identity, confirmUrl, unsubscribeUrl } = props;
  return (
    <MailLayout
      identity={identity}
      preview="Un clic pour confirmer : sans confirmation, vous ne recevrez rien."
      title="Confirmez votre inscription à la lettre d’information"
      reason={
        'Vous recevez ce message parce que cette adresse a été saisie ' +
        'dans le formulaire « Lettre d’information » de notre site.'
      }
    >
      <Text style={paragraph}>Bonjour,</Text>
      <Text style={paragraph}>
        Quelqu’un, sans doute vous, a demandé à recevoir la lettre d’information {withDe(identity.name)} à cette adresse
        : une à deux lettres par mois sur la vie de l’école, nos besoins et nos fêtes.
      </Text>
      <Text style={paragraph}>Pour confirmer, ouvrez la page ci-dessous et appuyez sur son bouton.</Text>
      <Button href={confirmUrl} style={button}>
        Confirmer mon inscription
      </Button>
      <Text style={{ ...paragraph, margin: '24px 0 16px' }}>
        Si vous n’êtes pas à l’origine de cette demande, ignorez ce message&nbsp;: sans confirmation, vous ne recevrez
        aucune lettre.
      </Text>
      <Text style={paragraph}>
        Vous changez d’avis&nbsp;?{' '}
        <Link href={unsubscribeUrl} style={link}>
          Se désinscrire
        </Link>{' '}
        : un clic suffit, à tout moment.
      </Text>
    </MailLayout>
  );
}
