package tla

import "testing"

func TestParseCanon(t *testing.T) {
	for _, tc := range []struct{ in, canon string }{
		{`-1`, `-1`},
		{`TRUE`, `TRUE`},
		{`"idle"`, `"idle"`},
		{`c1`, `c1`},
		{`<<>>`, `<<>>`},
		{`<<c1, 2>>`, `<<c1, 2>>`},
		{`{<<c2, 1>>, <<c1, 1>>, <<c1, 1>>}`, `{<<c1, 1>>, <<c2, 1>>}`},
		{"{ [seq |-> 0, owner |-> <<c2, 1>>],\n  [owner |-> <<c1, 1>>, seq |-> 1] }", `{[owner |-> <<c1, 1>>, seq |-> 1], [owner |-> <<c2, 1>>, seq |-> 0]}`},
		{`(c2 :> "idle" @@ c1 :> "hold")`, `(c1 :> "hold" @@ c2 :> "idle")`},
		{`(1 :> a @@ 2 :> b)`, `<<a, b>>`},
		{`(c1 :> <<>> @@ c2 :> <<<<c2, 1>>>>)`, `(c1 :> <<>> @@ c2 :> <<<<c2, 1>>>>)`},
		{`[node |-> <<3, "write">>, req |-> <<c1, 1>>]`, `[node |-> <<3, "write">>, req |-> <<c1, 1>>]`},
		{`{}`, `{}`},
		{`[]`, `[]`},
	} {
		v, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := v.Canon(); got != tc.canon {
			t.Errorf("Parse(%q).Canon() = %q, want %q", tc.in, got, tc.canon)
		}
		// The printed form parses back to the same value.
		back, err := Parse(v.String())
		if err != nil || !Equal(back, v) {
			t.Errorf("%q does not round-trip: %v %v", v.String(), back, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{``, `<<1, 2`, `{1 2}`, `[a 1]`, `(a :> 1`, `(a 1)`, `"open`, `1 2`, `-`, `[a |-> 1,]`} {
		if v, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", in, v)
		}
	}
}

func TestStringIsTLCSyntax(t *testing.T) {
	v := Func{{Key: ModelValue("c1"), Value: Set{Record{{Name: "seq", Value: Int(0)}, {Name: "ok", Value: Bool(false)}}}},
		{Key: ModelValue("c2"), Value: Tuple{Str("a"), Int(-2)}}}
	if got, want := v.String(), `(c1 :> {[seq |-> 0, ok |-> FALSE]} @@ c2 :> <<"a", -2>>)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if Equal(Int(1), Str("1")) || !Equal(Func{}, Tuple{}) {
		t.Error("Equal")
	}
}
