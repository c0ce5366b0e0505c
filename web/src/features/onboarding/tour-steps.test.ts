import { describe, expect, it } from 'vitest';
import { stepAsShown, TOUR_MOBILE_MAX_WIDTH, TOUR_STEPS, tourStepsFor, tourTarget } from './tour-steps';

describe('tips tour steps', () => {
  it('has the SPEC steps in order, each pointing at its own data-tour element', () => {
    expect(TOUR_STEPS.map((step) => step.id)).toEqual(['general', 'about', 'mobile-menu', 'jobs', 'products']);
    for (const step of TOUR_STEPS) {
      expect(step.target).toBe(`[data-tour="${step.id}"]`);
      expect(step.title.length).toBeGreaterThan(0);
      expect(step.body.length).toBeGreaterThan(40);
      expect(step.body.length).toBeLessThan(320);
    }
    expect(tourTarget('jobs')).toBe('[data-tour="jobs"]');
  });

  it('shows the mobile-menu step only at 767 px or less', () => {
    expect(TOUR_MOBILE_MAX_WIDTH).toBe(767);
    expect(tourStepsFor(767).map((step) => step.id)).toContain('mobile-menu');
    expect(tourStepsFor(375).map((step) => step.id)).toEqual(['general', 'about', 'mobile-menu', 'jobs', 'products']);
    expect(tourStepsFor(768).map((step) => step.id)).toEqual(['general', 'about', 'jobs', 'products']);
  });

  it('selects the element that carries the attribute', () => {
    document.body.innerHTML = '<nav data-tour="general"></nav><button data-tour="mobile-menu"></button>';
    expect(document.querySelector(tourTarget('general'))?.tagName).toBe('NAV');
    expect(document.querySelector(tourTarget('mobile-menu'))?.tagName).toBe('BUTTON');
    expect(document.querySelector(tourTarget('products'))).toBeNull();
  });

  it("points the credits tip at the account menu when there is no credits badge (a member without credits)", () => {
    const products = TOUR_STEPS.find((step) => step.id === 'products');
    if (!products) throw new Error('no products step');
    document.body.innerHTML = '<button data-tour="account"></button>';
    const shown = stepAsShown(products);
    expect(shown.target).toBe('[data-tour="account"]');
    expect(shown.body).not.toMatch(/shown here/);
    expect(shown.body).toMatch(/under Billing, in your account menu/);
    expect(shown.body.length).toBeLessThan(320);

    document.body.innerHTML = '<button data-tour="products"></button><button data-tour="account"></button>';
    expect(stepAsShown(products)).toBe(products);
    const general = TOUR_STEPS[0];
    if (general) expect(stepAsShown(general)).toBe(general); // steps without an alternative stay as they are
  });
});
