package checker

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/anishathalye/porcupine"
)

// Colours of the annotations: faults in grey, findings by severity.
const (
	faultColour     = "#d9d9d9"
	violationColour = "#f4a6a6"
	excusedColour   = "#f9e3a3"
	legendColour    = "#e8f0fe"
)

// visualize writes porcupine's HTML for one partition, annotated with the injected
// faults (on the rows of the clients they hit, or on a "faults" row), the findings
// about this lock path or register, and a legend naming the client rows, which
// porcupine numbers.
func visualize(h History, p *Partition, model porcupine.Model, info porcupine.LinearizationInfo, res *Result, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("checker: visualisation: %w", err)
	}
	info.AddAnnotations(annotations(h, p, res))
	path := filepath.Join(dir, fmt.Sprintf("%s-%s.html", p.Model, sanitize(p.Key)))
	if err := porcupine.VisualizePath(model, info, path); err != nil {
		return "", fmt.Errorf("checker: visualisation of %s %s: %w", p.Model, p.Key, err)
	}
	return path, nil
}

func annotations(h History, p *Partition, res *Result) []porcupine.Annotation {
	ids := make(map[string]int, len(p.Clients))
	for id, c := range p.Clients {
		ids[c] = id
	}
	// Faults may target a session rather than a client.
	sessions := make(map[string]map[string]bool)
	for _, op := range p.Operations {
		r := op.Metadata.(*opMeta).rec
		if r.Session == "" {
			continue
		}
		if sessions[r.Session] == nil {
			sessions[r.Session] = make(map[string]bool)
		}
		sessions[r.Session][r.Client] = true
	}
	var first int64 = res.Horizon
	for _, op := range p.Operations {
		first = min(first, op.Call)
	}

	legend := make([]string, len(p.Clients))
	for id, c := range p.Clients {
		legend[id] = fmt.Sprintf("%d=%s", id, c)
	}
	out := []porcupine.Annotation{{
		Tag: "clients", Start: first, Description: strings.Join(legend, " "),
		Details:         "porcupine numbers the client rows; these are the clients' names",
		BackgroundColor: legendColour,
	}}

	for i := range h {
		f := &h[i]
		if f.Kind != KindFault {
			continue
		}
		desc := f.Fault
		if f.Target != "" {
			desc += " " + f.Target
		}
		details := fmt.Sprintf("fault record %d: %s, %s to %s", i, desc, fmtTime(f.Call), fmtTime(f.end()))
		if f.Error != "" {
			details += "\n" + f.Error
		}
		hit := false
		if f.Target != TargetAll {
			for c, id := range ids {
				if f.affects(c, "") || sessions[f.Target][c] {
					hit = true
					out = append(out, porcupine.Annotation{
						ClientId: id, Start: f.Call, End: f.end(), Description: desc,
						Details: details, BackgroundColor: faultColour,
					})
				}
			}
		}
		if !hit {
			out = append(out, porcupine.Annotation{
				Tag: "faults", Start: f.Call, End: f.end(), Description: desc,
				Details: details, BackgroundColor: faultColour,
			})
		}
	}

	for _, f := range res.Findings {
		if (p.Model == ModelRegister && f.Register != p.Key) || (p.Model != ModelRegister && (f.Register != "" || f.Path != p.Key)) {
			continue
		}
		colour := violationColour
		if !f.Violation() {
			colour = excusedColour
		}
		details := f.Text
		if f.Excuse != "" {
			details += "\nexcused: " + f.Excuse
		}
		out = append(out, porcupine.Annotation{
			Tag: "findings", Start: f.Start, End: f.End, Description: string(f.Check),
			Details: details, BackgroundColor: colour,
		})
	}
	return out
}

func sanitize(key string) string {
	var b strings.Builder
	for _, r := range key {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_")
}
