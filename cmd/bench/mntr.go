package main

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// The servers' own view of a contended window, from the mntr four-letter
// word: how many requests they received per acquisition, and how long they
// took to answer writes and reads. mntr's counters are cumulative since the
// server started, so a window is the difference of two snapshots, one at
// its start and one at its end. ZooKeeper records these latencies in whole
// milliseconds, so their means read low by up to one millisecond; compare
// them between implementations, not with the client-side timings.

// mntrCounters are one server's cumulative counters.
type mntrCounters struct {
	packets, updCnt, updSum, readCnt, readSum float64
	// bytesOut is what the server sent its clients: replies
	// (zk_response_bytes) and watch events (zk_watch_bytes), ZooKeeper
	// 3.6's metrics; NaN on a server without them.
	bytesOut float64
}

// parseMntr reads the counters from mntr's "key<TAB>value" lines; ok is
// false when one is missing (a server too old, or mntr not allowed).
func parseMntr(out string) (mntrCounters, bool) {
	var m mntrCounters
	want := map[string]*float64{"zk_packets_received": &m.packets, "zk_cnt_updatelatency": &m.updCnt,
		"zk_sum_updatelatency": &m.updSum, "zk_cnt_readlatency": &m.readCnt, "zk_sum_readlatency": &m.readSum}
	var resp, watch float64
	optional := map[string]*float64{"zk_response_bytes": &resp, "zk_watch_bytes": &watch}
	seen, seenOpt := 0, 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "\t")
		p, opt := want[k], false
		if p == nil {
			p, opt = optional[k], true
		}
		if !ok || p == nil {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return m, false
		}
		*p = f
		if opt {
			seenOpt++
		} else {
			seen++
		}
	}
	m.bytesOut = math.NaN()
	if seenOpt == len(optional) {
		m.bytesOut = resp + watch
	}
	return m, seen == len(want)
}

// mntrSnapshot asks every server for mntr at once and sums the counters;
// ok is false if any server did not answer.
func mntrSnapshot(ctx context.Context, servers []string) (mntrCounters, bool) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var (
		mu  sync.Mutex
		sum mntrCounters
		all = true
		wg  sync.WaitGroup
	)
	for _, addr := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := ensemble.FourLetterWord(ctx, addr, "mntr")
			m, ok := parseMntr(out)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || !ok {
				all = false
				return
			}
			sum.packets += m.packets
			sum.updCnt += m.updCnt
			sum.updSum += m.updSum
			sum.readCnt += m.readCnt
			sum.readSum += m.readSum
			sum.bytesOut += m.bytesOut // NaN if any server lacks it
		}()
	}
	wg.Wait()
	return sum, all
}

// serverLoad is what the servers did during one measured window.
type serverLoad struct {
	Requests float64 // requests received (every session's, pings and syncs included)
	Bytes    float64 // bytes sent to clients, replies and watch events (NaN: not reported)
	UpdateMs float64 // mean write latency, milliseconds
	ReadMs   float64 // mean read latency, milliseconds
}

func loadBetween(a, b mntrCounters) *serverLoad {
	l := &serverLoad{Requests: b.packets - a.packets, Bytes: b.bytesOut - a.bytesOut}
	if n := b.updCnt - a.updCnt; n > 0 {
		l.UpdateMs = (b.updSum - a.updSum) / n
	}
	if n := b.readCnt - a.readCnt; n > 0 {
		l.ReadMs = (b.readSum - a.readSum) / n
	}
	return l
}

// watchServers takes a snapshot when the window opens and one when it
// closes (at times on since's clock) and returns the load between them,
// nil when a snapshot failed or ctx ended first.
func watchServers(ctx context.Context, servers []string, since func() int64, from, end int64) <-chan *serverLoad {
	out := make(chan *serverLoad, 1)
	go func() {
		defer close(out)
		var snaps [2]mntrCounters
		for i, at := range []int64{from, end} {
			select {
			case <-time.After(time.Duration(at - since())):
			case <-ctx.Done():
				return
			}
			var ok bool
			if snaps[i], ok = mntrSnapshot(ctx, servers); !ok {
				return
			}
		}
		out <- loadBetween(snaps[0], snaps[1])
	}()
	return out
}

// Per-run values of the servers' view, NaN where mntr gave none.
func reqPerAcq(r run) float64 {
	if r.Server == nil || r.Ops == 0 {
		return math.NaN()
	}
	return r.Server.Requests / float64(r.Ops)
}

func bytesPerAcq(r run) float64 {
	if r.Server == nil || r.Ops == 0 {
		return math.NaN()
	}
	return r.Server.Bytes / float64(r.Ops)
}

func serverUpdate(r run) float64 {
	if r.Server == nil {
		return math.NaN()
	}
	return r.Server.UpdateMs / 1e3
}

func serverRead(r run) float64 {
	if r.Server == nil {
		return math.NaN()
	}
	return r.Server.ReadMs / 1e3
}

// servers: the servers' view of the contended windows of every
// implementation, and of the write ceiling's; nothing when mntr gave none.
func (rw *reportWriter) servers() {
	t := rw.t
	var rows []string
	for _, n := range rw.cfg.clients {
		for _, r := range []struct{ impl, kind, name string }{
			{implFloor, kindWriteCeiling, "write ceiling"}, {implZklock, kindContended, label[implZklock]},
			{implZkLock, kindContended, label[implZkLock]}, {implCurator, kindContended, label[implCurator]}} {
			reqs := over(t.per(r.impl, r.kind, n, reqPerAcq))
			if !rw.has(r.impl) || !reqs.ok() {
				continue
			}
			rows = append(rows, fmt.Sprintf("| %d | %s | %s | %s | %s | %s |\n", n, r.name, reqs.plain(),
				over(t.per(r.impl, r.kind, n, bytesPerAcq)).plain(),
				over(t.per(r.impl, r.kind, n, serverUpdate)).ms(), over(t.per(r.impl, r.kind, n, serverRead)).ms()))
		}
	}
	if len(rows) == 0 {
		return
	}
	rw.w("### What the servers saw (mntr)\n\n")
	rw.w("Requests the three servers received per acquisition (each session's pings and zklock's heartbeat syncs " +
		"included), the bytes they sent per acquisition (replies and watch events, `zk_response_bytes` + " +
		"`zk_watch_bytes`), and their mean write and read latency, from the difference of two `mntr` snapshots taken " +
		"when the window opened and closed. The servers record latencies in whole milliseconds, so these " +
		"means read low by up to 1 ms: compare them across rows, not with the client-side timings. " +
		"The write ceiling's row is the servers flat out on create+delete pairs (two writes per pair).\n\n")
	rw.w("| N | implementation | requests per acquisition | bytes sent per acquisition | write latency | read latency |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		rw.w("%s", r)
	}
	rw.w("\n")
}
