-- Coupons and promotion codes keep metadata, as the official clients send
-- it on create and update (API-DECISIONS §9). A constant default adds the
-- column without rewriting the table; stored rows read as empty metadata.
ALTER TABLE coupons ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE promotion_codes ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
