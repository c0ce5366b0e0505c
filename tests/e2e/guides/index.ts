import { answeringRequests } from './answering-requests';
import { brandProfile } from './brand-profile';
import { collabIdeas } from './collab-ideas';
import { connections } from './connections';
import { creditsSubscriptions } from './credits-subscriptions';
import { gettingStarted } from './getting-started';
import { matches } from './matches';
import { notifications } from './notifications';
import { pitchArea } from './pitch-area';
import type { GuideScript } from './script';
import { sendingRequests } from './sending-requests';

/** Every recorded guide's script, one per guide of videos.toml whose type is `recorded`. */
export const GUIDES: readonly GuideScript[] = [
  gettingStarted,
  brandProfile,
  matches,
  sendingRequests,
  answeringRequests,
  connections,
  pitchArea,
  collabIdeas,
  creditsSubscriptions,
  notifications,
];
