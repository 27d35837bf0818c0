/**
 * The two mails of a pre-registration: the parent's acknowledgement (the child's first name and the reference,
 * never the health notes nor the family name) and the staff's notice (the reference and a link, no personal data).
 */
import { Button, Heading, Link, Text } from '@react-email/components';
import {
  button,
  highlight,
  link,
  list,
  listItem,
  MailLayout,
  paragraph,
  subheading,
  type MailIdentity,
} from '../mail/templates/MailLayout';

/**
 * The parent's acknowledgement: `parentFirstName` and `childFirstName` (names only: the caller checks; without them
 * « Bonjour, » and « votre enfant »), `reference` (« 4829 1375 »), `replyTo` shown.
 */
export function PreRegistrationAck(props: {
  identity: MailIdentity;
  parentFirstName?: string;
  childFirstName?: string;
  reference: string;
  replyTo?: string;
}) {
  const { identity, parentFirstName, replyTo } = props;
  const childFirstName = props.childFirstName ?? 'votre enfant';
  // Never cut across two lines.
  const reference = props.reference.replaceAll(' ', '\u00a0');
  return (
    <MailLayout
      identity={identity}
      preview={`Votre référence : ${reference}. Ce qui se passe maintenant, et comment corriger ou retirer la demande.`}
      title={`Nous avons bien reçu la pré-inscription de ${childFirstName}`}
      reason={
        'Vous recevez ce message parce que cette adresse a été saisie ' +
        'dans le formulaire de pré-inscription de notre site. ' +
        'Si ce n’est pas vous, répondez-nous : nous effacerons la demande.'
      }
    >
      <Text style={paragraph}>{parentFirstName ? `Bonjour ${parentFirstName},` : 'Bonjour,'}</Text>
      <Text style={paragraph}>
        Merci de votre confiance. Votre demande de pré-inscription pour {childFirstName} est bien enregistrée.
      </Text>
      <Text style={highlight}>
        Votre numéro de référence&nbsp;: <strong>{reference}</strong>
        <br />
        Donnez-le quand vous nous écrivez ou nous appelez&nbsp;: il suffit pour retrouver votre demande.
      </Text>
      <Heading as="h2" style={subheading}>
        Et maintenant&nbsp;?
      </Heading>
      <ol style={list}>
        <li style={listItem}>L’équipe des admissions lit votre demande.</li>
        <li style={listItem}>Elle vous recontacte pour convenir d’une rencontre avec vous et {childFirstName}.</li>
        <li style={listItem}>Après cette rencontre, elle vous dit si une place peut vous être proposée.</li>
      </ol>
      <Heading as="h2" style={subheading}>
        Corriger ou retirer votre demande
      </Heading>
      <Text style={paragraph}>
        Répondez simplement à ce message{replyTo ? ` (ou écrivez à ${replyTo})` : ''} en indiquant votre référence{' '}
        {reference}. Si vous retirez la demande, nous effaçons les informations que vous nous avez confiées.
      </Text>
      <Text style={paragraph}>
        Pour protéger la vie privée de votre enfant, ce message ne reprend pas ce que vous nous avez écrit sur lui.
      </Text>
      <Text style={paragraph}>
        À bientôt,
        <br />
        {identity.name}
      </Text>
      <Button href={`${identity.siteUrl}/ecole`} style={button}>
        Découvrir l’école
      </Button>
    </MailLayout>
  );
}

/** The staff's notice: the `reference`, when (`receivedAt`, French text) and where to read it; no personal data. */
export function PreRegistrationNotice(props: { identity: MailIdentity; reference: string; receivedAt: string }) {
  const { identity, receivedAt } = props;
  const reference = props.reference.replaceAll(' ', '\u00a0');
  return (
    <MailLayout
      identity={identity}
      preview={`Référence ${reference}, reçue le ${receivedAt}.`}
      title="Nouvelle demande de pré-inscription"
      reason={
        'Avis automatique du site, envoyé à l’adresse de l’équipe de l’association. ' +
        'Il ne contient aucune donnée personnelle : les informations de la famille ' +
        'restent dans l’espace de l’association.'
      }
    >
      <Text style={paragraph}>Une nouvelle demande de pré-inscription est arrivée le {receivedAt}.</Text>
      <Text style={highlight}>
        Référence&nbsp;: <strong>{reference}</strong>
      </Text>
      <Text style={paragraph}>
        Pour la lire, connectez-vous à l’espace de l’association (rôle admissions), page «&nbsp;Préinscriptions&nbsp;» :
        la demande porte la référence {reference}. La famille a reçu un accusé de réception avec cette même référence.
      </Text>
      <Text style={paragraph}>
        <Link href={`${identity.siteUrl}/espace/preinscriptions`} style={link}>
          Lire les pré-inscriptions dans l’espace de l’association
        </Link>
      </Text>
    </MailLayout>
  );
}
