// Package cow holds the copy-on-write slice helpers the Go models use.
//
// A model state shares unchanged slices with the state it was computed
// from; an action never writes into a slice it did not allocate itself.
// These helpers return fresh slices and leave their arguments untouched.
package cow

// With returns a copy of xs with xs[i] = v.
func With[T any](xs []T, i int, v T) []T {
	out := make([]T, len(xs))
	copy(out, xs)
	out[i] = v
	return out
}

// Filter returns the elements of xs for which keep is true, in order. It
// returns xs itself when every element is kept.
func Filter[T any](xs []T, keep func(T) bool) []T {
	n := 0
	for _, x := range xs {
		if keep(x) {
			n++
		}
	}
	if n == len(xs) {
		return xs
	}
	out := make([]T, 0, n)
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// Insert returns a copy of the sorted slice xs with x inserted in order
// (less is the order); if an element equal to x (neither less) is present,
// xs itself is returned: the slice is a set.
func Insert[T any](xs []T, x T, less func(a, b T) bool) []T {
	i := 0
	for i < len(xs) && less(xs[i], x) {
		i++
	}
	if i < len(xs) && !less(x, xs[i]) {
		return xs
	}
	out := make([]T, 0, len(xs)+1)
	out = append(out, xs[:i]...)
	out = append(out, x)
	return append(out, xs[i:]...)
}

// Append returns a copy of xs with x appended.
func Append[T any](xs []T, x ...T) []T {
	out := make([]T, 0, len(xs)+len(x))
	out = append(out, xs...)
	return append(out, x...)
}
