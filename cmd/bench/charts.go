package main

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The charts `make bench` writes next to the report, drawn by gonum's plot
// package from the same medians and ranges as the report's tables.
const (
	chartAcquisitions = "acquisitions.svg"
	chartHandoff      = "handoff.svg"
	chartReadMostly   = "readmostly.svg"
)

// series is one line of a chart: a value per client count, median over
// repetitions with its range.
type series struct {
	name   string
	points []spreadAt
	dashed bool // a bound, not a lock
}

type spreadAt struct {
	n int
	s spread
}

// errorPoints gives plotter.NewYErrorBars its points and their ranges.
type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// Colours that stay apart in print and for the colour-blind (Okabe and Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // green
	color.RGBA{204, 121, 167, 255}, // purple
	color.RGBA{86, 86, 86, 255},    // grey
	color.RGBA{230, 159, 0, 255},   // orange
}

// chart draws series against the client count (log scale) into file;
// drawn is false, and no file written, when no series has a value.
func chart(file, title, yLabel string, clients []int, all []series) (drawn bool, err error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "clients (N), each its own session"
	p.Y.Label.Text = yLabel
	p.X.Scale = plot.LogScale{}
	var ticks []plot.Tick
	for _, n := range clients {
		ticks = append(ticks, plot.Tick{Value: float64(n), Label: strconv.Itoa(n)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	// Room around the client counts, on the log scale: over one count
	// alone (--clients 1) the axis would otherwise be widened by one on
	// each side, to 0, where a log scale is undefined (gonum panics).
	p.X.Min, p.X.Max = float64(slices.Min(clients))/1.5, float64(slices.Max(clients))*1.5
	p.Y.Min = 0
	p.Legend.Top = true
	p.Legend.Left = true
	for i, s := range all {
		var xys plotter.XYs
		var errs plotter.YErrors
		for _, pt := range s.points {
			if !pt.s.ok() {
				continue
			}
			xys = append(xys, plotter.XY{X: float64(pt.n), Y: pt.s.Median})
			errs = append(errs, struct{ Low, High float64 }{pt.s.Median - pt.s.Min, pt.s.Max - pt.s.Median})
			p.Y.Max = math.Max(p.Y.Max, pt.s.Max)
		}
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return false, fmt.Errorf("%s: %w", file, err)
		}
		c := palette[i%len(palette)]
		line.Color, points.Color = c, c
		line.Width = vg.Points(1.5)
		points.Shape = draw.CircleGlyph{}
		if s.dashed {
			line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			points.Shape = draw.BoxGlyph{}
		}
		bars, err := plotter.NewYErrorBars(errorPoints{xys, errs})
		if err != nil {
			return false, fmt.Errorf("%s: %w", file, err)
		}
		bars.Color = c
		p.Add(line, points, bars)
		p.Legend.Add(s.name, line, points)
		drawn = true
	}
	if !drawn {
		return false, nil
	}
	p.Y.Max *= 1.5 // room for the legend above the lines
	return true, p.Save(8*vg.Inch, 4.5*vg.Inch, file)
}

// writeCharts draws the report's charts into dir and returns the names of
// the files it wrote.
func writeCharts(dir string, cfg config, t table) ([]string, error) {
	var many []int // client counts with a hand-off
	for _, n := range cfg.clients {
		if n > 1 {
			many = append(many, n)
		}
	}
	impls := []string{implZklock, implZkLock, implCurator}
	at := func(ns []int, f func(n int) []float64) []spreadAt {
		var out []spreadAt
		for _, n := range ns {
			out = append(out, spreadAt{n, over(f(n))})
		}
		return out
	}
	perSecond := func(impl, kind string) func(int) []float64 {
		return func(n int) []float64 { return t.per(impl, kind, n, opsRate) }
	}
	var acq, hand, rm []series
	for _, impl := range impls {
		if slices.Contains(cfg.impls, impl) {
			acq = append(acq, series{name: label[impl], points: at(cfg.clients, perSecond(impl, kindContended))})
			hand = append(hand, series{name: label[impl], points: at(many, func(n int) []float64 {
				return scale(t.per(impl, kindContended, n, hand50), 1e3)
			})})
		}
	}
	if slices.Contains(cfg.impls, implFloor) {
		acq = append(acq,
			series{name: "write ceiling (N sessions' create+delete pairs)", dashed: true, points: at(cfg.clients, func(n int) []float64 {
				w, _, _ := t.ceilings(n)
				return w
			})},
			series{name: "hand-off ceiling (1 / mean floor hand-off)", dashed: true, points: at(many, func(n int) []float64 {
				_, h, _ := t.ceilings(n)
				return h
			})})
		hand = append(hand, series{name: "floor (delete → notification)", dashed: true, points: at(many, func(int) []float64 {
			return scale(t.per(implFloor, kindHandoff, 2, hand50), 1e3)
		})})
	}
	if cfg.readMostly {
		for _, impl := range []string{implZklock, implCurator} {
			if !slices.Contains(cfg.impls, impl) {
				continue
			}
			rwName := map[string]string{implZklock: "zklock RWMutex", implCurator: "Curator InterProcessReadWriteLock"}[impl]
			rm = append(rm,
				series{name: rwName + " (1 write in " + strconv.Itoa(cfg.writeEvery) + ")", points: at(many, perSecond(impl, kindReadMostly))},
				series{name: label[impl] + " (exclusive)", dashed: true, points: at(many, perSecond(impl, kindContended))})
		}
	}
	var wrote []string
	for _, c := range []struct {
		file, title, y string
		clients        []int
		s              []series
	}{
		{chartAcquisitions, "Contended acquisitions per second (median, range over repetitions)", "acquisitions/s", cfg.clients, acq},
		{chartHandoff, "Hand-off p50: release start to next grant (median, range)", "milliseconds", many, hand},
		{chartReadMostly, "Read-mostly: read/write locks vs exclusive locks", "acquisitions/s", many, rm},
	} {
		if len(c.s) == 0 || len(c.clients) == 0 {
			continue
		}
		drawn, err := chart(filepath.Join(dir, c.file), c.title, c.y, c.clients, c.s)
		if err != nil {
			return wrote, err
		}
		if drawn {
			wrote = append(wrote, c.file)
		}
	}
	return wrote, nil
}

// scale multiplies every value by k (seconds to milliseconds).
func scale(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}
