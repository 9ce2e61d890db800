package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/billing"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// subscriptionRoutes mounts /v1/subscriptions and their change logs (spec
// doc 2 §4.4, API-DECISIONS §4). Their lists answer under the spec's
// names: {meta, subscriptions} and {meta, subscription_change_logs}.
func subscriptionRoutes(r chi.Router, svc *billing.Service) {
	ss, cl := svc.Subscriptions, svc.ChangeLogs
	r.Post("/v1/subscriptions", create(ss.Create))
	r.Get("/v1/subscriptions", listAs("subscriptions", ss.ListAll))
	r.Get("/v1/subscriptions/search", listAs("subscriptions", ss.List))
	r.Get("/v1/subscriptions/{id}", get(ss.Get))
	r.Patch("/v1/subscriptions/{id}", update(ss.Update))
	r.Post("/v1/subscriptions/{id}/cancel", action(ss.Cancel))
	r.Post("/v1/subscriptions/{id}/pause", update(ss.Pause))
	r.Post("/v1/subscriptions/{id}/resume", action(ss.Resume))
	r.Delete("/v1/subscriptions/{id}/scheduled_change", action(ss.DeleteScheduledChange))
	r.Get("/v1/subscriptions/{id}/change_logs", listInAs("subscription_change_logs", cl.ListOf))
	r.Get("/v1/subscription_change_logs", listAs("subscription_change_logs", cl.List))
}

// listAs is list with the items under key instead of data.
func listAs[F, T any](key string, fn lister[F, T]) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := newQuery(r)
		f := filter[F](q)
		pp := q.page()
		if err := q.err(); err != nil {
			WriteError(w, r, err)
			return
		}
		page, err := fn(r.Context(), f, op.ListParams{PageParams: pp})
		respondKeyed(w, r, key, page, err)
	}
}

// listInAs is listIn with the items under key instead of data.
func listInAs[F, T any](key string, fn func(ctx context.Context, parent string, f F, lp op.ListParams) (op.Page[T], error)) http.HandlerFunc {
	return listAs(key, func(ctx context.Context, f F, lp op.ListParams) (op.Page[T], error) {
		return fn(ctx, chi.URLParamFromCtx(ctx, "id"), f, lp)
	})
}

// respondKeyed renders a page as {"meta": ..., key: [...]}.
func respondKeyed[T any](w http.ResponseWriter, r *http.Request, key string, page op.Page[T], err error) {
	if err != nil {
		WriteError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, keyedPage[T]{meta: page.Meta(r.URL.Path), key: key, items: page.Items})
}

// keyedPage is a page whose items are under key.
type keyedPage[T any] struct {
	meta  any
	key   string
	items []T
}

func (p keyedPage[T]) appendJSON(buf *bytes.Buffer) error {
	buf.WriteString(`{"meta":`)
	if err := appendJSON(buf, p.meta); err != nil {
		return err
	}
	k, _ := json.Marshal(p.key)
	buf.WriteByte(',')
	buf.Write(k)
	buf.WriteString(`:[`)
	for i, item := range p.items {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := appendJSON(buf, item); err != nil {
			return err
		}
	}
	buf.WriteString(`]}`)
	return nil
}
