package httpx

import "net/http"

// OnHeader returns w wrapped so that fn runs once, just before the response
// header is sent: the place to add headers that depend on what the handler
// did (statement counts, a replayed result).
func OnHeader(w http.ResponseWriter, fn func(http.Header)) http.ResponseWriter {
	return &onHeader{ResponseWriter: w, fn: fn}
}

type onHeader struct {
	http.ResponseWriter
	fn      func(http.Header)
	written bool
}

func (o *onHeader) WriteHeader(code int) {
	if !o.written {
		o.written = true
		o.fn(o.Header())
	}
	o.ResponseWriter.WriteHeader(code)
}

func (o *onHeader) Write(b []byte) (int, error) {
	if !o.written {
		o.WriteHeader(http.StatusOK)
	}
	return o.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (o *onHeader) Unwrap() http.ResponseWriter { return o.ResponseWriter }
