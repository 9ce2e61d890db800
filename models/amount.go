package models

import "github.com/frame-oss/payments-server/internal/domain/amount"

// MaxAmount is the one bound on money (internal/domain/amount): no amount,
// quantity, unit price or usage value the API accepts, and no product or
// sum of them it stores or charges, is beyond it. Input members carry
// `range:"amount"` and are checked by CheckRanges; products and sums are
// checked by the operations that compute them.
const MaxAmount = amount.Max

// ProblemAmount is the message of a member beyond MaxAmount.
var ProblemAmount = amount.Problem
