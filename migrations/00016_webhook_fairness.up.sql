-- Fair webhook delivery (docs/webhooks.md, "How delivery works inside"):
-- one job per endpoint walks that endpoint's pending deliveries, so it
-- needs to find them, and to know when each retry is due by a clock every
-- server process shares; an endpoint that keeps failing is disabled.

-- When a failed delivery's next attempt is due, by the database's clock
-- (the job engine's scheduling clock); NULL before the first attempt.
-- next_attempt stays what the API shows, from the server's clock.
ALTER TABLE webhook_deliveries ADD COLUMN retry_at timestamptz;

-- The pending deliveries of one endpoint in insertion order: what the
-- endpoint's job reads at every turn.
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (merchant_id, endpoint_id, seq)
    WHERE status = 'pending';

-- The time (server's clock) of the first failed attempt since the
-- endpoint's last successful one; NULL while it answers.
ALTER TABLE webhook_endpoints ADD COLUMN failing_since timestamptz;
