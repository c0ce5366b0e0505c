import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { brandProfile, OPTIONS } from '@/features/matches/test-fixtures';
import { mockApi, shellRoutes, type MockAnswer } from '@/testing/api-mock';
import { jsonResponse, renderRoute } from '@/testing/render-route';
import { signIn } from '@/testing/session';
import { LOGO_MAX_BYTES } from '../api/brands';

const UPLOAD_URL = 'https://uploads.example/tandem-assets';

function openBrands(
  path: string,
  routes: Record<string, MockAnswer> = {},
  brands = [brandProfile()],
  user: Parameters<typeof renderRoute>[1] = {},
) {
  signIn();
  const api = mockApi({
    ...shellRoutes(),
    'GET brands': { brands },
    'GET brands/options': OPTIONS,
    ...routes,
  });
  return { ...renderRoute(path, user), api };
}

function file(name: string, type: string, size: number): File {
  const blob = new File(['x'], name, { type });
  Object.defineProperty(blob, 'size', { value: size });
  return blob;
}

const field = (label: string) =>
  screen.getByLabelText(new RegExp(`^${label}( \\(optional\\))?$`), { selector: 'input,select,textarea' });

describe('Brands page', () => {
  it('lists the brands with Edit, Preview and what is missing for matching', async () => {
    const { user, router } = openBrands('/account/brands', {}, [
      brandProfile(),
      brandProfile({ id: 2, name: 'Bean Bros', category: '', values: [], hideName: true }),
    ]);
    const list = within(await screen.findByRole('list', { name: 'Your brands' }));
    expect(list.getByText('Name hidden in Matches', { exact: false })).toBeInTheDocument();
    expect(list.getByText('Add a category, your values for better matches.')).toBeInTheDocument();
    expect(list.getByRole('link', { name: 'Preview Bean Bros' })).toHaveAttribute('href', '/brand/2');
    await user.click(list.getByRole('button', { name: 'Edit Bean Bros' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Bean Bros' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?brand=2');
    expect(field('Brand name')).toHaveValue('Bean Bros');
    expect(screen.getByRole('switch', { name: 'Hide my brand name in Matches' })).toBeChecked();
  });

  it('checks the form before sending: required fields, URL and email rules', async () => {
    const { user, api } = openBrands('/account/brands?brand=new');
    await user.type(await screen.findByLabelText('Website (optional)'), 'http://oat.example');
    await user.type(field('Instagram'), 'instagram.com/oat');
    await user.type(field('Contact email'), 'ana@');
    await user.type(field('Contact phone'), '12 34');
    await user.click(screen.getByRole('button', { name: 'Add brand' }));

    expect(await screen.findByText('Please check the highlighted fields')).toBeInTheDocument();
    expect(field('Contact phone')).toHaveAccessibleDescription('Invalid phone number');
    expect(field('Brand name')).toHaveAccessibleDescription('This field is required');
    expect(field('Category')).toHaveAccessibleDescription('This field is required');
    expect(field('Website')).toHaveAccessibleDescription('Must start with https://');
    expect(field('Instagram')).toHaveAccessibleDescription('Must start with https://');
    expect(field('Contact email')).toHaveAccessibleDescription('Invalid email');
    expect(api.calls('POST brands')).toHaveLength(0);
    await waitFor(() => {
      expect(field('Brand name')).toHaveFocus();
    });
  });

  it('shows the server’s field errors on their fields, and saves nothing', async () => {
    const { user } = openBrands('/account/brands?brand=new', {
      'POST brands': jsonResponse(
        {
          error: 'Please check the highlighted fields',
          errors: {
            name: 'Must be 80 characters or fewer',
            'contact.phone': 'Invalid phone number',
            'audience.countries': 'Not one of the options: XX',
            somethingElse: 'A problem we have no field for',
          },
        },
        400,
      ),
    });
    await user.type(await screen.findByLabelText('Brand name'), 'Oat');
    await user.selectOptions(field('Category'), 'beauty');
    await user.type(field('Contact phone'), '+44 20 7946 0958');
    await user.click(screen.getByRole('button', { name: 'Add brand' }));

    expect(await screen.findByText('Invalid phone number')).toBeInTheDocument();
    expect(field('Brand name')).toHaveAccessibleDescription('Must be 80 characters or fewer');
    expect(field('Contact phone')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('group', { name: 'Countries (optional)' })).toHaveAccessibleDescription('Not one of the options: XX');
    expect(screen.getByText('A problem we have no field for')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Add a brand' })).toBeInTheDocument();
  });

  it('refuses a logo of the wrong type or over 2 MB before uploading anything', async () => {
    const { user, api } = openBrands('/account/brands?brand=1', {}, undefined, { user: { applyAccept: false } });
    const input = await screen.findByLabelText('Logo (optional)');
    await user.upload(input, file('logo.gif', 'image/gif', 1000));
    expect(await screen.findByText('Choose a PNG, JPEG or WebP image.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.upload(input, file('big.png', 'image/png', LOGO_MAX_BYTES + 1024 * 1024));
    expect(await screen.findByText('The logo must be 2 MB or smaller; this file is 3.0 MB.')).toBeInTheDocument();
    expect(api.requests.some((request) => request.path.includes('logo'))).toBe(false);
  });

  it('adds a brand with its logo: presigned POST, upload, logoKey; asks for the dashboard again', async () => {
    const created = brandProfile({ id: 5, name: 'Fig Tree', category: 'beauty' });
    const { user, api } = openBrands('/account/brands?brand=new', {
      'POST brands': jsonResponse({ brand: created, runId: 'run5' }, 201),
      'POST brands/5/logo': { url: UPLOAD_URL, fields: { key: 'logos/5/abc.png', policy: 'p' }, key: 'logos/5/abc.png', maxBytes: LOGO_MAX_BYTES },
      [`POST ${UPLOAD_URL}`]: new Response(null, { status: 204 }),
      'PUT brands/5': { brand: { ...created, logoUrl: 'https://cdn.example/logos/5/abc.png' }, runId: null },
    });
    await user.type(await screen.findByLabelText('Brand name'), 'Fig Tree');
    await user.selectOptions(field('Category'), 'beauty');
    await user.selectOptions(field('Audience size'), '1K-10K');
    await user.click(screen.getByRole('checkbox', { name: '25-34' }));
    await user.type(screen.getByRole('searchbox', { name: 'Find a country' }), 'king');
    await user.click(screen.getByRole('checkbox', { name: 'United Kingdom' }));
    await user.click(screen.getByRole('checkbox', { name: 'newsletter swaps' }));
    await user.upload(screen.getByLabelText('Logo (optional)'), file('fig.png', 'image/png', 2000));
    await user.click(screen.getByRole('button', { name: 'Add brand' }));

    expect(await screen.findByText('Fig Tree is added')).toBeInTheDocument();
    expect(api.calls('POST brands')[0]?.body).toMatchObject({
      name: 'Fig Tree',
      category: 'beauty',
      audienceSize: '1K-10K',
      audience: { ageBands: ['25-34'], genders: [], countries: ['GB'] },
      collabKinds: ['newsletter swaps'],
      website: null,
      hideName: false,
    });
    expect(api.calls('POST brands/5/logo')[0]?.body).toEqual({ contentType: 'image/png', size: 2000 });
    expect(api.calls('POST brands/5/logo')[0]?.headers.get('X-Brand-Id')).toBe('5');
    const upload = api.fetchMock.mock.calls.find(([url]) => url === UPLOAD_URL);
    const form = upload?.[1]?.body as FormData;
    expect(form.get('key')).toBe('logos/5/abc.png');
    expect(form.get('file')).toBeInstanceOf(File);
    expect(api.calls('PUT brands/5')[0]?.body).toEqual({ logoKey: 'logos/5/abc.png' });
    // The brand switcher follows, and the dashboard reports the match run the save started
    // (the shell's MatchRunWatcher follows it): the dashboard is loaded again.
    expect(api.calls('GET dashboard').length).toBeGreaterThan(1);
    expect(screen.getByRole('button', { name: 'Work as Fig Tree' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Your brands' })).getByRole('heading', { name: 'Fig Tree' })).toBeInTheDocument();
  });

  it('keeps the saved profile and says so when the logo upload fails', async () => {
    const { user } = openBrands('/account/brands?brand=1', {
      'PUT brands/1': { brand: brandProfile(), runId: null },
      'POST brands/1/logo': { url: UPLOAD_URL, fields: {}, key: 'logos/1/x.png', maxBytes: LOGO_MAX_BYTES },
      [`POST ${UPLOAD_URL}`]: new Response('<Error>AccessDenied</Error>', { status: 403 }),
    });
    await user.upload(await screen.findByLabelText('Logo (optional)'), file('a.png', 'image/png', 10));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Oat & Co is saved')).toBeInTheDocument();
    expect(screen.getByText(/Your logo didn't upload: We could not upload your logo/)).toBeInTheDocument();
  });

  it('tells the owner when a description names a brand whose name is hidden', async () => {
    const notice = 'Your description names your brand; it will be shown with the name removed.';
    const { user } = openBrands('/account/brands?brand=1', {
      'PUT brands/1': { brand: brandProfile({ hideName: true }), runId: null, notice },
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit Oat & Co' });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Oat & Co is saved')).toBeInTheDocument();
    expect(screen.getByText(notice)).toBeInTheDocument();
  });
});

describe('Niche and price tier', () => {
  it("lists the chosen category's niches, clears a niche of another category, and saves both", async () => {
    const saved = brandProfile({ category: 'beauty', niche: 'makeup', priceTier: 'premium' });
    const { user, api } = openBrands('/account/brands?brand=1', { 'PUT brands/1': { brand: saved, runId: null } }, [
      brandProfile({ category: 'beauty', niche: 'skincare' }),
    ]);
    await screen.findByRole('heading', { level: 1, name: 'Edit Oat & Co' });
    const niches = () => within(field('Niche')).getAllByRole('option').map((option) => option.textContent);
    expect(field('Niche')).toHaveValue('skincare');
    expect(niches()).toEqual(['Choose a niche', 'skincare', 'makeup']);
    // Another category: its own niches, and the old one is gone.
    await user.selectOptions(field('Category'), 'home');
    expect(field('Niche')).toHaveValue('');
    expect(niches()).toEqual(['Choose a niche', 'furniture', 'decor']);
    await user.selectOptions(field('Category'), '');
    expect(niches()).toEqual(['Choose a category first']);
    await user.selectOptions(field('Category'), 'beauty');
    await user.selectOptions(field('Niche'), 'makeup');
    await user.selectOptions(field('Price tier'), 'premium');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Oat & Co is saved')).toBeInTheDocument();
    expect(api.calls('PUT brands/1')[0]?.body).toMatchObject({ category: 'beauty', niche: 'makeup', priceTier: 'premium' });
  });

  it("shows the server's message on the niche", async () => {
    const { user } = openBrands('/account/brands?brand=1', {
      'PUT brands/1': jsonResponse(
        { error: 'Please check the highlighted fields', errors: { niche: 'Choose a niche from the list for your category' } },
        400,
      ),
    });
    await screen.findByRole('heading', { level: 1, name: 'Edit Oat & Co' });
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Choose a niche from the list for your category')).toBeInTheDocument();
    expect(field('Niche')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Removing a logo', () => {
  it('sends logoKey null with the profile', async () => {
    const withLogo = brandProfile({ logoUrl: '/assets/logos/1/a.png' });
    const { user, api } = openBrands(
      '/account/brands?brand=1',
      { 'PUT brands/1': { brand: { ...withLogo, logoUrl: null }, runId: null } },
      [withLogo],
    );
    expect(await screen.findByRole('img', { name: 'Your current logo' })).toHaveAttribute('src', '/assets/logos/1/a.png');
    await user.click(screen.getByRole('button', { name: 'Remove the logo' }));
    expect(screen.queryByRole('img', { name: 'Your current logo' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Oat & Co is saved')).toBeInTheDocument();
    expect(api.calls('PUT brands/1')[0]?.body).toMatchObject({ logoKey: null, name: 'Oat & Co' });
  });
});

describe('Audience and visibility choices', () => {
  it('sends chosen countries (removable as chips) and the hide-name choice', async () => {
    const { user, api } = openBrands('/account/brands?brand=1', {
      'PUT brands/1': { brand: brandProfile({ hideName: true }), runId: null },
    });
    const picker = within(await screen.findByRole('group', { name: 'Countries (optional)' }));
    expect(picker.getByRole('list', { name: 'Chosen countries' })).toHaveTextContent('United Kingdom');
    await user.click(picker.getByRole('checkbox', { name: 'France' }));
    await user.click(picker.getByRole('button', { name: 'Remove United Kingdom' }));
    expect(picker.getByRole('checkbox', { name: 'United Kingdom' })).not.toBeChecked();
    await user.type(picker.getByRole('searchbox', { name: 'Find a country' }), 'zz');
    expect(picker.getByText('No country matches “zz”.')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Hide my brand name in Matches' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Oat & Co is saved')).toBeInTheDocument();
    expect(api.calls('PUT brands/1')[0]?.body).toMatchObject({
      audience: { ageBands: ['25-34'], genders: ['women'], countries: ['FR'] },
      hideName: true,
    });
    expect(api.calls('PUT brands/1')[0]?.headers.get('X-Brand-Id')).toBe('1');
  });
});
