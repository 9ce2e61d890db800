-- A deleted test clock is kept, marked, with what was bound to it: the
-- journals of their charges stay on the ledger, so the merchant's books
-- stay balanced (docs/billing.md, test clocks).
ALTER TABLE test_clocks ADD COLUMN deleted timestamptz;
