import { closeFirstVisitPopups, DEMO, signIn } from './members';
import { expect, test } from './fixtures';

/**
 * The local stack serves CloudFront's response headers policy (template.yaml) on every answer,
 * and every journey fails on a Content-Security-Policy violation (fixtures.ts). This proves the
 * policy is the real one and is enforced, and walks the screens most likely to trip it.
 */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('the app and the API answer with the security headers of the CloudFront policy', async ({ page, request }) => {
  const document = await page.goto('/login');
  const api = await request.get('/api/health');
  for (const headers of [document?.headers() ?? {}, api.headers()]) {
    expect(headers['content-security-policy']).toContain("base-uri 'none'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains; preload');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
  }
  const missing = await request.get('/api/no/such/route');
  expect(missing.status()).toBe(404);
  expect(missing.headers()['cache-control']).toBe('no-store');
});

test('the policy is enforced and its violations are reported', async ({ page, csp }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in to Tandem' })).toBeVisible();
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true;';
    document.head.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
  });
  expect(ran).toBe(false); // script-src 'self': no inline script runs
  // Reported both ways: the page's securitypolicyviolation event and Chromium's console error.
  const reported = () => ({
    event: csp.violations().some((v) => v.endsWith(': script-src-elem inline')),
    console: csp.violations().some((v) => v.includes('console:') && v.includes('script-src')),
  });
  await expect.poll(reported).toEqual({ event: true, console: true });
  csp.forget(); // provoked on purpose
});

test('a member signs in and previews a new logo with no policy violation', async ({ page }) => {
  await signIn(page, DEMO);
  await closeFirstVisitPopups(page);
  await page.goto('/account/brands');
  await page.getByRole('button', { name: 'Add brand' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Add a brand' })).toBeVisible();
  await page.getByLabel('Logo (optional)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  const preview = page.getByRole('img', { name: 'Preview of your new logo' });
  await expect(preview).toBeVisible();
  // A blob: preview the policy allows (img-src blob:): it loads, so it has a size.
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
});
