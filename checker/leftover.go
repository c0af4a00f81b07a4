package checker

import "fmt"

// checkLeftovers reports lock nodes observed at the end of a run that no lease still
// held at the time of the observation. Record the observation after the last fault
// has healed and a session timeout has passed, while the clients' sessions are
// still open: a closed session takes its ephemeral nodes with it and hides orphans.
// A node left by an acquire whose outcome was unknown is an orphan too: the client
// must find it by its name and delete it.
func checkLeftovers(h History, ls *leases, out *collector) {
	byNode := make(map[string][]*lease)
	for _, l := range ls.all {
		if l.node != "" {
			byNode[l.node] = append(byNode[l.node], l)
		}
	}
	for i := range h {
		r := &h[i]
		if r.Kind != KindLeftover {
			continue
		}
		for _, node := range r.Nodes {
			var owner *lease
			held := false
			for _, l := range byNode[node] {
				if l.path != r.Path {
					continue
				}
				owner = l
				if l.start <= r.Call && l.end > r.Call {
					held = true
				}
			}
			if held {
				continue
			}
			f := Finding{
				Check: CheckLeftover, Path: r.Path, Start: r.Call, End: r.Call,
				Records: []int{i},
			}
			if owner != nil {
				f.Clients = []string{owner.client}
				f.Tokens = []int64{owner.token}
				f.Records = append(f.Records, leaseRecords(owner)...)
				f.Text = fmt.Sprintf("node %s still present at %s; it was %s's lock (token %d), whose tenure ended at %s",
					node, fmtTime(r.Call), owner.client, owner.token, fmtTime(owner.end))
			} else {
				f.Text = fmt.Sprintf("node %s still present at %s; no successful acquire returned it", node, fmtTime(r.Call))
			}
			out.add(f)
		}
	}
}
