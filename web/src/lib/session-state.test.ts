import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyCredits, dashboardKeys, type DashboardResponse } from './session-state';

describe('applyCredits', () => {
  it("replaces the account's credits whole in every loaded dashboard, keeping each brand's own feature and areas", () => {
    const client = new QueryClient();
    const brandA: DashboardResponse = {
      credits: {
        available: 6,
        total: 6,
        isYearly: true,
        giftedOnly: true,
        productsAllowed: true,
        featureDone: { _id: 'fA', hasHadLive: true },
        areas: { requests: true, billing: true },
        featureProductsAllowed: false,
      },
    };
    const brandB: DashboardResponse = { credits: { available: 6, total: 6, featureDone: { _id: 'fB', paid: false }, areas: { requests: false, billing: true }, featureProductsAllowed: true } };
    client.setQueryData(dashboardKeys.forBrand('default'), brandA);
    client.setQueryData(dashboardKeys.forBrand('2'), brandB);

    applyCredits(client, {
      available: 5,
      total: 6,
      productsAllowed: false,
      canSend: true,
      featureDone: { _id: null as unknown as string, hasHadLive: false },
      areas: { requests: false, billing: false },
      featureProductsAllowed: false,
    });

    const a = client.getQueryData<DashboardResponse>(dashboardKeys.forBrand('default'))?.credits;
    const b = client.getQueryData<DashboardResponse>(dashboardKeys.forBrand('2'))?.credits;
    // Whole: a field the answer no longer carries is gone, never left over from before.
    expect(a).toEqual({
      available: 5,
      total: 6,
      productsAllowed: false,
      canSend: true,
      featureDone: { _id: 'fA', hasHadLive: true },
      areas: { requests: true, billing: true },
      featureProductsAllowed: false,
    });
    expect(b?.available).toBe(5);
    expect(b?.featureDone).toEqual({ _id: 'fB', paid: false });
    expect(b?.areas).toEqual({ requests: false, billing: true });
    expect(b?.featureProductsAllowed).toBe(true);
  });
});
