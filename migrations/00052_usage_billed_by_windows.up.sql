-- A usage invoice no longer writes its events: what it billed is the
-- window it records (usage_invoice_windows: payer, event name, period),
-- and an event is billed by the window holding it. Marking every event of
-- a window cost an UPDATE of every row (minutes for a million events);
-- the window is one row whatever it holds. This is exact because a usage
-- invoice takes its payer's usage lock exclusively while every ingest and
-- correction takes it shared: the invoice sees every event committed
-- before it, and once its window is committed no event can enter it (the
-- insert trigger of 00023 skips one, a correction into it is refused).
-- metering_events.invoice_id now names only an auto-charge's invoice
-- (auto-charges bill events, not a window).
--
-- metering_events_billed is every event with billed_by, the invoice that
-- billed it (its own invoice_id, else the window holding it), or NULL:
-- the one definition of "billed" every read uses. The planner inlines the
-- view; each window probe is one look-up of the windows' payer indexes.
CREATE VIEW metering_events_billed AS
SELECT me.*,
       COALESCE(me.invoice_id,
           (SELECT w.invoice_id FROM usage_invoice_windows AS w
             WHERE w.merchant_id = me.merchant_id AND w.livemode = me.livemode AND w.customer_id = me.customer_id
               AND w.event_name = me.event_name AND w.period_start <= me."timestamp" AND w.period_end > me."timestamp"
             LIMIT 1),
           (SELECT w.invoice_id FROM usage_invoice_windows AS w
             WHERE w.merchant_id = me.merchant_id AND w.livemode = me.livemode AND w.account_id = me.account_id
               AND w.event_name = me.event_name AND w.period_start <= me."timestamp" AND w.period_end > me."timestamp"
             LIMIT 1)) AS billed_by
FROM metering_events AS me;

-- Events a usage invoice billed before this version name it themselves:
-- the window now says it, so their own mark goes (one pass over the
-- billed events of windows, by the invoice index).
UPDATE metering_events AS me SET invoice_id = NULL
  FROM usage_invoice_windows AS w
 WHERE w.merchant_id = me.merchant_id AND w.invoice_id = me.invoice_id AND w.event_name = me.event_name;
