// Package jobs runs background work in PostgreSQL with River: jobs live in
// the same database as the rows they act on, so a job inserted in a
// transaction exists exactly when that transaction commits, retries survive
// restarts, and many server processes can share one queue safely.
//
// The package is platform: it knows the pool, the clock and the logger, and
// nothing of the domain. Later features add their own workers and periodic
// jobs through Config, and enqueue work in their own transaction with
// Engine.InsertTx (see DESIGN.md, "Background work").
package jobs
