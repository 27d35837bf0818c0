/**
 * The family's news when the admissions team moves a request to a status it chose to announce (STATUS_MAIL_TEXTS):
 * neutral words, the child's first name and the reference only: never what the parents wrote (`infos`), the phone, the
 * team's log or a date of birth.
 */
import { Text } from '@react-email/components';
import { highlight, MailLayout, paragraph, type MailIdentity } from '../mail/templates/MailLayout';

/** The statuses whose change the team may announce to the family. */
export type AnnouncedStatus = 'visite-prevue' | 'acceptee' | 'liste-attente' | 'refusee';

/** « de Léa », « d’Inès », « de votre enfant »: French elides « de » before a vowel or a mute h. */
export function ofChild(child: string): string {
  return /^[aeiouyhàâäéèêëîïôöùûüÿæœ]/iu.test(child) ? `d’${child}` : `de ${child}`;
}

/** Each announced status's title and paragraphs, for `child` (a first name, or « votre enfant »). */
export const STATUS_MAIL_TEXTS: Record<AnnouncedStatus, (child: string) => { title: string; body: string[] }> = {
  'visite-prevue': (child) => ({
    title: `Une rencontre est prévue pour la demande ${ofChild(child)}`,
    body: [
      `L’équipe des admissions souhaite vous rencontrer, avec ${child}, pour faire connaissance.`,
      'Elle vous contacte pour convenir ensemble du jour et de l’heure, si ce n’est pas déjà fait.',
    ],
  }),
  acceptee: (child) => ({
    title: `Une place est proposée à ${child}`,
    body: [
      `Après l’étude de votre demande, nous pouvons proposer une place à ${child} à l’école.`,
      'L’équipe des admissions vous contacte pour les prochaines étapes de l’inscription.',
    ],
  }),
  'liste-attente': (child) => ({
    title: `La demande ${ofChild(child)} est sur liste d’attente`,
    body: [
      `Nous ne pouvons pas proposer de place à ${child} pour le moment : votre demande est inscrite sur notre liste ` +
        'd’attente.',
      'Nous vous recontactons dès qu’une place se libère.',
    ],
  }),
  refusee: (child) => ({
    title: `Notre réponse à la demande ${ofChild(child)}`,
    body: [
      `Après l’étude de votre demande, nous ne pouvons malheureusement pas proposer de place à ${child}.`,
      'Si vous le souhaitez, l’équipe des admissions peut en parler avec vous : répondez simplement à ce message.',
    ],
  }),
};

/** True for a status whose change may be announced. */
export function isAnnouncedStatus(status: string): status is AnnouncedStatus {
  return Object.hasOwn(STATUS_MAIL_TEXTS, status);
}

/**
 * The mail: `status`'s texts for `childFirstName` (a name checked by the caller; « votre enfant » without), greeting
 * `parentFirstName`, the `reference` (« 4829 1375 »); `decision` adds when the request's details are deleted.
 */
export function StatusChangeMail(props: {
  identity: MailIdentity;
  status: AnnouncedStatus;
  parentFirstName?: string;
  childFirstName?: string;
  reference: string;
  decision: boolean;
}) {
  const { identity, parentFirstName } = props;
  const { title, body } = STATUS_MAIL_TEXTS[props.status](props.childFirstName ?? 'votre enfant');
  const reference = props.reference.replaceAll(' ', '\u00a0');
  return (
    <MailLayout
      identity={identity}
      preview={`Des nouvelles de votre demande de pré-inscription (référence ${reference}).`}
      title={title}
      reason={
        'Vous recevez ce message parce que vous avez fait une demande de pré-inscription sur notre site. ' +
        'Pour protéger la vie privée de votre enfant, il ne reprend pas ce que vous nous avez écrit sur lui.'
      }
    >
      <Text style={paragraph}>{parentFirstName ? `Bonjour ${parentFirstName},` : 'Bonjour,'}</Text>
      {body.map((line) => (
        <Text key={line} style={paragraph}>
          {line}
        </Text>
      ))}
      <Text style={highlight}>
        Votre numéro de référence&nbsp;: <strong>{reference}</strong>
        <br />
        Donnez-le quand vous nous écrivez ou nous appelez.
      </Text>
      {props.decision && (
        <Text style={paragraph}>
          Comme le dit notre politique de confidentialité, les informations de votre demande seront effacées un an après
          cette décision.
        </Text>
      )}
      <Text style={paragraph}>
        Pour toute question, répondez simplement à ce message.
        <br />
        À bientôt,
        <br />
        {identity.name}
      </Text>
    </MailLayout>
  );
}
