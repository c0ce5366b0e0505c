/**
 * The production analytics sink: Amazon Kinesis Data Firehose through aws-amplify, with
 * guest credentials from a Cognito identity pool. Only ever loaded through a dynamic
 * import (see analytics-start.ts), so aws-amplify stays out of the initial bundle.
 */
import { Amplify } from 'aws-amplify';
import { record } from 'aws-amplify/analytics/kinesis-firehose';
import type { AnalyticsSink } from './analytics';
import { getAnalyticsId } from './analytics-id';
import type { AnalyticsRuntimeConfig } from './runtime-config';

/** Configures Amplify for Firehose and returns a sink that records every event. */
export function createAmplifySink({
  region,
  identityPoolId,
  streamName,
}: AnalyticsRuntimeConfig): AnalyticsSink {
  Amplify.configure({
    Auth: { Cognito: { identityPoolId, allowGuestAccess: true } },
    Analytics: {
      KinesisFirehose: {
        region,
        bufferSize: 1000,
        flushSize: 100,
        flushInterval: 5000,
        resendLimit: 5,
      },
    },
  });
  return (event, at) => {
    record({
      streamName,
      data: {
        name: event.name,
        properties: event.properties,
        at: at.toISOString(),
        analyticsId: getAnalyticsId(),
      },
    });
  };
}
