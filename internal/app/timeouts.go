package app

import "time"

// readyTimeout bounds the readiness probe's database check.
const readyTimeout = 2 * time.Second
