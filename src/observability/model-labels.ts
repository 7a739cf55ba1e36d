/** The labels of every per-model metric. */
export const MODEL_LABELS = ['model', 'version'] as const;
