-- Rate limits by credential kind (internal/platform/ratelimit): the secret
-- key keeps its own budget per merchant and mode, while publishable keys and
-- session secrets, which sit in browsers, draw on a separate one, and on one
-- per client address too. budget names the bucket of a (merchant, mode):
-- '' is the secret key's (the rows kept from before), 'client' the public
-- credentials', 'client:<address>' one client address's.
ALTER TABLE rate_limit_buckets ADD COLUMN budget text NOT NULL DEFAULT '';
ALTER TABLE rate_limit_buckets DROP CONSTRAINT rate_limit_buckets_pkey;
ALTER TABLE rate_limit_buckets ADD PRIMARY KEY (merchant_id, livemode, budget);
