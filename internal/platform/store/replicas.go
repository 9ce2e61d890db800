package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/clock"
)

// Read replicas: streaming standbys of the primary (PostgreSQL's own
// replication) that serve the heavy reads, lists and GraphQL pages, when
// the request allows (AllowReplica) and the replica has replayed the last
// commit of the merchant asking, so a merchant always reads its own
// writes. Everything else (reads by id, credentials, idempotency, every
// statement of a write) stays on the primary: those go through DB.Tenant,
// DB.Tx and DB.Bun, which only ever reach the primary.
//
// How fresh a replica is, is measured on PostgreSQL's own positions in the
// write-ahead log (LSN):
//   - every commit through Tx or TxAcross notes, after it commits, a WAL
//     position of the primary at or past its commit record for its scope
//     (commitPositionSQL): a replica serves that merchant again once its
//     pg_last_wal_replay_lsn() is there;
//   - Check samples the primary's position and each replica's replay
//     position; a replica's lag is the age of the newest primary sample it
//     has replayed. A replica lagging more than MaxLag, one that has
//     replayed no sample yet, or one not answering, is out of rotation until
//     a later Check finds it caught up.
//
// A replica's position is known as of the last Check, never newer than the
// truth, so a merchant that just wrote reads the primary until the next
// Check has seen its commit replayed: freshness errs towards the primary.
// Positions are noted per process: a merchant writing through one server
// process and reading through another is protected by MaxLag alone
// (docs/scaling.md).

// Replica defaults.
const (
	// DefaultReplicaMaxLag is how far behind the primary a replica may be
	// and still serve.
	DefaultReplicaMaxLag = 5 * time.Second
	// DefaultReplicaCheckInterval is how often positions are sampled.
	DefaultReplicaCheckInterval = time.Second
	// maxSamples bounds the primary positions kept for lag measurement.
	maxSamples = 4096
	// pendingLSN marks a scope whose commit position could not be read
	// after its commit: it reads the primary until the next Check replaces
	// it with a position sampled after that commit.
	pendingLSN = math.MaxUint64
)

// ReplicaConfig configures OpenReplicas.
type ReplicaConfig struct {
	// URLs are the replicas' connection URLs (read-only standbys of the
	// database DB opened).
	URLs []string
	// MaxConns is each replica pool's size (0: DefaultMaxConns).
	MaxConns int32
	// MaxLag takes a replica out of rotation (0: DefaultReplicaMaxLag).
	MaxLag time.Duration
	// Clock measures lag; nil is the real clock.
	Clock clock.Clock
	// Logger reports replicas leaving and rejoining the rotation.
	Logger *slog.Logger
}

// Replicas is the rotation of read replicas of a DB.
type Replicas struct {
	primary *pgxpool.Pool
	clock   clock.Clock
	maxLag  time.Duration
	log     *slog.Logger
	list    []*Replica
	next    atomic.Uint64

	mu      sync.Mutex // serializes Check; guards samples
	samples []walSample

	// written maps a Scope to the WAL position (uint64) of its last commit
	// noted by this process, or pendingLSN.
	written sync.Map
}

// walSample is the primary's WAL position at a moment.
type walSample struct {
	at  time.Time
	lsn uint64
}

// Replica is one read replica.
type Replica struct {
	// Name is host:port, for logs and metrics (never the URL: it holds the
	// password).
	Name string
	db   *bun.DB
	pool *pgxpool.Pool

	replayed atomic.Uint64 // pg_last_wal_replay_lsn() at the last Check
	serving  atomic.Bool
	lagNanos atomic.Int64
	reads    atomic.Int64
}

// ReplicaState is what Check last learned of a replica.
type ReplicaState struct {
	Name     string
	Serving  bool
	Lag      time.Duration
	Replayed uint64
	// Reads counts the reads the replica served.
	Reads int64
}

// OpenReplicas connects d's read replicas and checks them once; those
// caught up serve at once. Call it before serving requests.
func (d *DB) OpenReplicas(ctx context.Context, cfg ReplicaConfig) error {
	if len(cfg.URLs) == 0 {
		return nil
	}
	if cfg.MaxLag <= 0 {
		cfg.MaxLag = DefaultReplicaMaxLag
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	rs := &Replicas{primary: d.Pool, clock: cfg.Clock, maxLag: cfg.MaxLag, log: cfg.Logger}
	for _, u := range cfg.URLs {
		pool, db, err := openPool(ctx, u, cfg.MaxConns, &openConfig{})
		if err != nil {
			rs.close()
			return fmt.Errorf("store: replica: %w", err)
		}
		cc := pool.Config().ConnConfig
		rs.list = append(rs.list, &Replica{Name: net.JoinHostPort(cc.Host, strconv.Itoa(int(cc.Port))), db: db, pool: pool})
	}
	if err := rs.Check(ctx); err != nil {
		rs.close()
		return err
	}
	d.replicas = rs
	return nil
}

// Replicas is d's rotation of read replicas; nil without any.
func (d *DB) Replicas() *Replicas { return d.replicas }

func (rs *Replicas) close() {
	for _, r := range rs.list {
		_ = r.db.Close()
		r.pool.Close()
	}
}

type replicaKey struct{}

// AllowReplica marks ctx as a request whose lists may be read from a
// replica: a read (REST GET, a GraphQL query) that carries no
// Idempotency-Key. The transports mark; ReadTenant decides.
func AllowReplica(ctx context.Context) context.Context {
	return context.WithValue(ctx, replicaKey{}, true)
}

func replicaAllowed(ctx context.Context) bool {
	ok, _ := ctx.Value(replicaKey{}).(bool)
	return ok
}

// ReadTenant starts the reads of a list in scope s: over a replica when
// ctx allows it (AllowReplica), one is in rotation and it has replayed s's
// last commit; over the primary otherwise (DB.Tenant).
func (d *DB) ReadTenant(ctx context.Context, s Scope) *Tenant {
	if d.replicas == nil || !replicaAllowed(ctx) {
		return d.Tenant(s)
	}
	if r := d.replicas.pick(s); r != nil {
		r.reads.Add(1)
		return &Tenant{idb: r.db, bun: r.db, scope: s, prepared: d.prepared, pool: r.pool}
	}
	return d.Tenant(s)
}

// pick returns a serving replica that has replayed s's last noted commit,
// taking turns among them; nil when none has.
func (rs *Replicas) pick(s Scope) *Replica {
	var need uint64
	if v, ok := rs.written.Load(s); ok {
		need = v.(uint64)
	}
	n := uint64(len(rs.list))
	start := rs.next.Add(1)
	for i := range n {
		r := rs.list[(start+i)%n]
		if r.serving.Load() && r.replayed.Load() >= need {
			return r
		}
	}
	return nil
}

// noteCommit records, right after a commit in scope s on conn, the
// primary's WAL position, which is at or past that commit's record. When
// it cannot be read the scope reads the primary until the next Check.
func (rs *Replicas) noteCommit(ctx context.Context, conn *sql.Conn, s Scope) {
	lsn := uint64(pendingLSN)
	var text string
	if err := conn.QueryRowContext(context.WithoutCancel(ctx), commitPositionSQL).Scan(&text); err == nil {
		if v, err := ParseLSN(text); err == nil {
			lsn = v
		}
	}
	rs.raise(s, lsn)
}

// commitPositionSQL is, right after a commit on the same connection, a
// WAL position at or past its commit record: the flush position when the
// commit flushed (every synchronous_commit but off), which leaves out WAL
// other sessions inserted and no replica can have yet; the insert position
// for an asynchronous commit, whose record may not be flushed yet.
const commitPositionSQL = `SELECT CASE WHEN current_setting('synchronous_commit') = 'off'
	THEN pg_current_wal_insert_lsn() ELSE pg_current_wal_flush_lsn() END::text`

// raise sets s's position to lsn unless it is already further.
func (rs *Replicas) raise(s Scope, lsn uint64) {
	for {
		old, loaded := rs.written.LoadOrStore(s, lsn)
		if !loaded {
			return
		}
		o := old.(uint64)
		if o != pendingLSN && o >= lsn {
			return
		}
		if rs.written.CompareAndSwap(s, old, lsn) {
			return
		}
	}
}

// Check samples the primary's WAL position and each replica's replay
// position, puts the replicas within MaxLag in rotation and takes the
// others out. An error reaching the primary is returned (and changes
// nothing); a replica that cannot be reached leaves the rotation.
func (rs *Replicas) Check(ctx context.Context) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var pending []any
	rs.written.Range(func(k, v any) bool {
		if v.(uint64) == pendingLSN {
			pending = append(pending, k)
		}
		return true
	})
	var text string
	// The flush position: only flushed WAL streams to replicas.
	if err := rs.primary.QueryRow(ctx, "SELECT pg_current_wal_flush_lsn()::text").Scan(&text); err != nil {
		return fmt.Errorf("store: sample the primary's WAL position: %w", err)
	}
	primary, err := ParseLSN(text)
	if err != nil {
		return err
	}
	now := rs.clock.Now()
	rs.addSample(walSample{at: now, lsn: primary})
	for _, k := range pending {
		rs.written.CompareAndSwap(k, uint64(pendingLSN), primary)
	}
	low := primary
	for _, r := range rs.list {
		replayed, err := replayPosition(ctx, r.pool)
		lag, known := rs.lagAt(now, replayed)
		serving := err == nil && known && lag <= rs.maxLag
		if err == nil {
			r.replayed.Store(replayed)
			low = min(low, replayed)
		} else {
			low = 0
		}
		r.lagNanos.Store(int64(lag))
		if was := r.serving.Swap(serving); was != serving {
			if serving {
				rs.log.Info("replica back in rotation", "replica", r.Name, "lag", lag.String())
			} else {
				rs.log.Warn("replica out of rotation", "replica", r.Name, "lag", lag.String(), "max_lag", rs.maxLag.String(), "error", err)
			}
		}
	}
	rs.prune(low)
	return nil
}

// replayPosition is a replica's pg_last_wal_replay_lsn(); an error for a
// server that is not replaying (a primary, a promoted standby), which must
// not serve as a replica of this one.
func replayPosition(ctx context.Context, pool *pgxpool.Pool) (uint64, error) {
	var text *string
	if err := pool.QueryRow(ctx, "SELECT pg_last_wal_replay_lsn()::text").Scan(&text); err != nil {
		return 0, err
	}
	if text == nil {
		return 0, errors.New("store: the replica is not a standby (pg_last_wal_replay_lsn() is null)")
	}
	return ParseLSN(*text)
}

// addSample keeps s, merging it with the previous sample at the same
// position (the newest time a position was current is what lag needs).
func (rs *Replicas) addSample(s walSample) {
	if n := len(rs.samples); n > 0 && rs.samples[n-1].lsn == s.lsn {
		rs.samples[n-1] = s
		return
	}
	rs.samples = append(rs.samples, s)
	if len(rs.samples) > maxSamples {
		rs.samples = rs.samples[len(rs.samples)-maxSamples:]
	}
}

// lagAt is how old, at now, the newest primary state a replica at
// replayed shows is: zero for one that replayed the latest sample. For one
// that replayed no sample kept (a replica just started, behind the
// primary's position at the first check) the lag is not known (known is
// false; lag is the age of the oldest sample, a lower bound): it does not
// serve until it has caught up with a sample.
func (rs *Replicas) lagAt(now time.Time, replayed uint64) (lag time.Duration, known bool) {
	for i := len(rs.samples) - 1; i >= 0; i-- {
		if rs.samples[i].lsn <= replayed {
			return now.Sub(rs.samples[i].at), true
		}
	}
	if len(rs.samples) == 0 {
		return 0, false
	}
	return now.Sub(rs.samples[0].at), false
}

// prune forgets what every replica has replayed: samples before the newest
// one at or below low, and scopes whose last commit is at or below low.
func (rs *Replicas) prune(low uint64) {
	keep := 0
	for i, s := range rs.samples {
		if s.lsn <= low {
			keep = i
		}
	}
	rs.samples = rs.samples[keep:]
	rs.written.Range(func(k, v any) bool {
		if lsn := v.(uint64); lsn != pendingLSN && lsn <= low {
			rs.written.CompareAndDelete(k, v)
		}
		return true
	})
}

// Run checks the replicas every interval until ctx ends.
func (rs *Replicas) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		interval = DefaultReplicaCheckInterval
	}
	for clock.Sleep(ctx, interval) == nil {
		if err := rs.Check(ctx); err != nil && ctx.Err() == nil {
			rs.log.Warn("replica check failed", "error", err)
		}
	}
}

// States reports each replica as the last Check saw it.
func (rs *Replicas) States() []ReplicaState {
	out := make([]ReplicaState, len(rs.list))
	for i, r := range rs.list {
		out[i] = ReplicaState{Name: r.Name, Serving: r.serving.Load(), Lag: time.Duration(r.lagNanos.Load()),
			Replayed: r.replayed.Load(), Reads: r.reads.Load()}
	}
	return out
}

// ParseLSN reads PostgreSQL's text form of a WAL position ("16/B374D848").
func ParseLSN(s string) (uint64, error) {
	hi, lo, ok := strings.Cut(s, "/")
	if ok {
		h, err1 := strconv.ParseUint(hi, 16, 32)
		l, err2 := strconv.ParseUint(lo, 16, 32)
		if err1 == nil && err2 == nil {
			return h<<32 | l, nil
		}
	}
	return 0, fmt.Errorf("store: %q is not a WAL position", s)
}
