export const PITCH_PATH = '/pitch';
export const NEW_FEATURE_PATH = '/pitch/new';
export const ADMIN_FEATURES_PATH = '/admin/features';

export function featurePath(featureId: string): string {
  return `/pitch/${encodeURIComponent(featureId)}`;
}
