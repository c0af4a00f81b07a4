// Package docs holds no code of the library: its tests keep the project's
// Markdown readable and true. README.md stays short, no line of a hand-written
// document is too long to read, every relative link resolves inside the
// repository, and every check that docs/GUARANTEES.md names (Go tests,
// mutants, TLA+ properties and configs, chaos checks) exists.
package docs
