/** The Collaborations feature's public face: planning, running and measuring collaborations with connections. */
export { CalendarCollaborations } from './components/CalendarCollaborations';
export { collaborationsQuery, collabKeys, type CollabSummary, type Collaboration } from './api/collaborations';
export { formatPlanDate, money } from './format';
