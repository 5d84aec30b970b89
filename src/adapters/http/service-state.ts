/** What the process tells the HTTP adapter about itself: it sets `draining` when it begins to stop. */
export interface ServiceState {
  draining: boolean;
}

/** Answers when the storage can serve requests; rejects when it cannot. */
export type ReadinessCheck = () => Promise<void>;
