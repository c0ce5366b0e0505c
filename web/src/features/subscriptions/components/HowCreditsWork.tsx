import { CREDIT_RULES } from '../credits';

/** The rules of SPEC sections 1 and 9, as a short list. */
export function HowCreditsWork({ headingLevel = 'h3' }: { readonly headingLevel?: 'h3' | 'h4' }) {
  const Heading = headingLevel;
  return (
    <ul className="credit-rules">
      {CREDIT_RULES.map((rule) => (
        <li key={rule.title} className="credit-rules__item">
          <Heading className="credit-rules__title">{rule.title}</Heading>
          <p className="muted">{rule.text}</p>
        </li>
      ))}
    </ul>
  );
}
