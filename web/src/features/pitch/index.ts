/** The Pitch Area's public face: what other features may use. */
export { pitchKeys } from './api/keys';
export { ADMIN_FEATURES_PATH, featurePath, NEW_FEATURE_PATH, PITCH_PATH } from './paths';
