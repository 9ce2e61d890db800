-- A usage invoice and an auto-charge claim a payer's unbilled events of a
-- window by their predicate (payer, window, not yet billed) and aggregate
-- them in the same statement; a threshold's progress reads the same
-- aggregate. These partial indexes hold only the unbilled events, keyed
-- by the predicate, with what the aggregate reads included: billed
-- history leaves them once claimed, so a claim or a progress read visits
-- the window's pending events alone, from the index.
CREATE INDEX metering_events_customer_unbilled_idx ON metering_events
    (merchant_id, livemode, customer_id, "timestamp") INCLUDE (id, event_name, meter_id, value, markup_percentage)
    WHERE customer_id IS NOT NULL AND invoice_id IS NULL;
CREATE INDEX metering_events_account_unbilled_idx ON metering_events
    (merchant_id, livemode, account_id, "timestamp") INCLUDE (id, event_name, meter_id, value, markup_percentage)
    WHERE account_id IS NOT NULL AND invoice_id IS NULL;

-- node(id:) of an id that is no other resource's looks for a dispute
-- document: a document has no row of its own but lives in its dispute's
-- evidence, so the look-up is a containment test on the documents array,
-- which this index answers instead of a scan of every dispute.
CREATE INDEX disputes_evidence_documents_idx ON disputes USING gin ((evidence -> 'documents') jsonb_path_ops);
