package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/secrets"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
)

// DeliverArgs is the River job of one delivery. The job makes every
// attempt of the delivery: after a failure it snoozes until the next one
// (snoozes do not use up River's attempts); the attempts count in the
// delivery row.
type DeliverArgs struct {
	MerchantID uuid.UUID `json:"merchant_id"`
	Livemode   bool      `json:"livemode"`
	DeliveryID uuid.UUID `json:"delivery_id"`
	EndpointID uuid.UUID `json:"endpoint_id"`
}

// Kind names the job in river_job.
func (DeliverArgs) Kind() string { return "webhook_delivery" }

// InsertOpts puts deliveries in their own queue.
func (DeliverArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: Queue} }

// Delivery POSTs events to webhook endpoints: the River worker, its HTTP
// clients and the dispatcher that enqueues what the events trigger queued.
type Delivery struct {
	db         *store.DB
	secrets    *secrets.Source
	clock      clock.Clock
	logger     *slog.Logger
	cfg        DeliveryConfig
	production *http.Client // public addresses only
	sandbox    *http.Client // and local ones when cfg.Destinations allows
}

// NewDelivery builds the delivery of one process; secrets opens the
// endpoints' sealed signing secrets (the server secret the API seals them
// with).
func NewDelivery(db *store.DB, secretSource *secrets.Source, clk clock.Clock, logger *slog.Logger, cfg DeliveryConfig) *Delivery {
	if logger == nil {
		logger = slog.Default()
	}
	cfg = cfg.withDefaults()
	return &Delivery{db: db, secrets: secretSource, clock: clk, logger: logger, cfg: cfg,
		production: newDeliveryClient(cfg.Timeout, cfg.Destinations, true),
		sandbox:    newDeliveryClient(cfg.Timeout, cfg.Destinations, false)}
}

// Register adds the delivery worker to workers and returns the queues it
// needs (for jobs.Config).
func (d *Delivery) Register(workers *river.Workers) (map[string]int, error) {
	if err := river.AddWorkerSafely(workers, &deliveryWorker{d: d}); err != nil {
		return nil, fmt.Errorf("webhooks: register delivery worker: %w", err)
	}
	return map[string]int{Queue: d.cfg.Workers}, nil
}

type deliveryWorker struct {
	river.WorkerDefaults[DeliverArgs]
	d *Delivery
}

// Timeout leaves room for the POST and the statements around it.
func (w *deliveryWorker) Timeout(*river.Job[DeliverArgs]) time.Duration {
	return w.d.cfg.Timeout + time.Minute
}

// Work makes the delivery's next attempt, in one transaction that holds
// the endpoint's lock and the delivery's row: two workers (in one process
// or many) never make one attempt twice, and deliveries to one endpoint
// go one at a time, first attempts in the order their events were
// written. A crash after the POST and before the commit loses the record,
// not the delivery: the job runs again (at least once).
func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	a := job.Args
	// Loaded before the transaction: its first load takes a pool
	// connection of its own (see op.Write).
	if _, err := w.d.secrets.Get(ctx); err != nil {
		return err
	}
	var next again
	err := w.d.db.Tx(ctx, store.Scope{MerchantID: a.MerchantID, Livemode: a.Livemode}, func(ctx context.Context, tx *store.Tenant) error {
		var err error
		next, err = w.d.attempt(ctx, tx, a)
		return err
	})
	if err != nil {
		return err
	}
	if next.run {
		if next.waiting {
			next.after = waitLonger(next.after, job.Metadata)
		}
		return river.JobSnooze(next.after)
	}
	return nil
}

// maxOrderWait caps how long a delivery waits between looks at its
// endpoint while others go first.
const maxOrderWait = time.Second

// waitLonger stretches a wait for the endpoint by how often the job has
// already waited (River counts its snoozes in the job's metadata): a
// backlog behind a slow endpoint then polls less and less instead of
// spinning every worker.
func waitLonger(base time.Duration, metadata []byte) time.Duration {
	var m struct {
		Snoozes int `json:"snoozes"`
	}
	_ = json.Unmarshal(metadata, &m) // no metadata: no snoozes yet
	return min(base*time.Duration(1+min(m.Snoozes, 1000)), maxOrderWait)
}

// again says whether the job runs again, and when; waiting marks a wait
// for the endpoint (busy, or an earlier delivery first), not a retry.
type again struct {
	run     bool
	waiting bool
	after   time.Duration
}

var done = again{}

func runAgainIn(d time.Duration) again { return again{run: true, after: d} }

func waitForEndpoint(d time.Duration) again { return again{run: true, waiting: true, after: d} }

// attempt runs in the worker's transaction and says whether the job must
// run again.
func (d *Delivery) attempt(ctx context.Context, tx *store.Tenant, a DeliverArgs) (again, error) {
	// A delivery whose turn has not come waits without taking the
	// endpoint's lock, so the one whose turn it is finds the lock free.
	behind, err := d.behindEarlier(ctx, tx, a.DeliveryID)
	if err != nil || behind {
		return waitForEndpoint(d.cfg.OrderWait), err
	}
	locked, err := tx.TryLock(ctx, "webhook_endpoint:"+a.EndpointID.String())
	if err != nil || !locked {
		return waitForEndpoint(d.cfg.OrderWait), err
	}
	del := new(models.WebhookDelivery)
	err = tx.Select(del).ColumnExpr("?TableColumns, d.seq").Where("d.id = ?", a.DeliveryID).For("UPDATE").Scan(ctx)
	if store.IsNoRows(err) {
		return done, nil
	}
	if err != nil || del.Status != models.WebhookDeliveryPending {
		return done, err
	}
	if del.AttemptCount == 0 {
		earlier, err := tx.Select((*models.WebhookDelivery)(nil)).Where("d.endpoint_id = ?", del.EndpointID).
			Where("d.status = 'pending' AND d.attempt_count = 0 AND d.seq < ?", del.Seq).Exists(ctx)
		if err != nil || earlier {
			return waitForEndpoint(d.cfg.OrderWait), err
		}
	}
	ep := new(models.WebhookEndpoint)
	if err := tx.Select(ep).Where("w.id = ?", del.EndpointID).Scan(ctx); err != nil {
		return done, err
	}
	now := d.clock.Now()
	if !ep.Deleted.IsZero() || ep.Status != models.WebhookEndpointActive {
		reason := "endpoint disabled before delivery"
		if !ep.Deleted.IsZero() {
			reason = "endpoint deleted before delivery"
		}
		del.Status, del.LastError, del.NextAttempt, del.Updated = models.WebhookDeliveryFailed, &reason, wire.Timestamp{}, wire.At(now)
		_, err := tx.Update(del).Column("status", "last_error", "next_attempt", "updated").WherePK().Exec(ctx)
		return done, err
	}
	signing, err := d.signingSecrets(ctx, ep, now)
	if errors.Is(err, secrets.ErrUnsealable) {
		reason := "the endpoint's signing secret cannot be read with this server secret (SERVER_SECRET changed?): rotate it"
		del.Status, del.LastError, del.NextAttempt, del.Updated = models.WebhookDeliveryFailed, &reason, wire.Timestamp{}, wire.At(now)
		_, err := tx.Update(del).Column("status", "last_error", "next_attempt", "updated").WherePK().Exec(ctx)
		return done, err
	}
	if err != nil {
		return done, err
	}
	ev := new(events.Event)
	if err := tx.Select(ev).Where("e.id = ?", del.EventID).Scan(ctx); err != nil {
		return done, err
	}
	body, err := json.Marshal(ev)
	if err != nil {
		return done, err
	}
	at := d.post(ctx, ep, del, body, signing, now)
	at.ID, at.DeliveryID, at.Attempt, at.Created = ids.New(now), del.ID, del.AttemptCount+1, wire.At(now)
	if _, err := tx.Insert(at).Exec(ctx); err != nil {
		return done, err
	}
	del.AttemptCount = at.Attempt
	del.LastStatusCode, del.LastError, del.Updated = at.StatusCode, at.Error, wire.At(d.clock.Now())
	next := done
	switch {
	case at.StatusCode != nil && *at.StatusCode >= 200 && *at.StatusCode < 300:
		del.Status, del.NextAttempt = models.WebhookDeliverySucceeded, wire.Timestamp{}
	case d.cfg.Schedule.Final(del.AttemptCount):
		del.Status, del.NextAttempt = models.WebhookDeliveryFailed, wire.Timestamp{}
	default:
		next = runAgainIn(d.cfg.Schedule.Backoff(del.AttemptCount))
		del.NextAttempt = wire.At(now.Add(next.after))
	}
	_, err = tx.Update(del).Column("status", "attempt_count", "last_status_code", "last_error", "next_attempt", "updated").
		WherePK().Exec(ctx)
	return next, err
}

// earlierPendingSQL is whether a first attempt must wait: an earlier
// delivery to the same endpoint has not had its first attempt yet.
const earlierPendingSQL = `EXISTS (SELECT 1 FROM webhook_deliveries AS e
    WHERE e.merchant_id = d.merchant_id AND e.livemode = d.livemode AND e.endpoint_id = d.endpoint_id
      AND e.status = 'pending' AND e.attempt_count = 0 AND e.seq < d.seq)`

// behindEarlier reports whether the delivery, before its first attempt,
// must let an earlier one to its endpoint go first (one statement, no lock).
func (d *Delivery) behindEarlier(ctx context.Context, tx *store.Tenant, id uuid.UUID) (bool, error) {
	var behind bool
	err := tx.Select((*models.WebhookDelivery)(nil)).ColumnExpr(earlierPendingSQL).
		Where("d.id = ?", id).Where("d.status = 'pending' AND d.attempt_count = 0").Scan(ctx, &behind)
	if store.IsNoRows(err) {
		return false, nil
	}
	return behind, err
}

// post makes one attempt: the signed POST of body (API-DECISIONS §5).
func (d *Delivery) post(ctx context.Context, ep *models.WebhookEndpoint, del *models.WebhookDelivery, body []byte, signing signingSecrets, now time.Time) *models.WebhookAttempt {
	at := &models.WebhookAttempt{URL: ep.URL}
	fail := func(msg string) *models.WebhookAttempt { at.Error = &msg; return at }
	if p := webhook.URLProblem(ep.URL, ep.Livemode); p != "" {
		return fail("refused: the endpoint url " + p)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return fail("refused: the endpoint url is invalid")
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "payments-server-webhooks/1")
	h.Set(webhook.HeaderWebhookID, del.ID.String())
	h.Set(webhook.HeaderEvent, del.EventType)
	h.Set(webhook.HeaderSignature, webhook.Sign(signing.legacy, body))
	h.Set(webhook.HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	h.Set(webhook.HeaderSignatureV2, webhook.SignV2(now.Unix(), body, signing.all...))

	client := d.sandbox
	if ep.Livemode {
		client = d.production
	}
	// The address the answer came from: an excerpt is kept only from one
	// the mode may reach (the dialer refuses the others; this holds
	// whatever the connection came from).
	var remote netip.Addr
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
		if ap, err := netip.ParseAddrPort(ci.Conn.RemoteAddr().String()); err == nil {
			remote = ap.Addr()
		}
	}}))
	resp, err := client.Do(req)
	at.LatencyMS = int(d.clock.Now().Sub(now) / time.Millisecond)
	if err != nil {
		return fail(describeFailure(err, d.cfg.Timeout))
	}
	defer resp.Body.Close()
	code := resp.StatusCode
	at.StatusCode = &code
	excerpt, err := io.ReadAll(io.LimitReader(resp.Body, excerptLimit))
	at.LatencyMS = int(d.clock.Now().Sub(now) / time.Millisecond)
	if len(excerpt) > 0 && d.cfg.Destinations.Allows(webhook.ReachOf(remote), ep.Livemode) {
		s := strings.ToValidUTF8(strings.ReplaceAll(string(excerpt), "\x00", ""), "\uFFFD")
		at.ResponseExcerpt = &s
	}
	if err != nil && (code < 200 || code >= 300) {
		return fail(describeFailure(err, d.cfg.Timeout))
	}
	if code >= 300 && code < 400 {
		return fail("redirect not followed: answer " + strconv.Itoa(code))
	}
	return at
}

// signingSecrets are the secrets a delivery is signed with: legacy for the
// single-valued X-Frame-Signature, all (current first) for V2.
type signingSecrets struct {
	legacy string
	all    []string
}

// signingSecrets opens the endpoint's secrets. During a rotation's grace
// period the legacy header keeps the replaced secret (the one receivers
// still hold) and V2 carries both.
func (d *Delivery) signingSecrets(ctx context.Context, ep *models.WebhookEndpoint, now time.Time) (signingSecrets, error) {
	current, err := d.secrets.Open(ctx, SecretPurpose, ep.SealedSecret)
	if err != nil {
		return signingSecrets{}, err
	}
	s := signingSecrets{legacy: current, all: []string{current}}
	if ep.PreviousSealedSecret != nil && now.Before(ep.PreviousSecretExpires.Time) {
		previous, err := d.secrets.Open(ctx, SecretPurpose, *ep.PreviousSealedSecret)
		if err != nil {
			return signingSecrets{}, err
		}
		s.legacy, s.all = previous, append(s.all, previous)
	}
	return s, nil
}
