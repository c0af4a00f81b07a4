package main

import (
	"math"
	"strings"
	"testing"
)

const mntrSample = "zk_version\t3.8.0\nzk_packets_received\t1000\nzk_avg_latency\t0.4\n" +
	"zk_cnt_updatelatency\t100\nzk_sum_updatelatency\t150\nzk_cnt_readlatency\t400\nzk_sum_readlatency\t40\n"

func TestParseMntr(t *testing.T) {
	a, ok := parseMntr(mntrSample)
	if !ok || a.packets != 1000 || a.updCnt != 100 || a.updSum != 150 || a.readCnt != 400 || a.readSum != 40 {
		t.Fatalf("parseMntr = %+v %v", a, ok)
	}
	b := mntrCounters{packets: 1600, updCnt: 300, updSum: 550, readCnt: 600, readSum: 100}
	l := loadBetween(a, b)
	if l.Requests != 600 || l.UpdateMs != 2 || l.ReadMs != 0.3 {
		t.Fatalf("loadBetween = %+v, want 600 requests, 2 ms writes, 0.3 ms reads", l)
	}
	if v := reqPerAcq(run{Server: l, Ops: 120}); v != 5 {
		t.Errorf("requests per acquisition = %v, want 5", v)
	}
	if v := reqPerAcq(run{Ops: 120}); !math.IsNaN(v) {
		t.Errorf("requests per acquisition without mntr = %v, want NaN", v)
	}
	// Controls: a server that leaves a counter out, or garbles one, gives
	// no snapshot rather than zeros.
	for name, out := range map[string]string{
		"missing": strings.Replace(mntrSample, "zk_sum_readlatency\t40\n", "", 1),
		"garbled": strings.Replace(mntrSample, "zk_packets_received\t1000", "zk_packets_received\tmany", 1),
		"empty":   "",
	} {
		if _, ok := parseMntr(out); ok {
			t.Errorf("%s: parsed", name)
		}
	}
}
