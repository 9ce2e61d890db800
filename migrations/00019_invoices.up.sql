-- Invoices and their line items (spec doc 2 §2.5, §4.5; API-DECISIONS §4).

-- The last invoice number issued per merchant and mode. Issuing takes the
-- row's lock and increments it in the issuing transaction, so numbers are
-- handed out in commit order and a rolled-back issue returns its number:
-- the sequence has no gap and no duplicate (a Postgres SEQUENCE would leave
-- gaps on rollback).
CREATE TABLE invoice_number_sequences (
    merchant_id uuid    NOT NULL REFERENCES merchants (id),
    livemode    boolean NOT NULL,
    last_number bigint  NOT NULL CHECK (last_number > 0),
    PRIMARY KEY (merchant_id, livemode)
);

CREATE TABLE invoices (
    merchant_id               uuid        NOT NULL REFERENCES merchants (id),
    id                        uuid        NOT NULL,
    livemode                  boolean     NOT NULL,
    status                    text        NOT NULL CHECK (status IN ('draft', 'open', 'paid', 'void', 'uncollectible')),
    -- The gap-free number, given when the invoice is issued.
    number                    bigint      CHECK (number > 0),
    collection_method         text        NOT NULL CHECK (collection_method IN ('charge_automatically', 'request_payment')),
    customer_id               uuid,
    account_id                uuid,
    subscription_id           uuid,
    billing_reason            text        CHECK (billing_reason IN ('subscription_create', 'subscription_cycle',
                                                 'subscription_update', 'manual', 'usage')),
    currency                  text        NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
    -- Always the sum of the lines: checked when each transaction commits
    -- (invoices_total_is_sum_of_lines below).
    total                     bigint      NOT NULL DEFAULT 0 CHECK (total >= 0),
    net_terms                 integer     NOT NULL DEFAULT 0 CHECK (net_terms >= 0),
    due_date                  date,
    description               text,
    memo                      text,
    -- The latest charge attempted for the invoice, and its decline.
    charge_id                 uuid,
    attempt_count             integer     NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
    last_payment_error_code   text,
    last_payment_error_message text,
    issued_at                 timestamptz,
    paid_at                   timestamptz,
    voided_at                 timestamptz,
    marked_uncollectible_at   timestamptz,
    metadata                  jsonb       NOT NULL DEFAULT '{}',
    created                   timestamptz NOT NULL,
    updated                   timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, charge_id) REFERENCES charges (merchant_id, livemode, id),
    CHECK (num_nonnulls(customer_id, account_id) = 1),
    CHECK ((status = 'draft') = (number IS NULL)),
    CHECK (status <> 'paid' OR paid_at IS NOT NULL)
);
CREATE UNIQUE INDEX invoices_number_key ON invoices (merchant_id, livemode, number);
CREATE INDEX invoices_list_idx ON invoices (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX invoices_customer_idx ON invoices (merchant_id, livemode, customer_id, created DESC, id DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX invoices_account_idx ON invoices (merchant_id, livemode, account_id, created DESC, id DESC) WHERE account_id IS NOT NULL;
CREATE INDEX invoices_subscription_idx ON invoices (merchant_id, livemode, subscription_id) WHERE subscription_id IS NOT NULL;
CREATE INDEX invoices_status_idx ON invoices (merchant_id, livemode, status, due_date);
CREATE INDEX invoices_charge_idx ON invoices (merchant_id, livemode, charge_id) WHERE charge_id IS NOT NULL;

CREATE TABLE invoice_line_items (
    merchant_id          uuid        NOT NULL REFERENCES merchants (id),
    id                   uuid        NOT NULL,
    livemode             boolean     NOT NULL,
    invoice_id           uuid        NOT NULL,
    product_id           uuid        NOT NULL,
    description          text        NOT NULL,
    quantity             integer     NOT NULL CHECK (quantity > 0),
    unit_amount_cents    bigint      NOT NULL CHECK (unit_amount_cents >= 0),
    unit_amount_currency text        NOT NULL,
    created              timestamptz NOT NULL,
    updated              timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id) ON DELETE CASCADE,
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id)
);
CREATE INDEX invoice_line_items_invoice_idx ON invoice_line_items (merchant_id, livemode, invoice_id, created, id);
CREATE INDEX invoice_line_items_product_idx ON invoice_line_items (merchant_id, livemode, product_id);

-- An invoice's total is the sum of its lines, whatever wrote them: checked
-- once per changed invoice when the transaction commits, so a write may
-- change lines and total in any order.
CREATE FUNCTION invoices_check_total(inv_merchant uuid, inv_id uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    stored bigint;
    summed bigint;
BEGIN
    SELECT total INTO stored FROM invoices WHERE merchant_id = inv_merchant AND id = inv_id;
    IF NOT FOUND THEN
        RETURN; -- the invoice is gone (a draft deleted with its lines)
    END IF;
    SELECT coalesce(sum(quantity::bigint * unit_amount_cents), 0) INTO summed
      FROM invoice_line_items WHERE merchant_id = inv_merchant AND invoice_id = inv_id;
    IF stored <> summed THEN
        RAISE EXCEPTION 'invoice % total % is not the sum of its lines %', inv_id, stored, summed
            USING ERRCODE = 'check_violation', CONSTRAINT = 'invoices_total_is_sum_of_lines';
    END IF;
END $$;

CREATE FUNCTION invoices_check_own_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM invoices_check_total(NEW.merchant_id, NEW.id);
    RETURN NULL;
END $$;

CREATE FUNCTION invoice_lines_check_total() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM invoices_check_total(OLD.merchant_id, OLD.invoice_id);
    ELSE
        PERFORM invoices_check_total(NEW.merchant_id, NEW.invoice_id);
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER invoices_total_is_sum_of_lines AFTER INSERT OR UPDATE ON invoices
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION invoices_check_own_total();
CREATE CONSTRAINT TRIGGER invoice_lines_sum_to_total AFTER INSERT OR UPDATE OR DELETE ON invoice_line_items
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION invoice_lines_check_total();

-- A charge may now be made for an invoice: exactly one of a transfer, a
-- charge intent or an invoice.
ALTER TABLE charges ADD COLUMN invoice_id uuid;
ALTER TABLE charges ADD FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id);
DO $$
DECLARE c text;
BEGIN
    SELECT conname INTO STRICT c FROM pg_constraint
     WHERE conrelid = 'charges'::regclass AND contype = 'c'
       AND pg_get_constraintdef(oid) LIKE '%transfer_id IS NULL%charge_intent_id IS NULL%';
    EXECUTE format('ALTER TABLE charges DROP CONSTRAINT %I', c);
END $$;
ALTER TABLE charges ADD CONSTRAINT charges_made_for_one CHECK (num_nonnulls(transfer_id, charge_intent_id, invoice_id) = 1);
CREATE INDEX charges_invoice_idx ON charges (merchant_id, livemode, invoice_id) WHERE invoice_id IS NOT NULL;
