import { expect, test } from './fixtures';
import { authed, linkFromOutbox, newMember, subscribeMonthly, type NewMember } from './members';

/**
 * Instant sign-in from email and the account's home (issue 22): a member opens the sign-in link
 * of the "would like to collaborate" email from the local outbox and lands on that request,
 * signed in; the same link again is refused and offers the normal sign-in with the address
 * filled in; /account shows their details and signs them out everywhere. Expiry, a password
 * reset and the Notifications switch are in tests/functional/test_sign_in_links.py. axe fails
 * on moderate findings too on every page visited.
 */
test.use({ a11yLevel: 'moderate', viewport: { width: 1280, height: 900 } });

const stamp = Date.now().toString(36);
const PASSWORD = 'Sign-In-Links-2026';
const called = (name: string): NewMember => ({
  name,
  email: `${name.toLowerCase().replace(/\W+/g, '.')}.${stamp}@example.com`,
  password: PASSWORD,
  brand: `${name} Goods`,
});

test('a request email signs the member in on the request, once; /account signs them out everywhere', async ({
  page,
  request,
  browser,
  a11y,
}) => {
  const sender = await newMember(request, called('Sam Sender'));
  await subscribeMonthly(request, sender);
  const receiver = await newMember(request, called('Rita Receiver'));
  const sent = await request.post('/api/requests', {
    headers: authed(sender.token, sender.brandId),
    data: { toBrandId: receiver.brandId, message: 'Hello Rita, shall we run a spring bundle together?' },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const requestId = ((await sent.json()) as { request: { id: string } }).request.id;

  // The email's link, opened in a browser that is not signed in.
  const link = await linkFromOutbox(request, receiver.email, 'would like to collaborate', '/login/');
  expect(link).toMatch(/^\/login\/[\w-]+\/[0-9a-f]+\/request-received$/);
  await page.goto(link);
  await expect(page).toHaveURL(new RegExp(`/requests/received/${receiver.brandId}/${requestId}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Request' })).toBeVisible();
  await expect(page.getByText('Hello Rita, shall we run a spring bundle together?')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  // The same link in another browser: used, so refused, with the normal sign-in offered.
  const other = await (await browser.newContext()).newPage();
  a11y.watch(other);
  await other.goto(link);
  await expect(other.getByRole('heading', { level: 1, name: "This sign-in link didn't work" })).toBeVisible();
  await expect(other.getByText('This sign-in link has expired or was already used.', { exact: false })).toBeVisible();
  await other.getByRole('link', { name: 'Sign in with your password' }).click();
  await expect(other.getByRole('heading', { name: 'Sign in to Tandem' })).toBeVisible();
  await expect(other.getByLabel('Email')).toHaveValue(receiver.email);
  await other.getByLabel('Password').fill(PASSWORD);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await expect(other).toHaveTitle('Tandem Hub: Dashboard');

  // The account's home, then signing out everywhere: the other browser's session ends too.
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Profile' }).getByText(receiver.email)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Brands' }).getByText(receiver.brand)).toBeVisible();
  await page.goto('/account/no-such-page');
  await expect(page).toHaveURL(/\/404$/);
  await page.goto('/account');
  await page.getByRole('region', { name: 'Sign out everywhere' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('dialog', { name: 'Sign out everywhere?' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Tandem' })).toBeVisible();
  await other.goto('/account');
  await expect(other.getByRole('heading', { name: 'Sign in to Tandem' })).toBeVisible();
});
