-- Usage billing (spec doc 2 §2.6, §4.6; docs/billing.md, "Usage billing"):
-- meters, metering events, the windows usage invoices billed, billing
-- credit pools and what invoices took from them, and auto-charge
-- thresholds. New tables, and four nullable columns on invoice line items.

-- How one event name's usage is aggregated and priced. One per event name
-- of a merchant and mode: the first event of a name makes it (sum, not
-- priced), POST /v1/billing/metering configures it. product prices one
-- unit of usage at its default_price; usage of a meter without a product
-- is reported but not billed.
CREATE TABLE billing_meters (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    event_name  text        NOT NULL,
    aggregation text        NOT NULL DEFAULT 'sum' CHECK (aggregation IN ('sum', 'count', 'max')),
    product_id  uuid,
    metadata    jsonb       NOT NULL DEFAULT '{}',
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    UNIQUE (merchant_id, livemode, event_name),
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id)
);
CREATE INDEX billing_meters_list_idx ON billing_meters (merchant_id, livemode, created DESC, id DESC);

-- One unit of usage reported by the merchant. (event_name, reference) is
-- unique per merchant and mode for ever: a repeated reference answers the
-- original event and changes nothing. invoice_id is the invoice that
-- billed it (a usage invoice's window or an auto-charge); a billed event
-- no longer changes.
CREATE TABLE metering_events (
    merchant_id       uuid        NOT NULL REFERENCES merchants (id),
    id                uuid        NOT NULL,
    livemode          boolean     NOT NULL,
    meter_id          uuid        NOT NULL,
    event_name        text        NOT NULL,
    reference         text        NOT NULL,
    customer_id       uuid,
    account_id        uuid,
    value             numeric     NOT NULL CHECK (value >= 0),
    markup_percentage numeric     CHECK (markup_percentage >= 0),
    "timestamp"       timestamptz NOT NULL,
    metadata          jsonb       NOT NULL DEFAULT '{}',
    invoice_id        uuid,
    created           timestamptz NOT NULL,
    updated           timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    UNIQUE (merchant_id, livemode, event_name, reference),
    CHECK (num_nonnulls(customer_id, account_id) = 1),
    FOREIGN KEY (merchant_id, livemode, meter_id) REFERENCES billing_meters (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id)
);
-- A payer's usage in a window, by event name: reports and invoices read
-- it from the index alone (index-only scans once the visibility map is
-- set), never from the table.
CREATE INDEX metering_events_customer_usage_idx ON metering_events
    (merchant_id, livemode, customer_id, "timestamp") INCLUDE (event_name, value, markup_percentage, invoice_id)
    WHERE customer_id IS NOT NULL;
CREATE INDEX metering_events_account_usage_idx ON metering_events
    (merchant_id, livemode, account_id, "timestamp") INCLUDE (event_name, value, markup_percentage, invoice_id)
    WHERE account_id IS NOT NULL;
CREATE INDEX metering_events_invoice_idx ON metering_events (merchant_id, invoice_id) WHERE invoice_id IS NOT NULL;
CREATE INDEX metering_events_list_idx ON metering_events (merchant_id, livemode, created DESC, id DESC);

-- The windows usage invoices billed, per payer and event name: a window
-- is never billed twice, and an event whose timestamp falls in a billed
-- window of its name is refused (its usage could no longer be billed).
-- Usage invoices of one payer are serialized (docs/billing.md), so the
-- overlap check needs no exclusion constraint.
CREATE TABLE usage_invoice_windows (
    merchant_id  uuid        NOT NULL REFERENCES merchants (id),
    livemode     boolean     NOT NULL,
    invoice_id   uuid        NOT NULL,
    event_name   text        NOT NULL,
    customer_id  uuid,
    account_id   uuid,
    period_start timestamptz NOT NULL,
    period_end   timestamptz NOT NULL CHECK (period_end > period_start),
    PRIMARY KEY (merchant_id, invoice_id, event_name),
    CHECK (num_nonnulls(customer_id, account_id) = 1),
    FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id)
);
CREATE INDEX usage_invoice_windows_customer_idx ON usage_invoice_windows
    (merchant_id, livemode, customer_id, event_name, period_start) WHERE customer_id IS NOT NULL;
CREATE INDEX usage_invoice_windows_account_idx ON usage_invoice_windows
    (merchant_id, livemode, account_id, event_name, period_start) WHERE account_id IS NOT NULL;

-- An event whose timestamp falls in a window already billed for its
-- payer and name is not inserted (its usage could no longer be billed): the
-- trigger skips the row, so the INSERT returns nothing, as for a repeated
-- reference, and the write tells the two apart. Usage invoices take the
-- payer's usage lock exclusively and ingest takes it shared, so the check
-- sees every window committed before the insert.
CREATE FUNCTION metering_events_skip_billed_windows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.customer_id IS NOT NULL THEN
        PERFORM FROM usage_invoice_windows w
         WHERE w.merchant_id = NEW.merchant_id AND w.livemode = NEW.livemode AND w.customer_id = NEW.customer_id
           AND w.event_name = NEW.event_name AND w.period_start <= NEW."timestamp" AND w.period_end > NEW."timestamp";
    ELSE
        PERFORM FROM usage_invoice_windows w
         WHERE w.merchant_id = NEW.merchant_id AND w.livemode = NEW.livemode AND w.account_id = NEW.account_id
           AND w.event_name = NEW.event_name AND w.period_start <= NEW."timestamp" AND w.period_end > NEW."timestamp";
    END IF;
    IF FOUND THEN
        RETURN NULL;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER metering_events_skip_billed_windows BEFORE INSERT ON metering_events
    FOR EACH ROW EXECUTE FUNCTION metering_events_skip_billed_windows();

-- A pool of credits a payer holds for a product: units of the usage of
-- the meters that product prices. used_credits only grows, never past the
-- allocation; a pool is applied by invoices made before it expires.
-- limited: the pool caps the payer's billed usage of the product (no
-- usage beyond what the payer's limited pools hold is charged).
CREATE TABLE billing_credits (
    merchant_id     uuid        NOT NULL REFERENCES merchants (id),
    id              uuid        NOT NULL,
    livemode        boolean     NOT NULL,
    customer_id     uuid,
    account_id      uuid,
    product_id      uuid        NOT NULL,
    billing_credits bigint      NOT NULL CHECK (billing_credits > 0),
    used_credits    numeric     NOT NULL DEFAULT 0 CHECK (used_credits >= 0 AND used_credits <= billing_credits),
    limited         boolean     NOT NULL DEFAULT false,
    watchlist       boolean     NOT NULL DEFAULT false,
    expires         timestamptz NOT NULL,
    exhausted_at    timestamptz,
    metadata        jsonb       NOT NULL DEFAULT '{}',
    created         timestamptz NOT NULL,
    updated         timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    CHECK (num_nonnulls(customer_id, account_id) = 1),
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
-- The pools an invoice may apply, in the order they are consumed.
CREATE INDEX billing_credits_customer_idx ON billing_credits
    (merchant_id, livemode, customer_id, product_id, expires, created, id) WHERE customer_id IS NOT NULL;
CREATE INDEX billing_credits_account_idx ON billing_credits
    (merchant_id, livemode, account_id, product_id, expires, created, id) WHERE account_id IS NOT NULL;
CREATE INDEX billing_credits_list_idx ON billing_credits (merchant_id, livemode, created DESC, id DESC);

-- What one invoice took from one pool.
CREATE TABLE billing_credit_uses (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    livemode    boolean     NOT NULL,
    credit_id   uuid        NOT NULL,
    invoice_id  uuid        NOT NULL,
    amount      numeric     NOT NULL CHECK (amount > 0),
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, credit_id, invoice_id),
    FOREIGN KEY (merchant_id, livemode, credit_id) REFERENCES billing_credits (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id)
);
CREATE INDEX billing_credit_uses_invoice_idx ON billing_credit_uses (merchant_id, invoice_id);

-- A payer's auto-charge threshold: when the priced usage not yet billed
-- in the current cycle reaches it, that usage is invoiced and charged at
-- once, and accumulation starts again. Its row lock serializes the
-- payer's threshold charges.
CREATE TABLE usage_thresholds (
    merchant_id            uuid        NOT NULL REFERENCES merchants (id),
    id                     uuid        NOT NULL,
    livemode               boolean     NOT NULL,
    customer_id            uuid,
    account_id             uuid,
    threshold_amount_cents bigint      NOT NULL CHECK (threshold_amount_cents > 0),
    billing_cycle          text        NOT NULL DEFAULT 'monthly' CHECK (billing_cycle IN ('monthly')),
    created                timestamptz NOT NULL,
    updated                timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, customer_id),
    UNIQUE (merchant_id, livemode, account_id),
    CHECK (num_nonnulls(customer_id, account_id) = 1),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);

-- A usage line bills one event name in a window: its aggregated usage,
-- the credits applied to it, and its meter.
ALTER TABLE invoice_line_items ADD COLUMN event_name text;
ALTER TABLE invoice_line_items ADD COLUMN usage numeric;
ALTER TABLE invoice_line_items ADD COLUMN credits_applied numeric;
ALTER TABLE invoice_line_items ADD COLUMN meter_id uuid;
ALTER TABLE invoice_line_items DROP CONSTRAINT invoice_line_items_kind_check;
ALTER TABLE invoice_line_items ADD CONSTRAINT invoice_line_items_kind_check
    CHECK (kind IN ('item', 'subscription', 'proration_credit', 'proration_charge', 'balance', 'usage'));
