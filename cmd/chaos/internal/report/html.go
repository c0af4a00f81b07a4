package report

import (
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/zklock/zklock/checker"
)

// maxListedOps bounds the operation list at the bottom of the page: a long
// soak has hundreds of thousands; the counts above cover them all.
const maxListedOps = 3000

// page is what the template renders.
type page struct {
	C         *Campaign
	S         Summary
	Faults    []namedCount
	Anomalies []namedCount
	Outcomes  []outcomeRow
	Legend    []legendItem
	Lanes     []laneView
	Worst     *worstView
	Models    []modelView
	Findings  []findingView
	Ops       []opView
	MoreOps   int
}

type namedCount struct {
	Name  string
	Count int
}

type outcomeRow struct {
	Kind               string
	OK, Failed, Unknow int
}

type legendItem struct{ Kind, Color string }

type laneView struct {
	Path string
	SVG  template.HTML
}

type worstView struct {
	Path, Text, Window string
	SVG                template.HTML
}

type modelView struct {
	Key, Model, Result, HTML string
	Operations, Unknown      int
}

type findingView struct {
	Check, Path, Text, Excuse, Window string
	Violation                         bool
}

type opView struct {
	Call, Return, Client, Kind, Path, Outcome, Detail string
}

// Write renders the campaign as one self-contained HTML page.
func Write(w io.Writer, c *Campaign) error {
	p := build(c)
	return pageTemplate.Execute(w, p)
}

func build(c *Campaign) *page {
	s := Summarize(c)
	p := &page{C: c, S: s}
	for _, n := range sortedByCount(s.Faults) {
		p.Faults = append(p.Faults, namedCount{n, s.Faults[n]})
	}
	for _, n := range sortedByCount(s.Anomalies) {
		p.Anomalies = append(p.Anomalies, namedCount{n, s.Anomalies[n]})
	}
	for _, k := range []checker.Kind{checker.KindAcquire, checker.KindRelease, checker.KindLost, checker.KindWrite, checker.KindRead} {
		p.Outcomes = append(p.Outcomes, outcomeRow{Kind: string(k), OK: s.ByOutcome[string(k)+" ok"],
			Failed: s.ByOutcome[string(k)+" failed"], Unknow: s.ByOutcome[string(k)+" unknown"]})
	}
	sp := historySpan(c.History)
	bands := faultBands(c.History)
	colors := faultColors(bands)
	for _, b := range bands {
		if !containsLegend(p.Legend, b.kind) {
			p.Legend = append(p.Legend, legendItem{b.kind, colors[b.kind]})
		}
	}
	wins := violationWindows(c)
	// Times count from the history clock's zero, the campaign's start, as
	// the checker's findings do.
	opt := svgOptions{width: 1180, rowH: 22, span: sp, colors: colors}
	ls := lanes(c.History, sp.to)
	worst := shortest(wins)
	for _, l := range ls {
		p.Lanes = append(p.Lanes, laneView{Path: trimRoot(l.path, c.Root), SVG: timelineSVG(l, bands, wins, worst, opt)})
	}
	if worst != nil {
		zoom := opt
		pad := (worst.end - worst.start) * 2
		if pad < int64(200*time.Millisecond) {
			pad = int64(200 * time.Millisecond)
		}
		zoom.span = span{from: worst.start - pad, to: worst.end + pad}
		for _, l := range ls {
			if l.path == worst.path {
				p.Worst = &worstView{Path: trimRoot(l.path, c.Root), Text: worst.text,
					Window: interval(worst.start, worst.end, 0), SVG: timelineSVG(l, bands, wins, worst, zoom)}
			}
		}
		if p.Worst == nil {
			p.Worst = &worstView{Path: trimRoot(worst.path, c.Root), Text: worst.text, Window: interval(worst.start, worst.end, 0)}
		}
	}
	if res := c.Result; res != nil {
		for _, m := range res.Models {
			p.Models = append(p.Models, modelView{Key: trimRoot(m.Key, c.Root), Model: m.Model, Result: string(m.Result),
				HTML: c.ModelHTML[m.Key], Operations: m.Operations, Unknown: m.Unknown})
		}
		for _, f := range res.Findings {
			p.Findings = append(p.Findings, findingView{Check: string(f.Check), Path: trimRoot(f.Path, c.Root),
				Text: strings.ReplaceAll(f.Text, c.Root, ""), Excuse: f.Excuse, Violation: f.Violation(),
				Window: interval(f.Start, f.End, 0)})
		}
	}
	for i := range c.History {
		r := &c.History[i]
		if len(p.Ops) == maxListedOps {
			p.MoreOps = len(c.History) - i
			break
		}
		p.Ops = append(p.Ops, opRow(r, 0, c.Root))
	}
	return p
}

func containsLegend(l []legendItem, kind string) bool {
	for _, x := range l {
		if x.Kind == kind {
			return true
		}
	}
	return false
}

// violationWindows are the offending intervals of the direct checks'
// violations: what the timelines outline in red.
func violationWindows(c *Campaign) []window {
	if c.Result == nil {
		return nil
	}
	var out []window
	for _, f := range c.Result.Findings {
		if f.Violation() && f.Path != "" {
			out = append(out, window{path: f.Path, start: f.Start, end: f.End, text: strings.ReplaceAll(f.Text, c.Root, "")})
		}
	}
	return out
}

// shortest returns the narrowest offending window: the easiest to read.
func shortest(ws []window) *window {
	var best *window
	for i := range ws {
		if best == nil || ws[i].end-ws[i].start < best.end-best.start {
			best = &ws[i]
		}
	}
	return best
}

func opRow(r *checker.Record, origin int64, root string) opView {
	v := opView{Call: offset(r.Call, origin), Client: r.Client, Kind: string(r.Kind), Path: trimRoot(r.Path, root),
		Outcome: string(r.Outcome)}
	if r.Kind != checker.KindLeftover && r.Outcome != checker.OutcomeUnknown {
		v.Return = offset(r.Return, origin)
	}
	var d []string
	if r.Mode != "" {
		d = append(d, string(r.Mode))
	}
	if r.Token != 0 {
		d = append(d, fmt.Sprintf("token %d", r.Token))
	}
	if r.Register != "" {
		d = append(d, "register "+trimRoot(r.Register, root))
	}
	if r.Value != "" {
		d = append(d, "value "+r.Value)
	}
	if r.Fault != "" {
		d = append(d, r.Fault+" on "+r.Target)
	}
	if r.Error != "" {
		d = append(d, r.Error)
	}
	v.Detail = strings.Join(d, "; ")
	return v
}

// trimRoot drops the campaign's ZooKeeper root from a path or a partition
// key ("zk:<root>/data/x"): it is the same everywhere.
func trimRoot(p, root string) string {
	if root == "" {
		return p
	}
	return strings.ReplaceAll(p, root, "")
}

// offset renders a history time as seconds since the history's start.
func offset(t, origin int64) string {
	return fmt.Sprintf("%.3fs", float64(t-origin)/1e9)
}

func interval(a, b, origin int64) string {
	if a == b {
		return "at " + offset(a, origin)
	}
	return fmt.Sprintf("%s to %s (%s)", offset(a, origin), offset(b, origin), time.Duration(b-a).Round(time.Millisecond))
}

var pageTemplate = template.Must(template.New("report").Parse(pageHTML))
