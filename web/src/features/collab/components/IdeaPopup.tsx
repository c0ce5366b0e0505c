import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/Button';
import { Modal } from '@/components/ui/Modal';
import type { CollabIdea, CollabList } from '../api/collab';
import { useCopyTemplate } from '../api/copy-template';
import { LightMarkdown } from './LightMarkdown';

export interface IdeaPopupProps {
  readonly idea: CollabIdea;
  readonly labels: Pick<CollabList, 'benefits' | 'efforts'>;
  readonly onClose: () => void;
}

/** The collab idea popup (SPEC section 2): the whole idea, an example and a template to copy. */
export function IdeaPopup({ idea, labels, onClose }: IdeaPopupProps) {
  const copy = useCopyTemplate();
  // Copied once stays 'Copied' (a later failed copy is told in its toast).
  const [copied, setCopied] = useState(false);
  return (
    <Modal open title={idea.title} width={1000} onClose={onClose}>
      <article className="idea-detail">
        <img className="idea-detail__image" src={idea.image} alt="" width={320} height={180} />
        <dl className="idea-detail__facts">
          <div>
            <dt>Effort</dt>
            <dd>
              <span className={`effort-chip effort-chip--${idea.effort}`}>{labels.efforts[idea.effort]}</span>
            </dd>
          </div>
          <div>
            <dt>Good for</dt>
            <dd>
              <ul className="benefit-list">
                {idea.benefits.map((key) => (
                  <li key={key} className="benefit-chip">
                    {labels.benefits[key] ?? key}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
        <section aria-labelledby={`${idea.slug}-guide`}>
          <h3 id={`${idea.slug}-guide`} className="visually-hidden">
            The guide
          </h3>
          <LightMarkdown source={idea.content} headingLevel={4} />
        </section>
        <section className="idea-detail__example" aria-labelledby={`${idea.slug}-example`}>
          <h3 id={`${idea.slug}-example`}>For example</h3>
          <p>{idea.example_title}</p>
          {idea.examples.map((example) => (
            <figure key={example.image} className="idea-detail__example-figure">
              <img src={example.image} alt="" width={480} height={270} />
              {example.link &&
                (example.link.startsWith('/') ? (
                  <figcaption>
                    <Link to={example.link}>See the example</Link>
                  </figcaption>
                ) : (
                  <figcaption>
                    <a href={example.link} target="_blank" rel="noopener noreferrer">
                      See the example
                    </a>
                  </figcaption>
                ))}
            </figure>
          ))}
        </section>
        <section className="idea-detail__template" aria-labelledby={`${idea.slug}-template`}>
          <div className="idea-detail__template-head">
            <h3 id={`${idea.slug}-template`}>Template</h3>
            <Button
              variant="secondary"
              onClick={() => {
                copy.mutate(idea.template_info, {
                  onSuccess: () => {
                    setCopied(true);
                  },
                });
              }}
            >
              {copied ? 'Copied' : 'Copy template'}
            </Button>
          </div>
          <p className="muted">Fill in the [brackets] before you send it.</p>
          <p>
            <Link className="button button--primary" to={`/collaborations/new?idea=${encodeURIComponent(idea.slug)}`}>
              Plan this with a connection
            </Link>
          </p>
          <pre className="idea-detail__template-text" tabIndex={0} aria-label="Template text">
            {idea.template_info}
          </pre>
        </section>
      </article>
    </Modal>
  );
}
