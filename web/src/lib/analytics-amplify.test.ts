import { Amplify } from 'aws-amplify';
import { record } from 'aws-amplify/analytics/kinesis-firehose';
import { describe, expect, it, vi } from 'vitest';
import { createAmplifySink } from './analytics-amplify';
import { getAnalyticsId } from './analytics-id';

// The real Amplify takes the configuration; only the Firehose call is faked, so nothing
// reaches the network.
vi.mock('aws-amplify/analytics/kinesis-firehose', () => ({ record: vi.fn() }));

const ANALYTICS = {
  region: 'eu-west-2',
  identityPoolId: 'eu-west-2:0b6f2c1e-7d7a-4c55-9f3e-2a1b3c4d5e6f',
  streamName: 'tandem-prod-analytics',
};

describe('createAmplifySink (real aws-amplify configuration)', () => {
  it('configures guest credentials and the Firehose buffer the way Amplify v6 reads them', () => {
    createAmplifySink(ANALYTICS);
    const config = Amplify.getConfig();
    expect(config.Auth?.Cognito).toMatchObject({
      identityPoolId: ANALYTICS.identityPoolId,
      allowGuestAccess: true,
    });
    expect(config.Analytics?.KinesisFirehose).toEqual({
      region: 'eu-west-2',
      bufferSize: 1000,
      flushSize: 100,
      flushInterval: 5000,
      resendLimit: 5,
    });
  });

  it('records name, properties, the event time and the analytics id', () => {
    const sink = createAmplifySink(ANALYTICS);
    sink({ name: 'signed_in', properties: { method: 'password' } }, new Date('2026-03-01T10:00:00Z'));
    expect(record).toHaveBeenCalledExactlyOnceWith({
      streamName: 'tandem-prod-analytics',
      data: {
        name: 'signed_in',
        properties: { method: 'password' },
        at: '2026-03-01T10:00:00.000Z',
        analyticsId: getAnalyticsId(),
      },
    });
  });
});
