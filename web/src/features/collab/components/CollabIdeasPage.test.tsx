import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, shellRoutes } from '@/testing/api-mock';
import { renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import type { CollabIdea, CollabList } from '../api/collab';

function idea(slug: string, title: string, effort: CollabIdea['effort'], benefits: string[]): CollabIdea {
  return {
    slug,
    title,
    image: `/collab/${slug}.svg`,
    effort,
    benefits,
    content: `A short intro to ${title}.\n\n### When it works\n- Your audiences **overlap**\n\n### Step by step\n1. Agree the dates\n2. Announce it`,
    examples: [{ image: `/collab/examples/${slug}.svg` }],
    example_title: `A candle brand and a tea brand ran a ${title.toLowerCase()}.`,
    template_info: `Hi [name], shall we try a ${title.toLowerCase()}?`,
  };
}

const LIST = {
  ideas: [
    idea('joint-giveaway', 'Joint giveaway', 'minimal', ['audience', 'followers']),
    idea('newsletter-swap', 'Newsletter swap', 'minimal', ['audience']),
    idea('co-branded-product', 'Co-branded product', 'maximum', ['sales', 'press']),
  ],
  benefits: { audience: 'Reach a new audience', followers: 'Grow followers', sales: 'Sales', press: 'Press coverage' },
  efforts: { minimal: 'Minimal effort', some: 'Some effort', maximum: 'Maximum effort' },
  total: 26,
} satisfies CollabList;

function open(path = '/inspiration') {
  signIn();
  const api = mockApi({ ...shellRoutes(), 'GET collab': LIST });
  return { api, ...renderRoute(path) };
}

const titles = () =>
  within(screen.getByRole('list', { name: 'Collab ideas' }))
    .getAllByRole('heading', { level: 2 })
    .map((h) => h.textContent);

/** Filters and the open idea change the address; the page follows once the navigation ends. */
async function shows(expected: string[]) {
  await waitFor(() => {
    expect(titles()).toEqual(expected);
  });
}

describe('CollabIdeasPage', () => {
  it('lists every idea with its effort and benefits, from one call', async () => {
    const { api } = open();
    const list = await screen.findByRole('list', { name: 'Collab ideas' });
    expect(titles()).toEqual(['Joint giveaway', 'Newsletter swap', 'Co-branded product']);
    expect(within(list).getAllByText('Minimal effort')).toHaveLength(2);
    expect(within(list).getAllByText('Reach a new audience')).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent('3 ideas');
    expect(screen.getByRole('link', { name: 'Ideas' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls('GET collab')).toHaveLength(1);
  });

  it('filters by effort and by benefit, keeps the filters in the address, and can clear them', async () => {
    const { user, router, api } = open('/inspiration/ideas');
    await screen.findByRole('list', { name: 'Collab ideas' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Effort' }), 'Minimal effort');
    await shows(['Joint giveaway', 'Newsletter swap']);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 3 ideas');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Good for' }), 'Grow followers');
    await shows(['Joint giveaway']);
    expect(router.state.location.search).toBe('?effort=minimal&benefit=followers');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Effort' }), 'Maximum effort');
    expect(await screen.findByRole('heading', { name: 'No idea matches both filters' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all ideas' }));
    await shows(['Joint giveaway', 'Newsletter swap', 'Co-branded product']);
    expect(api.calls('GET collab')).toHaveLength(1); // filtering asks nothing more
  });

  it('opens an idea in a popup with its guide, example and a template to copy', async () => {
    const { user, router } = open('/inspiration/ideas?effort=minimal');
    await user.click(await screen.findByRole('button', { name: 'Newsletter swap' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Newsletter swap' }));
    expect(router.state.location.search).toBe('?effort=minimal&idea=newsletter-swap');
    expect(dialog.getByRole('heading', { name: 'When it works' })).toBeInTheDocument();
    expect(dialog.getByText('overlap', { selector: 'strong' })).toBeInTheDocument();
    expect(dialog.getAllByRole('listitem').map((li) => li.textContent)).toContain('Agree the dates');
    expect(dialog.getByText('A candle brand and a tea brand ran a newsletter swap.')).toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: 'Copy template' }));
    await expect(navigator.clipboard.readText()).resolves.toBe('Hi [name], shall we try a newsletter swap?');
    expect(dialog.getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    await user.click(dialog.getByRole('button', { name: 'Close' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(router.state.location.search).toBe('?effort=minimal');
  });

  it('ignores a filter the list does not know (an old link) and says when the list cannot load', async () => {
    signIn();
    mockApi({ ...shellRoutes(), 'GET collab': new Response(JSON.stringify({ error: 'Something broke' }), { status: 500 }) });
    renderRoute('/inspiration?effort=huge');
    expect(await screen.findByText("We couldn't load the collab ideas")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
