-- The children of a parent, newest first, for the GraphQL connections
-- under a page of parents (docs/graphql.md, "Connections under a page of
-- parents"): each reads one keyset page of every parent's rows in one
-- statement, ranked by (created, id) within the parent. Each index serves
-- one parent column in that order; the ones a column already had either
-- served a due-time sweep (test clocks) or lacked the order (products,
-- promotion codes). Indexes only: no data changes.
CREATE INDEX subscriptions_test_clock_idx ON subscriptions (merchant_id, livemode, test_clock_id, created DESC, id DESC)
    WHERE test_clock_id IS NOT NULL;
CREATE INDEX customers_test_clock_list_idx ON customers (merchant_id, livemode, test_clock_id, created DESC, id DESC)
    WHERE test_clock_id IS NOT NULL;
CREATE INDEX accounts_test_clock_list_idx ON accounts (merchant_id, livemode, test_clock_id, created DESC, id DESC)
    WHERE test_clock_id IS NOT NULL;
CREATE INDEX subscriptions_product_list_idx ON subscriptions (merchant_id, livemode, product_id, created DESC, id DESC);
CREATE INDEX discounts_coupon_idx ON discounts (merchant_id, livemode, coupon_id, created DESC, id DESC);
CREATE INDEX discounts_promotion_code_list_idx ON discounts (merchant_id, livemode, promotion_code_id, created DESC, id DESC)
    WHERE promotion_code_id IS NOT NULL;
CREATE INDEX metering_events_meter_idx ON metering_events (merchant_id, livemode, meter_id, created DESC, id DESC);
CREATE INDEX transfer_billing_agreements_fee_plan_idx ON transfer_billing_agreements (merchant_id, livemode, fee_plan_id, created DESC, id DESC);
