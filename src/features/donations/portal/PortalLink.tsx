/**
 * The link a monthly donor asked for on /soutenir/gerer: one button to the page that opens Stripe's customer portal
 * (change the amount, the card, or stop), valid one hour, once.
 */
import { Button, Link, Text } from '@react-email/components';
import { button, highlight, link, MailLayout, paragraph, type MailIdentity } from '../../mail/templates/MailLayout';
import { withA } from '../../../lib/french-articles';

/** `linkUrl`: the site's /soutenir/gerer/lien?jeton=… (a page whose button opens the portal: scanners open nothing). */
export function PortalLink({ identity, linkUrl }: { identity: MailIdentity; linkUrl: string }) {
  const requestPage = `${identity.siteUrl}/soutenir/gerer`;
  return (
    <MailLayout
      identity={identity}
      preview="Changez le montant, la carte ou arrêtez votre don : le lien est valable une heure."
      title="Gérer votre don mensuel"
      reason={
        'Vous recevez ce message parce que quelqu’un a demandé, sur notre site, à gérer le don mensuel lié à cette ' +
        'adresse. Si ce n’est pas vous, ignorez-le : rien ne change sans ce lien.'
      }
    >
      <Text style={paragraph}>Bonjour,</Text>
      <Text style={paragraph}>
        Voici le lien pour gérer votre don mensuel {withA(identity.name)}. Il ouvre l’espace sécurisé de notre
        prestataire de paiement, Stripe, où vous pouvez changer le montant, mettre à jour votre carte bancaire,
        retrouver vos paiements ou arrêter votre don.
      </Text>
      <Text style={{ ...paragraph, margin: '24px 0' }}>
        <Button href={linkUrl} style={button}>
          Gérer mon don mensuel
        </Button>
      </Text>
      <Text style={highlight}>Ce lien est valable une heure et ne sert qu’une fois.</Text>
      <Text style={paragraph}>
        Lien expiré ou déjà utilisé&nbsp;? Demandez-en un nouveau sur la page{' '}
        <Link href={requestPage} style={link}>
          «&nbsp;Gérer mon don mensuel&nbsp;» de notre site
        </Link>
        . Une question&nbsp;? Répondez simplement à ce message.
      </Text>
    </MailLayout>
  );
}
