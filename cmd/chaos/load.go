package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/load"
	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/report"
)

// runLoad runs a load campaign (--load) on clu and returns its exit status.
// The servers' timing comes from the cluster (for --servers, from the
// flags, as for any campaign).
func runLoad(ctx context.Context, cfg *campaign.Config, clu nemesis.Cluster, out *campaign.OutDir, stdout, notes io.Writer) int {
	lc := *cfg.Load
	lc.TickTime, lc.SyncLimit = clu.Timing()
	root := fmt.Sprintf("/zklock-chaos/load-%s", time.Now().Format("20060102-150405.000"))
	fmt.Fprintf(notes, "chaos: load campaign on %s; output in %s\n", clu.Describe(), out.Path)
	started := time.Now()
	res := load.Run(ctx, lc, clu.Addrs(), root, notes)
	r := report.NewLoadReport(lc, res, load.Judge(res, lc.AcquireBound), started, clu.Describe(), root)
	if err := report.WriteJSON(out.File("report.json"), r); err != nil {
		fmt.Fprintln(notes, "chaos: writing report.json:", err)
		if r.ExitCode == exitPass {
			r.ExitCode = exitSetup
		}
	}
	keep := ""
	if r.ExitCode != exitPass {
		keep = out.Path
	}
	if err := clu.Close(keep); err != nil {
		fmt.Fprintln(notes, "chaos: stopping the ensemble:", err)
	}
	report.WriteLoadTable(stdout, r, out.Path)
	return r.ExitCode
}
