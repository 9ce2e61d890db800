-- Catalog, customers, payment methods, coupons, promotion codes and
-- discounts (spec doc 2 §2.1-2.3, §2.8). Every table is keyed
-- (merchant_id, id) with composite foreign keys that include livemode, so a
-- row can never point at another merchant's, or the other mode's, row.

CREATE TABLE customers (
    merchant_id      uuid        NOT NULL REFERENCES merchants (id),
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    name             text,
    email            text        NOT NULL,
    phone            text,
    description      text,
    status           text        NOT NULL CHECK (status IN ('active', 'blocked')),
    date_of_birth    text,
    -- Only the last four digits of an SSN are kept (never returned): they
    -- record that one was given, which can then not be removed.
    ssn_last_four    text,
    billing_address  jsonb,
    shipping_address jsonb,
    metadata         jsonb       NOT NULL DEFAULT '{}',
    deleted          timestamptz,
    created          timestamptz NOT NULL,
    updated          timestamptz NOT NULL,
    search_email     text GENERATED ALWAYS AS (lower(email)) STORED,
    search_name      text GENERATED ALWAYS AS (lower(coalesce(name, ''))) STORED,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE INDEX customers_list_idx ON customers (merchant_id, livemode, created DESC, id DESC) WHERE deleted IS NULL;
CREATE INDEX customers_email_idx ON customers (merchant_id, livemode, search_email) WHERE deleted IS NULL;
CREATE INDEX customers_phone_idx ON customers (merchant_id, livemode, phone) WHERE deleted IS NULL;

CREATE TABLE products (
    merchant_id     uuid        NOT NULL REFERENCES merchants (id),
    id              uuid        NOT NULL,
    livemode        boolean     NOT NULL,
    name            text        NOT NULL,
    description     text,
    url             text,
    shippable       boolean     NOT NULL DEFAULT false,
    purchase_type   text        NOT NULL CHECK (purchase_type IN ('one_time', 'recurring')),
    recurring       jsonb,
    default_price   bigint      NOT NULL DEFAULT 0 CHECK (default_price >= 0),
    billing_credits bigint,
    active          boolean     NOT NULL DEFAULT true,
    image           text,
    metadata        jsonb       NOT NULL DEFAULT '{}',
    created         timestamptz NOT NULL,
    updated         timestamptz NOT NULL,
    search_name     text GENERATED ALWAYS AS (lower(name)) STORED,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    CHECK ((purchase_type = 'recurring') = (recurring IS NOT NULL))
);
CREATE INDEX products_list_idx ON products (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX products_active_idx ON products (merchant_id, livemode, active, created DESC, id DESC);

-- Billing phase templates of a product. Phases go with their product;
-- records that bill a product (charges, subscriptions, invoice lines) refer
-- to it without a cascade, so such a product cannot be deleted.
CREATE TABLE product_phases (
    merchant_id         uuid        NOT NULL,
    id                  uuid        NOT NULL,
    livemode            boolean     NOT NULL,
    product_id          uuid        NOT NULL,
    ordinal             integer     NOT NULL,
    name                text,
    pricing_type        text        NOT NULL CHECK (pricing_type IN ('static', 'relative')),
    amount              bigint      CHECK (amount >= 0),
    discount_percentage numeric(5, 2) CHECK (discount_percentage BETWEEN 0 AND 100),
    period_count        integer     CHECK (period_count > 0),
    currency            text        NOT NULL,
    created             timestamptz NOT NULL,
    updated             timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id) ON DELETE CASCADE,
    CONSTRAINT product_phases_ordinal_key UNIQUE (merchant_id, product_id, ordinal),
    CHECK ((pricing_type = 'static') = (amount IS NOT NULL)),
    CHECK ((pricing_type = 'relative') = (discount_percentage IS NOT NULL))
);

-- Payment methods. A card number is never stored: only its last four
-- digits, brand and a keyed fingerprint (HMAC with the server secret).
CREATE TABLE payment_methods (
    merchant_id   uuid        NOT NULL REFERENCES merchants (id),
    id            uuid        NOT NULL,
    livemode      boolean     NOT NULL,
    type          text        NOT NULL CHECK (type IN ('card', 'ach')),
    status        text        NOT NULL CHECK (status IN ('active', 'blocked', 'detached')),
    customer_id   uuid,
    account_id    uuid,
    billing       jsonb,
    card          jsonb,
    ach           jsonb,
    fingerprint   text,
    -- Single-use wallet credentials, left out of lists by default.
    single_use    boolean     NOT NULL DEFAULT false,
    -- What the sandbox processor will answer for this method (a decline
    -- code, a 3-D Secure flow); null for an ordinary success.
    sandbox_outcome text,
    created       timestamptz NOT NULL,
    updated       timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    CHECK (customer_id IS NULL OR account_id IS NULL),
    CHECK ((type = 'card') = (card IS NOT NULL)),
    CHECK ((type = 'ach') = (ach IS NOT NULL))
);
CREATE INDEX payment_methods_list_idx ON payment_methods (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX payment_methods_customer_idx ON payment_methods (merchant_id, livemode, customer_id, created DESC, id DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX payment_methods_account_idx ON payment_methods (merchant_id, livemode, account_id, created DESC, id DESC) WHERE account_id IS NOT NULL;

CREATE TABLE coupons (
    merchant_id                   uuid        NOT NULL REFERENCES merchants (id),
    id                            uuid        NOT NULL,
    livemode                      boolean     NOT NULL,
    name                          text        NOT NULL,
    description                   text,
    discount_type                 text        NOT NULL CHECK (discount_type IN ('percentage', 'fixed_amount')),
    -- Basis points of a percentage, or minor units of a fixed amount.
    discount_value                bigint      NOT NULL CHECK (discount_value >= 0),
    discount_value_currency       text,
    duration                      text        NOT NULL CHECK (duration IN ('once', 'repeating', 'forever')),
    duration_in_months            integer,
    status                        text        NOT NULL CHECK (status IN ('active', 'inactive', 'archived', 'deleted')),
    applicable_to                 text        NOT NULL CHECK (applicable_to IN ('all_products', 'specific_products')),
    product_id                    uuid,
    max_redemptions               integer     CHECK (max_redemptions > 0),
    times_redeemed                integer     NOT NULL DEFAULT 0,
    minimum_order_amount_cents    bigint,
    minimum_order_amount_currency text,
    discount_cap_cents            bigint,
    discount_cap_currency         text,
    valid_from                    timestamptz,
    valid_until                   timestamptz,
    created                       timestamptz NOT NULL,
    updated                       timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id),
    CHECK (discount_type <> 'percentage' OR discount_value <= 10000),
    CHECK ((duration = 'repeating') = (duration_in_months IS NOT NULL)),
    CHECK ((applicable_to = 'specific_products') = (product_id IS NOT NULL)),
    -- The last line of defence of the redemption limit: redemptions lock the
    -- row, and the database refuses a count past the limit whatever happens.
    CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions)
);
CREATE UNIQUE INDEX coupons_name_key ON coupons (merchant_id, livemode, lower(name));
CREATE INDEX coupons_list_idx ON coupons (merchant_id, livemode, created DESC, id DESC);

CREATE TABLE promotion_codes (
    merchant_id              uuid        NOT NULL REFERENCES merchants (id),
    id                       uuid        NOT NULL,
    livemode                 boolean     NOT NULL,
    code                     text        NOT NULL,
    coupon_id                uuid        NOT NULL,
    customer_id              uuid,
    active                   boolean     NOT NULL DEFAULT true,
    first_time_transaction   boolean     NOT NULL DEFAULT false,
    max_redemptions          integer     CHECK (max_redemptions > 0),
    max_customer_redemptions integer     CHECK (max_customer_redemptions > 0),
    times_redeemed           integer     NOT NULL DEFAULT 0,
    minimum_amount_cents     bigint      CHECK (minimum_amount_cents >= 0),
    minimum_amount_currency  text        NOT NULL DEFAULT 'USD',
    expires_at               timestamptz,
    created                  timestamptz NOT NULL,
    updated                  timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, coupon_id) REFERENCES coupons (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    CHECK (code = upper(code)),
    CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions)
);
CREATE UNIQUE INDEX promotion_codes_code_key ON promotion_codes (merchant_id, livemode, code);
CREATE INDEX promotion_codes_list_idx ON promotion_codes (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX promotion_codes_coupon_idx ON promotion_codes (merchant_id, livemode, coupon_id);

-- A discount applied to something billed (a charge intent, an invoice, a
-- transfer), written by the one redemption function.
CREATE TABLE discounts (
    merchant_id              uuid        NOT NULL REFERENCES merchants (id),
    id                       uuid        NOT NULL,
    livemode                 boolean     NOT NULL,
    coupon_id                uuid        NOT NULL,
    promotion_code_id        uuid,
    customer_id              uuid,
    account_id               uuid,
    discountable_type        text        NOT NULL,
    discountable_id          uuid,
    application_order        integer     NOT NULL,
    discount_amount_cents    bigint      NOT NULL CHECK (discount_amount_cents >= 0),
    discount_amount_currency text        NOT NULL,
    created                  timestamptz NOT NULL,
    updated                  timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, coupon_id) REFERENCES coupons (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, promotion_code_id) REFERENCES promotion_codes (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE INDEX discounts_list_idx ON discounts (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX discounts_customer_idx ON discounts (merchant_id, livemode, customer_id, created DESC, id DESC) WHERE customer_id IS NOT NULL;
CREATE INDEX discounts_account_idx ON discounts (merchant_id, livemode, account_id, created DESC, id DESC) WHERE account_id IS NOT NULL;
CREATE INDEX discounts_promotion_code_idx ON discounts (merchant_id, livemode, promotion_code_id, customer_id, account_id);
