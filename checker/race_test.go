//go:build race

package checker_test

// raceEnabled shrinks the 100k test under the race detector, which slows porcupine's
// search tenfold without checking anything the smaller tests do not.
const raceEnabled = true
