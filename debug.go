package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// debugHandler serves Go's runtime profiles (net/http/pprof) on their own
// mux, so they are never reachable through the API's listener.
func debugHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// startDebugServer serves debugHandler on addr until ctx ends. An empty
// addr serves nothing: profiles reveal internals, so they are opt-in
// (DEBUG_ADDR, best on a loopback address; docs/operations.md).
func startDebugServer(ctx context.Context, addr string, logger *slog.Logger) error {
	if addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// A CPU profile or trace runs for as long as it was asked (seconds=N),
	// so there is no write timeout; headers are still bounded.
	srv := &http.Server{Handler: debugHandler(), ReadHeaderTimeout: 5 * time.Second}
	logger.Info("serving runtime profiles", "addr", ln.Addr().String(), "path", "/debug/pprof/")
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Warn("debug listener stopped", "error", err)
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return nil
}
