-- Charge intents (deprecated, wire-compatible: spec doc 2 §2.9, §3, §4.10,
-- §5.3, §9.2; API-DECISIONS §4). A charge intent collects one payment from
-- a customer or an account; its charge (the processor's answer) is a row of
-- charges, its captures are ledger journals naming that charge.
CREATE TABLE charge_intents (
    merchant_id             uuid        NOT NULL REFERENCES merchants (id),
    id                      uuid        NOT NULL,
    livemode                boolean     NOT NULL,
    status                  text        NOT NULL CHECK (status IN ('incomplete', 'pending', 'requires_payment_method',
        'requires_confirmation', 'requires_3d_secure', 'requires_capture', 'processing', 'succeeded', 'failed',
        'canceled')),
    -- What is charged, after promotion codes; the order amount before them.
    amount                  bigint      NOT NULL CHECK (amount > 0),
    amount_before_discounts bigint      NOT NULL CHECK (amount_before_discounts >= amount),
    currency                text        NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
    -- Captured so far, and released without capture (void_remaining, or a
    -- canceled authorization): never more than was authorized.
    amount_captured         bigint      NOT NULL DEFAULT 0 CHECK (amount_captured >= 0),
    amount_voided           bigint      NOT NULL DEFAULT 0 CHECK (amount_voided >= 0),
    authorization_mode      text        NOT NULL CHECK (authorization_mode IN ('automatic', 'manual')),
    description             text,
    failure_description     text,
    reference_id            text,
    receipt_email           text,
    sonar_session_id        text,
    -- The payer: a customer or an account, never both (either may be null).
    customer_id             uuid,
    account_id              uuid,
    payment_method_id       uuid,
    -- The charge the processor's answer made (latest_charge).
    charge_id               uuid,
    shipping                jsonb,
    metadata                jsonb       NOT NULL DEFAULT '{}',
    -- An explicit plan asked for at creation (transfer_fee_plan_id).
    requested_fee_plan_id   uuid,
    -- Set when the intent is confirmed: what prices its captures.
    billable_event_type     text        CHECK (billable_event_type IN ('transfer.charge.card', 'transfer.charge.ach')),
    fee_plan_id             uuid,
    billing_agreement_id    uuid,
    created                 timestamptz NOT NULL,
    updated                 timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, charge_id) REFERENCES charges (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, requested_fee_plan_id) REFERENCES transfer_fee_plans (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, fee_plan_id) REFERENCES transfer_fee_plans (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, billing_agreement_id) REFERENCES transfer_billing_agreements (merchant_id, livemode, id),
    CHECK (customer_id IS NULL OR account_id IS NULL),
    CHECK (amount_captured + amount_voided <= amount),
    CHECK ((fee_plan_id IS NULL) = (billable_event_type IS NULL)),
    CHECK (status <> 'succeeded' OR amount_captured > 0),
    CHECK (status NOT IN ('requires_confirmation', 'requires_3d_secure', 'requires_capture', 'succeeded')
        OR payment_method_id IS NOT NULL)
);
CREATE INDEX charge_intents_list_idx ON charge_intents (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX charge_intents_status_idx ON charge_intents (merchant_id, livemode, status, created DESC, id DESC);
CREATE INDEX charge_intents_customer_idx ON charge_intents (merchant_id, livemode, customer_id, created DESC, id DESC)
    WHERE customer_id IS NOT NULL;
CREATE INDEX charge_intents_account_idx ON charge_intents (merchant_id, livemode, account_id, created DESC, id DESC)
    WHERE account_id IS NOT NULL;

-- A charge made for a charge intent names an intent of its own merchant and
-- mode, and an intent is charged once: a confirm runs once, a decline is
-- final (as for transfers).
ALTER TABLE charges ADD CONSTRAINT charges_charge_intent_fk
    FOREIGN KEY (merchant_id, livemode, charge_intent_id) REFERENCES charge_intents (merchant_id, livemode, id);
CREATE UNIQUE INDEX charges_one_per_charge_intent_idx ON charges (merchant_id, livemode, charge_intent_id)
    WHERE charge_intent_id IS NOT NULL;

-- Charge intent client secrets (ci_<id>_secret_<random>) are session
-- secrets of their intent: only a hash is stored, looked up like the
-- onboarding and checkout secrets. An intent may have no account (a
-- customer pays), so the account is optional for this kind only.
ALTER TABLE session_secrets DROP CONSTRAINT session_secrets_kind_check;
ALTER TABLE session_secrets ADD CONSTRAINT session_secrets_kind_check
    CHECK (kind IN ('onboarding_session', 'checkout_session', 'charge_intent'));
ALTER TABLE session_secrets ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE session_secrets ADD CONSTRAINT session_secrets_account_check
    CHECK (account_id IS NOT NULL OR kind = 'charge_intent');
