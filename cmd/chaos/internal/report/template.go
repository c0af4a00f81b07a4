package report

// pageHTML is the page. Everything it needs is inline: it opens from a file
// on a machine with no network, years later.
const pageHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>chaos: {{.C.Verdict}} - {{.C.Title}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:20px;margin:0 0 4px} h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #ddd}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;color:#fff;font-weight:600}
.v-pass{background:#2e7d32}.v-fail{background:#c62828}.v-unknown,.v-error{background:#ef6c00}
table{border-collapse:collapse;margin:6px 0} td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
td.n{text-align:right} .muted{color:#777} .bad{color:#c62828;font-weight:600}
.summary td:first-child{font-weight:600}
svg.timeline text{font:11px sans-serif} svg.timeline .client{text-anchor:end} svg.timeline .token{fill:#fff}
svg.timeline .tick{text-anchor:middle;fill:#555}
.legend span{display:inline-block;margin-right:12px} .legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}
code{background:#f4f4f4;padding:1px 4px}
</style></head><body>
<h1>Chaos campaign <span id="verdict" class="verdict v-{{.C.Verdict}}">{{.C.Verdict}}</span></h1>
<div class="muted">{{.C.Title}}</div>

<h2 id="summary">Summary</h2>
<table class="summary">
<tr><td>verdict</td><td>{{.C.Verdict}} (exit {{.C.ExitCode}})</td></tr>
{{if .C.Control}}<tr><td>control</td><td>{{.C.Control}}: {{if eq .C.Verdict "fail"}}flagged, as it must be{{else}}<span class="bad">NOT flagged: the check missed it</span>{{end}}</td></tr>{{end}}
<tr><td>duration</td><td>{{.C.Elapsed}}, started {{.C.Started.UTC.Format "2006-01-02 15:04:05 UTC"}}</td></tr>
<tr><td>against</td><td>{{.C.Server}}</td></tr>
<tr><td>operations</td><td>{{.S.Operations}}</td></tr>
<tr><td>lock tenures</td><td>{{.S.Tenures}}</td></tr>
{{with .S.Election}}<tr><td>election</td><td id="election">{{.String}}</td></tr>{{end}}
{{with .S.Semaphore}}<tr><td>semaphore</td><td id="semaphore">{{.String}}</td></tr>{{end}}
<tr><td>faults</td><td>{{range .Faults}}{{.Name}} {{.Count}}; {{else}}none{{end}}</td></tr>
<tr><td>anomalies</td><td id="anomalies">{{range .Anomalies}}<span class="bad">{{.Name}} {{.Count}}</span>; {{else}}none{{end}}</td></tr>
{{with .S.Intruder}}<tr><td>intruder</td><td id="intruder">{{.Text}}</td></tr>{{end}}
{{if .S.Excused}}<tr><td>excused</td><td>{{.S.Excused}} findings explained by an injected fault (a client freeze, an operator's delete or replace, a wipe)</td></tr>{{end}}
<tr><td>replay</td><td><code>{{.C.Replay}}</code></td></tr>
</table>
{{range .C.Errors}}<p class="bad">error: {{.}}</p>{{end}}

{{with .Worst}}
<h2 id="violation">Shortest offending window</h2>
<p><b>{{.Path}}</b>, {{.Window}}: {{.Text}}</p>
{{.SVG}}
{{end}}

<h2 id="timelines">Who believed it held the lock, when</h2>
<p class="muted">A row per client and lock path. Blue: an exclusive or write lease, green: a read lease,
hatched: an acquire whose outcome is unknown; the number is the fencing token. Shaded bands are the
injected faults; red outlines are windows a check flagged, the dashed one the shortest.</p>
<div class="legend">{{range .Legend}}<span><i style="background:{{.Color}}"></i>{{.Kind}}</span>{{end}}</div>
{{range .Lanes}}<h3>{{.Path}}</h3>{{.SVG}}{{else}}<p>No lease was ever granted.</p>{{end}}

<h2 id="checks">Checks</h2>
<h3>Linearizability (porcupine), per partition</h3>
<table><tr><th>partition</th><th>model</th><th>operations</th><th>unknown</th><th>result</th><th>visualization</th></tr>
{{range .Models}}<tr><td>{{.Key}}</td><td>{{.Model}}</td><td class="n">{{.Operations}}</td><td class="n">{{.Unknown}}</td>
<td{{if eq .Result "Illegal"}} class="bad"{{end}}>{{.Result}}</td><td>{{if .HTML}}<a href="{{.HTML}}">open</a>{{end}}</td></tr>
{{else}}<tr><td colspan="6">not checked</td></tr>{{end}}</table>
<h3>Direct checks (overlap, token order, stale writes, leftovers)</h3>
{{if .Findings}}<table><tr><th>check</th><th>path</th><th>window</th><th>finding</th></tr>
{{range .Findings}}<tr><td{{if .Violation}} class="bad"{{end}}>{{.Check}}{{if not .Violation}} (excused){{end}}</td><td>{{.Path}}</td><td>{{.Window}}</td>
<td>{{.Text}}{{if .Excuse}} <span class="muted">excused: {{.Excuse}}</span>{{end}}</td></tr>{{end}}</table>
{{else}}<p>No findings.</p>{{end}}
<h3>Trace against the spec</h3>
{{with .C.Trace}}<p>{{.Steps}} steps of {{.Sessions}} sessions replayed in the model in {{.Elapsed}}:
<b{{if ne .Verdict "valid"}} class="bad"{{end}}>{{.Verdict}}</b>{{if .Report}} (<a href="{{.Report}}">report</a>){{end}}</p>
{{else}}<p>No trace was recorded (a control lock without trace events).</p>{{end}}

<h2 id="operations">Operations</h2>
<table><tr><th>operation</th><th>ok</th><th>failed</th><th>unknown</th></tr>
{{range .Outcomes}}<tr><td>{{.Kind}}</td><td class="n">{{.OK}}</td><td class="n">{{.Failed}}</td><td class="n">{{.Unknow}}</td></tr>{{end}}</table>
<details><summary>every record{{if .MoreOps}} (the first {{len .Ops}}; {{.MoreOps}} more in history.jsonl){{end}}</summary>
<table><tr><th>call</th><th>return</th><th>client</th><th>kind</th><th>path</th><th>outcome</th><th>detail</th></tr>
{{range .Ops}}<tr><td class="n">{{.Call}}</td><td class="n">{{.Return}}</td><td>{{.Client}}</td><td>{{.Kind}}</td><td>{{.Path}}</td><td>{{.Outcome}}</td><td>{{.Detail}}</td></tr>
{{end}}</table></details>
</body></html>
`
