package models

import "github.com/uptrace/bun"

// MaxPerPage is the largest page size; larger requests are clamped to it.
const MaxPerPage = 100

// DefaultPerPage is the page size when none is asked for.
const DefaultPerPage = 10

// PageParams is a page-number request (spec doc 1 §8).
type PageParams struct {
	Page    int
	PerPage int
}

// Normalized applies the defaults and the clamp.
func (p PageParams) Normalized() PageParams {
	if p.Page < 1 {
		p.Page = 1
	}
	if p.PerPage < 1 {
		p.PerPage = DefaultPerPage
	}
	if p.PerPage > MaxPerPage {
		p.PerPage = MaxPerPage
	}
	return p
}

// Offset is the number of rows before the page. Pages have no upper bound
// (spec), so the product saturates instead of overflowing.
func (p PageParams) Offset() int64 {
	const maxOffset = int64(1) << 53
	if int64(p.Page-1) > maxOffset/int64(p.PerPage) {
		return maxOffset
	}
	return int64(p.Page-1) * int64(p.PerPage)
}

// Apply limits q to the page plus one look-ahead row.
func (p PageParams) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Limit(int64(p.PerPage) + 1).Offset(p.Offset())
}

// ListMeta is the pagination meta block of every list response.
type ListMeta struct {
	Page    int    `json:"page"`
	URL     string `json:"url"`
	HasMore bool   `json:"has_more"`
	Prev    *int   `json:"prev"`
	Next    *int   `json:"next"`
}

// Page is one page of results. The query fetches PerPage+1 rows; the extra
// row only tells whether there is more, which makes has_more authoritative
// without counting.
type Page[T any] struct {
	Items   []T
	Params  PageParams
	HasMore bool
}

// NewPage trims the look-ahead row from rows.
func NewPage[T any](rows []T, p PageParams) Page[T] {
	has := len(rows) > p.PerPage
	if has {
		rows = rows[:p.PerPage]
	}
	if rows == nil {
		rows = []T{}
	}
	return Page[T]{Items: rows, Params: p, HasMore: has}
}

// Meta builds the meta block for a page served at url.
func (pg Page[T]) Meta(url string) ListMeta {
	m := ListMeta{Page: pg.Params.Page, URL: url, HasMore: pg.HasMore}
	if pg.Params.Page > 1 {
		prev := pg.Params.Page - 1
		m.Prev = &prev
	}
	if pg.HasMore {
		next := pg.Params.Page + 1
		m.Next = &next
	}
	return m
}
