import type { PriceOption, ProductsResponse } from './api/billing';

const option = (overrides: Partial<PriceOption> & Pick<PriceOption, 'id' | 'unit_amount'>): PriceOption => ({
  link: `https://checkout.stripe.test/c/${overrides.id}`,
  currency: 'gbp',
  count: 6,
  months: 1,
  type: 'main',
  discountMessage: null,
  label: null,
  ...overrides,
});

/** A products answer shaped like BILLING_CONTRACT.md's catalogue. */
export function productsBody(overrides: Partial<ProductsResponse> = {}): ProductsResponse & Record<string, unknown> {
  return {
    currency: 'gbp',
    hasDiscount: null,
    products: [
      {
        id: 'main',
        name: 'Tandem membership',
        type: 'main',
        description: 'Every benefit of Tandem.',
        prices: {
          monthly: [option({ id: 'tandem_main_monthly', unit_amount: 4900, label: 'Monthly' })],
          yearly: [option({ id: 'tandem_main_yearly', unit_amount: 49000, months: 12, label: 'Yearly' })],
        },
      },
      {
        id: 'extra_credits',
        name: 'Extra credits',
        type: 'extra',
        prices: {
          one_time: [
            option({ id: 'tandem_extra_3', unit_amount: 2500, count: 3, months: null, type: 'extra', label: '3 credits' }),
            option({ id: 'tandem_extra_1', unit_amount: 950, count: 1, months: null, type: 'extra', label: '1 credit' }),
          ],
        },
      },
      {
        id: 'access_3month',
        name: '3-month access',
        type: 'main',
        prices: { one_time: [option({ id: 'tandem_access_3month', unit_amount: 12000, count: 0, months: 3, label: '3 months' })] },
      },
      {
        id: 'feature',
        name: 'Pitch feature',
        type: 'feature',
        prices: {
          one_time: [option({ id: 'tandem_feature_3month', unit_amount: 9900, count: 0, months: 3, type: 'feature', label: '3 months' })],
        },
      },
    ],
    ...overrides,
  };
}
