/**
 * The bureau's invitation to the space: the role it opens and what it is for, a button to the site's sign-in-by-link
 * page, how long the link works and how to get another, and that a password can be chosen once inside.
 */
import { Button, Link, Text } from '@react-email/components';
import { withDe } from '../../lib/french-articles';
import { button, link, MailLayout, paragraph, type MailIdentity } from '../mail/templates/MailLayout';

/**
 * `name`: the person's name if the bureau gave one (only a name: isPersonName); `role` and `roleText`: the role's
 * French name and what it opens; `signInUrl`: the link's page (`/espace/connexion/lien?code=…`); `validity`: how long
 * it works (« une heure »); `newLinkUrl`: the page that mails a new link.
 */
export function InvitationMail(props: {
  identity: MailIdentity;
  name?: string | undefined;
  role: string;
  roleText: string;
  signInUrl: string;
  validity: string;
  newLinkUrl: string;
}) {
  const { identity, name, role, roleText, signInUrl, validity, newLinkUrl } = props;
  const space = `l’espace ${withDe(identity.name)}`;
  return (
    <MailLayout
      identity={identity}
      preview={`Le bureau vous invite dans ${space}, avec le rôle « ${role} ».`}
      title="Votre invitation à l’espace de l’association"
      reason="Vous recevez ce message parce que le bureau de l’association vous a invité dans son espace."
    >
      <Text style={paragraph}>{name ? `Bonjour ${name},` : 'Bonjour,'}</Text>
      <Text style={paragraph}>
        Le bureau vous invite dans {space}, avec le rôle «&nbsp;{role}&nbsp;»&nbsp;: {roleText}.
      </Text>
      <Text style={paragraph}>
        Pour entrer, ouvrez la page ci-dessous, confirmez votre adresse email et appuyez sur «&nbsp;Me connecter&nbsp;».
        Le lien sert une seule fois et reste valable {validity}.
      </Text>
      <Button href={signInUrl} style={button}>
        Accepter l’invitation
      </Button>
      <Text style={{ ...paragraph, margin: '24px 0 16px' }}>
        Une fois dans l’espace, choisissez un mot de passe dans «&nbsp;Mon compte&nbsp;», ou continuez à vous connecter
        par un lien envoyé par email&nbsp;: les deux marchent.
      </Text>
      <Text style={paragraph}>
        Lien expiré ou déjà utilisé&nbsp;?{' '}
        <Link href={newLinkUrl} style={link}>
          Demandez un nouveau lien de connexion
        </Link>{' '}
        avec cette adresse email.
      </Text>
      <Text style={paragraph}>
        Si vous ne connaissez pas l’association, ignorez ce message&nbsp;: personne ne peut se connecter sans ce lien.
        Ne le transférez à personne.
      </Text>
    </MailLayout>
  );
}
