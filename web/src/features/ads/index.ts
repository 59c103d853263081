/**
 * Ad slots (issue 21, D345): off unless the operator configures an ad client. Text ads
 * only, written by the app itself: no ad network's script is ever loaded.
 */
import './ads.css';

export { AdSlot, useAdClient, useFeedAds } from './AdSlot';
export {
  FEED_SLOT_EVERY,
  FIRST_FEED_SLOT_AFTER,
  feedSlotAfter,
  pickCreative,
  placementId,
  type AdClient,
  type Creative,
  type Placement,
} from './pick';
