/**
 * The requests feature's public face. Requests, connections and declines are one feature:
 * the Received and Sent lists, the connections (accepted) and the declines (declined) are
 * lists of requests that read through `requestKeys` and show `RequestCard`s.
 */
export {
  isOpen,
  otherBrand,
  type BrandSummary,
  type ContactDetails,
  type RequestBox,
  type RequestItem,
  type RequestStatus,
} from './api/requests';
export { requestKeys } from './api/keys';
export { connectionListQuery, type Connection } from './api/connections';
export { BrandIdentity } from './components/BrandIdentity';
export { ContactDetailsList } from './components/ContactDetailsList';
export { CountedTextArea } from './components/CountedTextArea';
export { ListTabs } from './components/ListTabs';
export { RequestCard } from './components/RequestCard';
export { SendRequestHost } from './components/SendRequestHost';
export { ShareCollabPanel } from './components/ShareCollabPanel';
export { useRouteBrand, type RouteBrand } from './hooks/use-route-brand';
export { useSeenRefresh } from './hooks/use-seen-refresh';
export { openSendRequest } from './send-request-store';
export { readPendingSend } from './pending-send';
