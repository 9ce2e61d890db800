-- A usage invoice summed every event of its window: its time grew with
-- the events (seconds for a million). usage_rollups keeps, per payer,
-- event name, meter and hour (usage_bucket of the event's timestamp), the
-- aggregates of the events no auto-charge claimed (invoice_id NULL): how
-- many, Σ value, Σ value·(100 + markup), Σ (100 + markup), exact numeric.
-- A usage invoice sums the hours lying wholly inside its window from here
-- and the events of its (at most two) partial edge hours from the events,
-- so it reads O(hours), not O(events). Events a usage invoice's window
-- billed stay counted: a window is never billed twice, so no later invoice
-- reads those hours again.
--
-- The rollups follow every write of metering_events in the statement's own
-- transaction, by statement-level triggers over its transition tables: an
-- ingest (one statement, one upsert of its hours, in key order), a
-- correction (the old row subtracted, the new added: moved between hours
-- when its timestamp changes), an auto-charge's claim (its claimed events
-- subtracted per hour) and a deletion. Concurrent writers of one hour wait
-- on its row (ON CONFLICT DO UPDATE), so the totals are exact.
CREATE FUNCTION usage_bucket(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';

CREATE TABLE usage_rollups (
    merchant_id uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    -- The customer or account (ids are unique across both).
    payer_id    uuid        NOT NULL,
    event_name  text        NOT NULL,
    meter_id    uuid        NOT NULL,
    bucket      timestamptz NOT NULL,
    events      bigint      NOT NULL,
    sum_value   numeric     NOT NULL,
    sum_w100    numeric     NOT NULL,
    sum_f100    numeric     NOT NULL,
    PRIMARY KEY (merchant_id, livemode, payer_id, bucket, event_name, meter_id)
);

-- usage_rollups_apply adds the statement's new rows and subtracts its old
-- ones (those no auto-charge claimed), grouped per rollup key, in one
-- upsert ordered by key (two writers of several hours lock them in one
-- order). A change that moves nothing (metadata, updated) writes nothing.
CREATE FUNCTION usage_rollups_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed text := CASE TG_OP
        WHEN 'INSERT' THEN 'SELECT n.*, 1 AS sign FROM new_rows AS n'
        WHEN 'DELETE' THEN 'SELECT o.*, -1 AS sign FROM old_rows AS o'
        ELSE 'SELECT n.*, 1 AS sign FROM new_rows AS n UNION ALL SELECT o.*, -1 AS sign FROM old_rows AS o' END;
BEGIN
    EXECUTE format($q$
        INSERT INTO usage_rollups AS r (merchant_id, livemode, payer_id, event_name, meter_id, bucket,
                                        events, sum_value, sum_w100, sum_f100)
        SELECT d.merchant_id, d.livemode, COALESCE(d.customer_id, d.account_id), d.event_name, d.meter_id,
               usage_bucket(d."timestamp"), sum(d.sign), sum(d.sign * d.value),
               sum(d.sign * d.value * (100 + COALESCE(d.markup_percentage, 0))),
               sum(d.sign * (100 + COALESCE(d.markup_percentage, 0)))
          FROM (%s) AS d
         WHERE d.invoice_id IS NULL
         GROUP BY 1, 2, 3, 4, 5, 6
        HAVING sum(d.sign) <> 0 OR sum(d.sign * d.value) <> 0
            OR sum(d.sign * d.value * (100 + COALESCE(d.markup_percentage, 0))) <> 0
            OR sum(d.sign * (100 + COALESCE(d.markup_percentage, 0))) <> 0
         ORDER BY 1, 2, 3, 6, 4, 5
        ON CONFLICT (merchant_id, livemode, payer_id, bucket, event_name, meter_id) DO UPDATE
           SET events = r.events + excluded.events, sum_value = r.sum_value + excluded.sum_value,
               sum_w100 = r.sum_w100 + excluded.sum_w100, sum_f100 = r.sum_f100 + excluded.sum_f100$q$, changed);
    RETURN NULL;
END $$;

CREATE TRIGGER usage_rollups_insert AFTER INSERT ON metering_events
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_rollups_apply();
CREATE TRIGGER usage_rollups_update AFTER UPDATE ON metering_events
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_rollups_apply();
CREATE TRIGGER usage_rollups_delete AFTER DELETE ON metering_events
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION usage_rollups_apply();

-- The events of earlier versions not claimed by an auto-charge: one pass
-- over metering_events.
INSERT INTO usage_rollups (merchant_id, livemode, payer_id, event_name, meter_id, bucket, events, sum_value, sum_w100, sum_f100)
SELECT merchant_id, livemode, COALESCE(customer_id, account_id), event_name, meter_id, usage_bucket("timestamp"),
       count(*), sum(value), sum(value * (100 + COALESCE(markup_percentage, 0))), sum(100 + COALESCE(markup_percentage, 0))
  FROM metering_events
 WHERE invoice_id IS NULL
 GROUP BY 1, 2, 3, 4, 5, 6;
