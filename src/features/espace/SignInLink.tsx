/** The space's sign-in link: a button to the site's page that signs the staff member in, and what to do if unasked. */
import { Button, Text } from '@react-email/components';
import { button, MailLayout, paragraph, type MailIdentity } from '../mail/templates/MailLayout';
import { withDe } from '../../lib/french-articles';

/** `signInUrl` leads to the page whose button signs in; `validity` says how long it works (« une heure »). */
export function SignInLink(props: { identity: MailIdentity; signInUrl: string; validity: string }) {
  const { identity, signInUrl, validity } = props;
  return (
    <MailLayout
      identity={identity}
      preview={`Votre lien de connexion à l’espace de l’association, valable ${props.validity}.`}
      title="Votre lien de connexion à l’espace de l’association"
      reason="Vous recevez ce message parce que cette adresse a demandé un lien de connexion sur notre site."
    >
      <Text style={paragraph}>Bonjour,</Text>
      <Text style={paragraph}>
        Pour entrer dans l’espace {withDe(identity.name)} sans mot de passe, ouvrez la page ci-dessous et appuyez sur
        son bouton. Le lien sert une seule fois et reste valable {validity}.
      </Text>
      <Button href={signInUrl} style={button}>
        Me connecter à l’espace
      </Button>
      <Text style={{ ...paragraph, margin: '24px 0 16px' }}>
        Si vous n’avez rien demandé, ignorez ce message&nbsp;: personne ne peut se connecter sans ce lien. Ne le
        transférez à personne.
      </Text>
    </MailLayout>
  );
}
