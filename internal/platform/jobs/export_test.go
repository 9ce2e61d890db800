package jobs

// SetBatchSize lets tests make batches small enough to see the purge loop.
func (w *PurgeIdempotencyKeysWorker) SetBatchSize(n int) { w.batch = n }
