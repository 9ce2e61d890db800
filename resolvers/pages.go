package resolvers

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// pagesOf is the batch of a page edge's loader (loaders.AddPageEdge): its
// keys are parents' ids with the field's arguments (loaders.PageKey); the
// keys asking the same arguments are read together by fetch, one
// statement for all their parents, and each distinct set of arguments (an
// alias asking another page or filter) by one more. A is the arguments'
// shape, decoded from their JSON (json names as the schema's).
func pagesOf[A, M any](fetch func(ctx context.Context, parents []string, args A) ([]op.Page[*M], []error)) batch[*op.Page[*M]] {
	return func(ctx context.Context, keys []string) ([]*op.Page[*M], []error) {
		out, errs := make([]*op.Page[*M], len(keys)), make([]error, len(keys))
		var order []string
		groups := map[string][]int{}
		for i, k := range keys {
			_, args := loaders.SplitPageKey(k)
			if _, seen := groups[string(args)]; !seen {
				order = append(order, string(args))
			}
			groups[string(args)] = append(groups[string(args)], i)
		}
		for _, raw := range order {
			at := groups[raw]
			var args A
			if err := json.Unmarshal([]byte(raw), &args); err != nil {
				for _, i := range at {
					errs[i] = apierr.Internal(err)
				}
				continue
			}
			parents := make([]string, len(at))
			for j, i := range at {
				parents[j], _ = loaders.SplitPageKey(keys[i])
			}
			pages, perrs := fetch(ctx, parents, args)
			for j, i := range at {
				if j < len(pages) {
					page := pages[j]
					out[i] = &page
				}
				if j < len(perrs) {
					errs[i] = perrs[j]
				}
			}
		}
		return out, errs
	}
}

// pageEdge declares a page edge (loaders.AddPageEdge) beside its loader:
// the look-ahead reads the page of every parent of a level in one batch
// and walks the pages' nodes.
func pageEdge[P, M any](k loaders.Key[*op.Page[*M]], field string, parent func(*P) string) bool {
	edgeDecls = append(edgeDecls, func(reg *loaders.Registry) {
		loaders.AddPageEdge(reg, k, field, parent, func(p *op.Page[*M]) any { return p.Items })
	})
	return true
}

// pageOfParent is the page a page edge's field asks of its parent, from
// the loader (the look-ahead has read it with the pages of the parent's
// siblings), each node primed in node, mapped onto the connection's edges.
func pageOfParent[M, E any](ctx context.Context, k loaders.Key[*op.Page[*M]], parentID string, node loaders.Key[*M],
	edge func(cursor string, m *M) E) ([]E, *model.PageInfo, error) {
	key, ok := loaders.FieldPageKey(ctx, parentID)
	if !ok {
		return nil, nil, apierr.Internal(errors.New("resolvers: a page edge resolved outside a field"))
	}
	page, err := load(ctx, k, key)
	if err != nil {
		return nil, nil, err
	}
	if page == nil {
		page = &op.Page[*M]{}
	}
	for i, m := range page.Items {
		node.Prime(ctx, page.IDs[i], m)
	}
	edges, info := connect(*page, edge)
	return edges, info, nil
}
