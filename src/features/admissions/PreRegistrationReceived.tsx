/**
 * The pre-registration's confirmation that stays in place of the form: « Pré-inscription reçue », the reference the
 * acknowledgement mail carries (`reference`, null when the answer had none), what the spec's « Vous avez été inscrit »
 * means, the editors' `replyDelay`, what happens next, and a button for another child (`onAnother`). It takes the focus
 * each time `count` changes (a new request received).
 */
import { useId } from 'react';
import { MESSAGES } from '../forms/forms';
import { useFocusOn } from '../forms/FormParts';

export function PreRegistrationReceived(props: {
  reference: string | null;
  count: number;
  replyDelay: string;
  onAnother: () => void;
}) {
  const id = useId();
  const panel = useFocusOn<HTMLDivElement>(props.count);
  return (
    <div ref={panel} className="confirmation" tabIndex={-1} role="group" aria-labelledby={`${id}-received`}>
      <div className="confirmation__panel">
        <h3 id={`${id}-received`}>{MESSAGES.preRegistrationReceived}</h3>
        {props.reference && (
          <p>
            Votre numéro de référence : <strong className="confirmation__reference">{props.reference}</strong>
          </p>
        )}
      </div>
      <p>
        <strong>{MESSAGES.preRegistrationSuccess}.</strong> {MESSAGES.preRegistrationIsRequest} {props.replyDelay}
      </p>
      <h4>Et maintenant ?</h4>
      <ol>
        {MESSAGES.preRegistrationNext.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <button type="button" className="button button--ghost" onClick={props.onAnother}>
        Pré-inscrire un autre enfant
      </button>
    </div>
  );
}
