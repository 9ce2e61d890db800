-- Device attestation of the real service's SDK (docs/sandbox.md,
-- "Resources from the SDK"): a challenge issued to an app, then the app's
-- attestation of a key against it. New table only.

-- One challenge and what became of it. status: pending until attested,
-- then verified or rejected; a challenge is attested once, before
-- expires_at. Challenges are unique per merchant and mode, the look-up of
-- an attestation.
CREATE TABLE device_attestations (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    challenge   text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('pending', 'verified', 'rejected')),
    key_id      text,
    expires_at  timestamptz NOT NULL,
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, challenge)
);
