package main

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"time"
)

// The floor: a bare net/http handler answering a small JSON object, on a
// loopback port of this process, driven by wrk like the API. No real server
// can answer faster on this machine, so it puts the API's figures in
// proportion.

type floorBody struct {
	Object   string `json:"object"`
	ID       string `json:"id"`
	Livemode bool   `json:"livemode"`
	Status   string `json:"status"`
}

type floorServer struct {
	srv *http.Server
	url string
}

func startFloor() (*floorServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	body := floorBody{Object: "account", ID: "01a2051c-9d79-7e4e-9a87-373cd034cf6f", Status: "pending"}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(body)
	})}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logf("floor server: %v", err)
		}
	}()
	return &floorServer{srv: srv, url: "http://" + ln.Addr().String() + "/"}, nil
}

func (f *floorServer) close() {
	if f != nil {
		_ = f.srv.Close()
	}
}
