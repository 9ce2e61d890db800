package op

import (
	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
)

// ByIDs answers a batched lookup (a dataloader's batch) in id order, one
// value or one error per id: authErr fails every id; an id that does not
// parse, or that visible (when given) refuses, is resource_missing without a
// query; load fetches the rest at once, and any id it does not return is
// resource_missing too, exactly as the single read answers it.
func ByIDs[T any](idList []string, resource string, authErr error, visible func(uuid.UUID) bool,
	load func(want []uuid.UUID) (map[uuid.UUID]T, error)) ([]T, []error) {
	out := make([]T, len(idList))
	errs := make([]error, len(idList))
	if authErr != nil {
		return out, fill(errs, authErr)
	}
	uids := make([]uuid.UUID, len(idList))
	var want []uuid.UUID
	for i, id := range idList {
		uid, ok := ids.Parse(id)
		if !ok || (visible != nil && !visible(uid)) {
			errs[i] = apierr.NotFound(resource, id)
			continue
		}
		uids[i] = uid
		want = append(want, uid)
	}
	found := map[uuid.UUID]T{}
	if len(want) > 0 {
		var err error
		if found, err = load(want); err != nil {
			return out, fill(errs, err)
		}
	}
	for i, id := range idList {
		if errs[i] != nil {
			continue
		}
		if v, ok := found[uids[i]]; ok {
			out[i] = v
		} else {
			errs[i] = apierr.NotFound(resource, id)
		}
	}
	return out, errs
}

// fill sets every unset entry of errs to err.
func fill(errs []error, err error) []error {
	for i := range errs {
		if errs[i] == nil {
			errs[i] = err
		}
	}
	return errs
}
