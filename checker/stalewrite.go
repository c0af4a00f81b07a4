package checker

import (
	"fmt"
	"sort"
)

// checkStaleWrites reports writes a register accepted after it had certainly accepted
// a write with a higher token: the earlier write returned before the stale one was
// called. That is exactly what fencing exists to prevent, so no fault excuses it.
// Writes with overlapping intervals or unknown outcomes are left to the porcupine
// register model, which knows every order they could have taken effect in.
func checkStaleWrites(h History, out *collector) {
	byReg := make(map[string][]int)
	for i := range h {
		r := &h[i]
		if r.Kind == KindWrite && r.Outcome == OutcomeOK {
			byReg[r.registerKey()] = append(byReg[r.registerKey()], i)
		}
	}
	for reg, idx := range byReg {
		byReturn := append([]int(nil), idx...)
		sort.SliceStable(byReturn, func(a, b int) bool { return h[byReturn[a]].Return < h[byReturn[b]].Return })
		byCall := append([]int(nil), idx...)
		sort.SliceStable(byCall, func(a, b int) bool { return h[byCall[a]].Call < h[byCall[b]].Call })
		best := -1
		i := 0
		for _, y := range byCall {
			for i < len(byReturn) && h[byReturn[i]].Return < h[y].Call {
				if best < 0 || h[byReturn[i]].Token > h[best].Token {
					best = byReturn[i]
				}
				i++
			}
			if best < 0 || h[best].Token <= h[y].Token {
				continue
			}
			x, w := &h[best], &h[y]
			out.add(Finding{
				Check: CheckStaleWrite, Path: w.Path, Register: reg,
				Clients: []string{x.Client, w.Client}, Tokens: []int64{x.Token, w.Token},
				Start: x.Return, End: w.Return, Records: []int{best, y},
				Text: fmt.Sprintf("%s accepted %s's write with token %d at %s, after accepting %s's write with token %d at %s",
					reg, w.Client, w.Token, fmtTime(w.Call), x.Client, x.Token, fmtTime(x.Return)),
			})
		}
	}
}
