-- Payouts from the instant-payout balance, its funding (schedules, top-ups
-- and the entries they write) (spec doc 2 §2.7, §4.7, §8; docs/funding.md).

-- The instant-payout balance is the ledger account of party
-- 'instant_payout': what the merchant has put aside for payouts, owed to
-- it, so a credit-normal account (fundings credit it, payouts debit it).
-- It can never be overdrawn: its balance, kept by the entries' trigger
-- under the row's lock, never rises above zero. A payout checks the
-- balance under that lock first (a clear 422); this constraint is the
-- database's own guarantee behind that check.
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_instant_payout_not_overdrawn
    CHECK (party <> 'instant_payout' OR balance <= 0);

-- Payouts (spec doc 2 §2.7): money sent from the instant-payout balance to
-- an account's own card (push to card) or bank account (ACH).
CREATE TABLE payouts (
    merchant_id          uuid        NOT NULL REFERENCES merchants (id),
    id                   uuid        NOT NULL,
    livemode             boolean     NOT NULL,
    account_id           uuid        NOT NULL,
    payment_method_id    uuid        NOT NULL,
    status               text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    -- ACH payouts only (null for push to card).
    speed                text        CHECK (speed IN ('asap', 'same_day', 'standard')),
    amount               bigint      NOT NULL CHECK (amount > 0),
    currency             text        NOT NULL CHECK (currency = 'USD'),
    processor_fee        bigint      NOT NULL DEFAULT 0 CHECK (processor_fee >= 0),
    -- Who bears the fees; null when no payout agreement priced the payout.
    merchant_fee         bigint      CHECK (merchant_fee >= 0),
    customer_fee         bigint      CHECK (customer_fee >= 0),
    billing_agreement_id uuid,
    transfer_fee_plan_id uuid,
    failure_code         text,
    failure_message      text,
    metadata             jsonb       NOT NULL DEFAULT '{}',
    created              timestamptz NOT NULL,
    updated              timestamptz NOT NULL,
    succeeded            timestamptz,
    failed               timestamptz,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, billing_agreement_id) REFERENCES transfer_billing_agreements (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, transfer_fee_plan_id) REFERENCES transfer_fee_plans (merchant_id, livemode, id),
    CHECK ((failure_code IS NULL) = (failure_message IS NULL)),
    CHECK ((status = 'succeeded') = (succeeded IS NOT NULL)),
    CHECK ((status = 'failed') = (failed IS NOT NULL)),
    CHECK ((merchant_fee IS NULL) = (customer_fee IS NULL))
);
CREATE INDEX payouts_list_idx ON payouts (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX payouts_account_idx ON payouts (merchant_id, livemode, account_id, created DESC, id DESC);
CREATE INDEX payouts_status_idx ON payouts (merchant_id, livemode, status, created DESC, id DESC);

-- Funding schedules: an amount pulled into the instant-payout balance at
-- every run of a cadence. anchor is the run the cadence counts from (the
-- next_run set at creation or by an update): monthly runs keep its day of
-- the month, clamped to shorter months, without drifting.
CREATE TABLE payout_funding_schedules (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    amount      bigint      NOT NULL CHECK (amount > 0),
    currency    text        NOT NULL CHECK (currency = 'USD'),
    cadence     text        NOT NULL CHECK (cadence IN ('daily', 'weekly', 'monthly')),
    enabled     boolean     NOT NULL,
    next_run    timestamptz NOT NULL,
    anchor      timestamptz NOT NULL,
    last_run    timestamptz,
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE INDEX payout_funding_schedules_list_idx ON payout_funding_schedules (merchant_id, livemode, created DESC, id DESC);
-- The sweep's lookup across tenants: enabled schedules by due time.
CREATE INDEX payout_funding_schedules_due_idx ON payout_funding_schedules (next_run) WHERE enabled;

-- Funding entries: one per funding of the instant-payout balance, a manual
-- top-up (source 'manual_push') or a schedule's run (source 'schedule').
CREATE TABLE payout_funding_entries (
    merchant_id     uuid        NOT NULL REFERENCES merchants (id),
    id              uuid        NOT NULL,
    livemode        boolean     NOT NULL,
    schedule_id     uuid,
    -- The schedule's run this entry funds (its next_run when it ran).
    run_at          timestamptz,
    amount          bigint      NOT NULL CHECK (amount > 0),
    currency        text        NOT NULL CHECK (currency = 'USD'),
    source          text        NOT NULL CHECK (source IN ('manual_push', 'schedule')),
    -- A top-up's body idempotency_key (its own rule, not the header's).
    idempotency_key text        CHECK (length(idempotency_key) BETWEEN 1 AND 255),
    created         timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, schedule_id) REFERENCES payout_funding_schedules (merchant_id, livemode, id),
    CHECK ((source = 'schedule') = (schedule_id IS NOT NULL)),
    CHECK ((schedule_id IS NULL) = (run_at IS NULL)),
    CHECK (source = 'manual_push' OR idempotency_key IS NULL)
);
CREATE INDEX payout_funding_entries_list_idx ON payout_funding_entries (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX payout_funding_entries_schedule_idx ON payout_funding_entries (merchant_id, livemode, schedule_id, created DESC, id DESC)
    WHERE schedule_id IS NOT NULL;
-- A repeated top-up key finds its entry; two at once cannot both fund.
CREATE UNIQUE INDEX payout_funding_entries_key_idx ON payout_funding_entries (merchant_id, livemode, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
-- One run of a schedule funds once, whatever sweeps race for it.
CREATE UNIQUE INDEX payout_funding_entries_run_idx ON payout_funding_entries (merchant_id, schedule_id, run_at)
    WHERE schedule_id IS NOT NULL;
