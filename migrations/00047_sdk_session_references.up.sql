-- The official clients send a fingerprinting visitor with a charge or
-- Sonar session and the merchant's own reference with a payment link
-- session, and read them back (API-DECISIONS §9). Nullable columns: no
-- rewrite; stored sessions read them as null.
ALTER TABLE charge_sessions ADD COLUMN visitor_id text;
ALTER TABLE sonar_sessions ADD COLUMN visitor_id text;
ALTER TABLE payment_link_sessions ADD COLUMN client_reference_id text;
