/** `uncategorised` and `uncategorized` both mean the queue: no category, on every input. */
export const QUEUE_LABELS = ["uncategorised", "uncategorized"] as const;

export function isQueueLabel(category: string): boolean {
  return (QUEUE_LABELS as readonly string[]).includes(category.trim().toLowerCase());
}
