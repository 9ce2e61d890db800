-- Rate limits per merchant and mode (API-DECISIONS §8), shared by every
-- server process on the database (internal/platform/ratelimit). One row is
-- one token bucket kept as GCRA: tat_us is the bucket's "theoretical arrival
-- time" in microseconds since the Unix epoch (the bucket is full when it is
-- at or before now; each token taken books one emission interval more).
-- granted is the number of tokens the last lease took: the lease statement's
-- output, computed from the locked row.
--
-- A missing row is a full bucket, so losing rows loses nothing that matters:
-- the table is UNLOGGED (no WAL for the one write per chunk of requests;
-- emptied after a crash, when every bucket is full again), and a periodic
-- job deletes rows that have been full for a while. Rows are updated in
-- place on the primary key only; the fill factor leaves room for HOT
-- updates. There is deliberately no index on tat_us: the table holds at most
-- two rows per merchant and the purge scans it rarely, while an index on a
-- column every lease changes would cost an index write per lease.
CREATE UNLOGGED TABLE rate_limit_buckets (
    merchant_id uuid    NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
    livemode    boolean NOT NULL,
    tat_us      bigint  NOT NULL,
    granted     bigint  NOT NULL,
    PRIMARY KEY (merchant_id, livemode)
) WITH (fillfactor = 70);
