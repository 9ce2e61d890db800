package op

import "context"

// Reader is a resource's reads bound to the kit, ready to embed in the
// service of its family: the service then has Get, ByIDs and List without
// writing them.
//
//	type Refunds struct {
//		op.Reader[models.Refund, RefundFilter]
//		OfTransfers op.Batch[[]*models.Refund]
//	}
type Reader[M, F any] struct {
	Table *Table[M]
	Kit   *Kit
}

// Read binds t to k.
func Read[M, F any](k *Kit, t *Table[M]) Reader[M, F] { return Reader[M, F]{Table: t, Kit: k} }

// Get returns one object by id (Table.Get).
func (r Reader[M, F]) Get(ctx context.Context, id string) (*M, error) {
	return r.Table.Get(ctx, r.Kit, id)
}

// ByIDs answers a dataloader's batch (Table.ByIDs).
func (r Reader[M, F]) ByIDs(ctx context.Context, idList []string) ([]*M, []error) {
	return r.Table.ByIDs(ctx, r.Kit, idList)
}

// List is the resource's one list (Table.List).
func (r Reader[M, F]) List(ctx context.Context, f F, lp ListParams) (Page[*M], error) {
	return r.Table.List(ctx, r.Kit, f, lp)
}

// Batch is a batched read for a dataloader: one value or one error per id,
// in the order asked.
type Batch[T any] func(ctx context.Context, ids []string) ([]T, []error)

// Bind binds the edge to k.
func (c *Children[M]) Bind(k *Kit) Batch[[]*M] {
	return func(ctx context.Context, ids []string) ([][]*M, []error) { return c.Load(ctx, k, ids) }
}

// NoFilter is the filter of a resource listed without one.
type NoFilter struct{}
