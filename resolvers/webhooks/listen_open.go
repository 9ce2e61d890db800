package webhooks

import (
	"context"
	"crypto/sha256"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/notify"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ListenSessions are the listen sessions of the real service's CLI
// (`frame listen`, API-DECISIONS §10): transient webhook destinations
// whose deliveries travel over the CLI's websocket instead of a POST. A
// session is a webhook endpoint of kind listen_session (its secret, its
// event filter: the events trigger queues its deliveries in each event's
// transaction) and a listen_sessions row (its resume token, the connection
// holding it, its expiry), so any server process can hold it, resume it,
// or know that it holds the merchant's endpoints back.
type ListenSessions struct {
	svc *Service
	cfg ListenConfig
}

func newListenSessions(s *Service) *ListenSessions {
	return &ListenSessions{svc: s, cfg: ListenConfig{}.withDefaults()}
}

// UseListenConfig sets the bounds of listen sessions; call it before
// serving.
func (s *Service) UseListenConfig(c ListenConfig) { s.Listen.cfg = c.withDefaults() }

// ListenRequest is a subscription to a listen session: what the CLI's
// subscribe identifier holds.
type ListenRequest struct {
	// EventCodes keeps only these event types; empty is every type.
	EventCodes []string `json:"event_codes"`
	// SkipEndpoints holds the merchant's sandbox endpoints back while the
	// session lives.
	SkipEndpoints bool `json:"skip_endpoints"`
	// SessionToken resumes the session it was given for, while that one
	// lives; another token opens a new session.
	SessionToken string `json:"-"`
}

// listenSessionURL is what a listen session's endpoint and the attempts
// its acknowledgements record show for a url.
const listenSessionURL = "cli://listen"

// tokenPrefix starts a session token.
const tokenPrefix = "lst_"

// Authorize refuses, before a websocket is opened, a caller that may not
// listen: sessions are for sandbox secret keys (the real service's CLI
// refuses production keys itself).
func (ls *ListenSessions) Authorize(ctx context.Context) (*auth.Principal, error) {
	p, err := auth.Require(ctx, managers...)
	if err != nil {
		return nil, err
	}
	if p.Scope.Livemode {
		return nil, apierr.Forbidden("Listen sessions are for sandbox secret keys; a production key may not listen")
	}
	return p, nil
}

// Open opens a listen session for the caller, or resumes the one
// req.SessionToken names while it lives (same secret, Replayed). The
// session's notifications are subscribed to once its transaction has
// committed; what was queued for it before then, Run sends first, read
// from the database. The caller runs it (Run) and releases it (Release)
// when its connection ends.
func (ls *ListenSessions) Open(ctx context.Context, req ListenRequest) (*ListenSession, error) {
	p, err := ls.Authorize(ctx)
	if err != nil {
		return nil, err
	}
	if err := models.CheckListenEventCodes(req.EventCodes); err != nil {
		return nil, err
	}
	hub := ls.svc.listenHub()
	if err := hub.WaitListening(ctx); err != nil {
		return nil, err
	}
	subCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	sess := &ListenSession{ls: ls, scope: p.Scope, holder: uuid.New(), cancel: cancel,
		inFlight: map[uuid.UUID]struct{}{}, room: make(chan struct{}, 1), sent: map[uuid.UUID]struct{}{}}
	spec := op.Spec{Name: "listen_session.open", Allow: managers, Params: req}
	_, err = op.Write(ctx, ls.svc.Kit, spec, func(ctx context.Context, w *op.W) (struct{}, error) {
		resumed, err := ls.resume(ctx, w, sess, req)
		if err != nil || resumed {
			return struct{}{}, err
		}
		return struct{}{}, ls.create(ctx, w, sess, req)
	})
	if err == nil {
		sess.sub, err = hub.SubscribeNow(subCtx, sess.ID)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return sess, nil
}

// create opens a new session: its endpoint and its row.
func (ls *ListenSessions) create(ctx context.Context, w *op.W, sess *ListenSession, req ListenRequest) error {
	if err := ls.checkLiveLimit(ctx, w.Tx); err != nil {
		return err
	}
	plain, sealed, err := ls.svc.newSealedSecret(ctx, listenSecretPrefix)
	if err != nil {
		return err
	}
	now := w.Now()
	sess.ID, sess.Secret, sess.Token = ids.New(now), plain, tokenPrefix+auth.RandomString(40)
	ep := &models.WebhookEndpoint{ID: sess.ID, URL: listenSessionURL, Status: models.WebhookEndpointActive,
		EventCodes: listenCodes(req.EventCodes), SealedSecret: sealed, Kind: models.WebhookEndpointListenSession,
		Created: wire.At(now), Updated: wire.At(now)}
	if _, err := w.Tx.Insert(ep).Exec(ctx); err != nil {
		return err
	}
	hash := sha256.Sum256([]byte(sess.Token))
	row := &models.ListenSession{ID: sess.ID, TokenHash: hash[:], SkipEndpoints: req.SkipEndpoints,
		Holder: &sess.holder, Expires: wire.At(now.Add(ls.cfg.ResumeWindow)), Created: wire.At(now), Updated: wire.At(now)}
	_, err = w.Tx.Insert(row).Exec(ctx)
	return err
}

// resume takes over the live session token names, if there is one: the
// connection holding it (in any process) is told to let go, and this one
// holds it with the same secret. A session past its expiry ends here; the
// caller then opens a new one.
func (ls *ListenSessions) resume(ctx context.Context, w *op.W, sess *ListenSession, req ListenRequest) (bool, error) {
	if req.SessionToken == "" {
		return false, nil
	}
	hash := sha256.Sum256([]byte(req.SessionToken))
	row := new(models.ListenSession)
	err := w.Tx.Select(row).Where("ls.token_hash = ?", hash[:]).For("UPDATE").Scan(ctx)
	if store.IsNoRows(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	now := w.Now()
	if !row.Ended.IsZero() {
		return false, nil
	}
	if !now.Before(row.Expires.Time) {
		return false, ls.end(ctx, w.Tx, row, now, "the listen session expired before the CLI acknowledged it")
	}
	ep := new(models.WebhookEndpoint)
	if err := w.Tx.Select(ep).Where("w.id = ?", row.ID).For("UPDATE").Scan(ctx); err != nil {
		return false, err
	}
	secret, err := ls.svc.Secret.Open(ctx, SecretPurpose, ep.SealedSecret)
	if err != nil {
		return false, err
	}
	// The subscription may ask for other events than before: it is what
	// the session delivers from now on.
	ep.EventCodes, ep.Updated = listenCodes(req.EventCodes), wire.At(now)
	if _, err := w.Tx.Update(ep).Column("event_codes", "updated").WherePK().Exec(ctx); err != nil {
		return false, err
	}
	row.Holder, row.SkipEndpoints = &sess.holder, req.SkipEndpoints
	row.Expires, row.Updated = wire.At(now.Add(ls.cfg.ResumeWindow)), wire.At(now)
	if _, err := w.Tx.Update(row).Column("holder", "skip_endpoints", "expires", "updated").WherePK().Exec(ctx); err != nil {
		return false, err
	}
	if err := w.Tx.PgxTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", listenChannel, takenPayload(row.ID, sess.holder))
		return err
	}); err != nil {
		return false, err
	}
	sess.ID, sess.Secret, sess.Token, sess.Replayed = row.ID, secret, req.SessionToken, true
	return true, nil
}

// listenCodes is a session's event filter as its endpoint stores it: the
// codes asked for, or every type.
func listenCodes(codes []string) []string {
	if len(codes) == 0 {
		return []string{webhook.AllEvents}
	}
	return models.NormalizeEventCodes(codes)
}

// checkLiveLimit refuses a session beyond ListenConfig.MaxLive. Opens of
// one merchant take a lock first, so two cannot both see room for one.
func (ls *ListenSessions) checkLiveLimit(ctx context.Context, tx *store.Tenant) error {
	if err := tx.Lock(ctx, "listen_sessions.open"); err != nil {
		return err
	}
	n, err := tx.Select((*models.ListenSession)(nil)).Where("ls.ended IS NULL").Count(ctx)
	if err != nil {
		return err
	}
	if n >= int64(ls.cfg.MaxLive) {
		return apierr.Rule("listen_session_limit_reached", fmt.Sprintf(
			"A merchant may have at most %d live listen sessions; stop one (or wait for a closed one's resume window to pass)",
			ls.cfg.MaxLive), "", nil)
	}
	return nil
}

// listenHub is the process's listener of the sessions' notifications,
// started by the first session.
func (s *Service) listenHub() *notify.Hub[uuid.UUID, listenNote] {
	s.hubMu.Lock()
	defer s.hubMu.Unlock()
	if s.listenNotes == nil {
		s.listenNotes = notify.New(s.DB, notify.Config[uuid.UUID, listenNote]{Channel: listenChannel,
			Parse: parseListenNote, Buffer: s.Listen.cfg.Buffer, EndOnLoss: true, Logger: s.Logger})
	}
	return s.listenNotes
}
