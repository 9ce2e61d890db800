-- Bounded test clock advances (API-DECISIONS §7; docs/billing.md, test
-- clocks): an advance applies what fits a request's budget of work and
-- continues in the background. frozen_time stays the time the clock's
-- objects live at (how far the advance has got, the wire's advanced_to);
-- advancing_to is where a running advance is taking the clock (the wire's
-- frozen_time while it advances), null while the clock is ready.
ALTER TABLE test_clocks ADD COLUMN advancing_to timestamptz;
ALTER TABLE test_clocks ADD CONSTRAINT test_clocks_advancing_has_target
    CHECK ((status = 'advancing') = (advancing_to IS NOT NULL)) NOT VALID;

-- A clock an earlier version left advancing (a request stopped half way)
-- has no target to continue to: it is ready at the last effect it applied,
-- and the next advance goes on from there.
UPDATE test_clocks SET status = 'ready' WHERE status = 'advancing';
ALTER TABLE test_clocks VALIDATE CONSTRAINT test_clocks_advancing_has_target;

-- The background continuation finds the merchants and modes with a clock
-- advancing, and in each the clock stepped least recently.
CREATE INDEX test_clocks_advancing_idx ON test_clocks (merchant_id, livemode, updated)
    WHERE status = 'advancing' AND deleted IS NULL;
