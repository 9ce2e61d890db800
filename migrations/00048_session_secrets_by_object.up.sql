-- A secret key's read of a charge intent shows its live client secret
-- again (made again from the record that keeps its hash): the records are
-- found by the object they belong to, a page of objects at a time.
CREATE INDEX session_secrets_object_idx ON session_secrets (merchant_id, session_id, kind);
