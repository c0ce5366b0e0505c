/** The Collab Ideas feature's public face. */
export {
  collabKeys,
  collabQuery,
  filterIdeas,
  memberCollabsQuery,
  type CollabIdea,
  type CollabList,
  type Effort,
} from './api/collab';
