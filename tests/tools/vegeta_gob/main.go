// Command vegeta_gob writes a Vegeta results file (gob, as `vegeta attack` writes it) from JSON
// lines on stdin, so fixtures measured with `perfreport attack` can be read as Vegeta results.
//
// Input, one object per line, either
//   - Vegeta's JSON result encoding (`vegeta encode --to json`): copied field for field, or
//   - perfreport's NDJSON export (`perfreport export --format ndjson`): start_ns, latency_ns,
//     status, bytes_in, bytes_out, method, url, error. Vegeta's conventions are applied: Seq
//     counts from 0, Error is "<code> <reason>" for a status outside 200-399 (Vegeta's
//     "404 Not Found"), and a perfreport "timeout" becomes the error Go's HTTP client gives
//     Vegeta when its -timeout expires. Bodies and headers are not recorded by the export and
//     stay empty (Vegeta writes nil headers for failed requests, too).
//
// The Result type mirrors lib/results.go of Vegeta v12.11.1 (field names, order and types),
// which is all encoding/gob puts on the wire; times carry the local zone, as Vegeta's do (run
// with TZ=UTC for the fixtures' zero offset).
//
// usage: go run ./tests/tools/vegeta_gob < results.ndjson > results.bin
package main

import (
	"bufio"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

// Result is Vegeta's result record (lib/results.go, v12.11.1).
type Result struct {
	Attack    string        `json:"attack"`
	Seq       uint64        `json:"seq"`
	Code      uint16        `json:"code"`
	Timestamp time.Time     `json:"timestamp"`
	Latency   time.Duration `json:"latency"`
	BytesOut  uint64        `json:"bytes_out"`
	BytesIn   uint64        `json:"bytes_in"`
	Error     string        `json:"error"`
	Body      []byte        `json:"body"`
	Method    string        `json:"method"`
	URL       string        `json:"url"`
	Headers   http.Header   `json:"headers"`
}

// sample is one line of perfreport's NDJSON export.
type sample struct {
	StartNs   *int64 `json:"start_ns"`
	LatencyNs int64  `json:"latency_ns"`
	Status    uint16 `json:"status"`
	BytesIn   uint64 `json:"bytes_in"`
	BytesOut  uint64 `json:"bytes_out"`
	Method    string `json:"method"`
	URL       string `json:"url"`
	Error     string `json:"error"`
}

func fromSample(s *sample, seq uint64) Result {
	r := Result{Seq: seq, Code: s.Status, Timestamp: time.Unix(0, *s.StartNs).Local(),
		Latency: time.Duration(s.LatencyNs), BytesOut: s.BytesOut, BytesIn: s.BytesIn,
		Method: s.Method, URL: s.URL, Error: s.Error}
	switch {
	case s.Error == "timeout":
		r.Error = fmt.Sprintf("Get %q: context deadline exceeded (Client.Timeout exceeded while awaiting headers)", s.URL)
	case r.Error == "" && s.Status != 0 && (s.Status < 200 || s.Status >= 400):
		r.Error = fmt.Sprintf("%d %s", s.Status, http.StatusText(int(s.Status)))
	}
	return r
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	enc := gob.NewEncoder(out)
	var seq uint64
	for line := 1; in.Scan(); line++ {
		var probe struct {
			StartNs *int64 `json:"start_ns"`
		}
		if err := json.Unmarshal(in.Bytes(), &probe); err != nil {
			fmt.Fprintf(os.Stderr, "vegeta_gob: stdin:%d: %v\n", line, err)
			os.Exit(1)
		}
		var r Result
		if probe.StartNs != nil {
			var s sample
			if err := json.Unmarshal(in.Bytes(), &s); err != nil {
				fmt.Fprintf(os.Stderr, "vegeta_gob: stdin:%d: %v\n", line, err)
				os.Exit(1)
			}
			r = fromSample(&s, seq)
		} else {
			if err := json.Unmarshal(in.Bytes(), &r); err != nil {
				fmt.Fprintf(os.Stderr, "vegeta_gob: stdin:%d: %v\n", line, err)
				os.Exit(1)
			}
			r.Timestamp = r.Timestamp.Local()
		}
		seq++
		if err := enc.Encode(&r); err != nil {
			fmt.Fprintf(os.Stderr, "vegeta_gob: %v\n", err)
			os.Exit(1)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "vegeta_gob: stdin: %v\n", err)
		os.Exit(1)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "vegeta_gob: stdout: %v\n", err)
		os.Exit(1)
	}
}
