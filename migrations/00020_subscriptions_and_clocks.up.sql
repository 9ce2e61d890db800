-- Subscriptions, their phases and change logs, and sandbox test clocks
-- (spec doc 2 §2.4, §3, §4.4; API-DECISIONS §4, §7).

-- A sandbox test clock: the time of the accounts and customers bound to it
-- and of everything they own. Its row lock serializes advances.
CREATE TABLE test_clocks (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL CHECK (NOT livemode),
    name        text,
    frozen_time timestamptz NOT NULL,
    status      text        NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'advancing')),
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE INDEX test_clocks_list_idx ON test_clocks (merchant_id, livemode, created DESC, id DESC);

-- Payers bound to a clock when created with test_clock. Deleting a clock
-- deletes them (and what they own) first, so the keys need no cascade.
ALTER TABLE accounts ADD COLUMN test_clock_id uuid;
ALTER TABLE accounts ADD FOREIGN KEY (merchant_id, livemode, test_clock_id) REFERENCES test_clocks (merchant_id, livemode, id);
CREATE INDEX accounts_test_clock_idx ON accounts (merchant_id, test_clock_id) WHERE test_clock_id IS NOT NULL;
ALTER TABLE customers ADD COLUMN test_clock_id uuid;
ALTER TABLE customers ADD FOREIGN KEY (merchant_id, livemode, test_clock_id) REFERENCES test_clocks (merchant_id, livemode, id);
CREATE INDEX customers_test_clock_idx ON customers (merchant_id, test_clock_id) WHERE test_clock_id IS NOT NULL;

CREATE TABLE subscriptions (
    merchant_id               uuid        NOT NULL REFERENCES merchants (id),
    id                        uuid        NOT NULL,
    livemode                  boolean     NOT NULL,
    status                    text        NOT NULL CHECK (status IN ('pending', 'active', 'paused', 'past_due',
                                                         'unpaid', 'incomplete', 'canceled', 'terminated')),
    customer_id               uuid,
    account_id                uuid,
    -- The payer's clock, copied when the subscription is created (a payer
    -- never changes clock), so due renewals are found per clock.
    test_clock_id             uuid,
    product_id                uuid        NOT NULL,
    currency                  text        NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
    quantity                  integer     NOT NULL DEFAULT 1 CHECK (quantity > 0),
    default_payment_method_id uuid,
    description               text,
    proration_behavior        text        NOT NULL CHECK (proration_behavior IN ('create_prorations', 'always_invoice', 'none')),
    -- The instant period 0 starts: every boundary is computed from it
    -- (docs/billing.md, the billing calendar).
    anchor                    timestamptz NOT NULL,
    -- The number of the current period, and its bounds.
    period_number             integer     NOT NULL DEFAULT 0 CHECK (period_number >= 0),
    current_period_start      timestamptz,
    current_period_end        timestamptz,
    -- What was actually charged for the current period: the base of a
    -- swap's credit.
    period_amount_charged     bigint      NOT NULL DEFAULT 0 CHECK (period_amount_charged >= 0),
    -- Credit owed to the payer (a negative proration), applied to the
    -- next invoices.
    credit_balance            bigint      NOT NULL DEFAULT 0 CHECK (credit_balance >= 0),
    paused_at                 timestamptz,
    resume_at                 timestamptz,
    canceled_at               timestamptz,
    -- A downgrade or interval switch queued for the next renewal.
    scheduled_change_id       uuid,
    scheduled_product_id      uuid,
    scheduled_interval_switch boolean,
    scheduled_change_created  timestamptz,
    -- Dunning: when the open invoice is charged again, and how often it
    -- has been.
    next_payment_attempt      timestamptz,
    latest_invoice_id         uuid,
    metadata                  jsonb       NOT NULL DEFAULT '{}',
    created                   timestamptz NOT NULL,
    updated                   timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, test_clock_id) REFERENCES test_clocks (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, scheduled_product_id) REFERENCES products (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, default_payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    CHECK (num_nonnulls(customer_id, account_id) = 1),
    CHECK ((scheduled_change_id IS NULL) = (scheduled_product_id IS NULL)),
    CHECK (current_period_start IS NULL OR current_period_end > current_period_start)
);
CREATE INDEX subscriptions_list_idx ON subscriptions (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX subscriptions_status_idx ON subscriptions (merchant_id, livemode, status, created DESC, id DESC);
CREATE INDEX subscriptions_customer_idx ON subscriptions (merchant_id, livemode, customer_id, created DESC, id DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX subscriptions_account_idx ON subscriptions (merchant_id, livemode, account_id, created DESC, id DESC) WHERE account_id IS NOT NULL;
CREATE INDEX subscriptions_product_idx ON subscriptions (merchant_id, livemode, product_id);
-- What falls due: renewals at the period's end, retries, resumes.
-- Renewals: the statuses whose periods roll (the renewals source asks
-- for exactly these, in this order, so the planner proves the index's
-- predicate).
CREATE INDEX subscriptions_renewal_due_idx ON subscriptions (merchant_id, test_clock_id, current_period_end)
    WHERE status IN ('active', 'past_due', 'paused');
CREATE INDEX subscriptions_retry_due_idx ON subscriptions (merchant_id, test_clock_id, next_payment_attempt)
    WHERE next_payment_attempt IS NOT NULL;
CREATE INDEX subscriptions_resume_due_idx ON subscriptions (merchant_id, test_clock_id, resume_at)
    WHERE status = 'paused' AND resume_at IS NOT NULL;

-- Phases of one subscription, copied from its product's phases when it is
-- created and then its own (spec doc 2 §2.4: phaseable_type Subscription).
CREATE TABLE subscription_phases (
    merchant_id         uuid        NOT NULL,
    id                  uuid        NOT NULL,
    livemode            boolean     NOT NULL,
    subscription_id     uuid        NOT NULL,
    ordinal             integer     NOT NULL,
    name                text,
    pricing_type        text        NOT NULL CHECK (pricing_type IN ('static', 'relative')),
    amount              bigint      CHECK (amount >= 0),
    discount_percentage numeric(5, 2) CHECK (discount_percentage BETWEEN 0 AND 100),
    period_count        integer     CHECK (period_count > 0),
    currency            text        NOT NULL,
    -- When the phase first priced a period.
    started_at          timestamptz,
    created             timestamptz NOT NULL,
    updated             timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, subscription_id) REFERENCES subscriptions (merchant_id, livemode, id) ON DELETE CASCADE,
    CONSTRAINT subscription_phases_ordinal_key UNIQUE (merchant_id, subscription_id, ordinal),
    CHECK ((pricing_type = 'static') = (amount IS NOT NULL)),
    CHECK ((pricing_type = 'relative') = (discount_percentage IS NOT NULL))
);

-- One row per product swap (API-DECISIONS §9: swaps only).
CREATE TABLE subscription_change_logs (
    merchant_id         uuid        NOT NULL,
    id                  uuid        NOT NULL,
    livemode            boolean     NOT NULL,
    subscription_id     uuid        NOT NULL,
    proration_behavior  text        NOT NULL,
    previous_product_id uuid        NOT NULL,
    new_product_id      uuid        NOT NULL,
    previous_plan       jsonb       NOT NULL,
    current_plan        jsonb       NOT NULL,
    effective_date      timestamptz NOT NULL,
    created             timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, subscription_id) REFERENCES subscriptions (merchant_id, livemode, id) ON DELETE CASCADE
);
CREATE INDEX subscription_change_logs_subscription_idx
    ON subscription_change_logs (merchant_id, livemode, subscription_id, created DESC, id DESC);

-- Proration lines of a swap under create_prorations, waiting for the next
-- cycle's invoice (invoice_id set when it takes them).
CREATE TABLE subscription_pending_lines (
    merchant_id     uuid        NOT NULL,
    id              uuid        NOT NULL,
    livemode        boolean     NOT NULL,
    subscription_id uuid        NOT NULL,
    kind            text        NOT NULL CHECK (kind IN ('proration_credit', 'proration_charge')),
    product_id      uuid        NOT NULL,
    description     text        NOT NULL,
    amount          bigint      NOT NULL CHECK ((kind = 'proration_credit') = (amount <= 0)),
    period_start    timestamptz NOT NULL,
    period_end      timestamptz NOT NULL,
    proportion      text        NOT NULL,
    invoice_id      uuid,
    created         timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, subscription_id) REFERENCES subscriptions (merchant_id, livemode, id) ON DELETE CASCADE,
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id)
);
CREATE INDEX subscription_pending_lines_open_idx ON subscription_pending_lines (merchant_id, subscription_id) WHERE invoice_id IS NULL;

-- Invoices of subscriptions: the key to the subscription, the payer's
-- clock (for due dates and retries), and the overdue notice once sent.
ALTER TABLE invoices ADD FOREIGN KEY (merchant_id, livemode, subscription_id) REFERENCES subscriptions (merchant_id, livemode, id);
ALTER TABLE invoices ADD COLUMN test_clock_id uuid;
ALTER TABLE invoices ADD FOREIGN KEY (merchant_id, livemode, test_clock_id) REFERENCES test_clocks (merchant_id, livemode, id);
ALTER TABLE invoices ADD COLUMN overdue_at timestamptz;
CREATE INDEX invoices_overdue_due_idx ON invoices (merchant_id, test_clock_id, due_date)
    WHERE status = 'open' AND overdue_at IS NULL AND due_date IS NOT NULL;

-- Lines of a subscription's invoice: the period billed, proration credits
-- (negative) and charges with their window and proportion, and credit
-- applied from the payer's balance (negative).
ALTER TABLE invoice_line_items ADD COLUMN kind text NOT NULL DEFAULT 'item'
    CHECK (kind IN ('item', 'subscription', 'proration_credit', 'proration_charge', 'balance'));
ALTER TABLE invoice_line_items ADD COLUMN period_start timestamptz;
ALTER TABLE invoice_line_items ADD COLUMN period_end timestamptz;
ALTER TABLE invoice_line_items ADD COLUMN proportion text;
DO $$
DECLARE c text;
BEGIN
    SELECT conname INTO STRICT c FROM pg_constraint
     WHERE conrelid = 'invoice_line_items'::regclass AND contype = 'c'
       AND pg_get_constraintdef(oid) LIKE '%unit_amount_cents >= 0%';
    EXECUTE format('ALTER TABLE invoice_line_items DROP CONSTRAINT %I', c);
END $$;
ALTER TABLE invoice_line_items ADD CONSTRAINT invoice_line_items_sign CHECK
    ((kind IN ('proration_credit', 'balance')) = (unit_amount_cents < 0) OR unit_amount_cents = 0);
