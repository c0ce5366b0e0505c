import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/Button';
import { PageLoader } from '@/components/ui/PageLoader';
import { collabQuery } from '@/features/collab';
import { connectionListQuery } from '@/features/requests';
import { ApiError, describeError } from '@/lib/api';
import { useSelectedBrand } from '@/lib/session';
import { FORMATS, GOALS, useProposeCollaboration } from '../api/collaborations';
import { InputField, SelectField } from './parts';
import { localToday } from '../format';

/**
 * Plan a collaboration (/collaborations/new): with a connection (?with={brandId}, from its page)
 * or from a collab idea (?idea={slug}: its template and checklist are copied in), proposed to
 * the connection, who accepts, proposes changes or declines.
 */
export function PlanCollaborationPage() {
  const brand = useSelectedBrand();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const connections = useInfiniteQuery(connectionListQuery(brand));
  const ideas = useQuery(collabQuery(brand));
  const propose = useProposeCollaboration(brand);
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [plan, setPlan] = useState({
    otherBrandId: params.get('with') ?? '',
    idea: params.get('idea') ?? '',
    format: 'giveaways',
    title: '',
    bringsMine: '',
    bringsTheirs: '',
    goal: 'reach',
    start: '',
    end: '',
  });
  const set = (name: keyof typeof plan) => (value: string) => { setPlan({ ...plan, [name]: value }); };
  const connected = connections.data?.pages.flatMap((page) => page.items) ?? [];
  const idea = ideas.data?.ideas.find((i) => i.slug === plan.idea);

  if (connections.isPending) return <PageLoader inline />;

  return (
    <div className="collab-page">
      <p className="back-link">
        <Link to="/collaborations">← All collaborations</Link>
      </p>
      <header className="page-header">
        <h1 className="page-title">Plan a collaboration</h1>
        <p className="page-header__lead">
          Propose a plan to one of your connections. They can accept it, propose changes or decline.
        </p>
      </header>
      {connected.length === 0 ? (
        <div className="empty-state">
          <h2 className="empty-state__title">No connections yet</h2>
          <p className="muted">
            You plan collaborations with brands you are connected with. Find one in <Link to="/matches">Matches</Link>.
          </p>
        </div>
      ) : (
        <form
          className="collab-form"
          aria-label="The plan"
          noValidate
          onSubmit={(event: SubmitEvent<HTMLFormElement>) => {
            event.preventDefault();
            setErrors({});
            setFailure(null);
            propose.mutate(
              { ...plan, otherBrandId: Number(plan.otherBrandId), idea: plan.idea || null },
              {
                onSuccess: (made) => void navigate(`/collaborations/${made.id}`),
                onError: (error) => {
                  setFailure(describeError(error));
                  if (error instanceof ApiError) setErrors(error.fieldErrors);
                },
              },
            );
          }}
        >
          {failure && (
            <p className="alert alert--error" role="alert">
              {failure}
            </p>
          )}
          <SelectField
            label="With"
            name="otherBrandId"
            value={plan.otherBrandId}
            onChange={set('otherBrandId')}
            options={[['', 'Choose a connection'], ...connected.map((c) => [String(c.brand.id), c.brand.name] as const)]}
            error={errors.otherBrandId}
          />
          <SelectField
            label="Collab idea"
            name="idea"
            optional
            value={plan.idea}
            onChange={set('idea')}
            options={[['', 'None'], ...(ideas.data?.ideas ?? []).map((i) => [i.slug, i.title] as const)]}
            error={errors.idea}
          />
          {idea && <p className="muted small">Its template and a checklist from it are copied into the plan.</p>}
          <SelectField label="Format" name="format" value={plan.format} onChange={set('format')} options={FORMATS.map((f) => [f, f])} error={errors.format} />
          <InputField label="Title" name="title" value={plan.title} onChange={set('title')} maxLength={120} error={errors.title} />
          <InputField label="What you bring" name="bringsMine" multiline value={plan.bringsMine} onChange={set('bringsMine')} error={errors.bringsMine} />
          <InputField label="What they bring" name="bringsTheirs" multiline value={plan.bringsTheirs} onChange={set('bringsTheirs')} error={errors.bringsTheirs} />
          <SelectField label="Goal" name="goal" value={plan.goal} onChange={set('goal')} options={GOALS.map((g) => [g, g])} error={errors.goal} />
          <InputField label="Start" name="start" type="date" min={localToday()} value={plan.start} onChange={set('start')} error={errors.start} />
          <InputField label="End" name="end" type="date" min={plan.start || localToday()} value={plan.end} onChange={set('end')} error={errors.end} />
          <Button type="submit" busy={propose.isPending}>
            Propose the plan
          </Button>
        </form>
      )}
    </div>
  );
}
