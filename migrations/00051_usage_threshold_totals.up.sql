-- A threshold payer's running totals: one row per threshold and event name
-- holding the aggregates of the current cycle's unbilled events, updated
-- in each ingest's transaction (one upsert), so an ingest no longer reads
-- the cycle's pending events. Every aggregation a meter may use is kept
-- (sum of values, count, the largest value with its weighted amount), and
-- the price is joined when the totals are read, so a meter's product or
-- aggregation may change without the totals going wrong. Sums are exact
-- numeric: they never wrap.
CREATE TABLE usage_threshold_totals (
    merchant_id  uuid        NOT NULL,
    livemode     boolean     NOT NULL,
    threshold_id uuid        NOT NULL,
    event_name   text        NOT NULL,
    meter_id     uuid        NOT NULL,
    events       bigint      NOT NULL,
    -- Σ value, Σ value·(100 + markup), Σ (100 + markup).
    sum_value    numeric     NOT NULL,
    sum_w100     numeric     NOT NULL,
    sum_f100     numeric     NOT NULL,
    -- The largest value (the earliest event, then the least id, of equals)
    -- and its value·(100 + markup).
    top_value    numeric     NOT NULL,
    top_w100     numeric     NOT NULL,
    top_at       timestamptz NOT NULL,
    top_id       uuid        NOT NULL,
    earliest     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, threshold_id, event_name),
    FOREIGN KEY (merchant_id, threshold_id) REFERENCES usage_thresholds (merchant_id, id) ON DELETE CASCADE
);

-- The cycle (its start) the threshold's totals hold; NULL until they are
-- first computed, and again once something other than an ingest changed
-- the cycle's events (a usage invoice claiming some, a correction, a
-- meter priced differently): the next ingest computes them from the
-- events once. Thresholds of an earlier version start NULL.
ALTER TABLE usage_thresholds ADD COLUMN totals_cycle timestamptz;
