// Whether the service may be sent traffic: its storage answers (a ReadinessCheck, which each
// storage adapter provides) and its process is not stopping (ServiceState, which the process
// sets). The driving adapter (HTTP: /readyz) reads both; it knows neither storage nor process.

/** What the process tells the driving adapter about itself: it sets `draining` when it begins to stop. */
export interface ServiceState {
  draining: boolean;
}

/** Answers when the storage can serve requests; rejects when it cannot. */
export type ReadinessCheck = () => Promise<void>;
