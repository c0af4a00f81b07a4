package report

import (
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/zklock/zklock/checker"
)

// tenure is one client's belief that it held a lock: from the moment its
// acquire returned until it began to release, or learned the lease was lost.
// An acquire with an unknown outcome is drawn from its call to when the
// client gave up, hatched: it may or may not have held.
type tenure struct {
	client     string
	mode       checker.Mode
	token      int64
	start, end int64
	unknown    bool
	open       bool // never ended in the history: drawn to its end
}

// lane is the timeline of one lock path.
type lane struct {
	path    string
	clients []string
	tenures []tenure
}

// span is the time range the history covers.
type span struct{ from, to int64 }

func (s span) width() int64 {
	if s.to <= s.from {
		return 1
	}
	return s.to - s.from
}

// historySpan returns the first and last time any record mentions. (An
// unknown outcome's return is when the client gave up: a real time too.)
func historySpan(h checker.History) span {
	s := span{from: -1}
	for i := range h {
		r := &h[i]
		if s.from < 0 || r.Call < s.from {
			s.from = r.Call
		}
		end := r.Return
		if end < r.Call || end >= checker.MaxTime {
			end = r.Call
		}
		if end > s.to {
			s.to = end
		}
		if r.Call > s.to {
			s.to = r.Call
		}
	}
	if s.from < 0 {
		s.from = 0
	}
	return s
}

// lanes pairs every acquire with the release or loss of the same lease
// (same client, path and token) and groups the tenures by lock path.
func lanes(h checker.History, end int64) []lane {
	type key struct {
		client, path string
		token        int64
	}
	ends := map[key]int64{}
	for i := range h {
		r := &h[i]
		k := key{r.Client, r.Path, r.Token}
		switch r.Kind {
		case checker.KindRelease:
			if _, seen := ends[k]; !seen {
				ends[k] = r.Call
			}
		case checker.KindLost:
			ends[k] = r.Return
		}
	}
	byPath := map[string]*lane{}
	for i := range h {
		r := &h[i]
		if r.Kind != checker.KindAcquire || r.Outcome == checker.OutcomeFailed {
			continue
		}
		l := byPath[r.Path]
		if l == nil {
			l = &lane{path: r.Path}
			byPath[r.Path] = l
		}
		t := tenure{client: r.Client, mode: r.Mode, token: r.Token, start: r.Return}
		if r.Outcome == checker.OutcomeUnknown {
			t.unknown, t.start, t.end = true, r.Call, r.Return
			if t.end < t.start {
				t.end = end
			}
		} else if e, ok := ends[key{r.Client, r.Path, r.Token}]; ok && e >= t.start {
			t.end = e
		} else {
			t.end, t.open = end, true
		}
		l.tenures = append(l.tenures, t)
	}
	out := make([]lane, 0, len(byPath))
	for _, l := range byPath {
		seen := map[string]bool{}
		for _, t := range l.tenures {
			if !seen[t.client] {
				seen[t.client] = true
				l.clients = append(l.clients, t.client)
			}
		}
		sort.Strings(l.clients)
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// faultBand is an injected fault on the time axis.
type faultBand struct {
	kind, target string
	start, end   int64
}

func faultBands(h checker.History) []faultBand {
	var out []faultBand
	for i := range h {
		r := &h[i]
		if r.Kind != checker.KindFault {
			continue
		}
		end := r.Return
		if end < r.Call {
			end = r.Call
		}
		out = append(out, faultBand{kind: r.Fault, target: r.Target, start: r.Call, end: end})
	}
	return out
}

// palette gives each fault kind a colour, in order of first appearance.
// Blue and green are the leases', red the violations': faults get neither.
var palette = []string{"#f28e2b", "#b07aa1", "#edc948", "#9c755f", "#ff9da7", "#bab0ac",
	"#76b7b2", "#d4a6c8", "#f1ce63", "#a0cbe8", "#8c564b", "#c49c94", "#7f7f7f"}

func faultColors(bands []faultBand) map[string]string {
	colors := map[string]string{}
	for _, b := range bands {
		if _, ok := colors[b.kind]; !ok {
			colors[b.kind] = palette[len(colors)%len(palette)]
		}
	}
	return colors
}

// window is an offending interval to highlight.
type window struct {
	path       string
	start, end int64
	text       string
}

// svgOptions lays out one timeline.
type svgOptions struct {
	width  int
	rowH   int
	span   span  // the part of the history drawn
	origin int64 // where times are counted from: the history's start
	colors map[string]string
}

// timelineSVG draws one lock path: a row per client, tenures as bars
// labelled with their token, faults as shaded bands behind them, and the
// offending windows outlined in red.
func timelineSVG(l lane, bands []faultBand, wins []window, worst *window, o svgOptions) template.HTML {
	const left, top, axis = 120, 8, 22
	plot := o.width - left - 10
	height := top + len(l.clients)*o.rowH + axis
	x := func(t int64) float64 {
		if t < o.span.from {
			t = o.span.from
		}
		if t > o.span.to {
			t = o.span.to
		}
		return float64(left) + float64(plot)*float64(t-o.span.from)/float64(o.span.width())
	}
	w := func(a, b int64) float64 {
		d := x(b) - x(a)
		if d < 1 {
			return 1
		}
		return d
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" class="timeline" role="img" aria-label="timeline of %s">`,
		o.width, height, esc(l.path))
	b.WriteString(`<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="6" height="6" fill="#ddd"/><line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="3"/></pattern></defs>`)
	for _, f := range bands {
		if f.end < o.span.from || f.start > o.span.to {
			continue
		}
		fmt.Fprintf(&b, `<rect class="fault" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" fill-opacity="0.22"><title>%s on %s, %s</title></rect>`,
			x(f.start), top, w(f.start, f.end), len(l.clients)*o.rowH, o.colors[f.kind], esc(f.kind), esc(f.target), esc(interval(f.start, f.end, o.origin)))
	}
	row := map[string]int{}
	for i, c := range l.clients {
		row[c] = i
		y := top + i*o.rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" class="client">%s</text>`, left-6, y+o.rowH/2+4, esc(c))
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#eee"/>`, left, o.width-10, y+o.rowH, y+o.rowH)
	}
	for _, t := range l.tenures {
		if t.end < o.span.from || t.start > o.span.to {
			continue
		}
		y := top + row[t.client]*o.rowH + 3
		fill := "#3b6fb6"
		switch {
		case t.unknown:
			fill = "url(#hatch)"
		case t.mode == checker.ModeRead:
			fill = "#6fb76f"
		}
		what := "held"
		if t.unknown {
			what = "unknown outcome"
		} else if t.open {
			what = "held to the end of the history"
		}
		fmt.Fprintf(&b, `<rect class="tenure" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s token %d: %s, %s</title></rect>`,
			x(t.start), y, w(t.start, t.end), o.rowH-6, fill, esc(t.client), esc(string(t.mode)), t.token, what, esc(interval(t.start, t.end, o.origin)))
		if !t.unknown && w(t.start, t.end) > 34 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="token">%d</text>`, x(t.start)+3, y+o.rowH-10, t.token)
		}
	}
	for i := range wins {
		v := &wins[i]
		if v.path != l.path || v.end < o.span.from || v.start > o.span.to {
			continue
		}
		class, stroke, dash := "violation", "#d62728", ""
		if worst != nil && *v == *worst {
			class, stroke, dash = "violation worst", "#000", ` stroke-dasharray="4 2"`
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%.1f" y="%d" width="%.1f" height="%d" fill="#d62728" fill-opacity="0.25" stroke="%s" stroke-width="2"%s><title>%s</title></rect>`,
			class, x(v.start), top-4, w(v.start, v.end), len(l.clients)*o.rowH+8, stroke, dash, esc(v.text))
	}
	axisY := top + len(l.clients)*o.rowH
	fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#555"/>`, left, o.width-10, axisY, axisY)
	for i := 0; i <= 10; i++ {
		t := o.span.from + o.span.width()*int64(i)/10
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="tick">%s</text>`, x(t), axisY+16, esc(offset(t, o.origin)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func esc(s string) string { return template.HTMLEscapeString(s) }
