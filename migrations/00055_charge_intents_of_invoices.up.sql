-- A subscription invoice's payment attempts are charge intents (the real
-- service's SDK types a charge intent with its `subscription` and
-- `invoice`, and a subscription with its `latest_charge_intent`): each
-- attempt is an intent of the invoice's payer naming the invoice and its
-- subscription, and its charge names the intent. The subscription's
-- latest_charge_intent is read from its latest invoice's charge, so it is
-- kept nowhere twice.
ALTER TABLE charge_intents
    ADD COLUMN subscription_id uuid,
    ADD COLUMN invoice_id      uuid,
    ADD FOREIGN KEY (merchant_id, livemode, subscription_id) REFERENCES subscriptions (merchant_id, livemode, id),
    ADD FOREIGN KEY (merchant_id, livemode, invoice_id) REFERENCES invoices (merchant_id, livemode, id),
    ADD CHECK (subscription_id IS NULL OR invoice_id IS NOT NULL);
CREATE INDEX charge_intents_invoice_idx ON charge_intents (merchant_id, livemode, invoice_id)
    WHERE invoice_id IS NOT NULL;

-- An invoice's intent is written once, with the outcome of its charge, so
-- the charge (written first, naming the intent) is checked against its
-- intent when the transaction commits.
ALTER TABLE charges ALTER CONSTRAINT charges_charge_intent_fk DEFERRABLE INITIALLY DEFERRED;

-- A charge is made for a transfer, or for a charge intent, an invoice, or
-- both (an invoice's payment attempt made through its intent).
ALTER TABLE charges DROP CONSTRAINT charges_made_for_one;
ALTER TABLE charges ADD CONSTRAINT charges_made_for_one
    CHECK (num_nonnulls(transfer_id, coalesce(charge_intent_id, invoice_id)) = 1);
