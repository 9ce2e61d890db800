-- Onboarding sessions of customers, beside those of accounts: the real
-- service's SDK opens a session for a customer (customer_id) on its
-- /v1/onboarding/sessions family, where the spec describes account
-- sessions only. A session belongs to exactly one of the two; a customer,
-- like an account, has one active session at a time, which a partial
-- unique index keeps so whatever two creates race.
ALTER TABLE onboarding_sessions ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE onboarding_sessions ADD COLUMN customer_id uuid;
ALTER TABLE onboarding_sessions ADD CONSTRAINT onboarding_sessions_customer_fkey
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id);
ALTER TABLE onboarding_sessions ADD CONSTRAINT onboarding_sessions_owner_check
    CHECK (num_nonnulls(account_id, customer_id) = 1);
CREATE UNIQUE INDEX onboarding_sessions_active_customer_key ON onboarding_sessions (merchant_id, livemode, customer_id)
    WHERE status = 'active' AND customer_id IS NOT NULL;

-- What the SDK sends on a create and reads back: where the holder entered
-- the flow, the merchant's metadata, and the steps the holder has
-- completed (reported by an update; the session's own record).
ALTER TABLE onboarding_sessions ADD COLUMN entry_point text
    CHECK (entry_point IN ('kyc', 'checkout', 'payout'));
ALTER TABLE onboarding_sessions ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}';
ALTER TABLE onboarding_sessions ADD COLUMN completed_steps text[] NOT NULL DEFAULT '{}';

-- A customer session's client secret (onb_sess_…) is a credential of its
-- own kind, scoped to its session: it belongs to no account.
ALTER TABLE session_secrets DROP CONSTRAINT session_secrets_kind_check;
ALTER TABLE session_secrets ADD CONSTRAINT session_secrets_kind_check
    CHECK (kind IN ('onboarding_session', 'checkout_session', 'charge_intent', 'customer_onboarding_session'));
ALTER TABLE session_secrets DROP CONSTRAINT session_secrets_account_check;
ALTER TABLE session_secrets ADD CONSTRAINT session_secrets_account_check
    CHECK (account_id IS NOT NULL OR kind IN ('charge_intent', 'customer_onboarding_session'));
