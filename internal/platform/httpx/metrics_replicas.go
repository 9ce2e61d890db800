package httpx

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// replicaCollector exports the read replicas as their last check saw them
// (store.Replicas.States), read when scraped: replicas may be attached
// after the server is assembled.
type replicaCollector struct {
	db                    *store.DB
	serving, lag, replays *prometheus.Desc
	reads                 *prometheus.Desc
}

// ObserveReplicas exports db's read replicas: db_replica_serving (1 in
// rotation, 0 out), db_replica_lag_seconds and db_replica_reads_total,
// labelled by replica (host:port).
func (m *Metrics) ObserveReplicas(db *store.DB) {
	label := []string{"replica"}
	m.Registry.MustRegister(&replicaCollector{db: db,
		serving: prometheus.NewDesc("db_replica_serving", "1 when the read replica is in rotation, 0 when it lags past the bound or is unreachable.", label, nil),
		lag:     prometheus.NewDesc("db_replica_lag_seconds", "How old the newest primary state the replica has replayed is, at its last check.", label, nil),
		replays: prometheus.NewDesc("db_replica_replayed_wal_bytes", "The replica's WAL replay position at its last check.", label, nil),
		reads:   prometheus.NewDesc("db_replica_reads_total", "Reads (lists, GraphQL pages) the replica served.", label, nil),
	})
}

func (c *replicaCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.serving
	ch <- c.lag
	ch <- c.replays
	ch <- c.reads
}

func (c *replicaCollector) Collect(ch chan<- prometheus.Metric) {
	rs := c.db.Replicas()
	if rs == nil {
		return
	}
	for _, s := range rs.States() {
		serving := 0.0
		if s.Serving {
			serving = 1
		}
		ch <- prometheus.MustNewConstMetric(c.serving, prometheus.GaugeValue, serving, s.Name)
		ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, s.Lag.Seconds(), s.Name)
		ch <- prometheus.MustNewConstMetric(c.replays, prometheus.GaugeValue, float64(s.Replayed), s.Name)
		ch <- prometheus.MustNewConstMetric(c.reads, prometheus.CounterValue, float64(s.Reads), s.Name)
	}
}
